/*
 * test_engine_rules.c: the rules runner (deckhand-rules) itself: it must run every test
 * of a bundle, report each one, end with the "N passed, N failed" line, and exit non-zero
 * on any failure or when nothing ran, since CI trusts its exit code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "dh_test.h"

/* Runs deckhand-rules with args; returns its exit code and fills out with its stdout. */
static int run_rules(const char *args, char *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s/deckhand-rules %s 2>/dev/null", DECKHAND_BIN_DIR, args);
    return dh_test_run(cmd, out, cap);
}

static const char *last_line(char *out)
{
    size_t n = strlen(out);
    while (n && out[n - 1] == '\n')
        out[--n] = 0;
    char *nl = strrchr(out, '\n');
    return nl ? nl + 1 : out;
}

/* Runs deckhand-rules on the fixture folder tests/fixtures/<fixture> with flags, and checks
 * its exit code and its summary line. Its stdout (a static buffer, until the next call). */
static const char *expect_run(const char *fixture, const char *flags, int code, const char *summary)
{
    static char out[65536];
    char dir[64], args[1024];
    snprintf(dir, sizeof dir, "tests/fixtures/%s", fixture);
    snprintf(args, sizeof args, "%s%s", dh_test_path(dir), flags);
    CU_ASSERT_EQUAL(run_rules(args, out, sizeof out), code);
    CU_ASSERT_STRING_EQUAL(last_line(out), summary);
    return out;
}

static void test_rules_runner_passes_the_fixture_bundle(void)
{
    const char *out = expect_run("bundle", "", 0, "18 passed, 0 failed");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "PASS mini/basic: view_hides_the_other_hand"));
}

static void test_rules_runner_reports_failures_and_exits_nonzero(void)
{
    const char *out = expect_run("failing", "", 1, "1 passed, 2 failed");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "PASS tiny/checks: passes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "FAIL tiny/checks: fails_an_assertion"));
    CU_ASSERT_PTR_NOT_NULL(strstr(
        out, "lists differ: first difference: [2]: expected 3, got 2; in full: expected {1, 3}, "
             "got {1, 2}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "kaboom"));
}

/* A difference past the 100th character of a string, or past the dozen entries T.eq
 * prints of a table, still shows: the path to it and the text around it. */
static void test_rules_eq_failure_shows_the_first_difference_in_context(void)
{
    const char *out = expect_run("difflate", "", 1, "0 passed, 2 failed");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "card text: first difference: the value differs at "
                                       "character 175: expected \"...1 Action. Village costs "
                                       "4.\", got \"...1 Action. Village costs 3.\""));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(out, "first difference: [21].cost: expected 3, got 2; in full: expected {"));
}

static void test_rules_runner_filter_selects_tests(void)
{
    expect_run("failing", " --filter passes", 0, "1 passed, 0 failed");
}

static void test_rules_runner_fails_when_nothing_ran(void)
{
    expect_run("bundle", " --game nosuch", 1, "0 passed, 0 failed");
}

static const dh_test_case cases[] = {
    {"test_rules_runner_passes_the_fixture_bundle", test_rules_runner_passes_the_fixture_bundle},
    {"test_rules_runner_reports_failures_and_exits_nonzero",
     test_rules_runner_reports_failures_and_exits_nonzero},
    {"test_rules_eq_failure_shows_the_first_difference_in_context",
     test_rules_eq_failure_shows_the_first_difference_in_context},
    {"test_rules_runner_filter_selects_tests", test_rules_runner_filter_selects_tests},
    {"test_rules_runner_fails_when_nothing_ran", test_rules_runner_fails_when_nothing_ran},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_rules", cases);
}
