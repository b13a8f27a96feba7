/*
 * rlink.h: the gateway's Redis connections (asynchronous, hiredis' libuv adapter): one
 * Redis, or the masters of a Redis Cluster with each command routed by its key's slot.
 *
 * One Redis: one connection, made on first use and again, at most once a second, after it
 * drops. A cluster (dh_redis.h: redis+cluster:// or DECKHAND_REDIS_CLUSTER=1): the slot
 * map is read with a short synchronous CLUSTER SLOTS (at the first command, and after a
 * MOVED or a lost node: rare, and bounded by the timeout), then one connection per
 * master as commands need them. A MOVED or ASK reply sends the command again to the
 * named node (after ASKING for ASK), at most RLINK_HOPS times; the caller's callback
 * sees only the final reply.
 */
#ifndef DECKHAND_GW_RLINK_H
#define DECKHAND_GW_RLINK_H

#include "gw.h"

struct redisAsyncContext;
typedef void rlink_fn(struct redisAsyncContext *, void *, void *);

/* Set up for g->redis_addr (parsed already). 0, or -1 (out of memory). */
int rlink_init(gw *g);
/* Send one command; fn gets its reply (NULL when the connection failed) exactly once.
 * -1 when Redis is down (fn is not called). */
int rlink_send(gw *g, rlink_fn *fn, void *priv, int argc, const char **argv, const size_t *lens);
/* Drop every connection: their pending commands complete with a NULL reply. */
void rlink_drop(gw *g);
/* Any connection up or connecting. */
bool rlink_any(const gw *g);
/* Drop everything and free the cluster state (shutdown). */
void rlink_stop(gw *g);

#endif
