/*
 * test_engine_settle.c: engine_match_settle, what the worker calls once an answer is in
 * Redis: it gives memory back and changes nothing else. A settled Dominion match and its
 * unsettled twin (same seed, same answers) stay identical answer after answer (state
 * hash, snapshot, pending decision, events); only the undo of the settled answer is gone.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

typedef struct {
    size_t n;
    size_t bytes;
} ev_tally;

static void tally(void *ud, const engine_event *ev)
{
    ev_tally *t = ud;
    t->n++;
    t->bytes += strlen(ev->text) + (size_t)ev->to_seat;
}

static engine_match *dominion(engine_bundle *b)
{
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-settle", .game = "dominion", .seed = 7, .nplayers = 2, .names = names};
    return rig_engine_match(b, &cfg);
}

/* Answer the pending decision as the default bot would; false when the match is over. */
static bool play_one(engine_match *m)
{
    const engine_decision *d = engine_match_decision(m);
    if (!d)
        return false;
    uint32_t ids[64];
    size_t n = 64;
    engine_error err;
    CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, NULL, ids, &n, &err), ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err), ENGINE_OK);
    return true;
}

static void test_settle_changes_nothing_but_memory(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *settled = dominion(b), *twin = dominion(b);
    CU_ASSERT_FATAL(settled && twin);
    engine_match_settle(settled);
    int answers = 0;
    for (; answers < 300; answers++) {
        CU_ASSERT_EQUAL_FATAL(engine_match_hash(settled), engine_match_hash(twin));
        size_t la, lb;
        const uint8_t *sa = engine_match_snapshot(settled, &la);
        const uint8_t *sb = engine_match_snapshot(twin, &lb);
        CU_ASSERT_FATAL(la == lb && memcmp(sa, sb, la) == 0);
        CU_ASSERT_EQUAL(engine_match_log_len(settled), engine_match_log_len(twin));
        bool a = play_one(settled), c = play_one(twin);
        CU_ASSERT_EQUAL_FATAL(a, c);
        if (!a)
            break;
        ev_tally ta = {0}, tb = {0};
        engine_match_drain_events(settled, tally, &ta);
        engine_match_drain_events(twin, tally, &tb);
        CU_ASSERT_EQUAL(ta.n, tb.n);
        CU_ASSERT_EQUAL(ta.bytes, tb.bytes);
        engine_match_settle(settled);
    }
    CU_ASSERT(answers > 20);
    engine_match_free(settled);
    engine_match_free(twin);
    engine_bundle_free(b);
}

static void test_settle_ends_the_undo_of_the_last_answer(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = dominion(b);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err;
    for (int i = 0; i < 5; i++)
        play_one(m);
    uint64_t h = engine_match_hash(m);
    engine_match_settle(m);
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_BAD_REQUEST);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    /* the next answer can be undone again, back to the settled state */
    play_one(m);
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    engine_match_free(m);
    engine_bundle_free(b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"settle_changes_nothing_but_memory", test_settle_changes_nothing_but_memory},
        {"settle_ends_the_undo_of_the_last_answer", test_settle_ends_the_undo_of_the_last_answer},
        {NULL, NULL},
    };
    return dh_test_main("engine_settle", cases);
}
