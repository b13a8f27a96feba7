/*
 * dh_client_social.c: building the party and lobby messages (dh_client_social.h).
 * protobuf-c takes strings as non-const pointers but only reads them when packing, hence
 * the casts.
 */
#include "dh_client_social.h"

Deckhand__ClientMessage *dh_client_social_party_create(dh_client_social *out)
{
    return dh_client_msg_empty(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_CREATE,
                               &deckhand__party_create__descriptor, &out->body.party_create);
}

Deckhand__ClientMessage *dh_client_social_party_join(dh_client_social *out, const char *code)
{
    Deckhand__PartyJoin *b = &out->body.party_join;
    *b = (Deckhand__PartyJoin)DECKHAND__PARTY_JOIN__INIT;
    b->code = (char *)code;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_JOIN, b);
}

Deckhand__ClientMessage *dh_client_social_party_leave(dh_client_social *out)
{
    return dh_client_msg_empty(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_LEAVE,
                               &deckhand__party_leave__descriptor, &out->body.party_leave);
}

Deckhand__ClientMessage *dh_client_social_lobby_create(dh_client_social *out, const char *game,
                                                       const char *mode, uint32_t seats,
                                                       bool public_, Deckhand__GameOption **options,
                                                       size_t n_options)
{
    Deckhand__LobbyCreate *b = &out->body.lobby_create;
    *b = (Deckhand__LobbyCreate)DECKHAND__LOBBY_CREATE__INIT;
    b->game = (char *)game;
    b->mode = (char *)mode;
    b->players = seats;
    b->public_ = public_;
    b->options = options;
    b->n_options = n_options;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE, b);
}

Deckhand__ClientMessage *dh_client_social_lobby_join(dh_client_social *out, const char *code)
{
    Deckhand__LobbyJoin *b = &out->body.lobby_join;
    *b = (Deckhand__LobbyJoin)DECKHAND__LOBBY_JOIN__INIT;
    b->code = (char *)code;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN, b);
}

Deckhand__ClientMessage *dh_client_social_lobby_leave(dh_client_social *out)
{
    return dh_client_msg_empty(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LEAVE,
                               &deckhand__lobby_leave__descriptor, &out->body.lobby_leave);
}

Deckhand__ClientMessage *dh_client_social_lobby_ready(dh_client_social *out, bool ready)
{
    Deckhand__LobbyReady *b = &out->body.lobby_ready;
    *b = (Deckhand__LobbyReady)DECKHAND__LOBBY_READY__INIT;
    b->ready = ready;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_READY, b);
}

Deckhand__ClientMessage *dh_client_social_lobby_start(dh_client_social *out)
{
    return dh_client_msg_empty(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_START,
                               &deckhand__lobby_start__descriptor, &out->body.lobby_start);
}

Deckhand__ClientMessage *dh_client_social_lobby_list(dh_client_social *out, const char *game)
{
    Deckhand__LobbyListRequest *b = &out->body.lobby_list;
    *b = (Deckhand__LobbyListRequest)DECKHAND__LOBBY_LIST_REQUEST__INIT;
    b->game = (char *)game;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST, b);
}
