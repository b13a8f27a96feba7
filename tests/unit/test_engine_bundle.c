/*
 * test_engine_bundle.c: loading a bundle (engine/engine_bundle.c, engine_files.c,
 * engine_sandbox.c): its games and id, on the fixture in tests/fixtures/bundle and on
 * bundles written on the fly into a temporary folder; refused bundles (a syntax error,
 * binary chunks, `require` escaping the bundle) and a game that never ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static void test_bundle_lists_its_game_and_ignores_other_files(void)
{
    engine_bundle *b = rig_engine_load_mini();
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info gi[4];
    CU_ASSERT_EQUAL(engine_bundle_games(b, gi, 4), 1);
    CU_ASSERT_STRING_EQUAL(gi[0].name, "mini");
    CU_ASSERT_EQUAL(gi[0].min_players, 1);
    CU_ASSERT_EQUAL(gi[0].max_players, 4);
    CU_ASSERT_EQUAL(strlen(engine_bundle_id(b)), 64);
    engine_bundle *b2 = rig_engine_load_mini();
    CU_ASSERT_STRING_EQUAL(engine_bundle_id(b), engine_bundle_id(b2));
    engine_bundle_free(b2);
    engine_bundle_free(b);
}

static const char *tiny_game =
    "return { min_players = 1, max_players = 2, zones = {}, cards = {},\n"
    "  turn = function(g) g:add_counter('n', 0, 1) end,\n"
    "  finished = function(g) return g:counter('n') >= 2 end,\n"
    "  results = function(g) return { { score = 1 }, { score = 2 } } end }\n";

static int write_file(const char *dir, const char *rel, const char *text, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = fwrite(text, 1, len, f);
    fclose(f);
    return n == len ? 0 : -1;
}

static int make_tmp_bundle(char *dir, size_t len, const char *game_text)
{
    snprintf(dir, len, "/tmp/dh-engine-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/tiny", dir);
    if (mkdir(sub, 0700) < 0)
        return -1;
    return write_file(dir, "tiny/game.lua", game_text, strlen(game_text));
}

static void rm_tmp_bundle(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_bundle_id_covers_lua_files_only(void)
{
    char dir[256];
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, tiny_game) == 0);
    engine_error err;
    engine_bundle *b1 = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b1 != NULL);
    CU_ASSERT_EQUAL(write_file(dir, "tiny/notes.txt", "x", 1), 0);
    engine_bundle *b2 = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b2 != NULL);
    CU_ASSERT_STRING_EQUAL(engine_bundle_id(b1), engine_bundle_id(b2));
    CU_ASSERT_EQUAL(write_file(dir, "tiny/extra.lua", "return 1\n", 9), 0);
    engine_bundle *b3 = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b3 != NULL);
    CU_ASSERT_STRING_NOT_EQUAL(engine_bundle_id(b1), engine_bundle_id(b3));
    engine_game_info gi;
    CU_ASSERT_EQUAL(engine_bundle_games(b3, &gi, 1), 1);
    CU_ASSERT_STRING_EQUAL(gi.name, "tiny");
    engine_bundle_free(b3);
    engine_bundle_free(b2);
    engine_bundle_free(b1);
    rm_tmp_bundle(dir);
}

static void test_bundle_with_syntax_error_is_refused(void)
{
    char dir[256];
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, "return {\n") == 0);
    engine_error err = {0};
    CU_ASSERT_PTR_NULL(engine_bundle_load(dir, NULL, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "tiny/game.lua"));
    rm_tmp_bundle(dir);
}

static void test_require_refuses_binary_chunks_and_escapes(void)
{
    char dir[256];
    const char *game = "local ok, e = pcall(require, 'tiny.bin')\n"
                       "assert(not ok and e:find('binary'), e)\n"
                       "assert(not pcall(require, '..tiny.game'))\n"
                       "assert(not pcall(require, 'tiny/game'))\n"
                       "assert(require('tiny.helper') == require('tiny.helper'))\n"
                       "return { min_players = 1, max_players = 1, turn = function() end,\n"
                       "  finished = function() return true end,\n"
                       "  results = function() return { { score = 0 } } end }\n";
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, game) == 0);
    CU_ASSERT_EQUAL(write_file(dir, "tiny/bin.lua", "\x1bLua\x54\x00", 6), 0);
    CU_ASSERT_EQUAL(write_file(dir, "tiny/helper.lua", "return {}\n", 10), 0);
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dir, NULL, &err);
    if (!b)
        fprintf(stderr, "load: %s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL(b);
    engine_bundle_free(b);
    rm_tmp_bundle(dir);
}

static void test_runaway_game_is_stopped(void)
{
    char dir[256];
    const char *game = "return { min_players = 1, max_players = 1, turn = function() end,\n"
                       "  finished = function() return false end,\n"
                       "  results = function() return { { score = 0 } } end,\n"
                       "  bots = { default = function() return { 1 } end } }\n";
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, game) == 0);
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b != NULL);
    const char *bots[] = {"default"};
    engine_match_config cfg = {"r", "tiny", 1, 1, NULL, bots, NULL, false};
    /* stopped at the turn cap: ended, not failed (test_engine_turn_cap.c) */
    engine_match *m = engine_match_new(b, &cfg, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_TRUE(engine_match_finished(m));
    CU_ASSERT_TRUE(engine_match_turn_capped(m));
    engine_match_free(m);
    engine_bundle_free(b);
    rm_tmp_bundle(dir);
}

static const dh_test_case cases[] = {
    {"test_bundle_lists_its_game_and_ignores_other_files",
     test_bundle_lists_its_game_and_ignores_other_files},
    {"test_bundle_id_covers_lua_files_only", test_bundle_id_covers_lua_files_only},
    {"test_bundle_with_syntax_error_is_refused", test_bundle_with_syntax_error_is_refused},
    {"test_require_refuses_binary_chunks_and_escapes",
     test_require_refuses_binary_chunks_and_escapes},
    {"test_runaway_game_is_stopped", test_runaway_game_is_stopped},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_bundle", cases);
}
