/*
 * test_gateway_watch.c: the gateway's part of spectating (gateway/watch.c), against the
 * real deckhand-gateway binary and fake matchmaker and workers (rig_gateway.h): Spectate
 * goes to the match's worker by its route; a watcher's frames reach only the connection
 * that watches that very match (not a seat of it, not after a stop or a refusal, not of
 * another match); a new Spectate, SpectateStop and a dropped connection send the worker a
 * spectate_stop, never an away; MatchMoved attaches the watchers to the new worker; bad
 * input gets UNAUTHENTICATED or BAD_REQUEST; WatchListRequest goes to the matchmaker.
 */
#include <string.h>

#include "rig_gateway.h"

static void send_spectate(rg_client *c, uint64_t cmd_id, const char *match_id, bool stop)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Spectate s = DECKHAND__SPECTATE__INIT;
    Deckhand__SpectateStop st = DECKHAND__SPECTATE_STOP__INIT;
    m.cmd_id = cmd_id;
    if (stop) {
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE_STOP;
        m.spectate_stop = &st;
    } else {
        s.match_id = (char *)match_id;
        m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE;
        m.spectate = &s;
    }
    rg_send(c, &m);
}

/* The worker sock sends pid a SpectatorFrame of match_id numbered by its view's event_seq;
 * with over, the last one (GameOver). */
static void worker_frame_of(void *sock, const char *pid, const char *match_id, uint64_t seq,
                            bool over)
{
    Deckhand__GameOver go = DECKHAND__GAME_OVER__INIT;
    go.match_id = (char *)match_id;
    Deckhand__View v = DECKHAND__VIEW__INIT;
    v.match_id = (char *)match_id;
    v.event_seq = seq;
    Deckhand__SpectatorFrame f = DECKHAND__SPECTATOR_FRAME__INIT;
    f.match_id = (char *)match_id;
    f.view = &v;
    f.spectators = 1;
    f.game_over = over ? &go : NULL;
    Deckhand__ServerMessage sm = DECKHAND__SERVER_MESSAGE__INIT;
    sm.body_case = DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME;
    sm.spectator_frame = &f;
    rg_worker_output(sock, RG_GW_ID, pid, match_id, &sm);
}

static void worker_frame(void *sock, const char *pid, const char *match_id, uint64_t seq)
{
    worker_frame_of(sock, pid, match_id, seq, false);
}

/* The next thing c receives is the frame of match_id numbered seq. */
static void expect_frame(rg_client *c, const char *match_id, uint64_t seq)
{
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(c, 3000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME);
    CU_ASSERT_STRING_EQUAL(sm->spectator_frame->match_id, match_id);
    CU_ASSERT_EQUAL(sm->spectator_frame->view->event_seq, seq);
    deckhand__server_message__free_unpacked(sm, NULL);
}

/* c receives nothing more within a moment. */
static void expect_quiet(rg_client *c)
{
    Deckhand__ServerMessage *sm = NULL;
    int rc = rg_recv(c, 400, &sm);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc == 1)
        deckhand__server_message__free_unpacked(sm, NULL);
}

/* The next PlayerCommand on sock for pid within timeout_ms (aways included; what comes for
 * other players, such as a seat's away, is skipped), or NULL. */
static Deckhand__Internal__Internal *next_command_for(void *sock, const char *pid, int timeout_ms)
{
    char from[DH_ZMQ_ID_MAX + 1];
    uint64_t until = dh_test_now_ms() + (uint64_t)timeout_ms;
    for (uint64_t now = dh_test_now_ms(); now < until; now = dh_test_now_ms()) {
        Deckhand__Internal__Internal *in =
            rg_router_recv_filtered(sock, from, (int)(until - now), false);
        if (!in)
            return NULL;
        if (in->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND &&
            !strcmp(in->player_command->player_id, pid))
            return in;
        deckhand__internal__internal__free_unpacked(in, NULL);
    }
    return NULL;
}

