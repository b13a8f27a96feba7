/*
 * route.c: ZeroMQ inside the libuv loop, and what the gateway knows about where matches
 * live.
 *
 * Each socket's ZMQ_FD sits in a uv_poll. That fd is edge-triggered: it only says "look
 * at ZMQ_EVENTS", and a send can consume the edge of a pending receive. So the sockets
 * are drained (1) from their poll callback and (2) from a prepare handle that runs before
 * the loop blocks, after every batch of callbacks, hence after every send. A drain reads
 * at most ROUTE_BUDGET messages per socket so that clients are not starved; when more
 * remain, an idle handle keeps the next poll non-blocking.
 *
 * Routes: match_id -> the worker's dealer, learnt from MatchAssigned, or on a miss from
 * Redis (lookup.c), so that a player may resume through any gateway, and changed by the
 * matchmaker's MatchMoved when a match fails over to another worker. A route goes with
 * the match's first GameOver through it, and when a worker's UNKNOWN_MATCH answer comes
 * through it: that worker lost the match (a fenced write), and the next command asks
 * Redis, which names the new owner.
 */
#include "route.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "conn.h"
#include "dh_log.h"
#include "lookup.h"
#include "session.h"

#define ROUTE_BUDGET 256
#define ROUTE_HWM    10000

struct route_sock {
    uv_poll_t poll;
    gw *gw;
    void *z;
    bool polling;
    char endpoint[GW_ADDR_MAX];
};

typedef struct {
    char worker_id[DH_ZMQ_ID_MAX + 1];
    route_sock *dealer;
} route_match;

typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    char match_id[GW_MATCH_ID_MAX]; /* worker commands: their match; "" for queue requests */
    uint64_t cmd_id;
    uint64_t deadline;
    bool expired; /* answered UNAVAILABLE; kept until deadline to drop a late answer */
} route_pending;

static void route_handle(route_sock *from, Deckhand__Internal__Internal *m);

/* Read up to ROUTE_BUDGET messages; true when more are waiting. */
static bool route_drain(route_sock *s)
{
    for (int i = 0; i < ROUTE_BUDGET; i++) {
        if (!dh_zmq_readable(s->z))
            return false;
        Deckhand__Internal__Internal *m = NULL;
        int rc = dh_zmq_recv(s->z, NULL, &m);
        if (rc == 0)
            return false;
        if (rc < 0)
            continue;
        route_handle(s, m);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    return dh_zmq_readable(s->z);
}

static void route_on_poll(uv_poll_t *h, int status, int events)
{
    route_drain(h->data);
}

typedef struct {
    bool more;
} route_drain_state;

static void route_drain_dealer(const char *key, void *val, void *arg)
{
    route_drain_state *st = arg;
    if (route_drain(val))
        st->more = true;
}

static void route_idle_noop(uv_idle_t *h) {}

static void route_on_prepare(uv_prepare_t *h)
{
    gw *g = h->data;
    route_drain_state st = {false};
    if (g->mm && route_drain(g->mm))
        st.more = true;
    dh_table_each(&g->dealers, route_drain_dealer, &st);
    if (st.more)
        uv_idle_start(&g->drain_idle, route_idle_noop);
    else
        uv_idle_stop(&g->drain_idle);
}

bool route_mm_linked(gw *g)
{
    /* ZMQ_EVENTS may take the edge off ZMQ_FD; route_on_prepare drains every turn anyway */
    int ev = 0;
    size_t len = sizeof ev;
    return g->mm && zmq_getsockopt(g->mm->z, ZMQ_EVENTS, &ev, &len) == 0 && (ev & ZMQ_POLLOUT);
}

/* A DEALER with the gateway id, connected to endpoint and watched by the loop. */
static route_sock *route_sock_open(gw *g, const char *endpoint, bool immediate)
{
    int fd = -1;
    size_t fdlen = sizeof fd;
    int one = 1;
    route_sock *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->gw = g;
    snprintf(s->endpoint, sizeof s->endpoint, "%s", endpoint);
    s->z = dh_zmq_socket(g->zctx, ZMQ_DEALER, g->id, ROUTE_HWM);
    if (!s->z)
        goto err;
    /* ZMQ_IMMEDIATE: while the peer is down a send fails at once (we answer UNAVAILABLE)
     * instead of queueing a request to be delivered, stale, on reconnect. */
    if (immediate && zmq_setsockopt(s->z, ZMQ_IMMEDIATE, &one, sizeof one) < 0)
        goto err;
    if (zmq_connect(s->z, endpoint) < 0 || zmq_getsockopt(s->z, ZMQ_FD, &fd, &fdlen) < 0)
        goto err;
    if (uv_poll_init(g->loop, &s->poll, fd) < 0)
        goto err;
    s->poll.data = s;
    s->polling = true;
    uv_poll_start(&s->poll, UV_READABLE, route_on_poll);
    return s;
err:
    dh_error("cannot open a dealer to %s: %s", endpoint, zmq_strerror(errno));
    if (s->z)
        zmq_close(s->z);
    free(s);
    return NULL;
}

static void route_send_hello(gw *g)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__GatewayHello h = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    h.gateway_id = g->id;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &h;
    if (dh_zmq_send(g->mm->z, NULL, &m) < 0 && errno != EAGAIN)
        dh_warn("GatewayHello not sent: %s", zmq_strerror(errno));
    g->last_hello = uv_now(g->loop);
}

