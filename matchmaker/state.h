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
 * state_load rebuilds the lines in (since_ms, seq) order, minus the players of stored
 * placements, and re-sends each placement's StartMatch (a worker answers a repeated
 * StartMatch again); the usual timeout requeues those that get no answer.
 *
 * The module also owns the one Redis connection (state_command), which lease.c and
 * takeover.c use too.
 */
#ifndef DECKHAND_MM_STATE_H
#define DECKHAND_MM_STATE_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.pb-c.h"
#include "placement.h"
#include "queue.h"

struct mm_state;

/* One command: argc strings, with their lengths in lens (NULL: all are C strings). */
typedef struct {
    int argc;
    const char **argv;
    const size_t *lens;
} state_cmd;

/* Run one command. The reply (the caller frees it), or NULL when Redis is down or the
 * connection broke (the connection is then dropped and retried later). A Redis error
 * reply is returned as such. */
redisReply *state_command(struct mm_state *mm, uint64_t now_ms, int argc, const char **argv);
redisReply *state_command_cmd(struct mm_state *mm, uint64_t now_ms, const state_cmd *c);
/* Send n commands in one pipeline and read their n replies into out (the caller frees
 * each). 0, or -1 (out all NULL) when Redis is down or the connection broke. */
int state_pipeline(struct mm_state *mm, uint64_t now_ms, const state_cmd *cmds, size_t n,
                   redisReply **out);

/* The writes below return 0 when Redis took them (or there is no Redis), -1 when not. */
int state_ticket_put(struct mm_state *mm, uint64_t now_ms, const queue_key *k,
                     const queue_ticket *t);
int state_ticket_del(struct mm_state *mm, uint64_t now_ms, const char *player_id);
int state_placement_put(struct mm_state *mm, uint64_t now_ms, const placement *p);
/* The placement got its answer or timed out; started also deletes its players' tickets. */
int state_placement_del(struct mm_state *mm, uint64_t now_ms, const placement *p, bool started);

/* Load the tickets and placements from Redis into an empty mm (see above). 0, or -1
 * when Redis could not be read (mm is then left empty). */
int state_load(struct mm_state *mm, uint64_t now_ms);

/* Record conversions, exposed for the tests. to_record points into t and k. */
void state_ticket_to_record(const queue_key *k, const queue_ticket *t,
                            Deckhand__Internal__TicketRecord *out);
/* -1 when a field does not fit. */
int state_ticket_from_record(const Deckhand__Internal__TicketRecord *r, queue_key *k,
                             queue_ticket *t);

#endif
