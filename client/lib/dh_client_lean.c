/*
 * dh_client_lean.c: see dh_client_lean.h.
 *
 * The message is walked on the wire (protobuf's tag, varint and length-delimited
 * encoding); the fields kept are copied byte for byte into a small buffer shaped as the
 * same ServerMessage with only them, which protobuf-c unpacks as usual, so the result is
 * an ordinary unpacked message, freed the ordinary way. With an arena (dh_client_arena.h)
 * those kinds are instead read field by field straight into it (lean_direct: the
 * structures protobuf-c would make, with only what a bot reads), and only what that
 * reader refuses goes the first way.
 */
#include "dh_client_lean.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dh_wire.h"

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

/* Step over one field at *p: its number, and where its bytes start and end (tag
 * included). false when it is not well formed. */
static bool lean_field(const uint8_t **p, const uint8_t *end, uint32_t *num, const uint8_t **body,
                       size_t *blen)
{
    uint64_t tag, n;
    if (!dh_wire_varint(p, end, &tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX)
        return false;
    *num = (uint32_t)(tag >> 3);
    *body = *p;
    switch (tag & 7) {
    case WIRE_VARINT:
        if (!dh_wire_varint(p, end, &n))
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
        if (!dh_wire_varint(p, end, &n) || (size_t)(end - *p) < n)
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
    if (!dh_wire_varint(&q, end, &n) || (size_t)(end - q) != n)
        return false;
    *sub = q;
    *sublen = (size_t)n;
    return true;
}

/* A length-delimited field's bytes, from its body as lean_field gives it. */
static bool lean_len_body(const uint8_t *body, const uint8_t *end, const uint8_t **in, size_t *n)
{
    uint64_t v;
    if (!dh_wire_varint(&body, end, &v) || (size_t)(end - body) != v)
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
                   !dh_wire_varint(&body, p, num == 2 ? &k->event_seq : &k->decision_id)) {
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

/* ---- direct decoding into an arena --------------------------------------------------- */

/* What lean_next found. */
#define LEAN_END   0
#define LEAN_V     1 /* a varint: v */
#define LEAN_L     2 /* length-delimited: in[0..n) */
#define LEAN_OTHER 3 /* a fixed-size field, stepped over */
#define LEAN_BAD   (-1)

/* The next field of [*p, end): its number and value. */
static inline int lean_next(const uint8_t **p, const uint8_t *end, uint32_t *num, uint64_t *v,
                            const uint8_t **in, size_t *n)
{
    uint64_t tag, len;
    if (*p == end)
        return LEAN_END;
    if (!dh_wire_varint(p, end, &tag) || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX)
        return LEAN_BAD;
    *num = (uint32_t)(tag >> 3);
    switch (tag & 7) {
    case WIRE_VARINT:
        return dh_wire_varint(p, end, v) ? LEAN_V : LEAN_BAD;
    case WIRE_LEN:
        if (!dh_wire_varint(p, end, &len) || (size_t)(end - *p) < len)
            return LEAN_BAD;
        *in = *p;
        *n = (size_t)len;
        *p += len;
        return LEAN_L;
    case WIRE_I64:
    case WIRE_I32:
        len = (tag & 7) == WIRE_I64 ? 8 : 4;
        if ((size_t)(end - *p) < len)
            return LEAN_BAD;
        *p += len;
        return LEAN_OTHER;
    default:
        return LEAN_BAD;
    }
}

/* A string field's bytes as a C string in a's memory into *s; false when out of memory. */
static bool lean_str(dh_arena *a, const uint8_t *in, size_t n, char **s)
{
    char *c = dh_arena_alloc(a, n + 1);
    if (!c)
        return false;
    memcpy(c, in, n);
    c[n] = '\0';
    *s = c;
    return true;
}

/* An Option from p[0..n): what a bot reads of it, its id, label and card (NULL when not
 * well formed, or one of those of another wire type: the whole unpack says what is
 * wrong). */
static Deckhand__Option *lean_option(dh_arena *a, const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n, *in = NULL;
    Deckhand__Option *o = dh_arena_alloc(a, sizeof *o);
    uint32_t num;
    uint64_t v = 0;
    size_t len = 0;
    int k;
    if (!o)
        return NULL;
    deckhand__option__init(o);
    while ((k = lean_next(&p, end, &num, &v, &in, &len)) > LEAN_END) {
        if (num == 1 && k != LEAN_V)
            return NULL;
        if ((num == 2 || num == 3) &&
            (k != LEAN_L || !lean_str(a, in, len, num == 2 ? &o->label : &o->card)))
            return NULL;
        if (num == 1)
            o->id = (uint32_t)v;
    }
    return k == LEAN_END ? o : NULL;
}

/* A DecisionRequest's scalar field num that a bot reads (varint v) into d. */
static void lean_decision_scalar(Deckhand__DecisionRequest *d, uint32_t num, uint64_t v)
{
    switch (num) {
    case 2:
        d->event_seq = v;
        break;
    case 3:
        d->decision_id = v;
        break;
    case 4:
        d->seat = (uint32_t)v;
        break;
    case 8:
        d->min = (uint32_t)v;
        break;
    case 9:
        d->max = (uint32_t)v;
        break;
    default:
        break;
    }
}

/* A DecisionRequest from p[0..n): what a bot reads of it (match_id, event_seq,
 * decision_id, seat, kind, options, min, max), as lean_option. */
static Deckhand__DecisionRequest *lean_decision(dh_arena *a, const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n, *in = NULL, *q = p;
    uint32_t num;
    uint64_t v = 0;
    size_t len = 0, nopt = 0;
    int k;
    while ((k = lean_next(&q, end, &num, &v, &in, &len)) > LEAN_END)
        nopt += num == 7;
    Deckhand__DecisionRequest *d = dh_arena_alloc(a, sizeof *d);
    if (k != LEAN_END || !d)
        return NULL;
    deckhand__decision_request__init(d);
    if (nopt && !(d->options = dh_arena_alloc(a, nopt * sizeof *d->options)))
        return NULL;
    while ((k = lean_next(&p, end, &num, &v, &in, &len)) > LEAN_END) {
        bool str = num == 1 || num == 6;
        bool scalar = num == 2 || num == 3 || num == 4 || num == 8 || num == 9;
        if (((str || num == 7) && k != LEAN_L) || (scalar && k != LEAN_V))
            return NULL; /* one it reads, of another wire type */
        if (str && !lean_str(a, in, len, num == 1 ? &d->match_id : &d->kind))
            return NULL;
        if (num == 7 && !(d->options[d->n_options++] = lean_option(a, in, len)))
            return NULL;
        if (k == LEAN_V)
            lean_decision_scalar(d, num, v);
    }
    return d;
}

/* Remember d (a View's or ViewDelta's decision) in last, as lean_decision_key would. */
static void lean_remember(const Deckhand__DecisionRequest *d, dh_lean_last *last)
{
    size_t n = strlen(d->match_id);
    *last = (dh_lean_last){0};
    if (n >= sizeof last->match_id)
        return;
    memcpy(last->match_id, d->match_id, n);
    last->id_len = n;
    last->event_seq = d->event_seq;
    last->decision_id = d->decision_id;
    last->valid = true;
}

/* The match_id (1), event_seq (2) and decision (field dnum, 0: none) of an Event, a View
 * or a ViewDelta from p[0..n), into the fields given; false when not well formed. */
static bool lean_state(dh_arena *a, const uint8_t *p, size_t n, uint32_t dnum, char **match_id,
                       uint64_t *seq, Deckhand__DecisionRequest **d)
{
    const uint8_t *end = p + n, *in = NULL;
    uint32_t num;
    uint64_t v = 0;
    size_t len = 0;
    int k;
    while ((k = lean_next(&p, end, &num, &v, &in, &len)) > LEAN_END) {
        if ((num == 1 || (dnum && num == dnum)) && k != LEAN_L)
            return false;
        if (num == 2 && k != LEAN_V)
            return false;
        if (num == 1 && !lean_str(a, in, len, match_id))
            return false;
        if (num == 2)
            *seq = v;
        if (dnum && num == dnum && !(*d = lean_decision(a, in, len)))
            return false;
    }
    return k == LEAN_END;
}

/* kind's body sub[0..n) straight into a (nothing in an arena is freed one by
 * one, so a failure half way leaves nothing to undo); NULL when not well formed. */
static Deckhand__ServerMessage *lean_direct(dh_arena *a, uint32_t kind, const uint8_t *sub,
                                            size_t n, dh_lean_last *last)
{
    Deckhand__ServerMessage *m = dh_arena_alloc(a, sizeof *m);
    Deckhand__DecisionRequest *d = NULL;
    bool ok = false;
    if (!m)
        return NULL;
    deckhand__server_message__init(m);
    m->body_case = (Deckhand__ServerMessage__BodyCase)kind;
    if (kind == LEAN_EVENT && (m->event = dh_arena_alloc(a, sizeof *m->event))) {
        deckhand__event__init(m->event);
        ok = lean_state(a, sub, n, 0, &m->event->match_id, &m->event->event_seq, &d);
    } else if (kind == LEAN_VIEW && (m->view = dh_arena_alloc(a, sizeof *m->view))) {
        deckhand__view__init(m->view);
        ok = lean_state(a, sub, n, LEAN_VIEW_DECISION, &m->view->match_id, &m->view->event_seq,
                        &m->view->decision);
        d = m->view->decision;
    } else if (kind == LEAN_VIEW_DELTA &&
               (m->view_delta = dh_arena_alloc(a, sizeof *m->view_delta))) {
        deckhand__view_delta__init(m->view_delta);
        ok = lean_state(a, sub, n, LEAN_VIEW_DELTA_DECISION, &m->view_delta->match_id,
                        &m->view_delta->event_seq, &m->view_delta->decision);
        d = m->view_delta->decision;
    } else if (kind == LEAN_DECISION) {
        ok = (m->decision = lean_decision(a, sub, n)) != NULL;
    }
    if (ok && d && last)
        lean_remember(d, last);
    return ok ? m : NULL;
}

dh_lean_result dh_client_lean_decode(const uint8_t *buf, size_t len, dh_lean_last *last,
                                     dh_arena *arena, Deckhand__ServerMessage **out)
{
    ProtobufCAllocator *pa = arena ? &arena->pa : NULL;
    uint32_t kind, decision;
    const uint8_t *sub;
    size_t sublen;
    dh_lean_last none = {0}, prev = last ? *last : none;
    if (!last)
        last = &none;
    last->valid = false; /* whatever comes now is between that decision and a repeat */
    if (!lean_body(buf, len, &kind, &sub, &sublen))
        return DH_LEAN_WHOLE;
    if (kind == LEAN_DECISION && lean_repeats(&prev, sub, sublen))
        return DH_LEAN_DROPPED;
    if (kind == LEAN_CATALOG)
        return DH_LEAN_DROPPED;
    bool direct =
        kind == LEAN_EVENT || kind == LEAN_VIEW || kind == LEAN_VIEW_DELTA || kind == LEAN_DECISION;
    if (arena && direct && (*out = lean_direct(arena, kind, sub, sublen, last)))
        return DH_LEAN_DECODED;
    if (kind == LEAN_DECISION)
        return DH_LEAN_WHOLE;
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
    size_t h = dh_wire_put_varint(head, (uint64_t)kind << 3 | WIRE_LEN);
    h += dh_wire_put_varint(head + h, kept);
    memcpy(thin + at - h, head, h);
    *out = deckhand__server_message__unpack(pa, h + kept, thin + at - h);
    if (thin != stack)
        free(thin);
    return *out ? DH_LEAN_DECODED : DH_LEAN_FAILED;
}
