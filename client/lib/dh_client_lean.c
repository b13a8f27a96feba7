/*
 * dh_client_lean.c: see dh_client_lean.h.
 *
 * The message is walked on the wire (protobuf's tag, varint and length-delimited
 * encoding); the fields kept are copied byte for byte into a small buffer shaped as the
 * same ServerMessage with only them, which protobuf-c unpacks as usual, so the result is
 * an ordinary unpacked message, freed the ordinary way.
 */
#include "dh_client_lean.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ServerMessage's body fields (deckhand.proto) this file thins or drops. */
#define LEAN_EVENT      4
#define LEAN_DECISION   5
#define LEAN_VIEW       6
#define LEAN_CATALOG    9
#define LEAN_VIEW_DELTA 10
/* The kept fields: match_id and event_seq are 1 and 2 in all three; the decision is a
 * View's 10 and a ViewDelta's 9. */
#define LEAN_VIEW_DECISION       10
#define LEAN_VIEW_DELTA_DECISION 9

#define LEAN_STACK 4096

#define WIRE_VARINT 0
#define WIRE_I64    1
#define WIRE_LEN    2
#define WIRE_I32    5

static bool lean_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* Step over one field at *p: its number, and where its bytes start and end (tag
 * included). false when it is not well formed. */
static bool lean_field(const uint8_t **p, const uint8_t *end, uint32_t *num, const uint8_t **body,
                       size_t *blen)
{
    uint64_t tag, n;
    if (!lean_varint(p, end, &tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX)
        return false;
    *num = (uint32_t)(tag >> 3);
    *body = *p;
    switch (tag & 7) {
    case WIRE_VARINT:
        if (!lean_varint(p, end, &n))
            return false;
        break;
    case WIRE_I64:
    case WIRE_I32:
        n = (tag & 7) == WIRE_I64 ? 8 : 4;
        if ((size_t)(end - *p) < n)
            return false;
        *p += n;
        break;
    case WIRE_LEN:
        if (!lean_varint(p, end, &n) || (size_t)(end - *p) < n)
            return false;
        *p += n;
        break;
    default:
        return false;
    }
    *blen = (size_t)(*p - *body);
    return true;
}

/* The body field of a ServerMessage: its number and bytes; false unless there is exactly
 * one field and it is length-delimited. */
static bool lean_body(const uint8_t *buf, size_t len, uint32_t *num, const uint8_t **sub,
                      size_t *sublen)
{
    const uint8_t *p = buf, *end = buf + len, *field;
    size_t flen;
    uint64_t n;
    if (!lean_field(&p, end, num, &field, &flen) || p != end)
        return false;
    const uint8_t *q = field;
    if (!lean_varint(&q, end, &n) || (size_t)(end - q) != n)
        return false;
    *sub = q;
    *sublen = (size_t)n;
    return true;
}

static size_t lean_put_varint(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    do {
        out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

/* A length-delimited field's bytes, from its body as lean_field gives it. */
static bool lean_len_body(const uint8_t *body, const uint8_t *end, const uint8_t **in, size_t *n)
{
    uint64_t v;
    if (!lean_varint(&body, end, &v) || (size_t)(end - body) != v)
        return false;
    *in = body;
    *n = (size_t)v;
    return true;
}

/* What identifies a DecisionRequest (its bytes p[0..n)): match_id, event_seq and
 * decision_id, into k (valid when they were read). */
static void lean_decision_key(const uint8_t *p, size_t n, dh_lean_last *k)
{
    const uint8_t *end = p + n, *body, *in;
    size_t blen, inlen;
    uint32_t num;
    *k = (dh_lean_last){0};
    while (p < end) {
        if (!lean_field(&p, end, &num, &body, &blen))
            return;
        if (num == 1 && (!lean_len_body(body, p, &in, &inlen) || inlen >= sizeof k->match_id))
            return;
        if (num == 1) {
            memcpy(k->match_id, in, inlen);
            k->id_len = inlen;
        } else if ((num == 2 || num == 3) &&
                   !lean_varint(&body, p, num == 2 ? &k->event_seq : &k->decision_id)) {
            return;
        }
    }
    k->valid = true;
}

/* A DecisionRequest (sub[0..n)) that repeats the decision prev remembers. */
static bool lean_repeats(const dh_lean_last *prev, const uint8_t *sub, size_t n)
{
    dh_lean_last k;
    if (!prev->valid)
        return false;
    lean_decision_key(sub, n, &k);
    return k.valid && k.event_seq == prev->event_seq && k.decision_id == prev->decision_id &&
           k.id_len == prev->id_len && !memcmp(k.match_id, prev->match_id, k.id_len);
}

dh_lean_result dh_client_lean_decode(const uint8_t *buf, size_t len, dh_lean_last *last,
                                     ProtobufCAllocator *pa, Deckhand__ServerMessage **out)
{
    uint32_t kind, decision;
    const uint8_t *sub;
    size_t sublen;
    dh_lean_last none = {0}, prev = last ? *last : none;
    if (!last)
        last = &none;
    last->valid = false; /* whatever comes now is between that decision and a repeat */
    if (!lean_body(buf, len, &kind, &sub, &sublen))
        return DH_LEAN_WHOLE;
    if (kind == LEAN_DECISION)
        return lean_repeats(&prev, sub, sublen) ? DH_LEAN_DROPPED : DH_LEAN_WHOLE;
    if (kind == LEAN_CATALOG)
        return DH_LEAN_DROPPED;
    if (kind == LEAN_VIEW)
        decision = LEAN_VIEW_DECISION;
    else if (kind == LEAN_VIEW_DELTA)
        decision = LEAN_VIEW_DELTA_DECISION;
    else if (kind == LEAN_EVENT)
        decision = 0; /* none */
    else
        return DH_LEAN_WHOLE;
    /* the kept fields, after room for the wrapper's tag and length (at most 5 + 10 bytes):
     * on the stack unless the message is large */
    uint8_t stack[LEAN_STACK], *thin = sublen + 16 <= sizeof stack ? stack : malloc(sublen + 16);
    if (!thin)
        return DH_LEAN_FAILED;
    size_t at = 16, kept = 0;
    const uint8_t *p = sub, *end = sub + sublen;
    while (p < end) {
        const uint8_t *start = p, *body;
        size_t blen;
        uint32_t num;
        if (!lean_field(&p, end, &num, &body, &blen)) {
            if (thin != stack)
                free(thin);
            return DH_LEAN_WHOLE;
        }
        if (num == 1 || num == 2 || (decision && num == decision)) {
            memcpy(thin + at + kept, start, (size_t)(p - start));
            kept += (size_t)(p - start);
        }
        const uint8_t *in;
        size_t inlen;
        if (decision && num == decision && lean_len_body(body, p, &in, &inlen))
            lean_decision_key(in, inlen, last);
    }
    uint8_t head[16];
    size_t h = lean_put_varint(head, (uint64_t)kind << 3 | WIRE_LEN);
    h += lean_put_varint(head + h, kept);
    memcpy(thin + at - h, head, h);
    *out = deckhand__server_message__unpack(pa, h + kept, thin + at - h);
    if (thin != stack)
        free(thin);
    return *out ? DH_LEAN_DECODED : DH_LEAN_FAILED;
}
