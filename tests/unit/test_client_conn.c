/*
 * test_client_conn.c: dh_client against scripted fake servers (a forked child on a
 * loopback port), over TCP and WebSocket, plus the client's WebSocket frame codec.
 *
 * The child plays the server's side byte by byte, so these tests pin the wire behaviour:
 * length framing, several messages per read, messages split across reads, the handshake,
 * fragmented and extended-length frames, ping answered with pong, masked client frames,
 * close echoed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dh_client.h"
#include "dh_client_msg.h"
#include "dh_clock.h"
#include "dh_client_ws.h"
#include "dh_frame.h"
#include "dh_test.h"
#include "dh_ws.h"

/* ---- the codec ------------------------------------------------------------------------ */

static void test_ws_header_uses_shortest_length_encoding(void)
{
    uint8_t h[DH_CLIENT_WS_MAX_HEADER];
    CU_ASSERT_EQUAL(dh_client_ws_header_write(h, DH_CLIENT_WS_BINARY, true, 125, NULL), 2);
    CU_ASSERT_EQUAL(h[0], 0x82);
    CU_ASSERT_EQUAL(h[1], 125);
    CU_ASSERT_EQUAL(dh_client_ws_header_write(h, DH_CLIENT_WS_BINARY, true, 126, NULL), 4);
    CU_ASSERT_EQUAL(h[1], 126);
    CU_ASSERT_EQUAL(h[2], 0);
    CU_ASSERT_EQUAL(h[3], 126);
    CU_ASSERT_EQUAL(dh_client_ws_header_write(h, DH_CLIENT_WS_BINARY, true, 65535, NULL), 4);
    CU_ASSERT_EQUAL(dh_client_ws_header_write(h, DH_CLIENT_WS_BINARY, false, 65536, NULL), 10);
    CU_ASSERT_EQUAL(h[0], 0x02);
    CU_ASSERT_EQUAL(h[1], 127);
    CU_ASSERT_EQUAL(h[7], 1); /* 65536 = 0x00..010000 */
    CU_ASSERT_EQUAL(h[8], 0);
}

static void test_ws_header_sets_mask_bit_and_key(void)
{
    uint8_t h[DH_CLIENT_WS_MAX_HEADER], mask[4] = {1, 2, 3, 4};
    size_t n = dh_client_ws_header_write(h, DH_CLIENT_WS_BINARY, true, 300, mask);
    CU_ASSERT_EQUAL(n, 8);
    CU_ASSERT_EQUAL(h[1], 0x80 | 126);
    CU_ASSERT_EQUAL(memcmp(h + 4, mask, 4), 0);
    dh_client_ws_header p;
    CU_ASSERT_EQUAL(dh_client_ws_parse(h, n, &p), 1);
    CU_ASSERT_TRUE(p.masked);
    CU_ASSERT_TRUE(p.fin);
    CU_ASSERT_EQUAL(p.len, 300);
    CU_ASSERT_EQUAL(p.hdrlen, 8);
    CU_ASSERT_EQUAL(memcmp(p.mask, mask, 4), 0);
}

static void test_ws_parse_roundtrips_64bit_length(void)
{
    uint8_t h[DH_CLIENT_WS_MAX_HEADER];
    size_t n = dh_client_ws_header_write(h, DH_CLIENT_WS_CONT, true, 5000000, NULL);
    dh_client_ws_header p;
    CU_ASSERT_EQUAL(dh_client_ws_parse(h, n, &p), 1);
    CU_ASSERT_EQUAL(p.opcode, DH_CLIENT_WS_CONT);
    CU_ASSERT_EQUAL(p.len, 5000000);
    CU_ASSERT_EQUAL(p.hdrlen, 10);
    CU_ASSERT_FALSE(p.masked);
}

