/*
 * out_pack.c: the messages an answer sends (a Reply, Events, Views and ViewDeltas, a
 * DecisionRequest) encoded by hand, straight into a gateway's batch as PlayerOutputs, in
 * one walk; every other ServerMessage goes through protobuf-c into the same place.
 *
 * Why: protobuf-c's generic packer walks each message's descriptor twice (its size, then
 * its bytes), and the worker packed every output twice over (the ServerMessage, then the
 * PlayerOutput around it): a quarter of the worker's instructions per answer (issue 27).
 * Here a nested message's length is written after its body: one byte is kept for it, and
 * the body moved up in the rare case it is 128 bytes or more.
 *
 * The bytes are protobuf-c's, byte for byte (test_worker_out_pack compares them over
 * whole matches of every game): fields in number order, proto3's zero values left out
 * (0, false, "" or a NULL string), a set submessage written even when empty, a negative
 * int32 as ten bytes. A message with unknown fields (none is built with them) would lose
 * them here, as the worker never sets any.
 */
#include "out.h"

#include <string.h>

#include "dh_wire.h"

/* Room left at w; false (and w marked full) when fewer than n bytes. */
static bool w_room(out_writer *w, size_t n)
{
    if (w->full || (size_t)(w->end - w->p) < n)
        return !(w->full = true);
    return true;
}

static void w_varint(out_writer *w, uint64_t v)
{
    if (!w->full && w->end - w->p >= 10) {
        w->p += dh_wire_put_varint(w->p, v);
        return;
    }
    uint8_t tmp[10]; /* near the end: written only if it fits */
    size_t n = dh_wire_put_varint(tmp, v);
    if (w_room(w, n)) {
        memcpy(w->p, tmp, n);
        w->p += n;
    }
}

static void w_key(out_writer *w, unsigned field, unsigned wire)
{
    if (w_room(w, 1))
        *w->p++ = (uint8_t)(field << 3 | wire);
}

/* The common case of the writers below, a key and a value or length under 128 with room
 * to spare, is written in one step; the rest goes the general way (w_key, w_varint). */
static bool w_fast(const out_writer *w, size_t n)
{
    return !w->full && (size_t)(w->end - w->p) >= n;
}

static void w_u64(out_writer *w, unsigned field, uint64_t v)
{
    if (!v)
        return;
    if (v < 0x80 && w_fast(w, 2)) {
        w->p[0] = (uint8_t)(field << 3);
        w->p[1] = (uint8_t)v;
        w->p += 2;
        return;
    }
    w_key(w, field, 0);
    w_varint(w, v);
}

/* int32 and enums: a negative value as its 64-bit two's complement (ten bytes). */
static void w_i32(out_writer *w, unsigned field, int32_t v)
{
    w_u64(w, field, (uint64_t)(int64_t)v);
}

static void w_bool(out_writer *w, unsigned field, protobuf_c_boolean b)
{
    w_u64(w, field, b ? 1 : 0);
}

static void w_bytes(out_writer *w, unsigned field, const void *s, size_t n)
{
    w_key(w, field, 2);
    w_varint(w, n);
    if (w_room(w, n)) {
        memcpy(w->p, s, n);
        w->p += n;
    }
}

static void w_str(out_writer *w, unsigned field, const char *s)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    if (n < 0x80 && w_fast(w, n + 2)) {
        w->p[0] = (uint8_t)(field << 3 | 2);
        w->p[1] = (uint8_t)n;
        memcpy(w->p + 2, s, n);
        w->p += n + 2;
        return;
    }
    w_bytes(w, field, s, n);
}

/* A length-delimited field whose body follows: its key and one byte kept for the length.
 * Where the body starts (NULL when full); w_close writes the length. */
static uint8_t *w_open(out_writer *w, unsigned field)
{
    if (w_fast(w, 2)) {
        w->p[0] = (uint8_t)(field << 3 | 2);
        w->p += 2;
        return w->p;
    }
    w_key(w, field, 2);
    if (!w_room(w, 1))
        return NULL;
    return ++w->p;
}