/* The next command on sock for pid is its spectate_stop of match_id, the gateway's own. */
static void expect_stop(void *sock, const char *match_id, const char *pid)
{
    Deckhand__Internal__Internal *in = next_command_for(sock, pid, RG_EXPECT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const Deckhand__Internal__PlayerCommand *pc = in->player_command;
    CU_ASSERT_EQUAL(pc->body_case, DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE_STOP);
    CU_ASSERT_STRING_EQUAL(pc->match_id, match_id);
    CU_ASSERT_EQUAL(pc->cmd_id, 0);
    deckhand__internal__internal__free_unpacked(in, NULL);
}

/* Nothing for pid (not even an away) reaches sock within a moment. */
static void expect_no_command(void *sock, const char *pid)
{
    Deckhand__Internal__Internal *in = next_command_for(sock, pid, 400);
    CU_ASSERT_PTR_NULL(in);
    if (in)
        deckhand__internal__internal__free_unpacked(in, NULL);
}

static void test_gateway_watcher_gets_only_frames_of_its_match(void)
{
    char seat[64], wid[64];
    rg_client *s = rg_open_in_match("sam", seat, "m-w1");
    rg_client *w = rg_open_as("wanda", wid);
    send_spectate(w, 5, "m-w1", false);
    rg_expect_round_trip(w, rg.worker, "m-w1", wid, 5,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE,
                         DECKHAND__ERROR_CODE__OK);
    worker_frame(rg.worker, wid, "m-w1", 1);
    expect_frame(w, "m-w1", 1);

    worker_frame(rg.worker, wid, "m-other", 2); /* not the match it watches */
    worker_frame(rg.worker, seat, "m-w1", 3);   /* a seat of the match, not watching it */
    worker_frame(rg.worker, wid, "m-w1", 4);
    expect_frame(w, "m-w1", 4);
    expect_quiet(w);
    expect_quiet(s);

    /* a watcher is not seated: its disconnect is a spectate_stop, not an away */
    rg_close(w);
    expect_stop(rg.worker, "m-w1", wid);
    expect_no_command(rg.worker, wid);
    rg_close(s);
}

static void test_gateway_spectate_replaced_then_stopped(void)
{
    char seat[64], seat2[64], wid[64];
    rg_client *s = rg_open_in_match("sue", seat, "m-w2");
    rg_client *s2 = rg_open_in_match("syd", seat2, "m-w3");
    rg_client *w = rg_open_as("walt", wid);
    send_spectate(w, 5, "m-w2", false);
    rg_expect_round_trip(w, rg.worker, "m-w2", wid, 5,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE,
                         DECKHAND__ERROR_CODE__OK);
    /* a new Spectate replaces the old: its worker is told first */
    send_spectate(w, 6, "m-w3", false);
    expect_stop(rg.worker, "m-w2", wid);
    rg_expect_round_trip(w, rg.worker, "m-w3", wid, 6,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE,
                         DECKHAND__ERROR_CODE__OK);
    worker_frame(rg.worker, wid, "m-w2", 1); /* the old match's: dropped */
    worker_frame(rg.worker, wid, "m-w3", 2);
    expect_frame(w, "m-w3", 2);

    /* SpectateStop: answered by the gateway at once, the worker told */
    send_spectate(w, 7, NULL, true);
    rg_expect_reply(w, 7, DECKHAND__ERROR_CODE__OK);
    expect_stop(rg.worker, "m-w3", wid);
    worker_frame(rg.worker, wid, "m-w3", 3);
    expect_quiet(w);
    /* a second stop has nothing to tell the worker */
    send_spectate(w, 8, NULL, true);
    rg_expect_reply(w, 8, DECKHAND__ERROR_CODE__OK);
    rg_close(w);
    expect_no_command(rg.worker, wid);
    rg_close(s);
    rg_close(s2);
}

static void test_gateway_refused_spectate_gets_no_frames(void)
{
    char seat[64], wid[64];
    rg_client *s = rg_open_in_match("sal", seat, "m-w4");
    rg_client *w = rg_open_as("wes", wid);
    send_spectate(w, 5, "m-w4", false);
    rg_expect_round_trip(w, rg.worker, "m-w4", wid, 5,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE,
                         DECKHAND__ERROR_CODE__FULL);
    worker_frame(rg.worker, wid, "m-w4", 1);
    expect_quiet(w);
    /* refused: nothing to stop when it leaves */
    rg_close(w);
    expect_no_command(rg.worker, wid);
    rg_close(s);
}

static void test_gateway_spectate_bad_input(void)
{
    rg_client *c = rg_open();
    send_spectate(c, 3, "m-w1", false);
    rg_expect_reply(c, 3, DECKHAND__ERROR_CODE__UNAUTHENTICATED);
    rg_close(c);

    char wid[64];
    rg_client *w = rg_open_as("wil", wid);
    send_spectate(w, 4, "", false);
    rg_expect_reply(w, 4, DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_spectate(w, 5, "m-\n", false);
    rg_expect_reply(w, 5, DECKHAND__ERROR_CODE__BAD_REQUEST);
    send_spectate(w, 0, "m-w1", false);
    rg_expect_reply(w, 0, DECKHAND__ERROR_CODE__BAD_REQUEST);
    /* no route and Redis does not know it either */
    send_spectate(w, 6, "m-nowhere", false);
    rg_expect_reply(w, 6, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rg_close(w);
    expect_no_command(rg.worker, wid);
}

static void test_gateway_match_moved_reattaches_watchers(void)
{
    char seat[64], wid[64];
    rg_client *s = rg_open_in_match("sid", seat, "m-w5");
    rg_client *w = rg_open_as("wyn", wid);
    send_spectate(w, 5, "m-w5", false);
    rg_expect_round_trip(w, rg.worker, "m-w5", wid, 5,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE,
                         DECKHAND__ERROR_CODE__OK);
    char *players[] = {seat};
    rg_mm_match_moved("m-w5", "wk-two", rg.worker2_ep, players, 1);
    /* the seat's attach and the watcher's spectate (the gateway's own, cmd_id 0) */
    bool resync = false, spectate = false;
    for (int i = 0; i < 2; i++) {
        char from[DH_ZMQ_ID_MAX + 1];
        Deckhand__Internal__Internal *in =
            rg_expect_internal(rg.worker2, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
        const Deckhand__Internal__PlayerCommand *pc = in->player_command;
        CU_ASSERT_EQUAL(pc->cmd_id, 0);
        CU_ASSERT_STRING_EQUAL(pc->match_id, "m-w5");
        if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC)
            resync = !strcmp(pc->player_id, seat);
        if (pc->body_case == DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE)
            spectate = !strcmp(pc->player_id, wid) && !strcmp(pc->spectate->match_id, "m-w5");
        deckhand__internal__internal__free_unpacked(in, NULL);
    }
    CU_ASSERT_TRUE(resync);
    CU_ASSERT_TRUE(spectate);
    worker_frame(rg.worker, wid, "m-w5", 1); /* the old worker lost it: dropped */
    worker_frame(rg.worker2, wid, "m-w5", 2);
    expect_frame(w, "m-w5", 2);
    rg_close(w);
    expect_stop(rg.worker2, "m-w5", wid);
    rg_close(s);
}

static void test_gateway_last_frame_ends_the_watching_and_the_route(void)
{
    char seat[64], wid[64];
    rg_client *s = rg_open_in_match("sol", seat, "m-w6");
    rg_client *w = rg_open_as("wyatt", wid);
    send_spectate(w, 5, "m-w6", false);
    rg_expect_round_trip(w, rg.worker, "m-w6", wid, 5,
                         DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE,
                         DECKHAND__ERROR_CODE__OK);
    worker_frame_of(rg.worker, wid, "m-w6", 1, true);
    Deckhand__ServerMessage *sm = NULL;
    CU_ASSERT_EQUAL_FATAL(rg_recv(w, 3000, &sm), 1);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_SPECTATOR_FRAME);
    CU_ASSERT_PTR_NOT_NULL(sm->spectator_frame->game_over);
    deckhand__server_message__free_unpacked(sm, NULL);
    worker_frame(rg.worker, wid, "m-w6", 2); /* after the last: nobody watches it */
    expect_quiet(w);
    /* the match is over: no stop to send, and its route is gone (Redis is asked) */
    rg_close(w);
    expect_no_command(rg.worker, wid);
    rg_send_resync(s, 7, "m-w6");
    rg_expect_reply(s, 7, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rg_close(s);
}

static void test_gateway_watch_list_request_goes_to_the_matchmaker(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_as("wendy", pid);
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__WatchListRequest wr = DECKHAND__WATCH_LIST_REQUEST__INIT;
    wr.game = "dominion";
    m.cmd_id = 9;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST;
    m.watch_list_request = &wr;
    rg_send(c, &m);
    Deckhand__Internal__Internal *in =
        rg_expect_internal(rg.mm, from, DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST);
    CU_ASSERT_STRING_EQUAL(in->client_request->player_id, pid);
    CU_ASSERT_EQUAL_FATAL(in->client_request->message->body_case,
                          DECKHAND__CLIENT_MESSAGE__BODY_WATCH_LIST_REQUEST);
    CU_ASSERT_STRING_EQUAL(in->client_request->message->watch_list_request->game, "dominion");
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_mm_queue_reply(pid, 9, DECKHAND__ERROR_CODE__OK, NULL);
    rg_expect_reply(c, 9, DECKHAND__ERROR_CODE__OK);

    wr.game = "bad\ngame";
    m.cmd_id = 10;
    rg_send(c, &m);
    rg_expect_reply(c, 10, DECKHAND__ERROR_CODE__BAD_REQUEST);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_watcher_gets_only_frames_of_its_match",
         test_gateway_watcher_gets_only_frames_of_its_match},
        {"gateway_spectate_replaced_then_stopped", test_gateway_spectate_replaced_then_stopped},
        {"gateway_refused_spectate_gets_no_frames", test_gateway_refused_spectate_gets_no_frames},
        {"gateway_spectate_bad_input", test_gateway_spectate_bad_input},
        {"gateway_match_moved_reattaches_watchers", test_gateway_match_moved_reattaches_watchers},
        {"gateway_last_frame_ends_the_watching_and_the_route",
         test_gateway_last_frame_ends_the_watching_and_the_route},
        {"gateway_watch_list_request_goes_to_the_matchmaker",
         test_gateway_watch_list_request_goes_to_the_matchmaker},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_watch", cases);
}
