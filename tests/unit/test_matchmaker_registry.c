/*
 * test_matchmaker_registry.c: which worker gets the next match (matchmaker/data/registry.c)
 * and the ids placements hand out. Compiled in directly: no sockets are involved.
 */
#include "registry.h"

#include "dh_test.h"

/* Register worker id serving game for min..max players with capacity cap. */
static registry_worker *hello(registry *r, const char *id, const char *game, uint32_t min,
                              uint32_t max, uint32_t cap, uint64_t now)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)game;
    gi.min_players = min;
    gi.max_players = max;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)id;
    h.endpoint = (char *)"tcp://127.0.0.1:1";
    h.n_games = 1;
    h.games = gis;
    h.capacity = cap;
    registry_worker *w = registry_hello(r, id, &h, now);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    return w;
}

/* A registry of wk-a and wk-b, both dominion for 2 to 4 players, capacity 100, at 0. */
static void two_workers(registry *r)
{
    registry_init(r);
    hello(r, "wk-a", "dominion", 2, 4, 100, 0);
    hello(r, "wk-b", "dominion", 2, 4, 100, 0);
}

static void test_registry_picks_least_loaded(void)
{
    registry r;
    two_workers(&r);
    registry_beat(&r, "wk-a", 5, false, 10);
    registry_beat(&r, "wk-b", 3, false, 10);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 10)->id, "wk-b");
    registry_free(&r);
}

static void test_registry_counts_pending_placements(void)
{
    registry r;
    two_workers(&r);
    registry_worker *a = registry_find(&r, "wk-a");
    a->pending = 0;
    registry_worker *first = registry_pick(&r, "dominion", 2, 0);
    first->pending++;
    registry_worker *second = registry_pick(&r, "dominion", 2, 0);
    CU_ASSERT_PTR_NOT_EQUAL(first, second);
    registry_free(&r);
}

static void test_registry_skips_dead_workers(void)
{
    registry r;
    two_workers(&r);
    registry_beat(&r, "wk-a", 0, false, 1000);
    registry_beat(&r, "wk-b", 9, false, 2000);
    registry_expire(&r, 2600); /* wk-a silent 1.6 s */
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->alive);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 2600)->id, "wk-b");
    registry_expire(&r, 4000);
    CU_ASSERT_PTR_NULL(registry_pick(&r, "dominion", 2, 4000));
    CU_ASSERT_PTR_NULL(registry_game_info(&r, "dominion"));
    /* a beat brings it back */
    registry_beat(&r, "wk-a", 0, false, 4100);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 4100)->id, "wk-a");
    registry_free(&r);
}

/* A worker that says it stops is dead at once (no 1.5 s wait), counted once by the next
 * registry_expire so that its matches move at that tick. */
static void test_registry_stopping_worker_is_dead_at_once(void)
{
    registry r;
    two_workers(&r);
    registry_gone(&r, "wk-a");
    registry_gone(&r, "wk-a"); /* said twice: counted once */
    registry_gone(&r, "wk-x"); /* unknown: nothing */
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->alive);
    CU_ASSERT_EQUAL(registry_expire(&r, 10), 1);
    CU_ASSERT_EQUAL(registry_expire(&r, 20), 0);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 20)->id, "wk-b");
    registry_free(&r);
}

/* A worker that stopped (drained) hosts nothing any more: its matches move, so its count
 * reads 0 at once instead of its last beat's, and it is marked stopped until it says hello
 * again (issue 24, item 8). A worker that went silent also hosts nothing: its matches move. */
static void test_registry_stopped_worker_hosts_nothing(void)
{
    registry r;
    two_workers(&r);
    registry_beat(&r, "wk-a", 9, true, 10);
    registry_beat(&r, "wk-b", 7, false, 10);
    registry_gone(&r, "wk-a");
    registry_worker *a = registry_find(&r, "wk-a");
    CU_ASSERT_TRUE(a->stopped);
    CU_ASSERT_EQUAL(a->active, 0);
    registry_expire(&r, 5000); /* wk-b silent */
    CU_ASSERT_EQUAL(registry_find(&r, "wk-b")->active, 0);
    CU_ASSERT_FALSE(registry_find(&r, "wk-b")->stopped);
    hello(&r, "wk-a", "dominion", 2, 4, 100, 6000); /* it comes back */
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->stopped);
    registry_free(&r);
}

