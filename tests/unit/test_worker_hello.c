/*
 * test_worker_hello.c: the worker's side of its hellos (worker/beat.c, docs/matchmaker.md,
 * "Worker hellos"), its loop on the real clock against a fake matchmaker (the rig's ROUTER).
 * Facing a matchmaker of an earlier release, which never answers a beat, the worker repeats
 * its full hello every WORKER_HELLO_MS as before; facing one that answers each beat with
 * the version it holds, it stops repeating it, and sends it again at once when asked, or
 * when the answers stop (the matchmaker replaced by one of an earlier release).
 */
#include "rig_worker.h"

#include <string.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_zmq.h"
#include "worker.h"

#define UNKNOWN_DEAD_MS 2500 /* matchmaker/failover/takeover.h: TAKEOVER_UNKNOWN_DEAD_MS */

typedef struct {
    size_t hellos;
    uint64_t version;      /* of the first hello */
    bool versions_differ;  /* a later hello named another version */
    uint64_t beat_version; /* what the last beat named */
    uint64_t last_hello_ms;
} seen;

/* What the fake matchmaker does with one message: count hellos; answer a beat naming a
 * version with WorkerProbe{hello_version} when answering. */
static void mm_read(rig_worker *r, const char *from, const Deckhand__Internal__Internal *m,
                    bool answering, seen *s)
{
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO) {
        CU_ASSERT_STRING_EQUAL(from, "wk-t"); /* on the control route */
        CU_ASSERT_NOT_EQUAL(m->worker_hello->version, 0);
        if (!s->hellos)
            s->version = m->worker_hello->version;
        s->versions_differ |= m->worker_hello->version != s->version;
        s->hellos++;
        s->last_hello_ms = dh_now_ms();
    } else if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT) {
        CU_ASSERT_STRING_EQUAL(from, "wk-t/beat");
        s->beat_version = m->worker_beat->hello_version;
        if (answering && s->beat_version) {
            Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
            wp.hello_version = s->beat_version;
            Deckhand__Internal__Internal a = DECKHAND__INTERNAL__INTERNAL__INIT;
            a.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
            a.worker_probe = &wp;
            CU_ASSERT_EQUAL(dh_zmq_send(r->mm, "wk-t", &a), 0);
        }
    }
}

/* Turn the loop for ms (the fake matchmaker reading between turns, as main.c's poll would
 * wait); stops early once stop_at_hello hellos were seen (0: never). */
static void run(rig_worker *r, worker_loop *l, long ms, bool answering, seen *s,
                size_t stop_at_hello)
{
    uint64_t until = dh_now_ms() + (uint64_t)ms;
    char from[DH_ZMQ_ID_MAX + 1];
    while (dh_now_ms() < until && (!stop_at_hello || s->hellos < stop_at_hello)) {
        worker_loop_turn(l, &r->h);
        zmq_pollitem_t it = {.socket = r->mm, .events = ZMQ_POLLIN};
        zmq_poll(&it, 1, 10);
        Deckhand__Internal__Internal *m = NULL;
        while (dh_zmq_readable(r->mm) && dh_zmq_recv(r->mm, from, &m) == 1) {
            mm_read(r, from, m, answering, s);
            deckhand__internal__internal__free_unpacked(m, NULL);
            m = NULL;
        }
    }
}

static void loop_open(rig_worker *r, worker_loop *l, const char *match)
{
    rig_worker_open_real_clock(r, match);
    worker_loop_init(l, dh_now_ms(), 0);
    l->beat = beat_start(r->ctx, "wk-t", "inproc://mm", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l->beat);
}

static void loop_close(rig_worker *r, worker_loop *l)
{
    beat_free(l->beat);
    worker_loop_free(l);
    rig_worker_mm_drain(r);
    rig_worker_close(r);
}

/* A matchmaker of an earlier release never answers a beat: the worker's hello goes every
 * WORKER_HELLO_MS, the same version each time, and its beats name that version. */
static void test_worker_repeats_its_hello_to_a_matchmaker_that_never_answers(void)
{
    rig_worker r;
    worker_loop l;
    loop_open(&r, &l, "m-hello-old");
    seen s = {0};
    run(&r, &l, 4 * WORKER_HELLO_MS + 100, false, &s, 0);
    CU_ASSERT_TRUE(s.hellos >= 4);
    CU_ASSERT_FALSE(s.versions_differ);
    CU_ASSERT_EQUAL(s.beat_version, s.version);
    loop_close(&r, &l);
}

/* A matchmaker that says it holds the hello: no repeat while it says so; once it falls
 * silent (replaced by one of an earlier release), the hello comes again, soon enough for
 * that matchmaker to know the worker before it would take it for dead. */
