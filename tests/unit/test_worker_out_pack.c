/*
 * test_worker_out_pack.c: the worker's hand-written packer (worker/out/out_pack.c) writes
 * the very bytes protobuf-c writes, so players and gateways see no change. Compared over
 * whole stretches of matches of every game of the bundle in scripts/ (each seat's View,
 * a ViewDelta of all of it, its DecisionRequest, every Event, Replies), then on crafted
 * edges: negative numbers, lengths of two and three varint bytes, empty and NULL strings,
 * and a writer too small for what it is given (it says so and writes nothing past its end).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "out.h"
#include "rig_engine.h"

#define MAX_GAMES 32
#define MAX_STEPS 200
#define SEATS     2
#define BUF_MAX   (1u << 20)

static uint8_t want[BUF_MAX], got[BUF_MAX];

typedef struct {
    long compared, differ;
} tally;

/* sm packed both ways, and as a PlayerOutput both ways; counts a difference. */
static void check(const Deckhand__ServerMessage *sm, tally *t)
{
    size_t n = deckhand__server_message__get_packed_size(sm);
    CU_ASSERT_FATAL(n <= BUF_MAX);
    deckhand__server_message__pack(sm, want);
    out_writer w = {got, got + BUF_MAX, false, 0, NULL};
    out_pack_server(&w, sm);
    t->compared++;
    if (w.full || (size_t)(w.p - got) != n || memcmp(want, got, n)) {
        t->differ++;
        return;
    }
    Deckhand__Internal__PlayerOutput po = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    po.player_id = "p-1";
    po.match_id = "m-1";
    po.kind = DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__GAME_OVER;
    po.message.data = got;
    po.message.len = n;
    size_t pn = deckhand__internal__player_output__get_packed_size(&po);
    static uint8_t pwant[BUF_MAX], pgot[BUF_MAX];
    CU_ASSERT_FATAL(pn <= BUF_MAX);
    deckhand__internal__player_output__pack(&po, pwant);
    out_writer pw = {pgot, pgot + BUF_MAX, false, 0, NULL};
    out_pack_output(&pw, po.player_id, po.match_id, po.kind, sm, NULL, 0);
    t->differ +=
        pw.full || (size_t)(pw.p - pgot) != pn || memcmp(pwant, pgot, pn) || pw.msg_len != n;
}

static void check_view(Deckhand__View *v, tally *t)
{
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    sm.view = v;
    v->view_seq = 0x1234567890ull; /* as the worker numbers them */
    check(&sm, t);
    Deckhand__ViewDelta d = DECKHAND__VIEW_DELTA__INIT;
    d.match_id = v->match_id;
    d.event_seq = v->event_seq;
    d.seat = v->seat;
    d.base_view_seq = v->view_seq;
    d.view_seq = v->view_seq + 1;
    d.n_zones = v->n_zones;
    d.zones = v->zones;
    d.n_counters = v->n_counters;
    d.counters = v->counters;
    d.waiting_for = v->waiting_for;
    d.decision = v->decision;
    d.finished = v->finished;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA;
    sm.view_delta = &d;
    check(&sm, t);
    if (v->decision) {
        v->decision->time_left_ms = 29500;
        sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_DECISION;
        sm.decision = v->decision;
        check(&sm, t);
    }
}

typedef struct {
    const char *match_id;
    tally *t;
} event_ctx;

static void check_event(void *ud, const engine_event *ev)
{
    event_ctx *c = ud;
    Deckhand__Event e = DECKHAND__EVENT__INIT;
    e.match_id = (char *)c->match_id;
    e.event_seq = ev->seq;
    e.kind = (char *)ev->kind;
    e.text = (char *)ev->text;
    e.seat = ev->about_seat;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
    sm.event = &e;
    check(&sm, c->t);
}

