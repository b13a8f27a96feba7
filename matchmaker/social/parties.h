/*
 * parties.h: parties, groups of players who queue as one ticket and sit in one match.
 *
 * PartyCreate makes a party with a fresh code (codes.h) and its creator as leader;
 * PartyJoin adds a player by code (NOT_FOUND; FULL at QUEUE_PARTY_MAX members; BAD_REQUEST
 * for a player already in a party, or in a line, or a party waiting in a line); PartyLeave
 * takes the player out, and the next member leads when the leader leaves; the last one
 * out closes it. Every change sends PartyState to every member (notify.h), the player who
 * left included (closed, for it).
 *
 * The leader's QueueJoin queues the whole party as one ticket (tickets_join with the
 * others); a member's QueueJoin is refused; any member's QueueLeave, or any member
 * leaving the party, takes the whole party out of the line. A queued member who
 * disconnects (PlayerAway) holds the ticket back (queue.h: passed over until back); past
 * the queue's grace period that member is taken off the ticket and out of the party
 * (tickets_expire, then parties_dropped), and the rest wait on as a smaller party.
 *
 * Parties are kept in memory by the acting matchmaker, at most PARTIES_MAX at once
 * (OVERLOADED past it), and in Redis (groups.h: mm:parties): the matchmaker that wins the lease
 * after a failover loads them with the tickets (a party's queued ticket comes back as one
 * ticket: its members share a seq).
 *
 * A party is a group (data/group.h) with no game of its own; what it shares with a lobby
 * (codes, storage, presence, leaving) is groups.h. This module is what only a party does.
 */
#ifndef DECKHAND_MM_PARTIES_H
#define DECKHAND_MM_PARTIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"
#include "internal.pb-c.h"

/* ---- requests and events (through the process state) -------------------------------- */

struct mm_state;

/* How a party is told and stored (groups.h). */
extern const group_kind parties_kind;

/* PartyCreate, PartyJoin or PartyLeave from r: the answer's code (why: its text). The
 * PartyState messages go out before it returns, so before the caller's QueueReply. */
Deckhand__ErrorCode parties_request(struct mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    uint64_t now_ms);
/* A QueueJoin: a solo player's as usual (tickets_join); a party leader's queues the whole
 * party as one ticket and tells the members; a member's is refused. True when a match may
 * form now. */
bool parties_queue_join(struct mm_state *mm, const char *gateway,
                        const Deckhand__Internal__QueueJoin *j, uint64_t now_ms);
/* The player's ticket left the line (QueueLeave): its party hears of it. */
void parties_queue_left(struct mm_state *mm, const char *player_id);
/* A match started with the player seated: when it leads a party, the members hear that
 * the party is no longer queued (PartyState.queued_game ""). */
void parties_seated(struct mm_state *mm, const char *player_id);
/* The matchmaker took the player off its ticket (away past grace): out of its party too. */
void parties_dropped(struct mm_state *mm, const char *player_id, uint64_t now_ms);

#endif