int route_init(gw *g)
{
    g->zctx = zmq_ctx_new();
    if (!g->zctx)
        goto err;
    if (dh_table_init(&g->dealers) < 0 || dh_table_init(&g->matches) < 0 ||
        dh_table_init(&g->pending) < 0 || dh_table_init(&g->commands) < 0)
        goto err;
    g->mm = route_sock_open(g, g->mm_endpoint, true);
    if (!g->mm)
        goto err;
    uv_prepare_init(g->loop, &g->drain_prepare);
    g->drain_prepare.data = g;
    uv_prepare_start(&g->drain_prepare, route_on_prepare);
    uv_idle_init(g->loop, &g->drain_idle);
    route_send_hello(g);
    return 0;
err:
    dh_error("cannot set up ZeroMQ (matchmaker %s)", g->mm_endpoint);
    return -1;
}

static void route_stop_sock(route_sock *s)
{
    if (s->polling)
        uv_close((uv_handle_t *)&s->poll, NULL);
    s->polling = false;
}

static void route_stop_dealer(const char *key, void *val, void *arg)
{
    route_stop_sock(val);
}

void route_stop(gw *g)
{
    if (g->mm)
        route_stop_sock(g->mm);
    dh_table_each(&g->dealers, route_stop_dealer, NULL);
    uv_close((uv_handle_t *)&g->drain_prepare, NULL);
    uv_close((uv_handle_t *)&g->drain_idle, NULL);
}

static void route_sock_free(void *p)
{
    route_sock *s = p;
    zmq_close(s->z);
    free(s);
}

void route_free(gw *g)
{
    if (g->mm)
        route_sock_free(g->mm);
    g->mm = NULL;
    if (g->dealers.buckets)
        dh_table_free(&g->dealers, route_sock_free);
    if (g->matches.buckets)
        dh_table_free(&g->matches, free);
    if (g->pending.buckets)
        dh_table_free(&g->pending, free);
    if (g->commands.buckets)
        dh_table_free(&g->commands, free);
    if (g->zctx)
        zmq_ctx_term(g->zctx);
    g->zctx = NULL;
}

/* ---- requests in flight ----------------------------------------------------------------
 * Every forwarded request is tracked by "player_id/cmd_id" until its answer passes, so
 * that a silent backend still yields exactly one Reply (UNAVAILABLE at the deadline). An
 * answered-by-timeout entry stays as a tombstone for GW_LATE_GRACE so that the real
 * answer, if it comes late, is dropped instead of becoming a second Reply. */

