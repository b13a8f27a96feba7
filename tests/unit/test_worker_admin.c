/*
 * test_worker_admin.c: what an operator asks of a worker through the admin API
 * (worker/host/host_admin.c). An ended match tells every seat GameOver with the operator's
 * reason and stores a result nobody won, without a rating job; an end asked while a write
 * is in flight waits for it; a removed player is told and refused, and its seat follows
 * the queue's abandon policy: a bot plays it, or it forfeits at once, on this worker or on
 * the one the match moves to; a drain asks the worker to stop.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "host.h"
#include "host_persist.h"

static void end_match(rig_worker *r, const char *id, const char *reason)
{
    Deckhand__Internal__AdminEndMatch e = DECKHAND__INTERNAL__ADMIN_END_MATCH__INIT;
    e.match_id = (char *)id;
    e.reason = (char *)reason;
    e.who = (char *)"ops";
    host_admin_end(&r->h, &e, r->now);
}

static void remove_player(rig_worker *r, const char *id, const char *player, const char *reason)
{
    Deckhand__Internal__AdminRemovePlayer rp = DECKHAND__INTERNAL__ADMIN_REMOVE_PLAYER__INIT;
    rp.match_id = (char *)id;
    rp.player_id = (char *)player;
    rp.reason = (char *)reason;
    rp.who = (char *)"ops";
    host_admin_remove(&r->h, &rp, r->now);
}

/* A stored field of match:{id}, "" when missing (the caller frees). */
static char *field(const char *id, const char *f)
{
    char key[DH_KEY_MAX];
    char *v = rig_worker_hget(dh_key_match(key, id), f);
    return v ? v : strdup("");
}

/* Both seats got GameOver with reason and every rank 0; the matchmaker heard the end. */
static void check_ended(rig_worker *r, const char *id, const char *reason)
{
    rig_outbox o;
    rig_worker_gw_drain(r, &o);
    for (int s = 0; s < 2; s++) {
        const Deckhand__ServerMessage *go =
            rig_outbox_find(&o, rig_worker_players[s], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
        CU_ASSERT_PTR_NOT_NULL_FATAL(go);
        CU_ASSERT_STRING_EQUAL(go->game_over->reason, reason);
        CU_ASSERT_EQUAL(go->game_over->n_results, 2);
        for (size_t i = 0; i < go->game_over->n_results; i++)
            CU_ASSERT_EQUAL(go->game_over->results[i]->rank, 0);
    }
    rig_outbox_free(&o);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    char *status = field(id, DH_F_STATUS), *why = field(id, DH_F_END_REASON);
    char *result = field(id, DH_F_RESULT), *rated = rig_worker_hget(DH_KEY_MATCHES_UNRATED, id);
    CU_ASSERT_STRING_EQUAL(status, DH_STATUS_FINISHED);
    CU_ASSERT_STRING_EQUAL(why, reason);
    CU_ASSERT_PTR_NOT_NULL(strstr(result, "\"rank\":0"));
    CU_ASSERT_PTR_NULL(rated); /* no rating job: nobody won */
    free(status);
    free(why);
    free(result);
    free(rated);
    CU_ASSERT_PTR_NULL(host_find(&r->h, id));
}

static void test_worker_admin_end_tells_every_seat_and_stores_it(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    uint64_t cmd = 1;
    host_match *hm = rig_worker_started(&r, "m-end", "dominion", NULL);
    rig_worker_play(&r, hm, 3, &cmd);
    rig_worker_mm_drain(&r);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    end_match(&r, "m-end", "stuck at the turn cap");
    host_flush(&r.h, r.now);
    check_ended(&r, "m-end", "admin: stuck at the turn cap");
    end_match(&r, "m-end", "again"); /* gone: ignored */
    CU_ASSERT_PTR_NULL(rig_worker_mm_wait(&r, RIG_WORKER_QUIET_MS));
    rig_worker_close_drained(&r);
}

static void test_worker_admin_end_waits_for_a_write_in_flight(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-busy", "dominion", NULL);
    rig_worker_mm_drain(&r);
    CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, 1)); /* held, not flushed */
    CU_ASSERT_TRUE(hm->busy);
    end_match(&r, "m-busy", "ops test");
    CU_ASSERT_FALSE(host_over(hm)); /* not while its write is in flight */
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_NOT_NULL(host_find(&r.h, "m-busy"));
    host_admin_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    check_ended(&r, "m-busy", "admin: ops test");
    rig_worker_close_drained(&r);
}

