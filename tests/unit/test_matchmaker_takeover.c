/*
 * test_matchmaker_takeover.c: moving the matches of dead workers (matchmaker/takeover.c)
 * against a real Redis: the move script's compare-and-move, the sweep that finds dead
 * and unknown workers' matches and sends AdoptMatch to a live worker, the MatchMoved
 * broadcast, and a refused or silent adoption moving the match again.
 *
 * The rig is one acting matchmaker on an inproc ROUTER with three fake workers (wk-a,
 * wk-b, wk-c) and two gateways; the test moves the clock and writes the match metadata
 * a worker would have written.
 */
#include "control.h"
#include "dh_keys.h"
#include "lease.h"
#include "matchmaker.h"
#include "takeover.h"

#include <stdarg.h>
#include <stdio.h>
#include <zmq.h>

#include "dh_test.h"

static int redis_port = -1;
static pid_t redis_pid = -1;
static char redis_url[64];

typedef struct {
    void *ctx, *w[3], *gw, *gw2;
    mm_state mm;
} rig;

static const char *const worker_ids[] = {"wk-a", "wk-b", "wk-c"};

static redisReply *rcmd(const char *fmt, ...)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    if (!c || c->err) {
        if (c)
            redisFree(c);
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(c, fmt, ap);
    va_end(ap);
    redisFree(c);
    return r;
}

static void rok(const char *fmt, ...)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    CU_ASSERT_FATAL(c && !c->err);
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(c, fmt, ap);
    va_end(ap);
    CU_ASSERT_FATAL(r && r->type != REDIS_REPLY_ERROR);
    freeReplyObject(r);
    redisFree(c);
}

/* A field of match:{id}, copied into out ("" when missing). */
static const char *meta(const char *id, const char *field, char *out, size_t cap)
{
    redisReply *r = rcmd("HGET match:{%s} %s", id, field);
    snprintf(out, cap, "%s", r && r->type == REDIS_REPLY_STRING ? r->str : "");
    if (r)
        freeReplyObject(r);
    return out;
}

static long long rint2(const char *fmt, const char *a, const char *b)
{
    redisReply *r = rcmd(fmt, a, b);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return v;
}

/* A running match as its worker would have stored it. */
static void put_match(const char *id, const char *worker, const char *status)
{
    rok("HSET match:{%s} game dominion worker %s epoch 1 status %s player_ids p1,p2 players A,B",
        id, worker, status);
    if (!strcmp(status, "running"))
        rok("HSET matches:running %s %s", id, worker);
}

static Deckhand__Internal__Internal *next_on(void *sock, long ms)
{
    zmq_pollitem_t it = {.socket = sock, .events = ZMQ_POLLIN};
    if (zmq_poll(&it, 1, ms) != 1)
        return NULL;
    Deckhand__Internal__Internal *m = NULL;
    return dh_zmq_recv(sock, NULL, &m) == 1 ? m : NULL;
}

static void pump(rig *r, uint64_t now)
{
    char id[DH_ZMQ_ID_MAX + 1];
    zmq_pollitem_t it = {.socket = r->mm.router, .events = ZMQ_POLLIN};
    while (zmq_poll(&it, 1, 20) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(r->mm.router, id, &m) != 1)
            continue;
        control_handle(&r->mm, id, m, now);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    mm_tick(&r->mm, now);
}

static void send_msg(void *sock, Deckhand__Internal__Internal *m)
{
    CU_ASSERT_EQUAL(dh_zmq_send(sock, NULL, m), 0);
}

static void send_hello(void *sock, const char *id, const char *endpoint)
{
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = (char *)"dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)id;
    h.endpoint = (char *)endpoint;
    h.n_games = 1;
    h.games = gis;
    h.capacity = 1000;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    send_msg(sock, &m);
}

/* Beats from the workers whose bit is set in mask (bit 0 = wk-a). */
static void beats(rig *r, unsigned mask)
{
    for (int i = 0; i < 3; i++) {
        if (!(mask & (1u << i)))
            continue;
        Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
        Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
        m.worker_beat = &b;
        send_msg(r->w[i], &m);
    }
}

