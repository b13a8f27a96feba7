/*
 * test_engine_decision.c: decisions and the answers to them through the public API
 * (engine/include/engine.h), on the small fixture game in tests/fixtures/bundle/mini: the first
 * decision, answers out of turn or illegal (refused, changing nothing), events per seat,
 * bots (all-bot matches, a cheating bot) and the encoding of an answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static void test_first_decision_is_player_one_action(void)
{
    engine_bundle *b = rig_engine_load_mini();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_engine_mini_match(b, 1, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(d->decision_id, 1);
    CU_ASSERT_EQUAL(d->seat, 0);
    CU_ASSERT_STRING_EQUAL(d->kind, "action");
    CU_ASSERT_EQUAL(d->noptions, 4); /* three cards in hand and Pass */
    CU_ASSERT_PTR_NOT_NULL(d->options[0].card);
    CU_ASSERT_NOT_EQUAL(d->options[0].entity, 0);
    CU_ASSERT_STRING_EQUAL(d->options[3].label, "Pass");
    CU_ASSERT_FALSE(engine_match_finished(m));
    engine_match_free(m);
    engine_bundle_free(b);
}

/* m refuses seat's answer ids[0..n) to decision with code want, and does not change. */
static void expect_refused(engine_match *m, int seat, uint64_t decision, const uint32_t *ids,
                           size_t n, engine_code want)
{
    uint64_t h = engine_match_hash(m);
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_answer(m, seat, decision, ids, n, &err), want);
    CU_ASSERT_EQUAL(err.code, want);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
}

static void test_answer_out_of_turn_changes_nothing(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 1, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint32_t id = 1;
    expect_refused(m, 1, 1, &id, 1, ENGINE_NOT_YOUR_TURN);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_illegal_answers_are_refused_and_change_nothing(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 1, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint32_t bad[] = {9};
    uint32_t twice[] = {1, 1};
    uint32_t ok[] = {1};
    expect_refused(m, 0, 2, ok, 1, ENGINE_ILLEGAL_CHOICE);
    expect_refused(m, 0, 1, bad, 1, ENGINE_ILLEGAL_CHOICE);
    expect_refused(m, 0, 1, twice, 2, ENGINE_ILLEGAL_CHOICE);
    expect_refused(m, 0, 1, ok, 0, ENGINE_ILLEGAL_CHOICE);
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, ok, 1, &err), ENGINE_OK);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(m), h);
    engine_match_free(m);
    engine_bundle_free(b);
}

typedef struct {
    uint64_t next[2];
    int bad;
} seq_check;

static void seq_cb(void *ud, const engine_event *ev)
{
    seq_check *c = ud;
    if (ev->to_seat < 0 || ev->to_seat > 1 || ev->seq != ++c->next[ev->to_seat])
        c->bad = 1;
}

static void test_events_are_per_seat_without_gaps(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    seq_check c = {{0, 0}, 0};
    engine_match_drain_events(m, seq_cb, &c);
    rig_engine_mini_pass_turn(m);
    engine_match_drain_events(m, seq_cb, &c);
    CU_ASSERT_FALSE(c.bad);
    CU_ASSERT_EQUAL(c.next[0], engine_match_event_seq(m, 0));
    CU_ASSERT_EQUAL(c.next[1], engine_match_event_seq(m, 1));
    CU_ASSERT(c.next[0] > 4);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_all_bot_match_plays_to_the_end_deterministically(void)
{
    engine_bundle *b = rig_engine_load_mini();
    const char *bots[] = {"default", "passer"};
    engine_match *m = rig_engine_mini_match(b, 15, "turns=10", bots);
    engine_match *m2 = rig_engine_mini_match(b, 15, "turns=10", bots);
    engine_match *m3 = rig_engine_mini_match(b, 16, "turns=10", bots);
    CU_ASSERT_FATAL(m && m2 && m3);
    CU_ASSERT_TRUE(engine_match_finished(m));
    CU_ASSERT_PTR_NULL(engine_match_decision(m));
    engine_result r[2];
    CU_ASSERT_EQUAL(engine_match_results(m, r, 2), 2);
    CU_ASSERT(r[0].score >= 5);
    CU_ASSERT_EQUAL(r[1].score, 0);
    CU_ASSERT_EQUAL(r[0].rank, 1);
    CU_ASSERT_EQUAL(r[1].rank, 2);
    CU_ASSERT_EQUAL(r[0].turns, 10);
    CU_ASSERT_EQUAL(engine_match_hash(m), engine_match_hash(m2));
    CU_ASSERT_NOT_EQUAL(engine_match_hash(m), engine_match_hash(m3));
    size_t len;
    CU_ASSERT_PTR_NOT_NULL(engine_match_snapshot(m, &len));
    CU_ASSERT(len > 0);
    engine_match_free(m3);
    engine_match_free(m2);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_cheating_bot_fails_the_match(void)
{
    engine_bundle *b = rig_engine_load_mini();
    const char *bots[] = {"cheat", "cheat"};
    engine_match_config cfg = rig_engine_mini_config(1, NULL, bots);
    engine_error err = {0};
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "illegally"));
    const char *nobot[] = {"nosuch", NULL};
    cfg.bots = nobot;
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_BAD_REQUEST);
    engine_bundle_free(b);
}

static void test_answer_encoding_round_trips(void)
{
    uint32_t ids[] = {3, 1, 300};
    engine_answer a = {1, 123456789, ids, 3}, d;
    uint8_t *buf;
    size_t len;
    uint32_t out[8];
    CU_ASSERT_EQUAL_FATAL(engine_answer_encode(&a, &buf, &len), 0);
    CU_ASSERT_EQUAL(engine_answer_decode(buf, len, &d, out, 8), 0);
    CU_ASSERT_EQUAL(d.seat, 1);
    CU_ASSERT_EQUAL(d.decision_id, 123456789);
    CU_ASSERT_EQUAL(d.n, 3);
    CU_ASSERT_EQUAL(out[2], 300);
    CU_ASSERT_NOT_EQUAL(engine_answer_decode(buf, len - 1, &d, out, 8), 0);
    CU_ASSERT_NOT_EQUAL(engine_answer_decode(buf, len, &d, out, 2), 0);
    free(buf);
}

static const dh_test_case cases[] = {
    {"test_first_decision_is_player_one_action", test_first_decision_is_player_one_action},
    {"test_answer_out_of_turn_changes_nothing", test_answer_out_of_turn_changes_nothing},
    {"test_illegal_answers_are_refused_and_change_nothing",
     test_illegal_answers_are_refused_and_change_nothing},
    {"test_events_are_per_seat_without_gaps", test_events_are_per_seat_without_gaps},
    {"test_all_bot_match_plays_to_the_end_deterministically",
     test_all_bot_match_plays_to_the_end_deterministically},
    {"test_cheating_bot_fails_the_match", test_cheating_bot_fails_the_match},
    {"test_answer_encoding_round_trips", test_answer_encoding_round_trips},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_decision", cases);
}
