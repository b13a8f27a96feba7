/*
 * zsock.c: ZeroMQ inside the libuv loop.
 *
 * Each socket's ZMQ_FD sits in a uv_poll. That fd only says "look at the socket": any call
 * that lets ZeroMQ process the socket's commands (a send, ZMQ_EVENTS, a receive) may take
 * the signal of a message that arrived, after which the fd stays quiet while the message
 * waits. So a socket is drained (1) from its poll callback and (2) from a prepare handle
 * that runs before the loop blocks, but there only when something touched it since its
 * last drain (zsock.dirty: a send, or a drain that stopped at its budget). The touched
 * sockets are kept on a list (g->drain_list), so that a loop turn that touched none costs
 * nothing here, however many worker dealers there are (a walk of g->dealers every turn
 * was most of a quiet turn's own instructions). A drain reads
 * until ZeroMQ says EAGAIN, which processes the socket's commands once; it never asks
 * ZMQ_EVENTS per message. Every look at a socket whose command queue is empty costs
 * ZeroMQ a poll() and a getpid() system call, so draining every socket every loop turn,
 * one look per message, was most of the loop's system calls at low load. A drain reads
 * at most ZSOCK_BUDGET messages so that clients are not starved; when more may remain,
 * an idle handle keeps the next poll non-blocking.
 *
 * Commands for workers wait in their dealer's batch (cmdbatch.h) until the loop turn's
 * I/O is done: a check handle sends them after the callbacks that queued them, and the
 * prepare handle sends what later callbacks queued before it drains, so a command never
 * waits past the turn that queued it.
 */
#include "zsock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <zmq.h>

#include "dh_log.h"

#define ZSOCK_BUDGET 256
#define ZSOCK_HWM    10000

/* Put s on g->drain_list (dirty), once. */
static void zsock_mark(zsock *s)
{
    gw *g = s->gw;
    if (s->dirty)
        return;
    s->dirty = true;
    s->drain_next = g->drain_list;
    if (g->drain_list)
        g->drain_list->drain_pprev = &s->drain_next;
    s->drain_pprev = &g->drain_list;
    g->drain_list = s;
}

/* Take s off the list it is on (clean). */
static void zsock_unmark(zsock *s)
{
    if (!s->dirty)
        return;
    *s->drain_pprev = s->drain_next;
    if (s->drain_next)
        s->drain_next->drain_pprev = s->drain_pprev;
    s->dirty = false;
    s->drain_next = NULL;
    s->drain_pprev = NULL;
}

static void zsock_skip_rest(void *z)
{
    int more = 1;
    size_t sz = sizeof more;
    while (zmq_getsockopt(z, ZMQ_RCVMORE, &more, &sz) == 0 && more) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        zmq_msg_recv(&part, z, ZMQ_DONTWAIT);
        zmq_msg_close(&part);
    }
}

/* Hand one received message to g->on_internal: a PlayerOutputs read in place, anything
 * else unpacked (and freed after). */
static void zsock_dispatch(zsock *s, const uint8_t *data, size_t len)
{
    gw *g = s->gw;
    Deckhand__Internal__Internal *m = outwire_read(&s->outputs, data, len);
    if (m) {
        wlink_heard(&s->link, uv_now(g->loop));
        g->on_internal(g, s, m);
        return;
    }
    m = deckhand__internal__internal__unpack(NULL, len, data);
    if (!m) {
        dh_warn("dropped an undecodable internal message");
        return;
    }
    wlink_heard(&s->link, uv_now(g->loop));
    g->on_internal(g, s, m);
    deckhand__internal__internal__free_unpacked(m, NULL);
}

/* Read until ZeroMQ has nothing more, at most ZSOCK_BUDGET messages; when the budget ran
 * out first, the socket is left on g->drain_list. A message of several parts (never sent
 * to a DEALER by our peers) is read by its first. */
static void zsock_drain(zsock *s)
{
    zsock_unmark(s);
    dh_counter_inc(&s->gw->stats.zmq_drains);
    for (int i = 0; i < ZSOCK_BUDGET; i++) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, s->z, ZMQ_DONTWAIT) < 0) {
            zmq_msg_close(&part);
            return;
        }
        bool more = zmq_msg_more(&part);
        zsock_dispatch(s, zmq_msg_data(&part), zmq_msg_size(&part));
        zmq_msg_close(&part);
        if (more)
            zsock_skip_rest(s->z);
    }
    zsock_mark(s);
}

static void zsock_on_poll(uv_poll_t *h, int status, int events)
{
    zsock_drain(h->data);
}

static void zsock_idle_noop(uv_idle_t *h) {}

/* Send d's queued commands as one message; on failure tell each sender. */
static void zsock_send_commands(zsock *d)
{
    gw *g = d->gw;
    const uint8_t *data;
    size_t len;
    cmdbatch_message(&d->cmds, &data, &len);
    zsock_mark(d);
    if (zmq_send(d->z, data, len, ZMQ_DONTWAIT) < 0) {
        int err = errno;
        for (size_t i = 0; i < d->cmds.n; i++)
            g->command_unsent(g, d->cmds.owners[i].player_id, d->cmds.owners[i].cmd_id, err);
    }
    cmdbatch_clear(&d->cmds);
}

