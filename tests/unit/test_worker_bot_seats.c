/*
 * test_worker_bot_seats.c: what a StartMatch asks beyond its players (worker/host.c,
 * host_options.c): game options checked against the bundle and applied, bot seats
 * (Seat.bot) played by the engine at once, unrated; all of it kept in the match's meta so
 * that an adopting worker (host_adopt.c) plays on with the same options and bots; the
 * search bot's seats (a queue's bot=search), which the worker answers itself, in budget,
 * for bot fill and for players who stayed away.
 */
#include "rig_worker.h"

#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_keys.h"
#include "host_bot.h"
#include "rig_engine.h"
#include "worker.h"

/* A StartMatch of dominion: rig player 0 against a bot of strategy bot, with the kingdom
 * option (NULL: none), unrated. */
static void start_with_bot(rig_worker *r, const char *id, const char *bot, const char *kingdom)
{
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    char bot_id[64];
    snprintf(bot_id, sizeof bot_id, "%s:bot2", id);
    s0.player_id = (char *)rig_worker_players[0];
    s0.name = (char *)"ann";
    s1.player_id = bot_id;
    s1.name = (char *)"Bot 1";
    s1.bot = (char *)bot;
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    Deckhand__GameOption o = DECKHAND__GAME_OPTION__INIT;
    Deckhand__GameOption *op[] = {&o};
    o.name = (char *)"kingdom";
    o.value = (char *)kingdom;
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = (char *)id;
    sm.game = (char *)"dominion";
    sm.seed = 42;
    sm.n_seats = 2;
    sm.seats = seats;
    sm.n_options = kingdom ? 1 : 0;
    sm.options = op;
    sm.unrated = true;
    host_start_match(&r->h, &sm, r->now);
    host_flush(&r->h, r->now);
}

/* The MatchStarted the worker sent: whether ok, its error into why. */
static bool started(rig_worker *r, char *why, size_t cap)
{
    Deckhand__Internal__Internal *m = rig_worker_mm_next(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED);
    bool ok = m->match_started->ok;
    snprintf(why, cap, "%s", m->match_started->error ? m->match_started->error : "");
    deckhand__internal__internal__free_unpacked(m, NULL);
    return ok;
}

static void test_bot_seat_is_played_by_the_engine_and_kept_in_the_meta(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char why[256];
    start_with_bot(&r, "m-bots", "default", "random");
    CU_ASSERT_TRUE_FATAL(started(&r, why, sizeof why));
    host_match *hm = host_find(&r.h, "m-bots");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    CU_ASSERT_STRING_EQUAL(hm->seats[1].bot, "default");
    CU_ASSERT_TRUE(hm->unrated);
    char *v = rig_worker_hget("match:{m-bots}", "options");
    CU_ASSERT_STRING_EQUAL(v, "kingdom=random");
    free(v);
    v = rig_worker_hget("match:{m-bots}", "bots");
    CU_ASSERT_STRING_EQUAL(v, ",default");
    free(v);
    v = rig_worker_hget("match:{m-bots}", "unrated");
    CU_ASSERT_STRING_EQUAL(v, "1");
    free(v);
    rig_worker_command(&r, "m-bots", rig_worker_players[0], 0, NULL);
    /* every decision is the player's: the bot's are answered as they come */
    uint64_t cmd = 1;
    for (int i = 0; i < 40 && engine_match_decision(hm->m); i++) {
        CU_ASSERT_EQUAL_FATAL(engine_match_decision(hm->m)->seat, 0);
        rig_worker_play(&r, hm, 1, &cmd);
    }
    uint64_t hash = engine_match_hash(hm->m);

    /* the worker dies; another adopts the match and plays the bot seat on */
    rig_worker_mm_drain(&r);
    rig_worker_redis_do("HSET match:{m-bots} worker %s epoch %s", "wk-u", "2");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-bots", r.now), 1);
    host_match *hm2 = host_find(&h2, "m-bots");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm2);
    CU_ASSERT_EQUAL(engine_match_hash(hm2->m), hash);
    CU_ASSERT_STRING_EQUAL(hm2->seats[1].bot, "default");
    CU_ASSERT_STRING_EQUAL(hm2->seats[0].bot, "");
    CU_ASSERT_STRING_EQUAL(hm2->options, "kingdom=random");
    CU_ASSERT_TRUE(hm2->unrated);
    if (engine_match_decision(hm2->m))
        CU_ASSERT_EQUAL(engine_match_decision(hm2->m)->seat, 0);
    rig_worker_mm_drain(&r);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close(&r);
}

