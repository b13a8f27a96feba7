/*
 * rig_gateway.c: the gateway unit tests' rig (rig_gateway.h): the processes (gateway,
 * second gateway, Redis), the fake matchmaker and workers and what they send and receive.
 * The client is rig_gateway_client.c.
 */
#include "rig_gateway.h"

#include <arpa/inet.h>
#include <errno.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.h>

rg_rig rg;

/* ---- the fake matchmaker and workers: what they receive ------------------------------- */

bool rg_is_away(const Deckhand__Internal__Internal *m)
{
    return m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND &&
           m->player_command->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
}

/* The commands of a gateway's batch (Internal.player_commands) not handed out yet, each
 * as if it had come alone, in order; and how many batches the fake workers got. */
#define RG_SPLIT_MAX 256
static struct {
    void *sock;
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *m;
} rg_split[RG_SPLIT_MAX];
static size_t rg_split_n;
size_t rg_batches_seen;

/* Queue every entry of the batch b from from on sock; one that does not unpack fails. */
static void rg_split_batch(void *sock, const char *from,
                           const Deckhand__Internal__PlayerCommands *b)
{
    rg_batches_seen++;
    CU_ASSERT_FATAL(rg_split_n + b->n_commands <= RG_SPLIT_MAX);
    for (size_t i = 0; i < b->n_commands; i++) {
        Deckhand__Internal__Internal *m =
            deckhand__internal__internal__unpack(NULL, b->commands[i].len, b->commands[i].data);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        rg_split[rg_split_n].sock = sock;
        snprintf(rg_split[rg_split_n].from, sizeof rg_split[rg_split_n].from, "%s", from);
        rg_split[rg_split_n++].m = m;
    }
}

/* The oldest split command for sock, taken off the queue; NULL when none. */
static Deckhand__Internal__Internal *rg_split_take(void *sock, char *from)
{
    for (size_t i = 0; i < rg_split_n; i++) {
        if (rg_split[i].sock != sock)
            continue;
        Deckhand__Internal__Internal *m = rg_split[i].m;
        if (from)
            memcpy(from, rg_split[i].from, sizeof rg_split[i].from);
        memmove(&rg_split[i], &rg_split[i + 1], (rg_split_n - i - 1) * sizeof rg_split[0]);
        rg_split_n--;
        return m;
    }
    return NULL;
}

/* One message from sock, a batch's commands one by one; NULL when none waits. */
static Deckhand__Internal__Internal *rg_router_take(void *sock, char *from, int timeout_ms)
{
    Deckhand__Internal__Internal *m = rg_split_take(sock, from);
    if (m)
        return m;
    zmq_pollitem_t it = {sock, 0, ZMQ_POLLIN, 0};
    if (zmq_poll(&it, 1, timeout_ms) <= 0 || dh_zmq_recv(sock, from, &m) != 1)
        return NULL;
    if (m->body_case != DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS)
        return m;
    rg_split_batch(sock, from, m->player_commands);
    deckhand__internal__internal__free_unpacked(m, NULL);
    return rg_split_take(sock, from);
}

Deckhand__Internal__Internal *rg_router_recv(void *sock, char *from, int timeout_ms)
{
    return rg_router_recv_filtered(sock, from, timeout_ms, true);
}

Deckhand__Internal__Internal *rg_router_recv_filtered(void *sock, char *from, int timeout_ms,
                                                      bool skip_away)
{
    uint64_t end = dh_test_now_ms() + (uint64_t)timeout_ms;
    while (dh_test_now_ms() < end) {
        Deckhand__Internal__Internal *m = rg_router_take(sock, from, 50);
        if (!m)
            continue;
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO ||
            (skip_away && rg_is_away(m))) {
            deckhand__internal__internal__free_unpacked(m, NULL);
            continue;
        }
        return m;
    }
    return NULL;
}

Deckhand__Internal__Internal *rg_expect_internal(void *sock, char *from,
                                                 Deckhand__Internal__Internal__BodyCase body)
{
    Deckhand__Internal__Internal *in = rg_router_recv(sock, from, RG_EXPECT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, body);
    return in;
}