static void route_pending_key(char *out, size_t n, const char *player_id, uint64_t cmd_id)
{
    snprintf(out, n, "%s/%" PRIu64, player_id, cmd_id);
}

/* Start tracking (match_id: the command's match, or "" for a queue request); 0, or -1
 * when memory runs out. */
static int route_track(gw *g, dh_table *t, const char *player_id, uint64_t cmd_id,
                       const char *match_id, uint64_t timeout)
{
    char key[DH_TOKEN_ID_MAX + 32];
    route_pending *p = malloc(sizeof *p);
    if (!p)
        return -1;
    snprintf(p->player_id, sizeof p->player_id, "%s", player_id);
    if (strlen(match_id) < sizeof p->match_id)
        memcpy(p->match_id, match_id, strlen(match_id) + 1);
    else
        p->match_id[0] = '\0'; /* too long to remember: routed, never re-routed */
    p->cmd_id = cmd_id;
    p->deadline = uv_now(g->loop) + timeout;
    p->expired = false;
    route_pending_key(key, sizeof key, player_id, cmd_id);
    route_pending *old = dh_table_get(t, key); /* a reused cmd_id replaces its older request */
    if (dh_table_set(t, key, p) < 0) {
        free(p);
        return -1;
    }
    free(old);
    return 0;
}

/* Stop tracking and hand the entry over (the caller frees it); NULL when untracked. */
static route_pending *route_take(dh_table *t, const char *player_id, uint64_t cmd_id)
{
    char key[DH_TOKEN_ID_MAX + 32];
    route_pending_key(key, sizeof key, player_id, cmd_id);
    return dh_table_del(t, key);
}

/* Stop tracking; true when the request was waiting for this answer. */
static bool route_untrack(dh_table *t, const char *player_id, uint64_t cmd_id)
{
    route_pending *p = route_take(t, player_id, cmd_id);
    bool waiting = p && !p->expired;
    free(p);
    return waiting;
}

/* True when the request is tracked and not yet answered. */
static bool route_waiting(dh_table *t, const char *player_id, uint64_t cmd_id)
{
    char key[DH_TOKEN_ID_MAX + 32];
    route_pending_key(key, sizeof key, player_id, cmd_id);
    route_pending *p = dh_table_get(t, key);
    return p && !p->expired;
}

typedef struct {
    gw *gw;
    dh_table *t;
    uint64_t now;
    const char *who;
} route_expire_state;

static void route_expire_one(const char *key, void *val, void *arg)
{
    route_expire_state *st = arg;
    route_pending *p = val;
    if (p->deadline > st->now)
        return;
    if (p->expired) {
        dh_table_del(st->t, key);
        free(p);
        return;
    }
    char msg[64];
    snprintf(msg, sizeof msg, "the %s did not answer", st->who);
    gw_conn *c = session_find(st->gw, p->player_id);
    if (c)
        session_reply(c, p->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE, msg);
    dh_warn("%s did not answer %s in time", st->who, key);
    p->expired = true;
    p->deadline = st->now + GW_LATE_GRACE;
}

/* ---- queue requests (matchmaker) ------------------------------------------------------ */

static Deckhand__ErrorCode route_to_mm(gw *g, gw_conn *c, uint64_t cmd_id,
                                       const Deckhand__Internal__Internal *m)
{
    if (route_track(g, &g->pending, c->player_id, cmd_id, "", GW_MM_TIMEOUT) < 0)
        return DECKHAND__ERROR_CODE__INTERNAL;
    if (dh_zmq_send(g->mm->z, NULL, m) < 0) {
        dh_warn("matchmaker unreachable: %s", zmq_strerror(errno));
        route_untrack(&g->pending, c->player_id, cmd_id);
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    return DECKHAND__ERROR_CODE__OK;
}

Deckhand__ErrorCode route_queue_join(gw *g, gw_conn *c, uint64_t cmd_id,
                                     const Deckhand__QueueJoin *q)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = c->player_id;
    j.name = c->name;
    j.gateway_id = g->id;
    j.cmd_id = cmd_id;
    j.game = q->game;
    j.mode = q->mode;
    j.players = q->players;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    return route_to_mm(g, c, cmd_id, &m);
}

