/*
 * test_gateway_conn.c: client transports of the real deckhand-gateway binary
 * (rig_gateway.h): BAD_FRAME closing only the offending connection, the frame limit over
 * TCP and WebSocket, WebSocket framing (ping, close, the /ws path), and a clean exit on
 * SIGTERM.
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

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_bad_frame_closes_only_that_connection",
         test_gateway_bad_frame_closes_only_that_connection},
        {"gateway_oversized_frame_closes", test_gateway_oversized_frame_closes},
        {"gateway_websocket_login_and_ping", test_gateway_websocket_login_and_ping},
        {"gateway_websocket_bad_path_and_oversized", test_gateway_websocket_bad_path_and_oversized},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_conn", cases);
}