static void test_start_match_with_an_undeclared_option_or_bot_is_refused(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char why[256];
    start_with_bot(&r, "m-badopt", "", "no_such_kingdom");
    CU_ASSERT_FALSE(started(&r, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "option 'kingdom' takes no value 'no_such_kingdom'");
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-badopt"));
    start_with_bot(&r, "m-badbot", "no_such_bot", NULL);
    CU_ASSERT_FALSE(started(&r, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "no such bot in the game");
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-badbot"));
    rig_worker_close_drained(&r);
}

/* A bot seat of the search bot (a queue's bot=search): the engine cannot play it inline,
 * so the worker answers it on its ticks, each search within its budget; an adopting worker
 * plays it on the same way. */
static void test_search_bot_seat_is_played_by_the_worker_within_its_budget(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char why[256];
    start_with_bot(&r, "m-search", ENGINE_SEARCH_BOT, NULL);
    CU_ASSERT_TRUE_FATAL(started(&r, why, sizeof why));
    host_match *hm = host_find(&r.h, "m-search");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    CU_ASSERT_STRING_EQUAL(hm->seats[1].bot, "search");
    CU_ASSERT_STRING_EQUAL(DH_BOT_SEARCH, ENGINE_SEARCH_BOT); /* what replays skip */
    char *v = rig_worker_hget("match:{m-search}", "bots");
    CU_ASSERT_STRING_EQUAL(v, ",search");
    free(v);
    rig_worker_command(&r, "m-search", rig_worker_players[0], 0, NULL);
    uint64_t cmd = 1;
    int bot_turns = 0;
    for (int i = 0; i < 60 && engine_match_decision(hm->m); i++) {
        int seat = engine_match_decision(hm->m)->seat;
        if (seat == 0) {
            rig_worker_play(&r, hm, 1, &cmd);
            continue;
        }
        uint64_t t0 = dh_now_ms();
        CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 1);
        uint64_t took = dh_now_ms() - t0;
        /* its budget, plus one play-out and the answer's own run (ASan, a loaded machine) */
        CU_ASSERT(took < ENGINE_SEARCH_BUDGET_MS + 450);
        host_flush(&r.h, r.now);
        bot_turns++;
    }
    CU_ASSERT(bot_turns >= 3);
    CU_ASSERT_EQUAL(r.h.stats.search_answers, (uint64_t)bot_turns);
    CU_ASSERT_EQUAL(r.h.stats.default_answers, (uint64_t)bot_turns);

    /* an adopting worker restores it (the engine is not asked to play "search" inline) */
    uint64_t hash = engine_match_hash(hm->m);
    rig_worker_mm_drain(&r);
    rig_worker_redis_do("HSET match:{m-search} worker %s epoch %s", "wk-u", "2");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-search", r.now), 1);
    host_match *hm2 = host_find(&h2, "m-search");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm2);
    CU_ASSERT_EQUAL(engine_match_hash(hm2->m), hash);
    CU_ASSERT_STRING_EQUAL(hm2->seats[1].bot, "search");
    rig_worker_mm_drain(&r);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close(&r);
}

/* A queue's bot=search plays the seat of a player who stayed away past the grace period,
 * and is kept in the meta for an adopting worker; a queue bot no worker plays is refused. */
