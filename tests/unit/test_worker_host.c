/*
 * test_worker_host.c: the worker's host (worker/host.c) on the real engine and the real
 * Dominion bundle, with a redis-server started here on a free port, and ZeroMQ inproc
 * sockets standing in for the matchmaker and a gateway. It pins the worker's promises:
 * a match exists in Redis before MatchStarted; a Choose's outputs come only after Redis
 * holds it, in order Reply, events, views, decision; a retried cmd_id is answered, not
 * applied again; errors change nothing; a Redis outage is UNAVAILABLE with the engine
 * rolled back, and the worker recovers; a finished match reaches every seat, Redis and
 * the matchmaker; a command overtaken by the player's newer connection through another
 * gateway is refused.
 */
#include "bundles.h"
#include "host.h"
#include "store.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

#include "dh_test.h"

static pid_t redis_pid = -1;
static int redis_port;
static char redis_url[64];

/* ---- a worker host between a fake matchmaker and a fake gateway ------------------- */

typedef struct {
    void *ctx, *router, *dealer, *mm, *gw;
    engine_bundle *bundle;
    store st;
    host h;
} rig;

static void rig_open(rig *r)
{
    memset(r, 0, sizeof *r);
    engine_error ee = {0};
    r->bundle = engine_bundle_load(dh_test_path("scripts"), NULL, &ee);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->bundle);
    CU_ASSERT_EQUAL_FATAL(store_init(&r->st, redis_url, 500), 0);
    r->ctx = zmq_ctx_new();
    r->router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 10000);
    r->mm = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 10000);
    r->dealer = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-t", 10000);
    r->gw = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-t", 10000);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->router, "inproc://worker"), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm, "inproc://mm"), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(r->dealer, "inproc://mm"), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(r->gw, "inproc://worker"), 0);
    /* the ROUTER learns the gateway's identity from its first message */
    Deckhand__Internal__Internal hi = DECKHAND__INTERNAL__INTERNAL__INIT;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_send(r->gw, NULL, &hi), 0);
    zmq_pollitem_t it = {.socket = r->router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL_FATAL(zmq_poll(&it, 1, 1000), 1);
    char id[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = NULL;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_recv(r->router, id, &m), 1);
    deckhand__internal__internal__free_unpacked(m, NULL);
    host_init(&r->h, "wk-t", "inproc://worker", r->router, r->dealer, r->bundle, &r->st, 10);
}

static void rig_close(rig *r)
{
    host_free(&r->h);
    zmq_close(r->router);
    zmq_close(r->dealer);
    zmq_close(r->mm);
    zmq_close(r->gw);
    zmq_ctx_term(r->ctx);
    engine_bundle_free(r->bundle);
    store_close(&r->st);
}

/* The next control message the matchmaker got, or NULL after 500 ms. */
static Deckhand__Internal__Internal *mm_next(rig *r)
{
    zmq_pollitem_t it = {.socket = r->mm, .events = ZMQ_POLLIN};
    if (zmq_poll(&it, 1, 500) != 1)
        return NULL;
    char id[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = NULL;
    return dh_zmq_recv(r->mm, id, &m) == 1 ? m : NULL;
}

typedef struct {
    Deckhand__ServerMessage *msg[512];
    char player[512][HOST_ID_MAX];
    size_t n;
} outbox;

/* Everything the gateway socket z received, decoded, in order. */
static void sock_drain(void *z, outbox *o)
{
    o->n = 0;
    zmq_pollitem_t it = {.socket = z, .events = ZMQ_POLLIN};
    while (o->n < 512 && zmq_poll(&it, 1, 5) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(z, NULL, &m) != 1)
            continue;
        CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT);
        snprintf(o->player[o->n], HOST_ID_MAX, "%s", m->player_output->player_id);
        o->msg[o->n] = deckhand__server_message__unpack(NULL, m->player_output->message.len,
                                                        m->player_output->message.data);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o->msg[o->n]);
        o->n++;
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
}

static void gw_drain(rig *r, outbox *o)
{
    sock_drain(r->gw, o);
}

static void outbox_free(outbox *o)
{
    for (size_t i = 0; i < o->n; i++)
        deckhand__server_message__free_unpacked(o->msg[i], NULL);
    o->n = 0;
}

static const Deckhand__ServerMessage *outbox_find(const outbox *o, const char *player, int body)
{
    for (size_t i = 0; i < o->n; i++)
        if ((int)o->msg[i]->body_case == body && !strcmp(o->player[i], player))
            return o->msg[i];
    return NULL;
}

static const char *const players[] = {"p-ann", "p-bob"};

