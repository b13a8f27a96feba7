/*
 * test_worker_loop.c: the worker's loop (worker/worker_loop.c) under more commands than it
 * can work, in the rig of rig_worker.h but on the real clock (the loop's time budget is
 * real time). A burst of Resyncs (each a full View) keeps the host busy for seconds and
 * the beat (the loop's beat thread, beat.c) still leaves every WORKER_BEAT_MS, far inside
 * the matchmaker's REGISTRY_DEAD_MS; commands beyond the bounded inbox are answered
 * OVERLOADED at once, but never the gateway's attaches; every command gets exactly one
 * Reply, and a refused command's retry is worked.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

#include "dh_clock.h"
#include "dh_zmq.h"
#include "worker.h"

#define DEAD_MS 1500 /* matchmaker/registry.h: REGISTRY_DEAD_MS */

/* What gw-t has got so far. */
typedef struct {
    size_t replies, overloaded;
    uint64_t first_overloaded; /* a refused cmd_id, 0: none yet */
    uint64_t last_ok;          /* the newest cmd_id answered ok */
} gw_tally;

/* Send a Resync of player in match through gw-t. */
static void resync(rig_worker *r, const char *match, const char *player, uint64_t cmd_id)
{
    uint8_t buf[RIG_WORKER_RESYNC_MAX];
    size_t len = rig_worker_pack_resync(buf, match, player, cmd_id);
    CU_ASSERT_EQUAL_FATAL(zmq_send(r->gw, buf, len, ZMQ_DONTWAIT), (int)len);
}

static void gw_count_one(gw_tally *t, const Deckhand__Internal__PlayerOutput *po)
{
    Deckhand__ServerMessage *sm =
        deckhand__server_message__unpack(NULL, po->message.len, po->message.data);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    if (sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY) {
        t->replies++;
        if (sm->reply->ok) {
            t->last_ok = sm->reply->cmd_id;
        } else {
            CU_ASSERT_EQUAL(sm->reply->error->code, DECKHAND__ERROR_CODE__OVERLOADED);
            t->overloaded++;
            if (!t->first_overloaded)
                t->first_overloaded = sm->reply->cmd_id;
        }
    }
    deckhand__server_message__free_unpacked(sm, NULL);
}

/* Count the Replies gw-t has waiting, without blocking. */
static void gw_count(rig_worker *r, gw_tally *t)
{
    Deckhand__Internal__Internal *m = NULL;
    while (dh_zmq_readable(r->gw) && dh_zmq_recv(r->gw, NULL, &m) == 1) {
        size_t n = 0;
        Deckhand__Internal__PlayerOutput **po = rig_worker_outputs(m, &n);
        for (size_t i = 0; i < n; i++)
            gw_count_one(t, po[i]);
        deckhand__internal__internal__free_unpacked(m, NULL);
        m = NULL;
    }
}

/* The beats the matchmaker got since *last (the time of the previous one): the longest
 * gap is kept in *gap. */
static void mm_beats(rig_worker *r, uint64_t *last, uint64_t *gap, size_t *beats)
{
    Deckhand__Internal__Internal *m;
    while ((m = rig_worker_mm_wait(r, 0))) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT) {
            uint64_t now = dh_now_ms();
            if (now - *last > *gap)
                *gap = now - *last;
            *last = now;
            (*beats)++;
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
}

