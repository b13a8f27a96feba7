/*
 * test_engine_rules_endless.c: the rules runner can never hang. A card whose on_play
 * recurses to Lua's stack limit and starts again (tests/fixtures/endless) once made
 * `deckhand-rules` hang in most runs: the watchdog's signals queued up behind handlers
 * that each walked the deep stack, and the engine thread ran nothing else
 * (engine_watchdog.c). Here the runner runs on it RUNS times in a row, and
 * `deckhand scripts push` once; every run must end within its cap, and every test of it
 * (a line of the runner's output) within TEST_CAP_MS, far below the documented 60 s.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "dh_test.h"

#define RUNS        20
#define BUDGET_MS   "100"  /* the call budget the runner gets: a kill every 100 ms */
#define RUN_CAP_S   "40"   /* `timeout` ends a run that hangs */
#define TEST_CAP_MS 15000u /* between two lines of output: one test */

/* Runs cmd under `timeout RUN_CAP_S`; the exit status, the output's last line in last,
 * the number of lines, and the longest wait for a line in *worst_ms. */
static int run(const char *cmd, char *last, size_t cap, int *lines, uint64_t *worst_ms)
{
    char full[2048], line[1024];
    snprintf(full, sizeof full, "timeout " RUN_CAP_S " %s 2>&1", cmd);
    FILE *p = popen(full, "r");
    CU_ASSERT_FATAL(p != NULL);
    uint64_t t = dh_test_now_ms();
    *worst_ms = 0;
    *lines = 0;
    last[0] = 0;
    while (fgets(line, sizeof line, p)) {
        uint64_t now = dh_test_now_ms();
        if (now - t > *worst_ms)
            *worst_ms = now - t;
        t = now;
        (*lines)++;
        snprintf(last, cap, "%s", line);
    }
    uint64_t now = dh_test_now_ms();
    if (now - t > *worst_ms)
        *worst_ms = now - t;
    return pclose(p);
}

/* Runs the rules runner on GAME of tests/fixtures/endless runs times; every run must end
 * with its five tests failed, none of them slower than TEST_CAP_MS. */
static void rules_end_every_run(const char *game, int runs)
{
    char cmd[1024], last[1024];
    snprintf(cmd, sizeof cmd, "%s/deckhand-rules %s --game %s --budget-ms " BUDGET_MS,
             DECKHAND_BIN_DIR, dh_test_path("tests/fixtures/endless"), game);
    int hung = 0;
    for (int i = 0; i < runs; i++) {
        int lines;
        uint64_t worst;
        int st = run(cmd, last, sizeof last, &lines, &worst);
        int ok = WIFEXITED(st) && WEXITSTATUS(st) == 1 && lines == 6 &&
                 strstr(last, "0 passed, 5 failed") && worst < TEST_CAP_MS;
        if (!ok) {
            hung++;
            printf("\n  %s run %d: status %d, %d lines, a test took %llu ms, last: %s", game, i, st,
                   lines, (unsigned long long)worst, last);
        }
    }
    CU_ASSERT_EQUAL(hung, 0);
}

/* `deckhand scripts push` of tests/fixtures/endless (both its games) ends, refused. */
static void test_push_ends_on_the_endless_cards(void)
{
    char cmd[1024], last[1024];
    int lines;
    uint64_t worst;
    /* push refuses before it reaches Redis (none listens on port 1) */
    snprintf(cmd, sizeof cmd, "%s/deckhand scripts push %s --redis redis://127.0.0.1:1",
             DECKHAND_BIN_DIR, dh_test_path("tests/fixtures/endless"));
    int st = run(cmd, last, sizeof last, &lines, &worst);
    printf("\n  push: status %d, longest wait %llu ms: %s", st, (unsigned long long)worst, last);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 124);
    CU_ASSERT(worst < TEST_CAP_MS * 5);
}

static void test_the_rules_runner_ends_every_run_on_an_endless_card(void)
{
    rules_end_every_run("endless", RUNS);
}

/* The game endless_pcall of tests/fixtures/endless catches at every level of its recursion and
 * recurses again: once the Lua VM stopped calling the kill latch's hook there (answers to a human
 * seat), and the unwinding through hundreds of thousands of catching frames took tens of seconds;
 * pcall now re-raises the kill, reads the deadline, and refuses to start too deep. */
static void test_the_rules_runner_ends_a_card_that_catches_at_every_level(void)
{
    rules_end_every_run("endless_pcall", RUNS / 2);
}

/* The guarded pcall keeps what pcall gives a script: a g:choose inside it still yields
 * (tests/fixtures/pcall_yield: its one test passes). */
static void test_choose_still_yields_through_pcall(void)
{
    char cmd[1024], last[1024];
    int lines;
    uint64_t worst;
    snprintf(cmd, sizeof cmd, "%s/deckhand-rules %s", DECKHAND_BIN_DIR,
             dh_test_path("tests/fixtures/pcall_yield"));
    int st = run(cmd, last, sizeof last, &lines, &worst);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(last, "1 passed, 0 failed"));
}

static const dh_test_case cases[] = {
    {"test_the_rules_runner_ends_every_run_on_an_endless_card",
     test_the_rules_runner_ends_every_run_on_an_endless_card},
    {"test_push_ends_on_the_endless_cards", test_push_ends_on_the_endless_cards},
    {"test_the_rules_runner_ends_a_card_that_catches_at_every_level",
     test_the_rules_runner_ends_a_card_that_catches_at_every_level},
    {"test_choose_still_yields_through_pcall", test_choose_still_yields_through_pcall},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_rules_endless", cases);
}