static void zsock_flush_commands(gw *g)
{
    while (g->cmd_list) {
        zsock *d = g->cmd_list;
        g->cmd_list = d->cmd_next;
        d->cmd_next = NULL;
        zsock_send_commands(d);
    }
}

static void zsock_on_check(uv_check_t *h)
{
    zsock_flush_commands(h->data);
}

/* Note d as holding commands; a full batch goes at once. */
static void zsock_commands_added(zsock *d)
{
    gw *g = d->gw;
    if (d->cmds.n == 1) {
        d->cmd_next = g->cmd_list;
        g->cmd_list = d;
    }
    if (d->cmds.n < CMDBATCH_MAX)
        return;
    for (zsock **p = &g->cmd_list; *p; p = &(*p)->cmd_next) {
        if (*p == d) {
            *p = d->cmd_next;
            break;
        }
    }
    d->cmd_next = NULL;
    zsock_send_commands(d);
}

int zsock_command(zsock *d, const Deckhand__Internal__Internal *m, const char *player_id,
                  uint64_t cmd_id)
{
    if (cmdbatch_add(&d->cmds, m, player_id, cmd_id) < 0)
        return -1;
    zsock_commands_added(d);
    return 0;
}

int zsock_command_packed(zsock *d, const uint8_t *msg, size_t len, const char *player_id,
                         uint64_t cmd_id)
{
    if (cmdbatch_add_packed(&d->cmds, msg, len, player_id, cmd_id) < 0)
        return -1;
    zsock_commands_added(d);
    return 0;
}

static void zsock_on_prepare(uv_prepare_t *h)
{
    gw *g = h->data;
    zsock_flush_commands(g);
    /* One pass over the sockets touched so far, taken off g->drain_list first: each drain
     * takes its socket off this pass's list; what the pass touches again (a send from a
     * drain's handler, a drain that spent its budget) goes on g->drain_list afresh, for
     * the next turn. */
    zsock *pass = g->drain_list;
    g->drain_list = NULL;
    if (pass)
        pass->drain_pprev = &pass;
    while (pass)
        zsock_drain(pass);
    /* What the drain queued (an attach for a MatchAssigned) goes now; the loop then looks
     * again before it waits, as the send may have taken a pending receive's signal. */
    zsock_flush_commands(g);
    if (g->drain_list)
        uv_idle_start(&g->drain_idle, zsock_idle_noop);
    else
        uv_idle_stop(&g->drain_idle);
}

bool zsock_mm_linked(gw *g)
{
    /* ZMQ_EVENTS may take the edge off ZMQ_FD; zsock_on_prepare drains every turn anyway */
    int ev = 0;
    size_t len = sizeof ev;
    if (g->mm)
        zsock_mark(g->mm);
    return g->mm && zmq_getsockopt(g->mm->z, ZMQ_EVENTS, &ev, &len) == 0 && (ev & ZMQ_POLLOUT);
}

int zsock_mm_send(gw *g, const Deckhand__Internal__Internal *m)
{
    if (!g->mm) {
        errno = ENOTCONN;
        return -1;
    }
    return zsock_send(g->mm, m);
}

int zsock_send(zsock *s, const Deckhand__Internal__Internal *m)
{
    zsock_mark(s);
    return dh_zmq_send(s->z, NULL, m);
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
    outwire_init(&s->outputs);
    cmdbatch_init(&s->cmds);
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
    zsock_mark(s); /* looked at before the loop first waits */
    uv_poll_start(&s->poll, UV_READABLE, zsock_on_poll);
    return s;
err:
    dh_error("cannot open a dealer to %s: %s", endpoint, zmq_strerror(errno));
    wlink_close(&s->link);
    if (s->z)
        zmq_close(s->z);
    outwire_free(&s->outputs);
    cmdbatch_free(&s->cmds);
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
    h.batches = true; /* it takes MatchmakerOutputs (backend.c) */
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &h;
    if (zsock_send(g->mm, &m) < 0 && errno != EAGAIN)
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
    uv_check_init(g->loop, &g->cmd_check);
    g->cmd_check.data = g;
    uv_check_start(&g->cmd_check, zsock_on_check);
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
    zsock_flush_commands(g); /* what the last turn queued (an away) still goes */
    if (g->mm)
        zsock_stop_one(g->mm);
    dh_table_each(&g->dealers, zsock_stop_dealer, NULL);
    uv_close((uv_handle_t *)&g->drain_prepare, NULL);
    uv_close((uv_handle_t *)&g->drain_idle, NULL);
    uv_close((uv_handle_t *)&g->cmd_check, NULL);
}

static void zsock_close(void *p)
{
    zsock *s = p;
    zsock_unmark(s);
    wlink_close(&s->link);
    zmq_close(s->z);
    outwire_free(&s->outputs);
    cmdbatch_free(&s->cmds);
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
        zsock_unmark(s);
        uv_close((uv_handle_t *)&s->poll, (uv_close_cb)zsock_close);
        return NULL;
    }
    dh_info("connected to worker endpoint %s", endpoint);
    return s;
}
