/*
 * outwire.c: see outwire.h. The protobuf wire format, as much of it as PlayerOutputs uses:
 * a varint key (field << 3 | wire type), then a varint (type 0) or a varint length and
 * that many bytes (type 2). Each message is walked once, filling the slots as it goes
 * (they grow as needed); nothing is handed on before the whole message has been read, so
 * that a malformed message is refused whole, as the ordinary unpack refuses it.
 */
#include "outwire.h"

#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_wire.h"

#define OUTWIRE_BODY  42 /* Internal.player_outputs */
#define OUTWIRE_REPLY 1  /* ServerMessage.reply */

/* One PlayerOutput: checked, and copied into slot (its two id pointers are set once the
 * slots have stopped moving: outwire_read). A field this reader does not know, or an id
 * longer than its slot, sends the message to the unpack. */
static bool outwire_output(const uint8_t *p, const uint8_t *end, outwire_slot *slot)
{
    dh_wire_span pid = {NULL, 0}, mid = {NULL, 0}, msg = {NULL, 0};
    uint64_t key, kind = 0;
    while (p < end) {
        if (!dh_wire_varint(&p, end, &key))
            return false;
        bool ok = key == DH_WIRE_LEN(1)      ? dh_wire_bytes(&p, end, &pid)
                  : key == DH_WIRE_LEN(2)    ? dh_wire_bytes(&p, end, &msg)
                  : key == DH_WIRE_LEN(3)    ? dh_wire_bytes(&p, end, &mid)
                  : key == DH_WIRE_VARINT(4) ? dh_wire_varint(&p, end, &kind)
                                             : false;
        if (!ok)
            return false;
    }
    if (pid.len >= DH_TOKEN_ID_MAX || mid.len >= GW_MATCH_ID_MAX || kind > INT32_MAX)
        return false;
    slot->po = (Deckhand__Internal__PlayerOutput)DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    if (pid.len)
        memcpy(slot->player_id, pid.data, pid.len);
    slot->player_id[pid.len] = '\0';
    if (mid.len)
        memcpy(slot->match_id, mid.data, mid.len);
    slot->match_id[mid.len] = '\0';
    slot->po.message.data = (uint8_t *)msg.data;
    slot->po.message.len = msg.len;
    slot->po.kind = (Deckhand__Internal__PlayerOutput__Kind)kind;
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

/* The outputs of a PlayerOutputs body [p, end), read into w's slots: their number, or -1
 * when the body is malformed or memory runs out. */
static long outwire_outputs(outwire *w, const uint8_t *p, const uint8_t *end)
{
    uint64_t key;
    dh_wire_span o;
    size_t n = 0;
    while (p < end) {
        if (!dh_wire_varint(&p, end, &key) || key != DH_WIRE_LEN(1) ||
            !dh_wire_bytes(&p, end, &o) || !outwire_grow(w, n + 1) ||
            !outwire_output(o.data, o.data + o.len, &w->slots[n]))
            return -1;
        n++;
    }
    return (long)n;
}

Deckhand__Internal__Internal *outwire_read(outwire *w, const uint8_t *buf, size_t len)
{
    const uint8_t *p = buf, *end = buf + len;
    uint64_t key;
    dh_wire_span body;
    if (!dh_wire_varint(&p, end, &key) || key != DH_WIRE_LEN(OUTWIRE_BODY) ||
        !dh_wire_bytes(&p, end, &body) || p != end)
        return NULL;
    long got = outwire_outputs(w, body.data, body.data + body.len);
    if (got < 0)
        return NULL;
    size_t n = (size_t)got;
    for (size_t i = 0; i < n; i++) {
        outwire_slot *slot = &w->slots[i];
        slot->po.player_id = slot->player_id;
        slot->po.match_id = slot->match_id;
        w->ptrs[i] = &slot->po;
    }
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
    dh_wire_span reply;
    if (!dh_wire_varint(&p, end, &key) || key != DH_WIRE_LEN(OUTWIRE_REPLY) ||
        !dh_wire_bytes(&p, end, &reply) || p != end)
        return false;
    p = reply.data;
    end = reply.data + reply.len;
    while (p < end) {
        if (!dh_wire_varint(&p, end, &key))
            return false;
        bool known = key == DH_WIRE_VARINT(1)   ? dh_wire_varint(&p, end, &id)
                     : key == DH_WIRE_VARINT(2) ? dh_wire_varint(&p, end, &ok)
                                                : false;
        if (!known)
            return false;
    }
    if (ok != 1)
        return false;
    *cmd_id = id;
    return true;
}
