/*
 * notify.h: what the matchmaker tells one player outside any match: a ServerMessage
 * (PartyState, LobbyState, LobbyList) travels to the gateway that holds the player's
 * connection as Internal.mm_output, which that gateway delivers when the player is
 * connected there. Under parties.c and lobbies.c: it only packs and sends.
 */
#ifndef DECKHAND_MM_NOTIFY_H
#define DECKHAND_MM_NOTIFY_H

#include "deckhand.pb-c.h"

struct mm_state;

/* Send the player, through its gateway (mm_output), a ServerMessage whose body is body (the
 * oneof member body_case). Best effort: a lost message is logged, and the next change sends
 * the whole state again. -1 when memory ran out (nothing was sent), else 0. */
int notify_body(struct mm_state *mm, const char *gateway, const char *player_id,
                Deckhand__ServerMessage__BodyCase body_case, void *body);

#endif
