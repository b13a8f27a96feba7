/*
 * test_replay_frames.c: replays end to end (deckhand.proto, "Watching": ReplayRequest) on a
 * real cluster (ports from 28400): players play a Dominion and a Caveman match to the end
 * at the same time (so the two land on different workers); a third player asks for each
 * replay and gets a Catalog first, then ReplayFrames 0..total-1 in order with total = the
 * answers recorded in match:{ID}:history + 1, no hand or deck card, no decision and no
 * private event ("You ...", what g:log_to says) in any frame, and the last frame's
 * GameOver equal to the result the match stored; an unknown id and a running match are
 * UNKNOWN_MATCH, an empty id or one with a brace or a control character BAD_REQUEST; `deckhand
 * replay ID --frames` prints the same frames; after the Dominion match's worker is killed, its
 * replay is still served, by the other worker, which the gateway (routing no match by then) finds
 * among the newest finished matches' workers.
 */
#include "dh_redis.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PORT_BASE 28400
#define PLAY_MS   120000

static char dominion_id[96], caveman_id[96];
static pl_player *viewer;

/* A field of match:{id} into out ("" when none). */
static void match_field(const char *id, const char *field, char *out, size_t n)
{
    char key[160];
    snprintf(key, sizeof key, "match:{%s}", id);
    const char *argv[] = {"HGET", key, field};
    redisReply *r = rc_redis(3, argv);
    snprintf(out, n, "%s", r && r->type == REDIS_REPLY_STRING ? r->str : "");
    if (r)
        freeReplyObject(r);
}

/* Queue a and b for game; true when both are seated in one match. */
static bool queue_pair(pl_player *a, pl_player *b, const char *game)
{
    if (pl_wait_reply(a, pl_send_queue(a, game, 2)) != 0 ||
        pl_wait_reply(b, pl_send_queue(b, game, 2)) != 0)
        return false;
    pl_player *ps[2] = {a, b};
    long long until = pl_now_ms() + WAIT_MS;
    while ((a->seat < 0 || b->seat < 0 || !pl_decider(ps, 2)) && pl_now_ms() < until)
        pl_pump(ps, 2, 50);
    return a->seat >= 0 && b->seat >= 0 && !strcmp(a->match_id, b->match_id);
}

/* Both matches, played at once to their ends by the rig's bot. */
static void test_two_matches_are_played_to_the_end(void)
{
    pl_player *d[2] = {pl_login("rf-da"), pl_login("rf-db")};
    pl_player *c[2] = {pl_login("rf-ca"), pl_login("rf-cb")};
    CU_ASSERT_FATAL(d[0] && d[1] && c[0] && c[1]);
    CU_ASSERT_FATAL(queue_pair(d[0], d[1], "dominion"));
    CU_ASSERT_FATAL(queue_pair(c[0], c[1], "caveman"));
    snprintf(dominion_id, sizeof dominion_id, "%s", d[0]->match_id);
    snprintf(caveman_id, sizeof caveman_id, "%s", c[0]->match_id);
    pl_player *all[4] = {d[0], d[1], c[0], c[1]};
    long long until = pl_now_ms() + PLAY_MS;
    while (pl_now_ms() < until &&
           !(d[0]->game_over && d[1]->game_over && c[0]->game_over && c[1]->game_over)) {
        pl_player *p = pl_decider(all, 4);
        if (p)
            pl_bot_answer(p);
        else
            pl_pump(all, 4, 20);
    }
    CU_ASSERT_FATAL(d[0]->game_over && d[1]->game_over && c[0]->game_over && c[1]->game_over);
    char status[32];
    match_field(dominion_id, "status", status, sizeof status);
    CU_ASSERT_STRING_EQUAL(status, "finished");
    for (int i = 0; i < 4; i++)
        pl_drop(all[i]);
    viewer = pl_login("rf-viewer");
    CU_ASSERT_PTR_NOT_NULL_FATAL(viewer);
}

/* What one replay sent. */
typedef struct {
    int reply; /* -1: none came */
    bool catalog_first;
    unsigned frames, out_of_order, leaks, events;
    uint32_t total;
    Deckhand__ServerMessage *over; /* the last frame, kept (owned) */
} replay_seen;

static bool frame_leaks(const Deckhand__ReplayFrame *f)
{
    if (!f->view || f->view->decision)
        return true;
    for (size_t i = 0; i < f->view->n_zones; i++) {
        const Deckhand__Zone *z = f->view->zones[i];
        if ((!strcmp(z->name, "hand") || !strcmp(z->name, "deck")) && z->n_cards)
            return true;
    }
    for (size_t i = 0; i < f->n_events; i++)
        if (f->events[i]->text && !strncmp(f->events[i]->text, "You ", 4))
            return true;
    return false;
}

