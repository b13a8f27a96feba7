/*
 * test_engine_check_budget.c: the checks a bundle passes before it is served (its rules
 * tests, `deckhand-rules`, `deckhand scripts push`) run under the workers' budgets, so a
 * card that recurses without bound (tests/fixtures/recursive) fails them at once with a
 * clear error instead of hanging them. And a game whose bot games end only at the turn cap
 * (tests/fixtures/limits, "capped") is refused: the cap ends a match, it does not make the
 * game finish.
 */
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"

static void test_rules_run_stops_an_endless_card_at_the_call_budget(void)
{
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dh_test_path("tests/fixtures/recursive"), NULL, &err);
    CU_ASSERT_FATAL(b != NULL);
    engine_rules_report rep;
    uint64_t t0 = dh_test_now_ms();
    engine_rules_run(b, NULL, NULL, NULL, &rep);
    uint64_t ms = dh_test_now_ms() - t0;
    printf("\n  %llu ms: %s", (unsigned long long)ms, rep.first_failure);
    CU_ASSERT_EQUAL(rep.failed, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(rep.first_failure, "time budget"));
    CU_ASSERT(ms < 5000);
    engine_bundle_free(b);
}

/* Runs cmd (under `timeout 120`), its output into out; the exit status, and *ms. */
static int run(const char *cmd, char *out, size_t cap, uint64_t *ms)
{
    char full[2048];
    snprintf(full, sizeof full, "timeout 120 %s 2>&1", cmd);
    uint64_t t0 = dh_test_now_ms();
    FILE *p = popen(full, "r");
    CU_ASSERT_FATAL(p != NULL);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    *ms = dh_test_now_ms() - t0;
    return st;
}

static void test_push_and_deckhand_rules_fail_fast_on_an_endless_card(void)
{
    char cmd[1024], out[8192];
    uint64_t ms;
    snprintf(cmd, sizeof cmd, "%s/deckhand-rules %s", DECKHAND_BIN_DIR,
             dh_test_path("tests/fixtures/recursive"));
    CU_ASSERT_NOT_EQUAL(run(cmd, out, sizeof out, &ms), 0);
    printf("\n  deckhand-rules, %llu ms:\n%s", (unsigned long long)ms, out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "time budget"));
    CU_ASSERT(ms < 10000);
    /* push refuses before it reaches Redis (none listens on port 1) */
    snprintf(cmd, sizeof cmd, "%s/deckhand scripts push %s --redis redis://127.0.0.1:1",
             DECKHAND_BIN_DIR, dh_test_path("tests/fixtures/recursive"));
    CU_ASSERT_NOT_EQUAL(run(cmd, out, sizeof out, &ms), 0);
    printf("\n  push, %llu ms:\n%s", (unsigned long long)ms, out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "time budget"));
    CU_ASSERT(ms < 10000);
}

static void test_push_refuses_a_game_whose_bots_only_reach_the_turn_cap(void)
{
    char cmd[1024], out[8192];
    uint64_t ms;
    snprintf(cmd, sizeof cmd,
             "%s/deckhand scripts push %s --game capped --redis redis://127.0.0.1:1",
             DECKHAND_BIN_DIR, dh_test_path("tests/fixtures/limits"));
    CU_ASSERT_NOT_EQUAL(run(cmd, out, sizeof out, &ms), 0);
    printf("\n  push, %llu ms:\n%s", (unsigned long long)ms, out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "turn cap"));
}

static const dh_test_case cases[] = {
    {"test_rules_run_stops_an_endless_card_at_the_call_budget",
     test_rules_run_stops_an_endless_card_at_the_call_budget},
    {"test_push_and_deckhand_rules_fail_fast_on_an_endless_card",
     test_push_and_deckhand_rules_fail_fast_on_an_endless_card},
    {"test_push_refuses_a_game_whose_bots_only_reach_the_turn_cap",
     test_push_refuses_a_game_whose_bots_only_reach_the_turn_cap},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_check_budget", cases);
}
