/*
 * tickets.h: a waiting player's ticket from QueueJoin to its match (or its leave), as
 * the acting matchmaker handles it; every change is stored (state.c) before it is made.
 *
 * QueueJoin is validated here: the game must be served by a live worker
 * (UNKNOWN_GAME), players 0 means the game's minimum and must fit min..max
 * (BAD_REQUEST), and a player waits in one line at a time, placements included
 * (BAD_REQUEST "already queued"). A join for the line the player already waits in is
 * answered ok and keeps the ticket's place (a gateway repeating a join after a
 * reconnect): it moves the ticket to the sending gateway and clears away. When Redis
 * does not take the change the answer is UNAVAILABLE "store unavailable" and nothing
 * changed. The QueueReply goes back to the sending gateway's identity.
 *
 * New tickets are written in batches: a join is queued in memory and held, and
 * tickets_flush writes every held ticket in one fenced script (one Redis round trip for
 * up to TICKETS_BATCH_MAX joins, instead of one each) and only then answers them: ok,
 * or UNAVAILABLE with the ticket taken out again when Redis did not take the write. So
 * "written before it is made" still holds for what anyone can see: no reply and no
 * StartMatch goes out before the join's write. The loop's tick may form matches from a
 * drain's held joins: the pass's write then carries them with those placements
 * (tickets_stage, tickets_answer: one round trip for a turn's joins and matches), and a
 * write Redis refuses undoes the matches before the joins are refused; what no pass wrote
 * is written at the turn's end (loop_finish), and every other ticket change flushes first.
 *
 * PlayerAway (the player's connection dropped) marks the ticket away: it keeps its place
 * but is passed over by formation, and after the queue's grace_ms it is removed.
 * PlayerBack (the player resumed on some gateway) moves the ticket to that gateway and
 * clears away; for a player in a placement it updates the gateway its MatchAssigned
 * goes to. Both are ignored for a player with no ticket (already in a match: the worker
 * handles those), and PlayerAway from a gateway that no longer holds the ticket is
 * ignored as stale.
 */
#ifndef DECKHAND_MM_TICKETS_H
#define DECKHAND_MM_TICKETS_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.pb-c.h"

struct mm_state;

/* A party member who queues with the join's player (its leader): away when its connection
 * is down (the ticket then waits passed over until it is back). */
typedef struct {
    const char *player_id, *name, *gateway;
    bool away;
} tickets_member;

/* Each returns true when the change may let a match form now. tickets_join with others
 * (n of them, NULL/0 for a solo join) queues them with j's player as one ticket (a party,
 * parties.h): each must be free to queue like the player, and the match must seat them
 * all; only j's player is answered. */
bool tickets_join(struct mm_state *mm, const char *gateway, const Deckhand__Internal__QueueJoin *j,
                  const tickets_member *others, size_t n, uint64_t now_ms);
/* tickets_leave: a leave either wins (the ticket goes, ok) or says it lost: a player
 * already placed (a placement in flight, or seated in a running match) is answered
 * ALREADY_PLACED, and the match goes on (its MatchFound follows, or came). */
bool tickets_leave(struct mm_state *mm, const char *gateway,
                   const Deckhand__Internal__QueueLeave *l, uint64_t now_ms);
bool tickets_away(struct mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerAway *a,
                  uint64_t now_ms);
bool tickets_back(struct mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerBack *b,
                  uint64_t now_ms);
#define TICKETS_BATCH_MAX 1000

/* Write the held joins and answer them. True when they were queued (a match may form). */
bool tickets_flush(struct mm_state *mm, uint64_t now_ms);
/* The held joins' stored ratings onto their tickets (one pipeline, account players only),
 * once per batch: the loop asks right after its drain, so that the turn's formation pass
 * sees them rated. */
void tickets_rate_held(struct mm_state *mm, uint64_t now_ms);
/* The held joins' records staged to ride the next write (state_stage_tickets), rated
 * first; a held ticket the turn's pass formed into a placement is staged as placed. 0, or
 * -1 (nothing staged: answer them refused). The caller writes, then tickets_answer. */
int tickets_stage(struct mm_state *mm, uint64_t now_ms);
/* After the write that carried them (rc its result): the held joins answered ok, or taken
 * out of their lines and answered UNAVAILABLE; the batch is empty afterwards. */
void tickets_answer(struct mm_state *mm, int rc);
/* Remove the away players past their queue's grace period: a solo ticket leaves the line;
 * from a party's ticket only that member goes (mm->on_dropped tells its party) and the
 * rest wait on as one smaller ticket, keeping their join time (so their window stays as
 * wide) but queued behind the line's older tickets. */
void tickets_expire(struct mm_state *mm, uint64_t now_ms);
/* Take the ticket the player is on (its whole party) out of its line, its records first.
 * 0, or -1 when Redis did not take it (nothing changed). */
int tickets_cancel(struct mm_state *mm, const char *player_id, uint64_t now_ms);

/* Answer a join or leave (code OK: ok). */
void tickets_reply(struct mm_state *mm, const char *gateway, const char *player_id, uint64_t cmd_id,
                   Deckhand__ErrorCode code, const char *text);

#endif
