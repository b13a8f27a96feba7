/*
 * zsock.c: ZeroMQ inside the libuv loop.
 *
 * Each socket's ZMQ_FD sits in a uv_poll. That fd is edge-triggered: it only says "look
 * at ZMQ_EVENTS", and a send can consume the edge of a pending receive. So the sockets
 * are drained (1) from their poll callback and (2) from a prepare handle that runs before
 * the loop blocks, after every batch of callbacks, hence after every send. A drain reads
 * at most ZSOCK_BUDGET messages per socket so that clients are not starved; when more
 * remain, an idle handle keeps the next poll non-blocking.
 */
#include "zsock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <zmq.h>

#include "dh_log.h"

#define ZSOCK_BUDGET 256
#define ZSOCK_HWM    10000

/* Read up to ZSOCK_BUDGET messages; true when more are waiting. */
static bool zsock_drain(zsock *s)
{
    for (int i = 0; i < ZSOCK_BUDGET; i++) {
        if (!dh_zmq_readable(s->z))
            return false;
        Deckhand__Internal__Internal *m = NULL;
        int rc = dh_zmq_recv(s->z, NULL, &m);
        if (rc == 0)
            return false;
        if (rc < 0)
            continue;
        wlink_heard(&s->link, uv_now(s->gw->loop));
        s->gw->on_internal(s->gw, s, m);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    return dh_zmq_readable(s->z);
}

static void zsock_on_poll(uv_poll_t *h, int status, int events)
{
    zsock_drain(h->data);
}

typedef struct {
    bool more;
} zsock_drain_state;

static void zsock_drain_dealer(const char *key, void *val, void *arg)
{
    zsock_drain_state *st = arg;
    if (zsock_drain(val))
        st->more = true;
}

static void zsock_idle_noop(uv_idle_t *h) {}

static void zsock_on_prepare(uv_prepare_t *h)
{
    gw *g = h->data;
    zsock_drain_state st = {false};
    if (g->mm && zsock_drain(g->mm))
        st.more = true;
    dh_table_each(&g->dealers, zsock_drain_dealer, &st);
    if (st.more)
        uv_idle_start(&g->drain_idle, zsock_idle_noop);
    else
        uv_idle_stop(&g->drain_idle);
}

bool zsock_mm_linked(gw *g)
{
    /* ZMQ_EVENTS may take the edge off ZMQ_FD; zsock_on_prepare drains every turn anyway */
    int ev = 0;
    size_t len = sizeof ev;
    return g->mm && zmq_getsockopt(g->mm->z, ZMQ_EVENTS, &ev, &len) == 0 && (ev & ZMQ_POLLOUT);
}

int zsock_mm_send(gw *g, const Deckhand__Internal__Internal *m)
{
    if (!g->mm) {
        errno = ENOTCONN;
        return -1;
    }
    return dh_zmq_send(g->mm->z, NULL, m);
}

/* A DEALER with the gateway id, connected to endpoint and watched by the loop. */
static zsock *zsock_open(gw *g, const char *endpoint, bool immediate)
{
    int fd = -1;
    size_t fdlen = sizeof fd;
    int one = 1;
    zsock *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->gw = g;
    snprintf(s->endpoint, sizeof s->endpoint, "%s", endpoint);
    s->z = dh_zmq_socket(g->zctx, ZMQ_DEALER, g->id, ZSOCK_HWM);
    if (!s->z || dh_curve_client(s->z, &g->curve) < 0)
        goto err;
    /* ZMQ_IMMEDIATE: while the peer is down a send fails at once (we answer UNAVAILABLE)
     * instead of queueing a request to be delivered, stale, on reconnect. */
    if (immediate && zmq_setsockopt(s->z, ZMQ_IMMEDIATE, &one, sizeof one) < 0)
        goto err;
    /* A worker dealer is watched for a dead link (wlink.h); without a monitor it works on. */
    if (!immediate)
        wlink_open(&s->link, g->zctx, s->z, uv_now(g->loop));
    if (zmq_connect(s->z, endpoint) < 0 || zmq_getsockopt(s->z, ZMQ_FD, &fd, &fdlen) < 0)
        goto err;
    if (uv_poll_init(g->loop, &s->poll, fd) < 0)
        goto err;
    s->poll.data = s;
    s->polling = true;
    uv_poll_start(&s->poll, UV_READABLE, zsock_on_poll);
    return s;
err:
    dh_error("cannot open a dealer to %s: %s", endpoint, zmq_strerror(errno));
    wlink_close(&s->link);
    if (s->z)
        zmq_close(s->z);
    free(s);
    return NULL;
}

static void zsock_send_hello(gw *g)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__GatewayHello h = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    h.gateway_id = g->id;
    h.connections = (uint32_t)g->nconns; /* its load, for the admin API */
    h.players = (uint32_t)g->players.count;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &h;
    if (dh_zmq_send(g->mm->z, NULL, &m) < 0 && errno != EAGAIN)
        dh_warn("GatewayHello not sent: %s", zmq_strerror(errno));
    g->last_hello = uv_now(g->loop);
}

