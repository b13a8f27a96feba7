/*
 * rig_gateway_client.c: the gateway unit tests' blocking client (rig_gateway.h): TCP with
 * 4-byte length framing or WebSocket, the client messages, and what a client expects to
 * receive, each with a bounded wait.
 */
#include "rig_gateway.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dh_client_msg.h"
#include "dh_ws.h"

/* ---- the client ----------------------------------------------------------------------- */

int rg_tcp_connect(int port)
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

void rg_send_all(int fd, const void *p, size_t n)
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

ssize_t rg_read_some(int fd, void *buf, size_t n, int timeout_ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0)
        return 0;
    ssize_t r = recv(fd, buf, n, 0);
    return r <= 0 ? -1 : r;
}

rg_client *rg_open_port(int port)
{
    rg_client *c = calloc(1, sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    c->fd = rg_tcp_connect(port);
    CU_ASSERT_FATAL(c->fd >= 0);
    dh_frame_decoder_init(&c->dec, 1 << 20);
    return c;
}

rg_client *rg_open(void)
{
    return rg_open_port(rg.tcp_port);
}

void rg_close(rg_client *c)
{
    close(c->fd);
    dh_frame_decoder_free(&c->dec);
    free(c);
}

void rg_ws_send_frame(rg_client *c, int opcode, const uint8_t *p, size_t n)
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
    rg_send_all(c->fd, buf, h + n);
    free(buf);
}

