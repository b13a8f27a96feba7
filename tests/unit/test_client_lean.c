/*
 * test_client_lean.c: the lean decoding of `deckhand load`'s connections
 * (client/lib/dh_client_lean.h): an Event, a View and a ViewDelta keep their match id,
 * event sequence and decision (every option a bot reads) and lose the rest; a Catalog is
 * dropped, and so is a DecisionRequest repeating the decision of the View or ViewDelta
 * right before it; other kinds, and bytes that are not a message, are left to the whole
 * unpack. Every case runs twice: with malloc, and decoding into an arena
 * (dh_client_arena.h), where those kinds are read straight from the wire, a lone
 * DecisionRequest too.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_client_lean.h"
#include "dh_test.h"

/* The arena the cases decode into (the _in_an_arena runs), or NULL: malloc. */
static dh_arena *arena;

static void lean_free(Deckhand__ServerMessage *m)
{
    dh_arena_release(arena, m);
}

/* What a DecisionRequest that is not dropped comes out as: whole, or read into the arena. */
static dh_lean_result lean_kept(void)
{
    return arena ? DH_LEAN_DECODED : DH_LEAN_WHOLE;
}

static uint8_t *pack(const Deckhand__ServerMessage *m, size_t *len)
{
    *len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(*len ? *len : 1);
    deckhand__server_message__pack(m, buf);
    return buf;
}

/* A DecisionRequest with two options, as the generic bot reads them. */
static void decision(Deckhand__DecisionRequest *d, Deckhand__Option *o, Deckhand__Option **opts)
{
    deckhand__decision_request__init(d);
    d->match_id = "m-1";
    d->decision_id = 42;
    d->kind = "buy";
    d->min = 1;
    d->max = 1;
    for (int i = 0; i < 2; i++) {
        deckhand__option__init(&o[i]);
        o[i].id = (uint32_t)i + 1;
        opts[i] = &o[i];
    }
    o[0].label = "Buy Silver ($3)";
    o[0].card = "Silver";
    o[1].label = "Done";
    d->n_options = 2;
    d->options = opts;
}

/* m packed and decoded leanly: decoded, of m's kind (the caller frees the result). */
static Deckhand__ServerMessage *lean_round_trip(const Deckhand__ServerMessage *m)
{
    Deckhand__ServerMessage *out = NULL;
    size_t len;
    uint8_t *buf = pack(m, &len);
    dh_lean_result got = dh_client_lean_decode(buf, len, NULL, arena, &out);
    free(buf);
    CU_ASSERT_EQUAL_FATAL(got, DH_LEAN_DECODED);
    CU_ASSERT_EQUAL_FATAL(out->body_case, m->body_case);
    return out;
}

static void check_decision(const Deckhand__DecisionRequest *d)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->decision_id, 42);
    CU_ASSERT_STRING_EQUAL(d->kind, "buy");
    CU_ASSERT_EQUAL(d->max, 1);
    CU_ASSERT_EQUAL_FATAL(d->n_options, 2);
    CU_ASSERT_STRING_EQUAL(d->options[0]->label, "Buy Silver ($3)");
    CU_ASSERT_STRING_EQUAL(d->options[0]->card, "Silver");
    CU_ASSERT_EQUAL(d->options[1]->id, 2);
}

static void test_lean_view_delta_keeps_id_seq_and_decision_without_zones(void)
{
    Deckhand__Zone z = DECKHAND__ZONE__INIT, *zones[] = {&z};
    Deckhand__DecisionRequest d;
    Deckhand__Option o[2], *opts[2];
    Deckhand__ViewDelta v = DECKHAND__VIEW_DELTA__INIT;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    decision(&d, o, opts);
    z.name = "hand";
    z.count = 5;
    v.match_id = "m-1";
    v.event_seq = 300; /* two bytes of varint */
    v.view_seq = 9;
    v.n_zones = 1;
    v.zones = zones;
    v.decision = &d;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA;
    m.view_delta = &v;
    Deckhand__ServerMessage *out = lean_round_trip(&m);
    CU_ASSERT_STRING_EQUAL(out->view_delta->match_id, "m-1");
    CU_ASSERT_EQUAL(out->view_delta->event_seq, 300);
    CU_ASSERT_EQUAL(out->view_delta->n_zones, 0);
    CU_ASSERT_EQUAL(out->view_delta->view_seq, 0);
    check_decision(out->view_delta->decision);
    lean_free(out);
}

