/*
 * test_gateway_flood_ban.c: a flood against a real cluster (rig_cluster.h), ports
 * 20200-20331 (issue 12, case 4; gateway/flood.h). One logged-in client sends 50,000
 * Resyncs as fast as it can: it gets a bounded number of RATE_LIMITED Replies (not one
 * per message), a last Reply{cmd_id 0, RATE_LIMITED} saying how many went without one,
 * and is disconnected within seconds; a new connection from its address is refused while
 * the ban runs (4 s here, DECKHAND_GATEWAY_FLOOD_BAN_MS) and welcome after it; the
 * gateway stays healthy (/healthz) and counts the flood (/metrics); and two players in a
 * match on the same gateway play on undisturbed.
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
#include "dh_frame.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#define PORT_BASE 20200
#define BAN_MS    4000
#define FLOOD     50000

/* GET path from the gateway's operator port: the response into out (NUL-terminated). */
static void http_get(const char *path, char *out, size_t n)
{
    char addr[128], host[64], req[256];
    int port = 0;
    out[0] = '\0';
    if (rc_env("DECKHAND_HTTP_GATEWAY", addr, sizeof addr) != 0)
        return;
    const char *a = strncmp(addr, "http://", 7) ? addr : addr + 7;
    if (sscanf(a, "%63[^:]:%d", host, &port) != 2)
        return;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return;
    if (inet_pton(AF_INET, host, &sa.sin_addr) == 1 &&
        connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
        int k = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
        if (send(fd, req, (size_t)k, MSG_NOSIGNAL) == k) {
            size_t got = 0;
            ssize_t r;
            while (got + 1 < n && (r = recv(fd, out + got, n - 1 - got, 0)) > 0)
                got += (size_t)r;
            out[got] = '\0';
        }
    }
    close(fd);
}

/* The value of an unlabelled counter in a /metrics text, or -1. */
static long metric(const char *text, const char *name)
{
    char want[128];
    snprintf(want, sizeof want, "\n%s ", name);
    const char *p = strstr(text, want);
    return p ? strtol(p + strlen(want), NULL, 10) : -1;
}

/* 50,000 framed Resyncs of a match that does not matter, in one buffer (*len bytes). */
static uint8_t *flood_bytes(size_t *len)
{
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_resync(&msg, "m-flood");
    m->cmd_id = 1000000;
    size_t one = deckhand__client_message__get_packed_size(m) + DH_FRAME_HEADER + 4;
    uint8_t *buf = malloc(one * FLOOD), *p = buf;
    if (!buf)
        return NULL;
    for (int i = 0; i < FLOOD; i++) {
        m->cmd_id = 1000000 + (uint64_t)i;
        size_t n = deckhand__client_message__get_packed_size(m);
        dh_frame_header(p, (uint32_t)n);
        deckhand__client_message__pack(m, p + DH_FRAME_HEADER);
        p += DH_FRAME_HEADER + n;
    }
    *len = (size_t)(p - buf);
    return buf;
}

/* Play up to n decisions of a's and b's match with the rig's bot: how many were
 * accepted. */
static int play(pl_player *a, pl_player *b, int n)
{
    pl_player *ps[] = {a, b};
    int ok = 0;
    for (int i = 0; i < n && !a->game_over && !b->game_over; i++) {
        pl_player *d = pl_wait_decider(ps, 2);
        if (!d || pl_bot_answer(d) != 0)
            break;
        ok++;
    }
    return ok;
}

static void test_flood_is_disconnected_banned_and_harms_nobody_else(void)
{
    pl_player *a = NULL, *b = NULL;
    CU_ASSERT_FATAL(pl_start_match("bystander", &a, &b));
    CU_ASSERT_EQUAL(play(a, b, 3), 3);

    pl_player *f = pl_login("flooder");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    size_t len = 0;
    uint8_t *bytes = flood_bytes(&len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    long long t0 = pl_now_ms();
    for (size_t off = 0; off < len; off += 65536) /* stops mattering once it is closed */
        if (dh_client_send_bytes(f->c, bytes + off, len - off < 65536 ? len - off : 65536) < 0)
            break;
    free(bytes);
    int limited = 0;
    char last[256] = "";
    long long closed_at = 0;
    while (pl_now_ms() - t0 < 10000) {
        Deckhand__ServerMessage *m = NULL;
        int r = dh_client_recv(f->c, 1000, &m);
        if (r < 0) {
            closed_at = pl_now_ms();
            break;
        }
        if (r == 0)
            continue;
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->error &&
            m->reply->error->code == DECKHAND__ERROR_CODE__RATE_LIMITED) {
            if (m->reply->cmd_id == 0)
                snprintf(last, sizeof last, "%s", m->reply->error->message);
            else
                limited++;
        }
        deckhand__server_message__free_unpacked(m, NULL);
    }
    printf("\n  flood: %d RATE_LIMITED replies, closed after %lld ms; last: %s\n", limited,
           closed_at ? closed_at - t0 : -1, last);
    CU_ASSERT(closed_at > 0 && closed_at - t0 < 5000);
    CU_ASSERT(limited > 0 && limited <= 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(last, "disconnected for flooding"));
    pl_drop(f);

    /* Refused while the ban runs: a Reply{0, RATE_LIMITED}, then the close. */
    pl_player *again = pl_connect("again");
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(dh_client_recv(again->c, 3000, &m), 1);
    CU_ASSERT_TRUE(m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->error &&
                   m->reply->error->code == DECKHAND__ERROR_CODE__RATE_LIMITED);
    deckhand__server_message__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(dh_client_recv(again->c, 3000, &m), -1);
    pl_drop(again);

    /* The gateway is healthy and counted it; the match on it plays on. */
    static char text[1 << 16];
    http_get("/healthz", text, sizeof text);
    CU_ASSERT_EQUAL(strncmp(text, "HTTP/1.1 200", 12), 0);
    http_get("/metrics", text, sizeof text);
    CU_ASSERT_EQUAL(metric(text, "deckhand_gateway_floods_total"), 1);
    CU_ASSERT(metric(text, "deckhand_gateway_flood_bans_refused_total") >= 1);
    CU_ASSERT(metric(text, "deckhand_gateway_rate_limited_silent_total") >= 1);
    CU_ASSERT_EQUAL(play(a, b, 5), 5);
    CU_ASSERT_FALSE(a->closed || b->closed);

    /* After the ban the address is welcome again. */
    usleep((BAN_MS + 500) * 1000);
    pl_player *later = pl_login("later");
    CU_ASSERT_PTR_NOT_NULL(later);
    if (later)
        CU_ASSERT_EQUAL(pl_wait_reply(later, pl_send_ping(later, 9)), 0);
    pl_drop(later);
    pl_end_match(a, b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"test_flood_is_disconnected_banned_and_harms_nobody_else",
         test_flood_is_disconnected_banned_and_harms_nobody_else},
        {NULL, NULL},
    };
    char ban[16];
    signal(SIGPIPE, SIG_IGN);
    snprintf(ban, sizeof ban, "%d", BAN_MS);
    setenv("DECKHAND_GATEWAY_FLOOD_BAN_MS", ban, 1); /* the cluster's gateway inherits it */
    if (rc_start("gateway-flood", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_gateway_flood_ban", cases));
}
