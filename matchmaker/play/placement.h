/*
 * placement.h: turning waiting tickets into matches on workers.
 *
 * Every tick (at most every PLACEMENT_PASS_MS) a formation pass looks at every ticket of
 * every line (queue.h: skill windows that widen with the wait, fuller matches first);
 * after joins, a pass looks only at the tickets that joined since. Each match formed
 * gets a match id and a seed and goes, as a StartMatch, to the least loaded worker that
 * serves the game (one that seats the line's largest match). Its rating spread and its
 * players' waits are logged and counted in histograms (mm.h). Until that worker answers
 * MatchStarted the tickets wait here, in a placement. A yes sends MatchAssigned to every player's
 * gateway (seat = ticket order); a no, or silence for PLACEMENT_TIMEOUT_MS, puts the tickets back
 * at the front of their line and the worker is avoided for a while, so the retry goes elsewhere.
 * Tickets marked away are passed over; the StartMatch carries the queue's settings.
 *
 * With Redis, a placement is stored (state.c) before its StartMatch goes out; one that
 * cannot be stored is not formed (its tickets wait on). The matches of a pass are stored
 * together, up to PLACEMENT_BATCH_MAX in one write, then their StartMatch go out; the
 * deletes once a match started (its placement and its players' tickets) ride with the
 * next write or the loop's state_flush (state.h). A matchmaker that loads stored
 * placements (placement_resume) sends their StartMatch again, and again each tick while
 * the worker cannot be reached yet (a restarted matchmaker has not heard from it yet).
 *
 * Known limit: a MatchStarted that arrives after the timeout is only logged; that match
 * sits idle on its worker (no message exists yet to cancel it).
 */
#ifndef DECKHAND_MM_PLACEMENT_H
#define DECKHAND_MM_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.pb-c.h"
#include "mm_data.h"
#include "mm_store.h"

#define PLACEMENT_TIMEOUT_MS 3000
#define PLACEMENT_PASS_MS    50  /* a pass over every ticket at most this often */
#define PLACEMENT_BATCH_MAX  256 /* matches stored in one write */

struct mm_state;

void placement_list_init(placement_list *l);
void placement_list_free(placement_list *l);
placement *placement_find(placement_list *l, const char *match_id);
/* True when the player sits in a placement waiting for its worker. */
bool placement_has_player(const placement_list *l, const char *player_id);

/* A fresh match id ("m-" + 16 random hex digits) and a random seed, both from the
 * kernel's random source (read 512 bytes at a time). -1 when it cannot be read. */
int placement_random(char id[PLACEMENT_ID_LEN + 1], uint64_t *seed);

/* Form every match the queues allow and send their StartMatch: a pass over every ticket
 * when PLACEMENT_PASS_MS has gone since the last one, else over the new ones. */
void placement_form(struct mm_state *mm, uint64_t now_ms);
/* Place n players (seat order) as one match now, as a formed match is placed: a worker
 * that seats n, a stored placement, its StartMatch; MatchAssigned follows the worker's
 * answer. The players need not wait in a line (a lobby's start); should the worker fail
 * them they go to the front of k's line, one ticket when they share a seq, and are
 * matched from there. Tickets marked .bot are bot seats (a rematch's), named after the new
 * match; with any of them, or k->vs_ai set, the match is unrated. OK with the match id in
 * match_id, else the code and *why:
 * UNAVAILABLE (no worker has room, or Redis did not take it) or OVERLOADED. */
Deckhand__ErrorCode placement_place(struct mm_state *mm, const queue_key *k, const queue_ticket *t,
                                    size_t n, uint64_t now_ms, char match_id[PLACEMENT_ID_LEN + 1],
                                    const char **why);
/* A worker's MatchStarted. */
void placement_started(struct mm_state *mm, const char *identity,
                       const Deckhand__Internal__MatchStarted *ms, uint64_t now_ms);
/* A match was adopted by w: when it is a placement, complete it there (MatchAssigned to
 * its players) and answer true. */
bool placement_adopted(struct mm_state *mm, const char *match_id, const registry_worker *w,
                       uint64_t now_ms);
/* Give up on placements whose worker stayed silent past their deadline; re-send the
 * StartMatch of resumed ones whose worker is reachable now. */
void placement_expire(struct mm_state *mm, uint64_t now_ms);
/* A match being moved to another worker (takeover.c) holds its placement: the deadline
 * starts again, for the adopter to answer. */
void placement_hold(struct mm_state *mm, const char *match_id, uint64_t now_ms);
/* Store p in Redis (its PlacementRecord), before its StartMatch goes out or after one
 * of its tickets changed. 0, or -1 when Redis did not take it. */
int placement_store(struct mm_state *mm, uint64_t now_ms, const placement *p);
/* Fill p from a stored record; p->tickets is allocated (the caller owns it). -1 when
 * the record does not fit. */
int placement_from_record(const struct mm_state *mm, const Deckhand__Internal__PlacementRecord *pr,
                          placement *p);
/* Take over a stored placement (its tickets too: p->tickets is owned by the list
 * afterwards, even on failure) and send its StartMatch again. -1 on allocation failure. */
int placement_resume(struct mm_state *mm, placement *p, uint64_t now_ms);
/* The placement the player sits in, or NULL. */
placement *placement_of_player(placement_list *l, const char *player_id, size_t *seat);

#endif
