/*
 * test_engine_turn_cap.c: a match that reaches its game's turn cap ends there, with the
 * results the game's rules give and an event telling every seat why, instead of failing
 * every later answer. The cap is the game table's max_turns (tests/fixtures/limits, game
 * "capped": 6), 2000 when the game declares none (docs/SCRIPTING.md, "The game table").
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "rig_limits.h"

static void test_a_match_at_its_turn_cap_ends_with_results(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "capped", 2);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err = {0};
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_FATAL(!engine_match_finished(m));
        CU_ASSERT_EQUAL_FATAL(rig_limits_pick(m, "Play", &err, NULL), ENGINE_OK);
    }
    CU_ASSERT_FATAL(engine_match_finished(m));
    CU_ASSERT_PTR_NULL(engine_match_decision(m));
    CU_ASSERT(engine_match_turn_capped(m));
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(m, r, 2), 2);
    CU_ASSERT_EQUAL(r[0].score, 3); /* three turns of +1 */
    CU_ASSERT_EQUAL(r[1].score, 6); /* three turns of +2 */
    CU_ASSERT_EQUAL(r[0].rank, 2);
    CU_ASSERT_EQUAL(r[1].rank, 1);
    char *text[2];
    size_t n[2];
    rig_limits_drain(m, text, n);
    for (int seat = 0; seat < 2; seat++) {
        CU_ASSERT_PTR_NOT_NULL(strstr(text[seat], "turn cap"));
        free(text[seat]);
    }
    /* a snapshot of the end restores as ended */
    size_t len;
    const uint8_t *snap = engine_match_snapshot(m, &len);
    static const char *const names[] = {"Ann", "Bob"};
    engine_match_config cfg = {"lim", "capped", 7, 2, names, NULL, NULL, false};
    engine_match *back = engine_match_restore(b, &cfg, snap, len, NULL, 0, &err);
    CU_ASSERT_FATAL(back != NULL);
    CU_ASSERT(engine_match_finished(back));
    CU_ASSERT_EQUAL(engine_match_hash(back), engine_match_hash(m));
    engine_match_free(back);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const char endless[] =
    "return { name = 'endless', min_players = 1, max_players = 2,\n"
    "  turn = function(g) g:add_counter('n', 0, 1) end,\n"
    "  finished = function() return false end,\n"
    "  results = function(g)\n"
    "    local r = {}\n"
    "    for p = 1, g:nplayers() do r[p] = { score = g:counter('n') } end\n"
    "    return r\n"
    "  end,\n"
    "  bots = { default = function() return { 1 } end } }\n";

static void test_the_default_cap_is_2000_turns(void)
{
    engine_file_in f = {"endless/game.lua", endless, sizeof endless - 1};
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load_files("b", &f, 1, NULL, &err);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {"default", "default"};
    engine_match_config cfg = {"e", "endless", 1, 2, NULL, bots, NULL, false};
    engine_match *m = engine_match_new(b, &cfg, &err);
    if (!m)
        printf("\n  %s", err.message);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT(engine_match_finished(m));
    CU_ASSERT(engine_match_turn_capped(m));
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(m, r, 2), 2);
    CU_ASSERT_EQUAL(r[0].score, 2000);
    CU_ASSERT_EQUAL(r[0].rank, 1);
    CU_ASSERT_EQUAL(r[1].rank, 1); /* equal scores share the rank */
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_a_bad_max_turns_is_refused_at_load(void)
{
    static const char bad[] = "return { turn = function() end, finished = function() end,\n"
                              "  results = function() end, max_turns = 0 }\n";
    engine_file_in f = {"bad/game.lua", bad, sizeof bad - 1};
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load_files("b", &f, 1, NULL, &err);
    CU_ASSERT_PTR_NULL(b);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "max_turns"));
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_a_match_at_its_turn_cap_ends_with_results",
     test_a_match_at_its_turn_cap_ends_with_results},
    {"test_the_default_cap_is_2000_turns", test_the_default_cap_is_2000_turns},
    {"test_a_bad_max_turns_is_refused_at_load", test_a_bad_max_turns_is_refused_at_load},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_turn_cap", cases);
}
