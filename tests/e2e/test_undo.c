/*
 * test_undo.c: taking back a misclick end to end (deckhand.proto UndoRequest, UndoAnswer,
 * UndoState, DecisionRequest.can_undo; worker/host/host_undo.c) on a real cluster (ports
 * from 13400), in Dominion, where playing a Treasure keeps the turn and reveals nothing.
 *
 * Guests (unrated): a Treasure played is taken back at once, every seat told ("accepted")
 * and the player's View and decision are those before the answer; nothing else may be
 * taken back (no answer of its own pending, another seat's answer). Durable: after an undo
 * the worker hosting the match is killed and the adopting worker's match is the undone
 * one (the history in Redis without the answer, the View without it). Accounts (rated):
 * the opponent is asked; a refusal keeps the answer, an acceptance takes it back, and the
 * asker's next answer ends an asked undo ("expired").
 */
#include "dh_client_account.h"
#include "dh_hash.h"
#include "dh_redis.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PORT_BASE 13400

/* What the hook saw per player (by slot): the last DecisionRequest's can_undo and id, the
 * UndoStates. */
static struct {
    pl_player *who[2];
    bool can_undo[2];
    uint64_t can_undo_id[2];
    char status[2][16];
    int status_seat[2];
    size_t waiting[2], nstates[2];
} rec;

static void on_message(pl_player *p, const Deckhand__ServerMessage *m)
{
    int i = rec.who[0] == p ? 0 : rec.who[1] == p ? 1 : -1;
    if (i < 0)
        return;
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_DECISION) {
        rec.can_undo[i] = m->decision->can_undo;
        rec.can_undo_id[i] = m->decision->decision_id;
    }
    if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_UNDO) {
        snprintf(rec.status[i], sizeof rec.status[i], "%s", m->undo->status);
        rec.status_seat[i] = m->undo->seat;
        rec.waiting[i] = m->undo->n_waiting;
        rec.nstates[i]++;
    }
}

static void pump(int ms)
{
    long long until = pl_now_ms() + ms;
    while (pl_now_ms() < until)
        pl_pump(rec.who, 2, 10);
}

/* Zones and counters of the View p holds (no event count, no decision): the match as p sees it. */
static uint64_t board_sig(const pl_player *p)
{
    const Deckhand__View *v = p->held ? p->held->view : NULL;
    uint64_t h = DH_FNV_START;
    for (size_t i = 0; v && i < v->n_zones; i++) {
        const Deckhand__Zone *z = v->zones[i];
        h = dh_fnv1a_str(h, z->name);
        h = dh_fnv1a(h, &z->count, sizeof z->count);
        for (size_t k = 0; k < z->n_cards; k++)
            h = dh_fnv1a(h, &z->cards[k]->entity, sizeof z->cards[k]->entity);
    }
    for (size_t i = 0; v && i < v->n_counters; i++) {
        h = dh_fnv1a_str(h, v->counters[i]->name);
        h = dh_fnv1a(h, &v->counters[i]->value, sizeof v->counters[i]->value);
    }
    return h;
}

static int send_undo(pl_player *p)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__UndoRequest u = DECKHAND__UNDO_REQUEST__INIT;
    u.match_id = p->match_id;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_UNDO_REQUEST;
    m.undo_request = &u;
    return pl_wait_reply(p, pl_send(p, &m));
}

static int send_undo_answer(pl_player *p, bool accept)
{
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    Deckhand__UndoAnswer u = DECKHAND__UNDO_ANSWER__INIT;
    u.match_id = p->match_id;
    u.accept = accept;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_UNDO_ANSWER;
    m.undo_answer = &u;
    return pl_wait_reply(p, pl_send(p, &m));
}

/* Before the undoable answer: the player's board, its decision. */
typedef struct {
    pl_player *p;
    int slot;
    uint64_t board, decision;
} before_answer;

/* Play with the rig's bot until an answer leaves its player deciding again with can_undo
 * (a Treasure played); what stood before that answer into *b. */
static bool play_until_undoable(before_answer *b)
{
    for (int n = 0; n < 300; n++) {
        pl_player *d = pl_wait_decider(rec.who, 2);
        if (!d)
            return false;
        b->p = d;
        b->slot = d == rec.who[0] ? 0 : 1;
        b->board = board_sig(d);
        b->decision = d->dec.id;
        rec.can_undo[b->slot] = false;
        if (pl_bot_answer(d) != 0)
            return false;
        long long until = pl_now_ms() + WAIT_MS;
        while (!pl_decider(rec.who, 2) && pl_now_ms() < until)
            pl_pump(rec.who, 2, 10);
        if (pl_decider(rec.who, 2) == d && rec.can_undo[b->slot] &&
            rec.can_undo_id[b->slot] == d->dec.id)
            return true;
    }
    return false;
}