int zsock_init(gw *g)
{
    g->zctx = zmq_ctx_new();
    if (!g->zctx)
        goto err;
    if (dh_table_init(&g->dealers) < 0)
        goto err;
    g->mm = zsock_open(g, g->mm_endpoint, true);
    if (!g->mm)
        goto err;
    uv_prepare_init(g->loop, &g->drain_prepare);
    g->drain_prepare.data = g;
    uv_prepare_start(&g->drain_prepare, zsock_on_prepare);
    uv_idle_init(g->loop, &g->drain_idle);
    zsock_send_hello(g);
    return 0;
err:
    dh_error("cannot set up ZeroMQ (matchmaker %s)", g->mm_endpoint);
    return -1;
}

static void zsock_read_link(const char *key, void *val, void *arg)
{
    zsock *s = val;
    wlink_read(&s->link, uv_now(s->gw->loop));
}

void zsock_tick(gw *g)
{
    if (uv_now(g->loop) - g->last_hello >= GW_HELLO_PERIOD)
        zsock_send_hello(g);
    dh_table_each(&g->dealers, zsock_read_link, NULL);
}

static void zsock_stop_one(zsock *s)
{
    if (s->polling)
        uv_close((uv_handle_t *)&s->poll, NULL);
    s->polling = false;
}

static void zsock_stop_dealer(const char *key, void *val, void *arg)
{
    zsock_stop_one(val);
}

void zsock_stop(gw *g)
{
    if (g->mm)
        zsock_stop_one(g->mm);
    dh_table_each(&g->dealers, zsock_stop_dealer, NULL);
    uv_close((uv_handle_t *)&g->drain_prepare, NULL);
    uv_close((uv_handle_t *)&g->drain_idle, NULL);
}

static void zsock_close(void *p)
{
    zsock *s = p;
    wlink_close(&s->link);
    zmq_close(s->z);
    free(s);
}

void zsock_free(gw *g)
{
    if (g->mm)
        zsock_close(g->mm);
    g->mm = NULL;
    if (g->dealers.buckets)
        dh_table_free(&g->dealers, zsock_close);
    if (g->zctx)
        zmq_ctx_term(g->zctx);
    g->zctx = NULL;
}

zsock *zsock_dealer(gw *g, const char *endpoint)
{
    zsock *s = dh_table_get(&g->dealers, endpoint);
    if (s || g->stopping)
        return s; /* no new socket once the loop's handles are closing */
    /* Not immediate: the first command (the attach) must wait for the connection. */
    s = zsock_open(g, endpoint, false);
    if (!s)
        return NULL;
    if (dh_table_set(&g->dealers, endpoint, s) < 0) {
        uv_close((uv_handle_t *)&s->poll, (uv_close_cb)zsock_close);
        return NULL;
    }
    dh_info("connected to worker endpoint %s", endpoint);
    return s;
}
