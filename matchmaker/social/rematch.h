/*
 * rematch.h: playing a finished match again (RematchOffer, RematchState; docs/PROTOCOL.md,
 * "In a match"). The matchmaker owns it, since it forms matches.
 *
 * The first offer for a finished match reads its record in Redis (match:{ID}: game, mode,
 * options, seats in order, which seats were bots and of what strategy; it must be
 * finished) and keeps an offer: which human seats asked, and the gateway each asked
 * through. Every offer sends RematchState to every human seat; when every human seat has
 * offered, the new match is placed at once (placement_place) with the same game, mode,
 * options and seats (bots stay bots, of the same strategy: its line is the AI's), and
 * RematchState names it; MatchFound follows as for any match. A match against the AI has
 * one human seat, so its one offer starts it. A decline, a player of the offer queuing or
 * going away, or REMATCH_TTL_MS without all offers ends the offer for everyone
 * (RematchState.declined).
 *
 * RematchState goes through every gateway the matchmaker knows (mm_output), since after
 * the end the matchmaker no longer knows where a seat that has not offered is connected; a
 * gateway passes it only to a player connected there.
 *
 * Offers are kept in memory by the acting matchmaker only, at most REMATCH_MAX at once
 * (OVERLOADED past it): a failover forgets them, and the players offer again.
 */
#ifndef DECKHAND_MM_REMATCH_H
#define DECKHAND_MM_REMATCH_H

#include <stdint.h>

#include "internal.pb-c.h"

#define REMATCH_MAX    4096
#define REMATCH_TTL_MS 120000

struct mm_state;

/* A RematchOffer from r: the answer's code (why: its text). RematchStates go out before it
 * returns, so before the caller's QueueReply. */
Deckhand__ErrorCode rematch_request(struct mm_state *mm, const char *gateway,
                                    const Deckhand__Internal__ClientRequest *r, const char **why,
                                    uint64_t now_ms);
/* The player queued, or went away: the offers it is part of end (declined). */
void rematch_player_gone(struct mm_state *mm, const char *player_id);
/* End the offers past REMATCH_TTL_MS (declined). */
void rematch_expire(struct mm_state *mm, uint64_t now_ms);
/* Forget every offer (social_free). */
void rematch_free(struct mm_state *mm);

#endif
