/*
 * test_matchmaker_state.c: the matchmaker's state in a real Redis (matchmaker/state.c,
 * lease.c, tickets.c): lines and placements survive into another matchmaker, only the
 * lease holder acts and a standby takes over when the lease lapses, a holder without
 * Redis changes nothing and stops at its lease's end, a repeated join keeps its place,
 * and away tickets are passed over, come back, or leave after their grace.
 *
 * Each rig is one matchmaker (mm_state on an inproc ROUTER) with two fake workers and
 * two fake gateways; the test moves the clock. Redis's own clock is real, so a lease
 * "expires" by the test shortening it in Redis.
 */
#include "control.h"
#include "dh_keys.h"
#include "lease.h"
#include "matchmaker.h"
#include "state.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <zmq.h>

#include "dh_test.h"

#define WALL0 1700000000000ULL /* the rigs' wall clock at now_ms 0 */

static int redis_port = -1;
static pid_t redis_pid = -1;
static char redis_url[64];

typedef struct {
    void *ctx, *wa, *wb, *gw, *gw2;
    mm_state mm;
} rig;

/* One command on a fresh connection; the reply (free it), or NULL. */
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

static long long rint_of(const char *fmt, const char *arg)
{
    redisReply *r = rcmd(fmt, arg);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return v;
}

static void flushall(void)
{
    redisReply *r = rcmd("FLUSHALL");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    freeReplyObject(r);
}

/* The stored ticket of a player (free it), or NULL. */
static Deckhand__Internal__TicketRecord *stored_ticket(const char *pid)
{
    redisReply *r = rcmd("HGET " DH_KEY_MM_TICKETS " %s", pid);
    Deckhand__Internal__TicketRecord *t = NULL;
    if (r && r->type == REDIS_REPLY_STRING)
        t = deckhand__internal__ticket_record__unpack(NULL, r->len, (const uint8_t *)r->str);
    if (r)
        freeReplyObject(r);
    return t;
}

static Deckhand__Internal__Internal *next_on(void *sock)
{
    zmq_pollitem_t it = {.socket = sock, .events = ZMQ_POLLIN};
    if (zmq_poll(&it, 1, 100) != 1)
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
    h.capacity = 100;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    send_msg(sock, &m);
}

static void send_beat(void *sock, bool draining)
{
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.draining = draining;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    m.worker_beat = &b;
    send_msg(sock, &m);
}

static void beats(rig *r)
{
    send_beat(r->wa, false);
    send_beat(r->wb, false);
}

static void send_join_as(void *gw, const char *pid, const char *name, uint64_t cmd,
                         uint32_t players)
{
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = (char *)pid;
    j.name = (char *)name;
    j.cmd_id = cmd;
    j.game = (char *)"dominion";
    j.players = players;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    send_msg(gw, &m);
}

static void send_join(void *gw, const char *pid, uint64_t cmd, uint32_t players)
{
    send_join_as(gw, pid, pid, cmd, players);
}

static void send_leave(void *gw, const char *pid, uint64_t cmd)
{
    Deckhand__Internal__QueueLeave l = DECKHAND__INTERNAL__QUEUE_LEAVE__INIT;
    l.player_id = (char *)pid;
    l.cmd_id = cmd;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE;
    m.queue_leave = &l;
    send_msg(gw, &m);
}

static void send_away(void *gw, const char *pid)
{
    Deckhand__Internal__PlayerAway a = DECKHAND__INTERNAL__PLAYER_AWAY__INIT;
    a.player_id = (char *)pid;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY;
    m.player_away = &a;
    send_msg(gw, &m);
}

static void send_back(void *gw, const char *pid)
{
    Deckhand__Internal__PlayerBack b = DECKHAND__INTERNAL__PLAYER_BACK__INIT;
    b.player_id = (char *)pid;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK;
    m.player_back = &b;
    send_msg(gw, &m);
}

static void send_started(void *sock, const char *match_id)
{
    Deckhand__Internal__MatchStarted s = DECKHAND__INTERNAL__MATCH_STARTED__INIT;
    s.match_id = (char *)match_id;
    s.ok = true;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED;
    m.match_started = &s;
    send_msg(sock, &m);
}

