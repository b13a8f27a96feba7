/*
 * test_matchmaker_store_full.c: issue 14's maxmemory behaviour at the matchmaker. With
 * Redis at DECKHAND_REDIS_FULL_PCT (90 %) of its maxmemory, a QueueJoin is refused with
 * OVERLOADED ("the store is full"): no new match starts, so the memory left is for the
 * matches already running; once Redis has room again, joins are taken.
 */
#include <stdlib.h>
#include <string.h>

#include "rig_mm.h"
#include "rig_redis.h"

static long long used_memory(void)
{
    redisReply *r = rig_redis_cmd("INFO memory");
    const char *p = r && r->type == REDIS_REPLY_STRING ? strstr(r->str, "\nused_memory:") : NULL;
    long long used = p ? atoll(p + 13) : 0;
    if (r)
        freeReplyObject(r);
    return used;
}

static void test_mm_join_refused_with_overloaded_while_redis_is_full(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 1, 3, 10), 0);
    long long used = used_memory();
    CU_ASSERT_TRUE_FATAL(used > 0);
    rig_redis_ok("CONFIG SET maxmemory %lld", used + used / 20); /* 95 % used */
    /* the matchmaker asks Redis at most once a second: the next join comes 1.1 s later on
     * the clock it is handed */
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 2, 3, 1110), DECKHAND__ERROR_CODE__OVERLOADED);
    CU_ASSERT_PTR_NOT_NULL(strstr(a.why, "store is full"));
    rig_redis_ok("CONFIG SET maxmemory 0");
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 3, 3, 2220), 0);
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_join_refused_with_overloaded_while_redis_is_full",
         test_mm_join_refused_with_overloaded_while_redis_is_full},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_store_full", cases);
}
