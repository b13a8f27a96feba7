/*
 * test_engine_settle.c: engine_match_settle, what the worker calls once an answer is in
 * Redis: it gives memory back and changes nothing else. A settled Dominion match and its
 * unsettled twin (same seed, same answers) stay identical answer after answer (state
 * hash, snapshot, pending decision, events); only the undo of the settled answer is gone.
 * What a settle gives back is kept by the thread for the next match (engine_spare.c):
 * matches answered in a batch on the buffers others gave back, on this thread or another,
 * stay identical to twins that never settle. It reaches inside the engine
 * (engine_internal.h) to see where a match's event and log arrays come from.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
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

/* Every event a seat receives, in order: seat, number, kind and text. */
static void digest(void *ud, const engine_event *ev)
{
    uint64_t *h = ud;
    const char *parts[] = {ev->kind ? ev->kind : "", ev->text};
    *h = (*h ^ (uint64_t)ev->to_seat ^ ev->seq << 8) * 1099511628211ULL;
    for (int i = 0; i < 2; i++)
        for (const char *c = parts[i]; *c; c++)
            *h = (*h ^ (unsigned char)*c) * 1099511628211ULL;
}

#define BATCH 6

typedef struct {
    engine_match *m[BATCH];
    uint64_t events[BATCH];
    bool moved[BATCH];
} batch;

/* One answer for every match of the batch, then their events drained, then (settle) every
 * one settled: a worker's loop turn. */
static void batch_round(batch *bt, bool settle)
{
    for (int i = 0; i < BATCH; i++)
        bt->moved[i] = play_one(bt->m[i]);
    for (int i = 0; i < BATCH; i++)
        engine_match_drain_events(bt->m[i], digest, &bt->events[i]);
    for (int i = 0; settle && i < BATCH; i++)
        engine_match_settle(bt->m[i]);
}

static void *settled_round(void *arg)
{
    batch_round(arg, true);
    return NULL;
}

static void test_matches_answered_on_buffers_settled_matches_gave_back_stay_the_same(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    batch settled = {0}, twins = {0};
    for (int i = 0; i < BATCH; i++) {
        static const char *const names[] = {"ann", "bob"};
        engine_match_config cfg = {.match_id = "m-spare",
                                   .game = "dominion",
                                   .seed = 100 + (uint64_t)i,
                                   .nplayers = 2,
                                   .names = names};
        settled.m[i] = rig_engine_match(b, &cfg);
        twins.m[i] = rig_engine_match(b, &cfg);
        CU_ASSERT_FATAL(settled.m[i] && twins.m[i]);
    }
    int rounds = 0, moving = 1;
    for (; rounds < 200 && moving; rounds++) {
        if (rounds % 7 == 3) { /* a thread of its own: its spare set is freed as it ends */
            pthread_t t;
            CU_ASSERT_FATAL(pthread_create(&t, NULL, settled_round, &settled) == 0);
            pthread_join(t, NULL);
        } else {
            batch_round(&settled, true);
        }
        batch_round(&twins, false);
        moving = 0;
        for (int i = 0; i < BATCH; i++) {
            CU_ASSERT_EQUAL_FATAL(settled.moved[i], twins.moved[i]);
            moving |= settled.moved[i];
            CU_ASSERT_EQUAL_FATAL(settled.events[i], twins.events[i]);
            CU_ASSERT_EQUAL_FATAL(engine_match_hash(settled.m[i]), engine_match_hash(twins.m[i]));
            size_t la, lb;
            const uint8_t *sa = engine_match_snapshot(settled.m[i], &la);
            const uint8_t *sb = engine_match_snapshot(twins.m[i], &lb);
            CU_ASSERT_FATAL(la == lb && memcmp(sa, sb, la) == 0);
            CU_ASSERT_EQUAL(engine_match_log_len(settled.m[i]), engine_match_log_len(twins.m[i]));
        }
    }
    CU_ASSERT(rounds > 30);
    for (int i = 0; i < BATCH; i++) {
        engine_match_free(settled.m[i]);
        engine_match_free(twins.m[i]);
    }
    engine_bundle_free(b);
}

/* The answer a settled match gives next, played until it logged events; its events drained. */
static void answer_with_events(engine_match *m)
{
    ev_tally t = {0};
    while (t.n == 0) {
        CU_ASSERT_FATAL(play_one(m));
        engine_match_drain_events(m, tally, &t);
    }
}

static void *fresh_thread_answer(void *arg)
{
    answer_with_events(arg);
    return NULL;
}

static void test_settled_matches_arrays_serve_the_next_match_on_the_thread(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *a = dominion(b), *c = dominion(b), *d = dominion(b);
    CU_ASSERT_FATAL(a && c && d);
    ev_tally setup = {0};
    engine_match_drain_events(c, tally, &setup); /* their set-up's */
    engine_match_drain_events(d, tally, &setup);
    engine_match_settle(c);
    engine_match_settle(d);
    answer_with_events(a);
    engine_ev *ev = a->ev;
    char *text = a->evtext;
    CU_ASSERT_FATAL(ev != NULL && text != NULL);
    engine_match_settle(a); /* at rest: it holds none of them (issue 11) */
    CU_ASSERT(a->ev == NULL && a->evtext == NULL && a->prev_log.v == NULL);
    answer_with_events(c); /* this thread: a's arrays, no malloc */
    CU_ASSERT(c->ev == ev);
    CU_ASSERT(c->evtext == text);
    pthread_t t; /* another thread has none of this one's: d's are its own */
    CU_ASSERT_FATAL(pthread_create(&t, NULL, fresh_thread_answer, d) == 0);
    pthread_join(t, NULL);
    CU_ASSERT(d->ev != NULL && d->ev != ev);
    engine_match_free(a);
    engine_match_free(c);
    engine_match_free(d);
    engine_bundle_free(b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"settle_changes_nothing_but_memory", test_settle_changes_nothing_but_memory},
        {"settle_ends_the_undo_of_the_last_answer", test_settle_ends_the_undo_of_the_last_answer},
        {"settled_matches_arrays_serve_the_next_match_on_the_thread",
         test_settled_matches_arrays_serve_the_next_match_on_the_thread},
        {"matches_answered_on_buffers_settled_matches_gave_back_stay_the_same",
         test_matches_answered_on_buffers_settled_matches_gave_back_stay_the_same},
        {NULL, NULL},
    };
    return dh_test_main("engine_settle", cases);
}