static void w_close(out_writer *w, uint8_t *body)
{
    if (!body || w->full)
        return;
    size_t n = (size_t)(w->p - body);
    if (n < 0x80) {
        body[-1] = (uint8_t)n;
        return;
    }
    uint8_t head[10];
    size_t nh = dh_wire_put_varint(head, n);
    if (nh > 1) {
        if (!w_room(w, nh - 1))
            return;
        memmove(body + nh - 1, body, n);
        w->p += nh - 1;
    }
    memcpy(body - 1, head, nh);
}

static void w_option(out_writer *w, const Deckhand__Option *o)
{
    w_u64(w, 1, o->id);
    w_str(w, 2, o->label);
    w_str(w, 3, o->card);
    w_u64(w, 4, o->entity);
    w_str(w, 5, o->verb);
    w_u64(w, 6, o->target);
    w_str(w, 7, o->space);
}

static void w_decision(out_writer *w, const Deckhand__DecisionRequest *d)
{
    w_str(w, 1, d->match_id);
    w_u64(w, 2, d->event_seq);
    w_u64(w, 3, d->decision_id);
    w_u64(w, 4, d->seat);
    w_str(w, 5, d->prompt);
    w_str(w, 6, d->kind);
    for (size_t i = 0; i < d->n_options; i++) {
        uint8_t *b = w_open(w, 7);
        w_option(w, d->options[i]);
        w_close(w, b);
    }
    w_u64(w, 8, d->min);
    w_u64(w, 9, d->max);
    w_u64(w, 10, d->time_left_ms);
    w_bool(w, 11, d->can_undo);
}

static void w_zone(out_writer *w, const Deckhand__Zone *z)
{
    w_str(w, 1, z->name);
    w_i32(w, 2, z->owner);
    w_u64(w, 3, z->count);
    for (size_t i = 0; i < z->n_cards; i++) {
        uint8_t *b = w_open(w, 4);
        w_u64(w, 1, z->cards[i]->entity);
        w_str(w, 2, z->cards[i]->name);
        w_close(w, b);
    }
}

/* The zones and counters of a View or ViewDelta (fields field and field + 1). */
static void w_zones_counters(out_writer *w, unsigned field, Deckhand__Zone *const *zones,
                             size_t nzones, Deckhand__Counter *const *counters, size_t ncounters)
{
    for (size_t i = 0; i < nzones; i++) {
        uint8_t *b = w_open(w, field);
        w_zone(w, zones[i]);
        w_close(w, b);
    }
    for (size_t i = 0; i < ncounters; i++) {
        uint8_t *b = w_open(w, field + 1);
        w_str(w, 1, counters[i]->name);
        w_i32(w, 2, counters[i]->owner);
        w_u64(w, 3, (uint64_t)counters[i]->value);
        w_close(w, b);
    }
}

/* A copy of the n bytes before w->p into k (k->len 0 when out of memory). */
static void w_keep(out_writer *w, out_bytes *k, size_t n)
{
    k->len = 0;
    if (n > k->cap) {
        uint8_t *p = realloc(k->p, n);
        if (!p)
            return;
        k->p = p;
        k->cap = n;
    }
    memcpy(k->p, w->p - n, n);
    k->len = n;
}

static void w_decision_field(out_writer *w, unsigned field, const Deckhand__DecisionRequest *d)
{
    if (!d)
        return;
    uint8_t *b = w_open(w, field);
    w_decision(w, d);
    size_t n = b ? (size_t)(w->p - b) : 0;
    w_close(w, b);
    if (w->keep && b && !w->full)
        w_keep(w, w->keep, n); /* the body: the n bytes its length now precedes */
}

static void w_view_delta(out_writer *w, const Deckhand__ViewDelta *d)
{
    w_str(w, 1, d->match_id);
    w_u64(w, 2, d->event_seq);
    w_u64(w, 3, d->seat);
    w_u64(w, 4, d->base_view_seq);
    w_u64(w, 5, d->view_seq);
    w_zones_counters(w, 6, d->zones, d->n_zones, d->counters, d->n_counters);
    w_i32(w, 8, d->waiting_for);
    w_decision_field(w, 9, d->decision);
    w_bool(w, 10, d->finished);
}

