/*
 * test_engine_pattern_bounds.c: no script call runs unbounded inside C, where the
 * deadline's kill latch cannot reach it (docs/SCRIPTING.md, "The sandbox"): backtracking
 * patterns (string.find/match/gmatch/gsub), a plain find whose work is the product of two
 * huge lengths, string.rep of an empty string, table.move over a huge range and table.sort
 * of a huge array fail at once with SCRIPT_ERROR (the match rolled back), while the
 * patterns the card scripts use keep working.
 */
#include <string.h>

#include "dh_test.h"
#include "rig_limits.h"

/* Fails within a second (the unbounded forms run for seconds or forever), rolled back. */
static void fails_fast(engine_match *m, const char *action, const char *words)
{
    engine_error err = {0};
    uint64_t ms = 0, h = engine_match_hash(m);
    engine_code c = rig_limits_pick(m, action, &err, &ms);
    if (c != ENGINE_SCRIPT_ERROR || !strstr(err.message, words) || ms > 1000)
        printf("\n  %s: code %d after %llu ms: '%s'", action, c, (unsigned long long)ms,
               err.message);
    CU_ASSERT_EQUAL(c, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, words));
    CU_ASSERT(ms <= 1000);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
}

static void test_backtracking_patterns_fail_at_once(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(m != NULL);
    fails_fast(m, "pattern_find", "pattern too complex");
    fails_fast(m, "pattern_match", "pattern too complex");
    fails_fast(m, "pattern_gsub", "pattern too complex");
    fails_fast(m, "pattern_gmatch", "pattern too complex");
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_c_loops_sized_by_a_script_fail_at_once(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(m != NULL);
    fails_fast(m, "find_plain", "too much work");
    fails_fast(m, "move_big", "too many elements");
    fails_fast(m, "sort_big", "too many elements");
    engine_error err = {0};
    uint64_t ms = 0;
    /* string.rep of an empty string is the empty string, at once */
    CU_ASSERT_EQUAL(rig_limits_pick(m, "rep_empty", &err, &ms), ENGINE_OK);
    CU_ASSERT(ms <= 1000);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_patterns_of_card_scripts_still_work(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err = {0};
    CU_ASSERT_EQUAL(rig_limits_pick(m, "patterns_ok", &err, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(rig_limits_pick(m, "Play", &err, NULL), ENGINE_OK);
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    int score = -1;
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, "score"))
            score = (int)v->counters[i]->value;
    CU_ASSERT_EQUAL(score, 2); /* one for the patterns, one for the play */
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_backtracking_patterns_fail_at_once", test_backtracking_patterns_fail_at_once},
    {"test_c_loops_sized_by_a_script_fail_at_once", test_c_loops_sized_by_a_script_fail_at_once},
    {"test_patterns_of_card_scripts_still_work", test_patterns_of_card_scripts_still_work},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_pattern_bounds", cases);
}
