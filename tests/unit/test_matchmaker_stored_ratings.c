/*
 * test_matchmaker_stored_ratings.c: the matchmaker matches accounts on the ratings the
 * workers stored (rating:{GAME}:{MODE}, worker/rater.c), read once per batch of joins on a
 * real redis-server: a1 and a3 (mu 10 and 11) play each other and a2 and a4 (40 and 41),
 * whatever the order they joined in; guests and accounts never rated keep the default.
 * A matchmaker that takes over the lease rates the tickets it reloads the same way.
 */
#include <string.h>

#include "rig_mm.h"
#include "rig_redis.h"

static void test_mm_stored_ratings_decide_who_plays_whom(void)
{
    rig_mm r;
    rig_mm_open_fresh(&r, "mm-stored", 1);
    rig_redis_ok("HSET rating:{dominion}:casual a-1 %s", "10 2 5");
    rig_redis_ok("HSET rating:{dominion}:casual a-2 %s", "40 2 5");
    rig_redis_ok("HSET rating:{dominion}:casual a-3 %s", "11 2 5");
    rig_redis_ok("HSET rating:{dominion}:casual a-4 %s", "41 2 5");
    rig_redis_ok("HSET rating:{dominion}:ranked a-1 %s", "40 2 9"); /* another mode's */
    rig_mm_join(r.gw, "a-1", 1, 2);
    rig_mm_join(r.gw, "a-2", 2, 2);
    rig_mm_join(r.gw, "a-3", 3, 2);
    rig_mm_join(r.gw, "a-4", 4, 2);
    rig_mm_join(r.gw, "a-new", 5, 2);
    rig_mm_join(r.gw, "guest", 6, 2);
    rig_mm_pump(&r, 10);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "a-1,a-3");
    deckhand__internal__internal__free_unpacked(m, NULL);
    m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "a-2,a-4");
    deckhand__internal__internal__free_unpacked(m, NULL);
    /* never rated and guest: both at the default, so they meet */
    m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "a-new,guest");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_mm_reloaded_tickets_get_their_stored_ratings(void)
{
    rig_mm a, b;
    rig_mm_open_fresh(&a, "mm-a", 1);
    rig_redis_ok("HSET rating:{dominion}:casual a-1 %s", "10 2 5");
    rig_redis_ok("HSET rating:{dominion}:casual a-2 %s", "40 2 5");
    rig_mm_join(a.gw, "a-1", 1, 2);
    rig_mm_join(a.gw, "a-2", 2, 2);
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL_FATAL(queue_total(a.mm.queues), 2); /* too far apart to meet at once */
    rig_mm_close(&a);
    rig_mm_lease_lapses();
    rig_mm_open(&b, "mm-b", rig_redis_url(), 1, 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 0));
    const queue_ticket *t1 = queue_find(b.mm.queues, "a-1", NULL);
    const queue_ticket *t2 = queue_find(b.mm.queues, "a-2", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
    CU_ASSERT_DOUBLE_EQUAL(t1->mu, 10.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t2->mu, 40.0, 1e-9);
    rig_mm_close(&b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_stored_ratings_decide_who_plays_whom", test_mm_stored_ratings_decide_who_plays_whom},
        {"mm_reloaded_tickets_get_their_stored_ratings",
         test_mm_reloaded_tickets_get_their_stored_ratings},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker stored ratings", cases);
}