static void test_worker_stops_repeating_its_hello_while_the_matchmaker_holds_it(void)
{
    rig_worker r;
    worker_loop l;
    loop_open(&r, &l, "m-hello-held");
    seen s = {0};
    run(&r, &l, 3 * WORKER_BEAT_MS, true, &s, 0);
    CU_ASSERT_TRUE(s.hellos >= 1);
    size_t before = s.hellos;
    run(&r, &l, 5 * WORKER_HELLO_MS, true, &s, 0);
    CU_ASSERT_EQUAL(s.hellos, before); /* 2.5 s without a hello */
    uint64_t silent = dh_now_ms();
    run(&r, &l, UNKNOWN_DEAD_MS, false, &s, before + 1);
    CU_ASSERT_EQUAL(s.hellos, before + 1);
    CU_ASSERT_TRUE(s.last_hello_ms - silent < UNKNOWN_DEAD_MS - 500);
    CU_ASSERT_FALSE(s.versions_differ);
    loop_close(&r, &l);
}

/* Asked (a restarted matchmaker, or one that lost our control route), the worker sends its
 * hello in the turn that reads the request, not when its timer says. */
static void test_worker_sends_its_hello_at_once_when_the_matchmaker_wants_it(void)
{
    rig_worker r;
    worker_loop l;
    loop_open(&r, &l, "m-hello-want");
    seen s = {0};
    run(&r, &l, 3 * WORKER_BEAT_MS, true, &s, 0);
    size_t before = s.hellos;
    run(&r, &l, WORKER_HELLO_MS, true, &s, 0);
    CU_ASSERT_EQUAL(s.hellos, before); /* held: quiet */
    Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    wp.hello_wanted = true;
    Deckhand__Internal__Internal a = DECKHAND__INTERNAL__INTERNAL__INIT;
    a.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
    a.worker_probe = &wp;
    uint64_t asked = dh_now_ms();
    CU_ASSERT_EQUAL_FATAL(dh_zmq_send(r.mm, "wk-t", &a), 0);
    run(&r, &l, WORKER_HELLO_MS, true, &s, before + 1);
    CU_ASSERT_EQUAL(s.hellos, before + 1);
    CU_ASSERT_TRUE(s.last_hello_ms - asked < WORKER_HELLO_MS / 2);
    loop_close(&r, &l);
}

/* A stopping worker says its hello before its stopping beat, on the control route, even
 * while the matchmaker holds it: a matchmaker restarted since the last hello (which does
 * not know the worker yet) then counts it dead at once and moves its matches, instead of
 * ignoring the stopping beat of a worker it never heard of (e2e test_http). */
static void test_worker_says_its_hello_before_its_stopping_beat(void)
{
    rig_worker r;
    worker_loop l;
    loop_open(&r, &l, "m-hello-stop");
    seen s = {0};
    run(&r, &l, 3 * WORKER_BEAT_MS, true, &s, 0);
    size_t before = s.hellos;
    run(&r, &l, WORKER_HELLO_MS, true, &s, 0);
    CU_ASSERT_EQUAL(s.hellos, before); /* held: quiet */
    worker_loop_stop(&l, &r.h);
    char from[DH_ZMQ_ID_MAX + 1];
    int hello_at = -1, stopping_at = -1, k = 0;
    uint64_t until = dh_now_ms() + 1000;
    while (stopping_at < 0 && dh_now_ms() < until) {
        zmq_pollitem_t it = {.socket = r.mm, .events = ZMQ_POLLIN};
        zmq_poll(&it, 1, 10);
        Deckhand__Internal__Internal *m = NULL;
        while (dh_zmq_readable(r.mm) && dh_zmq_recv(r.mm, from, &m) == 1) {
            if (!strcmp(from, "wk-t") &&
                m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO && hello_at < 0)
                hello_at = k;
            if (!strcmp(from, "wk-t") &&
                m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT &&
                m->worker_beat->stopping)
                stopping_at = k;
            k++;
            deckhand__internal__internal__free_unpacked(m, NULL);
            m = NULL;
        }
    }
    CU_ASSERT_TRUE(hello_at >= 0);
    CU_ASSERT_TRUE(stopping_at > hello_at);
    loop_close(&r, &l);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_repeats_its_hello_to_a_matchmaker_that_never_answers",
         test_worker_repeats_its_hello_to_a_matchmaker_that_never_answers},
        {"worker_stops_repeating_its_hello_while_the_matchmaker_holds_it",
         test_worker_stops_repeating_its_hello_while_the_matchmaker_holds_it},
        {"worker_sends_its_hello_at_once_when_the_matchmaker_wants_it",
         test_worker_sends_its_hello_at_once_when_the_matchmaker_wants_it},
        {"worker_says_its_hello_before_its_stopping_beat",
         test_worker_says_its_hello_before_its_stopping_beat},
        {NULL, NULL},
    };
    return rig_worker_main("worker_hello", cases);
}