static void send_adopted(void *sock, const char *match_id, bool ok, bool with_ids)
{
    char *ids[] = {(char *)"p1", (char *)"p2"};
    Deckhand__Internal__MatchAdopted a = DECKHAND__INTERNAL__MATCH_ADOPTED__INIT;
    a.match_id = (char *)match_id;
    a.ok = ok;
    a.error = (char *)(ok ? "" : "bundle missing");
    if (with_ids) {
        a.n_player_ids = 2;
        a.player_ids = ids;
    }
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED;
    m.match_adopted = &a;
    send_msg(sock, &m);
}

static void send_join(void *gw, const char *pid, uint64_t cmd)
{
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = (char *)pid;
    j.name = (char *)pid;
    j.cmd_id = cmd;
    j.game = (char *)"dominion";
    j.players = 2;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    send_msg(gw, &m);
}

/* Which worker (index) got an AdoptMatch for match_id next; -1 when none did. The
 * epoch goes to *epoch. */
static int adopter(rig *r, const char *match_id, uint64_t *epoch)
{
    for (int i = 0; i < 3; i++) {
        Deckhand__Internal__Internal *m = next_on(r->w[i], 50);
        if (!m)
            continue;
        int got = -1;
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADOPT_MATCH &&
            !strcmp(m->adopt_match->match_id, match_id)) {
            got = i;
            if (epoch)
                *epoch = m->adopt_match->epoch;
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
        if (got >= 0)
            return got;
    }
    return -1;
}

static void rig_open(rig *r)
{
    redisReply *fl = rcmd("FLUSHALL");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fl);
    freeReplyObject(fl);
    memset(r, 0, sizeof *r);
    CU_ASSERT_EQUAL_FATAL(mm_init(&r->mm, "mm-t", redis_url, 500), 0);
    r->ctx = zmq_ctx_new();
    r->mm.router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 10000);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm.router, "inproc://mm"), 0);
    for (int i = 0; i < 3; i++) {
        char ep[32];
        r->w[i] = dh_zmq_socket(r->ctx, ZMQ_DEALER, worker_ids[i], 10000);
        zmq_connect(r->w[i], "inproc://mm");
        snprintf(ep, sizeof ep, "tcp://%c:1", 'a' + i);
        send_hello(r->w[i], worker_ids[i], ep);
    }
    r->gw = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-1", 1000);
    r->gw2 = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-2", 1000);
    zmq_connect(r->gw, "inproc://mm");
    zmq_connect(r->gw2, "inproc://mm");
    Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &gh;
    send_msg(r->gw, &m);
    send_msg(r->gw2, &m);
    pump(r, 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&r->mm, 0));
    CU_ASSERT_EQUAL_FATAL(r->mm.reg.nworkers, 3);
}

static void rig_close(rig *r)
{
    for (int i = 0; i < 3; i++)
        zmq_close(r->w[i]);
    zmq_close(r->gw);
    zmq_close(r->gw2);
    zmq_close(r->mm.router);
    zmq_ctx_term(r->ctx);
    mm_free(&r->mm);
}

static void test_takeover_script_moves_only_from_the_named_worker(void)
{
    rig r;
    rig_open(&r);
    char v[64];
    put_match("m1", "wk-a", "running");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-b", "wk-c"), 0);
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), "wk-a");
    CU_ASSERT_STRING_EQUAL(meta("m1", "epoch", v, sizeof v), "1");
    CU_ASSERT_EQUAL(rint2("SCARD worker:{%s}:adopt%s", "wk-c", ""), 0);

    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-c"), 2);
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), "wk-c");
    CU_ASSERT_STRING_EQUAL(meta("m1", "epoch", v, sizeof v), "2");
    redisReply *run = rcmd("HGET matches:running m1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
    CU_ASSERT_STRING_EQUAL(run->str, "wk-c");
    freeReplyObject(run);
    CU_ASSERT_EQUAL(rint2("SISMEMBER worker:{%s}:adopt %s", "wk-c", "m1"), 1);
    /* the same move again finds it moved already */
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-b"), 0);
    CU_ASSERT_STRING_EQUAL(meta("m1", "epoch", v, sizeof v), "2");
    CU_ASSERT_EQUAL(rint2("SCARD worker:{%s}:adopt%s", "wk-b", ""), 0);
    rig_close(&r);
}

