/*
 * lookup.h: where does a match live, when this gateway never saw its MatchAssigned?
 *
 * A player who reconnects through another gateway, or through a restarted one, sends
 * Resync for a match the gateway has no route for. The worker that hosts a match writes
 * it into Redis (match:{ID} field worker; worker:{ID} = its data endpoint), so the
 * gateway asks Redis, asynchronously through hiredis' libuv adapter, instead of answering
 * UNKNOWN_MATCH. With --redis none there is no lookup.
 */
#ifndef DECKHAND_GW_LOOKUP_H
#define DECKHAND_GW_LOOKUP_H

#include "gw.h"

typedef enum {
    LOOKUP_FOUND,   /* worker_id and endpoint are set */
    LOOKUP_MISSING, /* no such match, or it has finished, or its worker is gone */
    LOOKUP_FAILED,  /* Redis is unreachable or disabled */
} lookup_result;

typedef void (*lookup_cb)(gw *g, void *arg, lookup_result res, const char *worker_id,
                          const char *endpoint);

/* Parse g->redis_url ("none" disables). Connects lazily. 0, or -1 on a malformed URL. */
int lookup_init(gw *g);
bool lookup_enabled(const gw *g);

/* Find match_id's worker. cb is called exactly once, possibly before this returns. */
void lookup_match(gw *g, const char *match_id, lookup_cb cb, void *arg);

/* The other reads and writes of the gateway (accounts.c, boards.c) share the connection:
 * send one command; fn is called exactly once with its reply (NULL when the connection
 * failed) and must call lookup_answered(g) first. -1 when Redis is down or disabled (fn is
 * not called). */
int lookup_send(gw *g, void (*fn)(struct redisAsyncContext *, void *, void *), void *priv, int argc,
                const char **argv, const size_t *lens);
void lookup_answered(gw *g);

/* Periodic check from the gateway tick: a connection that has had lookups waiting for
 * LOOKUP_TIMEOUT_MS without any answer (a refused connect that libuv only reports as an
 * error event, or a hung Redis) is dropped; its lookups complete with LOOKUP_FAILED and
 * the next lookup connects again. */
void lookup_tick(gw *g);

/* Disconnect (shutdown): pending lookups complete with LOOKUP_FAILED. */
void lookup_stop(gw *g);

#endif