static void w_view(out_writer *w, const Deckhand__View *v)
{
    w_str(w, 1, v->match_id);
    w_u64(w, 2, v->event_seq);
    w_u64(w, 3, v->seat);
    w_str(w, 4, v->game);
    for (size_t i = 0; i < v->n_players; i++) {
        uint8_t *b = w_open(w, 5);
        w_u64(w, 1, v->players[i]->seat);
        w_str(w, 2, v->players[i]->name);
        w_bool(w, 3, v->players[i]->connected);
        w_close(w, b);
    }
    w_zones_counters(w, 6, v->zones, v->n_zones, v->counters, v->n_counters);
    for (size_t i = 0; i < v->n_cards; i++) {
        uint8_t *b = w_open(w, 8);
        w_str(w, 1, v->cards[i]->name);
        w_i32(w, 2, v->cards[i]->cost);
        w_str(w, 3, v->cards[i]->types);
        w_str(w, 4, v->cards[i]->text);
        w_close(w, b);
    }
    w_i32(w, 9, v->waiting_for);
    w_decision_field(w, 10, v->decision);
    w_bool(w, 11, v->finished);
    w_str(w, 12, v->bundle_id);
    w_u64(w, 13, v->view_seq);
}

static void w_event(out_writer *w, const Deckhand__Event *e)
{
    w_str(w, 1, e->match_id);
    w_u64(w, 2, e->event_seq);
    w_str(w, 3, e->kind);
    w_str(w, 4, e->text);
    w_i32(w, 5, e->seat);
}

static void w_reply(out_writer *w, const Deckhand__Reply *r)
{
    w_u64(w, 1, r->cmd_id);
    w_bool(w, 2, r->ok);
    if (r->error) {
        uint8_t *b = w_open(w, 3);
        w_i32(w, 1, (int32_t)r->error->code);
        w_str(w, 2, r->error->message);
        w_close(w, b);
    }
}

/* sm by protobuf-c, for the bodies this file does not write by hand. */
static void w_generic(out_writer *w, const Deckhand__ServerMessage *sm)
{
    size_t n = deckhand__server_message__get_packed_size(sm);
    if (w_room(w, n))
        w->p += deckhand__server_message__pack(sm, w->p);
}

void out_pack_server(out_writer *w, const Deckhand__ServerMessage *sm)
{
    uint8_t *b;
    switch (sm->body_case) {
    case DECKHAND__SERVER_MESSAGE__BODY_REPLY:
        b = w_open(w, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
        w_reply(w, sm->reply);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_EVENT:
        b = w_open(w, DECKHAND__SERVER_MESSAGE__BODY_EVENT);
        w_event(w, sm->event);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_DECISION:
        b = w_open(w, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
        w_decision(w, sm->decision);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW:
        b = w_open(w, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
        w_view(w, sm->view);
        break;
    case DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA:
        b = w_open(w, DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA);
        w_view_delta(w, sm->view_delta);
        break;
    default:
        w_generic(w, sm);
        return;
    }
    w_close(w, b);
}

void out_pack_output(out_writer *w, const char *player_id, const char *match_id,
                     Deckhand__Internal__PlayerOutput__Kind kind, const Deckhand__ServerMessage *sm,
                     const uint8_t *msg, size_t len)
{
    w_str(w, 1, player_id);
    if (sm) {
        uint8_t *b = w_open(w, 2);
        out_pack_server(w, sm);
        w->msg_len = b && !w->full ? (size_t)(w->p - b) : 0;
        if (b && !w->msg_len)
            w->p = b - 2; /* an empty message is left out, as protobuf-c does */
        w_close(w, w->msg_len ? b : NULL);
    } else if (len) {
        w_bytes(w, 2, msg, len);
        w->msg_len = len;
    }
    w_str(w, 3, match_id);
    w_i32(w, 4, (int32_t)kind);
}

void out_pack_item(out_writer *w, unsigned field, const char *player_id, const char *match_id,
                   Deckhand__Internal__PlayerOutput__Kind kind, const Deckhand__ServerMessage *sm,
                   const uint8_t *msg, size_t len)
{
    uint8_t *b = w_open(w, field);
    out_pack_output(w, player_id, match_id, kind, sm, msg, len);
    w_close(w, b);
}
