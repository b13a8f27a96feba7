/*
 * test_gateway_route.c: where the real deckhand-gateway binary (rig_gateway.h) sends a
 * match's commands and whose outputs it passes on: routing both ways after MatchAssigned,
 * one UNAVAILABLE for a silent worker, route misses looked up in Redis (and a Redis outage
 * answered UNAVAILABLE, not a crash), and the gateway's part of failover
 * (docs/redis.md, "Durable matches"): MatchMoved re-routes and re-attaches,
 * UNKNOWN_MATCH and GameOver drop a route, disconnects are reported away to the worker,
 * and a resume on a second gateway routes the match through it.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rig_gateway.h"

static void test_gateway_match_routing_both_ways(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    Deckhand__ServerMessage *sm = NULL;
    rg_client *c = rg_open_as("grace", pid);

    char *names[] = {"grace", "bot"};
    rg_mm_assign(pid, "m-1", names, 2);

    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 5000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND);
    CU_ASSERT_STRING_EQUAL(sm->match_found->match_id, "m-1");
    CU_ASSERT_EQUAL(sm->match_found->n_players, 2);
    deckhand__server_message__free_unpacked(sm, NULL);

    /* The attach: PlayerCommand{resync, cmd_id 0} from the gateway's identity. */
    rg_expect_command(rg.worker, "m-1", pid, 0, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);

    /* Choose goes to the worker with the player's id. */
    rg_send_choose(c, 12, "m-1", 11);
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 12);
    CU_ASSERT_STRING_EQUAL(in->player_command->match_id, "m-1");
    CU_ASSERT_EQUAL_FATAL(in->player_command->body_case,
                          DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
    CU_ASSERT_EQUAL(in->player_command->choose->decision_id, 11);
    deckhand__internal__internal__free_unpacked(in, NULL);

    /* The worker's PlayerOutput reaches the client unchanged. */
    rg_worker_answer(rg.worker, pid, 12, DECKHAND__ERROR_CODE__OK);
    rg_expect_reply(c, 12, DECKHAND__ERROR_CODE__OK);

    /* No route: UNKNOWN_MATCH from the gateway itself. */
    rg_send_choose(c, 13, "m-unknown", 11);
    rg_expect_reply(c, 13, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rg_close(c);
}

/* A Choose reaches the worker whole, every field as the client sent it, whether the
 * gateway passes it on in place (printable ASCII) or unpacks it first (a bot name with a
 * byte past ASCII, which inwire.c leaves to the unpack). */
static void test_gateway_choose_reaches_the_worker_whole_in_place_or_unpacked(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_in_match("kate", pid, "m-9");
    static const char *bots[] = {"default", "d\xc3\xa9"
                                            "faut"};
    static uint32_t opts[] = {3, 1, 70000};
    for (int i = 0; i < 2; i++) {
        Deckhand__Choose ch = DECKHAND__CHOOSE__INIT;
        ch.match_id = (char *)"m-9";
        ch.decision_id = 5 + (uint64_t)i;
        ch.n_option_ids = 3;
        ch.option_ids = opts;
        ch.bot = (char *)bots[i];
        Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
        m.cmd_id = 90 + (uint64_t)i;
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHOOSE;
        m.choose = &ch;
        rg_send(c, &m);
        Deckhand__Internal__Internal *in =
            rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
        const Deckhand__Internal__PlayerCommand *pc = in->player_command;
        CU_ASSERT_STRING_EQUAL(pc->player_id, pid);
        CU_ASSERT_STRING_EQUAL(pc->match_id, "m-9");
        CU_ASSERT_EQUAL(pc->cmd_id, 90 + (uint64_t)i);
        CU_ASSERT_EQUAL_FATAL(pc->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);
        CU_ASSERT_EQUAL(pc->choose->decision_id, 5 + (uint64_t)i);
        CU_ASSERT_EQUAL_FATAL(pc->choose->n_option_ids, 3);
        CU_ASSERT_EQUAL(pc->choose->option_ids[2], 70000);
        CU_ASSERT_STRING_EQUAL(pc->choose->bot, bots[i]);
        deckhand__internal__internal__free_unpacked(in, NULL);
        rg_worker_answer(rg.worker, pid, 90 + (uint64_t)i, DECKHAND__ERROR_CODE__OK);
        rg_expect_reply(c, 90 + (uint64_t)i, DECKHAND__ERROR_CODE__OK);
    }
    rg_close(c);
}

static void test_gateway_silent_worker_gets_one_unavailable_reply(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_in_match("judy", pid, "m-2");
    /* A Reply for the attach (cmd_id 0) is not the client's business. */
    rg_worker_answer(rg.worker, pid, 0, DECKHAND__ERROR_CODE__OK);
    rg_send_resync(c, 21, "m-2");
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_EQUAL(in->player_command->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_expect_reply(c, 21, DECKHAND__ERROR_CODE__UNAVAILABLE);
    /* The worker's late answer is dropped: the next message is the Pong. */
    rg_worker_answer(rg.worker, pid, 21, DECKHAND__ERROR_CODE__OK);
    rg_send_ping(c, 22, 5);
    rg_expect_pong(c, 22, 5);
    rg_close(c);
}

/* The gateway unpacks a worker's output only when PlayerOutput.kind says it is a Reply or
 * a GameOver: the kind decides, never the first bytes of the message. */
static void test_gateway_output_kind_decides_what_is_unpacked(void)
{
    char pid[64];
    rg_client *c = rg_open_as("kate", pid);
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    r.ok = true;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    sm.reply = &r;
    /* Marked OTHER, a Reply nobody waits for passes through untouched... */
    rg_worker_output_kind(rg.worker, RG_GW_ID, pid, NULL, &sm,
                          DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER);
    Deckhand__ServerMessage *got = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 3000, &got), 1);
    CU_ASSERT_EQUAL(got->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    deckhand__server_message__free_unpacked(got, NULL);
    /* ...marked REPLY, it is read and dropped: the next message is the Pong. */
    rg_worker_output_kind(rg.worker, RG_GW_ID, pid, NULL, &sm,
                          DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY);
    rg_send_ping(c, 3, 7);
    rg_expect_pong(c, 3, 7);
    rg_close(c);
}

/* One output of a batch: msg packed into buf. */
static void batch_item(Deckhand__Internal__PlayerOutput *o, const char *pid, uint8_t *buf,
                       const Deckhand__ServerMessage *sm,
                       Deckhand__Internal__PlayerOutput__Kind kind)
{
    deckhand__internal__player_output__init(o);
    o->player_id = (char *)pid;
    o->match_id = (char *)"";
    o->message.data = buf;
    o->message.len = deckhand__server_message__pack(sm, buf);
    o->kind = kind;
}

/* A worker's outputs of one turn come as one message (PlayerOutputs): each reaches its
 * player in order, and a Reply in it closes its command like one sent alone. */
static void test_gateway_batch_of_outputs_reaches_each_player_in_order(void)
{
    char pa[64], pb[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *a = rg_open_in_match("liz", pa, "m-bt");
    rg_client *b = rg_open_as("max", pb);
    rg_send_resync(a, 41, "m-bt");
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    deckhand__internal__internal__free_unpacked(in, NULL);
    Deckhand__Reply r = DECKHAND__REPLY__INIT;
    r.cmd_id = 41;
    r.ok = true;
    Deckhand__ServerMessage reply = DECKHAND__SERVER_MESSAGE__INIT, pong = reply;
    reply.body_case = DECKHAND__SERVER_MESSAGE__BODY_REPLY;
    reply.reply = &r;
    Deckhand__Pong pg = DECKHAND__PONG__INIT;
    pong.body_case = DECKHAND__SERVER_MESSAGE__BODY_PONG;
    pong.pong = &pg;
    uint8_t bufs[3][64];
    Deckhand__Internal__PlayerOutput o[3], *op[3] = {&o[0], &o[1], &o[2]};
    pg.nonce = 1;
    batch_item(&o[0], pb, bufs[0], &pong, DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER);
    batch_item(&o[1], pa, bufs[1], &reply, DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__REPLY);
    pg.nonce = 2;
    batch_item(&o[2], pb, bufs[2], &pong, DECKHAND__INTERNAL__PLAYER_OUTPUT__KIND__OTHER);
    Deckhand__Internal__PlayerOutputs batch = DECKHAND__INTERNAL__PLAYER_OUTPUTS__INIT;
    batch.n_outputs = 3;
    batch.outputs = op;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_OUTPUTS;
    m.player_outputs = &batch;
    CU_ASSERT_EQUAL(dh_zmq_send(rg.worker, RG_GW_ID, &m), 0);
    rg_expect_reply(a, 41, DECKHAND__ERROR_CODE__OK);
    for (uint64_t want = 1; want <= 2; want++) {
        Deckhand__ServerMessage *got = NULL;
        CU_ASSERT_EQUAL_FATAL(rg_recv(b, 3000, &got), 1);
        CU_ASSERT_EQUAL_FATAL(got->body_case, DECKHAND__SERVER_MESSAGE__BODY_PONG);
        CU_ASSERT_EQUAL(got->pong->nonce, want);
        deckhand__server_message__free_unpacked(got, NULL);
    }
    rg_close(a);
    rg_close(b);
}

static void test_gateway_unknown_route_found_in_redis(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    if (!rg_redis_route("m-9", RG_WORKER_ID, rg.worker_ep))
        return;

    rg_client *c = rg_open_as("kim", pid);
    rg_send_resync(c, 30, "m-9");
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_STRING_EQUAL(from, RG_GW_ID);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 30);
    CU_ASSERT_STRING_EQUAL(in->player_command->match_id, "m-9");
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_worker_answer(rg.worker, pid, 30, DECKHAND__ERROR_CODE__OK);
    rg_expect_reply(c, 30, DECKHAND__ERROR_CODE__OK);

    /* A match Redis does not know either. */
    rg_send_resync(c, 31, "m-nowhere");
    rg_expect_reply(c, 31, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rg_close(c);
}

static void test_gateway_match_moved_refuses_in_flight_and_reattaches(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_in_match("mallory", pid, "m-5");
    rg_send_choose(c, 40, "m-5", 3);
    rg_expect_command(rg.worker, "m-5", pid, 40, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE);

    /* The old worker dies with the answer in flight; the matchmaker moves the match. Of
     * its players, only mallory is connected here. */
    char *players[] = {pid, "p-elsewhere"};
    uint64_t t0 = dh_test_now_ms();
    rg_mm_match_moved("m-5", "wk-two", rg.worker2_ep, players, 2);
    /* UNAVAILABLE at once, not after the 5 s worker timeout. */
    rg_expect_reply(c, 40, DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT(dh_test_now_ms() - t0 < 2000);
    /* The attach (Resync, cmd_id 0) goes to the new worker, for mallory only. */
    rg_expect_command(rg.worker2, "m-5", pid, 0, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    Deckhand__Internal__Internal *in = rg_router_recv(rg.worker2, from, 300);
    CU_ASSERT_PTR_NULL(in);
    if (in)
        deckhand__internal__internal__free_unpacked(in, NULL);

    /* A late answer from the old worker is dropped, and so is a stale View of the match
     * from it (a frozen worker waking up); the next command goes to the new worker, whose
     * Reply is the next thing the client sees, then the new worker's View. */
    rg_worker_answer(rg.worker, pid, 40, DECKHAND__ERROR_CODE__OK);
    rg_worker_view(rg.worker, pid, "m-5", 7);
    rg_send_choose(c, 41, "m-5", 3);
    rg_expect_round_trip(c, rg.worker2, "m-5", pid, 41,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE, DECKHAND__ERROR_CODE__OK);
    rg_worker_view(rg.worker2, pid, "m-5", 9);
    Deckhand__ServerMessage *v = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 3000, &v), 1);
    CU_ASSERT_TRUE(v->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW && v->view->event_seq == 9);
    deckhand__server_message__free_unpacked(v, NULL);
    rg_close(c);
}

static void test_gateway_worker_unknown_match_drops_route(void)
{
    char pid[64];
    if (!rg_redis_route("m-7", "wk-two", rg.worker2_ep))
        return;

    rg_client *c = rg_open_in_match("nina", pid, "m-7");
    /* The worker lost the match (a fenced write): UNKNOWN_MATCH passes through... */
    rg_send_choose(c, 50, "m-7", 1);
    rg_expect_round_trip(c, rg.worker, "m-7", pid, 50,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE,
                         DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    /* ...and the next command finds the new owner in Redis. */
    rg_send_resync(c, 51, "m-7");
    rg_expect_round_trip(c, rg.worker2, "m-7", pid, 51,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

/* A match's GameOver takes its route away: the gateway does not keep a route per match
 * forever. A later command asks Redis (here naming another worker, to tell them apart). */
static void test_gateway_game_over_drops_route(void)
{
    char pid[64];
    if (!rg_redis_route("m-9", "wk-two", rg.worker2_ep))
        return;

    rg_client *c = rg_open_in_match("quinn", pid, "m-9");
    rg_send_resync(c, 60, "m-9"); /* routed by MatchAssigned */
    rg_expect_round_trip(c, rg.worker, "m-9", pid, 60,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC, DECKHAND__ERROR_CODE__OK);

    rg_worker_game_over(c, pid, "m-9");

    rg_send_resync(c, 61, "m-9");
    rg_expect_round_trip(c, rg.worker2, "m-9", pid, 61,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

static void test_gateway_disconnect_in_match_reports_away_to_worker(void)
{
    /* A player who left before the match formed is reported away as it is assigned. */
    rg_assign_match("p-gone-already", "m-8c");
    CU_ASSERT_TRUE(rg_await_away(rg.worker, "m-8c", "p-gone-already", 3000));

    char pid[64], pid2[64];
    rg_client *c = rg_open_in_match("oscar", pid, "m-8");
    rg_close(c);
    CU_ASSERT_TRUE(rg_await_away(rg.worker, "m-8", pid, 3000));

    /* After its GameOver a match is not the player's business any more. */
    c = rg_open_in_match("peggy", pid2, "m-8b");
    rg_worker_game_over(c, pid2, "m-8b");
    rg_close(c);
    CU_ASSERT_FALSE(rg_await_away(rg.worker, "m-8b", pid2, 500));
}

/* Issue 12, case 2: a Resync or Choose naming a match that does not exist (refused
 * UNKNOWN_MATCH by Redis or by a worker that does not seat the player) must not take the
 * place of the player's real match: its disconnect is still reported there. A match the
 * player is confirmed in by a worker's answer is reported too. */
static void test_gateway_bogus_match_does_not_hide_the_real_one(void)
{
    char pid[64];
    rg_client *c = rg_open_in_match("ursula", pid, "m-40");
    /* A match nobody knows: the gateway (no route; Redis has nothing) refuses it. */
    rg_send_resync(c, 70, "m-nowhere-40");
    rg_expect_reply(c, 70, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    /* A match a worker hosts but does not seat her in: the worker refuses it. */
    if (rg_redis_route("m-41", RG_WORKER_ID, rg.worker_ep)) {
        rg_send_choose(c, 71, "m-41", 1);
        rg_expect_round_trip(c, rg.worker, "m-41", pid, 71,
                             DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE,
                             DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    }
    rg_close(c);
    CU_ASSERT_TRUE(rg_await_away(rg.worker, "m-40", pid, 3000));

    /* Seated by a worker's answer (a resume from elsewhere), not by MatchAssigned. */
    if (!rg_redis_route("m-42", RG_WORKER_ID, rg.worker_ep))
        return;
    c = rg_open_as("victor", pid);
    rg_send_resync(c, 72, "m-42");
    rg_expect_round_trip(c, rg.worker, "m-42", pid, 72,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC, DECKHAND__ERROR_CODE__OK);
    rg_send_resync(c, 73, "m-nowhere-42");
    rg_expect_reply(c, 73, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rg_close(c);
    CU_ASSERT_TRUE(rg_await_away(rg.worker, "m-42", pid, 3000));
}

/* Issue 4: a player whose connection to gateway A dropped resumes on gateway B with A's
 * token. A reports the dropped connection away (from A); B tells the matchmaker the
 * player is back on B; B, which never saw the match, finds its worker in Redis and sends
 * the Resync from B; and the worker's answers through B reach the player. */
static void test_gateway_resume_on_another_gateway_routes_through_it(void)
{
    char pid[64], token[DH_TOKEN_MAX], from[DH_ZMQ_ID_MAX + 1], url[64];
    if (!rg_redis_route("m-20", RG_WORKER_ID, rg.worker_ep))
        return;
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", rg.redis_port);
    pid_t gw2 = rg_start_gateway2(url);
    CU_ASSERT_FATAL(gw2 > 0);

    rg_client *a = rg_open();
    rg_login(a, "rita", pid, token);
    rg_assign_match(pid, "m-20");
    rg_expect_match_found(a, "m-20");
    rg_close(a);
    CU_ASSERT_TRUE(rg_await_away(rg.worker, "m-20", pid, 3000)); /* from A */

    rg_client *b = rg_open_port(rg.gw2_port);
    rg_send_hello(b, 40, "", token);
    rg_expect_welcome(b, pid, NULL);
    rg_expect_reply(b, 40, DECKHAND__ERROR_CODE__OK);
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_BACK);
    CU_ASSERT_STRING_EQUAL(from, RG_GW2_ID);
    CU_ASSERT_STRING_EQUAL(in->player_back->gateway_id, RG_GW2_ID);
    CU_ASSERT_STRING_EQUAL(in->player_back->player_id, pid);
    deckhand__internal__internal__free_unpacked(in, NULL);

    rg_send_resync(b, 41, "m-20");
    in = rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_STRING_EQUAL(from, RG_GW2_ID);
    CU_ASSERT_EQUAL(in->player_command->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, 41);
    CU_ASSERT_STRING_EQUAL(in->player_command->player_id, pid);
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_worker_answer_via(rg.worker, RG_GW2_ID, pid, 41, DECKHAND__ERROR_CODE__OK);
    rg_expect_reply(b, 41, DECKHAND__ERROR_CODE__OK);

    rg_close(b);
    CU_ASSERT_TRUE(rg_await_away_from(rg.worker, RG_GW2_ID, "m-20", pid, 3000)); /* now from B */
    kill(gw2, SIGTERM);
    int status = 0;
    waitpid(gw2, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_gateway_redis_down_unavailable_then_recovers(void)
{
    char pid[64];
    if (rg.redis_pid <= 0)
        return; /* no redis-server on this machine */
    rg_client *c = rg_open_as("quinn", pid);
    dh_test_redis_stop(&rg.redis_pid);
    /* A route miss while Redis is down: UNAVAILABLE, and the gateway carries on. */
    rg_send_resync(c, 60, "m-11");
    rg_expect_reply(c, 60, DECKHAND__ERROR_CODE__UNAVAILABLE);
    rg_send_ping(c, 61, 9);
    rg_expect_pong(c, 61, 9);

    dh_test_redis_start(rg.redis_port, &rg.redis_pid);
    CU_ASSERT_FATAL(rg.redis_pid > 0);
    CU_ASSERT_FATAL(rg_redis_route("m-11", RG_WORKER_ID, rg.worker_ep));
    /* The gateway reconnects by itself (at most once a second): retry until routed. */
    char from[DH_ZMQ_ID_MAX + 1];
    bool routed = false;
    uint64_t end = dh_test_now_ms() + 8000;
    for (uint64_t cmd = 62; !routed && dh_test_now_ms() < end; cmd++) {
        rg_send_resync(c, cmd, "m-11");
        Deckhand__Internal__Internal *in = rg_router_recv(rg.worker, from, 500);
        if (in) {
            CU_ASSERT_EQUAL(in->player_command->cmd_id, cmd);
            deckhand__internal__internal__free_unpacked(in, NULL);
            rg_worker_answer(rg.worker, pid, cmd, DECKHAND__ERROR_CODE__OK);
            rg_expect_reply(c, cmd, DECKHAND__ERROR_CODE__OK);
            routed = true;
        } else {
            rg_expect_reply(c, cmd, DECKHAND__ERROR_CODE__UNAVAILABLE);
            usleep(200000);
        }
    }
    CU_ASSERT_TRUE(routed);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_choose_reaches_the_worker_whole_in_place_or_unpacked",
         test_gateway_choose_reaches_the_worker_whole_in_place_or_unpacked},
        {"gateway_match_routing_both_ways", test_gateway_match_routing_both_ways},
        {"gateway_silent_worker_gets_one_unavailable_reply",
         test_gateway_silent_worker_gets_one_unavailable_reply},
        {"gateway_output_kind_decides_what_is_unpacked",
         test_gateway_output_kind_decides_what_is_unpacked},
        {"gateway_batch_of_outputs_reaches_each_player_in_order",
         test_gateway_batch_of_outputs_reaches_each_player_in_order},
        {"gateway_unknown_route_found_in_redis", test_gateway_unknown_route_found_in_redis},
        {"gateway_match_moved_refuses_in_flight_and_reattaches",
         test_gateway_match_moved_refuses_in_flight_and_reattaches},
        {"gateway_worker_unknown_match_drops_route", test_gateway_worker_unknown_match_drops_route},
        {"gateway_game_over_drops_route", test_gateway_game_over_drops_route},
        {"gateway_disconnect_in_match_reports_away_to_worker",
         test_gateway_disconnect_in_match_reports_away_to_worker},
        {"gateway_bogus_match_does_not_hide_the_real_one",
         test_gateway_bogus_match_does_not_hide_the_real_one},
        {"gateway_resume_on_another_gateway_routes_through_it",
         test_gateway_resume_on_another_gateway_routes_through_it},
        {"gateway_redis_down_unavailable_then_recovers",
         test_gateway_redis_down_unavailable_then_recovers},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_route", cases);
}
