/*
 * state.h: the matchmaker's state in Redis, so that a restarted matchmaker, or the
 * standby that takes its lease, resumes the queues and the placements in flight.
 *
 *   mm:tickets     hash  player id -> TicketRecord (internal.proto): every waiting
 *                        player, and the players of placements not yet answered
 *   mm:placements  hash  match id -> PlacementRecord: a StartMatch sent, no answer yet
 *
 * Memory is a cache of these: every change is written first and applied only when Redis
 * took it, so a change Redis did not take (down, or the lease is someone else's) did not
 * happen. Each write is one script that first checks that mm:lease still names this
 * matchmaker (NOTLEADER otherwise, which steps it down). A ticket is written on join and
 * on every change (gateway, away) and deleted on leave, on grace expiry, and when its
 * match started; a placement is written before its StartMatch goes out and deleted on
 * the worker's answer or on its timeout (the tickets then simply wait again).
 *
 * state_read reads both back; mm_load (matchmaker.c) rebuilds the lines from them in
 * (since_ms, seq) order, minus the players of stored placements, and re-sends each
 * placement's StartMatch (a worker answers a repeated StartMatch again); the usual
 * timeout requeues those that get no answer.
 *
 * Commands go through the matchmaker's one Redis connection (rconn.h).
 */
#ifndef DECKHAND_MM_STATE_H
#define DECKHAND_MM_STATE_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.pb-c.h"
#include "mm_data.h"

#define STATE_LATER_MS 50 /* how long deferred deletes wait for a write to ride along */

struct mm_state;

/* The writes below return 0 when Redis took them (or there is no Redis), -1 when not. */
int state_ticket_put(struct mm_state *mm, uint64_t now_ms, const queue_key *k,
                     const queue_ticket *t);
int state_ticket_del(struct mm_state *mm, uint64_t now_ms, const char *player_id);
/* Write n tickets in one fenced script (one round trip): the joins of a batch. */
int state_tickets_put(struct mm_state *mm, uint64_t now_ms, const queue_key *const *k,
                      const queue_ticket *const *t, size_t n);
/* Pack n tickets' records to ride the next write, after the deferred deletes and before
 * that write's own records (a pass's placements: the joins of a loop turn and the matches
 * formed from them in one round trip, issue 27). The next write's result is theirs; they
 * are gone after it either way. 0, or -1 when memory ran out (nothing is staged then). */
int state_stage_tickets(struct mm_state *mm, const queue_key *const *k,
                        const queue_ticket *const *t, size_t n);
/* Write what is staged (and the deferred deletes) now. */
int state_write_staged(struct mm_state *mm, uint64_t now_ms);
/* Drop what is staged (unwritten). */
void state_unstage(struct mm_state *mm);
/* Free the staging area (mm_free). */
void state_staged_free(struct mm_state *mm);
/* Store a placement: its PlacementRecord, packed (placement.c encodes it). */
int state_placement_put(struct mm_state *mm, uint64_t now_ms, const char *match_id,
                        const uint8_t *rec, size_t len);
/* Store n placements in one write (placement.c encodes each). */
int state_placements_put(struct mm_state *mm, uint64_t now_ms, const char *const *match_ids,
                         const uint8_t *const *recs, const size_t *lens, size_t n);
/* Delete a placement that got its answer or timed out, and the tickets of player_ids
 * (its players, when the match started; n = 0 otherwise). */
int state_placement_del(struct mm_state *mm, uint64_t now_ms, const char *match_id,
                        const char *const *player_ids, size_t n);
/* The same, later: the deletes ride first in the next write (whatever it is, so no later
 * write of those players can be overtaken), or go alone once the oldest has waited
 * STATE_LATER_MS (state_flush_due, at the end of each loop turn). Best effort, as a delete that
 * Redis does not take was already: a write that fails drops them with a warning (a later load then
 * sends that StartMatch again, which its worker answers again). -1 when memory ran out (nothing
 * deferred). */
int state_placement_del_later(struct mm_state *mm, uint64_t now_ms, const char *match_id,
                              const char *const *player_ids, size_t n);
/* Write the deferred deletes now. */
void state_flush(struct mm_state *mm, uint64_t now_ms);
/* Write them alone only once the oldest has waited STATE_LATER_MS: under load the next
 * join or placement write carries them, and a match's start costs no round trip of its
 * own (issue 27). The delay only widens the window in which a failover finds a started
 * match's placement still stored, which was always possible (a failed delete): the new
 * matchmaker sends its StartMatch again and the worker answers it again. */
void state_flush_due(struct mm_state *mm, uint64_t now_ms);
/* Drop the deferred deletes (the lease was lost: they belong to the old term). */
void state_forget(struct mm_state *mm);

/* What Redis holds, read back: the tickets in (since_ms, seq) order and the placement
 * records as stored. Unreadable entries are skipped with a warning. */
typedef struct {
    queue_key key;
    queue_ticket t;
} state_ticket;

typedef struct {
    state_ticket *tickets;
    size_t ntickets;
    Deckhand__Internal__PlacementRecord **placements;
    size_t nplacements;
} state_stored;

/* Read the stored tickets and placements. 0, or -1 when Redis could not be read (out is
 * then empty). state_stored_free frees out either way. */
int state_read(struct mm_state *mm, uint64_t now_ms, state_stored *out);
void state_stored_free(state_stored *s);

/* Record conversions, exposed for the tests. to_record points into t and k. */
void state_ticket_to_record(const queue_key *k, const queue_ticket *t,
                            Deckhand__Internal__TicketRecord *out);
/* The key's options onto rec (TicketRecord.options), pointing into ol. */
void state_record_options(Deckhand__Internal__TicketRecord *rec, options_list *ol,
                          const queue_key *k);
/* A bot seat's strategy in TicketRecord.bot (bot fill plays every bot seat so). */
#define STATE_BOT "default"
/* -1 when a field does not fit (the options too: they go into k). */
int state_ticket_from_record(const Deckhand__Internal__TicketRecord *r, queue_key *k,
                             queue_ticket *t);

#endif
