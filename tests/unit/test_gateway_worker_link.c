/*
 * test_gateway_worker_link.c: when a gateway gives up on its link to a worker and moves
 * that worker's players to another gateway (gateway/wlink.h, gateway/strand.h), on the
 * real deckhand-gateway binary against the fake worker ROUTERs of rig_gateway.h: a worker
 * that is slow but linked keeps its players however long it is silent, a link that is
 * gone sends each player of its matches a Reconnect and closes the connection, and the
 * players of other workers play on. The verdict itself is pinned on a real dealer.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "gw.h"
#include "rig_gateway.h"
#include "wlink.h"

/* The verdict: lost only when ZeroMQ closed the link for its grace and the worker has been
 * silent for a command's timeout; a link without a monitor never is. */
static void test_worker_link_lost_only_closed_past_grace_and_silent(void)
{
    void *ctx = zmq_ctx_new();
    void *dealer = dh_zmq_socket(ctx, ZMQ_DEALER, "gw-verdict", 10);
    wlink l;
    CU_ASSERT_EQUAL_FATAL(wlink_open(&l, ctx, dealer, 1000), 0);
    uint64_t t = 1000 + GW_WORKER_TIMEOUT;
    CU_ASSERT_TRUE(wlink_lost(&l, t)); /* never linked, silent since it opened */
    CU_ASSERT_FALSE(wlink_lost(&l, t - 1));
    l.up = true; /* linked: the heartbeat is answered, however silent the worker is */
    CU_ASSERT_FALSE(wlink_lost(&l, t + 60000));
    l.up = false;
    l.down_since = t; /* closed just now */
    CU_ASSERT_FALSE(wlink_lost(&l, t + GW_WORKER_LINK_GRACE - 1));
    CU_ASSERT_TRUE(wlink_lost(&l, t + GW_WORKER_LINK_GRACE));
    wlink_heard(&l, t + GW_WORKER_LINK_GRACE); /* but it spoke: not lost yet */
    CU_ASSERT_FALSE(wlink_lost(&l, t + GW_WORKER_LINK_GRACE + GW_WORKER_TIMEOUT - 1));
    CU_ASSERT_TRUE(wlink_lost(&l, t + GW_WORKER_LINK_GRACE + GW_WORKER_TIMEOUT));
    wlink_close(&l);
    CU_ASSERT_FALSE(wlink_lost(&l, t + 60000)); /* no monitor: no verdict */
    zmq_close(dealer);
    zmq_ctx_term(ctx);
}

/* A worker that never answers a command but whose link is alive (its ZeroMQ answers the
 * heartbeat) keeps its players: the command gets UNAVAILABLE, nothing more. */
static void test_gateway_slow_worker_keeps_its_players(void)
{
    char pid[64];
    rg_client *c = rg_open_in_match("slow", pid, "m-slow");
    rg_worker_answer(rg.worker, pid, 0, DECKHAND__ERROR_CODE__OK);
    rg_send_choose(c, 31, "m-slow", 4);
    rg_expect_command(rg.worker, "m-slow", pid, 31,
                      DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
    rg_expect_reply(c, 31, DECKHAND__ERROR_CODE__UNAVAILABLE);
    /* Silent past a command's timeout and a link's grace: still linked, still served. */
    usleep((GW_WORKER_LINK_GRACE + 1000) * 1000);
    rg_send_ping(c, 32, 7);
    rg_expect_pong(c, 32, 7);
    rg_close(c);
}

/* The fake worker2 comes back on its endpoint (the ROUTER a test closed). */
static void rebind_worker2(void)
{
    rg.worker2 = dh_zmq_socket(rg.zctx, ZMQ_ROUTER, NULL, 1000);
    for (int i = 0; i < 50 && zmq_bind(rg.worker2, rg.worker2_ep) < 0; i++)
        usleep(100 * 1000);
}

/* The Reconnect for a lost worker link, then the close. */
static void expect_told_to_go(rg_client *c)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_RECONNECT);
    CU_ASSERT_STRING_EQUAL(sm->reconnect->reason, "worker link lost");
    deckhand__server_message__free_unpacked(sm, NULL);
    rg_expect_closed(c);
}

/* worker2's link goes (its ROUTER closes; nothing answers there any more) and the
 * matchmaker says nothing: the player of its match is told to Reconnect elsewhere once the
 * worker has been silent for a command's timeout, and its connection closes; so is a
 * player whose only tie to it is a command waiting there (a resume whose Resync was never
 * answered, routed through Redis); a player of the other worker plays on. */
static void test_gateway_lost_worker_link_tells_its_players_to_reconnect(void)
{
    char pid[64], other[64], resumed[64];
    rg_client *c = rg_open_in_match("stranded", pid, "m-lost");
    rg_client *d = rg_open_in_match("unharmed", other, "m-kept");
    rg_client *e = rg_open_as("resuming", resumed);
    char *players[] = {pid};
    rg_mm_match_moved("m-lost", "wk-two", rg.worker2_ep, players, 1);
    uint64_t t0 = dh_test_now_ms();
    rg_expect_command(rg.worker2, "m-lost", pid, 0,
                      DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    bool redis = rg_redis_route("m-res", "wk-two", rg.worker2_ep);
    if (redis) {
        rg_send_resync(e, 81, "m-res");
        rg_expect_command(rg.worker2, "m-res", resumed, 81,
                          DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    }
    zmq_close(rg.worker2);

    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, GW_WORKER_TIMEOUT + 5000, &sm), 1);
    uint64_t waited = dh_test_now_ms() - t0;
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_RECONNECT);
    CU_ASSERT_STRING_EQUAL(sm->reconnect->reason, "worker link lost");
    CU_ASSERT_TRUE(sm->reconnect->after_ms > 0);
    deckhand__server_message__free_unpacked(sm, NULL);
    CU_ASSERT_TRUE(waited >= GW_WORKER_TIMEOUT - 500); /* not before a command's timeout */
    rg_expect_closed(c);
    if (redis)
        expect_told_to_go(e);

    rg_send_resync(d, 71, "m-kept");
    rg_expect_round_trip(d, rg.worker, "m-kept", other, 71,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
    rg_close(d);
    rg_close(e);
    rebind_worker2();
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_link_lost_only_closed_past_grace_and_silent",
         test_worker_link_lost_only_closed_past_grace_and_silent},
        {"gateway_slow_worker_keeps_its_players", test_gateway_slow_worker_keeps_its_players},
        {"gateway_lost_worker_link_tells_its_players_to_reconnect",
         test_gateway_lost_worker_link_tells_its_players_to_reconnect},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_worker_link", cases);
}