/* One match of game played by its bots (or the first options it allows). */
static void play(engine_bundle *b, const engine_game_info *g, uint64_t seed, tally *t)
{
    char id[64];
    snprintf(id, sizeof id, "pack-%s-%" PRIu64, g->name, seed);
    engine_match_config cfg = {id, g->name, seed, SEATS, NULL, NULL, NULL, false};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    event_ctx ec = {id, t};
    for (int step = 0; step <= MAX_STEPS; step++) {
        engine_match_drain_events(m, check_event, &ec);
        for (int s = 0; s <= SEATS; s++) {
            Deckhand__View *v = engine_match_view(m, s < SEATS ? s : ENGINE_SEAT_PUBLIC);
            CU_ASSERT_FATAL(v != NULL);
            check_view(v, t);
            engine_view_free(v);
        }
        if (!engine_match_decision(m) || step == MAX_STEPS)
            break;
        engine_error err;
        CU_ASSERT_EQUAL_FATAL(rig_engine_any_step(m, &err), ENGINE_OK);
    }
    engine_match_free(m);
}

static void test_out_pack_writes_protobuf_c_bytes_over_every_game(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info games[MAX_GAMES];
    size_t ng = rig_engine_games_seating(b, SEATS, games, MAX_GAMES);
    CU_ASSERT_TRUE_FATAL(ng > 1);
    tally t = {0};
    for (size_t i = 0; i < ng; i++)
        play(b, &games[i], 7 + i, &t);
    printf("\n  %ld messages compared, %ld differ", t.compared, t.differ);
    CU_ASSERT_EQUAL(t.differ, 0);
    CU_ASSERT_TRUE(t.compared > 1000);
    engine_bundle_free(b);
}

static void test_out_pack_writes_protobuf_c_bytes_for_replies(void)
{
    static char text[300];
    memset(text, 'x', sizeof text - 1);
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    sm.reply = &r;
    tally t = {0};
    r.cmd_id = 0;
    check(&sm, &t); /* an empty Reply: the body is set but has no fields */
    r.cmd_id = UINT64_MAX;
    r.ok = true;
    check(&sm, &t);
    r.ok = false;
    r.error = &e;
    check(&sm, &t); /* an empty Error is still written */
    e.code = DECKHAND__ERROR_CODE__NOT_YOUR_TURN;
    e.message = text; /* a body of two length bytes inside one of two */
    check(&sm, &t);
    CU_ASSERT_EQUAL(t.compared, 4);
    CU_ASSERT_EQUAL(t.differ, 0);
}

/* A zone of n cards named name: lengths of one, two and three varint bytes. */
static void check_big_zone(size_t n, const char *name, int64_t value, tally *t)
{
    Deckhand__Card *cards = calloc(n, sizeof *cards), **cardp = calloc(n, sizeof *cardp);
    CU_ASSERT_FATAL(cards && cardp);
    for (size_t i = 0; i < n; i++) {
        deckhand__card__init(&cards[i]);
        cards[i].entity = (uint32_t)(i * 977);
        cards[i].name = (char *)(i % 3 ? name : "");
        cardp[i] = &cards[i];
    }
    Deckhand__Zone z = DECKHAND__ZONE__INIT, *zp = &z;
    z.name = "hand";
    z.owner = -1;
    z.count = (uint32_t)n;
    z.n_cards = n;
    z.cards = cardp;
    Deckhand__Counter c = DECKHAND__COUNTER__INIT, *cp = &c;
    c.name = NULL; /* no name: left out, as an empty one */
    c.owner = INT32_MIN;
    c.value = value;
    Deckhand__ViewDelta d = DECKHAND__VIEW_DELTA__INIT;
    d.match_id = "";
    d.n_zones = 1;
    d.zones = &zp;
    d.n_counters = 1;
    d.counters = &cp;
    d.waiting_for = -1;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA;
    sm.view_delta = &d;
    check(&sm, t);
    free(cards);
    free(cardp);
}