static void test_ws_parse_waits_for_whole_header(void)
{
    uint8_t h[DH_CLIENT_WS_MAX_HEADER], mask[4] = {9, 9, 9, 9};
    size_t n = dh_client_ws_header_write(h, DH_CLIENT_WS_BINARY, true, 70000, mask);
    dh_client_ws_header p;
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(dh_client_ws_parse(h, i, &p), 0);
    CU_ASSERT_EQUAL(dh_client_ws_parse(h, n, &p), 1);
}

static void test_ws_parse_rejects_malformed_headers(void)
{
    dh_client_ws_header p;
    const uint8_t rsv[] = {0xC2, 0x00};              /* RSV1 without an extension */
    const uint8_t opcode[] = {0x83, 0x00};           /* reserved data opcode */
    const uint8_t frag_ping[] = {0x09, 0x00};        /* control frame without FIN */
    const uint8_t long_ping[] = {0x89, 126, 0, 200}; /* control payload over 125 */
    const uint8_t huge[] = {0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1};
    CU_ASSERT_EQUAL(dh_client_ws_parse(rsv, sizeof rsv, &p), -1);
    CU_ASSERT_EQUAL(dh_client_ws_parse(opcode, sizeof opcode, &p), -1);
    CU_ASSERT_EQUAL(dh_client_ws_parse(frag_ping, sizeof frag_ping, &p), -1);
    CU_ASSERT_EQUAL(dh_client_ws_parse(long_ping, sizeof long_ping, &p), -1);
    CU_ASSERT_EQUAL(dh_client_ws_parse(huge, sizeof huge, &p), -1);
}

static void test_ws_mask_is_its_own_inverse_at_any_offset(void)
{
    uint8_t buf[11] = "hello world", mask[4] = {0xA1, 0xB2, 0xC3, 0xD4};
    dh_client_ws_mask(buf, 11, mask, 0);
    CU_ASSERT_EQUAL(buf[0], 'h' ^ 0xA1);
    CU_ASSERT_EQUAL(buf[5], ' ' ^ 0xB2);
    /* Unmasking in two pieces continues the key where the first piece stopped. */
    dh_client_ws_mask(buf, 3, mask, 0);
    dh_client_ws_mask(buf + 3, 8, mask, 3);
    CU_ASSERT_EQUAL(memcmp(buf, "hello world", 11), 0);
}

/* ---- fake servers ---------------------------------------------------------------------- */

/* A listening socket on the first free port of 19800..19899 (the range this project's
 * tests may use). */
static int listen_port(int *port)
{
    for (int p = 19800; p < 19900; p++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            return -1;
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)p)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, 4) == 0) {
            *port = p;
            return fd;
        }
        close(fd);
    }
    return -1;
}

/* Moves all len bytes of buf through fd: writes them when out, else reads them (waiting
 * up to 5 s for each part). 0, or -1 on EOF, an error or the timeout. */
static int move_all(int fd, uint8_t *p, size_t len, bool out)
{
    while (len) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (!out && poll(&pfd, 1, 5000) <= 0)
            return -1;
        ssize_t n = out ? write(fd, p, len) : read(fd, p, len);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int put(int fd, const void *buf, size_t len)
{
    return move_all(fd, (uint8_t *)buf, len, true);
}

static int get(int fd, void *buf, size_t len)
{
    return move_all(fd, buf, len, false);
}

/* A packed ServerMessage: Pong{nonce}, or Event{text of textlen 'x's} when textlen > 0.
 * Caller frees. */
static uint8_t *server_msg(uint64_t nonce, size_t textlen, size_t *len)
{
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Pong pong = DECKHAND__PONG__INIT;
    Deckhand__Event ev = DECKHAND__EVENT__INIT;
    char *text = NULL;
    if (textlen) {
        text = malloc(textlen + 1);
        if (!text)
            return NULL;
        memset(text, 'x', textlen);
        text[textlen] = '\0';
        ev.text = text;
        ev.event_seq = nonce;
        m.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
        m.event = &ev;
    } else {
        pong.nonce = nonce;
        m.body_case = DECKHAND__SERVER_MESSAGE__BODY_PONG;
        m.pong = &pong;
    }
    *len = deckhand__server_message__get_packed_size(&m);
    uint8_t *buf = malloc(*len);
    if (buf)
        deckhand__server_message__pack(&m, buf);
    free(text);
    return buf;
}

static void client_ping(dh_client *c, uint64_t nonce)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_ping(&msg, nonce);
    m->cmd_id = dh_client_next_cmd(c);
    CU_ASSERT_EQUAL(dh_client_send(c, m), 0);
}