static void test_away_seat_is_played_by_the_queues_search_bot(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 30;
    set.abandon = (char *)"bot";
    set.bot = (char *)"search";
    host_match *hm = rig_worker_started(&r, "m-away-search", "dominion", &set);
    CU_ASSERT_STRING_EQUAL(hm->set.bot, "search");
    char *v = rig_worker_hget("match:{m-away-search}", "queue_bot");
    CU_ASSERT_STRING_EQUAL(v, "search");
    free(v);
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_away_via(&r, "gw-t", "m-away-search", rig_worker_players[seat]);
    rig_worker_advance(&r, 50);
    for (int i = 0; i < 200 && engine_match_decision(hm->m)->seat == seat; i++) {
        host_tick(&r.h, r.now);
        host_flush(&r.h, r.now);
    }
    CU_ASSERT_TRUE(hm->seats[seat].robot);
    CU_ASSERT_NOT_EQUAL(engine_match_decision(hm->m)->seat, seat);
    CU_ASSERT(r.h.stats.search_answers >= 1);
    CU_ASSERT_EQUAL(r.h.stats.search_answers, r.h.stats.default_answers);
    rig_worker_close_drained(&r);

    rig_worker_open(&r, "scripts", NULL);
    set.bot = (char *)"cheater";
    rig_worker_start(&r, "m-bad-queue-bot", "dominion", &set);
    host_flush(&r.h, r.now);
    char why[256];
    CU_ASSERT_FALSE(started(&r, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "unknown queue bot");
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-bad-queue-bot"));
    rig_worker_close_drained(&r);
}

/* Searches go round the matches: with the search seats of three matches all pending (a
 * bot's turn has several decisions in a row), three ticks answer each of them, though one
 * tick's budget covers about one search. */
static void test_search_seats_take_turns_across_matches(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char why[256];
    static const char *const ids[] = {"m-round-0", "m-round-1", "m-round-2"};
    host_match *hm[3];
    uint64_t cmd = 1;
    for (int i = 0; i < 3; i++) {
        start_with_bot(&r, ids[i], ENGINE_SEARCH_BOT, NULL);
        CU_ASSERT_TRUE_FATAL(started(&r, why, sizeof why));
        hm[i] = host_find(&r.h, ids[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(hm[i]);
        rig_worker_command(&r, ids[i], rig_worker_players[0], 0, NULL);
        /* the player ends its first turn: the search seat's turn begins */
        for (int k = 0; k < 40 && engine_match_decision(hm[i]->m)->seat == 0; k++)
            rig_worker_play(&r, hm[i], 1, &cmd);
        CU_ASSERT_EQUAL_FATAL(engine_match_decision(hm[i]->m)->seat, 1);
    }
    uint64_t before[3];
    for (int i = 0; i < 3; i++)
        before[i] = hm[i]->answers;
    for (int t = 0; t < 3; t++) {
        host_tick(&r.h, r.now);
        host_flush(&r.h, r.now);
    }
    for (int i = 0; i < 3; i++) {
        if (hm[i]->answers == before[i])
            fprintf(stderr, "%s: no search answer in three ticks\n", ids[i]);
        CU_ASSERT(hm[i]->answers > before[i]);
    }
    rig_worker_close_drained(&r);
}

/* A search that cannot finish (here every copy runs the fixture game's endless "Spin"
 * option past the call deadline) is the search's failure, not the game's: the seat gets the
 * default bot's answer, either from the search itself (its candidates are the bots' answers,
 * and one whose play-outs all failed still stands) or from host_bot_search's fallback, which
 * then says so (searched false); never a script error, so a search seat is never
 * quarantined for it. */
static void test_search_that_cannot_finish_falls_back_to_the_default_bot(void)
{
    engine_bundle *b = rig_engine_load_mini();
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    engine_match *m = rig_engine_mini_match(b, 4, "traps=1", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    uint32_t ids[64], want[64];
    size_t n = 64, nwant = 64;
    engine_error ee = {0};
    engine_search_config sc = {.iterations = ENGINE_SEARCH_ITERATIONS,
                               .budget_ns = ENGINE_SEARCH_BUDGET_MS * 1000000ULL};
    engine_code direct = engine_search_answer(m, &sc, ids, &n, NULL, &ee);
    CU_ASSERT(direct == ENGINE_OK || direct == ENGINE_SCRIPT_ERROR);
    CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, NULL, want, &nwant, &ee), ENGINE_OK);
    host_match hm = {.m = m};
    snprintf(hm.id, sizeof hm.id, "m-fallback");
    bool searched = direct != ENGINE_OK;
    n = 64;
    CU_ASSERT_EQUAL(host_bot_search(&hm, ids, &n, &searched, &ee), ENGINE_OK);
    CU_ASSERT_EQUAL(searched, direct == ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(n, nwant);
    CU_ASSERT_EQUAL(memcmp(ids, want, n * sizeof *ids), 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* The difficulties as bot seats (a queue's bot=easy, bot=hard): easy is the engine's,
 * played inline as the player's decisions come; hard is the search bot, which the worker
 * answers on its ticks (counted as search answers), logged for replays as search's are. */
static void test_difficulty_bot_seats_easy_by_the_engine_hard_by_the_worker(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char why[256];
    start_with_bot(&r, "m-easy", ENGINE_EASY_BOT, NULL);
    CU_ASSERT_TRUE_FATAL(started(&r, why, sizeof why));
    host_match *hm = host_find(&r.h, "m-easy");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    rig_worker_command(&r, "m-easy", rig_worker_players[0], 0, NULL);
    uint64_t cmd = 1;
    for (int i = 0; i < 20 && engine_match_decision(hm->m); i++) {
        CU_ASSERT_EQUAL_FATAL(engine_match_decision(hm->m)->seat, 0); /* easy's are inline */
        rig_worker_play(&r, hm, 1, &cmd);
    }
    CU_ASSERT_EQUAL(r.h.stats.search_answers, 0);

    start_with_bot(&r, "m-hard", ENGINE_HARD_BOT, NULL);
    CU_ASSERT_TRUE_FATAL(started(&r, why, sizeof why));
    hm = host_find(&r.h, "m-hard");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    CU_ASSERT_STRING_EQUAL(DH_BOT_HARD, ENGINE_HARD_BOT); /* what replays skip */
    rig_worker_command(&r, "m-hard", rig_worker_players[0], 0, NULL);
    int bot_turns = 0;
    for (int i = 0; i < 30 && engine_match_decision(hm->m) && bot_turns < 3; i++) {
        if (engine_match_decision(hm->m)->seat == 0) {
            rig_worker_play(&r, hm, 1, &cmd);
            continue;
        }
        CU_ASSERT_EQUAL(host_tick(&r.h, r.now), 1);
        host_flush(&r.h, r.now);
        bot_turns++;
    }
    CU_ASSERT(bot_turns >= 1);
    CU_ASSERT_EQUAL(r.h.stats.search_answers, (uint64_t)bot_turns);
    rig_worker_close_drained(&r);
}

/* The worker offers the search bot in every game it serves (WorkerHello's GameInfo.bots,
 * which the matchmaker's game list passes on), after the game's own strategies, and the
 * difficulties: easy and normal (the engine's, listed with the game's) and hard. */
static void test_worker_offers_the_search_bot_in_every_game(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    rig_worker_mm_drain(&r);
    worker_control_hello(&r.h, NULL, 0);
    Deckhand__Internal__Internal *m = rig_worker_mm_next(&r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO);
    const Deckhand__Internal__WorkerHello *wh = m->worker_hello;
    CU_ASSERT(wh->n_games >= 6);
    for (size_t i = 0; i < wh->n_games; i++) {
        const Deckhand__Internal__GameInfo *g = wh->games[i];
        bool search = false, dflt = false, hard = false, easy = false, normal = false;
        for (size_t j = 0; j < g->n_bots; j++) {
            search = search || !strcmp(g->bots[j], ENGINE_SEARCH_BOT);
            dflt = dflt || !strcmp(g->bots[j], "default");
            hard = hard || !strcmp(g->bots[j], ENGINE_HARD_BOT);
            easy = easy || !strcmp(g->bots[j], ENGINE_EASY_BOT);
            normal = normal || !strcmp(g->bots[j], ENGINE_NORMAL_BOT);
        }
        if (!search || !dflt || !hard || !easy || !normal)
            fprintf(stderr, "%s: search %d, default %d, hard %d, easy %d, normal %d\n", g->name,
                    search, dflt, hard, easy, normal);
        CU_ASSERT(search && dflt && hard && easy && normal);
    }
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"bot_seat_is_played_by_the_engine_and_kept_in_the_meta",
         test_bot_seat_is_played_by_the_engine_and_kept_in_the_meta},
        {"start_match_with_an_undeclared_option_or_bot_is_refused",
         test_start_match_with_an_undeclared_option_or_bot_is_refused},
        {"difficulty_bot_seats_easy_by_the_engine_hard_by_the_worker",
         test_difficulty_bot_seats_easy_by_the_engine_hard_by_the_worker},
        {"search_bot_seat_is_played_by_the_worker_within_its_budget",
         test_search_bot_seat_is_played_by_the_worker_within_its_budget},
        {"away_seat_is_played_by_the_queues_search_bot",
         test_away_seat_is_played_by_the_queues_search_bot},
        {"search_seats_take_turns_across_matches", test_search_seats_take_turns_across_matches},
        {"search_that_cannot_finish_falls_back_to_the_default_bot",
         test_search_that_cannot_finish_falls_back_to_the_default_bot},
        {"worker_offers_the_search_bot_in_every_game",
         test_worker_offers_the_search_bot_in_every_game},
        {NULL, NULL},
    };
    return rig_worker_main("worker_bot_seats", cases);
}
