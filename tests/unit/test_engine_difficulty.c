/*
 * test_engine_difficulty.c: the difficulties every game offers by name (engine.h,
 * ENGINE_EASY_BOT; engine_bots.c). Every game of the repository's bundle lists `easy` and
 * `normal` once each; `normal` answers as the game's default bot; `easy` answers legally,
 * mostly as the default bot and sometimes not, and plays whole matches of every game to
 * their end; `hard` and `search` are the names a host answers with the search bot, and no
 * other; a game without a default bot gets neither `easy` nor `normal` (they would have
 * nothing to play); `easy`'s slips never concede the game (MLW's Surrender).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names2[] = {"ann", "bob"};
static const char *const games[] = {"dominion", "accession", "ascension",
                                    "caveman",  "elemental", "mlw"};

static int listed(const engine_game_info *g, const char *bot)
{
    int n = 0;
    for (size_t j = 0; j < g->nbots; j++)
        n += !strcmp(g->bots[j], bot);
    return n;
}

static void test_every_game_lists_easy_and_normal(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[32];
    size_t n = engine_bundle_games(b, info, 32);
    CU_ASSERT(n >= sizeof games / sizeof *games);
    for (size_t i = 0; i < n && i < 32; i++) {
        CU_ASSERT_EQUAL(listed(&info[i], ENGINE_EASY_BOT), 1);
        CU_ASSERT_EQUAL(listed(&info[i], ENGINE_NORMAL_BOT), 1);
        CU_ASSERT_STRING_EQUAL(info[i].bots[0], "default"); /* "default" stays first */
    }
    engine_bundle_free(b);
}

static void test_hard_and_search_are_the_search_bot_and_nothing_else_is(void)
{
    CU_ASSERT(engine_search_strategy(ENGINE_HARD_BOT));
    CU_ASSERT(engine_search_strategy(ENGINE_SEARCH_BOT));
    CU_ASSERT(!engine_search_strategy(ENGINE_EASY_BOT));
    CU_ASSERT(!engine_search_strategy(ENGINE_NORMAL_BOT));
    CU_ASSERT(!engine_search_strategy("default"));
    CU_ASSERT(!engine_search_strategy(NULL));
    engine_search_config cfg;
    engine_search_host_config(&cfg);
    CU_ASSERT(cfg.budget_ns > 0 && cfg.budget_ns < ENGINE_SEARCH_BUDGET_MS * 1000000ULL);
    CU_ASSERT_EQUAL(cfg.iterations, ENGINE_SEARCH_HOST_ITERATIONS);
}

/* Seat 0 is asked (human), seat 1 plays the default bot inline. */
static engine_match *asked_match(engine_bundle *b, const char *game, uint64_t seed)
{
    const char *bots[] = {NULL, "default"};
    engine_match_config cfg = {.match_id = "m-difficulty",
                               .game = game,
                               .seed = seed,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots};
    return rig_engine_match(b, &cfg);
}

static int same(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
    return na == nb && (!na || !memcmp(a, b, na * sizeof *a));
}

/* Over a match of every game: normal answers each decision as default does; easy's
 * answers are accepted, agree with default's on most decisions and not on all. */
static void test_normal_is_the_default_bot_and_easy_slips_sometimes(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    int asked = 0, agreed = 0;
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        engine_match *m = asked_match(b, games[g], 7);
        CU_ASSERT_FATAL(m != NULL);
        const engine_decision *d;
        for (int k = 0; k < 150 && (d = engine_match_decision(m)); k++) {
            uint32_t dflt[4096], normal[4096], easy[4096];
            size_t nd = 4096, nn = 4096, ne = 4096;
            engine_error err;
            CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, "default", dflt, &nd, &err),
                                  ENGINE_OK);
            CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, ENGINE_NORMAL_BOT, normal, &nn, &err),
                                  ENGINE_OK);
            CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, ENGINE_EASY_BOT, easy, &ne, &err),
                                  ENGINE_OK);
            CU_ASSERT(same(dflt, nd, normal, nn));
            if (d->noptions > 1) { /* a decision with a choice */
                asked++;
                agreed += same(dflt, nd, easy, ne);
            }
            /* easy's answer is played: the decision's own check accepts it */
            CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, easy, ne, &err),
                                  ENGINE_OK);
        }
        engine_match_free(m);
    }
    fprintf(stderr, "easy agreed with default on %d of %d decisions\n", agreed, asked);
    CU_ASSERT(asked > 100);
    CU_ASSERT(agreed > asked / 2); /* it slips one decision in three, at most */
    CU_ASSERT(agreed < asked);
    engine_bundle_free(b);
}

static void test_easy_plays_every_game_to_its_end(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {ENGINE_EASY_BOT, "default"};
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        engine_match_config cfg = {.match_id = "m-easy",
                                   .game = games[g],
                                   .seed = 3,
                                   .nplayers = 2,
                                   .names = names2,
                                   .bots = bots};
        engine_match *m = rig_engine_match(b, &cfg); /* an illegal answer fails the match */
        CU_ASSERT_FATAL(m != NULL);
        CU_ASSERT(engine_match_finished(m));
        engine_match_free(m);
    }
    engine_bundle_free(b);
}

/* A slip of `easy` is a weak move, never the game conceded: over many MLW matches against
 * its default bot, easy's wizard never surrenders (before, its random slip picked MLW's
 * Surrender and ended a player's match against the AI on its own). */