/* The next QueueReply at gw for cmd: 0 when ok, else its error code (its message in
 * why); -1 when none came. */
static int next_reply(void *gw, uint64_t cmd, char *why, size_t cap)
{
    Deckhand__Internal__Internal *m = next_on(gw);
    if (!m)
        return -1;
    int code = -1;
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY &&
        m->queue_reply->cmd_id == cmd) {
        code = m->queue_reply->ok ? 0 : (int)m->queue_reply->error->code;
        if (why)
            snprintf(why, cap, "%s", m->queue_reply->ok ? "" : m->queue_reply->error->message);
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    return code;
}

static int reply_code(void *gw, uint64_t cmd)
{
    return next_reply(gw, cmd, NULL, 0);
}

/* The StartMatch that reached either worker (sock says which), or NULL. */
static Deckhand__Internal__Internal *next_start(rig *r, void **sock)
{
    Deckhand__Internal__Internal *m = next_on(r->wa);
    *sock = r->wa;
    if (!m) {
        m = next_on(r->wb);
        *sock = r->wb;
    }
    if (m && m->body_case != DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH) {
        deckhand__internal__internal__free_unpacked(m, NULL);
        return NULL;
    }
    return m;
}

static void rig_open(rig *r, const char *mm_id, uint64_t now)
{
    char ep[64];
    memset(r, 0, sizeof *r);
    CU_ASSERT_EQUAL_FATAL(mm_init(&r->mm, mm_id, redis_url, 500), 0);
    r->mm.wall_base_ms = WALL0;
    r->ctx = zmq_ctx_new();
    snprintf(ep, sizeof ep, "inproc://%s", mm_id);
    r->mm.router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 1000);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm.router, ep), 0);
    r->wa = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-a", 1000);
    r->wb = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-b", 1000);
    r->gw = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-1", 1000);
    r->gw2 = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-2", 1000);
    void *socks[] = {r->wa, r->wb, r->gw, r->gw2};
    for (int i = 0; i < 4; i++)
        zmq_connect(socks[i], ep);
    send_hello(r->wa, "wk-a", "tcp://a:1");
    send_hello(r->wb, "wk-b", "tcp://b:1");
    Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
    m.gateway_hello = &gh;
    send_msg(r->gw, &m);
    send_msg(r->gw2, &m);
    pump(r, now);
    CU_ASSERT_EQUAL_FATAL(r->mm.reg.nworkers, 2);
}

/* Close without releasing the lease: as if the process died. */
static void rig_close(rig *r)
{
    void *socks[] = {r->wa, r->wb, r->gw, r->gw2, r->mm.router};
    for (int i = 0; i < 5; i++)
        zmq_close(socks[i]);
    zmq_ctx_term(r->ctx);
    mm_free(&r->mm);
}

