/*
 * test_matchmaker_hello.c: the matchmaker's side of the workers' hellos (docs/matchmaker.md,
 * "Worker hellos"). A worker of this release names its hello's version in every beat; the
 * matchmaker answers such a beat on the worker's control route: it holds that hello
 * (WorkerProbe.hello_version, and the worker does not repeat it), or it wants it
 * (hello_wanted: a worker it does not know, as after a restart; another version; a worker
 * whose control route was lost). A worker of an earlier release (no version) is told
 * nothing and keeps being known by the hellos it repeats, as before.
 */
#include "loop.h"
#include "rig_mm.h"

#include <string.h>
#include <zmq.h>

#define VERSION 0x5eed0001ULL

/* A DEALER with this identity on the rig's matchmaker (the rig names its endpoint by id). */
static void *dealer(rig_mm *a, const char *id, const char *identity)
{
    char ep[64];
    snprintf(ep, sizeof ep, "inproc://%s", id);
    void *s = dh_zmq_socket(a->ctx, ZMQ_DEALER, identity, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(s, ep), 0);
    return s;
}

/* Worker id's hello of this version (0: a worker of an earlier release), from sock. */
static void hello(void *sock, const char *id, uint64_t version)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)id;
    h.endpoint = (char *)"tcp://z:1";
    h.n_games = 1;
    h.games = gis;
    h.capacity = 100;
    h.version = version;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    rig_mm_send(sock, &m);
}

/* Worker id's beat naming hello version (0: a worker of an earlier release), from sock. */
static void beat(void *sock, const char *id, uint64_t version)
{
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.worker_id = (char *)id;
    b.redis_ok = true;
    b.hello_version = version;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    m.worker_beat = &b;
    rig_mm_send(sock, &m);
}

/* Let the matchmaker read what waits (inproc delivery is quick, not instant). */
static void drain(rig_mm *a, uint64_t now)
{
    zmq_pollitem_t it = {.socket = a->mm.router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL(zmq_poll(&it, 1, RIG_MM_WAIT_MS), 1);
    loop_drain(&a->mm, now);
}

/* The matchmaker's answer at the worker's control socket: 'H' it holds version, 'W' it
 * wants the hello, '-' nothing came, '?' something else. */
static char answer(void *sock, uint64_t version)
{
    Deckhand__Internal__Internal *m = rig_mm_next(sock, RIG_MM_WAIT_MS);
    if (!m)
        return '-';
    char c = '?';
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE) {
        const Deckhand__Internal__WorkerProbe *p = m->worker_probe;
        if (p->hello_wanted && !p->hello_version)
            c = 'W';
        else if (!p->hello_wanted && p->hello_version == version)
            c = 'H';
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    return c;
}

/* A restarted matchmaker hears a worker's beats before its hello: it asks for the hello on
 * the worker's control route; once it holds it, each beat naming it is answered so, and a
 * beat naming another version (the worker's games changed) asks again. */
static void test_mm_wants_the_hello_of_a_worker_it_does_not_hold_and_says_when_it_does(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-hello-want", NULL, 1, 0);
    void *ctl = dealer(&a, "mm-hello-want", "wk-z");
    void *bt = dealer(&a, "mm-hello-want", "wk-z/beat");
    beat(bt, "wk-z", VERSION); /* from the beat thread, before any hello */
    drain(&a, 100);
    CU_ASSERT_PTR_NULL(registry_find(&a.mm.reg, "wk-z"));
    CU_ASSERT_EQUAL(answer(ctl, VERSION), 'W');
    CU_ASSERT_EQUAL(answer(bt, VERSION), '-'); /* the answer goes to the control route */

    hello(ctl, "wk-z", VERSION);
    drain(&a, 200);
    registry_worker *w = registry_find(&a.mm.reg, "wk-z");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->hello_version, VERSION);
    beat(bt, "wk-z", VERSION);
    drain(&a, 600);
    CU_ASSERT_EQUAL(answer(ctl, VERSION), 'H');
    CU_ASSERT_EQUAL(w->last_seen_ms, 600);

    beat(bt, "wk-z", VERSION + 1); /* a new hello, not read yet */
    drain(&a, 1100);
    CU_ASSERT_EQUAL(answer(ctl, VERSION + 1), 'W');
    CU_ASSERT_TRUE(w->alive); /* the beat still counts */
    zmq_close(ctl);
    zmq_close(bt);
    rig_mm_close(&a);
}

/* A worker whose control connection closed (the probe's verdict) comes back only through
 * that route: its beat thread's beats are answered with a request for the hello, which
 * the worker sends on the control route, and only then is its hello held again. */