/* Receive one message and check it is Pong{nonce}, or an Event of textlen bytes. */
static void expect(dh_client *c, uint64_t nonce, size_t textlen)
{
    Deckhand__ServerMessage *s = NULL;
    CU_ASSERT_EQUAL_FATAL(dh_client_recv(c, 5000, &s), 1);
    if (textlen) {
        CU_ASSERT_EQUAL(s->body_case, DECKHAND__SERVER_MESSAGE__BODY_EVENT);
        if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT) {
            CU_ASSERT_EQUAL(strlen(s->event->text), textlen);
            CU_ASSERT_EQUAL(s->event->event_seq, nonce);
        }
    } else {
        CU_ASSERT_EQUAL(s->body_case, DECKHAND__SERVER_MESSAGE__BODY_PONG);
        if (s->body_case == DECKHAND__SERVER_MESSAGE__BODY_PONG)
            CU_ASSERT_EQUAL(s->pong->nonce, nonce);
    }
    deckhand__server_message__free_unpacked(s, NULL);
}

static void wait_child_ok(pid_t pid)
{
    int st = 0;
    CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
    CU_ASSERT_TRUE(WIFEXITED(st));
    if (WEXITSTATUS(st))
        fprintf(stderr, "fake server failed at step %d\n", WEXITSTATUS(st));
    CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
}

/* Fork a fake server: serve(listening fd, arg) runs in the child, whose exit status is
 * what it returns (wait_child_ok checks it is 0). addr gets what a client dials:
 * 127.0.0.1:PORT, or ws://127.0.0.1:PORT/ws when ws. The child's pid. */
static pid_t fake_server(int (*serve)(int lfd, const void *arg), const void *arg, bool ws,
                         char *addr, size_t addrlen)
{
    int port;
    int lfd = listen_port(&port);
    CU_ASSERT_FATAL(lfd >= 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0)
        _exit(serve(lfd, arg));
    close(lfd);
    if (ws)
        snprintf(addr, addrlen, "ws://127.0.0.1:%d/ws", port);
    else
        snprintf(addr, addrlen, "127.0.0.1:%d", port);
    return pid;
}

/* ---- TCP --------------------------------------------------------------------------- */

/* The TCP server: three Pongs in two writes (the third split across them), then it reads
 * one framed Ping{9} and hangs up. Exit status = the failing step. */
static int tcp_server(int lfd, const void *arg)
{
    (void)arg;
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0)
        return 1;
    uint8_t out[256];
    size_t off = 0;
    for (uint64_t n = 1; n <= 3; n++) {
        size_t len;
        uint8_t *m = server_msg(n, 0, &len);
        if (!m)
            return 2;
        dh_frame_header(out + off, (uint32_t)len);
        memcpy(out + off + 4, m, len);
        off += 4 + len;
        free(m);
    }
    if (put(fd, out, off - 3) < 0)
        return 3;
    usleep(100000);
    if (put(fd, out + off - 3, 3) < 0)
        return 4;
    uint8_t hdr[4], body[64];
    if (get(fd, hdr, 4) < 0)
        return 5;
    size_t len = ((size_t)hdr[0] << 24) | ((size_t)hdr[1] << 16) | ((size_t)hdr[2] << 8) | hdr[3];
    if (len > sizeof body || get(fd, body, len) < 0)
        return 6;
    Deckhand__ClientMessage *cm = deckhand__client_message__unpack(NULL, len, body);
    if (!cm)
        return 7;
    int ok = cm->body_case == DECKHAND__CLIENT_MESSAGE__BODY_PING && cm->ping->nonce == 9 &&
             cm->cmd_id == 1;
    deckhand__client_message__free_unpacked(cm, NULL);
    close(fd);
    return ok ? 0 : 8;
}

