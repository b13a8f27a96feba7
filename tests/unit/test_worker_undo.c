/*
 * test_worker_undo.c: a seat's undo and chat through the worker's host (host_undo.c,
 * host_chat.c), on the worker rig (its own redis-server, the rig's gateway gw-t, guests
 * p-ann and p-bob in Dominion: unrated, so an undo is at once). An undo whose write fails
 * (Redis down) is UNAVAILABLE and changes nothing, in the engine or in Redis, and may be
 * asked again; once it lands the match, its history and both seats' Views are back where
 * they were before the answer. Rated (accounts), the other seat is asked and the ask expires
 * after 15 s; an acceptance takes the answer back. A chat line reaches both seats and changes
 * nothing stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rig_worker.h"

#define MATCH "m-undo"

/* What stood before the answer that may be taken back, and who gave it. */
typedef struct {
    int seat;
    uint64_t hash_before, hash_after;
    long long hist_before;
} undoable;

static long long history_len(void)
{
    return rig_worker_redis_int("LLEN", "match:{" MATCH "}:history");
}

/* Answer legally until the last answer may be taken back by its seat. */
static bool play_until_undoable(rig_worker *r, host_match *hm, uint64_t *cmd, undoable *u)
{
    rig_outbox o;
    for (int n = 0; n < 300; n++) {
        const engine_decision *d = engine_match_decision(hm->m);
        if (!d)
            return false;
        u->seat = d->seat;
        u->hash_before = engine_match_hash(hm->m);
        u->hist_before = history_len();
        if (!rig_worker_answer(r, hm, (*cmd)++))
            return false;
        host_flush(&r->h, r->now);
        rig_worker_gw_drain(r, &o);
        rig_outbox_free(&o);
        if (engine_match_can_take_back(hm->m, u->seat)) {
            u->hash_after = engine_match_hash(hm->m);
            return true;
        }
    }
    return false;
}

static void command(rig_worker *r, const char *player, uint64_t cmd_id, const char *chat);

/* A PlayerCommand of player through gw-t: an UndoRequest, an UndoAnswer (answer "yes" or
 * "no"), or a ChatSend of text. */
static void command_as(rig_worker *r, const char *player, uint64_t cmd_id, const char *chat,
                       const char *answer)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__UndoAnswer ua = DECKHAND__UNDO_ANSWER__INIT;
    if (!answer) {
        command(r, player, cmd_id, chat);
        return;
    }
    pc.match_id = ua.match_id = MATCH;
    pc.player_id = (char *)player;
    pc.cmd_id = cmd_id;
    ua.accept = !strcmp(answer, "yes");
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_UNDO_ANSWER;
    pc.undo_answer = &ua;
    host_command(&r->h, "gw-t", &pc, r->now);
    host_flush(&r->h, r->now);
}

static void command(rig_worker *r, const char *player, uint64_t cmd_id, const char *chat)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__UndoRequest ur = DECKHAND__UNDO_REQUEST__INIT;
    Deckhand__ChatSend cs = DECKHAND__CHAT_SEND__INIT;
    pc.match_id = ur.match_id = cs.match_id = MATCH;
    pc.player_id = (char *)player;
    pc.cmd_id = cmd_id;
    if (chat) {
        cs.text = (char *)chat;
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHAT;
        pc.chat = &cs;
    } else {
        pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_UNDO;
        pc.undo = &ur;
    }
    host_command(&r->h, "gw-t", &pc, r->now);
    host_flush(&r->h, r->now);
}

/* The Reply to cmd_id in o: its error code (0: ok), or -1 when none. */
static int reply_code(const rig_outbox *o, uint64_t cmd_id)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->msg[i]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY &&
            o->msg[i]->reply->cmd_id == cmd_id)
            return o->msg[i]->reply->ok ? 0 : (int)o->msg[i]->reply->error->code;
    return -1;
}

