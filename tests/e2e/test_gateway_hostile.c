/*
 * test_gateway_hostile.c: hostile clients against a real cluster (rig_cluster.h), ports
 * 20000-20131 (issue 12, cases 2, 3 and 5):
 *  - a player who sends a Resync or a Choose naming a match that does not exist and then
 *    disconnects is still reported away to its real match (the worker logs the seat
 *    away, as for a plain disconnect), so its grace period and then its bot can start;
 *  - a WebSocket frame header announcing 2^63-1 bytes, with no payload, gets a BAD_FRAME
 *    Reply and the close, as TCP does, and the upgrade refuses "/ws\0zz";
 *  - a QueueJoin whose mode carries a newline and a forged log line is refused with
 *    BAD_REQUEST, and no process writes the forged line.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dh_client_msg.h"
#include "dh_test.h"
#include "dh_ws.h"
#include "rig_cluster.h"
#include "rig_player.h"

#define PORT_BASE 20000

/* Wait up to ms for a worker to log that a seat of match_id is away. */
static bool seat_away_logged(const char *match_id, int ms)
{
    char what[160];
    snprintf(what, sizeof what, "match %s: ", match_id);
    for (long long end = pl_now_ms() + ms; pl_now_ms() < end; usleep(100 * 1000))
        if (rc_log_count("worker-*.log", what, " is away") > 0)
            return true;
    return false;
}

/* A match of two players; the first names a match that does not exist (by Resync, or
 * by Choose), is refused UNKNOWN_MATCH, and drops: its seat must be reported away. */
static void bogus_then_drop(const char *tag, bool choose)
{
    pl_player *a = NULL, *b = NULL;
    CU_ASSERT_FATAL(pl_start_match(tag, &a, &b));
    char match[96];
    snprintf(match, sizeof match, "%s", a->match_id);
    uint32_t opt = 1;
    uint64_t cmd = choose ? pl_send_choose(a, "m-does-not-exist", 1, &opt, 1, 0)
                          : pl_send_resync(a, "m-does-not-exist");
    CU_ASSERT_EQUAL(pl_wait_reply(a, cmd), DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_FALSE(seat_away_logged(match, 0));
    pl_drop(a);
    CU_ASSERT_TRUE(seat_away_logged(match, 5000));
    pl_drop(b);
}

static void test_bogus_resync_then_disconnect_reports_the_seat_away(void)
{
    bogus_then_drop("bogus-resync", false);
}

static void test_bogus_choose_then_disconnect_reports_the_seat_away(void)
{
    bogus_then_drop("bogus-choose", true);
}

/* A TCP connection to the gateway's WebSocket port; -1 when it fails. */
static int ws_connect(void)
{
    char host[128];
    int port = 0;
    const char *addr = pl_gateway_ws;
    if (!strncmp(addr, "ws://", 5))
        addr += 5;
    if (sscanf(addr, "%127[^:]:%d", host, &port) != 2)
        return -1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || inet_pton(AF_INET, host, &sa.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

/* Read into buf (cap bytes) until len bytes, EOF or 5 s; the bytes read. */
static size_t read_for(int fd, uint8_t *buf, size_t cap)
{
    size_t got = 0;
    long long end = pl_now_ms() + 5000;
    while (got < cap && pl_now_ms() < end) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 200) <= 0)
            continue;
        ssize_t n = recv(fd, buf + got, cap - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

static void test_websocket_huge_header_gets_bad_frame_like_tcp(void)
{
    char key[DH_WS_KEY_LEN + 1], req[512];
    uint8_t buf[4096];
    int fd = ws_connect();
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL_FATAL(dh_ws_make_key(key), 0);
    int n = dh_ws_format_request(req, sizeof req, "127.0.0.1", "/ws", key);
    CU_ASSERT_FATAL(n > 0 && send(fd, req, (size_t)n, MSG_NOSIGNAL) == n);
    /* the 101, then the header of a 2^63-1 byte binary message, masked, and nothing else */
    size_t got = 0;
    long head = 0;
    while (head == 0 && got < sizeof buf) {
        size_t more = read_for(fd, buf + got, 1);
        if (!more)
            break;
        got += more;
        head = dh_ws_check_response((const char *)buf, got, key, NULL);
    }
    CU_ASSERT_FATAL(head > 0);
    static const uint8_t hdr[] = {0x82, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff,
                                  0xff, 0xff, 0xff, 1,    2,    3,    4};
    CU_ASSERT_FATAL(send(fd, hdr, sizeof hdr, MSG_NOSIGNAL) == (ssize_t)sizeof hdr);
    got = read_for(fd, buf, sizeof buf); /* the gateway closes after its answer */
    close(fd);
    /* an unmasked binary frame of under 126 bytes: a Reply{0, BAD_FRAME} */
    CU_ASSERT_FATAL(got >= 2 && buf[0] == 0x82 && buf[1] < 126 && got >= 2u + buf[1]);
    Deckhand__ServerMessage *m = deckhand__server_message__unpack(NULL, buf[1], buf + 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_TRUE(m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->cmd_id == 0 &&
                   m->reply->error && m->reply->error->code == DECKHAND__ERROR_CODE__BAD_FRAME);
    deckhand__server_message__free_unpacked(m, NULL);
    /* then a close frame */
    size_t next = 2u + buf[1];
    CU_ASSERT(got > next && buf[next] == 0x88);

    /* "/ws\0zz" is not "/ws" */
    fd = ws_connect();
    CU_ASSERT_FATAL(fd >= 0);
    static const char nul[] =
        "GET /ws\0zz HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n";
    CU_ASSERT_FATAL(send(fd, nul, sizeof nul - 1, MSG_NOSIGNAL) == (ssize_t)(sizeof nul - 1));
    memset(buf, 0, sizeof buf);
    got = read_for(fd, buf, sizeof buf - 1);
    close(fd);
    CU_ASSERT_EQUAL(strncmp((const char *)buf, "HTTP/1.1 400", 12), 0);
}

static void test_newline_in_queue_mode_is_refused_and_forges_no_log_line(void)
{
    pl_player *p = pl_login("modeuser");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_queue_join(&msg, "dominion", 2);
    m->queue_join->mode = "casual\n1999-01-01T00:00:00.000Z ERROR matchmaker: forged-by-e2e";
    m->cmd_id = dh_client_next_cmd(p->c);
    CU_ASSERT_EQUAL_FATAL(dh_client_send(p->c, m), 0);
    CU_ASSERT_EQUAL(pl_wait_reply(p, m->cmd_id), DECKHAND__ERROR_CODE__BAD_REQUEST);
    /* the connection goes on */
    CU_ASSERT_EQUAL(pl_wait_reply(p, pl_send_ping(p, 5)), 0);
    pl_drop(p);
    usleep(300 * 1000);
    CU_ASSERT_EQUAL(rc_log_count("*.log", "^1999-01-01", NULL), 0);
    CU_ASSERT_EQUAL(rc_log_count("*.log", "forged-by-e2e", NULL), 0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"test_bogus_resync_then_disconnect_reports_the_seat_away",
         test_bogus_resync_then_disconnect_reports_the_seat_away},
        {"test_bogus_choose_then_disconnect_reports_the_seat_away",
         test_bogus_choose_then_disconnect_reports_the_seat_away},
        {"test_websocket_huge_header_gets_bad_frame_like_tcp",
         test_websocket_huge_header_gets_bad_frame_like_tcp},
        {"test_newline_in_queue_mode_is_refused_and_forges_no_log_line",
         test_newline_in_queue_mode_is_refused_and_forges_no_log_line},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("gateway-hostile", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_gateway_hostile", cases));
}