/* The server's side is over: c's next receive says closed (-1); c is closed and the
 * fake server's child (pid) must have exited 0. */
static void expect_closed_and_done(dh_client *c, pid_t pid)
{
    Deckhand__ServerMessage *s = NULL;
    CU_ASSERT_EQUAL(dh_client_recv(c, 5000, &s), -1);
    dh_client_close(c);
    wait_child_ok(pid);
}

static void test_tcp_splits_and_joins_frames_across_reads(void)
{
    char addr[64], err[256];
    pid_t pid = fake_server(tcp_server, NULL, false, addr, sizeof addr);
    dh_client *c = dh_client_connect(addr, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    usleep(50000); /* both whole frames are in the socket now */
    expect(c, 1, 0);
    CU_ASSERT_TRUE(dh_client_pending(c)); /* the second came in the same read */
    expect(c, 2, 0);
    CU_ASSERT_FALSE(dh_client_pending(c)); /* the third is still incomplete */
    expect(c, 3, 0);
    client_ping(c, 9);
    expect_closed_and_done(c, pid); /* the server hung up */
}

static void test_tcp_recv_times_out_without_data(void)
{
    int port;
    int lfd = listen_port(&port);
    CU_ASSERT_FATAL(lfd >= 0);
    char addr[64], err[256];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", port);
    dh_client *c = dh_client_connect(addr, err, sizeof err); /* the backlog accepts it */
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Deckhand__ServerMessage *s = NULL;
    CU_ASSERT_EQUAL(dh_client_recv(c, 50, &s), 0);
    CU_ASSERT_EQUAL(dh_client_next_cmd(c), 1);
    CU_ASSERT_EQUAL(dh_client_next_cmd(c), 2);
    dh_client_close(c);
    close(lfd);
}

/* Sends a frame that does not decode, then waits for the client to give up. */
static int junk_server(int lfd, const void *arg)
{
    (void)arg;
    int fd = accept(lfd, NULL, NULL);
    const uint8_t junk[] = {0, 0, 0, 3, 0xFF, 0xFF, 0xFF};
    return fd < 0 || put(fd, junk, sizeof junk) < 0 ? 1 : (usleep(200000), 0);
}

static void test_tcp_undecodable_message_ends_connection(void)
{
    char addr[64], err[256];
    pid_t pid = fake_server(junk_server, NULL, false, addr, sizeof addr);
    dh_client *c = dh_client_connect(addr, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    expect_closed_and_done(c, pid);
}

/* Waits for one framed message from the client, then sends Pong{5} and waits for the
 * client to hang up. */
static int stamp_server(int lfd, const void *arg)
{
    (void)arg;
    int fd = accept(lfd, NULL, NULL);
    uint8_t hdr[4], body[64], out[64];
    size_t len;
    if (fd < 0 || get(fd, hdr, 4) < 0)
        return 1;
    len = ((size_t)hdr[0] << 24) | ((size_t)hdr[1] << 16) | ((size_t)hdr[2] << 8) | hdr[3];
    uint8_t *m = len <= sizeof body && get(fd, body, len) == 0 ? server_msg(5, 0, &len) : NULL;
    if (!m)
        return 2;
    dh_frame_header(out, (uint32_t)len);
    memcpy(out + 4, m, len);
    free(m);
    return put(fd, out, len + 4) < 0 || get(fd, body, 1) == 0 ? 3 : 0;
}

/* Whether a datagram to ourselves, read 20 ms after it was sent, carries a stamp at least
 * 10 ms old: the kernel stamps packets as they arrive. */
static bool datagram_stamped_on_arrival(int fd, const struct sockaddr_in *a)
{
    char b[1];
    union {
        char c[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = {.iov_base = b, .iov_len = 1};
    struct msghdr mh = {
        .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.c, .msg_controllen = sizeof ctl.c};
    if (sendto(fd, "x", 1, 0, (const struct sockaddr *)a, sizeof *a) != 1)
        return false;
    usleep(20000);
    if (recvmsg(fd, &mh, 0) != 1)
        return false;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPNS)
            continue;
        struct timespec at;
        memcpy(&at, CMSG_DATA(cm), sizeof at);
        int64_t ago = ((int64_t)now.tv_sec - at.tv_sec) * 1000000000 + (now.tv_nsec - at.tv_nsec);
        return ago >= 10000000;
    }
    return false;
}

/* The kernel turns receive stamps on for the whole system in deferred work the first time
 * a socket asks (net_enable_timestamp), so packets that arrive before that work ran carry
 * none, and dh_client then stamps the read (by design: no better time is known). On a
 * loaded machine the work ran late and the test read a right fallback as a late stamp.
 * So: keep a socket asking for stamps, and wait until packets carry them. */
static int stamps_on(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0), on = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) == 0);
    CU_ASSERT_FATAL(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
    CU_ASSERT_FATAL(getsockname(fd, (struct sockaddr *)&a, &al) == 0);
    int tries = 0;
    while (tries++ < 250 && !datagram_stamped_on_arrival(fd, &a)) {
    }
    CU_ASSERT(tries <= 250);
    printf("\n  kernel receive stamps on after %d datagram(s)", tries);
    return fd;
}