static void test_worker_loop_beats_on_time_through_a_long_burst(void)
{
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-burst");
    worker_loop l;
    uint64_t start = dh_now_ms(), last = start, gap = 0, cmd = 1;
    size_t beats = 0;
    gw_tally t = {0};
    worker_loop_init(&l, start, 0);
    l.beat = beat_start(r.ctx, "wk-t", "inproc://mm", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l.beat);
    /* keep the inbox fuller than the host can work, for 2.5 s: batches of at most 1 ms
     * cannot work the 1000 commands that come each turn, however fast a Resync is worked
     * (batches of 10 ms could: an optimised build works a Resync in under 10 us) */
    l.batch_ms = 1;
    while (dh_now_ms() - start < 2500) {
        for (int i = 0; i < 1000; i++, cmd++)
            resync(&r, "m-burst", rig_worker_players[cmd % 2], cmd);
        worker_loop_turn(&l, &r.h);
        gw_count(&r, &t);
        mm_beats(&r, &last, &gap, &beats);
    }
    for (int i = 0; i < 1000 && t.replies < cmd - 1; i++) {
        worker_loop_turn(&l, &r.h);
        gw_count(&r, &t);
        mm_beats(&r, &last, &gap, &beats);
    }
    uint64_t took = dh_now_ms() - start;
    fprintf(stderr,
            "\n  burst: %llu commands in %llu ms, %zu worked, %zu overloaded, %zu beats, "
            "longest beat gap %llu ms\n",
            (unsigned long long)(cmd - 1), (unsigned long long)took, t.replies - t.overloaded,
            t.overloaded, beats, (unsigned long long)gap);
    CU_ASSERT_EQUAL(t.replies, cmd - 1); /* one Reply per command, worked or refused */
    CU_ASSERT_TRUE(t.overloaded > 0);    /* the burst did outrun the host */
    CU_ASSERT_TRUE(beats >= took / WORKER_BEAT_MS - 1);
    CU_ASSERT_TRUE(gap <= WORKER_BEAT_MS + 6 * WORKER_BATCH_MS);
    CU_ASSERT_TRUE(gap < DEAD_MS / 2);
    CU_ASSERT_TRUE(worker_loop_beaten(&l));
    beat_free(l.beat);
    worker_loop_free(&l);
    rig_worker_close(&r);
}

/* A burst of 3,000 commands (three of the loop's 1,000-message reads) against an inbox
 * bounded at max (0: the default, 1,000). */
static void refuses_past_the_inbox(size_t max)
{
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-over");
    worker_loop l;
    gw_tally t = {0};
    worker_loop_init(&l, dh_now_ms(), max);
    size_t bound = max ? max : INBOX_MAX;
    l.batch_ms = 0; /* one command per turn: the inbox cannot keep up */
    size_t n = 3 * INBOX_MAX;
    for (uint64_t cmd = 1; cmd <= n; cmd++)
        resync(&r, "m-over", rig_worker_players[0], cmd);
    for (int i = 0; i < 5000 && t.replies < n; i++) {
        worker_loop_turn(&l, &r.h);
        gw_count(&r, &t);
    }
    CU_ASSERT_EQUAL(t.replies, n);
    /* turn 1 reads 1,000, queues a full inbox and works one; turns 2 and 3 read 1,000 each
     * and find room for one each */
    CU_ASSERT_EQUAL(t.overloaded, n - bound - 2);
    CU_ASSERT_EQUAL_FATAL(inbox_len(&l.in), 0);
    /* the refusal was not remembered: the same cmd_id again is worked */
    CU_ASSERT_TRUE_FATAL(t.first_overloaded > 0);
    gw_tally again = {0};
    resync(&r, "m-over", rig_worker_players[0], t.first_overloaded);
    for (int i = 0; i < 100 && !again.replies; i++) {
        worker_loop_turn(&l, &r.h);
        gw_count(&r, &again);
    }
    CU_ASSERT_EQUAL(again.replies, 1);
    CU_ASSERT_EQUAL(again.overloaded, 0);
    CU_ASSERT_EQUAL(again.last_ok, t.first_overloaded);
    worker_loop_free(&l);
    rig_worker_close(&r);
}

static void test_worker_loop_refuses_past_the_inbox_and_works_the_retry(void)
{
    refuses_past_the_inbox(0);
}

/* --inbox-max: a smaller bound is the one kept. */
static void test_worker_loop_refuses_past_a_configured_inbox_bound(void)
{
    refuses_past_the_inbox(40);
}

/* The gateway's own Resync (cmd_id 0) of a placed or moved match's player, nobody retries:
 * a full inbox takes it anyway, however many come (a start burst attaches every player of
 * hundreds of matches at once; refused, the player never got the match), while a player's
 * own command past the bound is still refused. */