static void test_takeover_script_refuses_a_finished_match_and_a_lost_lease(void)
{
    rig r;
    rig_open(&r);
    char v[64];
    put_match("m1", "wk-a", "finished");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-b"), 0);
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), "wk-a");
    CU_ASSERT_STRING_EQUAL(meta("m1", "epoch", v, sizeof v), "1");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m-none", "wk-a", "wk-b"), 0);
    CU_ASSERT_EQUAL(rint2("EXISTS match:{%s}%s", "m-none", ""), 0);

    put_match("m2", "wk-a", "running");
    rok("SET " DH_KEY_MM_LEASE " mm-other");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m2", "wk-a", "wk-b"), -1);
    CU_ASSERT_STRING_EQUAL(meta("m2", "worker", v, sizeof v), "wk-a");
    CU_ASSERT_FALSE(mm_acting(&r.mm, 10));
    rig_close(&r);
}

static void test_takeover_sweep_moves_a_dead_workers_matches_to_live_workers(void)
{
    rig r;
    rig_open(&r);
    put_match("m1", "wk-a", "running");
    put_match("m2", "wk-a", "running");
    put_match("m3", "wk-b", "running");
    beats(&r, 7);
    pump(&r, 500);
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    beats(&r, 6); /* wk-a falls silent after 500 */
    pump(&r, 1000);
    beats(&r, 6);
    pump(&r, 2001); /* wk-a silent 1501 ms: dead */
    uint64_t e1 = 0, e2 = 0;
    int a1 = adopter(&r, "m1", &e1), a2 = adopter(&r, "m2", &e2);
    CU_ASSERT(a1 == 1 || a1 == 2);
    CU_ASSERT(a2 == 1 || a2 == 2);
    CU_ASSERT_NOT_EQUAL(a1, a2); /* pending load spreads them */
    CU_ASSERT_EQUAL(e1, 2);
    CU_ASSERT_EQUAL(e2, 2);
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), worker_ids[a1]);
    CU_ASSERT_STRING_EQUAL(meta("m3", "worker", v, sizeof v), "wk-b");
    CU_ASSERT_STRING_EQUAL(meta("m3", "epoch", v, sizeof v), "1");
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, worker_ids[a1])->pending, 1);

    /* the adopter answers: every gateway learns where m1 is now */
    send_adopted(r.w[a1], "m1", true, true);
    pump(&r, 2100);
    void *gws[] = {r.gw, r.gw2};
    for (int g = 0; g < 2; g++) {
        Deckhand__Internal__Internal *m = next_on(gws[g], 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED);
        const Deckhand__Internal__MatchMoved *mv = m->match_moved;
        CU_ASSERT_STRING_EQUAL(mv->match_id, "m1");
        CU_ASSERT_STRING_EQUAL(mv->worker_id, worker_ids[a1]);
        CU_ASSERT_STRING_EQUAL(mv->worker_endpoint, a1 == 1 ? "tcp://b:1" : "tcp://c:1");
        CU_ASSERT_EQUAL_FATAL(mv->n_player_ids, 2);
        CU_ASSERT_STRING_EQUAL(mv->player_ids[0], "p1");
        CU_ASSERT_STRING_EQUAL(mv->player_ids[1], "p2");
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, worker_ids[a1])->pending, 0);
    /* an adopter that does not name the players: the ids come from the match meta */
    send_adopted(r.w[a2], "m2", true, false);
    pump(&r, 2200);
    Deckhand__Internal__Internal *m = next_on(r.gw, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->match_moved->n_player_ids, 2);
    CU_ASSERT_STRING_EQUAL(m->match_moved->player_ids[1], "p2");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(r.mm.takeover.n, 0);
    rig_close(&r);
}

static void test_takeover_runs_in_the_tick_that_declares_the_worker_dead(void)
{
    rig r;
    rig_open(&r);
    put_match("m1", "wk-a", "running");
    beats(&r, 6);
    pump(&r, 1400); /* a sweep now: the next is due at 1900 */
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    beats(&r, 6);
    pump(&r, REGISTRY_DEAD_MS + 1);
    CU_ASSERT_NOT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_close(&r);
}

