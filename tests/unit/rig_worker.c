/*
 * rig_worker.c: a worker host between a fake matchmaker and a fake gateway, on Redis and
 * a fake clock (see rig_worker.h).
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "dh_clock.h"
#include "rig_redis.h"

#define RIG_WORKER_CLOCK0 1000000 /* the fake clock's start: any time but 0 */

const char *const rig_worker_players[2] = {"p-ann", "p-bob"};

/* ---- the program: Redis around dh_test_main (rig_redis.h) ------------------------------ */

int rig_worker_main(const char *suite, const dh_test_case *cases)
{
    return rig_redis_main(suite, cases);
}

const char *rig_worker_redis_url(void)
{
    return rig_redis_url();
}

static redisContext *rig_worker_redis_conn(void)
{
    struct timeval tv = {.tv_sec = 5, .tv_usec = 0};
    return redisConnectWithTimeout("127.0.0.1", rig_redis_port(), tv);
}

void rig_worker_redis_down(void)
{
    redisContext *c = rig_worker_redis_conn();
    redisReply *saved = c ? redisCommand(c, "SAVE") : NULL;
    CU_ASSERT_TRUE(saved && saved->type == REDIS_REPLY_STATUS);
    if (saved)
        freeReplyObject(saved);
    if (c)
        redisFree(c);
    rig_redis_stop();
}

void rig_worker_redis_up(void)
{
    rig_redis_start();
    char dump[96];
    dh_test_redis_dir(rig_redis_port(), dump, sizeof dump);
    strcat(dump, "/dump.rdb");
    unlink(dump);
}

char *rig_worker_hget(const char *key, const char *field)
{
    redisContext *c = rig_worker_redis_conn();
    redisReply *rep = redisCommand(c, "HGET %s %s", key, field);
    char *v = rep && rep->type == REDIS_REPLY_STRING ? strdup(rep->str) : NULL;
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
    return v;
}

char *rig_worker_redis_get(const char *key, size_t *len)
{
    redisContext *c = rig_worker_redis_conn();
    redisReply *rep = redisCommand(c, "GET %s", key);
    char *v = NULL;
    if (rep && rep->type == REDIS_REPLY_STRING && (v = malloc(rep->len + 1))) {
        memcpy(v, rep->str, rep->len + 1);
        *len = rep->len;
    }
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
    return v;
}

long long rig_worker_redis_int(const char *cmd, const char *key)
{
    redisContext *c = rig_worker_redis_conn();
    redisReply *rep = redisCommand(c, "%s %s", cmd, key);
    long long v = rep && rep->type == REDIS_REPLY_INTEGER ? rep->integer : -1;
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
    return v;
}

void rig_worker_redis_do(const char *fmt, const char *a, const char *b)
{
    redisContext *c = rig_worker_redis_conn();
    redisReply *rep = redisCommand(c, fmt, a, b);
    CU_ASSERT_TRUE(rep && rep->type != REDIS_REPLY_ERROR);
    if (rep)
        freeReplyObject(rep);
    redisFree(c);
}

/* ---- the host and its sockets ---------------------------------------------------------- */

/* Say hello from a gateway socket: the ROUTER learns its identity from its first message. */
static void rig_worker_introduce(rig_worker *r, void *gateway)
{
    Deckhand__Internal__Internal hi = DECKHAND__INTERNAL__INTERNAL__INIT;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_send(gateway, NULL, &hi), 0);
    zmq_pollitem_t it = {.socket = r->router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL_FATAL(zmq_poll(&it, 1, 1000), 1);
    char id[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = NULL;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_recv(r->router, id, &m), 1);
    deckhand__internal__internal__free_unpacked(m, NULL);
}

