/*
 * test_gateway_mm_busy.c: a QueueJoin is answered once it is queued, never timed out while
 * the matchmaker is merely busy (issue 13: 86% of 38,000 players got UNAVAILABLE from the
 * gateway's 3 s timeout although the matchmaker had queued them). The gateway tells a
 * busy matchmaker (it beats: MatchmakerBeat) from a gone one (silent for GW_MM_TIMEOUT):
 * it waits for the busy one's answer, answers UNAVAILABLE for the gone one, and a match
 * that a matchmaker forms after all still reaches the player. The matchmaker's batch of a
 * loop turn (MatchmakerOutputs) is handled as its messages one by one.
 */
#include "rig_gateway.h"

#include <string.h>

#include "dh_clock.h"

/* The fake matchmaker's beat to the gateway, as incarnation (a process) of it. */
static void mm_beat_as(uint64_t incarnation)
{
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__MatchmakerBeat b = DECKHAND__INTERNAL__MATCHMAKER_BEAT__INIT;
    b.matchmaker_id = "mm-test";
    b.acting = true;
    b.incarnation = incarnation;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCHMAKER_BEAT;
    out.matchmaker_beat = &b;
    CU_ASSERT_EQUAL(dh_zmq_send(rg.mm, RG_GW_ID, &out), 0);
}

static uint64_t incarnation = 1; /* the fake matchmaker process beating now */

static void mm_beat(void)
{
    mm_beat_as(incarnation);
}

/* c joins; the fake matchmaker receives the join (past the PlayerAway of the previous
 * case's queued player, who closed). */
