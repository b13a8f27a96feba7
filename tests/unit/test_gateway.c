/*
 * test_gateway.c: the real deckhand-gateway binary, driven over real sockets on
 * 127.0.0.1, with a fake matchmaker ROUTER and a fake worker ROUTER inside this process.
 * Pins the client-visible contract of docs/PROTOCOL.md: login, UNAUTHENTICATED, one Reply
 * per message, BAD_FRAME closing only the offending connection, queue round trips and
 * timeouts, match routing both ways, rate limiting, and WebSocket framing; and the
 * gateway's part of failover (docs/ARCHITECTURE.md, "Durable matches"): MatchMoved
 * re-routes and re-attaches, UNKNOWN_MATCH drops a route, disconnects are reported
 * (PlayerAway, PlayerCommand.away), resumes too (PlayerBack), a resume on a second
 * gateway routes the match through it, and a Redis outage is UNAVAILABLE, not a crash.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <hiredis/hiredis.h>
#include <zmq.h>

#include "deckhand.pb-c.h"
#include "dh_frame.h"
#include "dh_test.h"
#include "dh_token.h"
#include "dh_ws.h"
#include "dh_zmq.h"

/* Eight consecutive free ports from port_base (ports_pick), so that two runs on one
 * machine do not collide: the gateway's tcp and ws, the fake matchmaker and workers,
 * Redis, and the second gateway's tcp and ws. */
static int port_base;
static char mm_ep[64], worker_ep[64], worker2_ep[64];
#define TCP_PORT   (port_base + 0)
#define WS_PORT    (port_base + 1)
#define MM_EP      mm_ep
#define WORKER_EP  worker_ep
#define REDIS_PORT (port_base + 4)
#define WORKER2_EP worker2_ep
#define GW2_PORT   (port_base + 6) /* and + 7 for its WebSocket */
#define GW_ID      "gw-test"
#define GW2_ID     "gw-test2"
#define TOKEN_KEY  "test-key-0123456789abcdef"
#define MAX_FRAME  4096

static pid_t gw_pid, redis_pid;
static void *zctx, *mm, *worker, *worker2;

/* ---- a minimal blocking client -------------------------------------------------------- */

typedef struct {
    int fd;
    bool ws;
    dh_frame_decoder dec;  /* TCP frames */
    uint8_t wbuf[1 << 16]; /* WebSocket bytes received */
    size_t wlen;
} tclient;

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int tcp_connect(int port)
{
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void send_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        b += w;
        n -= (size_t)w;
    }
}

/* Read what is available within timeout into buf; returns bytes, 0 on timeout, -1 EOF. */
static ssize_t read_some(int fd, void *buf, size_t n, int timeout_ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0)
        return 0;
    ssize_t r = recv(fd, buf, n, 0);
    return r <= 0 ? -1 : r;
}

static tclient *tc_open_port(int port)
{
    tclient *c = calloc(1, sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    c->fd = tcp_connect(port);
    CU_ASSERT_FATAL(c->fd >= 0);
    dh_frame_decoder_init(&c->dec, 1 << 20);
    return c;
}

static tclient *tc_open(void)
{
    return tc_open_port(TCP_PORT);
}

static void tc_close(tclient *c)
{
    close(c->fd);
    dh_frame_decoder_free(&c->dec);
    free(c);
}

/* A masked client frame (RFC 6455 §5.2) with the given opcode. */
static void ws_send_frame(tclient *c, int opcode, const uint8_t *p, size_t n)
{
    uint8_t hdr[14];
    size_t h = 0;
    const uint8_t mask[4] = {0x12, 0x34, 0x56, 0x78};
    hdr[h++] = (uint8_t)(0x80 | opcode);
    if (n < 126)
        hdr[h++] = (uint8_t)(0x80 | n);
    else {
        hdr[h++] = 0x80 | 126;
        hdr[h++] = (uint8_t)(n >> 8);
        hdr[h++] = (uint8_t)n;
    }
    memcpy(hdr + h, mask, 4);
    h += 4;
    uint8_t *buf = malloc(h + n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    memcpy(buf, hdr, h);
    for (size_t i = 0; i < n; i++)
        buf[h + i] = p[i] ^ mask[i % 4];
    send_all(c->fd, buf, h + n);
    free(buf);
}

static tclient *ws_open(void)
{
    char key[DH_WS_KEY_LEN + 1], req[512];
    tclient *c = calloc(1, sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    c->ws = true;
    dh_frame_decoder_init(&c->dec, 1 << 20);
    c->fd = tcp_connect(WS_PORT);
    CU_ASSERT_FATAL(c->fd >= 0);
    CU_ASSERT_FATAL(dh_ws_make_key(key) == 0);
    int n = dh_ws_format_request(req, sizeof req, "127.0.0.1", "/ws", key);
    send_all(c->fd, req, (size_t)n);
    uint64_t end = now_ms() + 3000;
    long head = 0;
    while (head == 0 && now_ms() < end) {
        ssize_t r = read_some(c->fd, c->wbuf + c->wlen, sizeof c->wbuf - c->wlen, 100);
        if (r < 0)
            break;
        c->wlen += (size_t)r;
        head = dh_ws_check_response((char *)c->wbuf, c->wlen, key, NULL);
    }
    CU_ASSERT_FATAL(head > 0);
    memmove(c->wbuf, c->wbuf + head, c->wlen - (size_t)head);
    c->wlen -= (size_t)head;
    return c;
}

static void tc_send(tclient *c, const Deckhand__ClientMessage *m)
{
    uint8_t buf[4096];
    size_t n = deckhand__client_message__get_packed_size(m);
    CU_ASSERT_FATAL(n <= sizeof buf);
    deckhand__client_message__pack(m, buf);
    if (c->ws) {
        ws_send_frame(c, 2, buf, n);
        return;
    }
    uint8_t hdr[4];
    dh_frame_header(hdr, (uint32_t)n);
    send_all(c->fd, hdr, 4);
    send_all(c->fd, buf, n);
}

/* Parse one server WebSocket frame out of c->wbuf: 1 with opcode/payload, 0 need more. */
static int ws_take(tclient *c, int *opcode, uint8_t *out, size_t *len)
{
    if (c->wlen < 2)
        return 0;
    size_t n = c->wbuf[1] & 0x7f, h = 2;
    if (n == 126) {
        if (c->wlen < 4)
            return 0;
        n = (size_t)c->wbuf[2] << 8 | c->wbuf[3];
        h = 4;
    }
    CU_ASSERT_FATAL(n < 127 * 256 * 4);
    if (c->wlen < h + n)
        return 0;
    *opcode = c->wbuf[0] & 0x0f;
    memcpy(out, c->wbuf + h, n);
    *len = n;
    memmove(c->wbuf, c->wbuf + h + n, c->wlen - h - n);
    c->wlen -= h + n;
    return 1;
}

/* The next ServerMessage: 1 with *out, 0 timeout, -1 connection closed. */
static int tc_recv(tclient *c, int timeout_ms, Deckhand__ServerMessage **out)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    static uint8_t buf[1 << 16];
    for (;;) {
        const uint8_t *p;
        size_t n;
        int op;
        if (!c->ws && dh_frame_next(&c->dec, &p, &n) == 1) {
            *out = deckhand__server_message__unpack(NULL, n, p);
            return *out ? 1 : -1;
        }
        if (c->ws && ws_take(c, &op, buf, &n) == 1) {
            if (op == 8)
                return -1; /* close */
            if (op != 2)
                continue;
            *out = deckhand__server_message__unpack(NULL, n, buf);
            return *out ? 1 : -1;
        }
        uint64_t t = now_ms();
        if (t >= end)
            return 0;
        ssize_t r = read_some(c->fd, buf, sizeof buf, (int)(end - t));
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        if (c->ws) {
            CU_ASSERT_FATAL(c->wlen + (size_t)r <= sizeof c->wbuf);
            memcpy(c->wbuf + c->wlen, buf, (size_t)r);
            c->wlen += (size_t)r;
        } else {
            dh_frame_feed(&c->dec, buf, (size_t)r);
        }
    }
}

/* Expect a Reply for cmd_id with code (OK = ok). */
static void expect_reply(tclient *c, uint64_t cmd_id, Deckhand__ErrorCode code)
{
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 8000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_EQUAL(m->reply->cmd_id, cmd_id);
    if (code == DECKHAND__ERROR_CODE__OK) {
        CU_ASSERT_TRUE(m->reply->ok);
    } else {
        CU_ASSERT_FALSE(m->reply->ok);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m->reply->error);
        CU_ASSERT_EQUAL(m->reply->error->code, code);
    }
    deckhand__server_message__free_unpacked(m, NULL);
}

static void expect_closed(tclient *c)
{
    Deckhand__ServerMessage *m = NULL;
    int rc = tc_recv(c, 3000, &m);
    CU_ASSERT_EQUAL(rc, -1);
    if (rc == 1)
        deckhand__server_message__free_unpacked(m, NULL);
}

static void send_hello(tclient *c, uint64_t cmd_id, const char *name, const char *token)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Hello h = DECKHAND__HELLO__INIT;
    h.name = (char *)name;
    h.token = (char *)token;
    m.cmd_id = cmd_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_HELLO;
    m.hello = &h;
    tc_send(c, &m);
}

