/*
 * rlink.h: the gateway's Redis connections (asynchronous, hiredis' libuv adapter): one
 * Redis, or the masters of a Redis Cluster with each command routed by its key's slot.
 *
 * One Redis: one connection, made on first use and again, at most once a second, after it
 * drops. A cluster (dh_redis.h: redis+cluster:// or DECKHAND_REDIS_CLUSTER=1) is routed
 * by common/dh_redis_async.h: one connection per master, MOVED and ASK followed, the
 * caller's callback seeing only the final reply.
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