rg_client *rg_ws_open(void)
{
    char key[DH_WS_KEY_LEN + 1], req[512];
    rg_client *c = calloc(1, sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    c->ws = true;
    dh_frame_decoder_init(&c->dec, 1 << 20);
    c->fd = rg_tcp_connect(rg.ws_port);
    CU_ASSERT_FATAL(c->fd >= 0);
    CU_ASSERT_FATAL(dh_ws_make_key(key) == 0);
    int n = dh_ws_format_request(req, sizeof req, "127.0.0.1", "/ws", key);
    rg_send_all(c->fd, req, (size_t)n);
    uint64_t end = dh_test_now_ms() + 3000;
    long head = 0;
    while (head == 0 && dh_test_now_ms() < end) {
        ssize_t r = rg_read_some(c->fd, c->wbuf + c->wlen, sizeof c->wbuf - c->wlen, 100);
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

void rg_send(rg_client *c, const Deckhand__ClientMessage *m)
{
    uint8_t buf[4096];
    size_t n = deckhand__client_message__get_packed_size(m);
    CU_ASSERT_FATAL(n <= sizeof buf);
    deckhand__client_message__pack(m, buf);
    if (c->ws) {
        rg_ws_send_frame(c, 2, buf, n);
        return;
    }
    uint8_t hdr[4];
    dh_frame_header(hdr, (uint32_t)n);
    rg_send_all(c->fd, hdr, 4);
    rg_send_all(c->fd, buf, n);
}

/* Parse one server WebSocket frame out of c->wbuf: 1 with opcode/payload, 0 need more. */
static int rg_ws_take(rg_client *c, int *opcode, uint8_t *out, size_t *len)
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

int rg_recv(rg_client *c, int timeout_ms, Deckhand__ServerMessage **out)
{
    uint64_t end = dh_test_now_ms() + (uint64_t)timeout_ms;
    static uint8_t buf[1 << 16];
    for (;;) {
        const uint8_t *p;
        size_t n;
        int op;
        if (!c->ws && dh_frame_next(&c->dec, &p, &n) == 1) {
            *out = deckhand__server_message__unpack(NULL, n, p);
            return *out ? 1 : -1;
        }
        if (c->ws && rg_ws_take(c, &op, buf, &n) == 1) {
            if (op == 8)
                return -1; /* close */
            if (op != 2)
                continue;
            *out = deckhand__server_message__unpack(NULL, n, buf);
            return *out ? 1 : -1;
        }
        uint64_t t = dh_test_now_ms();
        if (t >= end)
            return 0;
        ssize_t r = rg_read_some(c->fd, buf, sizeof buf, (int)(end - t));
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

/* ---- client messages ------------------------------------------------------------------ */

/* Send m (built with dh_client_msg.h) as command cmd_id. */
static void rg_send_cmd(rg_client *c, uint64_t cmd_id, Deckhand__ClientMessage *m)
{
    m->cmd_id = cmd_id;
    rg_send(c, m);
}

void rg_send_hello(rg_client *c, uint64_t cmd_id, const char *name, const char *token)
{
    dh_client_msg msg;
    rg_send_cmd(c, cmd_id, dh_client_msg_hello(&msg, name, token));
}

void rg_send_ping(rg_client *c, uint64_t cmd_id, uint64_t nonce)
{
    dh_client_msg msg;
    rg_send_cmd(c, cmd_id, dh_client_msg_ping(&msg, nonce));
}

void rg_send_queue_join(rg_client *c, uint64_t cmd_id, const char *game, uint32_t players)
{
    dh_client_msg msg;
    rg_send_cmd(c, cmd_id, dh_client_msg_queue_join(&msg, game, players));
}

void rg_send_queue_leave(rg_client *c, uint64_t cmd_id, const char *game)
{
    dh_client_msg msg;
    rg_send_cmd(c, cmd_id, dh_client_msg_queue_leave(&msg, game));
}

void rg_send_choose(rg_client *c, uint64_t cmd_id, const char *match_id, uint64_t decision_id)
{
    uint32_t opts[] = {1};
    dh_client_msg msg;
    rg_send_cmd(c, cmd_id, dh_client_msg_choose(&msg, match_id, decision_id, opts, 1));
}

void rg_send_resync(rg_client *c, uint64_t cmd_id, const char *match_id)
{
    dh_client_msg msg;
    rg_send_cmd(c, cmd_id, dh_client_msg_resync(&msg, match_id));
}

void rg_login(rg_client *c, const char *name, char *pid, char *token)
{
    Deckhand__ServerMessage *m = NULL;
    rg_send_hello(c, 1, name, "");
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    char shown[64]; /* a guest is always shown as one */
    snprintf(shown, sizeof shown, "%s (guest)", name);
    CU_ASSERT_STRING_EQUAL(m->welcome->name, shown);
    CU_ASSERT_EQUAL(strncmp(m->welcome->player_id, "p-", 2), 0);
    CU_ASSERT_EQUAL(strlen(m->welcome->player_id), 18);
    if (pid)
        strcpy(pid, m->welcome->player_id);
    if (token)
        strcpy(token, m->welcome->token);
    deckhand__server_message__free_unpacked(m, NULL);
    rg_expect_reply(c, 1, DECKHAND__ERROR_CODE__OK);
}

/* ---- what the client receives --------------------------------------------------------- */

void rg_expect_reply(rg_client *c, uint64_t cmd_id, Deckhand__ErrorCode code)
{
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 8000, &m), 1);
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

void rg_expect_closed(rg_client *c)
{
    Deckhand__ServerMessage *m = NULL;
    int rc = rg_recv(c, 3000, &m);
    CU_ASSERT_EQUAL(rc, -1);
    if (rc == 1)
        deckhand__server_message__free_unpacked(m, NULL);
}

void rg_expect_pong(rg_client *c, uint64_t cmd_id, uint64_t nonce)
{
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_PONG);
    CU_ASSERT_EQUAL(m->pong->nonce, nonce);
    deckhand__server_message__free_unpacked(m, NULL);
    rg_expect_reply(c, cmd_id, DECKHAND__ERROR_CODE__OK);
}

void rg_expect_welcome(rg_client *c, const char *pid, const char *name)
{
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &m), 1);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_WELCOME);
    CU_ASSERT_STRING_EQUAL(m->welcome->player_id, pid);
    if (name)
        CU_ASSERT_STRING_EQUAL(m->welcome->name, name);
    deckhand__server_message__free_unpacked(m, NULL);
}

void rg_expect_match_found(rg_client *c, const char *match_id)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 3000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND);
    CU_ASSERT_STRING_EQUAL(sm->match_found->match_id, match_id);
    deckhand__server_message__free_unpacked(sm, NULL);
}
