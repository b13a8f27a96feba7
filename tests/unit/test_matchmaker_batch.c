/*
 * test_matchmaker_batch.c: joins are written to Redis in batches (matchmaker/play/tickets.c):
 * the joins of one drain of the socket go in one write and are answered only after it,
 * a leave that follows a held join writes after it (nothing stays stored), and when the
 * write fails every held join is refused and taken out of the line. The finding:
 * every join made its own synchronous Redis round trip, so 10,000 joins took 1.78 s; and
 * under 38,000 joins live workers were declared dead: silence while the loop is behind
 * (beats may be unread) is not taken for death. A worker gets at most REGISTRY_PENDING_MAX
 * StartMatches unanswered at a time.
 */
#include "dh_keys.h"
#include "rig_mm.h"
#include "rig_redis.h"

#include <stdlib.h>
#include <string.h>

/* Every player 10 apart in rating, so nobody matches and the only writes are the joins. */
static bool spread_ratings(void *ctx, const char *player_id, const char *game, const char *mode,
                           double *mu, double *sigma)
{
    (void)ctx;
    (void)game;
    (void)mode;
    *mu = 10.0 * atoi(player_id + 1);
    *sigma = 1;
    return true;
}

/* How many EVALSHA Redis has run (INFO commandstats). */
static long evalsha_calls(void)
{
    redisReply *r = rig_redis_cmd("INFO commandstats");
    long n = 0;
    const char *at =
        r && r->type == REDIS_REPLY_STRING ? strstr(r->str, "cmdstat_evalsha:calls=") : NULL;
    if (at)
        n = atol(at + strlen("cmdstat_evalsha:calls="));
    if (r)
        freeReplyObject(r);
    return n;
}

static void test_mm_joins_of_one_drain_are_stored_in_one_write_then_answered(void)
{
    enum { N = 300 };
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 1);
    a.mm.ratings = (rating_source){spread_ratings, NULL};
    rig_mm_pump(&a, 5); /* the lease is renewed by now: only joins write below */
    char id[16];
    for (int i = 0; i < N; i++) {
        snprintf(id, sizeof id, "p%d", i);
        rig_mm_join(a.gw, id, (uint64_t)i + 1, 2);
    }
    long before = evalsha_calls();
    rig_mm_pump(&a, 10);
    long writes = evalsha_calls() - before;
    CU_ASSERT(writes >= 1 && writes <= 2); /* the batch, and perhaps a lease renewal */
    for (int i = 0; i < N; i++)
        CU_ASSERT_EQUAL(rig_mm_reply(a.gw, (uint64_t)i + 1), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_TICKETS), N);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), N);
    rig_mm_close(&a);
}

static void test_mm_leave_right_after_a_held_join_leaves_nothing_stored(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 1);
    rig_mm_join(a.gw, "p1", 1, 2);
    rig_mm_leave(a.gw, "p1", 2);
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 2), 0);
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p1"));
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 0);
    rig_mm_close(&a);
}

static void test_mm_held_joins_are_refused_together_when_the_store_is_down(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 1);
    rig_redis_stop();
    rig_mm_join(a.gw, "p1", 1, 3);
    rig_mm_join(a.gw, "p2", 2, 3);
    rig_mm_join(a.gw, "p3", 3, 3);
    rig_mm_pump(&a, 10);
    char why[64];
    for (uint64_t c = 1; c <= 3; c++) {
        CU_ASSERT_EQUAL(rig_mm_reply_why(a.gw, c, why, sizeof why),
                        DECKHAND__ERROR_CODE__UNAVAILABLE);
        CU_ASSERT_STRING_EQUAL(why, "store unavailable");
    }
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&a, NULL)); /* no match of unstored tickets */
    rig_redis_start();
    rig_mm_close(&a);
}

