/*
 * test_redis_retention.c: bounded storage (issue 14) against a real redis-server
 * (tests/unit/rig_redis.h). A finished match's keys expire after the retention and leave
 * a compact result (dh_script_retire, written by the worker's store with the finish's
 * indexes); matches:finished is trimmed; dh_redis_full says "full" near maxmemory, which
 * is when the worker and the matchmaker refuse new matches.
 */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "rig_redis.h"

/* Start and finish match id through the store, as one op each; their fates. */
static bool start_and_finish(store *s, const char *id)
{
    store_meta m = {.match_id = id,
                    .game = "dominion",
                    .bundle = "b",
                    .worker = "wk-1",
                    .players = "ann,bob",
                    .player_ids = "p1,p2",
                    .mode = "casual"};
    store_commit c = {.match_id = id,
                      .worker = "wk-1",
                      .epoch = 1,
                      .hist = (const uint8_t *)"last",
                      .hist_len = 4,
                      .finish = true,
                      .ended_ms = 77,
                      .result = "[{\"seat\":0}]",
                      .final_hash = "00000000000000ab"};
    int op = store_op(s, dh_test_now_ms());
    CU_ASSERT_TRUE_FATAL(op >= 0);
    CU_ASSERT_EQUAL(store_put_meta(s, &m), 0);
    CU_ASSERT_EQUAL(store_put_commit(s, &c), 0);
    store_flush(s, dh_test_now_ms());
    bool ok = store_ok(s, op);
    store_next(s);
    return ok;
}

static void test_retention_expires_a_finished_match_and_keeps_its_result(void)
{
    rig_redis_flushall();
    setenv("DECKHAND_RETENTION_S", "100", 1);
    setenv("DECKHAND_RESULT_RETENTION_S", "1000", 1);
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    CU_ASSERT_TRUE(start_and_finish(&s, "m-old"));
    CU_ASSERT_EQUAL(store_finishing(&s), 0); /* every index written */
    long long ttl = rig_redis_int("TTL match:{m-old}");
    CU_ASSERT_TRUE(ttl > 0 && ttl <= 100);
    ttl = rig_redis_int("TTL match:{m-old}:history");
    CU_ASSERT_TRUE(ttl > 0 && ttl <= 100);
    ttl = rig_redis_int("TTL match:{m-old}:result");
    CU_ASSERT_TRUE(ttl > 100 && ttl <= 1000);
    redisReply *r = rig_redis_cmd("GET match:{m-old}:result");
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    CU_ASSERT_STRING_EQUAL(r->str, "dominion\tcasual\tann,bob\tp1,p2\t77\t00000000000000ab\t\t"
                                   "[{\"seat\":0}]");
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS matches:running m-old"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN matches:finished"), 1);
    /* what a player is shown stays small: the compact result, not the 5 KB snapshot */
    CU_ASSERT_TRUE(rig_redis_int("MEMORY USAGE match:{m-old}:result") < 300);
    store_close(&s);
    unsetenv("DECKHAND_RETENTION_S");
    unsetenv("DECKHAND_RESULT_RETENTION_S");
}

static void test_retention_zero_keeps_a_finished_match(void)
{
    rig_redis_flushall();
    setenv("DECKHAND_RETENTION_S", "0", 1);
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    CU_ASSERT_TRUE(start_and_finish(&s, "m-kept"));
    CU_ASSERT_EQUAL(rig_redis_int("TTL match:{m-kept}"), -1);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{m-kept}:result"), 0);
    store_close(&s);
    unsetenv("DECKHAND_RETENTION_S");
}

static void test_retention_trims_matches_finished(void)
{
    rig_redis_flushall();
    setenv("DECKHAND_FINISHED_MAX", "3", 1);
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    const char *ids[] = {"f1", "f2", "f3", "f4", "f5"};
    for (int i = 0; i < 5; i++)
        CU_ASSERT_TRUE(start_and_finish(&s, ids[i]));
    CU_ASSERT_EQUAL(rig_redis_int("LLEN matches:finished"), 3);
    redisReply *r = rig_redis_cmd("LINDEX matches:finished 0");
    CU_ASSERT_STRING_EQUAL(r->str, "f5");
    freeReplyObject(r);
    store_close(&s);
    unsetenv("DECKHAND_FINISHED_MAX");
}

static void test_redis_full_near_maxmemory(void)
{
    rig_redis_flushall();
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, rig_redis_url(), 500), 0);
    uint64_t now = 1000;
    CU_ASSERT_FALSE(dh_redis_full(&rd, now)); /* no maxmemory: never full */
    redisReply *r = rig_redis_cmd("INFO memory");
    const char *p = strstr(r->str, "\nused_memory:");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    long long used = atoll(p + 13);
    freeReplyObject(r);
    rig_redis_ok("CONFIG SET maxmemory %lld", used + used / 20); /* used is 95% of it */
    CU_ASSERT_FALSE(dh_redis_full(&rd, now + 10));               /* asked at most once a second */
    CU_ASSERT_TRUE(dh_redis_full(&rd, now + 1100));
    rig_redis_ok("CONFIG SET maxmemory %lld", used * 4);
    CU_ASSERT_FALSE(dh_redis_full(&rd, now + 2200));
    rig_redis_ok("CONFIG SET maxmemory 0");
    dh_redis_close(&rd);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"retention_expires_a_finished_match_and_keeps_its_result",
         test_retention_expires_a_finished_match_and_keeps_its_result},
        {"retention_zero_keeps_a_finished_match", test_retention_zero_keeps_a_finished_match},
        {"retention_trims_matches_finished", test_retention_trims_matches_finished},
        {"redis_full_near_maxmemory", test_redis_full_near_maxmemory},
        {NULL, NULL},
    };
    return rig_redis_main("redis_retention", cases);
}
