/*
 * test_worker_quarantine.c: a poison match (issue 12, case 6) on the fixture bundle
 * tests/fixtures/poison, whose default bot always plays a card whose script fails (an
 * error, or a run past the time budget). Once the bot plays for an absent seat, the worker
 * tries again at most a few times, spaced out, and then quarantines the match: it ends
 * with a recorded "script_error" result, the players get a GameOver saying so, the
 * operators a metric; it is never retried in a loop, not even across an adoption. A
 * player's own failing choice is answered SCRIPT_ERROR and does not count, unless its call
 * ran so long that its worker was declared dead: that match ends on the next worker.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"

/* A poison match on game with an absent decider, whose grace period (30 ms) is over; the
 * decider's seat. */
static int start_abandoned(rig_worker *r, const char *id, const char *game)
{
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 30;
    set.abandon = (char *)"bot";
    host_match *hm = rig_worker_started(r, id, game, &set);
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_mm_drain(r);
    rig_worker_away_via(r, "gw-t", id, rig_worker_players[seat]);
    host_flush(&r->h, r->now);
    rig_worker_advance(r, 50);
    return seat;
}

/* Run h's timers every 100 ms of the fake clock for ms; default answers made. */
static size_t run_timers(rig_worker *r, host *h, uint64_t ms)
{
    size_t made = 0;
    for (uint64_t t = 0; t < ms; t += 100) {
        made += host_tick(h, r->now);
        host_flush(h, r->now);
        rig_worker_advance(r, 100);
    }
    return made;
}

/* The match ended quarantined: a GameOver with the reason to the seat still there, a
 * MatchEnded to the matchmaker, the result and reason in Redis. */
static void check_quarantined(rig_worker *r, const char *id, int present)
{
    char key[DH_KEY_MAX];
    dh_key_match(key, id);
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    const Deckhand__ServerMessage *go =
        rig_outbox_find(&o, rig_worker_players[present], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_TRUE_FATAL(go != NULL);
    CU_ASSERT_STRING_EQUAL(go->game_over->reason, "script_error");
    CU_ASSERT_EQUAL(go->game_over->n_results, 2);
    for (size_t i = 0; i < go->game_over->n_results; i++)
        CU_ASSERT_EQUAL(go->game_over->results[i]->rank, 0); /* nobody won */
    rig_outbox_free(&o);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = rig_worker_hget(key, DH_F_STATUS);
    char *reason = rig_worker_hget(key, DH_F_END_REASON);
    char *result = rig_worker_hget(key, DH_F_RESULT);
    char *running = rig_worker_hget(DH_KEY_MATCHES_RUNNING, id);
    CU_ASSERT_STRING_EQUAL(status ? status : "", DH_STATUS_FINISHED);
    CU_ASSERT_STRING_EQUAL(reason ? reason : "", DH_END_SCRIPT_ERROR);
    CU_ASSERT_TRUE(result && strstr(result, "\"rank\":0"));
    CU_ASSERT_PTR_NULL(running);
    free(status);
    free(reason);
    free(result);
    free(running);
}

static void test_worker_quarantines_a_match_whose_bot_keeps_failing(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/poison", NULL);
    int seat = start_abandoned(&r, "m-poison", "poison");
    CU_ASSERT_EQUAL(run_timers(&r, &r.h, 10000), 0);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-poison"));
    check_quarantined(&r, "m-poison", 1 - seat);
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-poison}:history"), 0);
    /* tried exactly quarantine_after times, a second apart, in 10 s: never in a loop */
    CU_ASSERT_EQUAL(r.h.stats.script_failures, HOST_QUARANTINE_AFTER);
    CU_ASSERT_EQUAL(r.h.stats.quarantined, 1);
    rig_worker_close_drained(&r);
}

/* The same when the card runs past its time budget (each try costs the budget: 20 ms). */
static void test_worker_quarantines_a_match_whose_bot_overruns_its_budget(void)
{
    rig_worker r;
    engine_limits lim = {.budget_ms = 20};
    rig_worker_open(&r, "tests/fixtures/poison", &lim);
    int seat = start_abandoned(&r, "m-slow", "poison_slow");
    CU_ASSERT_EQUAL(run_timers(&r, &r.h, 10000), 0);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-slow"));
    check_quarantined(&r, "m-slow", 1 - seat);
    CU_ASSERT_EQUAL(r.h.stats.script_failures, HOST_QUARANTINE_AFTER);
    CU_ASSERT_EQUAL(r.h.stats.quarantined, 1);
    rig_worker_close_drained(&r);
}