static void test_registry_skips_workers_not_serving_the_game_or_size(void)
{
    registry r;
    registry_init(&r);
    hello(&r, "wk-a", "deckbuilder", 2, 4, 100, 0);
    hello(&r, "wk-b", "dominion", 2, 3, 100, 0);
    registry_beat(&r, "wk-b", 50, false, 0);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 0)->id, "wk-b");
    CU_ASSERT_PTR_NULL(registry_pick(&r, "dominion", 4, 0));
    CU_ASSERT_PTR_NULL(registry_pick(&r, "chess", 2, 0));
    const registry_game *g = registry_game_info(&r, "dominion");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(g->min_players, 2);
    CU_ASSERT_EQUAL(g->max_players, 3);
    registry_free(&r);
}

static void test_registry_skips_full_and_draining_workers(void)
{
    registry r;
    registry_init(&r);
    hello(&r, "wk-full", "dominion", 2, 4, 2, 0);
    hello(&r, "wk-drain", "dominion", 2, 4, 100, 0);
    hello(&r, "wk-ok", "dominion", 2, 4, 100, 0);
    registry_beat(&r, "wk-full", 2, false, 0);
    registry_beat(&r, "wk-drain", 0, true, 0);
    registry_beat(&r, "wk-ok", 10, false, 0);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 0)->id, "wk-ok");
    registry_free(&r);
}

static void test_registry_avoids_a_failed_worker_for_a_while(void)
{
    registry r;
    two_workers(&r);
    registry_worker *a = registry_find(&r, "wk-a");
    registry_beat(&r, "wk-b", 20, false, 0);
    a->avoid_until_ms = 1000;
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 500)->id, "wk-b");
    registry_beat(&r, "wk-b", 0, true, 500); /* b drains: nobody fits until a's time is up */
    CU_ASSERT_PTR_NULL(registry_pick(&r, "dominion", 2, 500));
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 1000)->id, "wk-a");
    registry_free(&r);
}

static void test_registry_beat_from_unknown_worker_is_ignored(void)
{
    registry r;
    registry_init(&r);
    CU_ASSERT_PTR_NULL(registry_beat(&r, "wk-x", 1, false, 0));
    CU_ASSERT_EQUAL(r.nworkers, 0);
    registry_free(&r);
}

/* A beat as the worker's beat thread (route "<id>/beat") or main loop (route "<id>")
 * sends it, through registry_beat_row and registry_beat_health as control.c does; NULL
 * when it was not taken. */
static registry_worker *beat(registry *r, const char *route, const char *id, uint32_t stalled,
                             bool redis_ok, uint64_t now)
{
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.worker_id = (char *)id;
    b.active_matches = 3;
    b.stalled_ms = stalled;
    b.redis_ok = redis_ok;
    registry_worker *w = registry_beat_row(r, route, &b);
    if (w)
        registry_beat_health(r, w, route, &b, now);
    return w;
}

/* Beats come from "<id>/beat" and are keyed by the body's worker_id; a beat naming a
 * worker from any other route is ignored (a worker cannot beat for another). */