void rig_worker_open(rig_worker *r, const char *bundle_dir, const engine_limits *lim)
{
    memset(r, 0, sizeof *r);
    r->now = RIG_WORKER_CLOCK0;
    engine_error ee = {0};
    r->bundle = engine_bundle_load(dh_test_path(bundle_dir), lim, &ee);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->bundle);
    CU_ASSERT_EQUAL_FATAL(store_init(&r->st, rig_redis_url(), 500), 0);
    r->ctx = zmq_ctx_new();
    r->router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 10000);
    r->mm = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 10000);
    r->dealer = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-t", 10000);
    r->gw = dh_zmq_socket(r->ctx, ZMQ_DEALER, "gw-t", 10000);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->router, "inproc://worker"), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->mm, "inproc://mm"), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(r->dealer, "inproc://mm"), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(r->gw, "inproc://worker"), 0);
    rig_worker_introduce(r, r->gw);
    host_init(&r->h, "wk-t", "inproc://worker", r->router, r->dealer, r->bundle, &r->st, 10);
}

void rig_worker_close(rig_worker *r)
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

void rig_worker_advance(rig_worker *r, uint64_t ms)
{
    r->now += ms;
}

void *rig_worker_gateway(rig_worker *r, const char *identity)
{
    void *z = dh_zmq_socket(r->ctx, ZMQ_DEALER, identity, 10000);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(z, "inproc://worker"), 0);
    rig_worker_introduce(r, z);
    return z;
}

Deckhand__Internal__Internal *rig_worker_mm_wait(rig_worker *r, long ms)
{
    zmq_pollitem_t it = {.socket = r->mm, .events = ZMQ_POLLIN};
    if (zmq_poll(&it, 1, ms) != 1)
        return NULL;
    char id[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m = NULL;
    return dh_zmq_recv(r->mm, id, &m) == 1 ? m : NULL;
}

Deckhand__Internal__Internal *rig_worker_mm_next(rig_worker *r)
{
    return rig_worker_mm_wait(r, 500);
}

void rig_worker_mm_drain(rig_worker *r)
{
    Deckhand__Internal__Internal *m;
    while ((m = rig_worker_mm_wait(r, RIG_WORKER_QUIET_MS)))
        deckhand__internal__internal__free_unpacked(m, NULL);
}

/* The kind a worker's PlayerOutput must say it carries (the gateway reads it, not the
 * bytes): every output drained is checked against its message. */
static Deckhand__Internal__PlayerOutput__Kind rig_output_kind(const Deckhand__ServerMessage *sm)
{
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY)
        return DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY;
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER)
        return DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__GAME_OVER;
    return DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER;
}

/* The match a worker's PlayerOutput must say its message is about (the gateway drops it
 * from a worker that lost that match): the body's match_id for these, "" for the rest. */
static const char *rig_output_match(const Deckhand__ServerMessage *sm)
{
    const char *id = "";
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT)
        id = sm->event->match_id;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_DECISION)
        id = sm->decision->match_id;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW)
        id = sm->view->match_id;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA)
        id = sm->view_delta->match_id;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER)
        id = sm->game_over->match_id;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_CHAT)
        id = sm->chat->match_id;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_UNDO)
        id = sm->undo->match_id;
    return id;
}

Deckhand__Internal__PlayerOutput **rig_worker_outputs(Deckhand__Internal__Internal *m, size_t *n)
{
    if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS) {
        *n = m->player_outputs->n_outputs;
        return m->player_outputs->outputs;
    }
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT);
    *n = 1;
    return &m->player_output;
}

/* One output into o (when there is room). */
static void rig_outbox_add(rig_outbox *o, const Deckhand__Internal__PlayerOutput *po)
{
    CU_ASSERT_FATAL(o->n < 512);
    snprintf(o->player[o->n], HOST_ID_MAX, "%s", po->player_id);
    o->msg[o->n] = deckhand__server_message__unpack(NULL, po->message.len, po->message.data);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o->msg[o->n]);
    CU_ASSERT_EQUAL(po->kind, rig_output_kind(o->msg[o->n]));
    if (o->msg[o->n]->body_case != DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME)
        CU_ASSERT_STRING_EQUAL(po->match_id, rig_output_match(o->msg[o->n]));
    o->n++;
}