static void test_takeover_unknown_worker_counts_as_dead_only_after_the_startup_grace(void)
{
    rig r;
    rig_open(&r);
    put_match("m1", "wk-ghost", "running");
    beats(&r, 7);
    pump(&r, TAKEOVER_UNKNOWN_DEAD_MS - 1);
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    beats(&r, 7);
    pump(&r, TAKEOVER_UNKNOWN_DEAD_MS + TAKEOVER_SWEEP_MS);
    CU_ASSERT_NOT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_close(&r);
}

/* A player seated in a running match who queues again (its MatchFound reached nobody)
 * gets that match's assignment again, not a second match; once Redis says the match is
 * finished (its MatchEnded not here yet), the same join queues as usual. */
static void test_join_while_seated_in_a_running_match_gets_it_again(void)
{
    rig r;
    rig_open(&r);
    char *names[] = {"ann", "bob"};
    Deckhand__Internal__MatchAssigned ma = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    ma.player_id = "p2";
    ma.match_id = "m-s";
    ma.seat = 1;
    ma.game = "dominion";
    ma.n_players = 2;
    ma.players = names;
    ma.worker_id = "wk-a";
    ma.worker_endpoint = "tcp://a:1";
    CU_ASSERT_EQUAL_FATAL(seated_add(&r.mm.seated, &ma), 0);
    put_match("m-s", "wk-a", "running");
    beats(&r, 7);
    send_join(r.gw, "p2", 40);
    pump(&r, 100);
    Deckhand__Internal__Internal *m = next_on(r.gw, 200);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
    CU_ASSERT_TRUE(m->queue_reply->ok && m->queue_reply->cmd_id == 40);
    deckhand__internal__internal__free_unpacked(m, NULL);
    m = next_on(r.gw, 200);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
    CU_ASSERT_STRING_EQUAL(m->match_assigned->player_id, "p2");
    CU_ASSERT_STRING_EQUAL(m->match_assigned->match_id, "m-s");
    CU_ASSERT_EQUAL(m->match_assigned->seat, 1);
    CU_ASSERT_STRING_EQUAL(m->match_assigned->players[0], "ann");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p2"));

    rok("HSET match:{m-s} status finished");
    beats(&r, 7);
    send_join(r.gw, "p2", 41);
    pump(&r, 200);
    m = next_on(r.gw, 200);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
    CU_ASSERT_TRUE(m->queue_reply->ok && m->queue_reply->cmd_id == 41);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p2"));
    CU_ASSERT_PTR_NULL(seated_find(&r.mm.seated, "p2"));
    rig_close(&r);
}

/* How many HGETALLs Redis has served: the sweeps' reads of matches:running. */
static long long hgetall_calls(void)
{
    redisReply *r = rcmd("INFO commandstats");
    long long n = 0;
    const char *p = r && r->type == REDIS_REPLY_STRING ? r->str : NULL;
    if (p && (p = strstr(p, "cmdstat_hgetall:calls=")))
        n = strtoll(p + strlen("cmdstat_hgetall:calls="), NULL, 10);
    if (r)
        freeReplyObject(r);
    return n;
}

/* With nothing dead and the start-up grace over, matches:running is read only every
 * TAKEOVER_IDLE_SWEEP_MS, not every TAKEOVER_SWEEP_MS; a match of a worker nobody knows
 * is still moved, at that idle sweep. */
static void test_takeover_sweeps_rarely_when_nothing_is_dead(void)
{
    rig r;
    rig_open(&r);
    uint64_t t = TAKEOVER_UNKNOWN_DEAD_MS + TAKEOVER_SWEEP_MS + 10;
    for (uint64_t now = 500; now <= t; now += 500) { /* small steps: the lease is renewed */
        beats(&r, 7);
        pump(&r, now);
    }
    beats(&r, 7);
    pump(&r, t); /* the first sweep after the grace: nothing found */
    long long before = hgetall_calls();
    CU_ASSERT(before > 0);
    put_match("m1", "wk-ghost", "running");
    for (uint64_t dt = 500; dt < TAKEOVER_IDLE_SWEEP_MS; dt += 500) {
        beats(&r, 7);
        pump(&r, t + dt);
    }
    CU_ASSERT_EQUAL(hgetall_calls(), before);
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    beats(&r, 7);
    pump(&r, t + TAKEOVER_IDLE_SWEEP_MS);
    CU_ASSERT_EQUAL(hgetall_calls(), before + 1);
    CU_ASSERT_NOT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_close(&r);
}

