/*
 * social.h: the matchmaker's side of what players do together, and the one door for the
 * client requests the gateway forwards (Internal.client_request): parties (parties.h),
 * lobbies (lobbies.h) and the game list. It dispatches each request by its body and
 * answers it with a QueueReply carrying its cmd_id, after whatever state the request sent
 * the player (PartyState, LobbyState, LobbyList as mm_output).
 *
 * The queue messages pass here too, since a party changes them: a QueueJoin from a party's
 * leader queues the party, one from a member or from a lobby's member is refused; a
 * QueueLeave, PlayerAway or PlayerBack also tells the player's party and lobby.
 *
 * A RematchOffer goes to rematch.c (playing a finished match again).
 *
 * Above parties.c, lobbies.c and rematch.c, which call only downwards (tickets, placement, queue);
 * control.c calls here.
 */
#ifndef DECKHAND_MM_SOCIAL_H
#define DECKHAND_MM_SOCIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "internal.pb-c.h"

struct mm_state;

/* Set up the party and lobby sets and the hook tickets_expire calls (mm->on_dropped);
 * after mm_init. social_free before mm_free. */
void social_init(struct mm_state *mm);
void social_free(struct mm_state *mm);

/* Each returns true when the change may let a match form now. */
bool social_request(struct mm_state *mm, const char *gateway,
                    const Deckhand__Internal__ClientRequest *r, uint64_t now_ms);
bool social_queue_join(struct mm_state *mm, const char *gateway,
                       const Deckhand__Internal__QueueJoin *j, uint64_t now_ms);
bool social_queue_leave(struct mm_state *mm, const char *gateway,
                        const Deckhand__Internal__QueueLeave *l, uint64_t now_ms);
bool social_away(struct mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerAway *a,
                 uint64_t now_ms);
bool social_back(struct mm_state *mm, const char *gateway, const Deckhand__Internal__PlayerBack *b,
                 uint64_t now_ms);
/* Each tick: the rematch offers past their time end (rematch.h). */
void social_tick(struct mm_state *mm, uint64_t now_ms);

#endif
