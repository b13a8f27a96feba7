/*
 * test_engine_vp.c: the deck-builders' VP total (the public counter `vp`, set by the
 * game's `refresh`, which the engine runs before a person decides and when the match
 * ends: engine_match_refresh). Every seat sees every seat's total, the same in every
 * view; it is what the results score at the end; Dominion's seats start at 3 (three
 * Estates); Caveman, scored by health, has none; and an all-bot match (a sim, a search's
 * copy) never runs refresh, so its state, and so every seed's game, stays what it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names[] = {"ann", "bob"};

/* The view's counter name of owner, or -1000 when it has none. */
static int64_t view_counter(const Deckhand__View *v, const char *name, int owner)
{
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, name) && v->counters[i]->owner == owner)
            return v->counters[i]->value;
    return -1000;
}

static engine_match *human_match(engine_bundle *b, const char *game, uint64_t seed)
{
    engine_match_config cfg = {
        .match_id = "m-vp", .game = game, .seed = seed, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    return m;
}

/* Both seats' views show both seats' vp, the same values; into vp[2]. */
static void both_views_agree(engine_match *m, int64_t vp[2])
{
    Deckhand__View *v0 = engine_match_view(m, 0), *v1 = engine_match_view(m, 1);
    CU_ASSERT_FATAL(v0 != NULL && v1 != NULL);
    for (int p = 0; p < 2; p++) {
        vp[p] = view_counter(v0, "vp", p);
        CU_ASSERT(vp[p] != -1000);
        CU_ASSERT_EQUAL(view_counter(v1, "vp", p), vp[p]);
    }
    engine_view_free(v0);
    engine_view_free(v1);
}

/* Plays m to its end with the default bot answering every person; the vp the views show
 * is checked at every decision, and at the end against the results. */
static void play_out(engine_match *m, const char *game)
{
    int64_t vp[2];
    int steps = 0;
    for (; engine_match_decision(m) && steps < 5000; steps++) {
        both_views_agree(m, vp);
        engine_error err = {0};
        engine_code rc = rig_engine_bot_step(m, &err);
        CU_ASSERT_EQUAL_FATAL(rc, ENGINE_OK);
    }
    CU_ASSERT_TRUE_FATAL(engine_match_finished(m));
    both_views_agree(m, vp);
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(m, r, 2), 2);
    for (int p = 0; p < 2; p++)
        if (vp[p] != r[p].score) {
            fprintf(stderr, "%s: seat %d shows %lld, scores %d\n", game, p, (long long)vp[p],
                    r[p].score);
            CU_FAIL("the VP total at the end is not the results' score");
        }
}

static engine_bundle *load_scripts(void)
{
    engine_limits lim = {.budget_ms = 5000};
    engine_bundle *b = rig_engine_load("scripts", &lim);
    CU_ASSERT_FATAL(b != NULL);
    return b;
}

static void test_vp_total_is_public_current_and_the_final_score_in_every_deck_builder(void)
{
    engine_bundle *b = load_scripts();
    static const char *const games[] = {"dominion", "accession", "ascension"};
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        engine_match *m = human_match(b, games[i], 11);
        play_out(m, games[i]);
        engine_match_free(m);
    }
    engine_bundle_free(b);
}

static void test_dominion_seats_start_with_three_vp(void)
{
    engine_bundle *b = load_scripts();
    engine_match *m = human_match(b, "dominion", 5);
    int64_t vp[2];
    both_views_agree(m, vp);
    CU_ASSERT_EQUAL(vp[0], 3);
    CU_ASSERT_EQUAL(vp[1], 3);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_caveman_has_no_vp_total_its_score_is_health(void)
{
    engine_bundle *b = load_scripts();
    engine_match *m = human_match(b, "caveman", 5);
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(view_counter(v, "vp", 0), -1000);
    CU_ASSERT_EQUAL(view_counter(v, "health", 0), 20);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_all_bot_match_never_runs_refresh(void)
{
    engine_bundle *b = load_scripts();
    static const char *const bots[] = {"default", "default"};
    engine_match_config cfg = {.match_id = "m-sim",
                               .game = "dominion",
                               .seed = 3,
                               .nplayers = 2,
                               .names = names,
                               .bots = bots,
                               .quiet = true};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_TRUE(engine_match_finished(m));
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(view_counter(v, "vp", 0), -1000);
    CU_ASSERT_EQUAL(view_counter(v, "vp", 1), -1000);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* A game's refresh runs before every decision a person is asked, not for bots. */
static void test_refresh_runs_before_each_decision_a_person_is_asked(void)
{
    static const char src[] =
        "return { min_players = 2, max_players = 2,\n"
        "  refresh = function(g) g:add_counter('asked', 0, 1) end,\n"
        "  turn = function(g)\n"
        "    for p = 1, 2 do g:choose { player = p, options = { { label = 'ok' } } } end\n"
        "    g:add_counter('turn', 0, 1) end,\n"
        "  finished = function(g) return g:counter('turn') >= 2 end,\n"
        "  bots = { default = function() return { 1 } end },\n"
        "  results = function(g) return { { score = 0 }, { score = 0 } } end }\n";
    engine_error err = {0};
    engine_bundle *b = rig_engine_load_lua("r", &err, "%s", src);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {NULL, "default"};
    engine_match_config cfg = {
        .match_id = "m-r", .game = "r", .seed = 1, .nplayers = 2, .names = names, .bots = bots};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    int asked = 0;
    for (const engine_decision *d; (d = engine_match_decision(m));) {
        Deckhand__View *v = engine_match_view(m, 0);
        CU_ASSERT_EQUAL(view_counter(v, "asked", -1), ++asked); /* the bot's never count */
        engine_view_free(v);
        uint32_t one = 1;
        CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, &one, 1, &err),
                              ENGINE_OK);
    }
    CU_ASSERT_EQUAL(asked, 2);
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_EQUAL(view_counter(v, "asked", -1), 3); /* and once at the end */
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_vp_total_is_public_current_and_the_final_score_in_every_deck_builder",
     test_vp_total_is_public_current_and_the_final_score_in_every_deck_builder},
    {"test_dominion_seats_start_with_three_vp", test_dominion_seats_start_with_three_vp},
    {"test_caveman_has_no_vp_total_its_score_is_health",
     test_caveman_has_no_vp_total_its_score_is_health},
    {"test_all_bot_match_never_runs_refresh", test_all_bot_match_never_runs_refresh},
    {"test_refresh_runs_before_each_decision_a_person_is_asked",
     test_refresh_runs_before_each_decision_a_person_is_asked},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_vp", cases);
}