static void test_takeover_refused_adoption_moves_the_match_again_elsewhere(void)
{
    rig r;
    rig_open(&r);
    put_match("m1", "wk-a", "running");
    beats(&r, 6);
    pump(&r, 1000);
    beats(&r, 6);
    pump(&r, 2000);
    uint64_t epoch = 0;
    int first = adopter(&r, "m1", &epoch);
    CU_ASSERT_FATAL(first == 1 || first == 2);
    send_adopted(r.w[first], "m1", false, false);
    beats(&r, 6);
    pump(&r, 2050);
    pump(&r, 2100);
    int second = adopter(&r, "m1", &epoch);
    CU_ASSERT_EQUAL(second, first == 1 ? 2 : 1);
    CU_ASSERT_EQUAL(epoch, 3);
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), worker_ids[second]);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, worker_ids[first])->pending, 0);
    rig_close(&r);
}

static void test_takeover_silent_adopter_loses_the_match_after_the_timeout(void)
{
    rig r;
    rig_open(&r);
    put_match("m1", "wk-a", "running");
    beats(&r, 6);
    pump(&r, 1000);
    beats(&r, 6);
    pump(&r, 2000);
    int first = adopter(&r, "m1", NULL);
    CU_ASSERT_FATAL(first == 1 || first == 2);
    uint64_t t = 2000;
    for (; t < 2000 + TAKEOVER_ADOPT_TIMEOUT_MS; t += 400) {
        beats(&r, 6);
        pump(&r, t);
    }
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    beats(&r, 6);
    pump(&r, 2000 + TAKEOVER_ADOPT_TIMEOUT_MS);
    pump(&r, 2000 + TAKEOVER_ADOPT_TIMEOUT_MS + 50);
    uint64_t epoch = 0;
    CU_ASSERT_EQUAL(adopter(&r, "m1", &epoch), first == 1 ? 2 : 1);
    CU_ASSERT_EQUAL(epoch, 3);
    rig_close(&r);
}

