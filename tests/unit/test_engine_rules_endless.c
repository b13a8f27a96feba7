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

#define RUNS        30
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

static void test_the_rules_runner_ends_every_run_on_an_endless_card(void)
{
    char cmd[1024], last[1024];
    snprintf(cmd, sizeof cmd, "%s/deckhand-rules %s --budget-ms " BUDGET_MS, DECKHAND_BIN_DIR,
             dh_test_path("tests/fixtures/endless"));
    int hung = 0;
    for (int i = 0; i < RUNS; i++) {
        int lines;
        uint64_t worst;
        int st = run(cmd, last, sizeof last, &lines, &worst);
        int ok = WIFEXITED(st) && WEXITSTATUS(st) == 1 && lines == 6 &&
                 strstr(last, "0 passed, 5 failed") && worst < TEST_CAP_MS;
        if (!ok) {
            hung++;
            printf("\n  run %d: status %d, %d lines, a test took %llu ms, last: %s", i, st, lines,
                   (unsigned long long)worst, last);
        }
    }
    CU_ASSERT_EQUAL(hung, 0);
}

static void test_push_ends_on_an_endless_card(void)
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

static const dh_test_case cases[] = {
    {"test_the_rules_runner_ends_every_run_on_an_endless_card",
     test_the_rules_runner_ends_every_run_on_an_endless_card},
    {"test_push_ends_on_an_endless_card", test_push_ends_on_an_endless_card},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_rules_endless", cases);
}