/* Failures counted by one worker still count on the worker that adopts the match: a
 * match that kills its workers in turn is not tried afresh by each of them. */
static void test_worker_quarantine_counts_failures_across_adoption(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/poison", NULL);
    start_abandoned(&r, "m-moved", "poison");
    CU_ASSERT_EQUAL(run_timers(&r, &r.h, 1200), 0); /* tried and failed twice: not yet */
    CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-moved"));
    rig_worker_redis_do("HSET match:{m-moved} worker %s epoch %s", "wk-u", "2");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-moved", r.now), 1);
    rig_worker_mm_drain(&r);
    CU_ASSERT_EQUAL(run_timers(&r, &h2, 1200), 0); /* one more failure is the third */
    CU_ASSERT_PTR_NULL(host_find(&h2, "m-moved"));
    CU_ASSERT_EQUAL(h2.stats.script_failures, 1);
    CU_ASSERT_EQUAL(h2.stats.quarantined, 1);
    char *reason = rig_worker_hget("match:{m-moved}", DH_F_END_REASON);
    CU_ASSERT_STRING_EQUAL(reason ? reason : "", DH_END_SCRIPT_ERROR);
    free(reason);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close_drained(&r);
}

/* How much later than the first worker's the adopters' wall clock reads: past the grace
 * period (30 ms) of start_abandoned, which an away seat's moment in Redis (wall-clock
 * time, which workers share) is counted against. The host is given it instead of the test
 * sleeping it. */
#define WALL_LATER_MS 60

/* Another worker, wk-uN, takes the match over (the matchmaker's takeover at epoch N + 1)
 * and adopts it, its wall clock WALL_LATER_MS ahead; *st must be closed and *h freed by the
 * caller. */
static void adopt_on(rig_worker *r, host *h, store *st, int n, const char *id)
{
    char wk[16], epoch[16];
    snprintf(wk, sizeof wk, "wk-u%d", n);
    snprintf(epoch, sizeof epoch, "%d", n + 1);
    char key[DH_KEY_MAX];
    dh_key_match(key, id);
    char cmd[DH_KEY_MAX + 32];
    snprintf(cmd, sizeof cmd, "HSET %s worker %%s epoch %%s", key);
    rig_worker_redis_do(cmd, wk, epoch);
    CU_ASSERT_EQUAL_FATAL(store_init(st, rig_worker_redis_url(), 500), 0);
    host_init(h, strdup(wk), "inproc://worker", r->router, r->dealer, r->bundle, st, 10);
    h->wall_ahead_ms = WALL_LATER_MS;
    CU_ASSERT_EQUAL(host_adopt(h, id, r->now), 1);
}

static long long failures_in_redis(const char *key)
{
    char *v = rig_worker_hget(key, DH_F_SCRIPT_FAILURES);
    long long n = v ? atoll(v) : -1;
    free(v);
    return n;
}

/* The gateway re-attaches player to id on h (after a move). */
static void reattach(host *h, const char *id, const char *player, uint64_t now)
{
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = pc.match_id = (char *)id;
    pc.player_id = (char *)player;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc.resync = &rs;
    host_command(h, "gw-t", &pc, now);
}

/* A try that never returns (a script call stuck in C) kills its worker before it can
 * fail: each worker that adopts the match with a bot to play counts the try in Redis
 * before it can run, so after quarantine_after such deaths the next worker quarantines
 * the match without trying it again. */
static void test_worker_quarantine_counts_tries_its_workers_died_in(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/poison", NULL);
    int seat = start_abandoned(&r, "m-deadly", "poison");
    for (int n = 1; n <= HOST_QUARANTINE_AFTER; n++) {
        host h;
        store st;
        adopt_on(&r, &h, &st, n, "m-deadly");
        CU_ASSERT_EQUAL(failures_in_redis("match:{m-deadly}"), n); /* before any try ran */
        free((char *)h.worker_id);
        host_free(&h); /* it dies in the try */
        store_close(&st);
    }
    host h;
    store st;
    adopt_on(&r, &h, &st, HOST_QUARANTINE_AFTER + 1, "m-deadly");
    rig_worker_mm_drain(&r);
    reattach(&h, "m-deadly", rig_worker_players[1 - seat], r.now); /* the player still there */
    CU_ASSERT_EQUAL(run_timers(&r, &h, 2000), 0);
    CU_ASSERT_PTR_NULL(host_find(&h, "m-deadly"));
    CU_ASSERT_EQUAL(h.stats.script_failures, 0); /* not tried again */
    CU_ASSERT_EQUAL(h.stats.quarantined, 1);
    check_quarantined(&r, "m-deadly", 1 - seat);
    free((char *)h.worker_id);
    host_free(&h);
    store_close(&st);
    rig_worker_close_drained(&r);
}

