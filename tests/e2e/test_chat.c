/*
 * test_chat.c: in-match chat end to end (deckhand.proto ChatSend, ChatMessage; the gateway's
 * checks in gateway/inmatch.h, the worker's relay in worker/host/host_chat.c) on a real
 * cluster with two gateways (ports from 13200), players connected like any client.
 *
 * Two players seated through different gateways chat (a text and an emote reach both,
 * with the sender's seat and name); a flood is refused RATE_LIMITED past the chat's burst
 * and nothing refused is relayed; an over-long, empty, double, badly encoded or
 * control-character line and an unknown emote are refused BAD_REQUEST and not relayed; a
 * watcher reads the chat but may not write; and a chat line is never stored: the match
 * is played to its end and neither its Redis log and history, its replay's frames, any
 * event a seat got, nor any process's log line holds a chat text.
 */
#include "dh_redis.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PORT_BASE 13200
#define CHAT_MAX  64             /* chat lines a player records */
#define MARK      "zq-chat-mark" /* in every text this test sends: found nowhere stored */

typedef struct {
    int seat;
    char name[48], text[256], emote[16];
    uint64_t at_ms;
} got_chat;

/* The chat lines each player received, and any event text holding MARK. */
static struct {
    pl_player *who[4];
    got_chat line[4][CHAT_MAX];
    size_t n[4];
    unsigned marked_events;
} rec;

static char gw[2][300];

static void on_message(pl_player *p, const Deckhand__ServerMessage *m)
{
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_EVENT && m->event->text &&
        strstr(m->event->text, MARK))
        rec.marked_events++;
    if (m->body_case != DECKHAND__SERVER_MESSAGE__BODY_CHAT)
        return;
    for (int i = 0; i < 4; i++) {
        if (rec.who[i] != p || rec.n[i] == CHAT_MAX)
            continue;
        got_chat *g = &rec.line[i][rec.n[i]++];
        g->seat = m->chat->seat;
        snprintf(g->name, sizeof g->name, "%s", m->chat->name);
        snprintf(g->text, sizeof g->text, "%s", m->chat->text);
        snprintf(g->emote, sizeof g->emote, "%s", m->chat->emote);
        g->at_ms = m->chat->at_ms;
    }
}

static uint64_t send_chat(pl_player *p, const char *text, const char *emote)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__ChatSend cs = DECKHAND__CHAT_SEND__INIT;
    cs.match_id = p->match_id[0] ? p->match_id : rec.who[0]->match_id;
    cs.text = (char *)text;
    cs.emote = (char *)emote;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_CHAT_SEND;
    m.chat_send = &cs;
    return pl_send(p, &m);
}

static int chat(pl_player *p, const char *text, const char *emote)
{
    return pl_wait_reply(p, send_chat(p, text, emote));
}

static void pump(int ms)
{
    pl_player *ps[4];
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        if (rec.who[i])
            ps[n++] = rec.who[i];
    long long until = pl_now_ms() + ms;
    while (pl_now_ms() < until)
        pl_pump(ps, n, 10);
}

/* How many lines player i received whose text holds needle. */
static size_t got(int i, const char *needle)
{
    size_t k = 0;
    for (size_t j = 0; j < rec.n[i]; j++)
        k += strstr(rec.line[i][j].text, needle) != NULL;
    return k;
}

/* Log in a on the first gateway and b on the second and seat them in one Dominion match. */
static void test_chat_between_players_on_two_gateways(void)
{
    pl_player *a = pl_login_to(gw[0], "cht-a"), *b = pl_login_to(gw[1], "cht-b");
    CU_ASSERT_FATAL(a && b);
    rec.who[0] = a;
    rec.who[1] = b;
    pl_on_message = on_message;
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(a, pl_send_queue(a, "dominion", 2)), 0);
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(b, pl_send_queue(b, "dominion", 2)), 0);
    pl_player *ps[2] = {a, b};
    long long until = pl_now_ms() + WAIT_MS;
    while ((a->seat < 0 || b->seat < 0 || !a->nviews || !b->nviews) && pl_now_ms() < until)
        pl_pump(ps, 2, 50);
    CU_ASSERT_FATAL(a->seat >= 0 && b->seat >= 0 && !strcmp(a->match_id, b->match_id));

    CU_ASSERT_EQUAL(chat(a, "good luck " MARK, NULL), 0);
    CU_ASSERT_EQUAL(chat(b, NULL, "hi"), 0);
    pump(500);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(rec.n[i], 2);
        const got_chat *t = &rec.line[i][0], *e = &rec.line[i][1];
        CU_ASSERT_EQUAL(t->seat, a->seat);
        CU_ASSERT_STRING_EQUAL(t->name, "cht-a (guest)");
        CU_ASSERT_STRING_EQUAL(t->text, "good luck " MARK);
        CU_ASSERT_STRING_EQUAL(t->emote, "");
        CU_ASSERT(t->at_ms > 1700000000000ULL);
        CU_ASSERT_EQUAL(e->seat, b->seat);
        CU_ASSERT_STRING_EQUAL(e->name, "cht-b (guest)");
        CU_ASSERT_STRING_EQUAL(e->emote, "hi");
        CU_ASSERT_STRING_EQUAL(e->text, "");
    }
}

