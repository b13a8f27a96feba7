/*
 * test_gateway_conn.c: client transports of the real deckhand-gateway binary
 * (rig_gateway.h): BAD_FRAME closing only the offending connection, the frame limit over
 * TCP and WebSocket (refused at the header on both), WebSocket framing (ping, close, the
 * /ws path, no control characters in the upgrade), and a clean exit on SIGTERM.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rig_gateway.h"

static void test_gateway_bad_frame_closes_only_that_connection(void)
{
    rg_client *good = rg_open_as("dave", NULL);
    rg_client *bad = rg_open();
    const uint8_t garbage[] = {0, 0, 0, 3, 0xff, 0xff, 0xff};
    rg_send_all(bad->fd, garbage, sizeof garbage);
    rg_expect_reply(bad, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    rg_expect_closed(bad);
    rg_send_ping(good, 2, 3);
    rg_expect_pong(good, 2, 3);
    rg_close(bad);
    rg_close(good);
}

static void test_gateway_oversized_frame_closes(void)
{
    rg_client *c = rg_open();
    uint8_t hdr[4];
    dh_frame_header(hdr, RG_MAX_FRAME + 1);
    rg_send_all(c->fd, hdr, 4);
    rg_expect_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    rg_expect_closed(c);
    rg_close(c);
}

static void test_gateway_websocket_login_and_ping(void)
{
    rg_client *c = rg_ws_open();
    rg_login(c, "ivan", NULL, NULL);
    /* A WebSocket ping is answered with a pong frame. */
    rg_ws_send_frame(c, 9, (const uint8_t *)"hi", 2);
    rg_send_ping(c, 2, 42);
    rg_expect_pong(c, 2, 42);
    /* A close frame is answered with a close frame, then the connection ends. */
    const uint8_t normal[] = {0x03, 0xe8};
    rg_ws_send_frame(c, 8, normal, sizeof normal);
    rg_expect_closed(c);
    rg_close(c);
}

static void test_gateway_websocket_bad_path_and_oversized(void)
{
    int fd = rg_tcp_connect(rg.ws_port);
    CU_ASSERT_FATAL(fd >= 0);
    const char *req = "GET /nope HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: "
                      "Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n";
    rg_send_all(fd, req, strlen(req));
    char buf[512] = {0};
    CU_ASSERT(rg_read_some(fd, buf, sizeof buf - 1, 3000) > 0);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 404", 12), 0);
    close(fd);

    rg_client *c = rg_ws_open();
    uint8_t *big = calloc(1, RG_MAX_FRAME + 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    rg_ws_send_frame(c, 2, big, RG_MAX_FRAME + 10);
    free(big);
    rg_expect_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    rg_expect_closed(c);
    rg_close(c);
}

/* A masked frame header (first byte b0: FIN, opcode) announcing len bytes, sent alone. */
static void ws_send_header(rg_client *c, uint8_t b0, uint64_t len)
{
    uint8_t hdr[14];
    size_t h = 0;
    hdr[h++] = b0;
    if (len < 126) {
        hdr[h++] = (uint8_t)(0x80 | len);
    } else if (len <= 0xffff) {
        hdr[h++] = 0x80 | 126;
        hdr[h++] = (uint8_t)(len >> 8);
        hdr[h++] = (uint8_t)len;
    } else {
        hdr[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            hdr[h++] = (uint8_t)(len >> (8 * i));
    }
    memcpy(hdr + h, "\x12\x34\x56\x78", 4);
    rg_send_all(c->fd, hdr, h + 4);
}

/* Issue 12, case 3: a WebSocket frame header announcing more than the frame limit is
 * refused at the header, as on TCP: a BAD_FRAME Reply, then the close, with no payload
 * sent at all; whatever the length (just over the limit, past wslay's own 2 * limit + 1
 * backstop, or 2^63 - 1). */
static void test_gateway_websocket_oversized_header_refused_at_the_header(void)
{
    const uint64_t lens[] = {RG_MAX_FRAME + 1, 2 * RG_MAX_FRAME + 2, 131074, 0x7fffffffffffffffULL,
                             0xffffffffffffffffULL};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        rg_client *c = rg_ws_open();
        ws_send_header(c, 0x82, lens[i]);
        rg_expect_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
        rg_expect_closed(c);
        rg_close(c);
    }
    /* A fragmented message is refused at the header of the fragment that takes it over
     * the limit: 3,000 bytes, then a continuation announcing 2,000 more. */
    rg_client *c = rg_ws_open();
    static uint8_t part[3000];
    ws_send_header(c, 0x02, sizeof part);
    rg_send_all(c->fd, part, sizeof part);
    ws_send_header(c, 0x80, 2000);
    rg_expect_reply(c, 0, DECKHAND__ERROR_CODE__BAD_FRAME);
    rg_expect_closed(c);
    rg_close(c);
}

/* Issue 12, case 3: the upgrade refuses control characters in the request line and the
 * headers; "/ws\0zz" is not "/ws". */
static void test_gateway_websocket_upgrade_refuses_control_characters(void)
{
#define REQ(s)                                                                                     \
    {                                                                                              \
        s, sizeof s - 1                                                                            \
    }
    static const struct {
        const char *s;
        size_t n;
    } reqs[] = {
        REQ("GET /ws\0zz HTTP/1.1\r\nHost: x\r\n"),
        REQ("GET /ws\x01 HTTP/1.1\r\nHost: x\r\n"),
        REQ("GET /ws HTTP/1.1\r\nHost: x\0y\r\n"),
        REQ("GET /ws HTTP/1.1\r\nHost: x\r\nX-Note: a\x1b[2Jb\r\n"),
    };
#undef REQ
    const char *rest = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                       "Sec-WebSocket-Version: 13\r\n\r\n";
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        int fd = rg_tcp_connect(rg.ws_port);
        CU_ASSERT_FATAL(fd >= 0);
        rg_send_all(fd, reqs[i].s, reqs[i].n);
        rg_send_all(fd, rest, strlen(rest));
        char buf[512] = {0};
        CU_ASSERT(rg_read_some(fd, buf, sizeof buf - 1, 3000) > 0);
        CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 400", 12), 0);
        close(fd);
    }
}