/* An ordinary match adopted with a bot to play: its try is counted ahead, and the answer
 * accepted clears the count again. */
static void test_worker_adopted_bot_answer_clears_its_count(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-fine", 30, "bot");
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_away_via(&r, "gw-t", "m-fine", rig_worker_players[seat]);
    host_flush(&r.h, r.now);
    host h;
    store st;
    adopt_on(&r, &h, &st, 1, "m-fine");
    CU_ASSERT_EQUAL(failures_in_redis("match:{m-fine}"), 1);
    CU_ASSERT_TRUE(run_timers(&r, &h, 1500) >= 1);
    CU_ASSERT_EQUAL(failures_in_redis("match:{m-fine}"), 0);
    CU_ASSERT_EQUAL(h.stats.script_failures, 0);
    free((char *)h.worker_id);
    host_free(&h);
    store_close(&st);
    rig_worker_close_drained(&r);
}

/* The stall watcher's threshold in the tests below (host.stall_ms): a call of the
 * poison_slow card, with a time budget of STALL_BUDGET_MS, runs well past it. */
#define STALL_MS        100
#define STALL_BUDGET_MS 400

/* A worker on the poison fixture whose card calls run STALL_BUDGET_MS, with its stall
 * watcher started at STALL_MS; a match of poison_slow (id) started on it, and the seat
 * that decides. */
static int open_stalling(rig_worker *r, const char *id)
{
    engine_limits lim = {.budget_ms = STALL_BUDGET_MS};
    rig_worker_open(r, "tests/fixtures/poison", &lim);
    r->h.stall_ms = STALL_MS;
    CU_ASSERT_EQUAL_FATAL(host_stall_start(&r->h, rig_worker_redis_url(), 500), 0);
    host_match *hm = rig_worker_started(r, id, "poison_slow", NULL);
    rig_worker_mm_drain(r);
    return engine_match_decision(hm->m)->seat;
}

/* The player at seat chooses id's card whose script runs until its time budget: one
 * call of STALL_BUDGET_MS, through the gateway. */