void rig_worker_drain(rig_worker *r, void *gateway, rig_outbox *o)
{
    o->n = 0;
    out_flush(&r->h);
    zmq_pollitem_t it = {.socket = gateway, .events = ZMQ_POLLIN};
    while (o->n < 512 && zmq_poll(&it, 1, 5) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(gateway, NULL, &m) != 1)
            continue;
        size_t n = 0;
        Deckhand__Internal__PlayerOutput **po = rig_worker_outputs(m, &n);
        for (size_t i = 0; i < n; i++)
            rig_outbox_add(o, po[i]);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
}

void rig_worker_gw_drain(rig_worker *r, rig_outbox *o)
{
    rig_worker_drain(r, r->gw, o);
}

void rig_outbox_free(rig_outbox *o)
{
    for (size_t i = 0; i < o->n; i++)
        deckhand__server_message__free_unpacked(o->msg[i], NULL);
    o->n = 0;
}

const Deckhand__ServerMessage *rig_outbox_find(const rig_outbox *o, const char *player, int body)
{
    for (size_t i = 0; i < o->n; i++)
        if ((int)o->msg[i]->body_case == body && !strcmp(o->player[i], player))
            return o->msg[i];
    return NULL;
}

/* ---- matches and commands -------------------------------------------------------------- */

void rig_worker_start(rig_worker *r, const char *id, const char *game,
                      Deckhand__Internal__QueueSettings *set)
{
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    s0.player_id = (char *)rig_worker_players[0];
    s0.name = (char *)"ann";
    s1.player_id = (char *)rig_worker_players[1];
    s1.name = (char *)"bob";
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)id;
    sm.game = (char *)game;
    sm.seed = 42;
    sm.n_seats = 2;
    sm.seats = seats;
    sm.settings = set;
    host_start_match(&r->h, &sm, r->now);
}

host_match *rig_worker_started_away(rig_worker *r, const char *id, uint32_t grace_ms,
                                    const char *abandon)
{
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = grace_ms;
    set.abandon = (char *)abandon;
    return rig_worker_started(r, id, "dominion", &set);
}

size_t rig_worker_pack_resync(uint8_t *buf, const char *match, const char *player, uint64_t cmd_id)
{
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)match;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = (char *)match;
    pc.player_id = (char *)player;
    pc.cmd_id = cmd_id;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc.resync = &rs;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = &pc;
    CU_ASSERT_FATAL(deckhand__internal__internal__get_packed_size(&m) <= RIG_WORKER_RESYNC_MAX);
    return deckhand__internal__internal__pack(&m, buf);
}

void rig_worker_open_real_clock(rig_worker *r, const char *match)
{
    rig_worker_open(r, "scripts", NULL);
    uint64_t now = dh_now_ms();
    if (now > r->now)
        rig_worker_advance(r, now - r->now);
    rig_worker_started(r, match, "dominion", NULL);
    rig_worker_mm_drain(r);
}

void rig_worker_close_drained(rig_worker *r)
{
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    rig_outbox_free(&o);
    rig_worker_close(r);
}

host_match *rig_worker_started(rig_worker *r, const char *id, const char *game,
                               Deckhand__Internal__QueueSettings *set)
{
    rig_worker_start(r, id, game, set);
    /* nothing before Redis acknowledged */
    CU_ASSERT_PTR_NULL(rig_worker_mm_wait(r, RIG_WORKER_QUIET_MS));
    host_flush(&r->h, r->now);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED);
    CU_ASSERT_TRUE(m->match_started->ok);
    CU_ASSERT_STRING_EQUAL(m->match_started->match_id, id);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_command(r, id, rig_worker_players[0], 0, NULL);
    rig_worker_command(r, id, rig_worker_players[1], 0, NULL);
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    rig_outbox_free(&o);
    host_match *hm = host_find(&r->h, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    return hm;
}

void rig_worker_command_via(rig_worker *r, const char *via, const char *match, const char *player,
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
    host_command(&r->h, via, &pc, r->now);
}

void rig_worker_command(rig_worker *r, const char *match, const char *player, uint64_t cmd_id,
                        const Deckhand__Choose *choose)
{
    rig_worker_command_via(r, "gw-t", match, player, cmd_id, choose);
}