static void test_worker_loop_never_refuses_an_attach(void)
{
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-attach");
    worker_loop l;
    gw_tally t = {0};
    worker_loop_init(&l, dh_now_ms(), 2);
    l.batch_ms = 0;
    for (int i = 0; i < 50; i++)
        resync(&r, "m-attach", rig_worker_players[i % 2], 0);
    resync(&r, "m-attach", rig_worker_players[0], 77); /* a player's own, past the bound */
    worker_loop_turn(&l, &r.h);
    gw_count(&r, &t);
    CU_ASSERT_EQUAL(t.overloaded, 1);
    CU_ASSERT_EQUAL(t.first_overloaded, 77);
    CU_ASSERT_EQUAL(inbox_len(&l.in), 49); /* every attach kept: one worked, 49 queued */
    for (int i = 0; i < 100 && inbox_len(&l.in); i++)
        worker_loop_turn(&l, &r.h);
    CU_ASSERT_EQUAL(inbox_len(&l.in), 0);
    worker_loop_free(&l);
    rig_worker_close_drained(&r);
}

/* The matchmaker's WorkerProbe (does our control route stand?) asks nothing: no answer,
 * no adoption round, and no line in the log (it comes on every connection the matchmaker
 * sees close, to every worker). */
static void test_worker_control_ignores_a_probe_silently(void)
{
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-probe");
    Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
    m.worker_probe = &wp;
    CU_ASSERT_EQUAL_FATAL(dh_zmq_send(r.mm, "wk-t", &m), 0);
    FILE *log = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(log), 2);
    bool adopt = worker_control_matchmaker(&r.h, NULL, dh_now_ms());
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char said[256] = "";
    rewind(log);
    size_t n = fread(said, 1, sizeof said - 1, log);
    said[n] = '\0';
    fclose(log);
    CU_ASSERT_FALSE(adopt);
    CU_ASSERT_STRING_EQUAL(said, "");
    Deckhand__Internal__Internal *got = rig_worker_mm_wait(&r, RIG_WORKER_QUIET_MS);
    CU_ASSERT_PTR_NULL(got);
    if (got)
        deckhand__internal__internal__free_unpacked(got, NULL);
    rig_worker_close(&r);
}

/* A join storm's StartMatches (the matchmaker has up to REGISTRY_PENDING_MAX unanswered
 * per worker): one call takes what fits in WORKER_CONTROL_MS, not the whole burst, so the
 * beat that follows it is not held back by seconds of set-ups (a live worker was declared
 * dead under tests/e2e/test_queue_join_storm.sh on a loaded machine). */
static void test_worker_loop_bounds_a_burst_of_start_matches_in_time(void)
{
    /* Enough that they cannot all fit the budget on a fast machine without sanitizers
     * either (300 did, in an -O1 build), and below ZeroMQ's 1,000-message send bound. */
    enum { N = 900 };
    rig_worker r;
    rig_worker_open_real_clock(&r, "m-first");
    r.h.capacity = 2 * N;
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    s0.player_id = (char *)rig_worker_players[0];
    s0.name = "ann";
    s1.player_id = (char *)rig_worker_players[1];
    s1.name = "bob";
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-storm-%d", i);
        Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
        sm.match_id = id;
        sm.game = "dominion";
        sm.seed = (uint64_t)i + 1;
        sm.n_seats = 2;
        sm.seats = seats;
        Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
        m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH;
        m.start_match = &sm;
        CU_ASSERT_EQUAL_FATAL(dh_zmq_send(r.mm, "wk-t", &m), 0);
    }
    size_t before = r.h.nmatches;
    uint64_t t0 = dh_now_ms();
    worker_control_matchmaker(&r.h, NULL, dh_now_ms());
    uint64_t took = dh_now_ms() - t0;
    size_t first = r.h.nmatches - before;
    CU_ASSERT(first > 0 && first < N);
    CU_ASSERT(took < 250); /* the budget, plus the one set-up that crossed it */
    for (int calls = 0; calls < 200 && r.h.nmatches - before < N; calls++)
        worker_control_matchmaker(&r.h, NULL, dh_now_ms());
    CU_ASSERT_EQUAL(r.h.nmatches - before, N); /* the rest, over the following turns */
    rig_worker_close(&r);
}