/* Ask for match_id's replay and read what comes until its Reply. */
static void replay(const char *match_id, replay_seen *s)
{
    memset(s, 0, sizeof *s);
    s->reply = -1;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__ReplayRequest rr = DECKHAND__REPLAY_REQUEST__INIT;
    rr.match_id = (char *)match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_REPLAY_REQUEST;
    m.replay_request = &rr;
    uint64_t cmd = pl_send(viewer, &m);
    long long until = pl_now_ms() + 20000;
    bool first = true;
    while (s->reply < 0 && pl_now_ms() < until) {
        Deckhand__ServerMessage *msg = NULL;
        if (dh_client_recv(viewer->c, 200, &msg) != 1)
            continue;
        bool keep = false;
        if (first)
            s->catalog_first = msg->body_case == DECKHAND__SERVER_MESSAGE__BODY_CATALOG;
        first = false;
        if (msg->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && msg->reply->cmd_id == cmd)
            s->reply = msg->reply->ok ? 0 : (int)msg->reply->error->code;
        if (msg->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLAY_FRAME) {
            const Deckhand__ReplayFrame *f = msg->replay_frame;
            s->out_of_order += f->index != s->frames || strcmp(f->match_id, match_id);
            s->frames++;
            s->total = f->total;
            s->leaks += frame_leaks(f);
            s->events += (unsigned)f->n_events;
            if (f->game_over) {
                if (s->over)
                    deckhand__server_message__free_unpacked(s->over, NULL);
                s->over = msg;
                keep = true;
            }
        }
        if (!keep)
            deckhand__server_message__free_unpacked(msg, NULL);
    }
}

static void replay_seen_free(replay_seen *s)
{
    if (s->over)
        deckhand__server_message__free_unpacked(s->over, NULL);
    s->over = NULL;
}

/* The GameOver of the last frame against match:{ID}.result, as the worker wrote it when
 * the match ended: one {"seat":S,...,"score":N,"rank":R,...} per seat. */
static void check_game_over(const char *id, const Deckhand__ServerMessage *last)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(last);
    const Deckhand__GameOver *go = last->replay_frame->game_over;
    char result[4096], want[160];
    match_field(id, "result", result, sizeof result);
    CU_ASSERT_EQUAL(go->n_results, 2);
    for (size_t i = 0; i < go->n_results; i++) {
        const Deckhand__PlayerResult *r = go->results[i];
        snprintf(want, sizeof want, "{\"seat\":%u,", r->seat);
        const char *at = strstr(result, want);
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        snprintf(want, sizeof want, "\"score\":%d,\"rank\":%u,\"turns\":%u", r->score, r->rank,
                 r->turns);
        CU_ASSERT_PTR_NOT_NULL(strstr(at, want));
    }
}

static void check_replay(const char *id)
{
    long long answers = rc_history_len(id);
    CU_ASSERT_TRUE_FATAL(answers > 10);
    replay_seen s;
    replay(id, &s);
    fprintf(stderr, "[replay %s: %u frames, %u events, reply %d] ", id, s.frames, s.events,
            s.reply);
    CU_ASSERT_EQUAL(s.reply, 0);
    CU_ASSERT_TRUE(s.catalog_first);
    CU_ASSERT_EQUAL(s.frames, (unsigned)answers + 1);
    CU_ASSERT_EQUAL(s.total, (uint32_t)answers + 1);
    CU_ASSERT_EQUAL(s.out_of_order, 0);
    CU_ASSERT_EQUAL(s.leaks, 0);
    CU_ASSERT_TRUE(s.events > 0);
    check_game_over(id, s.over);
    replay_seen_free(&s);
}

static void test_a_dominion_replay_is_whole_and_public(void)
{
    check_replay(dominion_id);
}

static void test_a_caveman_replay_is_whole_and_public(void)
{
    check_replay(caveman_id);
}

