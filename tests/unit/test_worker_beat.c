/*
 * test_worker_beat.c: the worker's beat thread (worker/beat.c). A ROUTER here plays the
 * matchmaker and the test plays the loop's side, publishing turns the way worker_loop.c
 * does: the beats come every WORKER_BEAT_MS from "<worker id>/beat" naming the worker,
 * carry what the loop published, go on while the loop is stuck inside one turn (a stalled
 * Redis, a long script call) and say for how long, and stop when told.
 */
#include "dh_test.h"

#include <string.h>
#include <time.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_zmq.h"
#include "worker.h"

typedef struct {
    void *ctx, *mm;
    beat *b;
} beat_rig;

static void rig_open(beat_rig *r, const char *endpoint)
{
    r->ctx = zmq_ctx_new();
    r->mm = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 1000);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm, endpoint), 0);
    r->b = beat_start(r->ctx, "wk-b", endpoint, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->b);
}

static void rig_close(beat_rig *r)
{
    beat_free(r->b);
    zmq_close(r->mm);
    zmq_ctx_term(r->ctx);
}

/* The next beat within ms (NULL: none), its sender's identity into from. */
static Deckhand__Internal__Internal *next_beat(beat_rig *r, long ms, char *from)
{
    zmq_pollitem_t it = {.socket = r->mm, .events = ZMQ_POLLIN};
    uint64_t until = dh_now_ms() + (uint64_t)ms;
    for (;;) {
        long left = (long)(until - dh_now_ms());
        if (left < 0 || zmq_poll(&it, 1, left) <= 0)
            return NULL;
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(r->mm, from, &m) == 1) {
            CU_ASSERT_EQUAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT);
            return m;
        }
    }
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_beats_come_from_their_own_route_and_say_what_the_loop_published(void)
{
    beat_rig r;
    rig_open(&r, "inproc://mm-beat-1");
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(from, "wk-b/beat");
    CU_ASSERT_STRING_EQUAL(m->worker_beat->worker_id, "wk-b");
    CU_ASSERT_FALSE(m->worker_beat->stopping);
    CU_ASSERT_EQUAL(m->worker_beat->stalled_ms, 0); /* no turn under way */
    deckhand__internal__internal__free_unpacked(m, NULL);

    beat_turn(r.b, dh_now_ms());
    beat_idle(r.b, 7, true, false);
    uint64_t t0 = dh_now_ms();
    m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    uint64_t gap = dh_now_ms() - t0;
    CU_ASSERT_TRUE(gap <= WORKER_BEAT_MS + 100);
    CU_ASSERT_EQUAL(m->worker_beat->active_matches, 7);
    CU_ASSERT_TRUE(m->worker_beat->draining);
    CU_ASSERT_FALSE(m->worker_beat->redis_ok);
    CU_ASSERT_EQUAL(m->worker_beat->stalled_ms, 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_TRUE(beat_sent(r.b) >= 1); /* the second may not be counted yet */
    rig_close(&r);
}

/* The loop stuck in one turn for 1.6 s (a Redis that does not answer for longer than its
 * timeout, say): the beats go on at their pace and say how long the turn has lasted. */
static void test_beats_go_on_through_a_stalled_turn_and_say_how_long(void)
{
    beat_rig r;
    rig_open(&r, "inproc://mm-beat-2");
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    deckhand__internal__internal__free_unpacked(m, NULL);

    uint64_t start = dh_now_ms();
    beat_turn(r.b, start);
    sleep_ms(1600); /* the loop's thread inside its turn: it publishes nothing */
    uint32_t longest = 0;
    size_t beats = 0;
    while ((m = next_beat(&r, 0, from))) {
        beats++;
        CU_ASSERT_TRUE(m->worker_beat->stalled_ms <= dh_now_ms() - start);
        if (m->worker_beat->stalled_ms > longest)
            longest = m->worker_beat->stalled_ms;
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_TRUE(beats >= 2); /* 1.6 s of stall: three beats due, allow one late */
    CU_ASSERT_TRUE(longest >= 1000);

    beat_idle(r.b, 0, false, true); /* the turn ended */
    m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->worker_beat->stalled_ms, 0);
    CU_ASSERT_TRUE(m->worker_beat->redis_ok);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

/* Stopped, the thread is joined at once (not after a beat's wait) and beats no more. */
static void test_beats_stop_at_once_when_told(void)
{
    beat_rig r;
    rig_open(&r, "inproc://mm-beat-3");
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    deckhand__internal__internal__free_unpacked(m, NULL);
    uint64_t t0 = dh_now_ms();
    beat_stop(r.b);
    CU_ASSERT_TRUE(dh_now_ms() - t0 < WORKER_BEAT_MS / 2);
    beat_stop(r.b); /* again: nothing */
    uint64_t sent = beat_sent(r.b);
    while ((m = next_beat(&r, 0, from)))
        deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_PTR_NULL(next_beat(&r, 2 * WORKER_BEAT_MS, from));
    CU_ASSERT_EQUAL(beat_sent(r.b), sent);
    rig_close(&r);
}

/* A hello's version is a digest of what it says, not of the version field itself: the same
 * hello gets the same version whatever it carries, a changed one (games, capacity) another. */
static void test_a_hellos_version_follows_what_it_says(void)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)"wk-b";
    h.n_games = 1;
    h.games = gis;
    h.capacity = 100;
    uint64_t v = beat_hello_digest(&h);
    CU_ASSERT_NOT_EQUAL(v, 0);
    h.version = v;
    CU_ASSERT_EQUAL(beat_hello_digest(&h), v);
    h.capacity = 99;
    CU_ASSERT_NOT_EQUAL(beat_hello_digest(&h), v);
    h.capacity = 100;
    gi.name = (char *)"elemental";
    CU_ASSERT_NOT_EQUAL(beat_hello_digest(&h), v);
    /* without a beat (tests of the loop without one), the hello always goes */
    CU_ASSERT_TRUE(beat_hello_due(NULL, v, 0));
    CU_ASSERT_FALSE(beat_hello_wanted(NULL));
}