static void join(rg_client *c, uint64_t cmd_id)
{
    char from[DH_ZMQ_ID_MAX + 1];
    rg_send_queue_join(c, cmd_id, "dominion", 2);
    Deckhand__Internal__Internal *in;
    while ((in = rg_router_recv(rg.mm, from, 2000)) &&
           in->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY)
        deckhand__internal__internal__free_unpacked(in, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    CU_ASSERT_EQUAL_FATAL(in->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN);
    CU_ASSERT_EQUAL(in->queue_join->cmd_id, cmd_id);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

/* For ms, the matchmaker beats every 400 ms and c hears nothing. */
static void beat_for(rg_client *c, uint64_t ms)
{
    uint64_t end = dh_test_now_ms() + ms;
    while (dh_test_now_ms() < end) {
        mm_beat();
        Deckhand__ServerMessage *sm = NULL;
        int got = rg_recv(c, 400, &sm);
        CU_ASSERT_EQUAL(got, 0);
        if (got == 1) {
            if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && sm->reply->error)
                fprintf(stderr, "unexpected Reply %d: %s\n", (int)sm->reply->error->code,
                        sm->reply->error->message);
            deckhand__server_message__free_unpacked(sm, NULL);
            return;
        }
    }
}

static void test_gateway_join_waits_for_a_matchmaker_that_beats(void)
{
    char pid[64];
    rg_client *c = rg_open_as("nora", pid);
    join(c, 3);
    beat_for(c, 4500); /* past GW_MM_TIMEOUT: the matchmaker is busy, not gone */
    rg_mm_queue_reply(pid, 3, DECKHAND__ERROR_CODE__OK, NULL);
    rg_expect_reply(c, 3, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

static void test_gateway_join_unavailable_once_the_matchmaker_falls_silent(void)
{
    char pid[64];
    rg_client *c = rg_open_as("otto", pid);
    join(c, 4);
    beat_for(c, 1500);
    uint64_t silent_from = dh_test_now_ms();
    rg_expect_reply(c, 4, DECKHAND__ERROR_CODE__UNAVAILABLE);
    uint64_t waited = dh_test_now_ms() - silent_from;
    CU_ASSERT(waited >= 2000 && waited < 4500); /* GW_MM_TIMEOUT after the last beat */
    rg_close(c);
}

/* A matchmaker that comes back after the gateway gave up on it may still have queued
 * the player: its late QueueReply is not a second Reply, and the match it forms reaches
 * the player as MatchFound (a player is never seated in a match it is not told of). */
static void test_gateway_match_formed_after_an_unavailable_join_still_reaches_the_player(void)
{
    char pid[64];
    rg_client *c = rg_open_as("pia", pid);
    join(c, 5);
    rg_expect_reply(c, 5, DECKHAND__ERROR_CODE__UNAVAILABLE);
    mm_beat();
    rg_mm_queue_reply(pid, 5, DECKHAND__ERROR_CODE__OK, NULL);
    rg_mm_assign(pid, "m-late", NULL, 0);
    rg_expect_match_found(c, "m-late"); /* and no second Reply before it */
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__Internal *in = rg_router_recv(rg.worker, from, 2000);
    CU_ASSERT_PTR_NOT_NULL(in); /* the gateway attaches the player to the match's worker */
    if (in)
        deckhand__internal__internal__free_unpacked(in, NULL);
    rg_close(c);
}

/* A join the matchmaker never got (it restarted: a beat of a new incarnation) is
 * answered at once, not after GW_MM_PATIENCE of beats from the new process. */
static void test_gateway_join_unavailable_at_once_when_the_matchmaker_restarts(void)
{
    char pid[64];
    rg_client *c = rg_open_as("quinn", pid);
    mm_beat();
    join(c, 6);
    incarnation++; /* it restarted */
    mm_beat();
    uint64_t t0 = dh_test_now_ms();
    rg_expect_reply(c, 6, DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT(dh_test_now_ms() - t0 < 1500);
    join(c, 7); /* the join again, to the new matchmaker, waits for its answer */
    beat_for(c, 1000);
    rg_mm_queue_reply(pid, 7, DECKHAND__ERROR_CODE__OK, NULL);
    rg_expect_reply(c, 7, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

/* The matchmaker's messages of one loop turn in one MatchmakerOutputs (the gateway says in
 * its hello that it takes them): handled in order, as if each had come alone, and a
 * malformed entry is dropped alone. */
static void test_gateway_handles_the_matchmaker_batch_in_order(void)
{
    char pid[64];
    rg_client *c = rg_open_as("quin", pid);
    join(c, 6);
    Deckhand__Internal__QueueReply r = DECKHAND__INTERNAL__QUEUE_REPLY__INIT;
    r.player_id = pid;
    r.cmd_id = 6;
    r.ok = true;
    Deckhand__Internal__MatchAssigned a = DECKHAND__INTERNAL__MATCH_ASSIGNED__INIT;
    a.player_id = pid;
    a.match_id = "m-batch";
    a.game = "dominion";
    a.worker_id = RG_WORKER_ID;
    a.worker_endpoint = rg.worker_ep;
    Deckhand__Internal__Internal one = DECKHAND__INTERNAL__INTERNAL__INIT, two = one;
    one.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY;
    one.queue_reply = &r;
    two.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED;
    two.match_assigned = &a;
    uint8_t b1[256], b2[256], junk[] = {0xff, 0xff, 0xff};
    ProtobufCBinaryData msgs[] = {
        {deckhand__internal__internal__pack(&one, b1), b1},
        {sizeof junk, junk},
        {deckhand__internal__internal__pack(&two, b2), b2},
    };
    Deckhand__Internal__MatchmakerOutputs o = DECKHAND__INTERNAL__MATCHMAKER_OUTPUTS__INIT;
    o.n_messages = 3;
    o.messages = msgs;
    Deckhand__Internal__Internal out = DECKHAND__INTERNAL__INTERNAL__INIT;
    out.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUTS;
    out.mm_outputs = &o;
    CU_ASSERT_EQUAL(dh_zmq_send(rg.mm, RG_GW_ID, &out), 0);
    rg_expect_reply(c, 6, DECKHAND__ERROR_CODE__OK);
    rg_expect_match_found(c, "m-batch");
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_join_waits_for_a_matchmaker_that_beats",
         test_gateway_join_waits_for_a_matchmaker_that_beats},
        {"gateway_join_unavailable_once_the_matchmaker_falls_silent",
         test_gateway_join_unavailable_once_the_matchmaker_falls_silent},
        {"gateway_match_formed_after_an_unavailable_join_still_reaches_the_player",
         test_gateway_match_formed_after_an_unavailable_join_still_reaches_the_player},
        {"gateway_join_unavailable_at_once_when_the_matchmaker_restarts",
         test_gateway_join_unavailable_at_once_when_the_matchmaker_restarts},
        {"gateway_handles_the_matchmaker_batch_in_order",
         test_gateway_handles_the_matchmaker_batch_in_order},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_mm_busy", cases);
}