static void test_mm_wants_the_hello_of_a_worker_whose_control_route_was_lost(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-hello-lost", NULL, 1, 0);
    void *ctl = dealer(&a, "mm-hello-lost", "wk-z");
    void *bt = dealer(&a, "mm-hello-lost", "wk-z/beat");
    hello(ctl, "wk-z", VERSION);
    drain(&a, 100);
    CU_ASSERT_TRUE(registry_lost(&a.mm.reg, "wk-z", "connection closed"));
    beat(bt, "wk-z", VERSION);
    drain(&a, 200);
    CU_ASSERT_FALSE(registry_find(&a.mm.reg, "wk-z")->alive);
    CU_ASSERT_EQUAL(answer(ctl, VERSION), 'W');
    hello(ctl, "wk-z", VERSION);
    drain(&a, 300);
    CU_ASSERT_TRUE(registry_find(&a.mm.reg, "wk-z")->alive);
    beat(bt, "wk-z", VERSION);
    drain(&a, 400);
    CU_ASSERT_EQUAL(answer(ctl, VERSION), 'H');
    zmq_close(ctl);
    zmq_close(bt);
    rig_mm_close(&a);
}

/* A worker of an earlier release (a rolling upgrade: new matchmaker, old worker): its
 * hellos and beats carry no version, it is answered nothing, and its repeated hellos keep
 * it known and alive as before. */
static void test_mm_tells_a_worker_of_an_earlier_release_nothing(void)
{
    rig_mm a;
    rig_mm_open(&a, "mm-hello-old", NULL, 1, 0);
    void *ctl = dealer(&a, "mm-hello-old", "wk-z");
    void *bt = dealer(&a, "mm-hello-old", "wk-z/beat");
    beat(bt, "wk-z", 0); /* before its hello: waited for, not asked */
    drain(&a, 50);
    CU_ASSERT_EQUAL(answer(ctl, 0), '-');
    for (uint64_t t = 100; t <= 2100; t += 500) {
        hello(ctl, "wk-z", 0);
        beat(bt, "wk-z", 0);
        drain(&a, t);
        mm_tick(&a.mm, t);
    }
    registry_worker *w = registry_find(&a.mm.reg, "wk-z");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_TRUE(w->alive);
    CU_ASSERT_EQUAL(w->hello_version, 0);
    CU_ASSERT_PTR_NOT_NULL(registry_game_info(&a.mm.reg, "dominion"));
    CU_ASSERT_EQUAL(answer(ctl, 0), '-');
    CU_ASSERT_EQUAL(answer(bt, 0), '-');
    zmq_close(ctl);
    zmq_close(bt);
    rig_mm_close(&a);
}

/* The answers, as the registry decides them. */
static void test_mm_registry_hello_check(void)
{
    registry_worker w;
    memset(&w, 0, sizeof w);
    w.alive = true;
    w.hello_version = VERSION;
    CU_ASSERT_EQUAL(registry_hello_check(&w, 0), REGISTRY_HELLO_SILENT);
    CU_ASSERT_EQUAL(registry_hello_check(NULL, 0), REGISTRY_HELLO_SILENT);
    CU_ASSERT_EQUAL(registry_hello_check(&w, VERSION), REGISTRY_HELLO_HELD);
    CU_ASSERT_EQUAL(registry_hello_check(&w, VERSION + 1), REGISTRY_HELLO_WANTED);
    CU_ASSERT_EQUAL(registry_hello_check(NULL, VERSION), REGISTRY_HELLO_WANTED);
    w.lost = true;
    CU_ASSERT_EQUAL(registry_hello_check(&w, VERSION), REGISTRY_HELLO_WANTED);
    w.lost = false;
    w.alive = false;
    CU_ASSERT_EQUAL(registry_hello_check(&w, VERSION), REGISTRY_HELLO_WANTED);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_wants_the_hello_of_a_worker_it_does_not_hold_and_says_when_it_does",
         test_mm_wants_the_hello_of_a_worker_it_does_not_hold_and_says_when_it_does},
        {"mm_wants_the_hello_of_a_worker_whose_control_route_was_lost",
         test_mm_wants_the_hello_of_a_worker_whose_control_route_was_lost},
        {"mm_tells_a_worker_of_an_earlier_release_nothing",
         test_mm_tells_a_worker_of_an_earlier_release_nothing},
        {"mm_registry_hello_check", test_mm_registry_hello_check},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_hello", cases);
}