/* The undone player's View is back where it was: its board and its decision. */
static void check_back(const before_answer *b)
{
    long long until = pl_now_ms() + WAIT_MS;
    b->p->answered = 0; /* the decision it answered is pending again */
    while ((board_sig(b->p) != b->board || b->p->dec.id != b->decision) && pl_now_ms() < until)
        pl_pump(rec.who, 2, 10);
    CU_ASSERT_EQUAL(board_sig(b->p), b->board);
    CU_ASSERT_EQUAL(b->p->dec.id, b->decision);
    CU_ASSERT_TRUE(b->p->dec.valid);
}

static bool seat_pair(pl_player *a, pl_player *b)
{
    rec.who[0] = a;
    rec.who[1] = b;
    if (pl_wait_reply(a, pl_send_queue(a, "dominion", 2)) != 0 ||
        pl_wait_reply(b, pl_send_queue(b, "dominion", 2)) != 0)
        return false;
    long long until = pl_now_ms() + WAIT_MS;
    while ((a->seat < 0 || b->seat < 0 || !pl_decider(rec.who, 2)) && pl_now_ms() < until)
        pl_pump(rec.who, 2, 50);
    return a->seat >= 0 && b->seat >= 0 && !strcmp(a->match_id, b->match_id);
}

/* A fresh record, a and b seated together, and play until an answer can be undone. */
static bool start_undoable(pl_player *a, pl_player *b, before_answer *ba)
{
    memset(&rec, 0, sizeof rec);
    pl_on_message = on_message;
    return seat_pair(a, b) && play_until_undoable(ba);
}

static void test_undo_unrated_at_once_for_every_seat(void)
{
    pl_player *a = pl_login("und-a"), *b = pl_login("und-b");
    CU_ASSERT_FATAL(a && b);
    before_answer ba;
    CU_ASSERT_FATAL(start_undoable(a, b, &ba));
    pl_player *other = rec.who[1 - ba.slot];
    long long hist = rc_history_len(a->match_id);
    CU_ASSERT_EQUAL(send_undo(other), DECKHAND__ERROR_CODE__BAD_REQUEST); /* not its answer */
    CU_ASSERT_EQUAL(send_undo(ba.p), 0);
    check_back(&ba);
    pump(300);
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_STRING_EQUAL(rec.status[i], "accepted");
        CU_ASSERT_EQUAL(rec.status_seat[i], ba.p->seat);
    }
    CU_ASSERT_EQUAL(rc_history_len(a->match_id), hist - 1);
    CU_ASSERT_FALSE(rec.can_undo[ba.slot]); /* one step back only */
    CU_ASSERT_EQUAL(send_undo(ba.p), DECKHAND__ERROR_CODE__BAD_REQUEST);
    /* the match goes on from there */
    CU_ASSERT_EQUAL(pl_bot_answer(ba.p), 0);
    pl_on_message = NULL;
    pl_end_match(a, b);
}

static int worker_of(const char *match_id)
{
    char pattern[32], needle[128];
    snprintf(needle, sizeof needle, "match %s: dominion for", match_id);
    for (int i = 1; i <= 2; i++) {
        snprintf(pattern, sizeof pattern, "worker-%d.log", i);
        if (rc_log_count(pattern, needle, NULL) > 0)
            return i;
    }
    return 0;
}

