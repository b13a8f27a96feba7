/*
 * test_worker_log_tail.c: workers of either layout adopting each other's matches (the log
 * as the history's tail, --log-in-history: host.log_in_history), in the rig of
 * rig_worker.h. A worker with the flag stores each answer on the history alone and its
 * snapshots behind the tail head; one without it (this release's default) writes the
 * layout before, which a worker of the release before reads. Each adopts what the other
 * wrote, also after the layout changed in the middle of a match; and a worker of the
 * release before, which reads a snapshot with the head as a raw one, cannot restore it
 * rather than restore it without its last answers.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_snapz.h"

/* Whether Redis holds match id's snapshot behind the tail head. */
static bool stored_tail(const char *id)
{
    char key[96];
    snprintf(key, sizeof key, "match:{%s}:snap", id);
    size_t len = 0, body = 0;
    uint64_t at = 0;
    char *v = rig_worker_redis_get(key, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    int tail = dh_snapz_tail((const uint8_t *)v, len, &at, &body);
    free(v);
    return tail > 0;
}

/* Another worker (log_in_history as given) adopts match id at the next epoch: its state
 * is exactly hm's; the match is handed back to the rig's worker after (its epoch as it
 * was), as if the adopter never wrote. */
static void check_adopted_exactly(rig_worker *r, host_match *hm, const char *id, bool tail_flag)
{
    rig_worker_redis_do("HSET match:{%s} worker wk-u epoch %s", id, "2");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r->router, r->dealer, r->bundle, &st2, 10);
    h2.log_in_history = tail_flag;
    CU_ASSERT_EQUAL(host_adopt(&h2, id, r->now), 1);
    host_match *hm2 = host_find(&h2, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm2);
    CU_ASSERT_EQUAL(engine_match_hash(hm2->m), engine_match_hash(hm->m));
    CU_ASSERT_EQUAL(hm2->answers, hm->answers);
    CU_ASSERT_EQUAL(hm2->tail, stored_tail(id));
    host_free(&h2);
    store_close(&st2);
    rig_worker_redis_do("HSET match:{%s} worker wk-t epoch %s", id, "1");
    rig_worker_mm_drain(r);
}

/* The rig's worker plays n answers of hm with the flag as given. */
static void play(rig_worker *r, host_match *hm, bool tail_flag, int n, uint64_t *cmd)
{
    r->h.log_in_history = tail_flag;
    rig_worker_play(r, hm, n, cmd);
}

/* With the flag no answer reaches the log key; without it the log is written again from
 * the next snapshot on, and the answers before it go on the history alone (the snapshot
 * Redis holds still has the head). An adopter of either setting restores the match
 * exactly at each step: the two directions of the rolling upgrade. */
static void test_log_in_history_workers_of_either_layout_adopt_each_others_matches(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    r.h.snap_every = 2;
    r.h.log_in_history = true;
    host_match *hm = rig_worker_started(&r, "m-tail", "dominion", NULL);
    uint64_t cmd = 1;
    CU_ASSERT_TRUE(stored_tail("m-tail"));
    play(&r, hm, true, 30, &cmd);
    CU_ASSERT_EQUAL(rig_worker_redis_int("EXISTS", "match:{m-tail}:log"), 0);
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-tail}:history"), 30);
    CU_ASSERT_TRUE(hm->tail);
    check_adopted_exactly(&r, hm, "m-tail", false);
    check_adopted_exactly(&r, hm, "m-tail", true);

    /* the flag off (a rollback of the setting): the layout before from its next snapshot */
    play(&r, hm, false, 30, &cmd);
    CU_ASSERT_FALSE(stored_tail("m-tail"));
    CU_ASSERT_FALSE(hm->tail);
    check_adopted_exactly(&r, hm, "m-tail", false);
    check_adopted_exactly(&r, hm, "m-tail", true);

    play(&r, hm, true, 30, &cmd);
    CU_ASSERT_TRUE(stored_tail("m-tail"));
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-tail}:history"), 90);
    check_adopted_exactly(&r, hm, "m-tail", false);
    check_adopted_exactly(&r, hm, "m-tail", true);
    rig_worker_close(&r);
}

/* What a worker of the release before does with a match whose snapshot has the head: its
 * snapshot reader copies a value without "DHZS" or "DHSZ" as a raw snapshot, and the
 * engine refuses that ("DHSN" expected), so it cannot adopt the match (the matchmaker
 * offers it elsewhere) instead of restoring it from an older log without its last
 * answers. */
static void test_log_in_history_a_release_before_cannot_restore_a_tail_snapshot(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    r.h.log_in_history = true;
    host_match *hm = rig_worker_started(&r, "m-old", "dominion", NULL);
    uint64_t cmd = 1;
    rig_worker_play(&r, hm, 12, &cmd);
    size_t len = 0;
    char *v = rig_worker_redis_get("match:{m-old}:snap", &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    const char *names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-old", .game = "dominion", .nplayers = 2, .names = names};
    engine_error ee = {0};
    engine_match *m = engine_match_restore(r.bundle, &cfg, (const uint8_t *)v, len, NULL, 0, &ee);
    CU_ASSERT_PTR_NULL(m);
    if (m)
        engine_match_free(m);
    /* this release reads it */
    uint8_t *raw = NULL;
    size_t rawn = 0;
    CU_ASSERT_EQUAL_FATAL(dh_snapz_unpack((const uint8_t *)v, len, &raw, &rawn), 0);
    m = engine_match_restore(r.bundle, &cfg, raw, rawn, NULL, 0, &ee);
    CU_ASSERT_PTR_NOT_NULL(m);
    if (m)
        engine_match_free(m);
    free(raw);
    free(v);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"log_in_history_workers_of_either_layout_adopt_each_others_matches",
         test_log_in_history_workers_of_either_layout_adopt_each_others_matches},
        {"log_in_history_a_release_before_cannot_restore_a_tail_snapshot",
         test_log_in_history_a_release_before_cannot_restore_a_tail_snapshot},
        {NULL, NULL},
    };
    return rig_worker_main("worker_log_tail", cases);
}
