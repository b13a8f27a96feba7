/*
 * watch_load.h: the watch list (watch.h) rebuilt from Redis by a matchmaker that starts
 * acting, so that a takeover of the lease (or a restart) lists the matches placed by the
 * matchmaker before it, not only the ones it places itself.
 *
 * Redis knows the running matches: matches:running (id -> worker) and each one's
 * match:{ID} (game, mode, players, created_ms, status; all within the matchmaker's ACL,
 * common/dh_acl.c). The rebuild walks matches:running by HSCAN, in steps of about
 * WATCH_LOAD_STEP matches (HSCAN's COUNT; a hash small enough to be one listpack comes
 * whole), each step's match hashes read in one pipeline. An mm_tick takes steps until
 * WATCH_LOAD_BUDGET_US have passed (at least one), so the loop is held for at most that
 * plus one step's round trips, and goes on at the next tick. A match whose hash says it
 * is no longer running is skipped. A step Redis did not answer is tried again at the next
 * tick; the walk ends when HSCAN's cursor comes back to 0. As with any SCAN, a match
 * that starts meanwhile may not be seen, but the matchmaker lists those itself at their
 * MatchStarted; one that ends meanwhile is not restored (watch_end).
 */
#ifndef DECKHAND_MM_WATCH_LOAD_H
#define DECKHAND_MM_WATCH_LOAD_H

#include <stdint.h>

#include "mm_store.h"

#define WATCH_LOAD_STEP      100  /* HSCAN COUNT of one step */
#define WATCH_LOAD_BUDGET_US 5000 /* steps of one tick: until this much time has passed */

/* The lease was won and the state loaded: the rebuild starts at the next step. */
void watch_load_begin(mm_state *mm);
/* A tick's steps of the rebuild, if one is under way (mm_tick, while acting). */
void watch_load_step(mm_state *mm, uint64_t now_ms);

#endif