/* Guest login; copies the player id and token. */
static void login(tclient *c, const char *name, char *pid, char *token)
{
    Deckhand__ServerMessage *m = NULL;
    send_hello(c, 1, name, "");
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_STRING_EQUAL(m->welcome->name, name);
    CU_ASSERT_EQUAL(strncmp(m->welcome->player_id, "p-", 2), 0);
    CU_ASSERT_EQUAL(strlen(m->welcome->player_id), 18);
    if (pid)
        strcpy(pid, m->welcome->player_id);
    if (token)
        strcpy(token, m->welcome->token);
    deckhand__server_message__free_unpacked(m, NULL);
    expect_reply(c, 1, DECKHAND__ERROR_CODE__OK);
}

static void send_ping(tclient *c, uint64_t cmd_id, uint64_t nonce)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Ping p = DECKHAND__PING__INIT;
    p.nonce = nonce;
    m.cmd_id = cmd_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_PING;
    m.ping = &p;
    tc_send(c, &m);
}

static void expect_pong(tclient *c, uint64_t cmd_id, uint64_t nonce)
{
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_PONG);
    CU_ASSERT_EQUAL(m->pong->nonce, nonce);
    deckhand__server_message__free_unpacked(m, NULL);
    expect_reply(c, cmd_id, DECKHAND__ERROR_CODE__OK);
}

/* ---- the fake matchmaker and worker --------------------------------------------------- */

static bool is_away(const Deckhand__Internal__Internal *m)
{
    return m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND &&
           m->player_command->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_AWAY;
}

static Deckhand__Internal__Internal *router_recv_filtered(void *sock, char *from, int timeout_ms,
                                                          bool skip_away);

/* The next message on a fake ROUTER that is not a GatewayHello, nor an away (a test that
 * closes a client in a match leaves one behind for the fake worker). */
static Deckhand__Internal__Internal *router_recv(void *sock, char *from, int timeout_ms)
{
    return router_recv_filtered(sock, from, timeout_ms, true);
}

static Deckhand__Internal__Internal *router_recv_filtered(void *sock, char *from, int timeout_ms,
                                                          bool skip_away)
{
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    while (now_ms() < end) {
        zmq_pollitem_t it = {sock, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, 50) <= 0)
            continue;
        Deckhand__Internal__Internal *m = NULL;
        if (dh_zmq_recv(sock, from, &m) != 1)
            continue;
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO ||
            (skip_away && is_away(m))) {
            deckhand__internal__internal__free_unpacked(m, NULL);
            continue;
        }
        return m;
    }
    return NULL;
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_gateway_guest_login_welcome_then_reply(void)
{
    tclient *c = tc_open();
    login(c, "alice", NULL, NULL);
    send_ping(c, 2, 77);
    expect_pong(c, 2, 77);
    tc_close(c);
}