/* The removed player got GameOver "admin: removed: why" with no results. */
static void check_told(const rig_outbox *o, const char *player, const char *why)
{
    const Deckhand__ServerMessage *go =
        rig_outbox_find(o, player, DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(go);
    char want[128];
    snprintf(want, sizeof want, "admin: removed: %s", why);
    CU_ASSERT_STRING_EQUAL(go->game_over->reason, want);
    CU_ASSERT_EQUAL(go->game_over->n_results, 0);
}

static void test_worker_admin_remove_lets_a_bot_play_the_seat(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-bot", 60000, "bot");
    int seat = engine_match_decision(hm->m)->seat;
    const char *gone = rig_worker_players[seat];
    uint64_t decision = engine_match_decision(hm->m)->decision_id;
    remove_player(&r, "m-bot", gone, "abusive");
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    check_told(&o, gone, "abusive");
    rig_outbox_free(&o);
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    /* the bot answers for the seat at once, long before the 60 s grace period */
    CU_ASSERT(host_tick(&r.h, r.now) >= 1);
    host_flush(&r.h, r.now);
    hm = host_find(&r.h, "m-bot");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    CU_ASSERT_FALSE(host_over(hm));
    CU_ASSERT_NOT_EQUAL(engine_match_decision(hm->m)->decision_id, decision);
    /* the removed player cannot come back */
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    rig_worker_command(&r, "m-bot", gone, 99, NULL);
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *reply =
        rig_outbox_find(&o, gone, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_PTR_NOT_NULL_FATAL(reply);
    CU_ASSERT_EQUAL(reply->reply->error->code, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, gone, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    rig_outbox_free(&o);
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    rig_worker_close_drained(&r);
}

static void test_worker_admin_remove_forfeits_the_seat_under_forfeit(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-ff", 60000, "forfeit");
    rig_worker_mm_drain(&r);
    remove_player(&r, "m-ff", rig_worker_players[1], "cheating");
    host_flush(&r.h, r.now);
    (void)hm;
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    check_told(&o, rig_worker_players[1], "cheating");
    const Deckhand__ServerMessage *go =
        rig_outbox_find(&o, rig_worker_players[0], DECKHAND__SERVER_MESSAGE__BODY_GAME_OVER);
    CU_ASSERT_PTR_NOT_NULL_FATAL(go);
    CU_ASSERT_STRING_EQUAL(go->game_over->reason, "");
    for (size_t i = 0; i < go->game_over->n_results; i++)
        CU_ASSERT_EQUAL(go->game_over->results[i]->rank,
                        go->game_over->results[i]->seat == 1 ? 2 : 1);
    rig_outbox_free(&o);
    char *status = field("m-ff", DH_F_STATUS);
    CU_ASSERT_STRING_EQUAL(status, DH_STATUS_FINISHED);
    free(status);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-ff"));
    rig_worker_close_drained(&r);
}

/* The match moves to another worker (the matchmaker's takeover at epoch 2), which adopts
 * it; *st must be closed and *h freed by the caller. */
static void adopt_elsewhere(rig_worker *r, host *h, store *st, const char *id)
{
    char key[DH_KEY_MAX], cmd[DH_KEY_MAX + 32];
    snprintf(cmd, sizeof cmd, "HSET %s worker %%s epoch %%s", dh_key_match(key, id));
    rig_worker_redis_do(cmd, "wk-v", "2");
    CU_ASSERT_EQUAL_FATAL(store_init(st, rig_worker_redis_url(), 500), 0);
    host_init(h, "wk-v", "inproc://worker", r->router, r->dealer, r->bundle, st, 10);
    CU_ASSERT_EQUAL_FATAL(host_adopt(h, id, r->now), 1);
    rig_worker_mm_drain(r);
}

/* A removal outlives a move: the adopter still refuses the removed player and a bot
 * plays its seat, however long the grace period (issue 24, item 8). */
static void test_worker_admin_remove_persists_across_a_move(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-mv", 600000, "bot");
    int seat = engine_match_decision(hm->m)->seat;
    const char *gone = rig_worker_players[seat];
    remove_player(&r, "m-mv", gone, "abusive");
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    host h2;
    store st2;
    adopt_elsewhere(&r, &h2, &st2, "m-mv");
    host_match *moved = host_find(&h2, "m-mv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(moved);
    CU_ASSERT_TRUE(moved->seats[seat].removed);
    CU_ASSERT_TRUE(moved->seats[seat].robot);
    CU_ASSERT_FALSE(moved->seats[1 - seat].removed);
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = pc.match_id = (char *)"m-mv";
    pc.player_id = (char *)gone;
    pc.cmd_id = 7;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc.resync = &rs;
    host_command(&h2, "gw-t", &pc, r.now); /* it comes back through a gateway: refused */
    out_flush(&h2);
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *reply =
        rig_outbox_find(&o, gone, DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_PTR_NOT_NULL_FATAL(reply);
    CU_ASSERT_PTR_NOT_NULL_FATAL(reply->reply->error);
    CU_ASSERT_EQUAL(reply->reply->error->code, DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, gone, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    rig_outbox_free(&o);
    uint64_t decision = engine_match_decision(moved->m)->decision_id;
    CU_ASSERT(host_tick(&h2, r.now) >= 1); /* the bot plays it, not after 10 minutes */
    host_flush(&h2, r.now);
    CU_ASSERT_NOT_EQUAL(engine_match_decision(moved->m)->decision_id, decision);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close_drained(&r);
}

/* Under "forfeit", a removal whose forfeit the first worker never wrote (it died first) is
 * still applied by the adopter: the seat forfeits there. */
static void test_worker_admin_remove_forfeits_on_the_adopter(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-ffmv", 600000, "forfeit");
    rig_worker_mm_drain(&r);
    CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, 1)); /* a write in flight: the end waits */
    remove_player(&r, "m-ffmv", rig_worker_players[1], "cheating");
    host_flush(&r.h, r.now); /* the answer and the removal land; the worker dies here */
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    host h2;
    store st2;
    adopt_elsewhere(&r, &h2, &st2, "m-ffmv");
    host_admin_tick(&h2, r.now);
    host_flush(&h2, r.now);
    CU_ASSERT_PTR_NULL(host_find(&h2, "m-ffmv"));
    char *status = field("m-ffmv", DH_F_STATUS), *result = field("m-ffmv", DH_F_RESULT);
    CU_ASSERT_STRING_EQUAL(status, DH_STATUS_FINISHED);
    CU_ASSERT_PTR_NOT_NULL(strstr(result, "\"rank\":2")); /* a seat lost: it forfeited */
    free(status);
    free(result);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close_drained(&r);
}

static void test_worker_admin_query_tells_what_redis_does_not(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    uint64_t cmd = 1;
    host_match *hm = rig_worker_started(&r, "m-q", "dominion", NULL);
    rig_worker_play(&r, hm, 2, &cmd);
    int seat = engine_match_decision(hm->m)->seat;
    remove_player(&r, "m-q", rig_worker_players[1], "x");
    rig_worker_mm_drain(&r);
    rig_worker_advance(&r, 3000);
    Deckhand__Internal__AdminQuery q = DECKHAND__INTERNAL__ADMIN_QUERY__INIT;
    q.match_id = (char *)"m-q";
    q.query_id = 77;
    host_admin_query(&r.h, &q, r.now);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_INFO);
    const Deckhand__Internal__AdminMatchInfo *info = m->admin_info;
    CU_ASSERT_EQUAL(info->query_id, 77);
    CU_ASSERT_TRUE(info->found);
    CU_ASSERT_EQUAL(info->answers, 2);
    CU_ASSERT_EQUAL(info->turn, engine_match_snapshot_version(hm->m));
    CU_ASSERT_EQUAL(info->waiting_seat, seat);
    CU_ASSERT(info->waiting_ms >= 3000);
    CU_ASSERT_EQUAL_FATAL(info->n_seats, 2);
    CU_ASSERT_TRUE(info->seats[0]->connected);
    CU_ASSERT_FALSE(info->seats[0]->removed);
    CU_ASSERT_FALSE(info->seats[1]->connected);
    CU_ASSERT_TRUE(info->seats[1]->bot);
    CU_ASSERT_TRUE(info->seats[1]->removed);
    deckhand__internal__internal__free_unpacked(m, NULL);
    q.match_id = (char *)"m-none";
    host_admin_query(&r.h, &q, r.now);
    m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_INFO);
    CU_ASSERT_FALSE(m->admin_info->found);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_close_drained(&r);
}

static void test_worker_admin_drain_asks_the_loop_to_stop(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    CU_ASSERT_FALSE(r.h.drain_asked);
    Deckhand__Internal__AdminDrain d = DECKHAND__INTERNAL__ADMIN_DRAIN__INIT;
    d.reason = (char *)"node upgrade";
    host_admin_drain(&r.h, &d);
    CU_ASSERT_TRUE(r.h.drain_asked);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_admin_end_tells_every_seat_and_stores_it",
         test_worker_admin_end_tells_every_seat_and_stores_it},
        {"worker_admin_end_waits_for_a_write_in_flight",
         test_worker_admin_end_waits_for_a_write_in_flight},
        {"worker_admin_remove_lets_a_bot_play_the_seat",
         test_worker_admin_remove_lets_a_bot_play_the_seat},
        {"worker_admin_remove_forfeits_the_seat_under_forfeit",
         test_worker_admin_remove_forfeits_the_seat_under_forfeit},
        {"worker_admin_remove_persists_across_a_move",
         test_worker_admin_remove_persists_across_a_move},
        {"worker_admin_remove_forfeits_on_the_adopter",
         test_worker_admin_remove_forfeits_on_the_adopter},
        {"worker_admin_query_tells_what_redis_does_not",
         test_worker_admin_query_tells_what_redis_does_not},
        {"worker_admin_drain_asks_the_loop_to_stop", test_worker_admin_drain_asks_the_loop_to_stop},
        {NULL, NULL},
    };
    return rig_worker_main("worker_admin", cases);
}
