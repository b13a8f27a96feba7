/*
 * test_matchmaker_loop.c: the matchmaker's loop under a join storm (matchmaker/loop.h).
 * A worker's beat sent after a backlog of joins from two gateways is handled in the
 * first drain, ahead of most of the backlog; a drain is bounded, and one that leaves
 * messages marks the loop behind (so silence is not yet death); a worker freed from its
 * bound of StartMatches in flight gets the next match at once; a drain whose writes blocked
 * on Redis does not make live workers look silent. And the matchmaker beats
 * every gateway every MM_GATEWAY_BEAT_MS, which is how a gateway tells a busy matchmaker
 * from a gone one (test_gateway_mm_busy.c).
 */
#include "loop.h"
#include "rig_mm.h"

#include <string.h>
#include <zmq.h>

enum { BACKLOG = 900 }; /* joins per gateway, under the rig sockets' high-water mark */

static void joins(void *gw, const char *prefix, int n)
{
    char id[32];
    for (int i = 0; i < n; i++) {
        snprintf(id, sizeof id, "%s%d", prefix, i);
        rig_mm_join(gw, id, (uint64_t)i + 1, 2);
    }
}

static void test_mm_worker_beat_behind_a_join_storm_is_handled_in_the_first_drain(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-loop", NULL, 1, 0);
    joins(a.gw, "a", BACKLOG);
    joins(a.gw2, "b", BACKLOG);
    rig_mm_beat(a.w[0], 0, false); /* sent after all 1,800 joins */
    rig_mm_beat(a.w[0], 0, false); /* and a second one, right after */
    loop_turn t = loop_drain(&a.mm, 1200);
    CU_ASSERT_EQUAL(t.handled, LOOP_DRAIN_MAX);
    CU_ASSERT_TRUE(t.full);
    CU_ASSERT_EQUAL(a.mm.behind_since_ms, 1200); /* silence is not death for a while */
    /* both beats were read in this drain, although most joins were not */
    registry_worker *w = registry_find(&a.mm.reg, "wk-a");
    CU_ASSERT(w->last_seen_ms >= 1200); /* stamped when read: 1200 plus the drain's time */
    CU_ASSERT_TRUE(w->alive);
    CU_ASSERT(queue_total(a.mm.queues) + 2 * a.mm.placements.n < 2 * BACKLOG);
    /* the next drains take the rest, and the loop catches up */
    size_t handled = t.handled;
    while ((t = loop_drain(&a.mm, 1300)).full)
        handled += t.handled;
    handled += t.handled;
    CU_ASSERT_EQUAL(handled, 2 * BACKLOG + 2);
    CU_ASSERT_EQUAL(a.mm.behind_since_ms, 0);
    rig_mm_close(&a);
}

/* A worker at REGISTRY_PENDING_MAX that answers one StartMatch gets the next match at
 * once: the drain asks for a full pass, instead of the tickets waiting for the next one. */
static void test_mm_a_worker_freed_from_its_in_flight_bound_gets_the_next_match_at_once(void)
{
    enum { N = 2 * (REGISTRY_PENDING_MAX + 5) };
    rig_mm a;
    rig_mm_open(&a, "mm-free", NULL, 1, 0);
    joins(a.gw, "p", N);
    loop_drain(&a.mm, 10);
    mm_tick(&a.mm, 10);
    CU_ASSERT_EQUAL(registry_find(&a.mm.reg, "wk-a")->pending, REGISTRY_PENDING_MAX);
    Deckhand__Internal__Internal *st = rig_mm_next_start(&a, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    rig_mm_started(a.w[0], st->start_match->match_id, true);
    deckhand__internal__internal__free_unpacked(st, NULL);
    a.mm.next_pass_ms = 1000; /* the next full pass is far off */
    loop_turn t = loop_drain(&a.mm, 20);
    CU_ASSERT_TRUE(t.form);
    CU_ASSERT_EQUAL(a.mm.next_pass_ms, 0);
    mm_tick(&a.mm, 20);
    CU_ASSERT_EQUAL(registry_find(&a.mm.reg, "wk-a")->pending, REGISTRY_PENDING_MAX);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), (size_t)N - 2 * (REGISTRY_PENDING_MAX + 1));
    rig_mm_close(&a);
}

/* Wait until something waits at the matchmaker's socket (inproc delivery is quick, not
 * instant), as the loop's zmq_poll does before its drain. */