static void start_match_set(rig *r, const char *id, Deckhand__Internal__QueueSettings *set)
{
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    s0.player_id = (char *)players[0];
    s0.name = (char *)"ann";
    s1.player_id = (char *)players[1];
    s1.name = (char *)"bob";
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)id;
    sm.game = (char *)"dominion";
    sm.seed = 42;
    sm.n_seats = 2;
    sm.seats = seats;
    sm.settings = set;
    host_start_match(&r->h, &sm, dh_test_now_ms());
}

static void start_match(rig *r, const char *id)
{
    start_match_set(r, id, NULL);
}

/* A Choose (or, with choose NULL, a Resync) through the gateway whose identity is via. */
static void command_via(rig *r, const char *via, const char *match, const char *player,
                        uint64_t cmd_id, const Deckhand__Choose *choose)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    pc.match_id = (char *)match;
    pc.player_id = (char *)player;
    pc.cmd_id = cmd_id;
    if (choose) {
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
        pc.choose = (Deckhand__Choose *)choose;
    } else {
        rs.match_id = (char *)match;
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
        pc.resync = &rs;
    }
    host_command(&r->h, via, &pc, dh_test_now_ms());
}

static void command(rig *r, const char *match, const char *player, uint64_t cmd_id,
                    const Deckhand__Choose *choose)
{
    command_via(r, "gw-t", match, player, cmd_id, choose);
}

static void away_via(rig *r, const char *via, const char *match, const char *player)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Internal__Away away = DECKHAND__INTERNAL__AWAY__INIT;
    pc.match_id = (char *)match;
    pc.player_id = (char *)player;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
    pc.away = &away;
    host_command(&r->h, via, &pc, dh_test_now_ms());
}

/* A second gateway, gw-u, known to the worker's ROUTER. */
static void *second_gateway(rig *r)
{
    void *z = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-u", 10000);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(z, "inproc://worker"), 0);
    Deckhand__Internal__Internal hi = DECKHAND__INTERNAL__INTERNAL__INIT;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_send(z, NULL, &hi), 0);
    zmq_pollitem_t it = {.socket = r->router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL_FATAL(zmq_poll(&it, 1, 1000), 1);
    char id[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = NULL;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_recv(r->router, id, &m), 1);
    deckhand__internal__internal__free_unpacked(m, NULL);
    return z;
}

/* A legal answer to the pending decision: its first max(min,1) options (or none). */
static void legal_choice(const engine_decision *d, Deckhand__Choose *c, uint32_t *ids)
{
    deckhand__choose__init(c);
    size_t k = d->min ? d->min : (d->max && d->noptions ? 1 : 0);
    for (size_t i = 0; i < k; i++)
        ids[i] = d->options[i].id;
    c->decision_id = d->decision_id;
    c->option_ids = ids;
    c->n_option_ids = k;
}

static char *hget(const char *key, const char *field)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    redisReply *rep = redisCommand(c, "HGET %s %s", key, field);
    char *v = rep && rep->type == REDIS_REPLY_STRING ? strdup(rep->str) : NULL;
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
    return v;
}

static long long redis_int(const char *cmd, const char *key)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    redisReply *rep = redisCommand(c, "%s %s", cmd, key);
    long long v = rep && rep->type == REDIS_REPLY_INTEGER ? rep->integer : -1;
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
    return v;
}

static void redis_do(const char *fmt, const char *a, const char *b)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    redisReply *rep = redisCommand(c, fmt, a, b);
    CU_ASSERT_TRUE(rep && rep->type != REDIS_REPLY_ERROR);
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
}

/* Start m-ID with settings, check MatchStarted, attach both players. */
static host_match *started_set(rig *r, const char *id, Deckhand__Internal__QueueSettings *set)
{
    start_match_set(r, id, set);
    CU_ASSERT_PTR_NULL(mm_next(r)); /* nothing before Redis acknowledged */
    host_flush(&r->h, dh_test_now_ms());
    Deckhand__Internal__Internal *m = mm_next(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED);
    CU_ASSERT_TRUE(m->match_started->ok);
    CU_ASSERT_STRING_EQUAL(m->match_started->match_id, id);
    deckhand__internal__internal__free_unpacked(m, NULL);
    command(r, id, players[0], 0, NULL);
    command(r, id, players[1], 0, NULL);
    outbox o;
    gw_drain(r, &o);
    outbox_free(&o);
    host_match *hm = host_find(&r->h, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    return hm;
}

static host_match *started(rig *r, const char *id)
{
    return started_set(r, id, NULL);
}

/* Answer n decisions of hm legally, each flushed. */
static void play(rig *r, host_match *hm, int n, uint64_t *cmd)
{
    outbox o;
    for (int i = 0; i < n; i++) {
        const engine_decision *d = engine_match_decision(hm->m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        Deckhand__Choose c;
        uint32_t ids[64];
        legal_choice(d, &c, ids);
        command(r, hm->id, players[d->seat], (*cmd)++, &c);
        host_flush(&r->h, dh_test_now_ms());
        gw_drain(r, &o);
        outbox_free(&o);
    }
}

static void test_worker_start_writes_redis_before_match_started(void)
{
    rig r;
    rig_open(&r);
    start_match(&r, "m-start");
    CU_ASSERT_PTR_NULL(mm_next(&r));
    host_flush(&r.h, dh_test_now_ms());
    Deckhand__Internal__Internal *m = mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->match_started->ok);
    deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = hget("match:{m-start}", "status");
    char *names = hget("match:{m-start}", "players");
    char *ids = hget("match:{m-start}", "player_ids");
    char *worker = hget("match:{m-start}", "worker");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "running");
    CU_ASSERT_STRING_EQUAL(names ? names : "", "ann,bob");
    CU_ASSERT_STRING_EQUAL(ids ? ids : "", "p-ann,p-bob");
    CU_ASSERT_STRING_EQUAL(worker ? worker : "", "wk-t");
    free(status);
    free(names);
    free(ids);
    free(worker);
    CU_ASSERT_TRUE(redis_int("STRLEN", "match:{m-start}:snap") > 0);
    rig_close(&r);
}