static void test_out_pack_writes_protobuf_c_bytes_at_the_edges(void)
{
    tally t = {0};
    check_big_zone(0, "Copper", 0, &t);
    check_big_zone(5, "Copper", -1, &t);
    check_big_zone(20, "Gold", INT64_MIN, &t);
    check_big_zone(3000, "Province", INT64_MAX, &t);
    CU_ASSERT_EQUAL(t.compared, 4);
    CU_ASSERT_EQUAL(t.differ, 0);
}

static void test_out_pack_stops_at_the_end_of_a_small_writer(void)
{
    Deckhand__Event e = DECKHAND__EVENT__INIT;
    e.match_id = "m-42";
    e.event_seq = 300;
    e.kind = "log";
    e.text = "Alice plays a Village (+1 Card, +2 Actions), then a Smithy (+3 Cards).";
    e.seat = 1;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
    sm.event = &e;
    size_t n = deckhand__server_message__get_packed_size(&sm);
    for (size_t cap = 0; cap < n; cap++) {
        uint8_t *buf = malloc(cap ? cap : 1); /* ASan sees any byte written past cap */
        CU_ASSERT_FATAL(buf != NULL);
        out_writer w = {buf, buf + cap, false, 0, NULL};
        out_pack_server(&w, &sm);
        CU_ASSERT_TRUE(w.full);
        CU_ASSERT_TRUE(w.p <= buf + cap);
        free(buf);
    }
    out_writer w = {got, got + n, false, 0, NULL};
    out_pack_server(&w, &sm);
    CU_ASSERT_FALSE(w.full);
    CU_ASSERT_EQUAL((size_t)(w.p - got), n);
}

/* The writers' one-step path (a key and a length or value under 128, room to spare) at
 * its edge: strings of 126 to 129 bytes, values 126 to 129, each packed into a writer
 * ending exactly where the message does and one byte before it. */
static void test_out_pack_one_byte_lengths_end_at_127(void)
{
    static char text[130];
    tally t = {0};
    for (size_t len = 126; len <= 129; len++) {
        memset(text, 'y', len);
        text[len] = '\0';
        Deckhand__Event e = DECKHAND__EVENT__INIT;
        e.match_id = "m-7";
        e.event_seq = len;
        e.kind = "log";
        e.text = text;
        e.seat = (int32_t)len;
        Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
        sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
        sm.event = &e;
        check(&sm, &t);
        size_t n = deckhand__server_message__get_packed_size(&sm);
        for (size_t cap = n - 1; cap <= n; cap++) {
            uint8_t *buf = malloc(cap); /* ASan sees any byte written past cap */
            CU_ASSERT_FATAL(buf != NULL);
            out_writer w = {buf, buf + cap, false, 0, NULL};
            out_pack_server(&w, &sm);
            CU_ASSERT_EQUAL(w.full, cap < n);
            if (!w.full)
                CU_ASSERT_EQUAL(memcmp(buf, want, n), 0); /* check left its bytes in want */
            free(buf);
        }
    }
    CU_ASSERT_EQUAL(t.compared, 4);
    CU_ASSERT_EQUAL(t.differ, 0);
}

static const dh_test_case cases[] = {
    {"test_out_pack_writes_protobuf_c_bytes_over_every_game",
     test_out_pack_writes_protobuf_c_bytes_over_every_game},
    {"test_out_pack_writes_protobuf_c_bytes_for_replies",
     test_out_pack_writes_protobuf_c_bytes_for_replies},
    {"test_out_pack_writes_protobuf_c_bytes_at_the_edges",
     test_out_pack_writes_protobuf_c_bytes_at_the_edges},
    {"test_out_pack_stops_at_the_end_of_a_small_writer",
     test_out_pack_stops_at_the_end_of_a_small_writer},
    {"test_out_pack_one_byte_lengths_end_at_127", test_out_pack_one_byte_lengths_end_at_127},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("worker_out_pack", cases);
}