static void test_easy_never_surrenders(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {ENGINE_EASY_BOT, "default"};
    int surrendered = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        engine_match_config cfg = {.match_id = "m-easy-mlw",
                                   .game = "mlw",
                                   .seed = seed,
                                   .nplayers = 2,
                                   .names = names2,
                                   .bots = bots};
        engine_match *m = rig_engine_match(b, &cfg);
        CU_ASSERT_FATAL(m != NULL);
        CU_ASSERT(engine_match_finished(m));
        const char *why = engine_match_end_summary(m);
        surrendered += why && strstr(why, "ann surrendered") != NULL;
        engine_match_free(m);
    }
    CU_ASSERT_EQUAL(surrendered, 0);
    engine_bundle_free(b);
}

static void test_a_game_without_a_default_bot_gets_no_easy_or_normal(void)
{
    char dir[64];
    engine_bundle *b = rig_engine_load_text(
        dir, sizeof dir, "nodefault",
        "return { min_players = 1, max_players = 1,\n"
        "  turn = function(g) g:choose { player = 1, options = { { label = 'a' } } }\n"
        "    g:set_counter('done', 0, 1) end,\n"
        "  finished = function(g) return g:counter('done', 0) == 1 end,\n"
        "  results = function(g) return { { score = 0 } } end,\n"
        "  bots = { first = function() return { 1 } end } }\n");
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[2];
    CU_ASSERT_EQUAL_FATAL(engine_bundle_games(b, info, 2), 1);
    CU_ASSERT_EQUAL(listed(&info[0], ENGINE_EASY_BOT), 0);
    CU_ASSERT_EQUAL(listed(&info[0], ENGINE_NORMAL_BOT), 0);
    CU_ASSERT_EQUAL(listed(&info[0], ENGINE_RANDOM_BOT), 1);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "nodefault");
}

static atomic_int spinning;

static void *spin(void *arg)
{
    (void)arg;
    while (atomic_load(&spinning))
        ;
    return NULL;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* `deckhand sim --search-clock cpu`: the budget counts the searching thread's CPU time,
 * so a search sharing its core with a busy thread runs past its budget in wall time and
 * not in CPU time. Both threads are pinned to one core; a decision the search ends by
 * time (not by its stopping rule, not by the play-out count) is the one measured. */
static void test_hard_on_the_cpu_clock_does_not_count_time_spent_waiting_for_a_core(void)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    CU_ASSERT_FATAL(sched_setaffinity(0, sizeof one, &one) == 0);
    atomic_store(&spinning, 1);
    pthread_t spinner;
    CU_ASSERT_FATAL(pthread_create(&spinner, NULL, spin, NULL) == 0);

    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = asked_match(b, "dominion", 11);
    CU_ASSERT_FATAL(m != NULL);
    const uint64_t budget = 30 * 1000000ULL;
    engine_search_config cfg = {.iterations = 100000, .budget_ns = budget, .cpu_clock = 1};
    int measured = 0;
    const engine_decision *d;
    for (int k = 0; k < 60 && !measured && (d = engine_match_decision(m)); k++) {
        uint32_t ids[4096];
        size_t n = 4096;
        engine_search_stats st;
        engine_error err;
        uint64_t cpu0 = thread_cpu_ns();
        CU_ASSERT_EQUAL_FATAL(engine_search_answer(m, &cfg, ids, &n, &st, &err), ENGINE_OK);
        uint64_t cpu = thread_cpu_ns() - cpu0;
        if (st.iterations > 0 && !st.stopped && st.iterations < cfg.iterations &&
            cpu > budget / 2) {
            measured = 1;
            fprintf(stderr, "cpu %.1f ms, wall %.1f ms, budget %.1f ms\n", (double)cpu / 1e6,
                    (double)st.ns / 1e6, (double)budget / 1e6);
            CU_ASSERT(cpu < budget + budget / 2);   /* within its budget of CPU time */
            CU_ASSERT(st.ns > budget + budget / 4); /* past it in wall time: the core was shared */
        }
        CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err),
                              ENGINE_OK);
    }
    CU_ASSERT(measured);
    engine_match_free(m);
    engine_bundle_free(b);
    atomic_store(&spinning, 0);
    pthread_join(spinner, NULL);
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < CPU_SETSIZE; c++)
        CPU_SET(c, &all);
    sched_setaffinity(0, sizeof all, &all);
}

static const dh_test_case cases[] = {
    {"every_game_lists_easy_and_normal", test_every_game_lists_easy_and_normal},
    {"hard_and_search_are_the_search_bot_and_nothing_else_is",
     test_hard_and_search_are_the_search_bot_and_nothing_else_is},
    {"normal_is_the_default_bot_and_easy_slips_sometimes",
     test_normal_is_the_default_bot_and_easy_slips_sometimes},
    {"easy_plays_every_game_to_its_end", test_easy_plays_every_game_to_its_end},
    {"easy_never_surrenders", test_easy_never_surrenders},
    {"a_game_without_a_default_bot_gets_no_easy_or_normal",
     test_a_game_without_a_default_bot_gets_no_easy_or_normal},
    {"hard_on_the_cpu_clock_does_not_count_time_spent_waiting_for_a_core",
     test_hard_on_the_cpu_clock_does_not_count_time_spent_waiting_for_a_core},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_difficulty", cases);
}