static void test_lean_view_keeps_id_seq_and_decision_without_players(void)
{
    Deckhand__PlayerInfo p = DECKHAND__PLAYER_INFO__INIT, *players[] = {&p};
    Deckhand__DecisionRequest d;
    Deckhand__Option o[2], *opts[2];
    Deckhand__View v = DECKHAND__VIEW__INIT;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    decision(&d, o, opts);
    p.name = "alice";
    v.match_id = "m-1";
    v.event_seq = 7;
    v.game = "dominion";
    v.n_players = 1;
    v.players = players;
    v.decision = &d;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    m.view = &v;
    Deckhand__ServerMessage *out = lean_round_trip(&m);
    CU_ASSERT_STRING_EQUAL(out->view->match_id, "m-1");
    CU_ASSERT_EQUAL(out->view->event_seq, 7);
    CU_ASSERT_EQUAL(out->view->n_players, 0);
    CU_ASSERT_STRING_EQUAL(out->view->game, "");
    check_decision(out->view->decision);
    lean_free(out);
}

static void test_lean_event_keeps_id_and_seq_without_text(void)
{
    Deckhand__Event e = DECKHAND__EVENT__INIT;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    e.match_id = "m-2";
    e.event_seq = 12;
    e.kind = "log";
    e.text = "alice buys a Silver";
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
    m.event = &e;
    Deckhand__ServerMessage *out = lean_round_trip(&m);
    CU_ASSERT_STRING_EQUAL(out->event->match_id, "m-2");
    CU_ASSERT_EQUAL(out->event->event_seq, 12);
    CU_ASSERT_STRING_EQUAL(out->event->text, "");
    lean_free(out);
}

static void test_lean_catalog_is_dropped_and_a_reply_left_whole(void)
{
    Deckhand__Catalog cat = DECKHAND__CATALOG__INIT;
    Deckhand__Reply rep = DECKHAND__REPLY__INIT;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT, *out = NULL;
    cat.bundle_id = "abc";
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_CATALOG;
    m.catalog = &cat;
    size_t len;
    uint8_t *buf = pack(&m, &len);
    CU_ASSERT_EQUAL(dh_client_lean_decode(buf, len, NULL, arena, &out), DH_LEAN_DROPPED);
    free(buf);
    rep.cmd_id = 5;
    rep.ok = 1;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    m.reply = &rep;
    buf = pack(&m, &len);
    CU_ASSERT_EQUAL(dh_client_lean_decode(buf, len, NULL, arena, &out), DH_LEAN_WHOLE);
    free(buf);
}

/* m packed and decoded with the connection's memory last: what the decoder did (a decoded
 * result is freed here). */
static dh_lean_result lean_next(dh_lean_last *last, const Deckhand__ServerMessage *m)
{
    Deckhand__ServerMessage *out = NULL;
    size_t len;
    uint8_t *buf = pack(m, &len);
    dh_lean_result got = dh_client_lean_decode(buf, len, last, arena, &out);
    free(buf);
    if (got == DH_LEAN_DECODED)
        lean_free(out);
    return got;
}

/* A ViewDelta carrying d, and d on its own, as the worker sends them to the decider. */
static void delta_and_request(Deckhand__ViewDelta *v, Deckhand__DecisionRequest *d,
                              Deckhand__ServerMessage *dm, Deckhand__ServerMessage *rm)
{
    deckhand__view_delta__init(v);
    v->match_id = "m-1";
    v->event_seq = 300;
    v->decision = d;
    d->event_seq = 300;
    deckhand__server_message__init(dm);
    dm->body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA;
    dm->view_delta = v;
    deckhand__server_message__init(rm);
    rm->body_case = DECKHAND__SERVER_MESSAGE__BODY_DECISION;
    rm->decision = d;
}

static void test_lean_drops_the_decision_request_repeating_the_delta_before_it(void)
{
    Deckhand__DecisionRequest d;
    Deckhand__Option o[2], *opts[2];
    Deckhand__ViewDelta v;
    Deckhand__ServerMessage dm, rm;
    dh_lean_last last = {0};
    decision(&d, o, opts);
    delta_and_request(&v, &d, &dm, &rm);
    CU_ASSERT_EQUAL(lean_next(&last, &dm), DH_LEAN_DECODED);
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_DROPPED);
    /* once: a second copy is no longer right after the delta */
    CU_ASSERT_EQUAL(lean_next(&last, &rm), lean_kept());
    /* a View's decision is remembered the same way */
    Deckhand__View view = DECKHAND__VIEW__INIT;
    Deckhand__ServerMessage vm = DECKHAND__SERVER_MESSAGE__INIT;
    view.match_id = "m-1";
    view.event_seq = 300;
    view.decision = &d;
    vm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    vm.view = &view;
    CU_ASSERT_EQUAL(lean_next(&last, &vm), DH_LEAN_DECODED);
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_DROPPED);
}