static void test_mm_matches_of_one_pass_are_stored_in_one_write(void)
{
    enum { N = 40 };
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 1);
    rig_mm_pump(&a, 5);
    char id[16];
    for (int i = 0; i < N; i++) {
        snprintf(id, sizeof id, "p%d", i);
        rig_mm_join(a.gw, id, (uint64_t)i + 1, 2);
    }
    long before = evalsha_calls();
    rig_mm_pump(&a, 10);
    long writes = evalsha_calls() - before;
    CU_ASSERT(writes >= 2 && writes <= 3); /* the joins, the 20 placements (a renewal) */
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_PLACEMENTS), N / 2);
    char ids[N / 2][64];
    for (int m = 0; m < N / 2; m++) {
        Deckhand__Internal__Internal *st = rig_mm_expect_start(&a, NULL);
        snprintf(ids[m], sizeof ids[m], "%s", st->start_match->match_id);
        deckhand__internal__internal__free_unpacked(st, NULL);
    }
    /* every match starts: their records go in one write, then nothing is left stored */
    for (int m = 0; m < N / 2; m++)
        rig_mm_started(a.w[0], ids[m], true);
    before = evalsha_calls();
    rig_mm_pump(&a, 20);
    writes = evalsha_calls() - before;
    CU_ASSERT(writes >= 1 && writes <= 2);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_PLACEMENTS), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_TICKETS), 0);
    rig_mm_close(&a);
}

/* Take every StartMatch that came, answer each started; how many there were. */
static int start_all(rig_mm *a)
{
    int n = 0;
    Deckhand__Internal__Internal *st;
    while ((st = rig_mm_next_start(a, NULL))) {
        rig_mm_started(a->w[0], st->start_match->match_id, true);
        deckhand__internal__internal__free_unpacked(st, NULL);
        n++;
    }
    return n;
}

/* The join storm of tests/e2e/test_queue_join_storm.sh: 7,000 StartMatches went to one
 * worker in one pass, more than it starts within the placement timeout. */
static void test_mm_worker_gets_at_most_its_in_flight_share_of_start_matches(void)
{
    enum { EXTRA = 20, N = 2 * (REGISTRY_PENDING_MAX + EXTRA) };
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 1);
    rig_mm_pump(&a, 5);
    char id[16];
    for (int i = 0; i < N; i++) {
        snprintf(id, sizeof id, "p%d", i);
        rig_mm_join(a.gw, id, (uint64_t)i + 1, 2);
    }
    rig_mm_pump(&a, 10);
    for (int i = 0; i < N; i++)
        CU_ASSERT_EQUAL(rig_mm_reply(a.gw, (uint64_t)i + 1), 0); /* all queued, answered */
    CU_ASSERT_EQUAL(start_all(&a), REGISTRY_PENDING_MAX);
    CU_ASSERT_EQUAL(registry_find(&a.mm.reg, "wk-a")->pending, REGISTRY_PENDING_MAX);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 2 * EXTRA); /* the rest wait in line */
    rig_mm_pump(&a, 100); /* the answers came: the next pass forms the rest */
    CU_ASSERT_EQUAL(start_all(&a), EXTRA);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    rig_mm_close(&a);
}

static void test_mm_silent_worker_is_not_declared_dead_while_its_beats_may_be_unread(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-behind", NULL, 2, 0);
    rig_mm_beats(&a, 1); /* wk-a beats, wk-b stays silent */
    rig_mm_pump(&a, 1000);
    a.mm.behind_since_ms = 1000; /* the loop left messages unread from 1000 on */
    rig_mm_pump(&a, 1600);
    CU_ASSERT_TRUE(registry_find(&a.mm.reg, "wk-b")->alive);
    CU_ASSERT_EQUAL(a.mm.stats.workers_dead, 0);
    /* behind for longer than a worker may be silent: silence is death again */
    rig_mm_pump(&a, 2600);
    CU_ASSERT_FALSE(registry_find(&a.mm.reg, "wk-b")->alive);
    CU_ASSERT_FALSE(registry_find(&a.mm.reg, "wk-a")->alive);
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_joins_of_one_drain_are_stored_in_one_write_then_answered",
         test_mm_joins_of_one_drain_are_stored_in_one_write_then_answered},
        {"mm_leave_right_after_a_held_join_leaves_nothing_stored",
         test_mm_leave_right_after_a_held_join_leaves_nothing_stored},
        {"mm_held_joins_are_refused_together_when_the_store_is_down",
         test_mm_held_joins_are_refused_together_when_the_store_is_down},
        {"mm_matches_of_one_pass_are_stored_in_one_write",
         test_mm_matches_of_one_pass_are_stored_in_one_write},
        {"mm_worker_gets_at_most_its_in_flight_share_of_start_matches",
         test_mm_worker_gets_at_most_its_in_flight_share_of_start_matches},
        {"mm_silent_worker_is_not_declared_dead_while_its_beats_may_be_unread",
         test_mm_silent_worker_is_not_declared_dead_while_its_beats_may_be_unread},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker batch", cases);
}
