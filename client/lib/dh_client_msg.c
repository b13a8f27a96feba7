/*
 * dh_client_msg.c: building the client's messages (dh_client_msg.h). protobuf-c takes
 * strings and arrays as non-const pointers but only reads them when packing, hence the
 * casts.
 */
#include "dh_client_msg.h"

#include "dh_pb.h"

Deckhand__ClientMessage *dh_client_msg_wrap(Deckhand__ClientMessage *m,
                                            Deckhand__ClientMessage__BodyCase body_case, void *body)
{
    *m = (Deckhand__ClientMessage)DECKHAND__CLIENT_MESSAGE__INIT;
    return dh_pb_oneof(m, (unsigned)body_case, body);
}

Deckhand__ClientMessage *dh_client_msg_empty(Deckhand__ClientMessage *m,
                                             Deckhand__ClientMessage__BodyCase body_case,
                                             const ProtobufCMessageDescriptor *desc, void *body)
{
    protobuf_c_message_init(desc, body);
    return dh_client_msg_wrap(m, body_case, body);
}

Deckhand__ClientMessage *dh_client_msg_hello(dh_client_msg *out, const char *name,
                                             const char *token)
{
    Deckhand__Hello *b = &out->body.hello;
    *b = (Deckhand__Hello)DECKHAND__HELLO__INIT;
    b->name = (char *)name;
    b->token = (char *)token;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_HELLO, b);
}

Deckhand__ClientMessage *dh_client_msg_ping(dh_client_msg *out, uint64_t nonce)
{
    Deckhand__Ping *b = &out->body.ping;
    *b = (Deckhand__Ping)DECKHAND__PING__INIT;
    b->nonce = nonce;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_PING, b);
}

Deckhand__ClientMessage *dh_client_msg_queue_join(dh_client_msg *out, const char *game,
                                                  uint32_t players)
{
    Deckhand__QueueJoin *b = &out->body.queue_join;
    *b = (Deckhand__QueueJoin)DECKHAND__QUEUE_JOIN__INIT;
    b->game = (char *)game;
    b->players = players;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN, b);
}

Deckhand__ClientMessage *dh_client_msg_queue_leave(dh_client_msg *out, const char *game)
{
    Deckhand__QueueLeave *b = &out->body.queue_leave;
    *b = (Deckhand__QueueLeave)DECKHAND__QUEUE_LEAVE__INIT;
    b->game = (char *)game;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_LEAVE, b);
}

Deckhand__ClientMessage *dh_client_msg_resync(dh_client_msg *out, const char *match_id)
{
    Deckhand__Resync *b = &out->body.resync;
    *b = (Deckhand__Resync)DECKHAND__RESYNC__INIT;
    b->match_id = (char *)match_id;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_RESYNC, b);
}

Deckhand__ClientMessage *dh_client_msg_choose(dh_client_msg *out, const char *match_id,
                                              uint64_t decision_id, const uint32_t *ids, size_t n)
{
    Deckhand__Choose *b = &out->body.choose;
    *b = (Deckhand__Choose)DECKHAND__CHOOSE__INIT;
    b->match_id = (char *)match_id;
    b->decision_id = decision_id;
    b->option_ids = (uint32_t *)ids;
    b->n_option_ids = n;
    return dh_client_msg_wrap(&out->m, DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE, b);
}

Deckhand__ClientMessage *dh_client_msg_choose_bot(dh_client_msg *out, const char *match_id,
                                                  uint64_t decision_id, const char *bot)
{
    Deckhand__ClientMessage *m = dh_client_msg_choose(out, match_id, decision_id, NULL, 0);
    out->body.choose.bot = (char *)bot;
    return m;
}
