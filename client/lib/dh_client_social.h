/*
 * dh_client_social.h: the client's party and lobby messages (deckhand.proto, bodies
 * 20-28), built on the caller's stack like dh_client_msg.h's:
 *
 *   dh_client_social msg;
 *   Deckhand__ClientMessage *m = dh_client_social_party_join(&msg, "K7QX2MHP9R");
 *   m->cmd_id = dh_client_next_cmd(c);
 *   dh_client_send(c, m);
 *
 * Strings and arrays are borrowed: they must outlive the send. cmd_id is left 0.
 */
#ifndef DECKHAND_DH_CLIENT_SOCIAL_H
#define DECKHAND_DH_CLIENT_SOCIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_client_msg.h"

typedef struct {
    Deckhand__ClientMessage m;
    union {
        Deckhand__PartyCreate party_create;
        Deckhand__PartyJoin party_join;
        Deckhand__PartyLeave party_leave;
        Deckhand__LobbyCreate lobby_create;
        Deckhand__LobbyJoin lobby_join;
        Deckhand__LobbyLeave lobby_leave;
        Deckhand__LobbyReady lobby_ready;
        Deckhand__LobbyStart lobby_start;
        Deckhand__LobbyListRequest lobby_list;
    } body;
} dh_client_social;

Deckhand__ClientMessage *dh_client_social_party_create(dh_client_social *out);
Deckhand__ClientMessage *dh_client_social_party_join(dh_client_social *out, const char *code);
Deckhand__ClientMessage *dh_client_social_party_leave(dh_client_social *out);
/* seats 0: the game's maximum; options may be NULL when n_options is 0. */
Deckhand__ClientMessage *dh_client_social_lobby_create(dh_client_social *out, const char *game,
                                                       const char *mode, uint32_t seats,
                                                       bool public_, Deckhand__GameOption **options,
                                                       size_t n_options);
Deckhand__ClientMessage *dh_client_social_lobby_join(dh_client_social *out, const char *code);
Deckhand__ClientMessage *dh_client_social_lobby_leave(dh_client_social *out);
Deckhand__ClientMessage *dh_client_social_lobby_ready(dh_client_social *out, bool ready);
Deckhand__ClientMessage *dh_client_social_lobby_start(dh_client_social *out);
/* game "" or NULL: every game. */
Deckhand__ClientMessage *dh_client_social_lobby_list(dh_client_social *out, const char *game);

#endif