Deckhand__ErrorCode route_queue_leave(gw *g, gw_conn *c, uint64_t cmd_id,
                                      const Deckhand__QueueLeave *q)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueLeave l = DECKHAND__INTERNAL__QUEUE_LEAVE__INIT;
    l.player_id = c->player_id;
    l.gateway_id = g->id;
    l.cmd_id = cmd_id;
    l.game = q->game;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE;
    m.queue_leave = &l;
    return route_to_mm(g, c, cmd_id, &m);
}

void route_player_back(gw *g, gw_conn *c)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerBack b = DECKHAND__INTERNAL__PLAYER_BACK__INIT;
    b.player_id = c->player_id;
    b.gateway_id = g->id;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK;
    m.player_back = &b;
    if (g->mm && dh_zmq_send(g->mm->z, NULL, &m) < 0)
        dh_debug("PlayerBack for %s not sent: %s", c->player_id, zmq_strerror(errno));
}

static void route_on_queue_reply(gw *g, const Deckhand__Internal__QueueReply *r)
{
    if (!r->player_id || !route_untrack(&g->pending, r->player_id, r->cmd_id)) {
        dh_debug("unexpected or late QueueReply dropped");
        return;
    }
    gw_conn *c = session_find(g, r->player_id);
    if (!c)
        return;
    if (!r->ok)
        c->queued[0] = '\0'; /* a refused join queued nothing */
    if (r->ok || !r->error)
        session_reply(c, r->cmd_id,
                      r->ok ? DECKHAND__ERROR_CODE__OK : DECKHAND__ERROR_CODE__INTERNAL,
                      r->ok ? NULL : "queue request failed");
    else
        session_reply(c, r->cmd_id, r->error->code, r->error->message);
}

void route_tick(gw *g)
{
    uint64_t now = uv_now(g->loop);
    if (now - g->last_hello >= GW_HELLO_PERIOD)
        route_send_hello(g);
    route_expire_state mm = {g, &g->pending, now, "matchmaker"};
    dh_table_each(&g->pending, route_expire_one, &mm);
    route_expire_state wk = {g, &g->commands, now, "worker"};
    dh_table_each(&g->commands, route_expire_one, &wk);
}

/* ---- matches and workers -------------------------------------------------------------- */

static route_sock *route_dealer(gw *g, const char *endpoint)
{
    route_sock *s = dh_table_get(&g->dealers, endpoint);
    if (s || g->stopping)
        return s; /* no new socket once the loop's handles are closing */
    /* Not immediate: the first command (the attach) must wait for the connection. */
    s = route_sock_open(g, endpoint, false);
    if (!s)
        return NULL;
    if (dh_table_set(&g->dealers, endpoint, s) < 0) {
        uv_close((uv_handle_t *)&s->poll, (uv_close_cb)route_sock_free);
        return NULL;
    }
    dh_info("connected to worker endpoint %s", endpoint);
    return s;
}

/* Fill m and pc as a PlayerCommand: a Choose, a Resync, or (both NULL) an Away. */
static void route_pack_command(const char *match_id, const char *player_id, uint64_t cmd_id,
                               Deckhand__Choose *choose, Deckhand__Resync *resync,
                               Deckhand__Internal__Internal *m,
                               Deckhand__Internal__PlayerCommand *pc)
{
    static Deckhand__Internal__Away away = DECKHAND__INTERNAL__AWAY__INIT;
    pc->match_id = (char *)match_id;
    pc->player_id = (char *)player_id;
    pc->cmd_id = cmd_id;
    if (choose) {
        pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
        pc->choose = choose;
    } else if (resync) {
        pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
        pc->resync = resync;
    } else {
        pc->body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
        pc->away = &away;
    }
    m->body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m->player_command = pc;
}