static void test_takeover_of_an_unanswered_placement_assigns_its_players_to_the_adopter(void)
{
    rig r;
    rig_open(&r);
    send_join(r.gw, "p1", 1);
    send_join(r.gw, "p2", 2);
    pump(&r, 10);
    for (int i = 0; i < 2; i++) {
        Deckhand__Internal__Internal *qr = next_on(r.gw, 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(qr);
        CU_ASSERT_EQUAL(qr->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
        deckhand__internal__internal__free_unpacked(qr, NULL);
    }
    int x = -1;
    char match_id[64] = "";
    for (int i = 0; i < 3 && x < 0; i++) {
        Deckhand__Internal__Internal *m = next_on(r.w[i], 50);
        if (m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH) {
            x = i;
            snprintf(match_id, sizeof match_id, "%s", m->start_match->match_id);
        }
        if (m)
            deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_FATAL(x >= 0);
    /* the worker created the match, then died before answering */
    put_match(match_id, worker_ids[x], "running");
    unsigned others = 7u & ~(1u << x);
    beats(&r, others);
    pump(&r, 1000);
    beats(&r, others);
    pump(&r, 1600);
    uint64_t epoch = 0;
    int y = adopter(&r, match_id, &epoch);
    CU_ASSERT_FATAL(y >= 0 && y != x);
    CU_ASSERT_EQUAL(epoch, 2);
    /* past the placement's deadline: it waits for the adopter instead of requeueing */
    beats(&r, others);
    pump(&r, 10 + PLACEMENT_TIMEOUT_MS + 100);
    CU_ASSERT_EQUAL(r.mm.placements.n, 1);
    CU_ASSERT_PTR_NOT_NULL(placement_find(&r.mm.placements, match_id));
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    send_adopted(r.w[y], match_id, true, true);
    pump(&r, 10 + PLACEMENT_TIMEOUT_MS + 200);
    for (uint32_t seat = 0; seat < 2; seat++) {
        Deckhand__Internal__Internal *m = next_on(r.gw, 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        CU_ASSERT_STRING_EQUAL(m->match_assigned->match_id, match_id);
        CU_ASSERT_EQUAL(m->match_assigned->seat, seat);
        CU_ASSERT_STRING_EQUAL(m->match_assigned->worker_id, worker_ids[y]);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_PTR_NULL(next_on(r.gw2, 50)); /* no MatchMoved: nobody knew the match yet */
    CU_ASSERT_EQUAL(r.mm.placements.n, 0);
    CU_ASSERT_EQUAL(r.mm.takeover.n, 0);
    CU_ASSERT_EQUAL(rint2("HLEN mm:placements%s%s", "", ""), 0);
    CU_ASSERT_EQUAL(rint2("HLEN mm:tickets%s%s", "", ""), 0);
    rig_close(&r);
}

static void test_takeover_moves_at_most_a_slice_per_sweep(void)
{
    rig r;
    rig_open(&r);
    int total = TAKEOVER_MAX_MOVES + 50;
    for (int i = 0; i < total; i++) {
        char id[16];
        snprintf(id, sizeof id, "m%03d", i);
        put_match(id, "wk-a", "running");
    }
    beats(&r, 6);
    pump(&r, 1000);
    beats(&r, 6);
    pump(&r, 2000);
    long long b = rint2("SCARD worker:{%s}:adopt%s", "wk-b", "");
    long long c = rint2("SCARD worker:{%s}:adopt%s", "wk-c", "");
    CU_ASSERT_EQUAL(b + c, TAKEOVER_MAX_MOVES);
    CU_ASSERT_EQUAL(b, TAKEOVER_MAX_MOVES / 2);
    beats(&r, 6);
    pump(&r, 2000 + TAKEOVER_SWEEP_MS);
    b = rint2("SCARD worker:{%s}:adopt%s", "wk-b", "");
    c = rint2("SCARD worker:{%s}:adopt%s", "wk-c", "");
    CU_ASSERT_EQUAL(b + c, total);
    CU_ASSERT_EQUAL(r.mm.takeover.n, (size_t)total);
    rig_close(&r);
}

int main(void)
{
    redis_port = dh_test_free_port();
    if (redis_port < 0 || dh_test_redis_start(redis_port, &redis_pid) < 0) {
        fprintf(stderr, "cannot start redis-server\n");
        return 1;
    }
    snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", redis_port);
    static const dh_test_case cases[] = {
        {"takeover_script_moves_only_from_the_named_worker",
         test_takeover_script_moves_only_from_the_named_worker},
        {"takeover_script_refuses_a_finished_match_and_a_lost_lease",
         test_takeover_script_refuses_a_finished_match_and_a_lost_lease},
        {"takeover_sweep_moves_a_dead_workers_matches_to_live_workers",
         test_takeover_sweep_moves_a_dead_workers_matches_to_live_workers},
        {"takeover_runs_in_the_tick_that_declares_the_worker_dead",
         test_takeover_runs_in_the_tick_that_declares_the_worker_dead},
        {"takeover_unknown_worker_counts_as_dead_only_after_the_startup_grace",
         test_takeover_unknown_worker_counts_as_dead_only_after_the_startup_grace},
        {"takeover_refused_adoption_moves_the_match_again_elsewhere",
         test_takeover_refused_adoption_moves_the_match_again_elsewhere},
        {"takeover_silent_adopter_loses_the_match_after_the_timeout",
         test_takeover_silent_adopter_loses_the_match_after_the_timeout},
        {"takeover_of_an_unanswered_placement_assigns_its_players_to_the_adopter",
         test_takeover_of_an_unanswered_placement_assigns_its_players_to_the_adopter},
        {"takeover_moves_at_most_a_slice_per_sweep", test_takeover_moves_at_most_a_slice_per_sweep},
        {"join_while_seated_in_a_running_match_gets_it_again",
         test_join_while_seated_in_a_running_match_gets_it_again},
        {"takeover_sweeps_rarely_when_nothing_is_dead",
         test_takeover_sweeps_rarely_when_nothing_is_dead},
        {NULL, NULL},
    };
    int rc = dh_test_main("matchmaker_takeover", cases);
    dh_test_redis_stop(&redis_pid);
    return rc;
}