/* With receive stamps, a message read 150 ms after it arrived carries its arrival time,
 * not the time of the read. The arrival is known to be over once the socket polls
 * readable, however long the server took to answer (a loaded machine: the ASan build's
 * forked server once took more than 50 ms, and a fixed wait called that a late stamp). */
static void test_tcp_rx_stamp_is_the_arrival_not_the_read(void)
{
    char addr[64], err[256];
    int keep = stamps_on();
    pid_t pid = fake_server(stamp_server, NULL, false, addr, sizeof addr);
    dh_client *c = dh_client_connect(addr, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(dh_client_rx_ns(c), 0);
    CU_ASSERT_EQUAL_FATAL(dh_client_set_rx_stamps(c, true), 0);
    uint64_t sent = dh_now_ns();
    client_ping(c, 5); /* the server answers it at once */
    struct pollfd pfd = {.fd = dh_client_fd(c), .events = POLLIN};
    CU_ASSERT_EQUAL_FATAL(poll(&pfd, 1, 10000), 1);
    uint64_t arrived_by = dh_now_ns();
    usleep(150000);
    uint64_t read_at = dh_now_ns();
    expect(c, 5, 0);
    uint64_t rx = dh_client_rx_ns(c);
    CU_ASSERT_TRUE(rx >= sent);
    CU_ASSERT_TRUE(rx <= arrived_by);
    CU_ASSERT_TRUE(rx + 150000000u <= read_at);
    dh_client_close(c);
    wait_child_ok(pid);
    close(keep);
}

static void test_connect_rejects_bad_addresses(void)
{
    char err[256];
    CU_ASSERT_PTR_NULL(dh_client_connect("no-port", err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad address"));
    CU_ASSERT_PTR_NULL(dh_client_connect("127.0.0.1:7/x", err, sizeof err));
    CU_ASSERT_PTR_NULL(dh_client_connect("ws://127.0.0.1:/ws", err, sizeof err));
}

/* ---- WebSocket ------------------------------------------------------------------------ */

static int ws_put_frame(int fd, int opcode, bool fin, const void *payload, size_t len)
{
    uint8_t h[DH_CLIENT_WS_MAX_HEADER];
    size_t hl = dh_client_ws_header_write(h, opcode, fin, len, NULL);
    return put(fd, h, hl) < 0 || put(fd, payload, len) < 0 ? -1 : 0;
}

/* Read one client frame: it must be masked. Payload unmasked into buf (cap). */
static int ws_get_frame(int fd, dh_client_ws_header *h, uint8_t *buf, size_t cap)
{
    uint8_t hb[DH_CLIENT_WS_MAX_HEADER];
    size_t have = 0;
    int r;
    do {
        if (get(fd, hb + have, 1) < 0)
            return -1;
        have++;
    } while ((r = dh_client_ws_parse(hb, have, h)) == 0);
    if (r < 0 || !h->masked || h->len > cap || get(fd, buf, (size_t)h->len) < 0)
        return -1;
    dh_client_ws_mask(buf, (size_t)h->len, h->mask, 0);
    return 0;
}

/* The WebSocket server: handshake; Pong{1} in three fragments with a ping between them;
 * two Events needing 16- and 64-bit lengths in one write; then expects the client's pong
 * and a masked Ping{7}; closes with 1000 and expects the close echoed. */
static int ws_server(int lfd, const void *arg)
{
    (void)arg;
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0)
        return 1;
    char req[DH_WS_HEADER_MAX];
    size_t have = 0;
    dh_ws_request wr;
    const char *why;
    long hl = 0;
    while (hl == 0 && have < sizeof req) {
        if (get(fd, req + have, 1) < 0)
            return 2;
        have++;
        hl = dh_ws_parse_request(req, have, &wr, &why);
    }
    if (hl <= 0 || strcmp(wr.path, "/ws") != 0)
        return 3;
    char resp[512];
    int rl = dh_ws_response(&wr, resp, sizeof resp);
    if (rl < 0 || put(fd, resp, (size_t)rl) < 0)
        return 4;

    size_t len;
    uint8_t *m = server_msg(1, 0, &len);
    if (!m || len < 3)
        return 5;
    int bad = ws_put_frame(fd, DH_CLIENT_WS_BINARY, false, m, 1) ||
              ws_put_frame(fd, DH_CLIENT_WS_PING, true, "hi", 2) ||
              ws_put_frame(fd, DH_CLIENT_WS_CONT, false, m + 1, 1) ||
              ws_put_frame(fd, DH_CLIENT_WS_CONT, true, m + 2, len - 2);
    free(m);
    if (bad)
        return 6;
    size_t l1, l2;
    uint8_t *e1 = server_msg(2, 300, &l1), *e2 = server_msg(3, 70000, &l2);
    bad = !e1 || !e2 || ws_put_frame(fd, DH_CLIENT_WS_BINARY, true, e1, l1) ||
          ws_put_frame(fd, DH_CLIENT_WS_BINARY, true, e2, l2);
    free(e1);
    free(e2);
    if (bad)
        return 7;

    dh_client_ws_header h;
    uint8_t buf[256];
    if (ws_get_frame(fd, &h, buf, sizeof buf) < 0 || h.opcode != DH_CLIENT_WS_PONG || h.len != 2 ||
        memcmp(buf, "hi", 2))
        return 8;
    if (ws_get_frame(fd, &h, buf, sizeof buf) < 0 || h.opcode != DH_CLIENT_WS_BINARY)
        return 9;
    Deckhand__ClientMessage *cm = deckhand__client_message__unpack(NULL, (size_t)h.len, buf);
    if (!cm)
        return 10;
    int ok = cm->body_case == DECKHAND__CLIENT_MESSAGE__BODY_PING && cm->ping->nonce == 7;
    deckhand__client_message__free_unpacked(cm, NULL);
    if (!ok)
        return 11;
    const uint8_t code[2] = {0x03, 0xE8};
    if (ws_put_frame(fd, DH_CLIENT_WS_CLOSE, true, code, 2) < 0)
        return 12;
    if (ws_get_frame(fd, &h, buf, sizeof buf) < 0 || h.opcode != DH_CLIENT_WS_CLOSE || h.len != 2 ||
        memcmp(buf, code, 2))
        return 13;
    close(fd);
    return 0;
}

static void test_ws_reassembles_fragments_answers_ping_and_echoes_close(void)
{
    char addr[64], err[256];
    pid_t pid = fake_server(ws_server, NULL, true, addr, sizeof addr);
    dh_client *c = dh_client_connect(addr, err, sizeof err);
    if (!c)
        fprintf(stderr, "connect: %s\n", err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    expect(c, 1, 0);
    expect(c, 2, 300);
    expect(c, 3, 70000);
    client_ping(c, 7);
    expect_closed_and_done(c, pid); /* closed by the server */
}

static int wrong_accept_server(int lfd, const void *arg)
{
    (void)arg;
    int fd = accept(lfd, NULL, NULL);
    char req[2048];
    if (fd < 0 || read(fd, req, sizeof req) <= 0)
        return 1;
    const char *resp = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                       "Connection: Upgrade\r\n"
                       "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
    return put(fd, resp, strlen(resp)) < 0 ? 2 : (usleep(200000), 0);
}

/* A server that answers the upgrade with a wrong accept value must be refused. */
static void test_ws_refuses_wrong_accept(void)
{
    char addr[64], err[256];
    pid_t pid = fake_server(wrong_accept_server, NULL, true, addr, sizeof addr);
    CU_ASSERT_PTR_NULL(dh_client_connect(addr, err, sizeof err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "handshake"));
    wait_child_ok(pid);
}

/* ---- login ------------------------------------------------------------------------- */

static int put_server_msg(int fd, const Deckhand__ServerMessage *m)
{
    size_t len = deckhand__server_message__get_packed_size(m);
    uint8_t *buf = malloc(len + DH_FRAME_HEADER);
    if (!buf)
        return -1;
    dh_frame_header(buf, (uint32_t)len);
    deckhand__server_message__pack(m, buf + DH_FRAME_HEADER);
    int rc = put(fd, buf, len + DH_FRAME_HEADER);
    free(buf);
    return rc;
}

/* A gateway's login: reads Hello (a guest's name "alice", or when resume the token
 * "tok.old"), sends an unrelated Event first, then Welcome and a Reply (ok, or
 * UNAUTHENTICATED when ok is false). */
/* What login_server answers: a Welcome and an ok Reply, or a refusal; to a Hello with a
 * token (resume) or a name. */
typedef struct {
    bool ok, resume;
} login_opts;

static int login_server(int lfd, const void *arg)
{
    bool ok = ((const login_opts *)arg)->ok, resume = ((const login_opts *)arg)->resume;
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0)
        return 1;
    uint8_t hdr[4], body[256];
    if (get(fd, hdr, 4) < 0)
        return 2;
    size_t len = ((size_t)hdr[2] << 8) | hdr[3];
    if (hdr[0] || hdr[1] || len > sizeof body || get(fd, body, len) < 0)
        return 3;
    Deckhand__ClientMessage *cm = deckhand__client_message__unpack(NULL, len, body);
    if (!cm || cm->body_case != DECKHAND__CLIENT_MESSAGE__BODY_HELLO ||
        strcmp(resume ? cm->hello->token : cm->hello->name, resume ? "tok.old" : "alice") != 0)
        return 4;
    uint64_t cmd = cm->cmd_id;
    deckhand__client_message__free_unpacked(cm, NULL);

    Deckhand__ServerMessage ev = DECKHAND__SERVER_MESSAGE__INIT,
                            wm = DECKHAND__SERVER_MESSAGE__INIT,
                            rm = DECKHAND__SERVER_MESSAGE__INIT;
    Deckhand__Event e = DECKHAND__EVENT__INIT;
    Deckhand__Welcome w = DECKHAND__WELCOME__INIT;
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    Deckhand__Error er = DECKHAND__ERROR__INIT;
    ev.body_case = DECKHAND__SERVER_MESSAGE__BODY_EVENT;
    ev.event = &e;
    w.player_id = "p-0123456789abcdef";
    w.token = "tok.sig";
    w.name = "alice";
    wm.body_case = DECKHAND__SERVER_MESSAGE__BODY_WELCOME;
    wm.welcome = &w;
    r.cmd_id = cmd;
    r.ok = ok;
    if (!ok) {
        er.code = DECKHAND__ERROR_CODE__UNAUTHENTICATED;
        r.error = &er;
    }
    rm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    rm.reply = &r;
    if (put_server_msg(fd, &ev) < 0 || (ok && put_server_msg(fd, &wm) < 0) ||
        put_server_msg(fd, &rm) < 0)
        return 5;
    usleep(100000);
    close(fd);
    return 0;
}

/* first_cmd: when not 0, the cmd_id sequence is set to go on from there first (a
 * reconnecting client). */
static void run_login(bool ok, bool resume, unsigned long long first_cmd)
{
    login_opts opts = {ok, resume};
    char addr[64], err[256], id[64] = "", tok[64] = "";
    pid_t pid = fake_server(login_server, &opts, false, addr, sizeof addr);
    dh_client *c = dh_client_connect(addr, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    if (first_cmd)
        dh_client_set_next_cmd(c, first_cmd);
    int rc = resume ? dh_client_resume(c, "tok.old", id, sizeof id, tok, sizeof tok)
                    : dh_client_login(c, "alice", id, sizeof id, tok, sizeof tok);
    if (ok) {
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_STRING_EQUAL(id, "p-0123456789abcdef");
        CU_ASSERT_STRING_EQUAL(tok, "tok.sig");
        /* Hello took cmd_id 1, or the first of the sequence it was given. */
        CU_ASSERT_EQUAL(dh_client_next_cmd(c), first_cmd ? first_cmd + 1 : 2);
    } else {
        CU_ASSERT_EQUAL(rc, -1);
    }
    dh_client_close(c);
    wait_child_ok(pid);
}

static void test_login_copies_id_and_token_from_welcome(void)
{
    run_login(true, false, 0);
}

static void test_login_fails_on_error_reply(void)
{
    run_login(false, false, 0);
}

static void test_resume_sends_token_and_takes_fresh_one(void)
{
    run_login(true, true, 0);
}

static void test_resume_goes_on_with_the_previous_cmd_ids(void)
{
    run_login(true, true, 57);
}

static void test_resume_fails_on_refused_token(void)
{
    run_login(false, true, 0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"ws_header_uses_shortest_length_encoding", test_ws_header_uses_shortest_length_encoding},
        {"ws_header_sets_mask_bit_and_key", test_ws_header_sets_mask_bit_and_key},
        {"ws_parse_roundtrips_64bit_length", test_ws_parse_roundtrips_64bit_length},
        {"ws_parse_waits_for_whole_header", test_ws_parse_waits_for_whole_header},
        {"ws_parse_rejects_malformed_headers", test_ws_parse_rejects_malformed_headers},
        {"ws_mask_is_its_own_inverse_at_any_offset", test_ws_mask_is_its_own_inverse_at_any_offset},
        {"tcp_splits_and_joins_frames_across_reads", test_tcp_splits_and_joins_frames_across_reads},
        {"tcp_recv_times_out_without_data", test_tcp_recv_times_out_without_data},
        {"tcp_rx_stamp_is_the_arrival_not_the_read", test_tcp_rx_stamp_is_the_arrival_not_the_read},
        {"tcp_undecodable_message_ends_connection", test_tcp_undecodable_message_ends_connection},
        {"connect_rejects_bad_addresses", test_connect_rejects_bad_addresses},
        {"ws_reassembles_fragments_answers_ping_and_echoes_close",
         test_ws_reassembles_fragments_answers_ping_and_echoes_close},
        {"ws_refuses_wrong_accept", test_ws_refuses_wrong_accept},
        {"login_copies_id_and_token_from_welcome", test_login_copies_id_and_token_from_welcome},
        {"login_fails_on_error_reply", test_login_fails_on_error_reply},
        {"resume_sends_token_and_takes_fresh_one", test_resume_sends_token_and_takes_fresh_one},
        {"resume_fails_on_refused_token", test_resume_fails_on_refused_token},
        {"resume_goes_on_with_the_previous_cmd_ids", test_resume_goes_on_with_the_previous_cmd_ids},
        {NULL, NULL},
    };
    return dh_test_main("client_conn", cases);
}
