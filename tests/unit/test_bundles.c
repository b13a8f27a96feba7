/*
 * test_bundles.c: what `deckhand scripts push` and the worker rely on to handle bundles
 * in memory: a bundle loaded from files in memory is the same bundle (same id) as the
 * folder it came from, bad bundles are refused with the reason, the manifest is read,
 * and the rules tests run as a library call.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static void test_files_bundle_has_the_folders_id(void)
{
    engine_error err = {0};
    engine_bundle *disk = rig_engine_load("scripts", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(disk);
    size_t n = 0;
    engine_file_in *files = engine_bundle_files(disk, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(files);
    CU_ASSERT(n > 3);
    /* every file, in the path order engine_bundle_file_at gives */
    engine_file_in at;
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL_FATAL(engine_bundle_file_at(disk, i, &at), 1);
        CU_ASSERT_PTR_EQUAL(files[i].data, at.data);
        if (i > 0)
            CU_ASSERT(strcmp(files[i - 1].path, files[i].path) < 0);
    }
    CU_ASSERT_EQUAL(engine_bundle_file_at(disk, n, &at), 0);
    engine_bundle *mem = engine_bundle_load_files("scripts", files, n, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
    CU_ASSERT_STRING_EQUAL(engine_bundle_id(mem), engine_bundle_id(disk));
    engine_game_info gi[8];
    CU_ASSERT_EQUAL(engine_bundle_games(mem, gi, 8), engine_bundle_games(disk, gi, 8));
    engine_bundle_free(mem);
    free(files);
    engine_bundle_free(disk);
}

static const char game_src[] = "return { min_players = 1, max_players = 2,\n"
                               "  cards = { Smithy = { cost = 4, text = 'old' } },\n"
                               "  turn = function() end, finished = function() return true end,\n"
                               "  results = function() return {} end }\n";

static void test_files_bundle_refuses_bad_paths(void)
{
    const char *bad[] = {"../x.lua", "/x.lua", "a//x.lua", ".hidden.lua", "a/.x/y.lua", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        engine_file_in f[] = {{"g/game.lua", game_src, sizeof game_src - 1},
                              {bad[i], "return 1", 8}};
        engine_error err = {0};
        CU_ASSERT_PTR_NULL(engine_bundle_load_files("b", f, 2, NULL, &err));
        CU_ASSERT_EQUAL(err.code, ENGINE_BAD_REQUEST);
    }
    engine_file_in twice[] = {{"g/game.lua", game_src, sizeof game_src - 1},
                              {"g/game.lua", game_src, sizeof game_src - 1}};
    engine_error err = {0};
    CU_ASSERT_PTR_NULL(engine_bundle_load_files("b", twice, 2, NULL, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "twice"));
}

static void test_files_bundle_with_a_syntax_error_is_refused(void)
{
    engine_file_in f[] = {{"g/game.lua", "return {", 8}};
    engine_error err = {0};
    CU_ASSERT_PTR_NULL(engine_bundle_load_files("b", f, 1, NULL, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "game.lua"));
}

static void test_manifest_is_read_and_optional(void)
{
    static const char man[] = "return { label = 'hotfix-1', compatible = true }";
    engine_file_in f[] = {{"g/game.lua", game_src, sizeof game_src - 1},
                          {"manifest.lua", man, sizeof man - 1},
                          {"README.md", "not lua", 7}};
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load_files("b", f, 3, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    engine_manifest m;
    CU_ASSERT_EQUAL(engine_bundle_manifest(b, &m, &err), 1);
    CU_ASSERT_STRING_EQUAL(m.label, "hotfix-1");
    CU_ASSERT(m.compatible);
    engine_file_in got;
    CU_ASSERT_EQUAL(engine_bundle_file_at(b, 2, &got), 0); /* README.md was skipped */
    engine_bundle_free(b);
    b = engine_bundle_load_files("b", f, 1, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(engine_bundle_manifest(b, &m, &err), 0);
    CU_ASSERT_FALSE(m.compatible);
    engine_bundle_free(b);
}

static void test_rules_run_as_a_library_reports_failures(void)
{
    static const char tests[] = "return { test_passes = function(T) T.ok(true) end,\n"
                                "  test_fails = function(T) T.eq(1, 2) end }\n";
    engine_file_in f[] = {{"g/game.lua", game_src, sizeof game_src - 1},
                          {"g/tests/rules.lua", tests, sizeof tests - 1}};
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load_files("b", f, 2, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    engine_rules_report rep;
    CU_ASSERT_EQUAL(engine_rules_run(b, NULL, NULL, NULL, &rep), 1);
    CU_ASSERT_EQUAL(rep.passed, 1);
    CU_ASSERT_EQUAL(rep.failed, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.first_failure, "test_fails"));
    engine_bundle_free(b);
}

static void test_rules_of_the_default_bundle_pass(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    engine_rules_report rep;
    CU_ASSERT_EQUAL(engine_rules_run(b, "dominion", NULL, NULL, &rep), 0);
    CU_ASSERT(rep.passed > 0);
    engine_bundle_free(b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"files_bundle_has_the_folders_id", test_files_bundle_has_the_folders_id},
        {"files_bundle_refuses_bad_paths", test_files_bundle_refuses_bad_paths},
        {"files_bundle_with_a_syntax_error_is_refused",
         test_files_bundle_with_a_syntax_error_is_refused},
        {"manifest_is_read_and_optional", test_manifest_is_read_and_optional},
        {"rules_run_as_a_library_reports_failures", test_rules_run_as_a_library_reports_failures},
        {"rules_of_the_default_bundle_pass", test_rules_of_the_default_bundle_pass},
        {NULL, NULL},
    };
    return dh_test_main("bundles", cases);
}
