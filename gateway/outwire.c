/*
 * outwire.c: see outwire.h. The protobuf wire format, as much of it as PlayerOutputs uses:
 * a varint key (field << 3 | wire type), then a varint (type 0) or a varint length and
 * that many bytes (type 2). Each message is walked twice: once to check all of it and
 * count its outputs, then to fill the slots, so that a malformed message is refused whole
 * before any of its outputs is passed on, as the ordinary unpack refuses it.
 */
#include "outwire.h"

#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"

#define OUTWIRE_LEN(field)    ((uint64_t)(field) << 3 | 2)
#define OUTWIRE_VARINT(field) ((uint64_t)(field) << 3)
#define OUTWIRE_BODY          42 /* Internal.player_outputs */
#define OUTWIRE_REPLY         1  /* ServerMessage.reply */

typedef struct {
    const uint8_t *data;
    size_t len;
} outwire_span;

static bool outwire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

static bool outwire_bytes(const uint8_t **p, const uint8_t *end, outwire_span *s)
{
    uint64_t n;
    if (!outwire_varint(p, end, &n) || n > (uint64_t)(end - *p))
        return false;
    s->data = *p;
    s->len = (size_t)n;
    *p += n;
    return true;
}

/* One PlayerOutput: checked, and copied into slot when slot is not NULL. A field this
 * reader does not know, or an id longer than its slot, sends the message to the unpack. */
static bool outwire_output(const uint8_t *p, const uint8_t *end, outwire_slot *slot)
{
    outwire_span pid = {NULL, 0}, mid = {NULL, 0}, msg = {NULL, 0};
    uint64_t key, kind = 0;
    while (p < end) {
        if (!outwire_varint(&p, end, &key))
            return false;
        bool ok = key == OUTWIRE_LEN(1)      ? outwire_bytes(&p, end, &pid)
                  : key == OUTWIRE_LEN(2)    ? outwire_bytes(&p, end, &msg)
                  : key == OUTWIRE_LEN(3)    ? outwire_bytes(&p, end, &mid)
                  : key == OUTWIRE_VARINT(4) ? outwire_varint(&p, end, &kind)
                                             : false;
        if (!ok)
            return false;
    }
    if (pid.len >= DH_TOKEN_ID_MAX || mid.len >= GW_MATCH_ID_MAX || kind > INT32_MAX)
        return false;
    if (!slot)
        return true;
    slot->po = (Deckhand__Internal__PlayerOutput)DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    if (pid.len)
        memcpy(slot->player_id, pid.data, pid.len);
    slot->player_id[pid.len] = '\0';
    if (mid.len)
        memcpy(slot->match_id, mid.data, mid.len);
    slot->match_id[mid.len] = '\0';
    slot->po.player_id = slot->player_id;
    slot->po.match_id = slot->match_id;
    slot->po.message.data = (uint8_t *)msg.data;
    slot->po.message.len = msg.len;
    slot->po.kind = (Deckhand__Internal__PlayerOutput__Kind)kind;
    return true;
}

/* The outputs of a PlayerOutputs body [p, end): counted (slots NULL) or filled. */
static bool outwire_outputs(const uint8_t *p, const uint8_t *end, outwire_slot *slots, size_t *n)
{
    uint64_t key;
    outwire_span o;
    *n = 0;
    while (p < end) {
        if (!outwire_varint(&p, end, &key) || key != OUTWIRE_LEN(1) ||
            !outwire_bytes(&p, end, &o) ||
            !outwire_output(o.data, o.data + o.len, slots ? &slots[*n] : NULL))
            return false;
        (*n)++;
    }
    return true;
}

void outwire_init(outwire *w)
{
    memset(w, 0, sizeof *w);
}

void outwire_free(outwire *w)
{
    free(w->slots);
    free(w->ptrs);
    outwire_init(w);
}

static bool outwire_grow(outwire *w, size_t n)
{
    if (n <= w->cap)
        return true;
    size_t cap = w->cap;
    if (dh_grow(&w->slots, &cap, n, sizeof *w->slots, 64) < 0)
        return false;
    cap = w->cap;
    if (dh_grow(&w->ptrs, &cap, n, sizeof *w->ptrs, 64) < 0)
        return false;
    w->cap = cap;
    return true;
}

Deckhand__Internal__Internal *outwire_read(outwire *w, const uint8_t *buf, size_t len)
{
    const uint8_t *p = buf, *end = buf + len;
    uint64_t key;
    outwire_span body;
    size_t n;
    if (!outwire_varint(&p, end, &key) || key != OUTWIRE_LEN(OUTWIRE_BODY) ||
        !outwire_bytes(&p, end, &body) || p != end)
        return NULL;
    end = body.data + body.len;
    if (!outwire_outputs(body.data, end, NULL, &n) || !outwire_grow(w, n))
        return NULL;
    outwire_outputs(body.data, end, w->slots, &n);
    for (size_t i = 0; i < n; i++)
        w->ptrs[i] = &w->slots[i].po;
    w->outs = (Deckhand__Internal__PlayerOutputs)DECKHAND__INTERNAL__PLAYER_OUTPUTS__INIT;
    w->outs.n_outputs = n;
    w->outs.outputs = w->ptrs;
    w->msg = (Deckhand__Internal__Internal)DECKHAND__INTERNAL__INTERNAL__INIT;
    w->msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS;
    w->msg.player_outputs = &w->outs;
    return &w->msg;
}

bool outwire_reply_ok(const uint8_t *msg, size_t len, uint64_t *cmd_id)
{
    const uint8_t *p = msg, *end = msg + len;
    uint64_t key, id = 0, ok = 0;
    outwire_span reply;
    if (!outwire_varint(&p, end, &key) || key != OUTWIRE_LEN(OUTWIRE_REPLY) ||
        !outwire_bytes(&p, end, &reply) || p != end)
        return false;
    p = reply.data;
    end = reply.data + reply.len;
    while (p < end) {
        if (!outwire_varint(&p, end, &key))
            return false;
        bool known = key == OUTWIRE_VARINT(1)   ? outwire_varint(&p, end, &id)
                     : key == OUTWIRE_VARINT(2) ? outwire_varint(&p, end, &ok)
                                                : false;
        if (!known)
            return false;
    }
    if (ok != 1)
        return false;
    *cmd_id = id;
    return true;
}