static void test_gateway_message_before_hello_unauthenticated(void)
{
    tclient *c = tc_open();
    send_ping(c, 5, 1);
    expect_reply(c, 5, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    /* The connection stays usable. */
    login(c, "bob", NULL, NULL);
    tc_close(c);
}

static void test_gateway_bad_names_and_tokens_refused(void)
{
    tclient *c = tc_open();
    send_hello(c, 3, "", "");
    expect_reply(c, 3, DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_hello(c, 4, "a-name-that-is-longer-than-32-characters", "");
    expect_reply(c, 4, DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_hello(c, 5, "tab\there", "");
    expect_reply(c, 5, DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_hello(c, 6, "", "not-a-token");
    expect_reply(c, 6, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    tc_close(c);
}

static void test_gateway_token_resumes_player_replaces_old_connection_and_reports_back(void)
{
    char pid[64], token[DH_TOKEN_MAX], from[DH_ZMQ_ID_MAX + 1];
    Deckhand__ServerMessage *m = NULL;
    tclient *a = tc_open();
    login(a, "carol", pid, token);
    tclient *b = tc_open();
    send_hello(b, 9, "ignored", token);
    CU_ASSERT_EQUAL_FATAL(tc_recv(b, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_STRING_EQUAL(m->welcome->player_id, pid);
    CU_ASSERT_STRING_EQUAL(m->welcome->name, "carol");
    deckhand__server_message__free_unpacked(m, NULL);
    expect_reply(b, 9, DECKHAND__ERROR_CODE__OK);
    expect_closed(a);
    /* The matchmaker hears that the player is back, here (a waiting ticket follows). */
    Deckhand__Internal__Internal *in = router_recv(mm, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK);
    CU_ASSERT_STRING_EQUAL(in->player_back->player_id, pid);
    CU_ASSERT_STRING_EQUAL(in->player_back->gateway_id, GW_ID);
    deckhand__internal__internal__free_unpacked(in, NULL);
    /* A tampered token is refused. */
    tclient *c = tc_open();
    token[5] = token[5] == 'A' ? 'B' : 'A';
    send_hello(c, 2, "", token);
    expect_reply(c, 2, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    tc_close(a);
    tc_close(b);
    tc_close(c);
}

static void test_gateway_bad_frame_closes_only_that_connection(void)
{
    tclient *good = tc_open();
    login(good, "dave", NULL, NULL);
    tclient *bad = tc_open();
    const uint8_t garbage[] = {0, 0, 0, 3, 0xff, 0xff, 0xff};
    send_all(bad->fd, garbage, sizeof garbage);
    expect_reply(bad, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    expect_closed(bad);
    send_ping(good, 2, 3);
    expect_pong(good, 2, 3);
    tc_close(bad);
    tc_close(good);
}

static void test_gateway_oversized_frame_closes(void)
{
    tclient *c = tc_open();
    uint8_t hdr[4];
    dh_frame_header(hdr, MAX_FRAME + 1);
    send_all(c->fd, hdr, 4);
    expect_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    expect_closed(c);
    tc_close(c);
}

static void test_gateway_queue_join_round_trip(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    tclient *c = tc_open();
    login(c, "erin", pid, NULL);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    q.game = "dominion";
    q.players = 2;
    m.cmd_id = 7;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    m.queue_join = &q;
    tc_send(c, &m);
    Deckhand__Internal__Internal *in = router_recv(mm, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_STRING_EQUAL(from, GW_ID);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN);
    CU_ASSERT_STRING_EQUAL(in->queue_join->player_id, pid);
    CU_ASSERT_STRING_EQUAL(in->queue_join->name, "erin");
    CU_ASSERT_STRING_EQUAL(in->queue_join->gateway_id, GW_ID);
    CU_ASSERT_STRING_EQUAL(in->queue_join->game, "dominion");
    CU_ASSERT_EQUAL(in->queue_join->cmd_id, 7);
    CU_ASSERT_EQUAL(in->queue_join->players, 2);
    deckhand__internal__internal__free_unpacked(in, NULL);

    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueReply r = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    r.player_id = pid;
    r.cmd_id = 7;
    r.ok = false;
    e.code = DECKHAND__ERROR_CODE__UNKNOWN_GAME;
    e.message = "no worker serves dominion";
    r.error = &e;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    out.queue_reply = &r;
    CU_ASSERT_EQUAL(dh_zmq_send(mm, GW_ID, &out), 0);
    expect_reply(c, 7, DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    tc_close(c);
}

static void test_gateway_disconnect_while_queued_reports_player_away(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    tclient *c = tc_open();
    login(c, "liam", pid, NULL);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueJoin q = DECKHAND__QUEUE_JOIN__INIT;
    q.game = "dominion";
    m.cmd_id = 2;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_JOIN;
    m.queue_join = &q;
    tc_send(c, &m);
    Deckhand__Internal__Internal *in = router_recv(mm, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    deckhand__internal__internal__free_unpacked(in, NULL);
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__QueueReply r = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    r.player_id = pid;
    r.cmd_id = 2;
    r.ok = true;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    out.queue_reply = &r;
    CU_ASSERT_EQUAL(dh_zmq_send(mm, GW_ID, &out), 0);
    expect_reply(c, 2, DECKHAND__ERROR_CODE__OK);
    tc_close(c);
    /* Not a QueueLeave: the ticket keeps its place for the grace period. */
    in = router_recv(mm, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY);
    CU_ASSERT_STRING_EQUAL(in->player_away->player_id, pid);
    CU_ASSERT_STRING_EQUAL(in->player_away->gateway_id, GW_ID);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

static void test_gateway_queue_without_answer_unavailable(void)
{
    char from[DH_ZMQ_ID_MAX + 1];
    tclient *c = tc_open();
    login(c, "frank", NULL, NULL);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__QueueLeave q = DECKHAND__QUEUE_LEAVE__INIT;
    q.game = "dominion";
    m.cmd_id = 4;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_QUEUE_LEAVE;
    m.queue_leave = &q;
    tc_send(c, &m);
    Deckhand__Internal__Internal *in = router_recv(mm, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE);
    deckhand__internal__internal__free_unpacked(in, NULL);
    uint64_t t0 = now_ms();
    expect_reply(c, 4, DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT(now_ms() - t0 >= 2000);
    tc_close(c);
}

static void test_gateway_match_routing_both_ways(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    Deckhand__ServerMessage *sm = NULL;
    tclient *c = tc_open();
    login(c, "grace", pid, NULL);

    char *names[] = {"grace", "bot"};
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchAssigned a = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    a.player_id = pid;
    a.match_id = "m-1";
    a.seat = 0;
    a.game = "dominion";
    a.n_players = 2;
    a.players = names;
    a.worker_id = "wk-test";
    a.worker_endpoint = WORKER_EP;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
    out.match_assigned = &a;
    CU_ASSERT_EQUAL(dh_zmq_send(mm, GW_ID, &out), 0);

    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 5000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND);
    CU_ASSERT_STRING_EQUAL(sm->match_found->match_id, "m-1");
    CU_ASSERT_EQUAL(sm->match_found->n_players, 2);
    deckhand__server_message__free_unpacked(sm, NULL);

    /* The attach: PlayerCommand{resync, cmd_id 0} from the gateway's identity. */
    Deckhand__Internal__Internal *in = router_recv(worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_STRING_EQUAL(from, GW_ID);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 0);
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    CU_ASSERT_EQUAL(in->player_command->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    deckhand__internal__internal__free_unpacked(in, NULL);

    /* Choose goes to the worker with the player's id. */
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    uint32_t opts[] = {3};
    ch.match_id = "m-1";
    ch.decision_id = 11;
    ch.n_option_ids = 1;
    ch.option_ids = opts;
    m.cmd_id = 12;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    tc_send(c, &m);
    in = router_recv(worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 12);
    CU_ASSERT_STRING_EQUAL(in->player_command->match_id, "m-1");
    CU_ASSERT_EQUAL_FATAL(in->player_command->body_case,
                          DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
    CU_ASSERT_EQUAL(in->player_command->choose->decision_id, 11);
    deckhand__internal__internal__free_unpacked(in, NULL);

    /* The worker's PlayerOutput reaches the client unchanged. */
    Deckhand__ServerMessage rsm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Reply rr = DECKHAND__REPLY__INIT;
    rr.cmd_id = 12;
    rr.ok = true;
    rsm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    rsm.reply = &rr;
    uint8_t buf[256];
    size_t n = deckhand__server_message__pack(&rsm, buf);
    Deckhand__Internal__Internal po = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = pid;
    o.message.data = buf;
    o.message.len = n;
    po.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    po.player_output = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(worker, GW_ID, &po), 0);
    expect_reply(c, 12, DECKHAND__ERROR_CODE__OK);

    /* No route: UNKNOWN_MATCH from the gateway itself. */
    ch.match_id = "m-unknown";
    m.cmd_id = 13;
    tc_send(c, &m);
    expect_reply(c, 13, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    tc_close(c);
}

/* Assign match_id on the fake worker to pid and swallow the attach. */
static void assign_match(const char *pid, const char *match_id)
{
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchAssigned a = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    a.player_id = (char *)pid;
    a.match_id = (char *)match_id;
    a.game = "dominion";
    a.worker_id = "wk-test";
    a.worker_endpoint = WORKER_EP;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
    out.match_assigned = &a;
    CU_ASSERT_EQUAL(dh_zmq_send(mm, GW_ID, &out), 0);
    Deckhand__Internal__Internal *in = router_recv(worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

static void worker_reply(const char *pid, uint64_t cmd_id)
{
    Deckhand__ServerMessage rsm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Reply rr = DECKHAND__REPLY__INIT;
    rr.cmd_id = cmd_id;
    rr.ok = true;
    rsm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    rsm.reply = &rr;
    uint8_t buf[256];
    size_t n = deckhand__server_message__pack(&rsm, buf);
    Deckhand__Internal__Internal po = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)pid;
    o.message.data = buf;
    o.message.len = n;
    po.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    po.player_output = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(worker, GW_ID, &po), 0);
}

static void test_gateway_silent_worker_gets_one_unavailable_reply(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    tclient *c = tc_open();
    login(c, "judy", pid, NULL);
    assign_match(pid, "m-2");
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 3000, &sm), 1); /* MatchFound */
    deckhand__server_message__free_unpacked(sm, NULL);
    /* A Reply for the attach (cmd_id 0) is not the client's business. */
    worker_reply(pid, 0);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = "m-2";
    m.cmd_id = 21;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESYNC;
    m.resync = &rs;
    tc_send(c, &m);
    Deckhand__Internal__Internal *in = router_recv(worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL(in->player_command->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    deckhand__internal__internal__free_unpacked(in, NULL);
    expect_reply(c, 21, DECKHAND__ERROR_CODE__UNAVAILABLE);
    /* The worker's late answer is dropped: the next message is the Pong. */
    worker_reply(pid, 21);
    send_ping(c, 22, 5);
    expect_pong(c, 22, 5);
    tc_close(c);
}

static void test_gateway_unknown_route_found_in_redis(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    if (redis_pid <= 0)
        return; /* no redis-server on this machine */
    redisContext *r = redisConnect("127.0.0.1", REDIS_PORT);
    CU_ASSERT_FATAL(r && !r->err);
    freeReplyObject(redisCommand(r, "HSET match:{m-9} worker wk-test"));
    freeReplyObject(redisCommand(r, "SET worker:{wk-test} %s", WORKER_EP));
    redisFree(r);

    tclient *c = tc_open();
    login(c, "kim", pid, NULL);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = "m-9";
    m.cmd_id = 30;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESYNC;
    m.resync = &rs;
    tc_send(c, &m);
    Deckhand__Internal__Internal *in = router_recv(worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_STRING_EQUAL(from, GW_ID);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 30);
    CU_ASSERT_STRING_EQUAL(in->player_command->match_id, "m-9");
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    deckhand__internal__internal__free_unpacked(in, NULL);
    worker_reply(pid, 30);
    expect_reply(c, 30, DECKHAND__ERROR_CODE__OK);

    /* A match Redis does not know either. */
    rs.match_id = "m-nowhere";
    m.cmd_id = 31;
    tc_send(c, &m);
    expect_reply(c, 31, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    tc_close(c);
}

/* A Reply{code} for pid's cmd_id, as the fake worker sock's PlayerOutput. */
static void worker_answer_via(void *sock, const char *gw_id, const char *pid, uint64_t cmd_id,
                              Deckhand__ErrorCode code)
{
    Deckhand__ServerMessage rsm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Reply rr = DECKHAND__REPLY__INIT;
    Deckhand__Error e = DECKHAND__ERROR__INIT;
    rr.cmd_id = cmd_id;
    rr.ok = code == DECKHAND__ERROR_CODE__OK;
    if (!rr.ok) {
        e.code = code;
        e.message = "from the fake worker";
        rr.error = &e;
    }
    rsm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    rsm.reply = &rr;
    uint8_t buf[256];
    size_t n = deckhand__server_message__pack(&rsm, buf);
    Deckhand__Internal__Internal po = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)pid;
    o.message.data = buf;
    o.message.len = n;
    po.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    po.player_output = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, gw_id, &po), 0);
}

static void worker_answer(void *sock, const char *pid, uint64_t cmd_id, Deckhand__ErrorCode code)
{
    worker_answer_via(sock, GW_ID, pid, cmd_id, code);
}

static void send_choose(tclient *c, uint64_t cmd_id, const char *match_id, uint64_t decision_id)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
    uint32_t opts[] = {1};
    ch.match_id = (char *)match_id;
    ch.decision_id = decision_id;
    ch.n_option_ids = 1;
    ch.option_ids = opts;
    m.cmd_id = cmd_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
    m.choose = &ch;
    tc_send(c, &m);
}

static void send_resync(tclient *c, uint64_t cmd_id, const char *match_id)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)match_id;
    m.cmd_id = cmd_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_RESYNC;
    m.resync = &rs;
    tc_send(c, &m);
}

static void expect_match_found(tclient *c, const char *match_id)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 3000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND);
    CU_ASSERT_STRING_EQUAL(sm->match_found->match_id, match_id);
    deckhand__server_message__free_unpacked(sm, NULL);
}

/* The next PlayerCommand on sock, checked for match, player and cmd_id. */
static void expect_command(void *sock, const char *match_id, const char *pid, uint64_t cmd_id,
                           Deckhand__Internal__PlayerCommand__BodyCase body)
{
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *in = router_recv(sock, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_STRING_EQUAL(from, GW_ID);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_STRING_EQUAL(in->player_command->match_id, match_id);
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, cmd_id);
    CU_ASSERT_EQUAL(in->player_command->body_case, body);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

/* A worker sends pid a View of match_id at event_seq, labelled with the match as workers
 * label their outputs. */
static void worker_view(void *sock, const char *pid, const char *match_id, uint64_t seq)
{
    Deckhand__View v = DECKHAND__VIEW__INIT;
    v.match_id = (char *)match_id;
    v.event_seq = seq;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_VIEW;
    sm.view = &v;
    uint8_t buf[256];
    size_t n = deckhand__server_message__pack(&sm, buf);
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)pid;
    o.match_id = (char *)match_id;
    o.message.data = buf;
    o.message.len = n;
    Deckhand__Internal__Internal po = DECKHAND__INTERNAL__INTERNAL__INIT;
    po.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    po.player_output = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(sock, GW_ID, &po), 0);
}

static void test_gateway_match_moved_refuses_in_flight_and_reattaches(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    tclient *c = tc_open();
    login(c, "mallory", pid, NULL);
    assign_match(pid, "m-5");
    expect_match_found(c, "m-5");
    send_choose(c, 40, "m-5", 3);
    expect_command(worker, "m-5", pid, 40, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);

    /* The old worker dies with the answer in flight; the matchmaker moves the match. Of
     * its players, only mallory is connected here. */
    char *players[] = {pid, "p-elsewhere"};
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchMoved mv = DECKHAND__INTERNAL__MATCH_MOVED__INIT;
    mv.match_id = "m-5";
    mv.worker_id = "wk-two";
    mv.worker_endpoint = WORKER2_EP;
    mv.n_player_ids = 2;
    mv.player_ids = players;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED;
    out.match_moved = &mv;
    uint64_t t0 = now_ms();
    CU_ASSERT_EQUAL(dh_zmq_send(mm, GW_ID, &out), 0);
    /* UNAVAILABLE at once, not after the 5 s worker timeout. */
    expect_reply(c, 40, DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT(now_ms() - t0 < 2000);
    /* The attach (Resync, cmd_id 0) goes to the new worker, for mallory only. */
    expect_command(worker2, "m-5", pid, 0, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    Deckhand__Internal__Internal *in = router_recv(worker2, from, 300);
    CU_ASSERT_PTR_NULL(in);
    if (in)
        deckhand__internal__internal__free_unpacked(in, NULL);

    /* A late answer from the old worker is dropped, and so is a stale View of the match
     * from it (a frozen worker waking up); the next command goes to the new worker, whose
     * Reply is the next thing the client sees, then the new worker's View. */
    worker_answer(worker, pid, 40, DECKHAND__ERROR_CODE__OK);
    worker_view(worker, pid, "m-5", 7);
    send_choose(c, 41, "m-5", 3);
    expect_command(worker2, "m-5", pid, 41, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
    worker_answer(worker2, pid, 41, DECKHAND__ERROR_CODE__OK);
    expect_reply(c, 41, DECKHAND__ERROR_CODE__OK);
    worker_view(worker2, pid, "m-5", 9);
    Deckhand__ServerMessage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 3000, &v), 1);
    CU_ASSERT_TRUE(v->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW && v->view->event_seq == 9);
    deckhand__server_message__free_unpacked(v, NULL);
    tc_close(c);
}

static void test_gateway_worker_unknown_match_drops_route(void)
{
    char pid[64];
    if (redis_pid <= 0)
        return; /* no redis-server on this machine */
    redisContext *r = redisConnect("127.0.0.1", REDIS_PORT);
    CU_ASSERT_FATAL(r && !r->err);
    freeReplyObject(redisCommand(r, "HSET match:{m-7} worker wk-two"));
    freeReplyObject(redisCommand(r, "SET worker:{wk-two} %s", WORKER2_EP));
    redisFree(r);

    tclient *c = tc_open();
    login(c, "nina", pid, NULL);
    assign_match(pid, "m-7");
    expect_match_found(c, "m-7");
    /* The worker lost the match (a fenced write): UNKNOWN_MATCH passes through... */
    send_choose(c, 50, "m-7", 1);
    expect_command(worker, "m-7", pid, 50, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
    worker_answer(worker, pid, 50, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    expect_reply(c, 50, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    /* ...and the next command finds the new owner in Redis. */
    send_resync(c, 51, "m-7");
    expect_command(worker2, "m-7", pid, 51, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    worker_answer(worker2, pid, 51, DECKHAND__ERROR_CODE__OK);
    expect_reply(c, 51, DECKHAND__ERROR_CODE__OK);
    tc_close(c);
}

/* The worker sends pid (connected as c) the GameOver of match_id; c receives it. */
static void worker_game_over(tclient *c, const char *pid, const char *match_id)
{
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__GameOver go = DECKHAND__GAME_OVER__INIT;
    go.match_id = (char *)match_id;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER;
    sm.game_over = &go;
    uint8_t buf[256];
    size_t n = deckhand__server_message__pack(&sm, buf);
    Deckhand__Internal__Internal po = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerOutput o = DECKHAND__INTERNAL__PLAYER_OUTPUT__INIT;
    o.player_id = (char *)pid;
    o.match_id = (char *)match_id;
    o.message.data = buf;
    o.message.len = n;
    po.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUT;
    po.player_output = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(worker, GW_ID, &po), 0);
    Deckhand__ServerMessage *got = NULL;
    CU_ASSERT_EQUAL_FATAL(tc_recv(c, 3000, &got), 1);
    CU_ASSERT_EQUAL(got->body_case, DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    deckhand__server_message__free_unpacked(got, NULL);
}

/* A match's GameOver takes its route away: the gateway does not keep a route per match
 * forever. A later command asks Redis (here naming another worker, to tell them apart). */
static void test_gateway_game_over_drops_route(void)
{
    char pid[64];
    if (redis_pid <= 0)
        return; /* no redis-server on this machine */
    redisContext *r = redisConnect("127.0.0.1", REDIS_PORT);
    CU_ASSERT_FATAL(r && !r->err);
    freeReplyObject(redisCommand(r, "HSET match:{m-9} worker wk-two"));
    freeReplyObject(redisCommand(r, "SET worker:{wk-two} %s", WORKER2_EP));
    redisFree(r);

    tclient *c = tc_open();
    login(c, "quinn", pid, NULL);
    assign_match(pid, "m-9");
    expect_match_found(c, "m-9");
    send_resync(c, 60, "m-9"); /* routed by MatchAssigned */
    expect_command(worker, "m-9", pid, 60, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    worker_answer(worker, pid, 60, DECKHAND__ERROR_CODE__OK);
    expect_reply(c, 60, DECKHAND__ERROR_CODE__OK);

    worker_game_over(c, pid, "m-9");

    send_resync(c, 61, "m-9");
    expect_command(worker2, "m-9", pid, 61, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    worker_answer(worker2, pid, 61, DECKHAND__ERROR_CODE__OK);
    expect_reply(c, 61, DECKHAND__ERROR_CODE__OK);
    tc_close(c);
}

/* The next away on sock for (match_id, pid), skipping others; false when none came. */
static bool await_away_from(void *sock, const char *gw_id, const char *match_id, const char *pid,
                            int timeout_ms)
{
    char from[DH_ZMQ_ID_MAX + 1];
    uint64_t end = now_ms() + (uint64_t)timeout_ms;
    while (now_ms() < end) {
        Deckhand__Internal__Internal *in =
            router_recv_filtered(sock, from, (int)(end - now_ms()), false);
        if (!in)
            return false;
        bool found = is_away(in) && !strcmp(in->player_command->match_id, match_id) &&
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

static bool await_away(void *sock, const char *match_id, const char *pid, int timeout_ms)
{
    return await_away_from(sock, GW_ID, match_id, pid, timeout_ms);
}

static void test_gateway_disconnect_in_match_reports_away_to_worker(void)
{
    /* A player who left before the match formed is reported away as it is assigned. */
    assign_match("p-gone-already", "m-8c");
    CU_ASSERT_TRUE(await_away(worker, "m-8c", "p-gone-already", 3000));

    char pid[64], pid2[64];
    tclient *c = tc_open();
    login(c, "oscar", pid, NULL);
    assign_match(pid, "m-8");
    expect_match_found(c, "m-8");
    tc_close(c);
    CU_ASSERT_TRUE(await_away(worker, "m-8", pid, 3000));

    /* After its GameOver a match is not the player's business any more. */
    c = tc_open();
    login(c, "peggy", pid2, NULL);
    assign_match(pid2, "m-8b");
    expect_match_found(c, "m-8b");
    worker_game_over(c, pid2, "m-8b");
    tc_close(c);
    CU_ASSERT_FALSE(await_away(worker, "m-8b", pid2, 500));
}

/* A second gateway process with the same token key and Redis, on GW2_PORT: its pid once it
 * accepts connections, or -1. */
static pid_t start_second_gateway(const char *redis_url)
{
    char tcp[32], ws[32];
    snprintf(tcp, sizeof tcp, "127.0.0.1:%d", GW2_PORT);
    snprintf(ws, sizeof ws, "127.0.0.1:%d", GW2_PORT + 1);
    pid_t p = fork();
    if (p == 0) {
        execl(DECKHAND_BIN_DIR "/deckhand-gateway", "deckhand-gateway", "--tcp", tcp, "--ws", ws,
              "--matchmaker", MM_EP, "--redis", redis_url, "--id", GW2_ID, "--token-key", TOKEN_KEY,
              (char *)NULL);
        _exit(127);
    }
    uint64_t end = now_ms() + 10000;
    while (p > 0 && now_ms() < end) {
        int fd = tcp_connect(GW2_PORT);
        if (fd >= 0) {
            close(fd);
            return p;
        }
        usleep(50000);
    }
    if (p > 0)
        kill(p, SIGKILL);
    return -1;
}

/* Issue 4: a player whose connection to gateway A dropped resumes on gateway B with A's
 * token. A reports the dropped connection away (from A); B tells the matchmaker the
 * player is back on B; B, which never saw the match, finds its worker in Redis and sends
 * the Resync from B; and the worker's answers through B reach the player. */
static void test_gateway_resume_on_another_gateway_routes_through_it(void)
{
    char pid[64], token[DH_TOKEN_MAX], from[DH_ZMQ_ID_MAX + 1], url[64];
    if (redis_pid <= 0)
        return; /* no redis-server on this machine */
    redisContext *r = redisConnect("127.0.0.1", REDIS_PORT);
    CU_ASSERT_FATAL(r && !r->err);
    freeReplyObject(redisCommand(r, "HSET match:{m-20} worker wk-test"));
    freeReplyObject(redisCommand(r, "SET worker:{wk-test} %s", WORKER_EP));
    redisFree(r);
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", REDIS_PORT);
    pid_t gw2 = start_second_gateway(url);
    CU_ASSERT_FATAL(gw2 > 0);

    tclient *a = tc_open();
    login(a, "rita", pid, token);
    assign_match(pid, "m-20");
    expect_match_found(a, "m-20");
    tc_close(a);
    CU_ASSERT_TRUE(await_away(worker, "m-20", pid, 3000)); /* from A */

    tclient *b = tc_open_port(GW2_PORT);
    Deckhand__ServerMessage *m = NULL;
    send_hello(b, 40, "", token);
    CU_ASSERT_EQUAL_FATAL(tc_recv(b, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_STRING_EQUAL(m->welcome->player_id, pid);
    deckhand__server_message__free_unpacked(m, NULL);
    expect_reply(b, 40, DECKHAND__ERROR_CODE__OK);
    Deckhand__Internal__Internal *in = router_recv(mm, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK);
    CU_ASSERT_STRING_EQUAL(from, GW2_ID);
    CU_ASSERT_STRING_EQUAL(in->player_back->gateway_id, GW2_ID);
    CU_ASSERT_STRING_EQUAL(in->player_back->player_id, pid);
    deckhand__internal__internal__free_unpacked(in, NULL);

    send_resync(b, 41, "m-20");
    in = router_recv(worker, from, 3000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_STRING_EQUAL(from, GW2_ID);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_EQUAL(in->player_command->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 41);
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    deckhand__internal__internal__free_unpacked(in, NULL);
    worker_answer_via(worker, GW2_ID, pid, 41, DECKHAND__ERROR_CODE__OK);
    expect_reply(b, 41, DECKHAND__ERROR_CODE__OK);

    tc_close(b);
    CU_ASSERT_TRUE(await_away_from(worker, GW2_ID, "m-20", pid, 3000)); /* now from B */
    kill(gw2, SIGTERM);
    int status = 0;
    waitpid(gw2, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void stop_redis(void)
{
    kill(redis_pid, SIGTERM);
    waitpid(redis_pid, NULL, 0);
    redis_pid = 0;
}

static void start_redis(void);

static void test_gateway_redis_down_unavailable_then_recovers(void)
{
    char pid[64];
    if (redis_pid <= 0)
        return; /* no redis-server on this machine */
    tclient *c = tc_open();
    login(c, "quinn", pid, NULL);
    stop_redis();
    /* A route miss while Redis is down: UNAVAILABLE, and the gateway carries on. */
    send_resync(c, 60, "m-11");
    expect_reply(c, 60, DECKHAND__ERROR_CODE__UNAVAILABLE);
    send_ping(c, 61, 9);
    expect_pong(c, 61, 9);

    start_redis();
    CU_ASSERT_FATAL(redis_pid > 0);
    redisContext *r = redisConnect("127.0.0.1", REDIS_PORT);
    CU_ASSERT_FATAL(r && !r->err);
    freeReplyObject(redisCommand(r, "HSET match:{m-11} worker wk-test"));
    freeReplyObject(redisCommand(r, "SET worker:{wk-test} %s", WORKER_EP));
    redisFree(r);
    /* The gateway reconnects by itself (at most once a second): retry until routed. */
    char from[DH_ZMQ_ID_MAX + 1];
    bool routed = false;
    uint64_t end = now_ms() + 8000;
    for (uint64_t cmd = 62; !routed && now_ms() < end; cmd++) {
        send_resync(c, cmd, "m-11");
        Deckhand__Internal__Internal *in = router_recv(worker, from, 500);
        if (in) {
            CU_ASSERT_EQUAL(in->player_command->cmd_id, cmd);
            deckhand__internal__internal__free_unpacked(in, NULL);
            worker_answer(worker, pid, cmd, DECKHAND__ERROR_CODE__OK);
            expect_reply(c, cmd, DECKHAND__ERROR_CODE__OK);
            routed = true;
        } else {
            expect_reply(c, cmd, DECKHAND__ERROR_CODE__UNAVAILABLE);
            usleep(200000);
        }
    }
    CU_ASSERT_TRUE(routed);
    tc_close(c);
}

static void test_gateway_rate_limit(void)
{
    tclient *c = tc_open();
    login(c, "heidi", NULL, NULL);
    int limited = 0, ok = 0;
    for (int i = 0; i < 200; i++)
        send_ping(c, (uint64_t)(100 + i), (uint64_t)i);
    for (;;) {
        Deckhand__ServerMessage *m = NULL;
        if (tc_recv(c, 1000, &m) != 1)
            break;
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY) {
            if (m->reply->ok)
                ok++;
            else if (m->reply->error && m->reply->error->code == DECKHAND__ERROR_CODE__RATE_LIMITED)
                limited++;
        }
        deckhand__server_message__free_unpacked(m, NULL);
        if (ok + limited == 200)
            break;
    }
    CU_ASSERT_EQUAL(ok + limited, 200);
    CU_ASSERT(limited > 0);
    CU_ASSERT(ok >= 99);
    tc_close(c);
}

static void test_gateway_websocket_login_and_ping(void)
{
    tclient *c = ws_open();
    login(c, "ivan", NULL, NULL);
    /* A WebSocket ping is answered with a pong frame. */
    ws_send_frame(c, 9, (const uint8_t *)"hi", 2);
    send_ping(c, 2, 42);
    expect_pong(c, 2, 42);
    /* A close frame is answered with a close frame, then the connection ends. */
    const uint8_t normal[] = {0x03, 0xe8};
    ws_send_frame(c, 8, normal, sizeof normal);
    expect_closed(c);
    tc_close(c);
}

static void test_gateway_websocket_bad_path_and_oversized(void)
{
    int fd = tcp_connect(WS_PORT);
    CU_ASSERT_FATAL(fd >= 0);
    const char *req = "GET /nope HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: "
                      "Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n";
    send_all(fd, req, strlen(req));
    char buf[512] = {0};
    CU_ASSERT(read_some(fd, buf, sizeof buf - 1, 3000) > 0);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 404", 12), 0);
    close(fd);

    tclient *c = ws_open();
    uint8_t *big = calloc(1, MAX_FRAME + 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    ws_send_frame(c, 2, big, MAX_FRAME + 10);
    free(big);
    expect_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    expect_closed(c);
    tc_close(c);
}

/* ---- setup ---------------------------------------------------------------------------- */

/* A throwaway redis-server for the route lookups; none when it is not installed. */
static void start_redis(void)
{
    char port[16];
    snprintf(port, sizeof port, "%d", REDIS_PORT);
    redis_pid = fork();
    if (redis_pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, 1);
        execlp("redis-server", "redis-server", "--port", port, "--save", "", "--appendonly", "no",
               (char *)NULL);
        _exit(127);
    }
    uint64_t end = now_ms() + 5000;
    while (redis_pid > 0 && now_ms() < end) {
        int status;
        if (waitpid(redis_pid, &status, WNOHANG) == redis_pid) {
            redis_pid = 0;
            break;
        }
        int fd = tcp_connect(REDIS_PORT);
        if (fd >= 0) {
            close(fd);
            return;
        }
        usleep(50000);
    }
    fprintf(stderr, "no redis-server: the Redis lookup test is skipped\n");
    if (redis_pid > 0)
        kill(redis_pid, SIGKILL);
    redis_pid = 0;
}

static int start_gateway(void)
{
    char redis_url[64];
    start_redis();
    if (redis_pid > 0)
        snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", REDIS_PORT);
    else
        snprintf(redis_url, sizeof redis_url, "none");
    zctx = zmq_ctx_new();
    mm = dh_zmq_socket(zctx, ZMQ_ROUTER, NULL, 1000);
    worker = dh_zmq_socket(zctx, ZMQ_ROUTER, NULL, 1000);
    worker2 = dh_zmq_socket(zctx, ZMQ_ROUTER, NULL, 1000);
    if (!mm || !worker || !worker2 || zmq_bind(mm, MM_EP) < 0 || zmq_bind(worker, WORKER_EP) < 0 ||
        zmq_bind(worker2, WORKER2_EP) < 0) {
        fprintf(stderr, "cannot bind the fake matchmaker/worker: %s\n", zmq_strerror(errno));
        return -1;
    }
    char tcp[32], ws[32];
    snprintf(tcp, sizeof tcp, "127.0.0.1:%d", TCP_PORT);
    snprintf(ws, sizeof ws, "127.0.0.1:%d", WS_PORT);
    gw_pid = fork();
    if (gw_pid == 0) {
        char maxf[32];
        snprintf(maxf, sizeof maxf, "%d", MAX_FRAME);
        execl(DECKHAND_BIN_DIR "/deckhand-gateway", "deckhand-gateway", "--tcp", tcp, "--ws", ws,
              "--matchmaker", MM_EP, "--redis", redis_url, "--id", GW_ID, "--token-key", TOKEN_KEY,
              "--max-frame", maxf, (char *)NULL);
        _exit(127);
    }
    if (gw_pid < 0)
        return -1;
    /* Ready when it accepts and the matchmaker has heard its GatewayHello. */
    uint64_t end = now_ms() + 10000;
    bool up = false;
    while (!up && now_ms() < end) {
        int fd = tcp_connect(TCP_PORT);
        if (fd >= 0) {
            close(fd);
            up = true;
        } else {
            usleep(50000);
        }
    }
    char from[DH_ZMQ_ID_MAX + 1];
    while (up && now_ms() < end) {
        zmq_pollitem_t it = {mm, 0, ZMQ_POLLIN, 0};
        Deckhand__Internal__Internal *m = NULL;
        if (zmq_poll(&it, 1, 100) > 0 && dh_zmq_recv(mm, from, &m) == 1) {
            bool hello = m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO;
            deckhand__internal__internal__free_unpacked(m, NULL);
            if (hello)
                return 0;
        }
    }
    fprintf(stderr, "the gateway did not come up\n");
    return -1;
}

static int stop_gateway(void)
{
    int status = 0;
    kill(gw_pid, SIGTERM);
    waitpid(gw_pid, &status, 0);
    zmq_close(mm);
    zmq_close(worker);
    zmq_close(worker2);
    zmq_ctx_term(zctx);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_gateway_sigterm_exits_zero(void)
{
    /* Runs last: stops the gateway and checks its exit status. */
    CU_ASSERT_EQUAL(stop_gateway(), 0);
    gw_pid = 0;
}

/* True when nothing listens on, and we may bind, 127.0.0.1:port. */
static bool port_free(int port)
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
static int ports_pick(void)
{
    int start = (int)(getpid() % 200);
    for (int k = 0; k < 200; k++) {
        int base = 17000 + 10 * ((start + k) % 200);
        bool all = true;
        for (int i = 0; i < 8 && all; i++)
            all = port_free(base + i);
        if (all) {
            port_base = base;
            snprintf(mm_ep, sizeof mm_ep, "tcp://127.0.0.1:%d", base + 2);
            snprintf(worker_ep, sizeof worker_ep, "tcp://127.0.0.1:%d", base + 3);
            snprintf(worker2_ep, sizeof worker2_ep, "tcp://127.0.0.1:%d", base + 5);
            return 0;
        }
    }
    return -1;
}

int main(void)
{
    if (ports_pick() < 0) {
        fprintf(stderr, "no block of 8 free ports in 17000-18999\n");
        return 1;
    }
    static const dh_test_case cases[] = {
        {"gateway_guest_login_welcome_then_reply", test_gateway_guest_login_welcome_then_reply},
        {"gateway_message_before_hello_unauthenticated",
         test_gateway_message_before_hello_unauthenticated},
        {"gateway_bad_names_and_tokens_refused", test_gateway_bad_names_and_tokens_refused},
        {"gateway_token_resumes_player_replaces_old_connection_and_reports_back",
         test_gateway_token_resumes_player_replaces_old_connection_and_reports_back},
        {"gateway_bad_frame_closes_only_that_connection",
         test_gateway_bad_frame_closes_only_that_connection},
        {"gateway_oversized_frame_closes", test_gateway_oversized_frame_closes},
        {"gateway_queue_join_round_trip", test_gateway_queue_join_round_trip},
        {"gateway_disconnect_while_queued_reports_player_away",
         test_gateway_disconnect_while_queued_reports_player_away},
        {"gateway_queue_without_answer_unavailable", test_gateway_queue_without_answer_unavailable},
        {"gateway_match_routing_both_ways", test_gateway_match_routing_both_ways},
        {"gateway_silent_worker_gets_one_unavailable_reply",
         test_gateway_silent_worker_gets_one_unavailable_reply},
        {"gateway_unknown_route_found_in_redis", test_gateway_unknown_route_found_in_redis},
        {"gateway_match_moved_refuses_in_flight_and_reattaches",
         test_gateway_match_moved_refuses_in_flight_and_reattaches},
        {"gateway_worker_unknown_match_drops_route", test_gateway_worker_unknown_match_drops_route},
        {"gateway_game_over_drops_route", test_gateway_game_over_drops_route},
        {"gateway_disconnect_in_match_reports_away_to_worker",
         test_gateway_disconnect_in_match_reports_away_to_worker},
        {"gateway_resume_on_another_gateway_routes_through_it",
         test_gateway_resume_on_another_gateway_routes_through_it},
        {"gateway_redis_down_unavailable_then_recovers",
         test_gateway_redis_down_unavailable_then_recovers},
        {"gateway_rate_limit", test_gateway_rate_limit},
        {"gateway_websocket_login_and_ping", test_gateway_websocket_login_and_ping},
        {"gateway_websocket_bad_path_and_oversized", test_gateway_websocket_bad_path_and_oversized},
        {"gateway_sigterm_exits_zero", test_gateway_sigterm_exits_zero},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (start_gateway() < 0) {
        if (gw_pid > 0)
            kill(gw_pid, SIGKILL);
        if (redis_pid > 0)
            kill(redis_pid, SIGKILL);
        return 1;
    }
    int rc = dh_test_main("gateway", cases);
    if (gw_pid > 0)
        kill(gw_pid, SIGKILL);
    if (redis_pid > 0) {
        kill(redis_pid, SIGTERM);
        waitpid(redis_pid, NULL, 0);
    }
    return rc;
}
