/*
 * inflight.h: the requests this gateway forwarded and still owes a Reply for, so that a
 * silent backend still yields exactly one Reply (UNAVAILABLE at the deadline). Two tables
 * of the process state use it: g->pending (queue requests to the matchmaker) and
 * g->commands (Choose and Resync to workers), both keyed "player_id/cmd_id".
 *
 * An entry answered by the gateway itself (timeout, or its match moved) stays as a
 * tombstone for GW_LATE_GRACE so that the real answer, if it comes late, is dropped
 * instead of becoming a second Reply.
 *
 * Queue requests wait on the matchmaker's liveness, not on a fixed deadline: one is
 * answered UNAVAILABLE only once the matchmaker has been silent for GW_MM_TIMEOUT (no
 * MatchmakerBeat, no answer: g->mm_heard) or the request has waited GW_MM_PATIENCE. A
 * matchmaker busy with a join storm beats between its turns, so its joins are answered
 * by it, ok, however late; one that is gone (or stuck) gets UNAVAILABLE as before, and
 * one that restarted (a new incarnation in its beat) gets them answered at once.
 */
#ifndef DECKHAND_GW_INFLIGHT_H
#define DECKHAND_GW_INFLIGHT_H

#include "gw.h"

typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    char match_id[GW_MATCH_ID_MAX]; /* worker commands: their match; "" for queue requests */
    uint64_t cmd_id;
    uint64_t since; /* when it was sent */
    uint64_t deadline;
    uint64_t start_ns; /* dh_now_ns when forwarded (the command latency histogram) */
    bool expired;      /* answered UNAVAILABLE; kept until deadline to drop a late answer */
    bool watch;        /* a Spectate (watch.c): its answer seats nobody */
} inflight;

/* Set up g->pending and g->commands. 0 or -1. */
int inflight_init(gw *g);
/* Free both tables and their entries. */
void inflight_free(gw *g);

/* Start tracking (match_id: the command's match, or "" for a queue request), due within
 * timeout ms; a reused cmd_id replaces its older request. The entry, or NULL when memory
 * runs out. */
inflight *inflight_track(gw *g, dh_table *t, const char *player_id, uint64_t cmd_id,
                         const char *match_id, uint64_t timeout);
/* Stop tracking and hand the entry over (the caller frees it); NULL when untracked. */
inflight *inflight_take(dh_table *t, const char *player_id, uint64_t cmd_id);
/* Stop tracking; true when the request was waiting for this answer. */
bool inflight_untrack(dh_table *t, const char *player_id, uint64_t cmd_id);
/* True when the request is tracked and not yet answered. */
bool inflight_waiting(dh_table *t, const char *player_id, uint64_t cmd_id);

/* Answer p now with code and message (through g->answer) and keep it as a tombstone. */
void inflight_expire(gw *g, inflight *p, Deckhand__ErrorCode code, const char *message);

/* Answer every request of t still waiting now with code and message (each kept as a
 * tombstone): the matchmaker restarted, so it never got them. How many. */
size_t inflight_expire_all(gw *g, dh_table *t, Deckhand__ErrorCode code, const char *message);

/* Periodic work from the gateway tick: requests past their deadline are answered
 * UNAVAILABLE, tombstones past their grace are dropped. */
void inflight_tick(gw *g);

#endif