/* The messages gw-t got within RIG_WORKER_QUIET_MS, in order: for each, whether it held a
 * Reply to cmd_id and whether it held anything else; their number. */
static size_t gw_messages(rig_worker *r, uint64_t cmd_id, bool *reply, bool *other, size_t max)
{
    size_t n = 0;
    zmq_pollitem_t it = {r->gw, 0, ZMQ_POLLIN, 0};
    Deckhand__Internal__Internal *m = NULL;
    while (n < max && zmq_poll(&it, 1, RIG_WORKER_QUIET_MS) == 1 &&
           dh_zmq_recv(r->gw, NULL, &m) == 1) {
        size_t k = 0;
        Deckhand__Internal__PlayerOutput **po = rig_worker_outputs(m, &k);
        reply[n] = other[n] = false;
        for (size_t i = 0; i < k; i++) {
            Deckhand__ServerMessage *sm =
                deckhand__server_message__unpack(NULL, po[i]->message.len, po[i]->message.data);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
            bool is_reply = sm->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY &&
                            sm->reply->cmd_id == cmd_id;
            reply[n] |= is_reply;
            other[n] |= !is_reply && sm->body_case != DECKHAND__SERVER_MESSAGE__BODY_VIEW;
            deckhand__server_message__free_unpacked(sm, NULL);
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
        m = NULL;
        n++;
    }
    return n;
}

/* A turn's answers go to the gateway as soon as Redis has them (host_flush sends the
 * batch), before the turn's chores (the lease, the adoption poll, the rating sweep, the
 * timers): here a seat's bot, played by the turn's timers after a Resync was answered,
 * comes in a later message. */
static void test_worker_loop_sends_answers_before_the_turns_chores(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    uint64_t now = dh_now_ms();
    if (now > r.now)
        rig_worker_advance(&r, now - r.now);
    host_match *hm = rig_worker_started_away(&r, "m-early", 1, "bot");
    rig_worker_mm_drain(&r);
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_away_via(&r, "gw-t", "m-early", rig_worker_players[seat]);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    usleep(5000); /* the away seat's 1 ms of grace is over: the turn's timers play it */
    worker_loop l;
    worker_loop_init(&l, dh_now_ms(), 0);
    resync(&r, "m-early", rig_worker_players[1 - seat], 7);
    zmq_pollitem_t it = {r.router, 0, ZMQ_POLLIN, 0};
    CU_ASSERT_EQUAL_FATAL(zmq_poll(&it, 1, 2000), 1);
    worker_loop_turn(&l, &r.h);
    bool reply[8], other[8];
    size_t n = gw_messages(&r, 7, reply, other, 8);
    CU_ASSERT_FATAL(n >= 2);
    CU_ASSERT_TRUE(reply[0]);  /* the Resync's Reply first, in a message of its own */
    CU_ASSERT_FALSE(other[0]); /* (its full View with it) */
    CU_ASSERT_FALSE(reply[n - 1]);
    CU_ASSERT_TRUE(other[n - 1]); /* the bot's move, after the chores */
    worker_loop_free(&l);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_loop_beats_on_time_through_a_long_burst",
         test_worker_loop_beats_on_time_through_a_long_burst},
        {"worker_loop_refuses_past_the_inbox_and_works_the_retry",
         test_worker_loop_refuses_past_the_inbox_and_works_the_retry},
        {"worker_loop_refuses_past_a_configured_inbox_bound",
         test_worker_loop_refuses_past_a_configured_inbox_bound},
        {"worker_loop_never_refuses_an_attach", test_worker_loop_never_refuses_an_attach},
        {"worker_control_ignores_a_probe_silently", test_worker_control_ignores_a_probe_silently},
        {"worker_loop_sends_answers_before_the_turns_chores",
         test_worker_loop_sends_answers_before_the_turns_chores},
        {"worker_loop_bounds_a_burst_of_start_matches_in_time",
         test_worker_loop_bounds_a_burst_of_start_matches_in_time},
        {NULL, NULL},
    };
    return rig_worker_main("worker_loop", cases);
}