static void test_lean_keeps_a_decision_request_unlike_the_delta_just_before_it(void)
{
    Deckhand__DecisionRequest d;
    Deckhand__Option o[2], *opts[2];
    Deckhand__ViewDelta v;
    Deckhand__ServerMessage dm, rm;
    Deckhand__Event e = DECKHAND__EVENT__INIT;
    Deckhand__ServerMessage em = DECKHAND__SERVER_MESSAGE__INIT;
    dh_lean_last last = {0};
    decision(&d, o, opts);
    delta_and_request(&v, &d, &dm, &rm);
    e.match_id = "m-1";
    e.event_seq = 301;
    em.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
    em.event = &e;
    /* something else between them */
    lean_next(&last, &dm);
    CU_ASSERT_EQUAL(lean_next(&last, &em), DH_LEAN_DECODED);
    CU_ASSERT_EQUAL(lean_next(&last, &rm), lean_kept());
    /* another decision, sequence or match */
    lean_next(&last, &dm);
    d.decision_id = 43;
    CU_ASSERT_EQUAL(lean_next(&last, &rm), lean_kept());
    d.decision_id = 42;
    lean_next(&last, &dm);
    d.event_seq = 301;
    CU_ASSERT_EQUAL(lean_next(&last, &rm), lean_kept());
    d.event_seq = 300;
    lean_next(&last, &dm);
    d.match_id = "m-2";
    CU_ASSERT_EQUAL(lean_next(&last, &rm), lean_kept());
    /* without a connection's memory nothing is dropped */
    d.match_id = "m-1";
    CU_ASSERT_EQUAL(lean_next(NULL, &dm), DH_LEAN_DECODED);
    CU_ASSERT_EQUAL(lean_next(NULL, &rm), lean_kept());
}

static void test_lean_leaves_broken_bytes_to_the_whole_unpack(void)
{
    /* a View (field 6) whose length runs past the end, then a truncated varint inside */
    const uint8_t past[] = {6 << 3 | 2, 10, 1 << 3 | 2, 1, 'x'};
    const uint8_t inside[] = {6 << 3 | 2, 2, 2 << 3 | 0, 0x80};
    Deckhand__ServerMessage *out = NULL;
    CU_ASSERT_EQUAL(dh_client_lean_decode(past, sizeof past, NULL, arena, &out), DH_LEAN_WHOLE);
    CU_ASSERT_EQUAL(dh_client_lean_decode(inside, sizeof inside, NULL, arena, &out), DH_LEAN_WHOLE);
    CU_ASSERT_PTR_NULL(out);
}

/* A DecisionRequest read into an arena holds what a bot reads (its ids, seat, kind, bounds,
 * each option's id, label and card) and leaves the rest at its default. */
