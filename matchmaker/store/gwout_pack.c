/*
 * gwout_pack.c: see gwout_pack.h. Every field number here is below 16, so a field's tag is
 * one byte; the Internal's (20, 21) take two.
 */
#include "gwout_pack.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dh_wire.h"

/* A string field's bytes: none when it is empty and left out (proto3), unless always. */
static size_t pk_str_len(const char *s, bool always)
{
    size_t n = s ? strlen(s) : 0;
    return n || always ? 1 + dh_wire_varint_size(n) + n : 0;
}

static uint8_t *pk_str(uint8_t *p, unsigned field, const char *s, bool always)
{
    size_t n = s ? strlen(s) : 0;
    if (!n && !always)
        return p;
    *p++ = (uint8_t)DH_WIRE_LEN(field);
    p += dh_wire_put_varint(p, n);
    memcpy(p, s, n);
    return p + n;
}

static size_t pk_uint_len(uint64_t v)
{
    return v ? 1 + dh_wire_varint_size(v) : 0;
}

static uint8_t *pk_uint(uint8_t *p, unsigned field, uint64_t v)
{
    if (!v)
        return p;
    *p++ = (uint8_t)DH_WIRE_VARINT(field);
    return p + dh_wire_put_varint(p, v);
}

static size_t assigned_len(const Deckhand__Internal__MatchAssigned *a)
{
    size_t n = pk_str_len(a->player_id, false) + pk_str_len(a->match_id, false) +
               pk_uint_len(a->seat) + pk_str_len(a->game, false) + pk_str_len(a->worker_id, false) +
               pk_str_len(a->worker_endpoint, false);
    for (size_t i = 0; i < a->n_players; i++)
        n += pk_str_len(a->players[i], true);
    return n;
}

static uint8_t *assigned_pack(uint8_t *p, const Deckhand__Internal__MatchAssigned *a)
{
    p = pk_str(p, 1, a->player_id, false);
    p = pk_str(p, 2, a->match_id, false);
    p = pk_uint(p, 3, a->seat);
    p = pk_str(p, 4, a->game, false);
    for (size_t i = 0; i < a->n_players; i++)
        p = pk_str(p, 5, a->players[i], true);
    p = pk_str(p, 6, a->worker_id, false);
    return pk_str(p, 7, a->worker_endpoint, false);
}

static size_t reply_len(const Deckhand__Internal__QueueReply *r)
{
    return pk_str_len(r->player_id, false) + pk_uint_len(r->cmd_id) + pk_uint_len(r->ok != 0);
}

static uint8_t *reply_pack(uint8_t *p, const Deckhand__Internal__QueueReply *r)
{
    p = pk_str(p, 1, r->player_id, false);
    p = pk_uint(p, 2, r->cmd_id);
    return pk_uint(p, 3, r->ok != 0);
}

int gwout_pack(const Deckhand__Internal__Internal *msg, uint8_t **out, size_t *len)
{
    const Deckhand__Internal__QueueReply *r = msg->queue_reply;
    const Deckhand__Internal__MatchAssigned *a = msg->match_assigned;
    size_t body;
    unsigned field;
    if (msg->base.n_unknown_fields)
        return 0;
    if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY && r && !r->error &&
        !r->base.n_unknown_fields) {
        body = reply_len(r);
        field = 20;
    } else if (msg->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED && a &&
               !a->base.n_unknown_fields) {
        body = assigned_len(a);
        field = 21;
    } else {
        return 0;
    }
    size_t n = 2 + dh_wire_varint_size(body) + body;
    uint8_t *buf = malloc(n), *p = buf;
    if (!buf)
        return -1;
    p += dh_wire_put_varint(p, DH_WIRE_LEN(field));
    p += dh_wire_put_varint(p, body);
    p = field == 20 ? reply_pack(p, r) : assigned_pack(p, a);
    *out = buf;
    *len = (size_t)(p - buf);
    return 1;
}