/* A Ping's frame (header and payload) in a new buffer of *len bytes. */
static uint8_t *ping_frame(uint64_t cmd_id, size_t *len)
{
    Deckhand__Ping ping = DECKHAND__PING__INIT;
    ping.nonce = cmd_id * 10;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    m.cmd_id = cmd_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_PING;
    m.ping = &ping;
    uint8_t payload[64];
    size_t n = deckhand__client_message__pack(&m, payload);
    return dh_frame_encode(payload, n, len);
}

static void append(uint8_t *dst, size_t *at, const uint8_t *src, size_t n)
{
    memcpy(dst + *at, src, n);
    *at += n;
}

/* Frames joined in one read and split across reads (in the header, in the payload) all
 * arrive, in order: whole frames are taken from the read buffer itself, a partial one is
 * kept until the rest comes. */
static void test_gateway_tcp_frames_split_and_joined_across_reads_all_arrive(void)
{
    rg_client *c = rg_open_as("erin", NULL);
    size_t len[4];
    uint8_t *f[4];
    for (int i = 0; i < 4; i++)
        f[i] = ping_frame(31 + (uint64_t)i, &len[i]);
    uint8_t a[256], b[256];
    size_t na = 0, nb = 0;
    append(a, &na, f[0], len[0]);
    append(a, &na, f[1], len[1]);
    append(a, &na, f[2], 3); /* inside the third frame's header */
    append(b, &nb, f[2] + 3, len[2] - 3);
    append(b, &nb, f[3], len[3] - 2); /* inside the fourth's payload */
    rg_send_all(c->fd, a, na);
    usleep(50 * 1000); /* separate reads */
    rg_send_all(c->fd, b, nb);
    usleep(50 * 1000);
    rg_send_all(c->fd, f[3] + len[3] - 2, 2);
    for (int i = 0; i < 4; i++) {
        rg_expect_pong(c, 31 + (uint64_t)i, (31 + (uint64_t)i) * 10);
        free(f[i]);
    }
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_bad_frame_closes_only_that_connection",
         test_gateway_bad_frame_closes_only_that_connection},
        {"gateway_oversized_frame_closes", test_gateway_oversized_frame_closes},
        {"gateway_tcp_frames_split_and_joined_across_reads_all_arrive",
         test_gateway_tcp_frames_split_and_joined_across_reads_all_arrive},
        {"gateway_websocket_login_and_ping", test_gateway_websocket_login_and_ping},
        {"gateway_websocket_bad_path_and_oversized", test_gateway_websocket_bad_path_and_oversized},
        {"gateway_websocket_oversized_header_refused_at_the_header",
         test_gateway_websocket_oversized_header_refused_at_the_header},
        {"gateway_websocket_upgrade_refuses_control_characters",
         test_gateway_websocket_upgrade_refuses_control_characters},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_conn", cases);
}
