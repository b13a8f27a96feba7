/*
 * test_matchmaker_ratings.c: what the matchmaker learns of skill (matchmaker/ratings.h),
 * on a real redis-server: stored ratings come back by seat, guests and unrated accounts
 * are new players, and a Redis that is gone leaves new players' ratings and says so.
 */
#include "ratings.h"

#include "rig_redis.h"

static void test_ratings_lookup_reads_a_group_by_seat(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET rating:{dominion}:casual a-1 %s", "30 5 4");
    rig_redis_ok("HSET rating:{dominion}:ranked a-1 %s", "40 2 9");
    redisContext *c = redisConnect("127.0.0.1", rig_redis_port());
    CU_ASSERT_FATAL(c && !c->err);
    const char *const ids[] = {"p-guest", "a-1", "a-never"};
    dh_rating r[3];
    unsigned m[3];
    CU_ASSERT_EQUAL_FATAL(ratings_lookup(c, "dominion", "", ids, 3, r, m), 0);
    CU_ASSERT_DOUBLE_EQUAL(r[0].mu, DH_RATING_MU, 1e-12);
    CU_ASSERT_EQUAL(m[0], 0);
    CU_ASSERT_DOUBLE_EQUAL(r[1].mu, 30.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r[1].sigma, 5.0, 1e-12);
    CU_ASSERT_EQUAL(m[1], 4);
    CU_ASSERT_DOUBLE_EQUAL(r[2].sigma, DH_RATING_SIGMA, 1e-12);
    CU_ASSERT_EQUAL_FATAL(ratings_lookup(c, "dominion", "ranked", ids, 3, r, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(r[1].mu, 40.0, 1e-12);
    redisFree(c);
}

static void test_ratings_lookup_without_redis_gives_new_players(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET rating:{dominion}:casual a-1 %s", "30 5 4");
    redisContext *c = redisConnect("127.0.0.1", rig_redis_port());
    CU_ASSERT_FATAL(c && !c->err);
    rig_redis_stop();
    const char *const ids[] = {"a-1"};
    dh_rating r[1];
    CU_ASSERT_EQUAL(ratings_lookup(c, "dominion", "casual", ids, 1, r, NULL), -1);
    CU_ASSERT_DOUBLE_EQUAL(r[0].mu, DH_RATING_MU, 1e-12);
    redisFree(c);
    rig_redis_start();
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"ratings_lookup_reads_a_group_by_seat", test_ratings_lookup_reads_a_group_by_seat},
        {"ratings_lookup_without_redis_gives_new_players",
         test_ratings_lookup_without_redis_gives_new_players},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_ratings", cases);
}