static void test_worker_resync_sends_reply_view_and_decision_to_the_decider(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-resync");
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    const char *decider = players[d->seat], *other = players[1 - d->seat];
    command(&r, "m-resync", decider, 9, NULL);
    command(&r, "m-resync", other, 10, NULL);
    outbox o;
    gw_drain(&r, &o);
    const Deckhand__ServerMessage *rep =
        outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 9 && rep->reply->ok);
    const Deckhand__ServerMessage *v =
        outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
    CU_ASSERT_TRUE(v && !strcmp(v->view->match_id, "m-resync"));
    const Deckhand__ServerMessage *dr =
        outbox_find(&o, decider, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(dr && dr->decision->decision_id == d->decision_id &&
                   !strcmp(dr->decision->match_id, "m-resync"));
    CU_ASSERT_PTR_NOT_NULL(outbox_find(&o, other, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    CU_ASSERT_PTR_NULL(outbox_find(&o, other, DECKHAND__SERVER_MESSAGE__BODY_DECISION));
    outbox_free(&o);
    rig_close(&r);
}

static void test_worker_choose_releases_outputs_after_redis_in_order(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-choose");
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = players[d->seat];
    Deckhand__Choose c;
    uint32_t ids[64];
    legal_choice(d, &c, ids);
    uint64_t decision = d->decision_id;
    command(&r, "m-choose", decider, 21, &c);
    outbox o;
    gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 0); /* held until the flush */
    outbox_free(&o);
    host_flush(&r.h, dh_test_now_ms());
    gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n >= 3);
    CU_ASSERT_EQUAL(o.msg[0]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(o.msg[0]->reply->cmd_id == 21 && o.msg[0]->reply->ok);
    CU_ASSERT_STRING_EQUAL(o.player[0], decider);
    /* views after events, the decision request last */
    size_t first_view = o.n;
    for (size_t i = 0; i < o.n; i++) {
        if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW && first_view == o.n)
            first_view = i;
        if (o.msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT)
            CU_ASSERT_TRUE(i < first_view);
    }
    CU_ASSERT_EQUAL(o.msg[o.n - 1]->body_case, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(o.msg[o.n - 1]->decision->decision_id > decision);
    outbox_free(&o);
    /* Redis holds it: a log entry, or a new snapshot with an empty log */
    long long logn = redis_int("LLEN", "match:{m-choose}:log");
    CU_ASSERT_TRUE(logn == (long long)engine_match_log_len(hm->m));
    rig_close(&r);
}

static void test_worker_retried_cmd_id_is_answered_not_applied_again(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-retry");
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = players[d->seat];
    Deckhand__Choose c;
    uint32_t ids[64];
    legal_choice(d, &c, ids);
    command(&r, "m-retry", decider, 77, &c);
    host_flush(&r.h, dh_test_now_ms());
    outbox o;
    gw_drain(&r, &o);
    outbox_free(&o);
    uint64_t hash = engine_match_hash(hm->m);
    command(&r, "m-retry", decider, 77, &c);
    host_flush(&r.h, dh_test_now_ms());
    gw_drain(&r, &o);
    CU_ASSERT_EQUAL(o.n, 1);
    CU_ASSERT_TRUE(o.n && o.msg[0]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY &&
                   o.msg[0]->reply->cmd_id == 77 && o.msg[0]->reply->ok);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    outbox_free(&o);
    rig_close(&r);
}

static void test_worker_errors_change_nothing(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-err");
    const engine_decision *d = engine_match_decision(hm->m);
    const char *other = players[1 - d->seat];
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose c;
    uint32_t ids[64];
    legal_choice(d, &c, ids);
    command(&r, "m-err", other, 1, &c);        /* not their turn */
    command(&r, "m-nope", players[0], 2, &c);  /* no such match */
    command(&r, "m-err", "p-stranger", 3, &c); /* not seated */
    Deckhand__Choose stale = c;
    stale.decision_id = d->decision_id + 100;
    command(&r, "m-err", players[d->seat], 4, &stale);
    host_flush(&r.h, dh_test_now_ms());
    outbox o;
    gw_drain(&r, &o);
    CU_ASSERT_EQUAL_FATAL(o.n, 4);
    int want[] = {DECKHAND__ERROR_CODE__NOT_YOUR_TURN, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                  DECKHAND__ERROR_CODE__UNKNOWN_MATCH, DECKHAND__ERROR_CODE__ILLEGAL_CHOICE};
    for (size_t i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(o.msg[i]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
        CU_ASSERT_FALSE(o.msg[i]->reply->ok);
        CU_ASSERT_EQUAL(o.msg[i]->reply->cmd_id, i + 1);
        CU_ASSERT_TRUE(o.msg[i]->reply->error && (int)o.msg[i]->reply->error->code == want[i]);
    }
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    outbox_free(&o);
    rig_close(&r);
}

static void test_worker_redis_outage_is_unavailable_and_rolled_back(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-down");
    const engine_decision *d = engine_match_decision(hm->m);
    const char *decider = players[d->seat];
    uint64_t hash = engine_match_hash(hm->m);
    Deckhand__Choose c;
    uint32_t ids[64];
    legal_choice(d, &c, ids);
    /* a durable Redis: what it held comes back with it (SAVE, then the restart loads it) */
    struct timeval tv = {.tv_sec = 5, .tv_usec = 0};
    redisContext *rc = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    redisReply *saved = rc ? redisCommand(rc, "SAVE") : NULL;
    CU_ASSERT_TRUE(saved && saved->type == REDIS_REPLY_STATUS);
    if (saved)
        freeReplyObject(saved);
    if (rc)
        redisFree(rc);
    dh_test_redis_stop(&redis_pid);
    command(&r, "m-down", decider, 31, &c);
    host_flush(&r.h, dh_test_now_ms());
    outbox o;
    gw_drain(&r, &o);
    CU_ASSERT_EQUAL_FATAL(o.n, 1);
    CU_ASSERT_FALSE(o.msg[0]->reply->ok);
    CU_ASSERT_TRUE(o.msg[0]->reply->error &&
                   o.msg[0]->reply->error->code == DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    outbox_free(&o);
    /* while Redis stays down the answer is the same, and the worker keeps going */
    command(&r, "m-down", decider, 31, &c);
    host_flush(&r.h, dh_test_now_ms());
    gw_drain(&r, &o);
    CU_ASSERT_TRUE(o.n == 1 && !o.msg[0]->reply->ok);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    outbox_free(&o);
    /* a StartMatch while down is refused */
    start_match(&r, "m-down2");
    host_flush(&r.h, dh_test_now_ms());
    Deckhand__Internal__Internal *m = mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-down2"));

    CU_ASSERT_EQUAL_FATAL(dh_test_redis_start(redis_port, &redis_pid), 0);
    char dump[96];
    dh_test_redis_dir(redis_port, dump, sizeof dump);
    strcat(dump, "/dump.rdb");
    unlink(dump); /* loaded: later restarts start clean */
    /* the retry of the same cmd_id is applied once Redis is back (after the backoff) */
    usleep(2100 * 1000);
    command(&r, "m-down", decider, 31, &c);
    host_flush(&r.h, dh_test_now_ms());
    gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n >= 1);
    CU_ASSERT_TRUE(o.msg[0]->reply->ok);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(hm->m), hash);
    outbox_free(&o);
    rig_close(&r);
}

static void test_worker_plays_a_match_to_the_end(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-end");
    uint64_t cmd = 100;
    int answered = 0;
    outbox o;
    bool over[2] = {false, false};
    while (host_find(&r.h, "m-end") && answered < 5000) {
        const engine_decision *d = engine_match_decision(hm->m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        Deckhand__Choose c;
        uint32_t ids[64];
        legal_choice(d, &c, ids);
        command(&r, "m-end", players[d->seat], cmd++, &c);
        host_flush(&r.h, dh_test_now_ms());
        answered++;
        gw_drain(&r, &o);
        for (int s = 0; s < 2; s++)
            if (outbox_find(&o, players[s], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER))
                over[s] = true;
        outbox_free(&o);
    }
    CU_ASSERT_PTR_NULL_FATAL(host_find(&r.h, "m-end"));
    CU_ASSERT_TRUE(over[0] && over[1]);
    Deckhand__Internal__Internal *m;
    bool ended = false;
    while ((m = mm_next(&r))) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED) {
            ended = !strcmp(m->match_ended->match_id, "m-end") && m->match_ended->n_results == 2;
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_TRUE(ended);
    char *status = hget("match:{m-end}", "status");
    char *result = hget("match:{m-end}", "result");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "finished");
    CU_ASSERT_TRUE(result && result[0] == '[' && strstr(result, "\"name\":\"ann\"") &&
                   result[strlen(result) - 1] == ']');
    free(status);
    free(result);
    CU_ASSERT_TRUE(redis_int("LLEN", "matches:finished") >= 1);
    rig_close(&r);
}

static void test_worker_adopts_a_moved_match_exactly_and_the_old_owner_is_fenced(void)
{
    rig r;
    rig_open(&r);
    host_match *hm = started(&r, "m-move");
    uint64_t cmd = 1;
    play(&r, hm, 25, &cmd); /* past a turn boundary: snapshot plus log */
    uint64_t hash = engine_match_hash(hm->m);
    uint64_t decision = engine_match_decision(hm->m)->decision_id;
    int decider = engine_match_decision(hm->m)->seat;
    Deckhand__Internal__Internal *m;
    while ((m = mm_next(&r)))
        deckhand__internal__internal__free_unpacked(m, NULL);

    /* the matchmaker's takeover: another owner, the next epoch, the adopt set */
    redis_do("HSET match:{m-move} worker %s epoch %s", "wk-u", "2");
    redis_do("SADD worker:{wk-u}:adopt %s%s", "m-", "move");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, redis_url, 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    char ids[4][STORE_ID_MAX];
    CU_ASSERT_EQUAL(store_adopt_pop(&st2, "wk-u", ids, 4, dh_test_now_ms()), 1);
    CU_ASSERT_EQUAL(host_adopt(&h2, ids[0], dh_test_now_ms()), 1);
    host_match *hm2 = host_find(&h2, "m-move");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm2);
    CU_ASSERT_EQUAL(engine_match_hash(hm2->m), hash);
    CU_ASSERT_EQUAL(hm2->epoch, 2);
    CU_ASSERT_EQUAL(hm2->answers, 25);
    m = mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED);
    CU_ASSERT_TRUE(m->match_adopted->ok && m->match_adopted->n_player_ids == 2 &&
                   !strcmp(m->match_adopted->player_ids[1], "p-bob"));
    deckhand__internal__internal__free_unpacked(m, NULL);

    /* the old owner's next write is fenced: UNKNOWN_MATCH, the match dropped, Redis untouched */
    Deckhand__Choose c;
    uint32_t opt[64];
    legal_choice(engine_match_decision(hm->m), &c, opt);
    command(&r, "m-move", players[decider], 500, &c);
    host_flush(&r.h, dh_test_now_ms());
    outbox o;
    gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n == 1 && o.msg[0]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(o.msg[0]->reply->error &&
                   o.msg[0]->reply->error->code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    outbox_free(&o);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-move"));
    CU_ASSERT_EQUAL(redis_int("LLEN", "match:{m-move}:history"), 25);

    /* the gateway re-attaches the decider: the new owner re-sends the same decision */
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)"m-move";
    pc.match_id = (char *)"m-move";
    pc.player_id = (char *)players[decider];
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc.resync = &rs;
    host_command(&h2, "gw-t", &pc, dh_test_now_ms());
    gw_drain(&r, &o);
    const Deckhand__ServerMessage *dr =
        outbox_find(&o, players[decider], DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(dr && dr->decision->decision_id == decision);
    outbox_free(&o);
    /* and accepts the answer the old owner could not write */
    pc.cmd_id = 501;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
    pc.choose = &c;
    host_command(&h2, "gw-t", &pc, dh_test_now_ms());
    host_flush(&h2, dh_test_now_ms());
    gw_drain(&r, &o);
    CU_ASSERT_TRUE(o.n >= 1 && o.msg[0]->reply->ok);
    outbox_free(&o);
    CU_ASSERT_EQUAL(redis_int("LLEN", "match:{m-move}:history"), 26);

    /* adopting a match that is not ours is refused */
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-nobody", dh_test_now_ms()), 0);
    m = mm_next(&r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED &&
                   !m->match_adopted->ok);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    host_free(&h2);
    store_close(&st2);
    rig_close(&r);
}

