/*
 * test_worker_store_full.c: issue 14's maxmemory behaviour at the worker. With Redis at
 * DECKHAND_REDIS_FULL_PCT (90 %) of its maxmemory, a StartMatch is refused ("store full")
 * while a running match goes on answering in the headroom left to it; with room again,
 * matches start.
 */
#include <hiredis/hiredis.h>
#include <stdlib.h>
#include <string.h>

#include "dh_redis.h"
#include "rig_worker.h"

/* CONFIG SET maxmemory so that what Redis uses now is pct % of it (0: no maxmemory). */
static void set_maxmemory_for(int pct)
{
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, rig_worker_redis_url(), 1000), 0);
    redisContext *c = dh_redis_get(&rd, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    redisReply *r = redisCommand(c, "INFO memory");
    const char *p = r && r->type == REDIS_REPLY_STRING ? strstr(r->str, "\nused_memory:") : NULL;
    long long used = p ? atoll(p + 13) : 0;
    freeReplyObject(r);
    r = redisCommand(c, "CONFIG SET maxmemory %lld", pct ? used * 100 / pct : 0);
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    dh_redis_close(&rd);
}

static void test_worker_refuses_new_matches_but_plays_running_ones_when_redis_is_full(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-running", "dominion", NULL);
    set_maxmemory_for(95);
    rig_worker_advance(&r, 1100); /* the worker asks Redis at most once a second */
    rig_worker_start(&r, "m-new", "dominion", NULL);
    host_flush(&r.h, r.now);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED);
    CU_ASSERT_FALSE(m->match_started->ok);
    CU_ASSERT_STRING_EQUAL(m->match_started->error ? m->match_started->error : "", "store full");
    deckhand__internal__internal__free_unpacked(m, NULL);
    long long before = rig_worker_redis_int("LLEN", "match:{m-running}:history");
    CU_ASSERT_TRUE(rig_worker_answer(&r, hm, 1)); /* the running match goes on */
    host_flush(&r.h, r.now);
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-running}:history"), before + 1);
    set_maxmemory_for(0);
    rig_worker_advance(&r, 1100);
    rig_worker_started(&r, "m-later", "dominion", NULL);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_refuses_new_matches_but_plays_running_ones_when_redis_is_full",
         test_worker_refuses_new_matches_but_plays_running_ones_when_redis_is_full},
        {NULL, NULL},
    };
    return rig_worker_main("worker_store_full", cases);
}