void rig_worker_away_via(rig_worker *r, const char *via, const char *match, const char *player)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Internal__Away away = DECKHAND__INTERNAL__AWAY__INIT;
    pc.match_id = (char *)match;
    pc.player_id = (char *)player;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
    pc.away = &away;
    host_command(&r->h, via, &pc, r->now);
}

void rig_worker_legal_choice(const engine_decision *d, Deckhand__Choose *c, uint32_t *ids)
{
    deckhand__choose__init(c);
    size_t k = d->min ? d->min : (d->max && d->noptions ? 1 : 0);
    for (size_t i = 0; i < k; i++)
        ids[i] = d->options[i].id;
    c->decision_id = d->decision_id;
    c->option_ids = ids;
    c->n_option_ids = k;
}

bool rig_worker_answer(rig_worker *r, host_match *hm, uint64_t cmd_id)
{
    const engine_decision *d = engine_match_decision(hm->m);
    if (!d)
        return false;
    Deckhand__Choose c;
    uint32_t ids[64];
    rig_worker_legal_choice(d, &c, ids);
    rig_worker_command(r, hm->id, rig_worker_players[d->seat], cmd_id, &c);
    return true;
}

void rig_worker_play(rig_worker *r, host_match *hm, int n, uint64_t *cmd)
{
    rig_outbox o;
    for (int i = 0; i < n; i++) {
        CU_ASSERT_FATAL(rig_worker_answer(r, hm, (*cmd)++));
        host_flush(&r->h, r->now);
        rig_worker_gw_drain(r, &o);
        rig_outbox_free(&o);
    }
}

int rig_worker_choose(rig_worker *r, host_match *hm, uint64_t cmd_id, uint32_t option_id)
{
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    Deckhand__Choose c;
    deckhand__choose__init(&c);
    c.decision_id = d->decision_id;
    c.option_ids = &option_id;
    c.n_option_ids = 1;
    const char *player = rig_worker_players[d->seat];
    rig_worker_command(r, hm->id, player, cmd_id, &c);
    host_flush(&r->h, r->now);
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    const Deckhand__ServerMessage *rep =
        rig_outbox_find(&o, player, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    int code = !rep                ? -1
               : rep->reply->ok    ? 0
               : rep->reply->error ? (int)rep->reply->error->code
                                   : -2;
    rig_outbox_free(&o);
    return code;
}

void rig_worker_drop_all(rig_worker *r)
{
    void *socks[] = {r->gw, r->mm};
    for (size_t i = 0; i < 2; i++) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        while (zmq_msg_recv(&m, socks[i], ZMQ_DONTWAIT) >= 0)
            ;
        zmq_msg_close(&m);
    }
}

void rig_worker_open_bench(rig_worker *r, long matches)
{
    engine_limits lim = {.mem_limit = 0, .budget_ms = 60000};
    rig_worker_open(r, "scripts", &lim);
    host_free(&r->h);
    host_init(&r->h, "wk-t", "inproc://worker", r->router, r->dealer, r->bundle, &r->st,
              (uint32_t)matches);
    for (long i = 0; i < matches; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-%06ld", i);
        rig_worker_start(r, id, "dominion", NULL);
        host_flush(&r->h, r->now);
        rig_worker_drop_all(r);
        for (int p = 0; p < 2; p++)
            rig_worker_command(r, id, rig_worker_players[p], 0, NULL);
        rig_worker_drop_all(r);
    }
    CU_ASSERT_EQUAL(host_active(&r->h), (size_t)matches);
}

int rig_worker_bench(int argc, char **argv, const char *name, const char *usage, long *a, long *b,
                     void (*fn)(void))
{
    if (argc > 1)
        *a = strtol(argv[1], NULL, 10);
    if (argc > 2)
        *b = strtol(argv[2], NULL, 10);
    if (*a <= 0 || *b < 0) {
        fprintf(stderr, "usage: %s\n", usage);
        return 2;
    }
    const dh_test_case cases[] = {{name, fn}, {NULL, NULL}};
    return rig_worker_main(name, cases);
}