/* A worker frozen while its match moved finds out by itself, without a command to fence:
 * host_check_owned drops what Redis says is another worker's (or another epoch's), keeps
 * the rest, and touches nothing in Redis. */
static void test_worker_check_owned_drops_matches_moved_away(void)
{
    rig r;
    rig_open(&r);
    host_match *a = started(&r, "m-kept");
    host_match *b = started(&r, "m-gone");
    host_match *c = started(&r, "m-epoch");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(host_check_owned(&r.h, dh_test_now_ms()), 0);
    CU_ASSERT_EQUAL(host_active(&r.h), 3);

    redis_do("HSET match:{m-gone} worker %s epoch %s", "wk-u", "2");
    redis_do("HSET match:{m-epoch} epoch %s%s", "", "2"); /* moved away and back */
    CU_ASSERT_EQUAL(host_check_owned(&r.h, dh_test_now_ms()), 2);
    CU_ASSERT_EQUAL(host_active(&r.h), 1);
    CU_ASSERT_PTR_NOT_NULL(host_find(&r.h, "m-kept"));
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-gone"));
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-epoch"));
    CU_ASSERT_EQUAL(redis_int("HLEN", "match:{m-gone}") > 0, 1);
    rig_close(&r);
}

static void test_worker_decision_timer_answers_by_default(void)
{
    rig r;
    rig_open(&r);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.decision_ms = 50;
    set.grace_ms = 60000;
    host_match *hm = started_set(&r, "m-timer", &set);
    uint64_t before = engine_match_decision(hm->m)->decision_id;
    CU_ASSERT_EQUAL(host_tick(&r.h, dh_test_now_ms()), 0); /* the clock starts */
    host_flush(&r.h, dh_test_now_ms());
    CU_ASSERT_EQUAL(engine_match_decision(hm->m)->decision_id, before);
    usleep(80 * 1000);
    CU_ASSERT_EQUAL(host_tick(&r.h, dh_test_now_ms()), 1);
    host_flush(&r.h, dh_test_now_ms());
    CU_ASSERT_TRUE(engine_match_decision(hm->m)->decision_id > before);
    CU_ASSERT_EQUAL(redis_int("LLEN", "match:{m-timer}:history"), 1);
    char *ms = hget("match:{m-timer}", "decision_ms");
    CU_ASSERT_STRING_EQUAL(ms ? ms : "", "50");
    free(ms);
    outbox o;
    gw_drain(&r, &o);
    CU_ASSERT_TRUE(o.n > 0); /* the seats see what the default answer did */
    for (size_t i = 0; i < o.n; i++)
        CU_ASSERT_NOT_EQUAL(o.msg[i]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    outbox_free(&o);
    rig_close(&r);
}

static void test_worker_away_seat_is_played_by_a_bot_after_grace_until_it_returns(void)
{
    rig r;
    rig_open(&r);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 30;
    set.abandon = (char *)"bot";
    host_match *hm = started_set(&r, "m-away", &set);
    int seat = engine_match_decision(hm->m)->seat;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Internal__Away away = DECKHAND__INTERNAL__AWAY__INIT;
    pc.match_id = (char *)"m-away";
    pc.player_id = (char *)players[seat];
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
    pc.away = &away;
    host_command(&r.h, "gw-other", &pc, dh_test_now_ms()); /* not its gateway: ignored */
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    host_command(&r.h, "gw-t", &pc, dh_test_now_ms());
    CU_ASSERT_NOT_EQUAL(hm->seats[seat].away_ms, 0);
    CU_ASSERT_EQUAL(host_tick(&r.h, dh_test_now_ms()), 0); /* still within grace */
    usleep(50 * 1000);
    size_t made = 0;
    for (int i = 0; i < 200 && engine_match_decision(hm->m)->seat == seat; i++) {
        made += host_tick(&r.h, dh_test_now_ms());
        host_flush(&r.h, dh_test_now_ms());
    }
    CU_ASSERT_TRUE(made >= 1);
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    CU_ASSERT_NOT_EQUAL(engine_match_decision(hm->m)->seat, seat); /* the bot ended its turn */
    /* the player comes back: the seat is theirs again */
    command(&r, "m-away", players[seat], 0, NULL);
    CU_ASSERT_FALSE(hm->seats[seat].robot);
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    outbox o;
    gw_drain(&r, &o);
    outbox_free(&o);
    rig_close(&r);
}

/* A seat nobody ever attached (its MatchAssigned reached no connection) counts as away
 * once its decision has waited HOST_ATTACH_MS, and after the grace period a bot plays it:
 * the match never waits on it forever. */
static void test_worker_never_attached_seat_counts_as_away_then_a_bot_plays(void)
{
    rig r;
    rig_open(&r);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 30;
    set.abandon = (char *)"bot";
    host_match *hm = started_set(&r, "m-ghost", &set);
    int seat = engine_match_decision(hm->m)->seat;
    hm->seats[seat].route[0] = '\0'; /* as if no gateway ever attached the player */
    uint64_t t0 = dh_test_now_ms();
    CU_ASSERT_EQUAL(host_tick(&r.h, t0), 0);
    CU_ASSERT_EQUAL(host_tick(&r.h, t0 + HOST_ATTACH_MS - 1), 0);
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    CU_ASSERT_EQUAL(host_tick(&r.h, t0 + HOST_ATTACH_MS), 0);
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, t0 + HOST_ATTACH_MS);
    CU_ASSERT_EQUAL(host_tick(&r.h, t0 + HOST_ATTACH_MS + 30), 1); /* past grace: the bot */
    host_flush(&r.h, dh_test_now_ms());
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    outbox o;
    gw_drain(&r, &o);
    outbox_free(&o);
    rig_close(&r);
}