void rg_expect_command(void *sock, const char *match_id, const char *pid, uint64_t cmd_id,
                       Deckhand__Internal__PlayerCommand__BodyCase body)
{
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *in =
        rg_expect_internal(sock, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_STRING_EQUAL(from, RG_GW_ID);
    CU_ASSERT_STRING_EQUAL(in->player_command->match_id, match_id);
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, cmd_id);
    CU_ASSERT_EQUAL(in->player_command->body_case, body);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

void rg_expect_round_trip(rg_client *c, void *sock, const char *match_id, const char *pid,
                          uint64_t cmd_id, Deckhand__Internal__PlayerCommand__BodyCase body,
                          Deckhand__ErrorCode code)
{
    rg_expect_command(sock, match_id, pid, cmd_id, body);
    rg_worker_answer(sock, pid, cmd_id, code);
    rg_expect_reply(c, cmd_id, code);
}

bool rg_await_away_from(void *sock, const char *gw_id, const char *match_id, const char *pid,
                        int timeout_ms)
{
    char from[DH_ZMQ_ID_MAX + 1];
    uint64_t end = dh_test_now_ms() + (uint64_t)timeout_ms;
    while (dh_test_now_ms() < end) {
        Deckhand__Internal__Internal *in =
            rg_router_recv_filtered(sock, from, (int)(end - dh_test_now_ms()), false);
        if (!in)
            return false;
        bool found = rg_is_away(in) && !strcmp(in->player_command->match_id, match_id) &&
                     !strcmp(in->player_command->player_id, pid);
        if (found) {
            CU_ASSERT_EQUAL(in->player_command->cmd_id, 0);
            CU_ASSERT_STRING_EQUAL(from, gw_id);
        }
        deckhand__internal__internal__free_unpacked(in, NULL);
        if (found)
            return true;
    }
    return false;
}

bool rg_await_away(void *sock, const char *match_id, const char *pid, int timeout_ms)
{
    return rg_await_away_from(sock, RG_GW_ID, match_id, pid, timeout_ms);
}

/* ---- the fake matchmaker and workers: what they send ---------------------------------- */

/* The Error of a reply with code and message, filled into e; NULL for OK (no error). */
static Deckhand__Error *rg_error(Deckhand__Error *e, Deckhand__ErrorCode code, const char *message)
{
    if (code == DECKHAND__ERROR_CODE__OK)
        return NULL;
    e->code = code;
    e->message = (char *)message;
    return e;
}

static void rg_mm_send(const Deckhand__Internal__Internal *m)
{
    CU_ASSERT_EQUAL(dh_zmq_send(rg.mm, RG_GW_ID, m), 0);
}

void rg_mm_queue_reply(const char *pid, uint64_t cmd_id, Deckhand__ErrorCode code,
                       const char *message)
{
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueReply r = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    r.player_id = (char *)pid;
    r.cmd_id = cmd_id;
    r.ok = code == DECKHAND__ERROR_CODE__OK;
    r.error = rg_error(&e, code, message);
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    out.queue_reply = &r;
    rg_mm_send(&out);
}

void rg_mm_assign(const char *pid, const char *match_id, char **players, size_t n_players)
{
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchAssigned a = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    a.player_id = (char *)pid;
    a.match_id = (char *)match_id;
    a.seat = 0;
    a.game = "dominion";
    a.n_players = n_players;
    a.players = players;
    a.worker_id = RG_WORKER_ID;
    a.worker_endpoint = rg.worker_ep;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
    out.match_assigned = &a;
    rg_mm_send(&out);
}

void rg_mm_match_moved(const char *match_id, const char *worker_id, const char *endpoint,
                       char **player_ids, size_t n_player_ids)
{
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchMoved mv = DECKHAND__INTERNAL__MATCH_MOVED__INIT;
    mv.match_id = (char *)match_id;
    mv.worker_id = (char *)worker_id;
    mv.worker_endpoint = (char *)endpoint;
    mv.n_player_ids = n_player_ids;
    mv.player_ids = player_ids;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED;
    out.match_moved = &mv;
    rg_mm_send(&out);
}

void rg_assign_match(const char *pid, const char *match_id)
{
    char from[DH_ZMQ_ID_MAX + 1];
    rg_mm_assign(pid, match_id, NULL, 0);
    Deckhand__Internal__Internal *in = rg_router_recv(rg.worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

rg_client *rg_open_as(const char *name, char *pid)
{
    rg_client *c = rg_open();
    rg_login(c, name, pid, NULL);
    return c;
}

rg_client *rg_open_in_match(const char *name, char *pid, const char *match_id)
{
    rg_client *c = rg_open_as(name, pid);
    rg_assign_match(pid, match_id);
    rg_expect_match_found(c, match_id);
    return c;
}

void rg_worker_output(void *sock, const char *gw_id, const char *pid, const char *match_id,
                      const Deckhand__ServerMessage *sm)
{
    Deckhand__Internal__PlayerOutput__Kind kind = DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER;
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY)
        kind = DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY;
    else if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER)
        kind = DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__GAME_OVER;
    rg_worker_output_kind(sock, gw_id, pid, match_id, sm, kind);
}

void rg_worker_output_kind(void *sock, const char *gw_id, const char *pid, const char *match_id,
                           const Deckhand__ServerMessage *sm,
                           Deckhand__Internal__PlayerOutput__Kind kind)
{
    uint8_t buf[256];
    CU_ASSERT_FATAL(deckhand__server_message__get_packed_size(sm) <= sizeof buf);
    size_t n = deckhand__server_message__pack(sm, buf);
    Deckhand__Internal__Internal po = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)pid;
    o.match_id = (char *)match_id;
    o.message.data = buf;
    o.message.len = n;
    o.kind = kind;
    po.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    po.player_output = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, gw_id, &po), 0);
}

