/*
 * test_worker_timers.c: the host's timers and absent seats (worker/host_timers.c), in the
 * rig of rig_worker.h, on its fake clock: a decision timer answers by default; a seat away
 * past its grace period is played by a bot until it returns, or forfeits when its queue
 * says so; a seat nobody ever attached counts as away; a grace period runs on across an
 * adoption; a connected seat that never answers, in a queue without timers, forfeits at
 * the idle cap instead of keeping its match running for good; every DecisionRequest tells
 * its seat the time left before the worker answers.
 */
#include "rig_worker.h"

#include "out.h"

#include <stdlib.h>
#include <string.h>

static void test_worker_decision_timer_answers_by_default(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.decision_ms = 50;
    set.grace_ms = 60000;
    host_match *hm = rig_worker_started(&r, "m-timer", "dominion", &set);
    uint64_t before = engine_match_decision(hm->m)->decision_id;
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0); /* the clock starts */
    host_flush(&r.h, r.now);
    CU_ASSERT_EQUAL(engine_match_decision(hm->m)->decision_id, before);
    rig_worker_advance(&r, 80);
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 1);
    host_flush(&r.h, r.now);
    CU_ASSERT_TRUE(engine_match_decision(hm->m)->decision_id > before);
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-timer}:history"), 1);
    char *ms = rig_worker_hget("match:{m-timer}", "decision_ms");
    CU_ASSERT_STRING_EQUAL(ms ? ms : "", "50");
    free(ms);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE(o.n > 0); /* the seats see what the default answer did */
    for (size_t i = 0; i < o.n; i++)
        CU_ASSERT_NOT_EQUAL(o.msg[i]->body_case, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

/* What the seat was told in the Resync it asks for now: the full View's decision and the
 * DecisionRequest after it (both must agree). -1 when either is missing. */
static long long told_time_left(rig_worker *r, const char *match, const char *player)
{
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    rig_outbox_free(&o);
    rig_worker_command(r, match, player, 0, NULL);
    rig_worker_gw_drain(r, &o);
    const Deckhand__ServerMessage *v =
        rig_outbox_find(&o, player, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
    const Deckhand__ServerMessage *d =
        rig_outbox_find(&o, player, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    long long left = -1;
    if (v && v->view->decision && d) {
        CU_ASSERT_EQUAL(v->view->decision->time_left_ms, d->decision->time_left_ms);
        left = d->decision->time_left_ms;
    }
    rig_outbox_free(&o);
    return left;
}

/* DecisionRequest.time_left_ms: the decision timer counted from when the decision was put,
 * then the rest of the turn timer when that ends first; without timers, the idle cap. */
static void test_worker_decision_request_tells_the_time_left(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.decision_ms = 5000;
    set.turn_ms = 7000;
    set.grace_ms = 60000;
    host_match *hm = rig_worker_started(&r, "m-left", "dominion", &set);
    const char *p = rig_worker_players[engine_match_decision(hm->m)->seat];
    CU_ASSERT_EQUAL(told_time_left(&r, "m-left", p), 5000); /* not ticked yet: from now */
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0);             /* the timers start */
    rig_worker_advance(&r, 1200);
    CU_ASSERT_EQUAL(told_time_left(&r, "m-left", p), 3800);
    /* the decision is answered at 3000 ms into the turn: the next has 5000 ms, but the turn
       only 4000 more */
    rig_worker_advance(&r, 1800);
    uint64_t cmd = 1;
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    CU_ASSERT_FATAL(rig_worker_answer(&r, hm, cmd++));
    host_flush(&r.h, r.now);
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_FATAL(d != NULL);
    /* as the answer's outputs go: the update's decision and the DecisionRequest */
    rig_worker_gw_drain(&r, &o);
    const char *next = rig_worker_players[d->seat];
    const Deckhand__ServerMessage *dm =
        rig_outbox_find(&o, next, DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    /* the seat's update: a delta, or a full View when zones came or went */
    const Deckhand__ServerMessage *vd =
        rig_outbox_find(&o, next, DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA);
    const Deckhand__ServerMessage *vf =
        rig_outbox_find(&o, next, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
    const Deckhand__DecisionRequest *in_view = vd   ? vd->view_delta->decision
                                               : vf ? vf->view->decision
                                                    : NULL;
    CU_ASSERT_FATAL(dm != NULL && in_view != NULL);
    CU_ASSERT_EQUAL(dm->decision->time_left_ms, 4000);
    CU_ASSERT_EQUAL(in_view->time_left_ms, 4000);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0);
    CU_ASSERT_EQUAL_FATAL(hm->turn_version, engine_match_snapshot_version(hm->m)); /* same turn */
    CU_ASSERT_EQUAL(told_time_left(&r, "m-left", rig_worker_players[d->seat]), 4000);
    /* a ViewDelta's decision tells it too (answers until one carries the next decision) */
    bool in_delta = false;
    for (int i = 0; i < 20 && !in_delta && engine_match_decision(hm->m); i++) {
        CU_ASSERT_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
        rig_worker_gw_drain(&r, &o);
        const engine_decision *nd = engine_match_decision(hm->m);
        const Deckhand__ServerMessage *m =
            nd ? rig_outbox_find(&o, rig_worker_players[nd->seat],
                                 DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA)
               : NULL;
        if (m && m->view_delta->decision) {
            in_delta = true;
            uint32_t left = m->view_delta->decision->time_left_ms;
            CU_ASSERT(left > 0 && left <= 5000);
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT(in_delta);
    /* past every limit (the tick has not answered yet): due, never 0 ("no limit") */
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0); /* the timers start for the new decision */
    rig_worker_advance(&r, 8000);
    CU_ASSERT_EQUAL(out_time_left_ms(&r.h, hm, r.now), 1);
    rig_worker_close_drained(&r);

    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__QueueSettings none = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    none.grace_ms = 60000;
    hm = rig_worker_started(&r, "m-idle", "dominion", &none);
    p = rig_worker_players[engine_match_decision(hm->m)->seat];
    CU_ASSERT_EQUAL(told_time_left(&r, "m-idle", p), (long long)HOST_IDLE_MS);
    r.h.idle_ms = 0; /* no idle cap either: no limit */
    CU_ASSERT_EQUAL(told_time_left(&r, "m-idle", p), 0);
    rig_worker_close_drained(&r);
}

static void test_worker_away_seat_is_played_by_a_bot_after_grace_until_it_returns(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-away", 30, "bot");
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_away_via(&r, "gw-other", "m-away", rig_worker_players[seat]); /* not its gateway */
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    rig_worker_away_via(&r, "gw-t", "m-away", rig_worker_players[seat]);
    CU_ASSERT_NOT_EQUAL(hm->seats[seat].away_ms, 0);
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0); /* still within grace */
    rig_worker_advance(&r, 50);
    size_t made = 0;
    for (int i = 0; i < 200 && engine_match_decision(hm->m)->seat == seat; i++) {
        made += host_tick(&r.h, r.now);
        host_flush(&r.h, r.now);
    }
    CU_ASSERT_TRUE(made >= 1);
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    CU_ASSERT_NOT_EQUAL(engine_match_decision(hm->m)->seat, seat); /* the bot ended its turn */
    /* the player comes back: the seat is theirs again */
    rig_worker_command(&r, "m-away", rig_worker_players[seat], 0, NULL);
    CU_ASSERT_FALSE(hm->seats[seat].robot);
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    rig_worker_close_drained(&r);
}

/* A seat nobody ever attached (its MatchAssigned reached no connection) counts as away
 * once its decision has waited HOST_ATTACH_MS, and after the grace period a bot plays it:
 * the match never waits on it forever. */
static void test_worker_never_attached_seat_counts_as_away_then_a_bot_plays(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-ghost", 30, "bot");
    int seat = engine_match_decision(hm->m)->seat;
    hm->seats[seat].route[0] = '\0'; /* as if no gateway ever attached the player */
    uint64_t t0 = r.now;
    CU_ASSERT_EQUAL(host_tick(&r.h, t0), 0);
    CU_ASSERT_EQUAL(host_tick(&r.h, t0 + HOST_ATTACH_MS - 1), 0);
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, 0);
    CU_ASSERT_EQUAL(host_tick(&r.h, t0 + HOST_ATTACH_MS), 0);
    CU_ASSERT_EQUAL(hm->seats[seat].away_ms, t0 + HOST_ATTACH_MS);
    CU_ASSERT_EQUAL(host_tick(&r.h, t0 + HOST_ATTACH_MS + 30), 1); /* past grace: the bot */
    host_flush(&r.h, r.now);
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    rig_worker_close_drained(&r);
}

static void test_worker_away_seat_forfeits_when_the_queue_says_so(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-forfeit", 10, "forfeit");
    int seat = engine_match_decision(hm->m)->seat;
    Deckhand__Internal__Internal *m;
    rig_worker_mm_drain(&r);
    rig_worker_away_via(&r, "gw-t", "m-forfeit", rig_worker_players[seat]);
    rig_worker_advance(&r, 30);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-forfeit"));
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_PTR_NOT_NULL(rig_outbox_find(&o, rig_worker_players[1 - seat],
                                           DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER));
    rig_outbox_free(&o);
    m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = rig_worker_hget("match:{m-forfeit}", "status");
    char *result = rig_worker_hget("match:{m-forfeit}", "result");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "finished");
    CU_ASSERT_TRUE(result && strstr(result, "\"forfeit\":true"));
    free(status);
    free(result);
    char *owner = rig_worker_hget("matches:running", "m-forfeit");
    CU_ASSERT_PTR_NULL(owner);
    free(owner);
    rig_worker_close(&r);
}

/* Issue 15 ("nothing runs forever"): with the queue's decision and turn timers off (their
 * default) and every seat connected, a player who never answers used to keep the match
 * running for good. At the idle cap (h->idle_ms without an answer to the same decision)
 * the seat forfeits, whatever the queue's abandon setting, with end_reason idle. */
static void test_worker_connected_seat_that_never_answers_forfeits_at_the_idle_cap(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 60000; /* no decision timer, no turn timer */
    host_match *hm = rig_worker_started(&r, "m-idle", "dominion", &set);
    r.h.idle_ms = 5000;
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0); /* the clock starts */
    rig_worker_advance(&r, 4999);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_EQUAL(host_find(&r.h, "m-idle"), hm);
    rig_worker_advance(&r, 1);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-idle"));
    char *status = rig_worker_hget("match:{m-idle}", "status");
    char *result = rig_worker_hget("match:{m-idle}", "result");
    char *reason = rig_worker_hget("match:{m-idle}", "end_reason");
    CU_ASSERT_STRING_EQUAL(status ? status : "", "finished");
    CU_ASSERT_TRUE(result && strstr(result, "\"forfeit\":true"));
    CU_ASSERT_STRING_EQUAL(reason ? reason : "", "idle");
    free(status);
    free(result);
    free(reason);
    rig_worker_close(&r);
}

