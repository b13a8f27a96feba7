/*
 * dh_client_msg.c: building the client's messages (dh_client_msg.h). protobuf-c takes
 * strings and arrays as non-const pointers but only reads them when packing, hence the
 * casts.
 */
#include "dh_client_msg.h"

static Deckhand__ClientMessage *msg_init(dh_client_msg *out, Deckhand__ClientMessage__BodyCase body)
{
    out->m = (Deckhand__ClientMessage)DECKHAND__CLIENT_MESSAGE__INIT;
    out->m.body_case = body;
    return &out->m;
}

Deckhand__ClientMessage *dh_client_msg_hello(dh_client_msg *out, const char *name,
                                             const char *token)
{
    Deckhand__ClientMessage *m = msg_init(out, DECKHAND__CLIENT_MESSAGE__BODY_HELLO);
    out->body.hello = (Deckhand__Hello)DECKHAND__HELLO__INIT;
    out->body.hello.name = (char *)name;
    out->body.hello.token = (char *)token;
    m->hello = &out->body.hello;
    return m;
}

Deckhand__ClientMessage *dh_client_msg_ping(dh_client_msg *out, uint64_t nonce)
{
    Deckhand__ClientMessage *m = msg_init(out, DECKHAND__CLIENT_MESSAGE__BODY_PING);
    out->body.ping = (Deckhand__Ping)DECKHAND__PING__INIT;
    out->body.ping.nonce = nonce;
    m->ping = &out->body.ping;
    return m;
}

Deckhand__ClientMessage *dh_client_msg_queue_join(dh_client_msg *out, const char *game,
                                                  uint32_t players)
{
    Deckhand__ClientMessage *m = msg_init(out, DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN);
    out->body.queue_join = (Deckhand__QueueJoin)DECKHAND__QUEUE_JOIN__INIT;
    out->body.queue_join.game = (char *)game;
    out->body.queue_join.players = players;
    m->queue_join = &out->body.queue_join;
    return m;
}

Deckhand__ClientMessage *dh_client_msg_queue_leave(dh_client_msg *out, const char *game)
{
    Deckhand__ClientMessage *m = msg_init(out, DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_LEAVE);
    out->body.queue_leave = (Deckhand__QueueLeave)DECKHAND__QUEUE_LEAVE__INIT;
    out->body.queue_leave.game = (char *)game;
    m->queue_leave = &out->body.queue_leave;
    return m;
}

Deckhand__ClientMessage *dh_client_msg_resync(dh_client_msg *out, const char *match_id)
{
    Deckhand__ClientMessage *m = msg_init(out, DECKHAND__CLIENT_MESSAGE__BODY_RESYNC);
    out->body.resync = (Deckhand__Resync)DECKHAND__RESYNC__INIT;
    out->body.resync.match_id = (char *)match_id;
    m->resync = &out->body.resync;
    return m;
}

Deckhand__ClientMessage *dh_client_msg_choose(dh_client_msg *out, const char *match_id,
                                              uint64_t decision_id, const uint32_t *ids, size_t n)
{
    Deckhand__ClientMessage *m = msg_init(out, DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE);
    out->body.choose = (Deckhand__Choose)DECKHAND__CHOOSE__INIT;
    out->body.choose.match_id = (char *)match_id;
    out->body.choose.decision_id = decision_id;
    out->body.choose.option_ids = (uint32_t *)ids;
    out->body.choose.n_option_ids = n;
    m->choose = &out->body.choose;
    return m;
}

Deckhand__ClientMessage *dh_client_msg_choose_bot(dh_client_msg *out, const char *match_id,
                                                  uint64_t decision_id, const char *bot)
{
    Deckhand__ClientMessage *m = dh_client_msg_choose(out, match_id, decision_id, NULL, 0);
    out->body.choose.bot = (char *)bot;
    return m;
}
