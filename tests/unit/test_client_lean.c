/*
 * test_client_lean.c: the lean decoding of `deckhand load`'s connections
 * (client/lib/dh_client_lean.h): an Event, a View and a ViewDelta keep their match id,
 * event sequence and decision (every option a bot reads) and lose the rest; a Catalog is
 * dropped, and so is a DecisionRequest repeating the decision of the View or ViewDelta
 * right before it; other kinds, and bytes that are not a message, are left to the whole
 * unpack.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_client_lean.h"
#include "dh_test.h"

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
    dh_lean_result got = dh_client_lean_decode(buf, len, NULL, NULL, &out);
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
    deckhand__server_message__free_unpacked(out, NULL);
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
    deckhand__server_message__free_unpacked(out, NULL);
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
    deckhand__server_message__free_unpacked(out, NULL);
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
    CU_ASSERT_EQUAL(dh_client_lean_decode(buf, len, NULL, NULL, &out), DH_LEAN_DROPPED);
    free(buf);
    rep.cmd_id = 5;
    rep.ok = 1;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    m.reply = &rep;
    buf = pack(&m, &len);
    CU_ASSERT_EQUAL(dh_client_lean_decode(buf, len, NULL, NULL, &out), DH_LEAN_WHOLE);
    free(buf);
}

/* m packed and decoded with the connection's memory last: what the decoder did (a decoded
 * result is freed here). */
static dh_lean_result lean_next(dh_lean_last *last, const Deckhand__ServerMessage *m)
{
    Deckhand__ServerMessage *out = NULL;
    size_t len;
    uint8_t *buf = pack(m, &len);
    dh_lean_result got = dh_client_lean_decode(buf, len, last, NULL, &out);
    free(buf);
    if (got == DH_LEAN_DECODED)
        deckhand__server_message__free_unpacked(out, NULL);
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
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_WHOLE);
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
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_WHOLE);
    /* another decision, sequence or match */
    lean_next(&last, &dm);
    d.decision_id = 43;
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_WHOLE);
    d.decision_id = 42;
    lean_next(&last, &dm);
    d.event_seq = 301;
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_WHOLE);
    d.event_seq = 300;
    lean_next(&last, &dm);
    d.match_id = "m-2";
    CU_ASSERT_EQUAL(lean_next(&last, &rm), DH_LEAN_WHOLE);
    /* without a connection's memory nothing is dropped */
    d.match_id = "m-1";
    CU_ASSERT_EQUAL(lean_next(NULL, &dm), DH_LEAN_DECODED);
    CU_ASSERT_EQUAL(lean_next(NULL, &rm), DH_LEAN_WHOLE);
}

static void test_lean_leaves_broken_bytes_to_the_whole_unpack(void)
{
    /* a View (field 6) whose length runs past the end, then a truncated varint inside */
    const uint8_t past[] = {6 << 3 | 2, 10, 1 << 3 | 2, 1, 'x'};
    const uint8_t inside[] = {6 << 3 | 2, 2, 2 << 3 | 0, 0x80};
    Deckhand__ServerMessage *out = NULL;
    CU_ASSERT_EQUAL(dh_client_lean_decode(past, sizeof past, NULL, NULL, &out), DH_LEAN_WHOLE);
    CU_ASSERT_EQUAL(dh_client_lean_decode(inside, sizeof inside, NULL, NULL, &out), DH_LEAN_WHOLE);
    CU_ASSERT_PTR_NULL(out);
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
        {NULL, NULL},
    };
    return dh_test_main("client_lean", cases);
}