/* Issue 24, item 3: with every default (the casual queue: no decision or turn timer, its
 * seats connected), a silent seat holds its match a few minutes at most, not the half hour
 * the opponent used to wait: at five minutes on one decision the seat forfeits. */
static void test_worker_silent_seat_forfeits_within_five_minutes_by_default(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 60000; /* the matchmaker's defaults: no decision timer, no turn timer */
    host_match *hm = rig_worker_started(&r, "m-silent", "dominion", &set);
    CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 0); /* the clock starts */
    rig_worker_advance(&r, 5 * 60 * 1000 - 1);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_EQUAL_FATAL(host_find(&r.h, "m-silent"), hm);
    rig_worker_advance(&r, 1);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-silent"));
    char *reason = rig_worker_hget("match:{m-silent}", "end_reason");
    CU_ASSERT_STRING_EQUAL(reason ? reason : "", "idle");
    free(reason);
    rig_worker_close_drained(&r);
}

/* A seat's grace period runs from when its player left, whichever worker hosts the match:
 * an adoption does not start it again (issue 12, case 6: a match moved more often than its
 * grace period never let the bot play its absent seats). The moment is kept in Redis as
 * wall-clock time, which workers share; so the adopter's wall clock is moved past the grace
 * period (host.wall_ahead_ms) instead of the test sleeping it. */