/* Remember that match_id lives on worker_id at endpoint; returns its dealer or NULL. */
static route_sock *route_learn(gw *g, const char *match_id, const char *worker_id,
                               const char *endpoint)
{
    route_sock *d = route_dealer(g, endpoint);
    if (!d)
        return NULL;
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm) {
        rm = calloc(1, sizeof *rm);
        if (!rm || dh_table_set(&g->matches, match_id, rm) < 0) {
            free(rm);
            dh_error("out of memory recording match %s", match_id);
            return NULL;
        }
    }
    rm->dealer = d;
    snprintf(rm->worker_id, sizeof rm->worker_id, "%s", worker_id ? worker_id : "");
    return d;
}

/* Forget match_id's route, if it still goes through via (NULL: whatever it is). */
static void route_forget(gw *g, const char *match_id, const route_sock *via)
{
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm || (via && rm->dealer != via))
        return;
    dh_info("match %s: route to %s dropped", match_id, rm->worker_id);
    free(dh_table_del(&g->matches, match_id));
}

/* A command waiting for a Redis lookup: the packed Internal message and its owner.
 * cmd_id 0 is the gateway's own (an attach or an away): nobody waits for it. */
typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    uint64_t cmd_id;
    size_t len;
    uint8_t msg[];
} route_deferred;

/* The lookup answered: send the command, or give its one Reply now. */
static void route_on_lookup(gw *g, void *arg, lookup_result res, const char *worker_id,
                            const char *endpoint)
{
    route_deferred *d = arg;
    route_sock *dealer = NULL;
    const char *match_id = NULL;
    Deckhand__ErrorCode code = DECKHAND__ERROR_CODE__OK;
    Deckhand__Internal__Internal *m = deckhand__internal__internal__unpack(NULL, d->len, d->msg);
    if (!m)
        goto out;
    match_id = m->player_command->match_id;
    if (res == LOOKUP_FOUND) {
        dealer = route_learn(g, match_id, worker_id, endpoint);
        if (dealer)
            dh_info("match %s found in redis on %s (%s)", match_id, worker_id, endpoint);
    }
    if (d->cmd_id == 0) {
        if (!dealer || zmq_send(dealer->z, d->msg, d->len, ZMQ_DONTWAIT) < 0)
            dh_debug("match %s: command for %s dropped (no route)", match_id, d->player_id);
        goto out;
    }
    if (!route_waiting(&g->commands, d->player_id, d->cmd_id))
        goto out; /* timed out or refused meanwhile, or shutting down */
    if (res == LOOKUP_MISSING)
        code = DECKHAND__ERROR_CODE__UNKNOWN_MATCH;
    else if (res == LOOKUP_FAILED || !dealer)
        code = DECKHAND__ERROR_CODE__UNAVAILABLE;
    else if (zmq_send(dealer->z, d->msg, d->len, ZMQ_DONTWAIT) < 0)
        code =
            errno == EAGAIN ? DECKHAND__ERROR_CODE__OVERLOADED : DECKHAND__ERROR_CODE__UNAVAILABLE;
    else
        dh_counter_inc(&g->stats.commands);
    if (code != DECKHAND__ERROR_CODE__OK) {
        route_untrack(&g->commands, d->player_id, d->cmd_id);
        gw_conn *c = session_find(g, d->player_id);
        if (c)
            session_reply(c, d->cmd_id, code,
                          code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH
                              ? "no such match, or it has ended"
                              : "cannot reach the match's worker, retry later");
    }
out:
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    free(d);
}

