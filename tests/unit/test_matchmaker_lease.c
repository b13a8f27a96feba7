/*
 * test_matchmaker_lease.c: who acts (matchmaker/store/lease.c) among matchmakers sharing a real
 * Redis: only the lease holder answers joins, a standby takes over when the lease lapses
 * and the old holder steps down, a deposed holder writes nothing, and a holder that loses
 * Redis changes nothing and stops acting at its lease's end. The leader's scripts go by
 * hash (EVALSHA) and survive Redis forgetting them (SCRIPT FLUSH).
 *
 * The rigs' clocks are the tests' (tests/unit/rig_mm.h) but Redis's is real, so a lease
 * "expires" by the test shortening it in Redis.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "rig_mm.h"
#include "rig_redis.h"

static void test_mm_only_the_lease_holder_acts(void)
{
    rig_mm a, b;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 0);
    redisReply *r = rig_redis_cmd("GET " DH_KEY_MM_LEASE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(r->str, "mm-a");
    freeReplyObject(r);
    CU_ASSERT_TRUE(mm_acting(&a.mm, 0));
    CU_ASSERT_FALSE(mm_acting(&b.mm, 0));
    CU_ASSERT_EQUAL(rig_mm_joined(&b, b.gw, "p1", 1, 2, 10), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(b.why, "standby matchmaker");
    rig_mm_leave(b.gw, "p1", 2);
    rig_mm_pump(&b, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(b.gw, 2), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 3, 2, 10), 0);
    /* the standby stays one as long as the holder renews */
    for (uint64_t t = 1000; t <= 6000; t += 1000) {
        rig_mm_pump(&a, t);
        rig_mm_pump(&b, t);
        CU_ASSERT_TRUE(mm_acting(&a.mm, t));
        CU_ASSERT_FALSE(mm_acting(&b.mm, t));
    }
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 0);
    rig_mm_close(&b);
    rig_mm_close(&a);
}

static void test_mm_standby_takes_over_when_the_lease_lapses(void)
{
    rig_mm a, b;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 0);
    rig_mm_join(a.gw, "p1", 1, 3);
    rig_mm_join(a.gw, "p2", 2, 3);
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 2), 0);
    rig_mm_lease_lapses(); /* a stalls and does not renew */

    rig_mm_beats(&b, 3);
    rig_mm_pump(&b, 1000);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 1000));
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 2);
    CU_ASSERT_EQUAL(rig_mm_joined(&b, b.gw, "p3", 3, 3, 1010), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&b, NULL);
    rig_mm_check_seats(m->start_match, "p1,p2,p3");
    deckhand__internal__internal__free_unpacked(m, NULL);

    /* a wakes up: its renewal finds b's name and it steps down, forgetting its lines */
    rig_mm_pump(&a, 1000);
    CU_ASSERT_FALSE(mm_acting(&a.mm, 1000));
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p4", 4, 3, 1010), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(a.why, "standby matchmaker");
    rig_mm_close(&b);
    rig_mm_close(&a);
}

static void test_mm_deposed_holder_writes_nothing_and_steps_down(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 1, 3, 10), 0);
    /* another matchmaker holds the lease now, and a has not renewed since */
    redisReply *r = rig_redis_cmd("SET " DH_KEY_MM_LEASE " mm-other");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 2, 3, 20), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(a.why, "store unavailable");
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p2"), 0);
    CU_ASSERT_FALSE(mm_acting(&a.mm, 20));
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 1);
    rig_mm_close(&a);
}

static void test_mm_holder_without_redis_changes_nothing_and_stops_at_its_lease_end(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 1, 3, 10), 0);
    rig_redis_stop();

    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 2, 3, 100), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(a.why, "store unavailable");
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p2"));
    rig_mm_leave(a.gw, "p1", 3);
    rig_mm_pump(&a, 110);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 3), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_TRUE(queue_has(a.mm.queues, "p1"));

    rig_mm_beats(&a, 3);
    rig_mm_pump(&a, 1000); /* the renewal fails: still the holder until 0 + LEASE_MS */
    CU_ASSERT_TRUE(mm_acting(&a.mm, LEASE_MS - 1));
    rig_mm_beats(&a, 3);
    rig_mm_pump(&a, LEASE_MS);
    CU_ASSERT_FALSE(mm_acting(&a.mm, LEASE_MS));
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 4, 3, LEASE_MS + 10),
                    DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(a.why, "standby matchmaker");

    rig_redis_start();
    rig_mm_beats(&a, 3);
    rig_mm_pump(&a, 5000);
    CU_ASSERT_TRUE(mm_acting(&a.mm, 5000));
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 5, 3, 5010), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p2"), 1);
    rig_mm_close(&a);
}

static void test_mm_scripts_go_by_hash_and_survive_a_script_flush(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_redis_ok("CONFIG RESETSTAT");
    rig_redis_ok("SCRIPT FLUSH");
    /* the renewal and the ticket write both meet NOSCRIPT once, load, and land */
    rig_mm_pump(&a, 1000);
    CU_ASSERT_TRUE(mm_acting(&a.mm, 1000));
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 1, 2, 1010), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 1);
    for (uint64_t t = 2000; t <= 4000; t += 1000) {
        rig_mm_pump(&a, t);
        CU_ASSERT_TRUE(mm_acting(&a.mm, t));
    }
    CU_ASSERT_TRUE(rig_redis_calls("evalsha") >= 4);
    CU_ASSERT_EQUAL(rig_redis_calls("eval"), 0);
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_only_the_lease_holder_acts", test_mm_only_the_lease_holder_acts},
        {"mm_standby_takes_over_when_the_lease_lapses",
         test_mm_standby_takes_over_when_the_lease_lapses},
        {"mm_deposed_holder_writes_nothing_and_steps_down",
         test_mm_deposed_holder_writes_nothing_and_steps_down},
        {"mm_holder_without_redis_changes_nothing_and_stops_at_its_lease_end",
         test_mm_holder_without_redis_changes_nothing_and_stops_at_its_lease_end},
        {"mm_scripts_go_by_hash_and_survive_a_script_flush",
         test_mm_scripts_go_by_hash_and_survive_a_script_flush},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_lease", cases);
}