static void test_registry_beats_are_keyed_by_worker_id_from_its_own_routes(void)
{
    registry r;
    two_workers(&r);
    CU_ASSERT_PTR_EQUAL(beat(&r, "wk-a/beat", "wk-a", 0, true, 1000), registry_find(&r, "wk-a"));
    CU_ASSERT_EQUAL(registry_find(&r, "wk-a")->last_seen_ms, 1000);
    CU_ASSERT_EQUAL(registry_find(&r, "wk-a")->active, 3);
    CU_ASSERT_PTR_NOT_NULL(beat(&r, "wk-a", "wk-a", 0, false, 1100)); /* its main route */
    CU_ASSERT_PTR_NOT_NULL(beat(&r, "wk-b", "", 0, false, 1100));     /* old style: no id */
    CU_ASSERT_PTR_NULL(beat(&r, "wk-b/beat", "wk-a", 0, true, 1200));
    CU_ASSERT_PTR_NULL(beat(&r, "wk-b", "wk-a", 0, true, 1200));
    CU_ASSERT_PTR_NULL(beat(&r, "wk-a/beat/x", "wk-a", 0, true, 1200));
    CU_ASSERT_PTR_NULL(beat(&r, "wk-ab/beat", "wk-a", 0, true, 1200));
    CU_ASSERT_EQUAL(registry_find(&r, "wk-a")->last_seen_ms, 1100);
    /* a main-route beat says nothing of health: redis_ok false there is not taken */
    CU_ASSERT_FALSE(registry_slow(registry_find(&r, "wk-a")));
    CU_ASSERT_FALSE(registry_slow(registry_find(&r, "wk-b")));
    registry_free(&r);
}

/* A stalled or Redis-less worker keeps its matches and its life, but gets no placement
 * or adoption; past REGISTRY_STUCK_MS it is dead ("stuck") once, and back when it turns. */
static void test_registry_slow_is_not_dead_but_stuck_is(void)
{
    registry r;
    two_workers(&r);
    beat(&r, "wk-a/beat", "wk-a", 0, true, 0);
    beat(&r, "wk-b/beat", "wk-b", REGISTRY_SLOW_MS, true, 0); /* b is less loaded... */
    registry_find(&r, "wk-a")->active = 50;
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 0)->id, "wk-a"); /* ...but slow */
    CU_ASSERT_STRING_EQUAL(registry_pick_adopter(&r, "dominion", 2, 0)->id, "wk-a");
    beat(&r, "wk-b/beat", "wk-b", 0, false, 500); /* turning, but without Redis */
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 500)->id, "wk-a");
    hello(&r, "wk-b", "dominion", 2, 4, 100, 600); /* its loop's hello says nothing of that */
    CU_ASSERT_TRUE(registry_slow(registry_find(&r, "wk-b")));
    beat(&r, "wk-b/beat", "wk-b", 0, true, 1000);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 1000)->id, "wk-b");
    CU_ASSERT_EQUAL(registry_expire(&r, 1000), 0);
    /* stuck: beats go on, yet the worker is dead, counted once */
    beat(&r, "wk-a/beat", "wk-a", REGISTRY_STUCK_MS - 1, true, 1500);
    CU_ASSERT_TRUE(registry_find(&r, "wk-a")->alive);
    beat(&r, "wk-a/beat", "wk-a", REGISTRY_STUCK_MS, true, 2000);
    beat(&r, "wk-a/beat", "wk-a", REGISTRY_STUCK_MS + 500, true, 2500);
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->alive);
    CU_ASSERT_EQUAL(registry_find(&r, "wk-a")->active, 0);
    beat(&r, "wk-b/beat", "wk-b", 0, true, 2500);
    CU_ASSERT_EQUAL(registry_expire(&r, 2500), 1);
    beat(&r, "wk-a/beat", "wk-a", 0, true, 3000); /* it turns again */
    CU_ASSERT_TRUE(registry_find(&r, "wk-a")->alive);
    registry_free(&r);
}

/* Adoptions count as load but are not capped by REGISTRY_PENDING_MAX; StartMatches are. */
static void test_registry_adoptions_are_not_capped_like_placements(void)
{
    registry r;
    two_workers(&r);
    registry_worker *a = registry_find(&r, "wk-a"), *b = registry_find(&r, "wk-b");
    a->capacity = b->capacity = 0;
    a->pending = REGISTRY_PENDING_MAX;
    b->adopting = 2 * REGISTRY_PENDING_MAX;
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 0)->id, "wk-b");
    CU_ASSERT_STRING_EQUAL(registry_pick_adopter(&r, "dominion", 2, 0)->id, "wk-a");
    b->adopting = 0;
    CU_ASSERT_STRING_EQUAL(registry_pick_adopter(&r, "dominion", 2, 0)->id, "wk-b");
    registry_free(&r);
}

