/*
 * test_matchmaker_probe.c: a worker whose control connection closes is dead within
 * milliseconds (matchmaker/probe.h), over real TCP on loopback (a socket monitor sees no
 * inproc connection close): the monitor's event opens the window, the probes find whose
 * route is gone. A worker whose beat thread's connection closes, or a gateway's, is not
 * touched; and a worker that merely went quiet is left to the silence timeout.
 */
#include "dh_clock.h"
#include "dh_test.h"
#include "dh_zmq.h"
#include "matchmaker.h"
#include "probe.h"

#include <string.h>
#include <zmq.h>

typedef struct {
    void *ctx;
    mm_state mm;
    probe pr;
    char ep[64];
} rig;

static void *peer(rig *r, const char *id)
{
    void *s = dh_zmq_socket(r->ctx, ZMQ_DEALER, id, 100);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(s, r->ep), 0);
    return s;
}

/* A matchmaker (memory only) on a TCP port of loopback, watching its connections. */
static void rig_open(rig *r)
{
    memset(r, 0, sizeof *r);
    CU_ASSERT_EQUAL_FATAL(mm_init(&r->mm, "mm-probe", NULL, 500), 0);
    r->ctx = zmq_ctx_new();
    r->mm.router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 100);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm.router, "tcp://127.0.0.1:*"), 0);
    size_t len = sizeof r->ep;
    zmq_getsockopt(r->mm.router, ZMQ_LAST_ENDPOINT, r->ep, &len);
    CU_ASSERT_EQUAL_FATAL(probe_open(&r->pr, r->ctx, r->mm.router), 0);
}

static void rig_close(rig *r)
{
    probe_close(&r->pr);
    zmq_close(r->mm.router);
    zmq_ctx_term(r->ctx);
    mm_free(&r->mm);
}

/* Worker id says hello from sock; the matchmaker reads it (its route then exists). */
static void hello(rig *r, void *sock, const char *id)
{
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)id;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, NULL, &m), 0);
    zmq_pollitem_t it = {.socket = r->mm.router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL_FATAL(zmq_poll(&it, 1, 1000), 1);
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *in = NULL;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_recv(r->mm.router, from, &in), 1);
    CU_ASSERT_PTR_NOT_NULL(registry_hello(&r->mm.reg, from, in->worker_hello, dh_now_ms()));
    deckhand__internal__internal__free_unpacked(in, NULL);
}

/* The loop's part, for up to ms: poll the monitor with the probe's timeout, read its
 * events, probe. How many workers the probes declared dead; the window's opening in
 * *opened (0: no closed connection seen). */
static size_t turns(rig *r, long ms, uint64_t *opened)
{
    size_t died = 0;
    uint64_t end = dh_now_ms() + (uint64_t)ms;
    *opened = 0;
    while (dh_now_ms() < end) {
        uint64_t now = dh_now_ms();
        zmq_pollitem_t it = {.socket = r->pr.mon, .events = ZMQ_POLLIN};
        if (zmq_poll(&it, 1, probe_timeout(&r->pr, now, 20)) == 1)
            probe_read(&r->pr, dh_now_ms());
        if (r->pr.until_ms && !*opened)
            *opened = r->pr.closed_ms;
        died += probe_run(&r->pr, &r->mm, dh_now_ms());
    }
    return died;
}

static void test_probe_a_closed_worker_connection_is_death_at_once(void)
{
    rig r;
    rig_open(&r);
    void *a = peer(&r, "wk-a"), *b = peer(&r, "wk-b");
    hello(&r, a, "wk-a");
    hello(&r, b, "wk-b");
    uint64_t opened;
    CU_ASSERT_EQUAL(turns(&r, 50, &opened), 0); /* nothing closed: nobody probed */
    CU_ASSERT_EQUAL(opened, 0);
    zmq_close(a); /* linger 0: the connection closes now, as a killed process's does */
    uint64_t closed = dh_now_ms();
    CU_ASSERT_EQUAL(turns(&r, PROBE_WINDOW_MS + 100, &opened), 1);
    CU_ASSERT_FALSE(registry_find(&r.mm.reg, "wk-a")->alive);
    CU_ASSERT_TRUE(registry_find(&r.mm.reg, "wk-a")->lost);
    CU_ASSERT_TRUE(registry_find(&r.mm.reg, "wk-b")->alive);
    CU_ASSERT(opened >= closed && opened - closed < PROBE_WINDOW_MS);
    CU_ASSERT_EQUAL(registry_take_gone(&r.mm.reg), 1); /* the tick counts it and sweeps */
    zmq_close(b);
    rig_close(&r);
}

/* The beat thread's connection ("<id>/beat") closing, or a gateway's, kills nobody: the
 * probes go to the main routes, which stand. */
static void test_probe_other_closed_connections_kill_nobody(void)
{
    rig r;
    rig_open(&r);
    void *a = peer(&r, "wk-a"), *beat = peer(&r, "wk-a/beat"), *gw = peer(&r, "gw-1");
    hello(&r, a, "wk-a");
    Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &gh;
    CU_ASSERT_EQUAL(dh_zmq_send(gw, NULL, &m), 0);
    CU_ASSERT_EQUAL(dh_zmq_send(beat, NULL, &m), 0); /* any message: the route exists */
    uint64_t opened;
    turns(&r, 50, &opened);
    zmq_close(beat);
    zmq_close(gw);
    CU_ASSERT_EQUAL(turns(&r, PROBE_WINDOW_MS + 100, &opened), 0);
    CU_ASSERT(opened != 0); /* the closes were seen, and probed */
    CU_ASSERT_TRUE(registry_find(&r.mm.reg, "wk-a")->alive);
    /* wk-a received the probes, and only them */
    Deckhand__Internal__Internal *in = NULL;
    size_t probes = 0;
    zmq_pollitem_t it = {.socket = a, .events = ZMQ_POLLIN};
    while (zmq_poll(&it, 1, 100) == 1 && dh_zmq_recv(a, NULL, &in) == 1) {
        probes += in->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
        CU_ASSERT_EQUAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE);
        deckhand__internal__internal__free_unpacked(in, NULL);
    }
    CU_ASSERT(probes > 0);
    zmq_close(a);
    rig_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"probe_a_closed_worker_connection_is_death_at_once",
         test_probe_a_closed_worker_connection_is_death_at_once},
        {"probe_other_closed_connections_kill_nobody",
         test_probe_other_closed_connections_kill_nobody},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_probe", cases);
}