void rg_worker_answer_via(void *sock, const char *gw_id, const char *pid, uint64_t cmd_id,
                          Deckhand__ErrorCode code)
{
    Deckhand__ServerMessage rsm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Reply rr = DECKHAND__REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    rr.cmd_id = cmd_id;
    rr.ok = code == DECKHAND__ERROR_CODE__OK;
    rr.error = rg_error(&e, code, "from the fake worker");
    rsm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    rsm.reply = &rr;
    rg_worker_output(sock, gw_id, pid, NULL, &rsm);
}

void rg_worker_answer(void *sock, const char *pid, uint64_t cmd_id, Deckhand__ErrorCode code)
{
    rg_worker_answer_via(sock, RG_GW_ID, pid, cmd_id, code);
}

void rg_worker_view(void *sock, const char *pid, const char *match_id, uint64_t seq)
{
    Deckhand__View v = DECKHAND__VIEW__INIT;
    v.match_id = (char *)match_id;
    v.event_seq = seq;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    sm.view = &v;
    rg_worker_output(sock, RG_GW_ID, pid, match_id, &sm);
}

void rg_worker_game_over(rg_client *c, const char *pid, const char *match_id)
{
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__GameOver go = DECKHAND__GAME_OVER__INIT;
    go.match_id = (char *)match_id;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER;
    sm.game_over = &go;
    rg_worker_output(rg.worker, RG_GW_ID, pid, match_id, &sm);
    Deckhand__ServerMessage *got = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 3000, &got), 1);
    CU_ASSERT_EQUAL(got->body_case, DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    deckhand__server_message__free_unpacked(got, NULL);
}

bool rg_redis_route(const char *match_id, const char *worker_id, const char *endpoint)
{
    if (rg.redis_pid <= 0)
        return false; /* no redis-server on this machine */
    redisContext *r = redisConnect("127.0.0.1", rg.redis_port);
    CU_ASSERT_FATAL(r && !r->err);
    freeReplyObject(redisCommand(r, "HSET match:{%s} worker %s", match_id, worker_id));
    freeReplyObject(redisCommand(r, "SET worker:{%s} %s", worker_id, endpoint));
    redisFree(r);
    return true;
}

/* ---- processes ------------------------------------------------------------------------ */

/* Start the gateway binary as id on tcp_port (and tcp_port + 1 for WebSocket), signing
 * with token_key, with --max-frame unless max_frame is NULL, then the flags of extra (NULL
 * or NULL-terminated). Its pid, or -1. */
static pid_t rg_spawn_gateway(const char *id, int tcp_port, const char *redis_url,
                              const char *token_key, const char *max_frame,
                              const char *const *extra)
{
    char tcp[32], ws[32];
    snprintf(tcp, sizeof tcp, "127.0.0.1:%d", tcp_port);
    snprintf(ws, sizeof ws, "127.0.0.1:%d", tcp_port + 1);
    /* the rig's matchmaker and workers are plain sockets: no CURVE */
    char *argv[32] = {"deckhand-gateway",
                      "--insecure-internal",
                      "--tcp",
                      tcp,
                      "--ws",
                      ws,
                      "--matchmaker",
                      rg.mm_ep,
                      "--redis",
                      (char *)redis_url,
                      "--id",
                      (char *)id,
                      "--token-key",
                      (char *)token_key};
    size_t n = 14;
    if (max_frame) {
        argv[n++] = "--max-frame";
        argv[n++] = (char *)max_frame;
    }
    for (size_t k = 0; extra && extra[k] && n < sizeof argv / sizeof *argv - 1; k++)
        argv[n++] = (char *)extra[k];
    argv[n] = NULL;
    pid_t p = fork();
    if (p == 0) {
        execv(DECKHAND_BIN_DIR "/deckhand-gateway", argv);
        _exit(127);
    }
    return p;
}

/* True once something accepts on port, within end. */
static bool rg_accepts(int port, uint64_t end)
{
    while (dh_test_now_ms() < end) {
        int fd = rg_tcp_connect(port);
        if (fd >= 0) {
            close(fd);
            return true;
        }
        usleep(50000);
    }
    return false;
}

pid_t rg_start_gateway2(const char *redis_url)
{
    return rg_start_gateway2_with(RG_GW2_ID, redis_url, RG_TOKEN_KEY, NULL);
}