static void choose_poison(rig_worker *r, const char *id, int seat)
{
    host_match *hm = host_find(&r->h, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    const engine_decision *d = engine_match_decision(hm->m);
    uint32_t poison = d->options[1].id;
    Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
    c.match_id = (char *)id;
    c.decision_id = d->decision_id;
    c.option_ids = &poison;
    c.n_option_ids = 1;
    rig_worker_command(r, id, rig_worker_players[seat], 1, &c);
}

/* Issue 24, item 1: a player's own answer whose script call never returns in time (stuck
 * inside C, past the worker's lease) gets the worker declared dead, and its matches move.
 * The first death counts: the watcher marked the match in Redis while the call ran, so
 * the worker that adopts it ends it as a script error, without trying it again, and the
 * player still there gets GameOver "script_error". The other match of the dead worker,
 * which was not in a call, moves and goes on. */
static void test_worker_match_its_worker_died_in_ends_after_one_death(void)
{
    rig_worker r;
    int seat = open_stalling(&r, "m-stuck");
    rig_worker_started(&r, "m-calm", "poison", NULL);
    rig_worker_mm_drain(&r);
    choose_poison(&r, "m-stuck", seat); /* the worker is stuck in it for 400 ms... */
    /* ...and declared dead meanwhile: the takeover moves its matches (epoch 2), so its
     * late writes are refused */
    rig_worker_redis_do("HSET match:{m-calm} worker %s epoch %s", "wk-u1", "2");
    host h;
    store st;
    adopt_on(&r, &h, &st, 1, "m-stuck");
    host_flush(&r.h, r.now);
    CU_ASSERT_EQUAL(host_adopt(&h, "m-calm", r.now), 1);
    rig_worker_mm_drain(&r);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    reattach(&h, "m-stuck", rig_worker_players[1 - seat], r.now);
    CU_ASSERT_EQUAL(run_timers(&r, &h, 2000), 0);
    CU_ASSERT_PTR_NULL(host_find(&h, "m-stuck"));
    CU_ASSERT_EQUAL(h.stats.script_failures, 0); /* not tried again */
    CU_ASSERT_EQUAL(h.stats.quarantined, 1);
    check_quarantined(&r, "m-stuck", 1 - seat);
    CU_ASSERT_PTR_NOT_NULL(host_find(&h, "m-calm"));
    free((char *)h.worker_id);
    host_free(&h);
    store_close(&st);
    rig_worker_close_drained(&r);
}

/* A long call that returns before the worker is declared dead costs no death: the worker
 * takes its mark back, and a later move of the match (a drain) does not end it. */
static void test_worker_stall_the_worker_survived_ends_nothing(void)
{
    rig_worker r;
    int seat = open_stalling(&r, "m-slowly");
    choose_poison(&r, "m-slowly", seat);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    host h;
    store st;
    adopt_on(&r, &h, &st, 1, "m-slowly");
    rig_worker_mm_drain(&r);
    CU_ASSERT_EQUAL(run_timers(&r, &h, 2000), 0);
    CU_ASSERT_PTR_NOT_NULL(host_find(&h, "m-slowly"));
    CU_ASSERT_EQUAL(h.stats.quarantined, 0);
    free((char *)h.worker_id);
    host_free(&h);
    store_close(&st);
    rig_worker_close_drained(&r);
}

/* A person choosing the failing card is told SCRIPT_ERROR and may choose again; that
 * never ends the match (else a losing player could end a match by provoking errors). */
static void test_worker_players_own_script_errors_do_not_quarantine(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/poison", NULL);
    host_match *hm = rig_worker_started(&r, "m-human", "poison", NULL);
    const engine_decision *d = engine_match_decision(hm->m);
    int seat = d->seat;
    uint32_t poison = d->options[1].id;
    Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
    c.match_id = (char *)"m-human";
    c.decision_id = d->decision_id;
    c.option_ids = &poison;
    c.n_option_ids = 1;
    for (uint64_t cmd = 1; cmd <= 6; cmd++) {
        rig_worker_command(&r, "m-human", rig_worker_players[seat], cmd, &c);
        host_flush(&r.h, r.now);
        rig_outbox o;
        rig_worker_gw_drain(&r, &o);
        CU_ASSERT_TRUE_FATAL(o.n >= 1 &&
                             o.msg[0]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY);
        CU_ASSERT_TRUE(o.msg[0]->reply->error &&
                       o.msg[0]->reply->error->code == DECKHAND__ERROR_CODE__SCRIPT_ERROR);
        rig_outbox_free(&o);
        rig_worker_advance(&r, 1000);
        host_tick(&r.h, r.now);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-human"));
    uint64_t cmd = 7;
    rig_worker_play(&r, hm, 1, &cmd); /* the Coin is accepted */
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-human}:history"), 1);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_quarantines_a_match_whose_bot_keeps_failing",
         test_worker_quarantines_a_match_whose_bot_keeps_failing},
        {"worker_quarantines_a_match_whose_bot_overruns_its_budget",
         test_worker_quarantines_a_match_whose_bot_overruns_its_budget},
        {"worker_quarantine_counts_failures_across_adoption",
         test_worker_quarantine_counts_failures_across_adoption},
        {"worker_quarantine_counts_tries_its_workers_died_in",
         test_worker_quarantine_counts_tries_its_workers_died_in},
        {"worker_adopted_bot_answer_clears_its_count",
         test_worker_adopted_bot_answer_clears_its_count},
        {"worker_match_its_worker_died_in_ends_after_one_death",
         test_worker_match_its_worker_died_in_ends_after_one_death},
        {"worker_stall_the_worker_survived_ends_nothing",
         test_worker_stall_the_worker_survived_ends_nothing},
        {"worker_players_own_script_errors_do_not_quarantine",
         test_worker_players_own_script_errors_do_not_quarantine},
        {NULL, NULL},
    };
    return rig_worker_main("worker_quarantine", cases);
}
