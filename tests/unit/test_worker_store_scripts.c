/*
 * test_worker_store_scripts.c: the worker's fenced writes go by hash (worker/store.c,
 * common/dh_script.h) against a real redis-server (tests/unit/rig_redis.h): a commit is
 * an EVALSHA, never an EVAL carrying the script text, and after Redis forgets its
 * scripts (SCRIPT FLUSH) the next commit lands once: the NOSCRIPT reply loads the script
 * on that node and sends the commit again (common/dh_redis_pipe.c), as a Redis Cluster
 * node that never saw the script needs.
 */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "rig_redis.h"

/* One new match (meta) and one commit with history entry hist for it, as one op; the
 * op's fate. */
static bool start_and_commit(store *s, const char *id, const char *hist)
{
    store_meta m = {.match_id = id,
                    .game = "g",
                    .bundle = "b",
                    .worker = "wk-1",
                    .players = "a",
                    .player_ids = "p"};
    store_commit c = {.match_id = id,
                      .worker = "wk-1",
                      .epoch = 1,
                      .hist = (const uint8_t *)hist,
                      .hist_len = strlen(hist)};
    int op = store_op(s, dh_test_now_ms());
    CU_ASSERT_TRUE_FATAL(op >= 0);
    CU_ASSERT_EQUAL(store_put_meta(s, &m), 0);
    CU_ASSERT_EQUAL(store_put_commit(s, &c), 0);
    store_flush(s, dh_test_now_ms());
    bool ok = store_ok(s, op);
    CU_ASSERT_FALSE(store_fenced(s, op));
    store_next(s);
    return ok;
}

static void test_store_commit_is_evalsha_not_eval(void)
{
    rig_redis_ok("CONFIG RESETSTAT");
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    const char *answers[] = {"answer-1", "answer-2", "answer-3", "answer-4", "answer-5"};
    for (int i = 0; i < 5; i++) /* distinct: a repeat of the last answer is a retry */
        CU_ASSERT_TRUE(start_and_commit(&s, "m-sha", answers[i]));
    CU_ASSERT_EQUAL(rig_redis_calls("evalsha"), 5);
    CU_ASSERT_EQUAL(rig_redis_calls("eval"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN %s", "match:{m-sha}:history"), 5);
    store_close(&s);
}

static void test_store_commit_after_script_flush_lands_once(void)
{
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    CU_ASSERT_TRUE(start_and_commit(&s, "m-flush", "one"));
    rig_redis_ok("SCRIPT FLUSH");
    /* Redis answers NOSCRIPT (the script did not run); the store loads it and the commit
     * lands, once. */
    CU_ASSERT_TRUE(start_and_commit(&s, "m-flush", "two"));
    CU_ASSERT_EQUAL(rig_redis_int("LLEN %s", "match:{m-flush}:history"), 2);
    CU_ASSERT_TRUE(start_and_commit(&s, "m-flush", "three"));
    CU_ASSERT_EQUAL(rig_redis_int("LLEN %s", "match:{m-flush}:history"), 3);
    store_close(&s);
}

static void test_store_loads_its_scripts_again_after_redis_restarts(void)
{
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    CU_ASSERT_TRUE(start_and_commit(&s, "m-restart", "one"));
    rig_redis_stop();
    rig_redis_start();
    /* The first batch finds the connection dead; the reconnect loads the scripts before
     * anything is sent, so the next commit lands without a NOSCRIPT. */
    CU_ASSERT_FALSE(start_and_commit(&s, "m-restart", "lost"));
    uint64_t later = dh_test_now_ms() + 60000;
    store_meta m = {.match_id = "m-restart",
                    .game = "g",
                    .bundle = "b",
                    .worker = "wk-1",
                    .players = "a",
                    .player_ids = "p"};
    store_commit c = {.match_id = "m-restart",
                      .worker = "wk-1",
                      .epoch = 1,
                      .hist = (const uint8_t *)"x",
                      .hist_len = 1};
    int op = store_op(&s, later);
    CU_ASSERT_TRUE_FATAL(op >= 0);
    CU_ASSERT_EQUAL(store_put_meta(&s, &m), 0);
    CU_ASSERT_EQUAL(store_put_commit(&s, &c), 0);
    store_flush(&s, later);
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN %s", "match:{m-restart}:history"), 1);
    store_close(&s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"store_commit_is_evalsha_not_eval", test_store_commit_is_evalsha_not_eval},
        {"store_commit_after_script_flush_lands_once",
         test_store_commit_after_script_flush_lands_once},
        {"store_loads_its_scripts_again_after_redis_restarts",
         test_store_loads_its_scripts_again_after_redis_restarts},
        {NULL, NULL},
    };
    return rig_redis_main("worker_store_scripts", cases);
}