pid_t rg_start_gateway2_with(const char *id, const char *redis_url, const char *token_key,
                             const char *const *extra)
{
    pid_t p = rg_spawn_gateway(id, rg.gw2_port, redis_url, token_key, NULL, extra);
    if (p > 0 && rg_accepts(rg.gw2_port, dh_test_now_ms() + 10000))
        return p;
    if (p > 0) {
        kill(p, SIGKILL);
        waitpid(p, NULL, 0);
    }
    return -1;
}

static int rg_start(void)
{
    char redis_url[64], maxf[32];
    if (dh_test_redis_start(rg.redis_port, &rg.redis_pid) == 0) {
        snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", rg.redis_port);
    } else {
        fprintf(stderr, "no redis-server: the Redis lookup tests are skipped\n");
        snprintf(redis_url, sizeof redis_url, "none");
    }
    rg.zctx = zmq_ctx_new();
    rg.mm = dh_zmq_socket(rg.zctx, ZMQ_ROUTER, NULL, 1000);
    rg.worker = dh_zmq_socket(rg.zctx, ZMQ_ROUTER, NULL, 1000);
    rg.worker2 = dh_zmq_socket(rg.zctx, ZMQ_ROUTER, NULL, 1000);
    if (!rg.mm || !rg.worker || !rg.worker2 || zmq_bind(rg.mm, rg.mm_ep) < 0 ||
        zmq_bind(rg.worker, rg.worker_ep) < 0 || zmq_bind(rg.worker2, rg.worker2_ep) < 0) {
        fprintf(stderr, "cannot bind the fake matchmaker/worker: %s\n", zmq_strerror(errno));
        return -1;
    }
    snprintf(maxf, sizeof maxf, "%d", RG_MAX_FRAME);
    rg.gw_pid = rg_spawn_gateway(RG_GW_ID, rg.tcp_port, redis_url, RG_TOKEN_KEY, maxf, NULL);
    if (rg.gw_pid < 0)
        return -1;
    /* Ready when it accepts and the matchmaker has heard its GatewayHello. */
    uint64_t end = dh_test_now_ms() + 10000;
    bool up = rg_accepts(rg.tcp_port, end);
    char from[DH_ZMQ_ID_MAX + 1];
    while (up && dh_test_now_ms() < end) {
        zmq_pollitem_t it = {rg.mm, 0, ZMQ_POLLIN, 0};
        Deckhand__Internal__Internal *m = NULL;
        if (zmq_poll(&it, 1, 100) > 0 && dh_zmq_recv(rg.mm, from, &m) == 1) {
            bool hello = m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
            deckhand__internal__internal__free_unpacked(m, NULL);
            if (hello)
                return 0;
        }
    }
    fprintf(stderr, "the gateway did not come up\n");
    return -1;
}

/* SIGTERM the gateway and close the fake peers; the gateway's exit status. */
static int rg_stop(void)
{
    int status = 0;
    kill(rg.gw_pid, SIGTERM);
    waitpid(rg.gw_pid, &status, 0);
    zmq_close(rg.mm);
    zmq_close(rg.worker);
    zmq_close(rg.worker2);
    zmq_ctx_term(rg.zctx);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void rg_test_sigterm_exits_zero(void)
{
    CU_ASSERT_EQUAL(rg_stop(), 0);
    rg.gw_pid = 0;
}

/* True when nothing listens on, and we may bind, 127.0.0.1:port. */
static bool rg_port_free(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

/* A block of eight free ports in 17000-18999, in steps of 10, starting the search at a
 * place that depends on our pid so that two runs starting together rarely race. */
static int rg_ports_pick(void)
{
    int start = (int)(getpid() % 200);
    for (int k = 0; k < 200; k++) {
        int base = 17000 + 10 * ((start + k) % 200);
        bool all = true;
        for (int i = 0; i < 8 && all; i++)
            all = rg_port_free(base + i);
        if (all) {
            rg.port_base = base;
            rg.tcp_port = base;
            rg.ws_port = base + 1;
            rg.redis_port = base + 4;
            rg.gw2_port = base + 6;
            snprintf(rg.mm_ep, sizeof rg.mm_ep, "tcp://127.0.0.1:%d", base + 2);
            snprintf(rg.worker_ep, sizeof rg.worker_ep, "tcp://127.0.0.1:%d", base + 3);
            snprintf(rg.worker2_ep, sizeof rg.worker2_ep, "tcp://127.0.0.1:%d", base + 5);
            return 0;
        }
    }
    return -1;
}

int rg_main(const char *suite, const dh_test_case *cases)
{
    if (rg_ports_pick() < 0) {
        fprintf(stderr, "no block of 8 free ports in 17000-18999\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    int rc = 1;
    if (rg_start() == 0)
        rc = dh_test_main(suite, cases);
    if (rg.gw_pid > 0)
        kill(rg.gw_pid, SIGKILL);
    dh_test_redis_stop(&rg.redis_pid);
    return rc;
}