static void test_worker_undo_failed_write_changes_nothing_then_lands(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, MATCH, "dominion", NULL);
    uint64_t cmd = 10;
    undoable u;
    CU_ASSERT_FATAL(play_until_undoable(&r, hm, &cmd, &u));
    const char *who = rig_worker_players[u.seat];
    long long hist_after = history_len();
    CU_ASSERT_EQUAL(hist_after, u.hist_before + 1);

    rig_worker_redis_down();
    command(&r, who, 900, NULL);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 900), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, who, DECKHAND__SERVER_MESSAGE__BODY_UNDO));
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), u.hash_after);
    CU_ASSERT_TRUE(engine_match_can_take_back(hm->m, u.seat));
    rig_worker_redis_up();
    CU_ASSERT_EQUAL(history_len(), hist_after);

    rig_worker_advance(&r, 2100); /* past the store's reconnect backoff */
    command(&r, who, 901, NULL);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 901), 0);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), u.hash_before);
    CU_ASSERT_EQUAL(history_len(), u.hist_before);
    for (int s = 0; s < 2; s++) {
        const Deckhand__ServerMessage *st =
            rig_outbox_find(&o, rig_worker_players[s], DECKHAND__SERVER_MESSAGE__BODY_UNDO);
        CU_ASSERT_TRUE(st && !strcmp(st->undo->status, "accepted") && st->undo->seat == u.seat);
        CU_ASSERT_PTR_NOT_NULL(
            rig_outbox_find(&o, rig_worker_players[s], DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    }
    rig_outbox_free(&o);
    /* nothing more to take back; the other seat never had anything to */
    command(&r, who, 902, NULL);
    command(&r, rig_worker_players[1 - u.seat], 903, NULL);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 902), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(reply_code(&o, 903), DECKHAND__ERROR_CODE__BAD_REQUEST);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

/* The UndoState player got in o: its status, or "" when none. */
static const char *undo_status(const rig_outbox *o, const char *player)
{
    const Deckhand__ServerMessage *m =
        rig_outbox_find(o, player, DECKHAND__SERVER_MESSAGE__BODY_UNDO);
    return m ? m->undo->status : "";
}

/* Rated play (every seat an account): the other seat is asked; the ask expires after 15 s
 * without its answer, and an acceptance takes the answer back. */
static void test_worker_undo_rated_asks_and_expires(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, MATCH, "dominion", NULL);
    uint64_t cmd = 10;
    undoable u;
    CU_ASSERT_FATAL(play_until_undoable(&r, hm, &cmd, &u));
    /* the seats become accounts, as a rated match's are */
    static const char *const acct[2] = {"a-ann", "a-bob"};
    for (int s = 0; s < 2; s++)
        snprintf(hm->seats[s].player_id, sizeof hm->seats[s].player_id, "%s", acct[s]);
    const char *who = acct[u.seat], *other = acct[1 - u.seat];
    rig_outbox o;
    command(&r, who, 800, NULL);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 800), 0);
    CU_ASSERT_STRING_EQUAL(undo_status(&o, other), "asked");
    CU_ASSERT_STRING_EQUAL(undo_status(&o, who), "asked");
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), u.hash_after); /* nothing until consent */
    rig_worker_advance(&r, 14000);
    host_tick(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_STRING_EQUAL(undo_status(&o, other), ""); /* still asked at 14 s */
    rig_outbox_free(&o);
    rig_worker_advance(&r, 1000);
    host_tick(&r.h, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_STRING_EQUAL(undo_status(&o, other), "expired");
    CU_ASSERT_STRING_EQUAL(undo_status(&o, who), "expired");
    rig_outbox_free(&o);
    command_as(&r, other, 801, NULL, "yes"); /* too late */
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 801), DECKHAND__ERROR_CODE__BAD_REQUEST);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), u.hash_after);
    /* asked again and accepted: taken back */
    command(&r, who, 802, NULL);
    command_as(&r, other, 803, NULL, "yes");
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 803), 0);
    CU_ASSERT_STRING_EQUAL(undo_status(&o, who), "asked"); /* the first UndoState it got */
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), u.hash_before);
    CU_ASSERT_EQUAL(history_len(), u.hist_before);
    rig_worker_close(&r);
}

static void test_worker_chat_reaches_both_seats_and_changes_nothing(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, MATCH, "dominion", NULL);
    uint64_t hash = engine_match_hash(hm->m);
    long long hist = history_len();
    size_t nb = 0, na = 0;
    char *snap_before = rig_worker_redis_get("match:{" MATCH "}:snap", &nb);
    command(&r, rig_worker_players[0], 50, "well played");
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 50), 0);
    for (int s = 0; s < 2; s++) {
        const Deckhand__ServerMessage *m =
            rig_outbox_find(&o, rig_worker_players[s], DECKHAND__SERVER_MESSAGE__BODY_CHAT);
        CU_ASSERT_TRUE(m && !strcmp(m->chat->text, "well played") && m->chat->seat == 0 &&
                       !strcmp(m->chat->match_id, MATCH));
    }
    rig_outbox_free(&o);
    /* the same cmd_id again: answered, not relayed twice */
    command(&r, rig_worker_players[0], 50, "well played");
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_EQUAL(reply_code(&o, 50), 0);
    CU_ASSERT_PTR_NULL(
        rig_outbox_find(&o, rig_worker_players[1], DECKHAND__SERVER_MESSAGE__BODY_CHAT));
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash);
    CU_ASSERT_EQUAL(history_len(), hist);
    char *snap_after = rig_worker_redis_get("match:{" MATCH "}:snap", &na);
    CU_ASSERT_TRUE(snap_before && snap_after && nb == na && !memcmp(snap_before, snap_after, na));
    free(snap_before);
    free(snap_after);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_undo_failed_write_changes_nothing_then_lands",
         test_worker_undo_failed_write_changes_nothing_then_lands},
        {"worker_undo_rated_asks_and_expires", test_worker_undo_rated_asks_and_expires},
        {"worker_chat_reaches_both_seats_and_changes_nothing",
         test_worker_chat_reaches_both_seats_and_changes_nothing},
        {NULL, NULL},
    };
    return rig_worker_main("worker_undo", cases);
}