/* The beats name the version of the loop's last hello sent (0 before any), and what the
 * matchmaker answers decides whether the next one is due. */
static void test_beats_name_the_last_hello_and_its_answers_say_when_it_is_due(void)
{
    beat_rig r;
    rig_open(&r, "inproc://mm-beat-4");
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->worker_beat->hello_version, 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_TRUE(beat_hello_due(r.b, 77, 1000)); /* never answered */
    beat_hello_sent(r.b, 77);
    m = next_beat(&r, 2 * WORKER_BEAT_MS, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->worker_beat->hello_version, 77);
    deckhand__internal__internal__free_unpacked(m, NULL);

    Deckhand__Internal__WorkerProbe p = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    beat_probe(r.b, &p, 1000); /* an empty probe of the route says nothing */
    CU_ASSERT_TRUE(beat_hello_due(r.b, 77, 1000));
    p.hello_version = 77;
    beat_probe(r.b, &p, 1000);
    CU_ASSERT_FALSE(beat_hello_due(r.b, 77, 1000));
    CU_ASSERT_FALSE(beat_hello_due(r.b, 77, 2000));
    CU_ASSERT_TRUE(beat_hello_due(r.b, 78, 1000)); /* a changed hello goes at once */
    CU_ASSERT_TRUE(beat_hello_due(r.b, 77, 3000)); /* the answers stopped */
    p.hello_version = 0;
    p.hello_wanted = true;
    beat_probe(r.b, &p, 1000);
    CU_ASSERT_TRUE(beat_hello_wanted(r.b));
    CU_ASSERT_TRUE(beat_hello_due(r.b, 77, 1000));
    beat_hello_sent(r.b, 77);
    CU_ASSERT_FALSE(beat_hello_wanted(r.b));
    CU_ASSERT_FALSE(beat_hello_due(r.b, 77, 1000));
    rig_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"a_hellos_version_follows_what_it_says", test_a_hellos_version_follows_what_it_says},
        {"beats_name_the_last_hello_and_its_answers_say_when_it_is_due",
         test_beats_name_the_last_hello_and_its_answers_say_when_it_is_due},
        {"beats_come_from_their_own_route_and_say_what_the_loop_published",
         test_beats_come_from_their_own_route_and_say_what_the_loop_published},
        {"beats_go_on_through_a_stalled_turn_and_say_how_long",
         test_beats_go_on_through_a_stalled_turn_and_say_how_long},
        {"beats_stop_at_once_when_told", test_beats_stop_at_once_when_told},
        {NULL, NULL},
    };
    return dh_test_main("worker_beat", cases);
}
