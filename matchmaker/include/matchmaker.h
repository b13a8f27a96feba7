/*
 * matchmaker.h: the matchmaker's life cycle and the periodic work every module gets a
 * turn at (mm_tick); what winning or losing the lease does to the rest (mm_reset,
 * mm_load). The process state itself is mm.h.
 *
 * The root's front door (matchmaker/include/, dh_matchmaker): what a bench or a test
 * drives the whole matchmaker through; the wings below are reached through theirs
 * (docs/matchmaker.md).
 *
 * With Redis (the default), Redis holds the waiting tickets and the unanswered
 * placements (state.c), and only the matchmaker holding the lease mm:lease acts
 * (lease.c): it answers joins, forms matches, expires away tickets and moves the matches
 * of dead workers (takeover.c). Any other matchmaker is a standby that only keeps its
 * worker registry warm. With --redis none everything stays in memory and the one
 * matchmaker always acts.
 */
#ifndef DECKHAND_MM_MATCHMAKER_H
#define DECKHAND_MM_MATCHMAKER_H

#include <stdbool.h>
#include <stdint.h>

#include "mm_store.h"

/* Set up everything but the router. redis_url NULL or "none": memory only. 0, or -1 on
 * a malformed URL or an allocation failure (mm_free cleans up either way). */
int mm_init(mm_state *mm, const char *id, const char *redis_url, int redis_timeout_ms);
void mm_free(mm_state *mm);

/* Forget the queues, placements and adoptions held in memory (Redis keeps them): on
 * losing the lease, and before loading them again on winning it. */
void mm_reset(mm_state *mm);

/* Load the queues and placements Redis holds into an empty mm (after winning the lease;
 * see state.h). 0, or -1 when Redis could not be read or memory ran out (mm is then
 * left empty). */
int mm_load(mm_state *mm, uint64_t now_ms);
/* True when this matchmaker may act: it holds the lease and has loaded its state, or it
 * runs without Redis. */
bool mm_acting(const mm_state *mm, uint64_t now_ms);

/* A MatchmakerBeat goes to every gateway heard from within MM_GATEWAY_SEEN_MS, every
 * MM_GATEWAY_BEAT_MS: what tells a gateway that a join not answered yet waits on a busy
 * matchmaker, not a gone one (gateway/inflight.h). */
#define MM_GATEWAY_BEAT_MS 500
#define MM_GATEWAY_SEEN_MS 10000

/* The periodic work: the gateways' beat and the lease; then, when acting, dead workers
 * and their matches, stalled placements, away tickets past their grace, and formation. */
void mm_tick(mm_state *mm, uint64_t now_ms);

/* When the loop's next periodic tick is due (main.c polls until then, or until a message).
 * While anything waits that the tick works at a fine grain (tickets in the lines, placements
 * and adoptions in flight, held joins or deletes, admin requests, the watch list's rebuild, a
 * drain behind, the lease won but not loaded, the first tick): every MM_TICK_MS, as always.
 * Otherwise at the nearest deadline the tick keeps (the gateways' beat, the lease's renewal
 * or lapse, the next takeover sweep, a live worker's REGISTRY_DEAD_MS of silence), at most
 * MM_TICK_IDLE_MS away (rematch offers' expiry) and at least MM_TICK_MS, so no deadline is
 * kept more coarsely than before: an idle matchmaker wakes about 3 times a second, not 20
 * (issue 27). */
#define MM_TICK_MS      50
#define MM_TICK_IDLE_MS 500
uint64_t mm_next_tick(const mm_state *mm, uint64_t now_ms);

#endif
