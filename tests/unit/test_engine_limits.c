/*
 * test_engine_limits.c: scripts that misbehave, on the small fixture game in
 * tests/fixtures/bundle/mini (its "traps" option): an endless loop (also inside pcall) is
 * killed at the time budget, a memory bomb is refused at the cap, the sandbox has no io,
 * os, load or random, and an endless bot stops an all-bot match; each time the other
 * matches of the VM play on. test_engine_sandbox.c has the full catalogue of attacks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

/* Springs the trap labelled label in a "traps" match (seed) while a plain match (seed
 * other_seed) has answered once: the answer fails as a script error (err says why),
 * neither match changes, and both play on. How long the refused answer took, in ms. */
static uint64_t spring_trap(const char *label, uint64_t seed, uint64_t other_seed,
                            engine_error *err)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, seed, "traps=1", NULL);
    engine_match *other = rig_engine_mini_match(b, other_seed, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_FATAL(other != NULL);
    uint64_t h = engine_match_hash(m);
    CU_ASSERT_EQUAL(rig_engine_answer(other, rig_engine_option(other, "Pass"), NULL), ENGINE_OK);
    uint64_t ho = engine_match_hash(other);
    uint32_t trap = rig_engine_option(m, label);
    uint64_t t0 = dh_test_now_ms();
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, &trap, 1, err), ENGINE_SCRIPT_ERROR);
    uint64_t took = dh_test_now_ms() - t0;
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_hash(other), ho);
    CU_ASSERT_EQUAL(rig_engine_answer(other, 0, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK);
    engine_match_free(other);
    engine_match_free(m);
    engine_bundle_free(b);
    return took;
}

static void test_endless_loop_inside_pcall_is_killed_other_match_unaffected(void)
{
    engine_error err;
    uint64_t took = spring_trap("Spin", 7, 8, &err);
    CU_ASSERT(took >= 90 && took < 2000); /* the budget is 100 ms */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "time budget"));
}

static void test_memory_bomb_is_refused_and_match_keeps_working(void)
{
    engine_error err;
    spring_trap("Hog", 9, 9, &err);
}

static void test_sandbox_has_no_io_os_load_or_random(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 10, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Probe"), NULL), ENGINE_OK);
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    int found = 0;
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, "probe")) {
            found = 1;
            CU_ASSERT_EQUAL(v->counters[i]->value, 0);
            CU_ASSERT_EQUAL(v->counters[i]->owner, -1);
        }
    CU_ASSERT(found);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_endless_bot_in_an_all_bot_match_is_stopped(void)
{
    engine_bundle *b = rig_engine_load_mini();
    CU_ASSERT_FATAL(b != NULL);
    const char *bots[] = {"spinner", "spinner"};
    engine_match_config cfg = rig_engine_mini_config(1, NULL, bots);
    engine_error err = {0};
    uint64_t t0 = dh_test_now_ms();
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT(dh_test_now_ms() - t0 < 2000);
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "time budget"));
    const char *good[] = {"default", "default"};
    engine_match *m = rig_engine_mini_match(b, 1, NULL, good);
    CU_ASSERT_PTR_NOT_NULL(m);
    CU_ASSERT_TRUE(m && engine_match_finished(m));
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_a_bundle_that_loops_while_loading_is_stopped_by_the_load_budget(void)
{
    engine_limits lim = {8u << 20, 25}; /* loading may take 40 call budgets: 1 s */
    engine_error err = {0};
    uint64_t t0 = dh_test_now_ms();
    engine_bundle *b = engine_bundle_load(dh_test_path("tests/fixtures/slowload"), &lim, &err);
    uint64_t took = dh_test_now_ms() - t0;
    CU_ASSERT_PTR_NULL(b);
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "time budget"));
    CU_ASSERT(took >= 900 && took < 5000);
}

static const dh_test_case cases[] = {
    {"test_a_bundle_that_loops_while_loading_is_stopped_by_the_load_budget",
     test_a_bundle_that_loops_while_loading_is_stopped_by_the_load_budget},
    {"test_endless_loop_inside_pcall_is_killed_other_match_unaffected",
     test_endless_loop_inside_pcall_is_killed_other_match_unaffected},
    {"test_memory_bomb_is_refused_and_match_keeps_working",
     test_memory_bomb_is_refused_and_match_keeps_working},
    {"test_sandbox_has_no_io_os_load_or_random", test_sandbox_has_no_io_os_load_or_random},
    {"test_endless_bot_in_an_all_bot_match_is_stopped",
     test_endless_bot_in_an_all_bot_match_is_stopped},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_limits", cases);
}