/* `deckhand replay ID --frames` prints the same frames from Redis, as text. */
static void test_the_cli_prints_every_frame(void)
{
    char url[512], cmd[1024], line[4096];
    CU_ASSERT_FATAL(rc_env("DECKHAND_REDIS_URL", url, sizeof url) == 0);
    snprintf(cmd, sizeof cmd, "'%s/deckhand' replay '%s' --frames --redis '%s'", DECKHAND_BIN_DIR,
             dominion_id, url);
    FILE *f = popen(cmd, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    long long frames = 0, logs = 0, private = 0, zones = 0;
    bool ok = false;
    while (fgets(line, sizeof line, f)) {
        frames += !strncmp(line, "frame ", 6);
        logs += !strncmp(line, "  log: ", 7);
        private += !strncmp(line, "  log: You ", 11);
        zones += !strncmp(line, "  zone ", 7);
        ok |= !strncmp(line, "match ", 6) && strstr(line, " result=ok");
    }
    CU_ASSERT_EQUAL(pclose(f), 0);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(frames, rc_history_len(dominion_id) + 1);
    CU_ASSERT_TRUE(logs > 0 && zones > frames);
    CU_ASSERT_EQUAL(private, 0);
}

static void test_unknown_and_running_matches_are_unknown_match(void)
{
    replay_seen s;
    replay("m-no-such-match", &s);
    CU_ASSERT_EQUAL(s.reply, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(s.frames, 0);
    replay_seen_free(&s);
    const char *bad[] = {"", "m-{x}", "m-\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        replay(bad[i], &s);
        CU_ASSERT_EQUAL(s.reply, DECKHAND__ERROR_CODE__BAD_REQUEST);
        CU_ASSERT_EQUAL(s.frames, 0);
        replay_seen_free(&s);
    }
    pl_player *a = NULL, *b = NULL;
    CU_ASSERT_FATAL(pl_start_match("rf-run", &a, &b));
    replay(a->match_id, &s);
    CU_ASSERT_EQUAL(s.reply, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_EQUAL(s.frames, 0);
    replay_seen_free(&s);
    /* played out, so that the gateway routes no match when the worker is killed below */
    pl_player *ps[2] = {a, b};
    long long until = pl_now_ms() + PLAY_MS;
    while (!(a->game_over && b->game_over) && pl_now_ms() < until) {
        pl_player *p = pl_decider(ps, 2);
        if (p)
            pl_bot_answer(p);
        else
            pl_pump(ps, 2, 20);
    }
    CU_ASSERT_TRUE(a->game_over && b->game_over);
    pl_end_match(a, b);
}

static void test_a_replay_outlives_its_matchs_worker(void)
{
    char worker[64], other[64], cmd[1024];
    match_field(dominion_id, "worker", worker, sizeof worker);
    match_field(caveman_id, "worker", other, sizeof other);
    CU_ASSERT_FATAL(!strncmp(worker, "wk-", 3));
    CU_ASSERT_FATAL(strcmp(worker, other) != 0); /* played at once: on different workers */
    snprintf(cmd, sizeof cmd,
             "bash -c 'source \"%s/scripts/lib/cluster.sh\" && dh_cluster_kill \"%s\" "
             "worker-%s KILL'",
             DECKHAND_SOURCE_DIR, rc_dir(), worker + 3);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    /* worker:{ID} (its liveness) lapses 2 s after its last beat */
    char key[96];
    snprintf(key, sizeof key, "worker:{%s}", worker);
    const char *argv[] = {"EXISTS", key};
    long long until = pl_now_ms() + 5000;
    for (;;) {
        redisReply *r = rc_redis(2, argv);
        bool gone = r && r->type == REDIS_REPLY_INTEGER && r->integer == 0;
        if (r)
            freeReplyObject(r);
        if (gone || pl_now_ms() > until)
            break;
        pl_pump(&viewer, 1, 100);
    }
    check_replay(dominion_id);
    char sent[160];
    snprintf(sent, sizeof sent, "replay of %s for", dominion_id);
    char to[160];
    snprintf(to, sizeof to, "sent to %s (a finished match's worker)", other);
    CU_ASSERT_TRUE(rc_log_count("gateway*.log", sent, to) >= 1);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"two_matches_are_played_to_the_end", test_two_matches_are_played_to_the_end},
        {"a_dominion_replay_is_whole_and_public", test_a_dominion_replay_is_whole_and_public},
        {"a_caveman_replay_is_whole_and_public", test_a_caveman_replay_is_whole_and_public},
        {"the_cli_prints_every_frame", test_the_cli_prints_every_frame},
        {"unknown_and_running_matches_are_unknown_match",
         test_unknown_and_running_matches_are_unknown_match},
        {"a_replay_outlives_its_matchs_worker", test_a_replay_outlives_its_matchs_worker},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("replay_frames", PORT_BASE) != 0)
        return 1;
    int rc = dh_test_main("e2e_replay_frames", cases);
    pl_drop(viewer);
    return rc_finish(rc);
}