static void kill_worker(int n)
{
    char pidfile[512];
    snprintf(pidfile, sizeof pidfile, "%s/pids/worker-%d.pid", rc_dir(), n);
    FILE *f = fopen(pidfile, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    long pid = 0;
    CU_ASSERT_EQUAL_FATAL(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    fprintf(stderr, "  kill -9 worker-%d (pid %ld)\n", n, pid);
    CU_ASSERT_EQUAL_FATAL(kill((pid_t)pid, SIGKILL), 0);
    unlink(pidfile); /* killed on purpose: the end-of-run liveness check skips it */
}

static void test_undo_survives_the_worker_dying(void)
{
    pl_player *a = pl_login("udk-a"), *b = pl_login("udk-b");
    CU_ASSERT_FATAL(a && b);
    before_answer ba;
    CU_ASSERT_FATAL(start_undoable(a, b, &ba));
    long long hist = rc_history_len(a->match_id);
    CU_ASSERT_EQUAL_FATAL(send_undo(ba.p), 0);
    check_back(&ba);
    int victim = worker_of(a->match_id);
    CU_ASSERT_FATAL(victim > 0);
    kill_worker(victim);
    /* the adopter's match: resynced until it answers, it is the undone one */
    char needle[128];
    snprintf(needle, sizeof needle, "match %s: adopted", a->match_id);
    long long until = pl_now_ms() + 30000;
    while (rc_log_count("worker-*.log", needle, NULL) == 0 && pl_now_ms() < until)
        pump(200);
    CU_ASSERT_FATAL(rc_log_count("worker-*.log", needle, NULL) > 0);
    ba.p->dec.valid = false;
    while (!ba.p->dec.valid && pl_now_ms() < until) {
        pl_resync(ba.p);
        pump(200);
    }
    CU_ASSERT_EQUAL(rc_history_len(a->match_id), hist - 1);
    CU_ASSERT_EQUAL(board_sig(ba.p), ba.board);
    CU_ASSERT_EQUAL(ba.p->dec.id, ba.decision);
    CU_ASSERT_EQUAL(pl_bot_answer(ba.p), 0); /* and it plays on from there */
    pl_on_message = NULL;
    pl_end_match(a, b);
}

static pl_player *account(const char *name)
{
    pl_player *p = pl_connect(name);
    char err[160];
    if (p && dh_client_account_login(p->c, name, "undo-test-password", true, NULL, 0, NULL, 0, err,
                                     sizeof err) != 0) {
        fprintf(stderr, "account %s: %s\n", name, err);
        pl_drop(p);
        return NULL;
    }
    return p;
}

static void test_undo_rated_asks_the_opponent(void)
{
    pl_player *a = account("undo_rated_a"), *b = account("undo_rated_b");
    CU_ASSERT_FATAL(a && b);
    before_answer ba;
    CU_ASSERT_FATAL(start_undoable(a, b, &ba));
    pl_player *other = rec.who[1 - ba.slot];
    int o = 1 - ba.slot;
    uint64_t board_after = board_sig(ba.p);
    /* asked, then declined: the answer stands */
    CU_ASSERT_EQUAL_FATAL(send_undo(ba.p), 0);
    pump(300);
    CU_ASSERT_STRING_EQUAL(rec.status[o], "asked");
    CU_ASSERT_EQUAL(rec.waiting[o], 1);
    CU_ASSERT_STRING_EQUAL(rec.status[ba.slot], "asked");
    CU_ASSERT_EQUAL(send_undo_answer(ba.p, true), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(send_undo_answer(other, false), 0);
    pump(300);
    CU_ASSERT_STRING_EQUAL(rec.status[ba.slot], "declined");
    CU_ASSERT_EQUAL(board_sig(ba.p), board_after);
    /* asked again, accepted: taken back */
    CU_ASSERT_EQUAL_FATAL(send_undo(ba.p), 0);
    CU_ASSERT_EQUAL(send_undo(ba.p), DECKHAND__ERROR_CODE__BAD_REQUEST); /* one at a time */
    pump(300);
    CU_ASSERT_EQUAL(send_undo_answer(other, true), 0);
    check_back(&ba);
    pump(300);
    CU_ASSERT_STRING_EQUAL(rec.status[ba.slot], "accepted");
    CU_ASSERT_STRING_EQUAL(rec.status[o], "accepted");
    /* asked, then the asker answers on: the ask expires */
    CU_ASSERT_FATAL(play_until_undoable(&ba));
    CU_ASSERT_EQUAL_FATAL(send_undo(ba.p), 0);
    pump(300);
    CU_ASSERT_EQUAL(pl_bot_answer(ba.p), 0);
    pump(300);
    CU_ASSERT_STRING_EQUAL(rec.status[1 - ba.slot], "expired");
    CU_ASSERT_EQUAL(send_undo_answer(rec.who[1 - ba.slot], true),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    pl_on_message = NULL;
    pl_end_match(a, b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"undo_unrated_at_once_for_every_seat", test_undo_unrated_at_once_for_every_seat},
        {"undo_rated_asks_the_opponent", test_undo_rated_asks_the_opponent},
        {"undo_survives_the_worker_dying", test_undo_survives_the_worker_dying},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("undo", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_undo", cases));
}