static void readable(rig_mm *a)
{
    zmq_pollitem_t it = {.socket = a->mm.router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL(zmq_poll(&it, 1, RIG_MM_WAIT_MS), 1);
}

static bool alive(rig_mm *a, const char *id)
{
    return registry_find(&a->mm.reg, id)->alive;
}

/* The false verdict (Redis stopped 5 s under 1,000 matches: both live workers
 * "silent for 2137 ms", 200 matches moved needlessly). The loop drains, then its writes
 * (held joins, deferred deletes) each wait out their Redis timeout, and the tick that
 * follows (mm_run's order: drain at t, tick at the clock after it) judged silence against
 * that later clock, while the beats sent meanwhile waited unread in the socket. Silence
 * now counts only up to when the last drain found the socket empty; a worker whose beats
 * really stop is still declared dead, at the first tick after a drain that proves it. */
static void test_mm_a_drain_stalled_on_redis_does_not_make_live_workers_silent(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-stall", NULL, 2, 0);
    rig_mm_beats(&a, 3);
    readable(&a);
    loop_drain(&a.mm, 1000); /* reads both beats; then its writes block on Redis... */
    rig_mm_beats(&a, 3);     /* ...while the workers beat on, unread */
    mm_tick(&a.mm, 1000 + 2137);
    CU_ASSERT_TRUE(alive(&a, "wk-a"));
    CU_ASSERT_TRUE(alive(&a, "wk-b"));
    CU_ASSERT_EQUAL(a.mm.stats.workers_dead, 0);
    readable(&a);
    loop_drain(&a.mm, 3200); /* the next turn reads them */
    mm_tick(&a.mm, 3200);
    CU_ASSERT_TRUE(alive(&a, "wk-b"));
    rig_mm_beats(&a, 1); /* wk-b stops beating for real */
    readable(&a);
    loop_drain(&a.mm, 4800);
    mm_tick(&a.mm, 4800);
    CU_ASSERT_TRUE(alive(&a, "wk-a"));
    CU_ASSERT_FALSE(alive(&a, "wk-b")); /* silent 1,600 ms, all of it listened to */
    CU_ASSERT_EQUAL(a.mm.stats.workers_dead, 1);
    rig_mm_close(&a);
}

/* The beats' incarnation, which a test reads from its matchmaker. */
static uint64_t incarnation;

/* The next message at gw that is a MatchmakerBeat of this incarnation within ms (others
 * are skipped). */
static bool beat_at(void *gw, long ms)
{
    zmq_pollitem_t it = {.socket = gw, .events = ZMQ_POLLIN};
    while (zmq_poll(&it, 1, ms) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(gw, NULL, &m) != 1)
            return false;
        bool beat = m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCHMAKER_BEAT &&
                    !strcmp(m->matchmaker_beat->matchmaker_id, "mm-beat") &&
                    m->matchmaker_beat->acting && m->matchmaker_beat->incarnation == incarnation;
        deckhand__internal__internal__free_unpacked(m, NULL);
        if (beat)
            return true;
    }
    return false;
}

static void test_mm_gateways_hear_a_beat_every_half_second(void)
{
    rig_mm a;
    rig_mm open_other;
    rig_mm_open(&open_other, "mm-other", NULL, 1, 0);
    uint64_t other = open_other.mm.incarnation;
    rig_mm_close(&open_other);
    rig_mm_open(&a, "mm-beat", NULL, 1, 0); /* ticks at 0: the first beat */
    incarnation = a.mm.incarnation;
    CU_ASSERT(incarnation != 0 && incarnation != other); /* one per process start */
    CU_ASSERT_TRUE(beat_at(a.gw, RIG_MM_WAIT_MS));
    CU_ASSERT_TRUE(beat_at(a.gw2, RIG_MM_WAIT_MS));
    rig_mm_pump(&a, MM_GATEWAY_BEAT_MS - 100);
    CU_ASSERT_FALSE(beat_at(a.gw, 50));
    rig_mm_pump(&a, MM_GATEWAY_BEAT_MS);
    CU_ASSERT_TRUE(beat_at(a.gw, RIG_MM_WAIT_MS));
    CU_ASSERT_TRUE(beat_at(a.gw2, RIG_MM_WAIT_MS));
    /* a gateway not heard from for MM_GATEWAY_SEEN_MS gets no more beats */
    rig_mm_beats(&a, 1);
    rig_mm_pump(&a, MM_GATEWAY_SEEN_MS + 1000);
    CU_ASSERT_FALSE(beat_at(a.gw, 50));
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_worker_beat_behind_a_join_storm_is_handled_in_the_first_drain",
         test_mm_worker_beat_behind_a_join_storm_is_handled_in_the_first_drain},
        {"mm_a_worker_freed_from_its_in_flight_bound_gets_the_next_match_at_once",
         test_mm_a_worker_freed_from_its_in_flight_bound_gets_the_next_match_at_once},
        {"mm_a_drain_stalled_on_redis_does_not_make_live_workers_silent",
         test_mm_a_drain_stalled_on_redis_does_not_make_live_workers_silent},
        {"mm_gateways_hear_a_beat_every_half_second",
         test_mm_gateways_hear_a_beat_every_half_second},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker loop", cases);
}