static void test_worker_grace_period_survives_adoption(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-graced", 30, "bot");
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_away_via(&r, "gw-t", "m-graced", rig_worker_players[seat]);
    host_flush(&r.h, r.now);
    rig_worker_redis_do("HSET match:{m-graced} worker %s epoch %s", "wk-u", "2");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    h2.wall_ahead_ms = 60; /* the grace period (30 ms) has passed on the wall clock */
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-graced", r.now), 1);
    host_match *moved = host_find(&h2, "m-graced");
    CU_ASSERT_PTR_NOT_NULL_FATAL(moved);
    CU_ASSERT_EQUAL(host_tick(&h2, r.now), 1); /* past grace already: the bot plays at once */
    host_flush(&h2, r.now);
    CU_ASSERT_TRUE(moved->seats[seat].robot);
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-graced}:history"), 1);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_decision_timer_answers_by_default", test_worker_decision_timer_answers_by_default},
        {"worker_decision_request_tells_the_time_left",
         test_worker_decision_request_tells_the_time_left},
        {"worker_away_seat_is_played_by_a_bot_after_grace_until_it_returns",
         test_worker_away_seat_is_played_by_a_bot_after_grace_until_it_returns},
        {"worker_never_attached_seat_counts_as_away_then_a_bot_plays",
         test_worker_never_attached_seat_counts_as_away_then_a_bot_plays},
        {"worker_away_seat_forfeits_when_the_queue_says_so",
         test_worker_away_seat_forfeits_when_the_queue_says_so},
        {"worker_connected_seat_that_never_answers_forfeits_at_the_idle_cap",
         test_worker_connected_seat_that_never_answers_forfeits_at_the_idle_cap},
        {"worker_silent_seat_forfeits_within_five_minutes_by_default",
         test_worker_silent_seat_forfeits_within_five_minutes_by_default},
        {"worker_grace_period_survives_adoption", test_worker_grace_period_survives_adoption},
        {NULL, NULL},
    };
    return rig_worker_main("worker_timers", cases);
}
