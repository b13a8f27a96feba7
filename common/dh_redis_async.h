/*
 * dh_redis_async.h: a Redis Cluster over hiredis' asynchronous API, routed by slot with
 * the same slot map, MOVED and ASK handling as the synchronous dh_redis (the gateway's
 * Redis link, gateway/rlink.c, is its user: Debian's hiredis 0.14 has no cluster client).
 *
 * The event loop is the caller's: a dh_redis_async opens each connection through the
 * caller's open hook (which attaches it to its loop and queues AUTH and SELECT) and reads
 * the time through its clock hook. The slot map is read with a short synchronous CLUSTER
 * SLOTS (at the first command, and after a MOVED or a lost node: rare, and bounded by the
 * timeout), then one connection per master is opened as commands need it, at most once a
 * second per node. A MOVED or ASK reply sends the command again to the named node (after
 * ASKING for ASK), at most DH_REDIS_ASYNC_HOPS times; the caller's callback sees only
 * the final reply.
 */
#ifndef DECKHAND_DH_REDIS_ASYNC_H
#define DECKHAND_DH_REDIS_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct redisAsyncContext;

#define DH_REDIS_ASYNC_HOPS 5 /* redirects followed for one command before it fails */

/* A command's reply (NULL when its connection failed or a redirect could not be
 * followed), handed to the caller's callback exactly once. */
typedef void dh_redis_async_fn(struct redisAsyncContext *ac, void *reply, void *priv);

typedef struct {
    /* A new connection to host:port attached to the caller's loop, AUTH and SELECT queued
     * first (dh_redis_auth_argv); NULL on failure. */
    struct redisAsyncContext *(*open)(void *ud, const char *host, int port);
    uint64_t (*now_ms)(void *ud); /* the caller's clock */
    void *ud;
} dh_redis_async_hooks;

typedef struct dh_redis_async dh_redis_async;

/* A cluster's routing for url (a cluster URL, dh_redis.h); nothing connects yet. NULL on
 * a malformed URL or out of memory. Freed with dh_redis_async_free. */
dh_redis_async *dh_redis_async_new(const char *url, const dh_redis_async_hooks *hooks);
/* Send one command to the master of its key's slot; fn gets its reply exactly once.
 * -1 when no master for it can be reached (fn is not called). */
int dh_redis_async_send(dh_redis_async *a, dh_redis_async_fn *fn, void *priv, int argc,
                        const char **argv, const size_t *lens);
/* Forget ac, a connection that failed or closed (hiredis frees it after its callback). */
void dh_redis_async_forget(dh_redis_async *a, const struct redisAsyncContext *ac);
/* Read the slot map again before the next command (a node was lost). */
void dh_redis_async_stale(dh_redis_async *a);
/* Drop every connection: their pending commands complete with a NULL reply. */
void dh_redis_async_drop(dh_redis_async *a);
/* Any connection up or connecting. */
bool dh_redis_async_any(const dh_redis_async *a);
/* Drop everything and free a (NULL: nothing). */
void dh_redis_async_free(dh_redis_async *a);

#endif