static void test_lean_in_an_arena_reads_what_a_bot_reads_of_a_decision(void)
{
    Deckhand__DecisionRequest d;
    Deckhand__Option o[2], *opts[2];
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT, *out = NULL;
    dh_arena a;
    dh_arena_init(&a);
    decision(&d, o, opts);
    d.event_seq = 1u << 20; /* a varint of three bytes */
    d.seat = 1;
    d.min = 0;
    d.prompt = "Buy a card";
    d.time_left_ms = 5000;
    d.can_undo = 1;
    o[0].entity = 77;
    o[0].verb = "buy";
    o[0].space = "board:1:3";
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_DECISION;
    m.decision = &d;
    size_t len;
    uint8_t *buf = pack(&m, &len);
    CU_ASSERT_EQUAL_FATAL(dh_client_lean_decode(buf, len, NULL, &a, &out), DH_LEAN_DECODED);
    CU_ASSERT_TRUE(dh_arena_owns(&a, out));
    CU_ASSERT_TRUE(dh_arena_owns(&a, out->decision->options[1]));
    CU_ASSERT_EQUAL(out->body_case, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    check_decision(out->decision);
    CU_ASSERT_STRING_EQUAL(out->decision->match_id, "m-1");
    CU_ASSERT_EQUAL(out->decision->event_seq, 1u << 20);
    CU_ASSERT_EQUAL(out->decision->seat, 1);
    CU_ASSERT_EQUAL(out->decision->min, 0);
    CU_ASSERT_EQUAL(out->decision->options[0]->id, 1);
    CU_ASSERT_STRING_EQUAL(out->decision->options[1]->label, "Done");
    CU_ASSERT_STRING_EQUAL(out->decision->options[1]->card, "");
    /* not read by a bot: the defaults */
    CU_ASSERT_STRING_EQUAL(out->decision->prompt, "");
    CU_ASSERT_EQUAL(out->decision->time_left_ms, 0);
    CU_ASSERT_EQUAL(out->decision->can_undo, 0);
    CU_ASSERT_EQUAL(out->decision->options[0]->entity, 0);
    CU_ASSERT_STRING_EQUAL(out->decision->options[0]->verb, "");
    CU_ASSERT_STRING_EQUAL(out->decision->options[0]->space, "");
    dh_arena_release(&a, out); /* nothing to free: the arena gives it all back */
    free(buf);
    dh_arena_free(&a);
}

/* A field the direct reading knows, of another wire type (an Event's match_id as a
 * varint): left to protobuf-c, which refuses it as it did without an arena. */
static void test_lean_in_an_arena_leaves_a_wrong_wire_type_to_protobuf(void)
{
    const uint8_t ev[] = {4 << 3 | 2, 4, 1 << 3 | 0, 5, 2 << 3 | 0, 7};
    Deckhand__ServerMessage *out = NULL;
    dh_arena a;
    dh_arena_init(&a);
    dh_lean_result plain = dh_client_lean_decode(ev, sizeof ev, NULL, NULL, &out);
    CU_ASSERT_NOT_EQUAL(plain, DH_LEAN_DECODED);
    CU_ASSERT_EQUAL(dh_client_lean_decode(ev, sizeof ev, NULL, &a, &out), plain);
    dh_arena_free(&a);
}

/* Each case again, decoding into an arena. */
static void in_an_arena(void (*test)(void))
{
    dh_arena a;
    dh_arena_init(&a);
    arena = &a;
    test();
    arena = NULL;
    dh_arena_free(&a);
}

static void test_lean_in_an_arena_view_delta(void)
{
    in_an_arena(test_lean_view_delta_keeps_id_seq_and_decision_without_zones);
}

static void test_lean_in_an_arena_view(void)
{
    in_an_arena(test_lean_view_keeps_id_seq_and_decision_without_players);
}

static void test_lean_in_an_arena_event(void)
{
    in_an_arena(test_lean_event_keeps_id_and_seq_without_text);
}

static void test_lean_in_an_arena_catalog_and_reply(void)
{
    in_an_arena(test_lean_catalog_is_dropped_and_a_reply_left_whole);
}

static void test_lean_in_an_arena_drops_the_repeated_decision(void)
{
    in_an_arena(test_lean_drops_the_decision_request_repeating_the_delta_before_it);
}

static void test_lean_in_an_arena_keeps_an_unlike_decision(void)
{
    in_an_arena(test_lean_keeps_a_decision_request_unlike_the_delta_just_before_it);
}

static void test_lean_in_an_arena_broken_bytes(void)
{
    in_an_arena(test_lean_leaves_broken_bytes_to_the_whole_unpack);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"lean_view_delta_keeps_id_seq_and_decision_without_zones",
         test_lean_view_delta_keeps_id_seq_and_decision_without_zones},
        {"lean_view_keeps_id_seq_and_decision_without_players",
         test_lean_view_keeps_id_seq_and_decision_without_players},
        {"lean_event_keeps_id_and_seq_without_text", test_lean_event_keeps_id_and_seq_without_text},
        {"lean_catalog_is_dropped_and_a_reply_left_whole",
         test_lean_catalog_is_dropped_and_a_reply_left_whole},
        {"lean_drops_the_decision_request_repeating_the_delta_before_it",
         test_lean_drops_the_decision_request_repeating_the_delta_before_it},
        {"lean_keeps_a_decision_request_unlike_the_delta_just_before_it",
         test_lean_keeps_a_decision_request_unlike_the_delta_just_before_it},
        {"lean_leaves_broken_bytes_to_the_whole_unpack",
         test_lean_leaves_broken_bytes_to_the_whole_unpack},
        {"lean_in_an_arena_reads_what_a_bot_reads_of_a_decision",
         test_lean_in_an_arena_reads_what_a_bot_reads_of_a_decision},
        {"lean_in_an_arena_leaves_a_wrong_wire_type_to_protobuf",
         test_lean_in_an_arena_leaves_a_wrong_wire_type_to_protobuf},
        {"lean_in_an_arena_view_delta", test_lean_in_an_arena_view_delta},
        {"lean_in_an_arena_view", test_lean_in_an_arena_view},
        {"lean_in_an_arena_event", test_lean_in_an_arena_event},
        {"lean_in_an_arena_catalog_and_reply", test_lean_in_an_arena_catalog_and_reply},
        {"lean_in_an_arena_drops_the_repeated_decision",
         test_lean_in_an_arena_drops_the_repeated_decision},
        {"lean_in_an_arena_keeps_an_unlike_decision",
         test_lean_in_an_arena_keeps_an_unlike_decision},
        {"lean_in_an_arena_broken_bytes", test_lean_in_an_arena_broken_bytes},
        {NULL, NULL},
    };
    return dh_test_main("client_lean", cases);
}
