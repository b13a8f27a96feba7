/*
 * dh_client_social.c: building the party and lobby messages (dh_client_social.h).
 * protobuf-c takes strings as non-const pointers but only reads them when packing, hence
 * the casts.
 */
#include "dh_client_social.h"

static Deckhand__ClientMessage *social_msg(dh_client_social *out,
                                           Deckhand__ClientMessage__BodyCase body)
{
    out->m = (Deckhand__ClientMessage)DECKHAND__CLIENT_MESSAGE__INIT;
    out->m.body_case = body;
    return &out->m;
}

Deckhand__ClientMessage *dh_client_social_party_create(dh_client_social *out)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_CREATE);
    out->body.party_create = (Deckhand__PartyCreate)DECKHAND__PARTY_CREATE__INIT;
    m->party_create = &out->body.party_create;
    return m;
}

Deckhand__ClientMessage *dh_client_social_party_join(dh_client_social *out, const char *code)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_JOIN);
    out->body.party_join = (Deckhand__PartyJoin)DECKHAND__PARTY_JOIN__INIT;
    out->body.party_join.code = (char *)code;
    m->party_join = &out->body.party_join;
    return m;
}

Deckhand__ClientMessage *dh_client_social_party_leave(dh_client_social *out)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_PARTY_LEAVE);
    out->body.party_leave = (Deckhand__PartyLeave)DECKHAND__PARTY_LEAVE__INIT;
    m->party_leave = &out->body.party_leave;
    return m;
}

Deckhand__ClientMessage *dh_client_social_lobby_create(dh_client_social *out, const char *game,
                                                       const char *mode, uint32_t seats,
                                                       bool public_, Deckhand__GameOption **options,
                                                       size_t n_options)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE);
    out->body.lobby_create = (Deckhand__LobbyCreate)DECKHAND__LOBBY_CREATE__INIT;
    out->body.lobby_create.game = (char *)game;
    out->body.lobby_create.mode = (char *)mode;
    out->body.lobby_create.players = seats;
    out->body.lobby_create.public_ = public_;
    out->body.lobby_create.options = options;
    out->body.lobby_create.n_options = n_options;
    m->lobby_create = &out->body.lobby_create;
    return m;
}

Deckhand__ClientMessage *dh_client_social_lobby_join(dh_client_social *out, const char *code)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_JOIN);
    out->body.lobby_join = (Deckhand__LobbyJoin)DECKHAND__LOBBY_JOIN__INIT;
    out->body.lobby_join.code = (char *)code;
    m->lobby_join = &out->body.lobby_join;
    return m;
}

Deckhand__ClientMessage *dh_client_social_lobby_leave(dh_client_social *out)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LEAVE);
    out->body.lobby_leave = (Deckhand__LobbyLeave)DECKHAND__LOBBY_LEAVE__INIT;
    m->lobby_leave = &out->body.lobby_leave;
    return m;
}

Deckhand__ClientMessage *dh_client_social_lobby_ready(dh_client_social *out, bool ready)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_READY);
    out->body.lobby_ready = (Deckhand__LobbyReady)DECKHAND__LOBBY_READY__INIT;
    out->body.lobby_ready.ready = ready;
    m->lobby_ready = &out->body.lobby_ready;
    return m;
}

Deckhand__ClientMessage *dh_client_social_lobby_start(dh_client_social *out)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_START);
    out->body.lobby_start = (Deckhand__LobbyStart)DECKHAND__LOBBY_START__INIT;
    m->lobby_start = &out->body.lobby_start;
    return m;
}

Deckhand__ClientMessage *dh_client_social_lobby_list(dh_client_social *out, const char *game)
{
    Deckhand__ClientMessage *m = social_msg(out, DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_LIST_REQUEST);
    out->body.lobby_list = (Deckhand__LobbyListRequest)DECKHAND__LOBBY_LIST_REQUEST__INIT;
    out->body.lobby_list.game = (char *)game;
    m->lobby_list_request = &out->body.lobby_list;
    return m;
}