static void test_chat_flood_refused_and_not_relayed(void)
{
    pl_player *a = rec.who[0];
    uint64_t ids[12];
    char text[64];
    for (int i = 0; i < 12; i++) {
        snprintf(text, sizeof text, "flood %d " MARK, i);
        ids[i] = send_chat(a, text, NULL);
    }
    int ok = 0, limited = 0;
    for (int i = 0; i < 12; i++) {
        int rc = pl_wait_reply(a, ids[i]);
        ok += rc == 0;
        limited += rc == DECKHAND__ERROR_CODE__RATE_LIMITED;
    }
    pump(500);
    fprintf(stderr, "  12 lines at once: %d relayed, %d refused RATE_LIMITED\n", ok, limited);
    CU_ASSERT(ok >= 4 && ok <= 6); /* the burst of 5, less the first test's line, plus refill */
    CU_ASSERT_EQUAL(ok + limited, 12);
    CU_ASSERT_EQUAL(got(1, "flood "), (size_t)ok);
    CU_ASSERT_EQUAL(got(0, "flood "), (size_t)ok);
}

static void test_chat_refuses_bad_lines(void)
{
    pl_player *a = rec.who[0];
    char long_text[256];
    pump(1100); /* one line's allowance back after the flood */
    size_t before = rec.n[1];
    memset(long_text, 'x', 201);
    long_text[201] = '\0';
    CU_ASSERT_EQUAL(chat(a, long_text, NULL), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(chat(a, "", NULL), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(chat(a, "both", "gg"), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(chat(a, NULL, "shout"), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(chat(a, "bell \a " MARK, NULL), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(chat(a, "bad \xff\xfe utf-8", NULL), DECKHAND__ERROR_CODE__BAD_REQUEST);
    pump(300);
    CU_ASSERT_EQUAL(rec.n[1], before);
    memset(long_text, 'y', 200); /* exactly the cap, with a two-byte character in it */
    memcpy(long_text, "\xc3\xa9", 2);
    long_text[200] = '\0';
    CU_ASSERT_EQUAL(chat(a, long_text, NULL), 0);
    pump(300);
    CU_ASSERT_EQUAL(got(1, "\xc3\xa9yyy"), 1);
}

static void test_chat_watcher_reads_but_cannot_send(void)
{
    pl_player *a = rec.who[0];
    pl_player *w = pl_login_to(gw[1], "cht-w");
    CU_ASSERT_FATAL(w != NULL);
    rec.who[2] = w;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__Spectate s = DECKHAND__SPECTATE__INIT;
    s.match_id = a->match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_SPECTATE;
    m.spectate = &s;
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(w, pl_send(w, &m)), 0);
    pump(1100); /* one line's allowance back too */
    CU_ASSERT_EQUAL(chat(w, "let me in " MARK, NULL), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(chat(a, "hello watcher " MARK, NULL), 0);
    pump(500);
    CU_ASSERT_EQUAL(got(2, "hello watcher"), 1);
    CU_ASSERT_EQUAL(got(0, "let me in") + got(1, "let me in") + got(2, "let me in"), 0);
}

/* Entries of list key holding MARK; -1 when the list cannot be read or is empty. */
static long marked_entries(const char *key)
{
    const char *argv[] = {"LRANGE", key, "0", "-1"};
    redisReply *r = rc_redis(4, argv);
    long n = r && r->type == REDIS_REPLY_ARRAY && r->elements ? 0 : -1;
    for (size_t i = 0; n >= 0 && i < r->elements; i++)
        n += r->element[i]->len >= strlen(MARK) &&
             memmem(r->element[i]->str, r->element[i]->len, MARK, strlen(MARK)) != NULL;
    if (r)
        freeReplyObject(r);
    return n;
}

/* The replay of match_id, asked by p: its frames' event texts holding MARK, -1 if none came. */
static long replay_marks(pl_player *p, const char *match_id)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__ReplayRequest rr = DECKHAND__REPLAY_REQUEST__INIT;
    rr.match_id = (char *)match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_REPLAY_REQUEST;
    m.replay_request = &rr;
    uint64_t cmd = pl_send(p, &m);
    long marks = 0, frames = 0;
    int reply = -1;
    for (long long until = pl_now_ms() + 20000; reply < 0 && pl_now_ms() < until;) {
        Deckhand__ServerMessage *msg = NULL;
        if (dh_client_recv(p->c, 200, &msg) != 1)
            continue;
        if (msg->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY && msg->reply->cmd_id == cmd)
            reply = msg->reply->ok ? 0 : 1;
        if (msg->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLAY_FRAME) {
            frames++;
            for (size_t i = 0; i < msg->replay_frame->n_events; i++)
                marks += strstr(msg->replay_frame->events[i]->text, MARK) != NULL;
        }
        deckhand__server_message__free_unpacked(msg, NULL);
    }
    fprintf(stderr, "  replay: %ld frames\n", frames);
    return reply == 0 && frames > 1 ? marks : -1;
}

static void test_chat_never_stored_in_the_match_or_its_replay(void)
{
    pl_player *a = rec.who[0], *b = rec.who[1];
    pl_player *ps[2] = {a, b};
    char match_id[96], key[160];
    snprintf(match_id, sizeof match_id, "%s", a->match_id);
    pl_drop(rec.who[2]);
    rec.who[2] = NULL;
    long long until = pl_now_ms() + 120000;
    unsigned answers = 0;
    while (!(a->game_over && b->game_over) && pl_now_ms() < until) {
        pl_player *d = pl_decider(ps, 2);
        if (d && pl_bot_answer(d) == 0 && ++answers % 40 == 0)
            chat(d, "still here " MARK, NULL); /* chat between the moves, all game long */
        if (!d)
            pl_pump(ps, 2, 20);
    }
    CU_ASSERT_TRUE_FATAL(a->game_over && b->game_over);
    fprintf(stderr, "  played to its end: %u answers\n", answers);
    snprintf(key, sizeof key, "match:{%s}:history", match_id);
    CU_ASSERT_EQUAL(marked_entries(key), 0);
    CU_ASSERT_EQUAL(rec.marked_events, 0);
    CU_ASSERT_EQUAL(rc_log_count("*.log", MARK, NULL), 0);
    pl_player *v = pl_login_to(gw[0], "cht-v");
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(replay_marks(v, match_id), 0);
    pl_drop(v);
    pl_on_message = NULL;
    pl_end_match(a, b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"chat_between_players_on_two_gateways", test_chat_between_players_on_two_gateways},
        {"chat_flood_refused_and_not_relayed", test_chat_flood_refused_and_not_relayed},
        {"chat_refuses_bad_lines", test_chat_refuses_bad_lines},
        {"chat_watcher_reads_but_cannot_send", test_chat_watcher_reads_but_cannot_send},
        {"chat_never_stored_in_the_match_or_its_replay",
         test_chat_never_stored_in_the_match_or_its_replay},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    setenv("DH_GATEWAYS", "2", 1);
    if (rc_start("chat", PORT_BASE) != 0)
        return 1;
    char list[300];
    if (rc_env("DECKHAND_GATEWAYS_TCP", list, sizeof list) != 0 || !strchr(list, ',')) {
        fprintf(stderr, "chat: want two gateways, cluster.env lists %s\n", list);
        return rc_finish(1);
    }
    *strchr(list, ',') = '\0';
    snprintf(gw[0], sizeof gw[0], "%s", list);
    snprintf(gw[1], sizeof gw[1], "%s", list + strlen(list) + 1);
    return rc_finish(dh_test_main("e2e_chat", cases));
}
