/*
 * rig_store.c: see rig_store.h.
 */
#include "rig_store.h"

#include "rig_redis.h"

void rig_store_open(store *s)
{
    rig_redis_flushall();
    CU_ASSERT_EQUAL_FATAL(store_init(s, rig_redis_url(), 500), 0);
}

void rig_store_put_meta(store *s, const store_meta *m)
{
    int op = store_op(s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_put_meta(s, m), 0);
    store_flush(s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(s, op));
    store_next(s);
}

void rig_store_new_match(store *s, const char *id)
{
    store_meta m = {.match_id = id,
                    .game = "dominion",
                    .bundle = "abc",
                    .worker = "wk-1",
                    .players = "ann,bob",
                    .player_ids = "p-1,p-2"};
    rig_store_put_meta(s, &m);
}