/* No route: ask Redis, holding the packed command until it answers. */
static Deckhand__ErrorCode route_defer(gw *g, const char *player_id, uint64_t cmd_id,
                                       const Deckhand__Internal__Internal *m, const char *match_id)
{
    size_t len = deckhand__internal__internal__get_packed_size(m);
    route_deferred *d = malloc(sizeof *d + len);
    if (!d)
        return DECKHAND__ERROR_CODE__INTERNAL;
    snprintf(d->player_id, sizeof d->player_id, "%s", player_id);
    d->cmd_id = cmd_id;
    d->len = deckhand__internal__internal__pack(m, d->msg);
    lookup_match(g, match_id, route_on_lookup, d);
    return DECKHAND__ERROR_CODE__OK;
}

/* Send one of the gateway's own commands (cmd_id 0: a Resync that attaches the player,
 * or, with resync NULL, an Away) to match_id's worker, through Redis when there is no
 * route. Nothing answers it; a command that cannot be sent is dropped. */
static void route_send_own(gw *g, const char *match_id, const char *player_id,
                           Deckhand__Resync *resync)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    route_pack_command(match_id, player_id, 0, NULL, resync, &m, &pc);
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm) {
        if (!g->stopping && lookup_enabled(g))
            route_defer(g, player_id, 0, &m, match_id);
        return;
    }
    if (dh_zmq_send(rm->dealer->z, NULL, &m) < 0)
        dh_warn("%s of %s to %s not sent: %s", resync ? "attach" : "away", player_id, match_id,
                zmq_strerror(errno));
}

/* Remember the match a player is in (where a disconnect is reported). */
static void route_note_match(gw_conn *c, const char *match_id)
{
    if (strlen(match_id) < sizeof c->match)
        memcpy(c->match, match_id, strlen(match_id) + 1);
}

static void route_attach(gw *g, const char *match_id, const char *player_id)
{
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)match_id;
    route_send_own(g, match_id, player_id, &rs);
}

static void route_on_match_assigned(gw *g, const Deckhand__Internal__MatchAssigned *a)
{
    if (!a->match_id || !a->match_id[0] || !a->worker_endpoint || !a->worker_endpoint[0]) {
        dh_warn("MatchAssigned without match id or worker endpoint dropped");
        return;
    }
    route_sock *d = route_learn(g, a->match_id, a->worker_id, a->worker_endpoint);
    if (!d)
        return;
    dh_counter_inc(&g->stats.assignments);
    dh_info("match %s on %s (%s): player %s seat %u", a->match_id, a->worker_id, a->worker_endpoint,
            a->player_id, a->seat);

    gw_conn *c = session_find(g, a->player_id);
    if (c) {
        c->queued[0] = '\0';
        route_note_match(c, a->match_id);
        Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
        Deckhand__MatchFound f = DECKHAND__MATCH_FOUND__INIT;
        f.match_id = a->match_id;
        f.seat = a->seat;
        f.game = a->game;
        f.n_players = a->n_players;
        f.players = a->players;
        m.body_case = DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND;
        m.match_found = &f;
        session_send(c, &m);
    }
    /* Attach the player even when not connected here now: the worker learns the route
     * and a reconnecting client resyncs. One who left before the match formed (the
     * matchmaker had not heard of it yet) is reported away at once, so that the seat
     * gets its grace period and then its bot rather than stalling the match. */
    route_attach(g, a->match_id, a->player_id ? a->player_id : "");
    if (!c && a->player_id && a->player_id[0]) {
        dh_info("match %s: player %s is not connected here: reported away", a->match_id,
                a->player_id);
        route_send_own(g, a->match_id, a->player_id, NULL);
    }
}

typedef struct {
    gw *gw;
    const Deckhand__Internal__MatchMoved *mv;
    uint64_t now;
    size_t refused;
} route_moved_state;

static bool route_moved_has(const Deckhand__Internal__MatchMoved *mv, const char *player_id)
{
    for (size_t i = 0; i < mv->n_player_ids; i++)
        if (mv->player_ids[i] && !strcmp(mv->player_ids[i], player_id))
            return true;
    return false;
}