/* A worker whose connection closed is dead at once, but not stopped: it comes back by
 * its control route. */
static void test_registry_lost_worker_is_dead_at_once(void)
{
    registry r;
    two_workers(&r);
    CU_ASSERT_TRUE(registry_lost(&r, "wk-a", "connection closed"));
    CU_ASSERT_FALSE(registry_lost(&r, "wk-a", "connection closed"));
    CU_ASSERT_FALSE(registry_lost(&r, "wk-x", "connection closed"));
    CU_ASSERT_EQUAL(registry_take_gone(&r), 1);
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->alive);
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->stopped);
    CU_ASSERT_STRING_EQUAL(registry_pick(&r, "dominion", 2, 0)->id, "wk-b");
    /* a beat thread's beat, perhaps read late, does not bring it back; its control route
     * does (a hello, or a beat on it) */
    beat(&r, "wk-a/beat", "wk-a", 0, true, 100);
    CU_ASSERT_FALSE(registry_find(&r, "wk-a")->alive);
    hello(&r, "wk-a", "dominion", 2, 4, 100, 200);
    CU_ASSERT_TRUE(registry_find(&r, "wk-a")->alive);
    beat(&r, "wk-a/beat", "wk-a", 0, true, 300);
    CU_ASSERT_EQUAL(registry_find(&r, "wk-a")->last_seen_ms, 300);
    registry_free(&r);
}

static void test_registry_hello_again_updates_in_place(void)
{
    registry r;
    registry_init(&r);
    hello(&r, "wk-a", "dominion", 2, 4, 100, 0);
    hello(&r, "wk-a", "deckbuilder", 1, 2, 100, 100);
    CU_ASSERT_EQUAL(r.nworkers, 1);
    CU_ASSERT_PTR_NULL(registry_game_info(&r, "dominion"));
    CU_ASSERT_PTR_NOT_NULL(registry_game_info(&r, "deckbuilder"));
    registry_free(&r);
}

static void test_registry_gateways_register_once(void)
{
    registry r;
    registry_init(&r);
    CU_ASSERT_EQUAL(registry_gateway_hello(&r, "gw-1", 0), 0);
    CU_ASSERT_EQUAL(registry_gateway_hello(&r, "gw-1", 5), 0);
    CU_ASSERT_EQUAL(registry_gateway_hello(&r, "gw-2", 5), 0);
    CU_ASSERT_EQUAL(r.ngateways, 2);
    registry_free(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"registry_stopped_worker_hosts_nothing", test_registry_stopped_worker_hosts_nothing},
        {"registry_picks_least_loaded", test_registry_picks_least_loaded},
        {"registry_counts_pending_placements", test_registry_counts_pending_placements},
        {"registry_skips_dead_workers", test_registry_skips_dead_workers},
        {"registry_stopping_worker_is_dead_at_once", test_registry_stopping_worker_is_dead_at_once},
        {"registry_skips_workers_not_serving_the_game_or_size",
         test_registry_skips_workers_not_serving_the_game_or_size},
        {"registry_skips_full_and_draining_workers", test_registry_skips_full_and_draining_workers},
        {"registry_avoids_a_failed_worker_for_a_while",
         test_registry_avoids_a_failed_worker_for_a_while},
        {"registry_beat_from_unknown_worker_is_ignored",
         test_registry_beat_from_unknown_worker_is_ignored},
        {"registry_hello_again_updates_in_place", test_registry_hello_again_updates_in_place},
        {"registry_beats_are_keyed_by_worker_id_from_its_own_routes",
         test_registry_beats_are_keyed_by_worker_id_from_its_own_routes},
        {"registry_slow_is_not_dead_but_stuck_is", test_registry_slow_is_not_dead_but_stuck_is},
        {"registry_adoptions_are_not_capped_like_placements",
         test_registry_adoptions_are_not_capped_like_placements},
        {"registry_lost_worker_is_dead_at_once", test_registry_lost_worker_is_dead_at_once},
        {"registry_gateways_register_once", test_registry_gateways_register_once},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_registry", cases);
}
