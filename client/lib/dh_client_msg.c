/*
 * dh_client_msg.c: building the client's messages (dh_client_msg.h). protobuf-c takes
 * strings and arrays as non-const pointers but only reads them when packing, hence the
 * casts.
 */
#include "dh_client_msg.h"

#include "dh_pb.h"
#include "dh_wire.h"

#include <string.h>

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

/* ---- a Choose packed by hand ------------------------------------------------------------ */

#define CHOOSE_FIELD 13 /* ClientMessage.choose */

/* A length-delimited field (number num, n bytes of body) of a single-byte tag. */
static uint8_t *choose_len_head(uint8_t *p, uint32_t num, size_t n)
{
    *p++ = (uint8_t)(num << 3 | 2);
    return p + dh_wire_put_varint(p, n);
}

static size_t choose_str_len(const char *s)
{
    return s ? strlen(s) : 0;
}

size_t dh_client_msg_pack_choose(const Deckhand__ClientMessage *m, uint8_t *buf, size_t cap)
{
    const Deckhand__Choose *c =
        m->body_case == DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE ? m->choose : NULL;
    if (!c || m->base.n_unknown_fields || c->base.n_unknown_fields)
        return 0;
    size_t idlen = choose_str_len(c->match_id), botlen = choose_str_len(c->bot), ids = 0;
    for (size_t i = 0; i < c->n_option_ids; i++)
        ids += dh_wire_varint_size(c->option_ids[i]);
    size_t body = (idlen ? 1 + dh_wire_varint_size(idlen) + idlen : 0) +
                  (c->decision_id ? 1 + dh_wire_varint_size(c->decision_id) : 0) +
                  (ids ? 1 + dh_wire_varint_size(ids) + ids : 0) +
                  (botlen ? 1 + dh_wire_varint_size(botlen) + botlen : 0);
    size_t total =
        (m->cmd_id ? 1 + dh_wire_varint_size(m->cmd_id) : 0) + 1 + dh_wire_varint_size(body) + body;
    if (total > cap)
        return 0;
    uint8_t *p = buf;
    if (m->cmd_id) {
        *p++ = 1 << 3 | 0;
        p += dh_wire_put_varint(p, m->cmd_id);
    }
    p = choose_len_head(p, CHOOSE_FIELD, body);
    if (idlen) {
        p = choose_len_head(p, 1, idlen);
        memcpy(p, c->match_id, idlen);
        p += idlen;
    }
    if (c->decision_id) {
        *p++ = 2 << 3 | 0;
        p += dh_wire_put_varint(p, c->decision_id);
    }
    if (ids) {
        p = choose_len_head(p, 3, ids);
        for (size_t i = 0; i < c->n_option_ids; i++)
            p += dh_wire_put_varint(p, c->option_ids[i]);
    }
    if (botlen) {
        p = choose_len_head(p, 4, botlen);
        memcpy(p, c->bot, botlen);
        p += botlen;
    }
    return (size_t)(p - buf);
}