static void test_worker_away_seat_forfeits_when_the_queue_says_so(void)
{
    rig r;
    rig_open(&r);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 10;
    set.abandon = (char *)"forfeit";
    host_match *hm = started_set(&r, "m-forfeit", &set);
    int seat = engine_match_decision(hm->m)->seat;
    Deckhand__Internal__Internal *m;
    while ((m = mm_next(&r)))
        deckhand__internal__internal__free_unpacked(m, NULL);
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Internal__Away away = DECKHAND__INTERNAL__AWAY__INIT;
    pc.match_id = (char *)"m-forfeit";
    pc.player_id = (char *)players[seat];
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
    pc.away = &away;
    host_command(&r.h, "gw-t", &pc, dh_test_now_ms());
    usleep(30 * 1000);
    host_tick(&r.h, dh_test_now_ms());
    host_flush(&r.h, dh_test_now_ms());
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-forfeit"));
    outbox o;
    gw_drain(&r, &o);
    CU_ASSERT_PTR_NOT_NULL(
        outbox_find(&o, players[1 - seat], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER));
    outbox_free(&o);
    m = mm_next(&r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = hget("match:{m-forfeit}", "status");
    char *result = hget("match:{m-forfeit}", "result");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "finished");
    CU_ASSERT_TRUE(result && strstr(result, "\"forfeit\":true"));
    free(status);
    free(result);
    char *owner = hget("matches:running", "m-forfeit");
    CU_ASSERT_PTR_NULL(owner);
    free(owner);
    rig_close(&r);
}

