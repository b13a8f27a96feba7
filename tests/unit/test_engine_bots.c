/*
 * test_engine_bots.c: the strategies the engine offers every game (engine_bots.c). The
 * `random` bot is listed by every game of the repository's bundle, answers only legally
 * (whole matches of every game played by it alone finish; each of its answers to a
 * pending decision passes the decision's own check), varies with the seed alone and
 * draws its count uniformly in min..max; a game that defines its own `random` keeps it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names2[] = {"ann", "bob"};
static const char *const games[] = {"dominion", "accession", "ascension",
                                    "caveman",  "elemental", "mlw"};

static void test_every_game_lists_the_random_bot(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[32];
    size_t n = engine_bundle_games(b, info, 32);
    CU_ASSERT(n >= sizeof games / sizeof *games);
    for (size_t i = 0; i < n && i < 32; i++) {
        int listed = 0, defaults = info[i].nbots && !strcmp(info[i].bots[0], "default");
        for (size_t j = 0; j < info[i].nbots; j++)
            listed += !strcmp(info[i].bots[j], ENGINE_RANDOM_BOT);
        CU_ASSERT_EQUAL(listed, 1);
        CU_ASSERT(defaults); /* "default" stays first */
    }
    engine_bundle_free(b);
}

static void test_random_bot_plays_every_game_legally_to_its_end(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {ENGINE_RANDOM_BOT, ENGINE_RANDOM_BOT};
    for (size_t g = 0; g < sizeof games / sizeof *games; g++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            engine_match_config cfg = {.match_id = "m-random",
                                       .game = games[g],
                                       .seed = seed,
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

/* Seat 0 is asked (human), seat 1 plays the random bot inline. */
static engine_match *asked_match(engine_bundle *b, const char *game, uint64_t seed)
{
    const char *bots[] = {NULL, ENGINE_RANDOM_BOT};
    engine_match_config cfg = {.match_id = "m-asked",
                               .game = game,
                               .seed = seed,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots};
    return rig_engine_match(b, &cfg);
}

static void test_random_bot_answers_pass_the_decisions_check(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_FATAL(b != NULL);
    for (size_t g = 0; g < sizeof games / sizeof *games; g++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            /* 200 decisions answered by the random bot: each answer is accepted by
               engine_match_answer, which checks it against the decision */
            engine_match *m = asked_match(b, games[g], seed);
            CU_ASSERT_FATAL(m != NULL);
            const engine_decision *d;
            for (int k = 0; k < 200 && (d = engine_match_decision(m)); k++) {
                uint32_t ids[4096];
                size_t n = 4096;
                engine_error err;
                CU_ASSERT_EQUAL_FATAL(engine_match_bot_answer(m, ENGINE_RANDOM_BOT, ids, &n, &err),
                                      ENGINE_OK);
                CU_ASSERT(n >= d->min && n <= d->max);
                for (size_t i = 0; i < n; i++)
                    CU_ASSERT(ids[i] >= 1 && ids[i] <= d->noptions);
                CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err),
                                      ENGINE_OK);
            }
            engine_match_free(m);
        }
    engine_bundle_free(b);
}

/* A one-seat game asking ten times to pick 0..5 of 6 options; its score is the number of
 * options picked over the match. Its matches differ only in their seed. */
static const char pick_game[] =
    "return { min_players = 1, max_players = 1,\n"
    "  setup = function(g) end,\n"
    "  turn = function(g)\n"
    "    for _ = 1, 10 do\n"
    "      local a = g:choose { player = 1, min = 0, max = 5,\n"
    "        options = { {label='a'},{label='b'},{label='c'},{label='d'},{label='e'},{label='f'} } "
    "}\n"
    "      g:add_counter('picked', 0, #a)\n"
    "    end\n"
    "    g:set_counter('done', 0, 1)\n"
    "  end,\n"
    "  finished = function(g) return g:counter('done', 0) == 1 end,\n"
    "  results = function(g) return { { score = g:counter('picked', 0) } } end,\n"
    "  %s }\n";

/* The pick game with bots (a `bots = {...}` field, or "") in a temporary bundle. */
static engine_bundle *pick_bundle(char *dir, size_t cap, const char *bots)
{
    char text[2048];
    snprintf(text, sizeof text, pick_game, bots);
    return rig_engine_load_text(dir, cap, "pick", text);
}

static void test_random_bot_varies_with_the_seed_and_draws_counts_across_min_to_max(void)
{
    char dir[64];
    engine_bundle *b = pick_bundle(dir, sizeof dir, "");
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {ENGINE_RANDOM_BOT};
    static const char *const one[] = {"ann"};
    long total = 0, nmatch = 60, seen[61] = {0};
    for (uint64_t seed = 1; seed <= (uint64_t)nmatch; seed++) {
        engine_match_config cfg = {.match_id = "m-pick",
                                   .game = "pick",
                                   .seed = seed,
                                   .nplayers = 1,
                                   .names = one,
                                   .bots = bots};
        engine_match *m = rig_engine_match(b, &cfg);
        CU_ASSERT_FATAL(m != NULL && engine_match_finished(m));
        engine_result r;
        CU_ASSERT_EQUAL(engine_match_results(m, &r, 1), 1);
        total += r.score;
        seen[r.score >= 0 && r.score <= 50 ? r.score : 60]++;
        engine_match_free(m);
    }
    /* 600 answers, counts uniform in 0..5: mean 2.5 per answer, 1,500 in all (sd ~42) */
    fprintf(stderr, "options picked in 600 answers: %ld\n", total);
    CU_ASSERT(total > 1300 && total < 1700);
    /* the seed is all that differs between the matches: their totals must too */
    int distinct = 0;
    for (int i = 0; i <= 50; i++)
        distinct += seen[i] > 0;
    CU_ASSERT(distinct >= 8);
    CU_ASSERT_EQUAL(seen[60], 0);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "pick");
}

static void test_a_games_own_random_bot_is_kept(void)
{
    char dir[64];
    engine_bundle *b =
        pick_bundle(dir, sizeof dir, "bots = { random = function() return { 1, 2, 3, 4, 5 } end }");
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[2];
    CU_ASSERT_EQUAL_FATAL(engine_bundle_games(b, info, 2), 1);
    CU_ASSERT_EQUAL(info[0].nbots, 1);
    static const char *const bots[] = {ENGINE_RANDOM_BOT};
    static const char *const one[] = {"ann"};
    engine_match_config cfg = {
        .match_id = "m-pick", .game = "pick", .seed = 4, .nplayers = 1, .names = one, .bots = bots};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL && engine_match_finished(m));
    engine_result r;
    CU_ASSERT_EQUAL(engine_match_results(m, &r, 1), 1);
    CU_ASSERT_EQUAL(r.score, 50); /* the game's own: always five */
    engine_match_free(m);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "pick");
}

static const dh_test_case cases[] = {
    {"test_every_game_lists_the_random_bot", test_every_game_lists_the_random_bot},
    {"test_random_bot_plays_every_game_legally_to_its_end",
     test_random_bot_plays_every_game_legally_to_its_end},
    {"test_random_bot_answers_pass_the_decisions_check",
     test_random_bot_answers_pass_the_decisions_check},
    {"test_random_bot_varies_with_the_seed_and_draws_counts_across_min_to_max",
     test_random_bot_varies_with_the_seed_and_draws_counts_across_min_to_max},
    {"test_a_games_own_random_bot_is_kept", test_a_games_own_random_bot_is_kept},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_bots", cases);
}
