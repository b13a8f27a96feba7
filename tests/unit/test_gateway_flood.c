/*
 * test_gateway_flood.c: a client that floods the real deckhand-gateway binary
 * (rig_gateway.h) past its rate limit (issue 12, case 4; gateway/flood.h): it gets a
 * bounded number of RATE_LIMITED Replies, not one per message, then a last
 * Reply{cmd_id 0, RATE_LIMITED} saying how many were refused without a reply, and is
 * disconnected; its address is refused for --flood-ban-ms (2 s here, through the
 * environment) on TCP and WebSocket, and so is its player's token, and both are welcome
 * again after it; a connection that was already open is not affected. A client that only leans on
 * its limit is never dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rig_gateway.h"

#define BAN_MS 2000

/* Read c until it closes (or 5 s pass): the RATE_LIMITED Replies with a cmd_id, and the
 * text of the last Reply{cmd_id 0} (into last, empty when none). True when it closed. */
static bool read_until_closed(rg_client *c, int *limited, char *last, size_t n)
{
    uint64_t end = dh_test_now_ms() + 5000;
    last[0] = '\0';
    *limited = 0;
    while (dh_test_now_ms() < end) {
        Deckhand__ServerMessage *m = NULL;
        int r = rg_recv(c, 1000, &m);
        if (r < 0)
            return true;
        if (r == 0)
            continue;
        if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->error &&
            m->reply->error->code == DECKHAND__ERROR_CODE__RATE_LIMITED) {
            if (m->reply->cmd_id == 0)
                snprintf(last, n, "%s", m->reply->error->message);
            else
                (*limited)++;
        }
        deckhand__server_message__free_unpacked(m, NULL);
    }
    return false;
}

static void test_gateway_flood_is_disconnected_then_banned(void)
{
    char last[256], token[DH_TOKEN_MAX];
    int limited = 0;
    rg_client *bystander = rg_open_as("ruth", NULL);
    rg_client *spare = rg_open(); /* opened before the ban: the address ban does not touch it */
    rg_client *c = rg_open();
    rg_login(c, "flo", NULL, token);
    uint64_t t0 = dh_test_now_ms();
    for (int i = 0; i < 3000; i++)
        rg_send_ping(c, (uint64_t)(10 + i), (uint64_t)i);
    CU_ASSERT_TRUE(read_until_closed(c, &limited, last, sizeof last));
    CU_ASSERT(dh_test_now_ms() - t0 < 3000);
    /* Answered one by one only while the refusals are few (flood.h: GW_FLOOD_QUIET). */
    CU_ASSERT(limited > 50 && limited <= 160);
    CU_ASSERT_PTR_NOT_NULL(strstr(last, "disconnected for flooding"));
    CU_ASSERT_PTR_NOT_NULL(strstr(last, "without a reply"));
    rg_close(c);

    /* The address is refused: TCP with Reply{0, RATE_LIMITED}, WebSocket with 429. */
    c = rg_open();
    Deckhand__ServerMessage *m = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 3000, &m), 1);
    CU_ASSERT_TRUE(m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && m->reply->error &&
                   m->reply->error->code == DECKHAND__ERROR_CODE__RATE_LIMITED);
    deckhand__server_message__free_unpacked(m, NULL);
    rg_expect_closed(c);
    rg_close(c);
    int fd = rg_tcp_connect(rg.ws_port);
    CU_ASSERT_FATAL(fd >= 0);
    char buf[256] = {0};
    CU_ASSERT(rg_read_some(fd, buf, sizeof buf - 1, 3000) > 0);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 429", 12), 0);
    close(fd);

    /* The flooder's player is banned too: its token does not resume it, even on a
     * connection the address ban did not stop. */
    rg_send_hello(spare, 1, "", token);
    rg_expect_reply(spare, 1, DECKHAND__ERROR_CODE__RATE_LIMITED);
    rg_expect_closed(spare);
    rg_close(spare);

    /* The connection that was already open carries on. */
    rg_send_ping(bystander, 5, 55);
    rg_expect_pong(bystander, 5, 55);
    rg_close(bystander);

    /* After the ban, the address is welcome again. */
    usleep((BAN_MS + 300) * 1000);
    c = rg_open_as("flo2", NULL);
    rg_send_ping(c, 2, 22);
    rg_expect_pong(c, 2, 22);
    rg_close(c);
}

/* Twice the limit (100 messages/s) for 3 s: throttled, answered, never dropped. */
static void test_gateway_leaning_on_the_limit_is_not_a_flood(void)
{
    rg_client *c = rg_open_as("lena", NULL);
    int answered = 0;
    for (int i = 0; i < 300; i++) {
        rg_send_ping(c, (uint64_t)(10 + i), (uint64_t)i);
        usleep(10000);
        Deckhand__ServerMessage *m = NULL;
        while (rg_recv(c, 0, &m) == 1) {
            answered += m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY;
            deckhand__server_message__free_unpacked(m, NULL);
        }
    }
    Deckhand__ServerMessage *m = NULL;
    while (answered < 300 && rg_recv(c, 1000, &m) == 1) {
        answered += m->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY;
        deckhand__server_message__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(answered, 300);
    usleep(200 * 1000); /* a few tokens back in the bucket: the next ping is not refused */
    rg_send_ping(c, 1000, 1);
    rg_expect_pong(c, 1000, 1);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_leaning_on_the_limit_is_not_a_flood",
         test_gateway_leaning_on_the_limit_is_not_a_flood},
        {"gateway_flood_is_disconnected_then_banned",
         test_gateway_flood_is_disconnected_then_banned},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    char ban[16];
    snprintf(ban, sizeof ban, "%d", BAN_MS);
    setenv("DECKHAND_GATEWAY_FLOOD_BAN_MS", ban, 1);
    return rg_main("gateway_flood", cases);
}