/* The player's old connection sent an answer (cmd 7) through gw-t and dropped; its new
 * connection resumed through gw-u and resynced (cmd 8) first. The late answer changes
 * nothing, the old gateway's Away does not make the seat away, and the seat's outputs
 * stay on gw-u. */
static void test_worker_command_overtaken_through_another_gateway_is_refused(void)
{
    rig r;
    rig_open(&r);
    void *gw2 = second_gateway(&r);
    host_match *hm = started(&r, "m-overtaken");
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int seat = d->seat;
    const char *p = players[seat];
    uint64_t decision = d->decision_id;
    Deckhand__Choose c;
    uint32_t ids[64];
    legal_choice(d, &c, ids);

    command_via(&r, "gw-u", "m-overtaken", p, 8, NULL);
    host_flush(&r.h, dh_test_now_ms());
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-u");
    outbox o;
    sock_drain(gw2, &o);
    const Deckhand__ServerMessage *rep = outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 8 && rep->reply->ok);
    CU_ASSERT_PTR_NOT_NULL(outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    outbox_free(&o);

    command_via(&r, "gw-t", "m-overtaken", p, 7, &c);
    host_flush(&r.h, dh_test_now_ms());
    away_via(&r, "gw-t", "m-overtaken", p);
    CU_ASSERT_EQUAL(engine_match_decision(hm->m)->decision_id, decision);
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-u");
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    gw_drain(&r, &o);
    rep = outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 7 && !rep->reply->ok && rep->reply->error &&
                   rep->reply->error->code == DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_EQUAL(o.n, 1); /* nothing else went to the gateway the player left */
    outbox_free(&o);

    /* the answer again, through the new connection: it goes in, its outputs come to gw-u */
    command_via(&r, "gw-u", "m-overtaken", p, 9, &c);
    host_flush(&r.h, dh_test_now_ms());
    CU_ASSERT_NOT_EQUAL(engine_match_decision(hm->m)->decision_id, decision);
    sock_drain(gw2, &o);
    rep = outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(rep && rep->reply->cmd_id == 9 && rep->reply->ok);
    CU_ASSERT_PTR_NOT_NULL(outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    outbox_free(&o);
    gw_drain(&r, &o);
    CU_ASSERT_PTR_NULL(outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    outbox_free(&o);
    zmq_close(gw2);
    rig_close(&r);
}

/* A client that numbers its commands from 1 again on its new connection is let in once
 * the gateway it left said it is away, and the same cmd_id again through another gateway
 * is a retry, not an overtaken command. */
static void test_worker_resume_through_another_gateway_after_away_or_with_a_retry(void)
{
    rig r;
    rig_open(&r);
    void *gw2 = second_gateway(&r);
    host_match *hm = started(&r, "m-resume");
    int seat = engine_match_decision(hm->m)->seat;
    const char *p = players[seat];
    command(&r, "m-resume", p, 5, NULL);
    command_via(&r, "gw-u", "m-resume", p, 1, NULL); /* gw-t has not said it left */
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-t");
    away_via(&r, "gw-t", "m-resume", p);
    CU_ASSERT_NOT_EQUAL(hm->seats[seat].away_ms, 0);
    command_via(&r, "gw-u", "m-resume", p, 2, NULL);
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-u");
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    command(&r, "m-resume", p, 5, NULL); /* the top cmd_id again, back through gw-t */
    CU_ASSERT_STRING_EQUAL(hm->seats[seat].route, "gw-t");
    outbox o;
    gw_drain(&r, &o);
    outbox_free(&o);
    sock_drain(gw2, &o);
    outbox_free(&o);
    zmq_close(gw2);
    rig_close(&r);
}

static void test_worker_refuses_matches_past_capacity(void)
{
    rig r;
    rig_open(&r);
    r.h.capacity = 1;
    started(&r, "m-cap1");
    start_match(&r, "m-cap2");
    Deckhand__Internal__Internal *m = mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok && !strcmp(m->match_started->match_id, "m-cap2"));
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    rig_close(&r);
}

static void test_worker_refuses_a_match_the_engine_cannot_create(void)
{
    rig r;
    rig_open(&r);
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT;
    s0.player_id = (char *)"p-1";
    Deckhand__Internal__Seat *seats[] = {&s0, &s0};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)"m-chess";
    sm.game = (char *)"chess";
    sm.n_seats = 2;
    sm.seats = seats;
    host_start_match(&r.h, &sm, dh_test_now_ms());
    Deckhand__Internal__Internal *m = mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok && m->match_started->error[0]);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    s0.player_id = (char *)"";
    sm.match_id = (char *)"m-noid";
    sm.game = (char *)"dominion";
    host_start_match(&r.h, &sm, dh_test_now_ms());
    m = mm_next(&r);
    CU_ASSERT_TRUE(m && !m->match_started->ok);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(host_active(&r.h), 0);
    rig_close(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    redis_port = dh_test_free_port();
    snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", redis_port);
    if (redis_port <= 0 || dh_test_redis_start(redis_port, &redis_pid) < 0) {
        fprintf(stderr, "test_worker_host: cannot start redis-server on port %d\n", redis_port);
        dh_test_redis_stop(&redis_pid);
        return 1;
    }
    static const dh_test_case cases[] = {
        {"worker_start_writes_redis_before_match_started",
         test_worker_start_writes_redis_before_match_started},
        {"worker_resync_sends_reply_view_and_decision_to_the_decider",
         test_worker_resync_sends_reply_view_and_decision_to_the_decider},
        {"worker_choose_releases_outputs_after_redis_in_order",
         test_worker_choose_releases_outputs_after_redis_in_order},
        {"worker_retried_cmd_id_is_answered_not_applied_again",
         test_worker_retried_cmd_id_is_answered_not_applied_again},
        {"worker_errors_change_nothing", test_worker_errors_change_nothing},
        {"worker_redis_outage_is_unavailable_and_rolled_back",
         test_worker_redis_outage_is_unavailable_and_rolled_back},
        {"worker_plays_a_match_to_the_end", test_worker_plays_a_match_to_the_end},
        {"worker_adopts_a_moved_match_exactly_and_the_old_owner_is_fenced",
         test_worker_adopts_a_moved_match_exactly_and_the_old_owner_is_fenced},
        {"worker_check_owned_drops_matches_moved_away",
         test_worker_check_owned_drops_matches_moved_away},
        {"worker_decision_timer_answers_by_default", test_worker_decision_timer_answers_by_default},
        {"worker_away_seat_is_played_by_a_bot_after_grace_until_it_returns",
         test_worker_away_seat_is_played_by_a_bot_after_grace_until_it_returns},
        {"worker_never_attached_seat_counts_as_away_then_a_bot_plays",
         test_worker_never_attached_seat_counts_as_away_then_a_bot_plays},
        {"worker_away_seat_forfeits_when_the_queue_says_so",
         test_worker_away_seat_forfeits_when_the_queue_says_so},
        {"worker_command_overtaken_through_another_gateway_is_refused",
         test_worker_command_overtaken_through_another_gateway_is_refused},
        {"worker_resume_through_another_gateway_after_away_or_with_a_retry",
         test_worker_resume_through_another_gateway_after_away_or_with_a_retry},
        {"worker_refuses_matches_past_capacity", test_worker_refuses_matches_past_capacity},
        {"worker_refuses_a_match_the_engine_cannot_create",
         test_worker_refuses_a_match_the_engine_cannot_create},
        {NULL, NULL},
    };
    int rc = dh_test_main("worker_host", cases);
    dh_test_redis_stop(&redis_pid);
    return rc;
}