/* The lease lapses in Redis (the clocks of the rigs are the tests', Redis's is real). */
static void lease_lapses(void)
{
    redisReply *r = rcmd("PEXPIRE " DH_KEY_MM_LEASE " 1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    freeReplyObject(r);
    usleep(20000);
}

static size_t line_with(const queue_set *s, const queue_key *k)
{
    for (size_t i = 0; i < queue_lines(s); i++) {
        const queue_key *o = queue_line_key(s, i);
        if (o->players == k->players && !strcmp(o->game, k->game) && !strcmp(o->mode, k->mode))
            return i;
    }
    return (size_t)-1;
}

static void test_mm_tickets_reload_into_the_same_lines_in_the_same_order(void)
{
    flushall();
    rig a, b;
    rig_open(&a, "mm-a", 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&a.mm, 0));
    /* draining workers: joins are accepted but nothing forms */
    send_beat(a.wa, true);
    send_beat(a.wb, true);
    pump(&a, 1);
    /* long names make records too big for Redis's compact hash encoding, whose HGETALL
     * would answer in insertion order: the load has to sort */
    char pid[16], name[QUEUE_NAME_MAX];
    for (int i = 0; i < 30; i++) {
        snprintf(pid, sizeof pid, "p%02d", i);
        snprintf(name, sizeof name, "%s-with-a-name-long-enough-to-leave-the-listpack", pid);
        send_join_as(i % 2 ? a.gw : a.gw2, pid, name, (uint64_t)i + 1, 2 + (uint32_t)(i % 3 == 0));
        pump(&a, 10 + (uint64_t)i / 4); /* ties in since_ms: seq decides */
        CU_ASSERT_EQUAL(reply_code(i % 2 ? a.gw : a.gw2, (uint64_t)i + 1), 0);
    }
    redisReply *enc = rcmd("OBJECT ENCODING " DH_KEY_MM_TICKETS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    CU_ASSERT_STRING_EQUAL(enc->str, "hashtable");
    freeReplyObject(enc);
    send_away(a.gw, "p05");
    pump(&a, 20);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 30);

    rig_open(&b, "mm-b", 20);
    CU_ASSERT_FALSE(mm_acting(&b.mm, 20));
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 0);
    CU_ASSERT_EQUAL_FATAL(mm_load(&b.mm, 20), 0);
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 30);
    size_t lines = 0;
    for (size_t l = 0; l < queue_lines(a.mm.queues); l++) {
        size_t n = queue_line_len(a.mm.queues, l);
        if (!n)
            continue;
        lines++;
        size_t bl = line_with(b.mm.queues, queue_line_key(a.mm.queues, l));
        CU_ASSERT_EQUAL_FATAL(queue_line_len(b.mm.queues, bl), n);
        for (size_t i = 0; i < n; i++) {
            const queue_ticket *x = queue_line_ticket(a.mm.queues, l, i);
            const queue_ticket *y = queue_line_ticket(b.mm.queues, bl, i);
            CU_ASSERT_STRING_EQUAL(x->player_id, y->player_id);
            CU_ASSERT_STRING_EQUAL(x->name, y->name);
            CU_ASSERT_STRING_EQUAL(x->gateway, y->gateway);
            CU_ASSERT_EQUAL(x->since_ms, y->since_ms);
            CU_ASSERT_EQUAL(x->seq, y->seq);
            CU_ASSERT_EQUAL(x->away_since_ms, y->away_since_ms);
        }
    }
    CU_ASSERT_EQUAL(lines, 2);
    CU_ASSERT_EQUAL(queue_find(b.mm.queues, "p05", NULL)->away_since_ms, WALL0 + 20);
    CU_ASSERT_EQUAL(queue_find(b.mm.queues, "p00", NULL)->since_ms, WALL0 + 10);
    CU_ASSERT_EQUAL(b.mm.next_seq, a.mm.next_seq);
    rig_close(&b);
    rig_close(&a);
}

/* p1 and p2 join at a; returns the StartMatch and the worker socket that got it. */
static Deckhand__Internal__Internal *place_two(rig *a, void **sock, uint64_t now)
{
    send_join(a->gw, "p1", 1, 2);
    send_join(a->gw, "p2", 2, 2);
    pump(a, now);
    CU_ASSERT_EQUAL(reply_code(a->gw, 1), 0);
    CU_ASSERT_EQUAL(reply_code(a->gw, 2), 0);
    return next_start(a, sock);
}