/* A command of a moved match's player went to the old worker, which will not answer it:
 * UNAVAILABLE now instead of at the timeout, and a tombstone for a late answer. */
static void route_moved_refuse(const char *key, void *val, void *arg)
{
    route_moved_state *st = arg;
    route_pending *p = val;
    if (p->expired || strcmp(p->match_id, st->mv->match_id) ||
        !route_moved_has(st->mv, p->player_id))
        return;
    gw_conn *c = session_find(st->gw, p->player_id);
    if (c)
        session_reply(c, p->cmd_id, DECKHAND__ERROR_CODE__UNAVAILABLE,
                      "match moved to another worker, resync");
    p->expired = true;
    p->deadline = st->now + GW_LATE_GRACE;
    st->refused++;
}

/* The matchmaker moved a match to another worker (takeover): re-route it, refuse the
 * commands in flight for its players, and attach the players connected here to the new
 * worker, which answers each with a full View and the pending decision. */
static void route_on_match_moved(gw *g, const Deckhand__Internal__MatchMoved *mv)
{
    if (!mv->match_id || !mv->match_id[0]) {
        dh_warn("MatchMoved without match id dropped");
        return;
    }
    /* Without an endpoint the route is only dropped: the attach below asks Redis. */
    route_forget(g, mv->match_id, NULL);
    if (mv->worker_endpoint && mv->worker_endpoint[0])
        route_learn(g, mv->match_id, mv->worker_id, mv->worker_endpoint);
    route_moved_state st = {g, mv, uv_now(g->loop), 0};
    dh_table_each(&g->commands, route_moved_refuse, &st);
    size_t attached = 0;
    for (size_t i = 0; i < mv->n_player_ids; i++) {
        if (!mv->player_ids[i] || !session_find(g, mv->player_ids[i]))
            continue;
        route_attach(g, mv->match_id, mv->player_ids[i]);
        attached++;
    }
    dh_info("match %s moved to %s (%s): %zu commands refused, %zu players re-attached",
            mv->match_id, mv->worker_id ? mv->worker_id : "?",
            mv->worker_endpoint ? mv->worker_endpoint : "", st.refused, attached);
}

void route_player_away(gw *g, gw_conn *c)
{
    if (c->queued[0]) {
        Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
        Deckhand__Internal__PlayerAway a = DECKHAND__INTERNAL__PLAYER_AWAY__INIT;
        a.player_id = c->player_id;
        a.gateway_id = g->id;
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY;
        m.player_away = &a;
        if (g->mm && dh_zmq_send(g->mm->z, NULL, &m) < 0)
            dh_debug("PlayerAway for %s not sent: %s", c->player_id, zmq_strerror(errno));
        c->queued[0] = '\0';
    }
    if (c->match[0]) {
        route_send_own(g, c->match, c->player_id, NULL);
        c->match[0] = '\0';
    }
}

Deckhand__ErrorCode route_player_command(gw *g, gw_conn *c, uint64_t cmd_id, const char *match_id,
                                         Deckhand__Choose *choose, Deckhand__Resync *resync)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    route_pack_command(match_id, c->player_id, cmd_id, choose, resync, &m, &pc);
    route_match *rm = dh_table_get(&g->matches, match_id);
    if (!rm && (!match_id[0] || !lookup_enabled(g)))
        return DECKHAND__ERROR_CODE__UNKNOWN_MATCH;
    if (route_track(g, &g->commands, c->player_id, cmd_id, match_id, GW_WORKER_TIMEOUT) < 0)
        return DECKHAND__ERROR_CODE__INTERNAL;
    route_note_match(c, match_id);
    if (!rm) {
        Deckhand__ErrorCode rc = route_defer(g, c->player_id, cmd_id, &m, match_id);
        if (rc != DECKHAND__ERROR_CODE__OK)
            route_untrack(&g->commands, c->player_id, cmd_id);
        return rc;
    }
    if (dh_zmq_send(rm->dealer->z, NULL, &m) < 0) {
        int err = errno;
        route_untrack(&g->commands, c->player_id, cmd_id);
        return err == EAGAIN ? DECKHAND__ERROR_CODE__OVERLOADED : DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    dh_counter_inc(&g->stats.commands);
    return DECKHAND__ERROR_CODE__OK;
}

