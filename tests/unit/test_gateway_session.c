/*
 * test_gateway_session.c: what a client's messages mean, on the real deckhand-gateway
 * binary (rig_gateway.h): login (guest and token), UNAUTHENTICATED before Hello, a resume
 * replacing the old connection and reported to the matchmaker (PlayerBack), one Reply per
 * message, the rate limit, and queue requests: their round trip to the matchmaker, the
 * UNAVAILABLE a silent matchmaker yields, and PlayerAway for a queued player who drops.
 */
#include <string.h>

#include "dh_client_msg.h"
#include "rig_gateway.h"

static void test_gateway_guest_login_welcome_then_reply(void)
{
    rg_client *c = rg_open_as("alice", NULL);
    rg_send_ping(c, 2, 77);
    rg_expect_pong(c, 2, 77);
    rg_close(c);
}

static void test_gateway_message_before_hello_unauthenticated(void)
{
    rg_client *c = rg_open();
    rg_send_ping(c, 5, 1);
    rg_expect_reply(c, 5, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    /* The connection stays usable. */
    rg_login(c, "bob", NULL, NULL);
    rg_close(c);
}

static void test_gateway_bad_names_and_tokens_refused(void)
{
    rg_client *c = rg_open();
    rg_send_hello(c, 3, "", "");
    rg_expect_reply(c, 3, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_send_hello(c, 4, "a-name-that-is-longer-than-32-characters", "");
    rg_expect_reply(c, 4, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_send_hello(c, 5, "tab\there", "");
    rg_expect_reply(c, 5, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_send_hello(c, 6, "", "not-a-token");
    rg_expect_reply(c, 6, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    rg_close(c);
}

static void test_gateway_token_resumes_player_replaces_old_connection_and_reports_back(void)
{
    char pid[64], token[DH_TOKEN_MAX], from[DH_ZMQ_ID_MAX + 1];
    rg_client *a = rg_open();
    rg_login(a, "carol", pid, token);
    rg_client *b = rg_open();
    rg_send_hello(b, 9, "ignored", token);
    rg_expect_welcome(b, pid, "carol (guest)");
    rg_expect_reply(b, 9, DECKHAND__ERROR_CODE__OK);
    rg_expect_closed(a);
    /* The matchmaker hears that the player is back, here (a waiting ticket follows). */
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK);
    CU_ASSERT_STRING_EQUAL(in->player_back->player_id, pid);
    CU_ASSERT_STRING_EQUAL(in->player_back->gateway_id, RG_GW_ID);
    deckhand__internal__internal__free_unpacked(in, NULL);
    /* A tampered token is refused. */
    rg_client *c = rg_open();
    token[5] = token[5] == 'A' ? 'B' : 'A';
    rg_send_hello(c, 2, "", token);
    rg_expect_reply(c, 2, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    rg_close(a);
    rg_close(b);
    rg_close(c);
}

static void test_gateway_rate_limit(void)
{
    rg_client *c = rg_open_as("heidi", NULL);
    int limited = 0, ok = 0;
    for (int i = 0; i < 200; i++)
        rg_send_ping(c, (uint64_t)(100 + i), (uint64_t)i);
    for (;;) {
        Deckhand__ServerMessage *m = NULL;
        if (rg_recv(c, 1000, &m) != 1)
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
    rg_close(c);
}

/* c joins the "dominion" queue as cmd_id: the QueueJoin the matchmaker receives from this
 * gateway (the caller frees it). */
static Deckhand__Internal__Internal *queue_join(rg_client *c, uint64_t cmd_id, uint32_t players)
{
    char from[DH_ZMQ_ID_MAX + 1];
    rg_send_queue_join(c, cmd_id, "dominion", players);
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN);
    CU_ASSERT_STRING_EQUAL(from, RG_GW_ID);
    return in;
}

static void test_gateway_queue_join_round_trip(void)
{
    char pid[64];
    rg_client *c = rg_open_as("erin", pid);
    Deckhand__Internal__Internal *in = queue_join(c, 7, 2);
    CU_ASSERT_STRING_EQUAL(in->queue_join->player_id, pid);
    CU_ASSERT_STRING_EQUAL(in->queue_join->name, "erin (guest)");
    CU_ASSERT_STRING_EQUAL(in->queue_join->gateway_id, RG_GW_ID);
    CU_ASSERT_STRING_EQUAL(in->queue_join->game, "dominion");
    CU_ASSERT_EQUAL(in->queue_join->cmd_id, 7);
    CU_ASSERT_EQUAL(in->queue_join->players, 2);
    deckhand__internal__internal__free_unpacked(in, NULL);

    rg_mm_queue_reply(pid, 7, DECKHAND__ERROR_CODE__UNKNOWN_GAME, "no worker serves dominion");
    rg_expect_reply(c, 7, DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    rg_close(c);
}

static void test_gateway_disconnect_while_queued_reports_player_away(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_as("liam", pid);
    Deckhand__Internal__Internal *in = queue_join(c, 2, 0);
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_mm_queue_reply(pid, 2, DECKHAND__ERROR_CODE__OK, NULL);
    rg_expect_reply(c, 2, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
    /* Not a QueueLeave: the ticket keeps its place for the grace period. */
    in = rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_AWAY);
    CU_ASSERT_STRING_EQUAL(in->player_away->player_id, pid);
    CU_ASSERT_STRING_EQUAL(in->player_away->gateway_id, RG_GW_ID);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

static void test_gateway_queue_without_answer_unavailable(void)
{
    char from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_as("frank", NULL);
    rg_send_queue_leave(c, 4, "dominion");
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_LEAVE);
    deckhand__internal__internal__free_unpacked(in, NULL);
    uint64_t t0 = dh_test_now_ms();
    rg_expect_reply(c, 4, DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT(dh_test_now_ms() - t0 >= 2000);
    rg_close(c);
}

/* Issue 12, case 5: client strings that would reach the matchmaker, the workers or a log
 * line (game, mode, match id) are refused with BAD_REQUEST when they hold a control
 * character or are too long; nothing is forwarded. A sane join still goes through. */
static void test_gateway_client_strings_with_control_characters_refused(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1], longer[200];
    rg_client *c = rg_open_as("mona", pid);
    dh_client_msg msg;
    Deckhand__ClientMessage *m = dh_client_msg_queue_join(&msg, "dominion", 2);
    m->queue_join->mode = "casual\n2026-11-25T10:00:00.000Z ERROR matchmaker: forged";
    m->cmd_id = 80;
    rg_send(c, m);
    rg_expect_reply(c, 80, DECKHAND__ERROR_CODE__BAD_REQUEST);

    m = dh_client_msg_queue_join(&msg, "dom\x1b[2Jinion", 2);
    m->cmd_id = 81;
    rg_send(c, m);
    rg_expect_reply(c, 81, DECKHAND__ERROR_CODE__BAD_REQUEST);

    memset(longer, 'a', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    m = dh_client_msg_queue_join(&msg, "dominion", 2);
    m->queue_join->mode = longer;
    m->cmd_id = 82;
    rg_send(c, m);
    rg_expect_reply(c, 82, DECKHAND__ERROR_CODE__BAD_REQUEST);

    rg_send_queue_leave(c, 83, "dominion\r");
    rg_expect_reply(c, 83, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_send_resync(c, 84, "m-1\nINFO forged");
    rg_expect_reply(c, 84, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_send_choose(c, 85, longer, 1);
    rg_expect_reply(c, 85, DECKHAND__ERROR_CODE__BAD_REQUEST);

    /* None of them reached the matchmaker; a sane join with a mode does. */
    m = dh_client_msg_queue_join(&msg, "dominion", 2);
    m->queue_join->mode = "ranked";
    m->cmd_id = 86;
    rg_send(c, m);
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN);
    CU_ASSERT_EQUAL(in->queue_join->cmd_id, 86);
    CU_ASSERT_STRING_EQUAL(in->queue_join->mode, "ranked");
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_mm_queue_reply(pid, 86, DECKHAND__ERROR_CODE__OK, NULL);
    rg_expect_reply(c, 86, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_guest_login_welcome_then_reply", test_gateway_guest_login_welcome_then_reply},
        {"gateway_message_before_hello_unauthenticated",
         test_gateway_message_before_hello_unauthenticated},
        {"gateway_bad_names_and_tokens_refused", test_gateway_bad_names_and_tokens_refused},
        {"gateway_token_resumes_player_replaces_old_connection_and_reports_back",
         test_gateway_token_resumes_player_replaces_old_connection_and_reports_back},
        {"gateway_rate_limit", test_gateway_rate_limit},
        {"gateway_queue_join_round_trip", test_gateway_queue_join_round_trip},
        {"gateway_disconnect_while_queued_reports_player_away",
         test_gateway_disconnect_while_queued_reports_player_away},
        {"gateway_queue_without_answer_unavailable", test_gateway_queue_without_answer_unavailable},
        {"gateway_client_strings_with_control_characters_refused",
         test_gateway_client_strings_with_control_characters_refused},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_session", cases);
}