static void test_mm_stored_placement_is_resumed_with_its_start_match_sent_again(void)
{
    flushall();
    rig a, b;
    rig_open(&a, "mm-a", 0);
    void *wa_sock;
    Deckhand__Internal__Internal *first = place_two(&a, &wa_sock, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    const char *worker = wa_sock == a.wa ? "wk-a" : "wk-b";
    CU_ASSERT_EQUAL(rint_of("HLEN %s", DH_KEY_MM_PLACEMENTS), 1);
    CU_ASSERT_EQUAL(rint_of("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 1);
    rig_close(&a); /* dies without answer */
    lease_lapses();

    rig_open(&b, "mm-b", 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 0));
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 0);
    CU_ASSERT_EQUAL(b.mm.placements.n, 1);
    void *sock;
    Deckhand__Internal__Internal *again = next_start(&b, &sock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_PTR_EQUAL(sock, !strcmp(worker, "wk-a") ? b.wa : b.wb);
    const Deckhand__Internal__StartMatch *x = first->start_match, *y = again->start_match;
    CU_ASSERT_STRING_EQUAL(x->match_id, y->match_id);
    CU_ASSERT_EQUAL(x->seed, y->seed);
    CU_ASSERT_EQUAL_FATAL(y->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(y->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(y->seats[1]->player_id, "p2");
    CU_ASSERT_STRING_EQUAL(y->seats[0]->gateway_id, "gw-1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(y->settings);
    CU_ASSERT_EQUAL(y->settings->grace_ms, x->settings->grace_ms);
    CU_ASSERT_STRING_EQUAL(y->settings->abandon, "bot");
    /* a player of the placement cannot queue meanwhile */
    send_join(b.gw, "p1", 3, 2);
    pump(&b, 10);
    CU_ASSERT_EQUAL(reply_code(b.gw, 3), DECKHAND__ERROR_CODE__BAD_REQUEST);

    send_started(sock, y->match_id);
    pump(&b, 20);
    for (int i = 0; i < 2; i++) {
        Deckhand__Internal__Internal *m = next_on(b.gw);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        CU_ASSERT_STRING_EQUAL(m->match_assigned->match_id, y->match_id);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(b.mm.placements.n, 0);
    CU_ASSERT_EQUAL(rint_of("HLEN %s", DH_KEY_MM_PLACEMENTS), 0);
    CU_ASSERT_EQUAL(rint_of("HLEN %s", DH_KEY_MM_TICKETS), 0);
    deckhand__internal__internal__free_unpacked(first, NULL);
    deckhand__internal__internal__free_unpacked(again, NULL);
    rig_close(&b);
}

static void test_mm_resumed_placement_without_answer_goes_back_to_the_front(void)
{
    flushall();
    rig a, b;
    rig_open(&a, "mm-a", 0);
    void *sock;
    Deckhand__Internal__Internal *first = place_two(&a, &sock, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(first);
    send_join(a.gw, "p3", 3, 2);
    pump(&a, 20);
    CU_ASSERT_EQUAL(reply_code(a.gw, 3), 0);
    rig_close(&a);
    lease_lapses();

    rig_open(&b, "mm-b", 0);
    Deckhand__Internal__Internal *again = next_start(&b, &sock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    CU_ASSERT_TRUE(queue_has(b.mm.queues, "p3"));
    beats(&b);
    pump(&b, PLACEMENT_TIMEOUT_MS - 1);
    CU_ASSERT_EQUAL(b.mm.placements.n, 1);
    beats(&b);
    pump(&b, PLACEMENT_TIMEOUT_MS + 1);
    CU_ASSERT_EQUAL(rint_of("HEXISTS " DH_KEY_MM_PLACEMENTS " %s", first->start_match->match_id),
                    0);
    /* p1 and p2 were first in line again: they form the next match, p3 waits */
    void *other;
    Deckhand__Internal__Internal *retry = next_start(&b, &other);
    CU_ASSERT_PTR_NOT_NULL_FATAL(retry);
    CU_ASSERT_PTR_NOT_EQUAL(other, sock);
    CU_ASSERT_STRING_EQUAL(retry->start_match->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(retry->start_match->seats[1]->player_id, "p2");
    CU_ASSERT_TRUE(queue_has(b.mm.queues, "p3"));
    CU_ASSERT_EQUAL(rint_of("HLEN %s", DH_KEY_MM_TICKETS), 3);
    deckhand__internal__internal__free_unpacked(first, NULL);
    deckhand__internal__internal__free_unpacked(again, NULL);
    deckhand__internal__internal__free_unpacked(retry, NULL);
    rig_close(&b);
}

static void test_mm_only_the_lease_holder_acts(void)
{
    flushall();
    rig a, b;
    rig_open(&a, "mm-a", 0);
    rig_open(&b, "mm-b", 0);
    redisReply *r = rcmd("GET " DH_KEY_MM_LEASE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_STRING_EQUAL(r->str, "mm-a");
    freeReplyObject(r);
    CU_ASSERT_TRUE(mm_acting(&a.mm, 0));
    CU_ASSERT_FALSE(mm_acting(&b.mm, 0));
    char why[64];
    send_join(b.gw, "p1", 1, 2);
    pump(&b, 10);
    CU_ASSERT_EQUAL(next_reply(b.gw, 1, why, sizeof why), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(why, "standby matchmaker");
    send_leave(b.gw, "p1", 2);
    pump(&b, 10);
    CU_ASSERT_EQUAL(reply_code(b.gw, 2), DECKHAND__ERROR_CODE__UNAVAILABLE);
    send_join(a.gw, "p1", 3, 2);
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 3), 0);
    /* the standby stays one as long as the holder renews */
    for (uint64_t t = 1000; t <= 6000; t += 1000) {
        pump(&a, t);
        pump(&b, t);
        CU_ASSERT_TRUE(mm_acting(&a.mm, t));
        CU_ASSERT_FALSE(mm_acting(&b.mm, t));
    }
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 0);
    rig_close(&b);
    rig_close(&a);
}

static void test_mm_standby_takes_over_when_the_lease_lapses(void)
{
    flushall();
    rig a, b;
    rig_open(&a, "mm-a", 0);
    rig_open(&b, "mm-b", 0);
    send_join(a.gw, "p1", 1, 3);
    send_join(a.gw, "p2", 2, 3);
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 1), 0);
    CU_ASSERT_EQUAL(reply_code(a.gw, 2), 0);
    lease_lapses(); /* a stalls and does not renew */

    beats(&b);
    pump(&b, 1000);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 1000));
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 2);
    send_join(b.gw, "p3", 3, 3);
    pump(&b, 1010);
    CU_ASSERT_EQUAL(reply_code(b.gw, 3), 0);
    void *sock;
    Deckhand__Internal__Internal *m = next_start(&b, &sock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[2]->player_id, "p3");
    deckhand__internal__internal__free_unpacked(m, NULL);

    /* a wakes up: its renewal finds b's name and it steps down, forgetting its lines */
    pump(&a, 1000);
    CU_ASSERT_FALSE(mm_acting(&a.mm, 1000));
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    char why[64];
    send_join(a.gw, "p4", 4, 3);
    pump(&a, 1010);
    CU_ASSERT_EQUAL(next_reply(a.gw, 4, why, sizeof why), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(why, "standby matchmaker");
    rig_close(&b);
    rig_close(&a);
}

static void test_mm_deposed_holder_writes_nothing_and_steps_down(void)
{
    flushall();
    rig a;
    rig_open(&a, "mm-a", 0);
    send_join(a.gw, "p1", 1, 3);
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 1), 0);
    /* another matchmaker holds the lease now, and a has not renewed since */
    redisReply *r = rcmd("SET " DH_KEY_MM_LEASE " mm-other");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    freeReplyObject(r);
    char why[64];
    send_join(a.gw, "p2", 2, 3);
    pump(&a, 20);
    CU_ASSERT_EQUAL(next_reply(a.gw, 2, why, sizeof why), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(why, "store unavailable");
    CU_ASSERT_EQUAL(rint_of("HEXISTS " DH_KEY_MM_TICKETS " %s", "p2"), 0);
    CU_ASSERT_FALSE(mm_acting(&a.mm, 20));
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_EQUAL(rint_of("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 1);
    rig_close(&a);
}

static void test_mm_holder_without_redis_changes_nothing_and_stops_at_its_lease_end(void)
{
    flushall();
    rig a;
    rig_open(&a, "mm-a", 0);
    send_join(a.gw, "p1", 1, 3);
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 1), 0);
    dh_test_redis_stop(&redis_pid);

    char why[64];
    send_join(a.gw, "p2", 2, 3);
    pump(&a, 100);
    CU_ASSERT_EQUAL(next_reply(a.gw, 2, why, sizeof why), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(why, "store unavailable");
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p2"));
    send_leave(a.gw, "p1", 3);
    pump(&a, 110);
    CU_ASSERT_EQUAL(reply_code(a.gw, 3), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_TRUE(queue_has(a.mm.queues, "p1"));

    beats(&a);
    pump(&a, 1000); /* the renewal fails: still the holder until 0 + LEASE_MS */
    CU_ASSERT_TRUE(mm_acting(&a.mm, LEASE_MS - 1));
    beats(&a);
    pump(&a, LEASE_MS);
    CU_ASSERT_FALSE(mm_acting(&a.mm, LEASE_MS));
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    send_join(a.gw, "p2", 4, 3);
    pump(&a, LEASE_MS + 10);
    CU_ASSERT_EQUAL(next_reply(a.gw, 4, why, sizeof why), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_STRING_EQUAL(why, "standby matchmaker");

    CU_ASSERT_EQUAL_FATAL(dh_test_redis_start(redis_port, &redis_pid), 0);
    beats(&a);
    pump(&a, 5000);
    CU_ASSERT_TRUE(mm_acting(&a.mm, 5000));
    send_join(a.gw, "p2", 5, 3);
    pump(&a, 5010);
    CU_ASSERT_EQUAL(reply_code(a.gw, 5), 0);
    CU_ASSERT_EQUAL(rint_of("HEXISTS " DH_KEY_MM_TICKETS " %s", "p2"), 1);
    rig_close(&a);
}

static void test_mm_rejoin_in_the_same_line_keeps_the_place_and_moves_the_ticket(void)
{
    flushall();
    rig a;
    rig_open(&a, "mm-a", 0);
    send_join(a.gw, "p1", 1, 3);
    send_join(a.gw, "p2", 2, 3);
    send_away(a.gw, "p1");
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 1), 0);
    CU_ASSERT_EQUAL(reply_code(a.gw, 2), 0);
    CU_ASSERT_NOT_EQUAL(queue_find(a.mm.queues, "p1", NULL)->away_since_ms, 0);

    send_join(a.gw2, "p1", 3, 3);
    pump(&a, 20);
    CU_ASSERT_EQUAL(reply_code(a.gw2, 3), 0);
    size_t line;
    const queue_ticket *t = queue_find(a.mm.queues, "p1", &line);
    CU_ASSERT_PTR_EQUAL(queue_line_ticket(a.mm.queues, line, 0), t);
    CU_ASSERT_STRING_EQUAL(t->gateway, "gw-2");
    CU_ASSERT_EQUAL(t->away_since_ms, 0);
    CU_ASSERT_EQUAL(t->since_ms, WALL0 + 10);
    Deckhand__Internal__TicketRecord *rec = stored_ticket("p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_STRING_EQUAL(rec->gateway, "gw-2");
    CU_ASSERT_EQUAL(rec->away_since_ms, 0);
    CU_ASSERT_EQUAL(rec->seq, t->seq);
    deckhand__internal__ticket_record__free_unpacked(rec, NULL);

    /* another line: refused as before */
    send_join(a.gw2, "p1", 4, 4);
    pump(&a, 30);
    CU_ASSERT_EQUAL(reply_code(a.gw2, 4), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 2);

    send_join(a.gw, "p3", 5, 3);
    pump(&a, 40);
    CU_ASSERT_EQUAL(reply_code(a.gw, 5), 0);
    void *sock;
    Deckhand__Internal__Internal *m = next_start(&a, &sock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->gateway_id, "gw-2");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&a);
}

static void test_mm_away_ticket_is_passed_over_then_removed_after_its_grace(void)
{
    flushall();
    rig a;
    rig_open(&a, "mm-a", 0);
    char err[64];
    CU_ASSERT_EQUAL_FATAL(
        settings_parse_line(&a.mm.settings, "dominion casual grace_ms=500", err, sizeof err), 0);
    send_join(a.gw, "p1", 1, 2);
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 1), 0);
    send_away(a.gw2, "p1"); /* not the gateway holding the ticket: stale */
    pump(&a, 15);
    CU_ASSERT_EQUAL(queue_find(a.mm.queues, "p1", NULL)->away_since_ms, 0);
    send_away(a.gw, "p1");
    pump(&a, 20);
    Deckhand__Internal__TicketRecord *rec = stored_ticket("p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_EQUAL(rec->away_since_ms, WALL0 + 20);
    deckhand__internal__ticket_record__free_unpacked(rec, NULL);

    send_join(a.gw, "p2", 2, 2);
    pump(&a, 30);
    CU_ASSERT_EQUAL(reply_code(a.gw, 2), 0);
    void *sock;
    CU_ASSERT_PTR_NULL(next_start(&a, &sock));
    send_join(a.gw, "p3", 3, 2);
    pump(&a, 40);
    CU_ASSERT_EQUAL(reply_code(a.gw, 3), 0);
    Deckhand__Internal__Internal *m = next_start(&a, &sock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->player_id, "p2");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[1]->player_id, "p3");
    deckhand__internal__internal__free_unpacked(m, NULL);

    beats(&a);
    pump(&a, 20 + 499);
    CU_ASSERT_TRUE(queue_has(a.mm.queues, "p1"));
    pump(&a, 20 + 500);
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p1"));
    CU_ASSERT_EQUAL(rint_of("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 0);
    rig_close(&a);
}

static void test_mm_player_back_clears_away_and_the_match_goes_to_the_new_gateway(void)
{
    flushall();
    rig a;
    rig_open(&a, "mm-a", 0);
    send_join(a.gw, "p1", 1, 2);
    send_away(a.gw, "p1");
    pump(&a, 10);
    CU_ASSERT_EQUAL(reply_code(a.gw, 1), 0);
    send_back(a.gw2, "p1");
    send_back(a.gw2, "nobody"); /* no ticket: ignored */
    pump(&a, 20);
    const queue_ticket *t = queue_find(a.mm.queues, "p1", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->away_since_ms, 0);
    CU_ASSERT_STRING_EQUAL(t->gateway, "gw-2");
    Deckhand__Internal__TicketRecord *rec = stored_ticket("p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_STRING_EQUAL(rec->gateway, "gw-2");
    deckhand__internal__ticket_record__free_unpacked(rec, NULL);

    send_join(a.gw, "p2", 2, 2);
    pump(&a, 30);
    CU_ASSERT_EQUAL(reply_code(a.gw, 2), 0);
    void *sock;
    Deckhand__Internal__Internal *m = next_start(&a, &sock);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    send_started(sock, m->start_match->match_id);
    pump(&a, 40);
    Deckhand__Internal__Internal *to1 = next_on(a.gw2), *to2 = next_on(a.gw);
    CU_ASSERT_PTR_NOT_NULL_FATAL(to1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(to2);
    CU_ASSERT_STRING_EQUAL(to1->match_assigned->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(to2->match_assigned->player_id, "p2");
    deckhand__internal__internal__free_unpacked(to1, NULL);
    deckhand__internal__internal__free_unpacked(to2, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&a);
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
        {"mm_tickets_reload_into_the_same_lines_in_the_same_order",
         test_mm_tickets_reload_into_the_same_lines_in_the_same_order},
        {"mm_stored_placement_is_resumed_with_its_start_match_sent_again",
         test_mm_stored_placement_is_resumed_with_its_start_match_sent_again},
        {"mm_resumed_placement_without_answer_goes_back_to_the_front",
         test_mm_resumed_placement_without_answer_goes_back_to_the_front},
        {"mm_only_the_lease_holder_acts", test_mm_only_the_lease_holder_acts},
        {"mm_standby_takes_over_when_the_lease_lapses",
         test_mm_standby_takes_over_when_the_lease_lapses},
        {"mm_deposed_holder_writes_nothing_and_steps_down",
         test_mm_deposed_holder_writes_nothing_and_steps_down},
        {"mm_holder_without_redis_changes_nothing_and_stops_at_its_lease_end",
         test_mm_holder_without_redis_changes_nothing_and_stops_at_its_lease_end},
        {"mm_rejoin_in_the_same_line_keeps_the_place_and_moves_the_ticket",
         test_mm_rejoin_in_the_same_line_keeps_the_place_and_moves_the_ticket},
        {"mm_away_ticket_is_passed_over_then_removed_after_its_grace",
         test_mm_away_ticket_is_passed_over_then_removed_after_its_grace},
        {"mm_player_back_clears_away_and_the_match_goes_to_the_new_gateway",
         test_mm_player_back_clears_away_and_the_match_goes_to_the_new_gateway},
        {NULL, NULL},
    };
    int rc = dh_test_main("matchmaker_state", cases);
    dh_test_redis_stop(&redis_pid);
    return rc;
}