/* A Reply closes its tracked command; one nobody waits for (a late answer, or the worker
 * answering the gateway's own attach) is dropped. A waited-for UNKNOWN_MATCH drops the
 * route it came through. */
static bool route_on_reply(gw *g, route_sock *from, const char *player_id, const Deckhand__Reply *r)
{
    route_pending *p = route_take(&g->commands, player_id, r->cmd_id);
    bool wanted = p && !p->expired;
    if (wanted && !r->ok)
        dh_ops_count_code(g->stats.replies, r->error ? (int)r->error->code : 0);
    if (wanted && !r->ok && r->error && r->error->code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH &&
        p->match_id[0])
        route_forget(g, p->match_id, from);
    free(p);
    if (!wanted)
        dh_debug("unexpected or late worker Reply for %s dropped", player_id);
    return wanted;
}

/* Only outputs that start like a Reply (field 1, length-delimited: 0x0a) or a GameOver
 * (field 7: 0x3a) are unpacked; the rest pass through untouched. */
static bool route_output_wanted(gw *g, route_sock *from, const char *player_id,
                                const ProtobufCBinaryData *msg)
{
    if (msg->len == 0 || (msg->data[0] != 0x0a && msg->data[0] != 0x3a))
        return true;
    Deckhand__ServerMessage *m = deckhand__server_message__unpack(NULL, msg->len, msg->data);
    if (!m)
        return false;
    bool wanted = true;
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY) {
        wanted = route_on_reply(g, from, player_id, m->reply);
    } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER) {
        gw_conn *c = session_find(g, player_id);
        if (c && m->game_over->match_id && !strcmp(c->match, m->game_over->match_id))
            c->match[0] = '\0'; /* over: a disconnect now concerns nobody */
        /* Over: its route goes too (a later command asks Redis, which says finished). */
        if (m->game_over->match_id)
            route_forget(g, m->game_over->match_id, from);
    }
    deckhand__server_message__free_unpacked(m, NULL);
    return wanted;
}

static void route_on_player_output(gw *g, route_sock *from,
                                   const Deckhand__Internal__PlayerOutput *o)
{
    if (!o->player_id)
        return;
    /* A worker that lost the match (it was frozen or cut off while the match moved) may
     * still speak of it: only the worker the match is routed to is heard. */
    route_match *rm = o->match_id && *o->match_id ? dh_table_get(&g->matches, o->match_id) : NULL;
    if (rm && rm->dealer != from) {
        dh_debug("output for %s about match %s from a worker that lost it: dropped", o->player_id,
                 o->match_id);
        return;
    }
    if (!route_output_wanted(g, from, o->player_id, &o->message))
        return;
    gw_conn *c = session_find(g, o->player_id);
    if (c)
        conn_send(c, o->message.data, o->message.len);
}

/* Control messages are accepted from the matchmaker only: a worker cannot assign or move
 * matches, and a worker dealer's drain (inside a walk of g->dealers) must not add one. */
static void route_handle(route_sock *from, Deckhand__Internal__Internal *m)
{
    gw *g = from->gw;
    bool mm = from == g->mm;
    switch (m->body_case) {
    case DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT:
        route_on_player_output(g, from, m->player_output);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY:
        if (mm)
            route_on_queue_reply(g, m->queue_reply);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED:
        if (mm)
            route_on_match_assigned(g, m->match_assigned);
        break;
    case DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED:
        if (mm)
            route_on_match_moved(g, m->match_moved);
        break;
    default:
        dh_debug("unexpected internal message %d from %s dropped", (int)m->body_case,
                 from->endpoint);
        break;
    }
}
