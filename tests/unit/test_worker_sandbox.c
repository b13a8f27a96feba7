/*
 * test_worker_sandbox.c: the real worker host (worker/host.c, with Redis and ZeroMQ as in
 * test_worker_host.c, whose rig this copies) serving a match of the hostile fixture game
 * "trapped" next to a normal "hostile" match on the same bundle VM. Every attack the
 * trapped match plays is answered SCRIPT_ERROR to its player (or is inert) and changes
 * nothing; the normal match plays to its end with the score of an unpoisoned game, and
 * the worker keeps serving both.
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
#include "rig_engine.h"

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
    r->bundle = rig_engine_load_hostile();
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

/* Everything the gateway received, decoded, in order. */
static void gw_drain(rig *r, outbox *o)
{
    o->n = 0;
    zmq_pollitem_t it = {.socket = r->gw, .events = ZMQ_POLLIN};
    while (o->n < 512 && zmq_poll(&it, 1, 5) == 1) {
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(r->gw, NULL, &m) != 1)
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

static void start_match(rig *r, const char *id, const char *game)
{
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    s0.player_id = (char *)players[0];
    s0.name = (char *)"ann";
    s1.player_id = (char *)players[1];
    s1.name = (char *)"bob";
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)id;
    sm.game = (char *)game;
    sm.seed = 42;
    sm.n_seats = 2;
    sm.seats = seats;
    host_start_match(&r->h, &sm, dh_test_now_ms());
}

static void command(rig *r, const char *match, const char *player, uint64_t cmd_id,
                    const Deckhand__Choose *choose)
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
    host_command(&r->h, "gw-t", &pc, dh_test_now_ms());
}

/* A legal answer to the pending decision: its first max(min,1) options (or none). */
/* Start m-ID, check MatchStarted, attach both players. */
static host_match *started(rig *r, const char *id, const char *game)
{
    start_match(r, id, game);
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

/* Sends seat's answer `id` to the match's pending decision; returns the Reply's error
 * code (0 when ok, -1 when no Reply came). */
static int choose(rig *r, host_match *hm, const char *match, uint64_t cmd_id, uint32_t id)
{
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    Deckhand__Choose c;
    deckhand__choose__init(&c);
    c.decision_id = d->decision_id;
    c.option_ids = &id;
    c.n_option_ids = 1;
    const char *player = players[d->seat];
    command(r, match, player, cmd_id, &c);
    host_flush(&r->h, dh_test_now_ms());
    outbox o;
    gw_drain(r, &o);
    const Deckhand__ServerMessage *rep =
        outbox_find(&o, player, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    int code = !rep                ? -1
               : rep->reply->ok    ? 0
               : rep->reply->error ? (int)rep->reply->error->code
                                   : -2;
    outbox_free(&o);
    return code;
}

static void test_worker_serves_a_hostile_match_and_a_normal_one_on_one_vm(void)
{
    rig r;
    rig_open(&r);
    host_match *bad = started(&r, "m-bad", "trapped");
    host_match *ok = started(&r, "m-ok", "hostile");
    const engine_decision *d = engine_match_decision(bad->m);
    CU_ASSERT_FATAL(d && d->noptions > 30);
    size_t nattacks = d->noptions - 1;
    char **labels = calloc(nattacks, sizeof(char *));
    CU_ASSERT_FATAL(labels != NULL);
    for (size_t i = 0; i < nattacks; i++)
        labels[i] = strdup(d->options[i + 1].label);
    uint64_t cmd = 1;
    for (size_t i = 0; i < nattacks; i++) {
        uint64_t h = engine_match_hash(bad->m);
        int code = choose(&r, bad, "m-bad", cmd++, (uint32_t)(i + 2));
        if (!strcmp(labels[i], "gc_late")) {
            CU_ASSERT_EQUAL(code, 0);
        } else {
            if (code != DECKHAND__ERROR_CODE__SCRIPT_ERROR)
                printf("\n  attack %s: reply %d", labels[i], code);
            CU_ASSERT_EQUAL(code, DECKHAND__ERROR_CODE__SCRIPT_ERROR);
            CU_ASSERT_EQUAL(engine_match_hash(bad->m), h);
        }
        CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-ok"));
        CU_ASSERT_EQUAL(choose(&r, ok, "m-ok", cmd++, 1), 0);
    }
    while (host_find(&r.h, "m-ok") && cmd < 1000) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(engine_match_decision(ok->m));
        CU_ASSERT_EQUAL(choose(&r, ok, "m-ok", cmd++, 1), 0);
    }
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-ok"));
    Deckhand__Internal__Internal *m;
    int ended = 0;
    while ((m = mm_next(&r))) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED &&
            !strcmp(m->match_ended->match_id, "m-ok") && m->match_ended->n_results == 2) {
            ended = 1;
            for (size_t i = 0; i < 2; i++)
                CU_ASSERT_EQUAL(m->match_ended->results[i]->score, 90); /* 30 plays of 3 */
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_TRUE(ended);
    /* The hostile match is still served. */
    CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-bad"));
    CU_ASSERT_EQUAL(choose(&r, bad, "m-bad", cmd++, 1), 0);
    for (size_t i = 0; i < nattacks; i++)
        free(labels[i]);
    free(labels);
    rig_close(&r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    redis_port = dh_test_free_port();
    snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", redis_port);
    if (redis_port <= 0 || dh_test_redis_start(redis_port, &redis_pid) < 0) {
        fprintf(stderr, "test_worker_sandbox: cannot start redis-server on port %d\n", redis_port);
        dh_test_redis_stop(&redis_pid);
        return 1;
    }
    static const dh_test_case cases[] = {
        {"worker_serves_a_hostile_match_and_a_normal_one_on_one_vm",
         test_worker_serves_a_hostile_match_and_a_normal_one_on_one_vm},
        {NULL, NULL},
    };
    int rc = dh_test_main("worker_sandbox", cases);
    dh_test_redis_stop(&redis_pid);
    return rc;
}
