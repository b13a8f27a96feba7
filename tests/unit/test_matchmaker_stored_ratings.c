/*
 * test_matchmaker_stored_ratings.c: the matchmaker matches accounts on the ratings the
 * workers stored (rating:{GAME}:{MODE}, worker/rater.c), read once per batch of joins on a
 * real redis-server: a1 and a3 (mu 10 and 11) play each other and a2 and a4 (40 and 41),
 * whatever the order they joined in; guests and accounts never rated keep the default.
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

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_stored_ratings_decide_who_plays_whom", test_mm_stored_ratings_decide_who_plays_whom},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker stored ratings", cases);
}
