/*
 * test_trial.c: a canary's guard (common/dh_trial.h): it judges only after its minimum
 * of canary matches, compares rates (a canary takes a share of the matches), aborts on a
 * script-error or a quarantine rate more than its margin over the current bundle's, and
 * says why with the figures that go into the audit entry.
 */
#include <string.h>

#include "dh_test.h"
#include "dh_trial.h"

/* A trial: canary started/errored/quarantined, current the same, guard min and margin. */
static dh_trial trial(long long cs, long long ce, long long cq, long long bs, long long be,
                      long long bq, int min, int margin)
{
    return (dh_trial){.n = {{cs, ce, cq}, {bs, be, bq}}, .min = min, .margin = margin};
}

static void test_guard_waits_for_its_minimum_of_canary_matches(void)
{
    char why[400];
    dh_trial t = trial(3, 3, 0, 10, 0, 0, 4, 10);
    CU_ASSERT_FALSE(dh_trial_verdict(&t, why, sizeof why));
    t.n[DH_TRIAL_CANARY][DH_TRIAL_STARTED] = 4;
    CU_ASSERT_TRUE(dh_trial_verdict(&t, why, sizeof why));
}

static void test_guard_aborts_on_an_error_rate_past_the_margin_and_says_why(void)
{
    char why[400] = "";
    dh_trial t = trial(20, 5, 0, 60, 3, 0, 20, 10); /* 25% against 5%: 20 points */
    CU_ASSERT_TRUE(dh_trial_verdict(&t, why, sizeof why));
    CU_ASSERT_STRING_EQUAL(why, "canary guard: script errors in 5 of 20 canary matches (25%) "
                                "against 3 of 60 (5%) on the current bundle, more than 10 "
                                "points over (after at least 20 matches)");
    t = trial(20, 3, 0, 60, 3, 0, 20, 10); /* 15% against 5%: exactly the margin */
    CU_ASSERT_FALSE(dh_trial_verdict(&t, why, sizeof why));
}

static void test_guard_compares_rates_not_counts(void)
{
    char why[400];
    /* the current bundle has more errors, on many more matches: the canary is no worse */
    dh_trial t = trial(20, 2, 0, 200, 20, 0, 20, 5);
    CU_ASSERT_FALSE(dh_trial_verdict(&t, why, sizeof why));
}

static void test_guard_aborts_on_quarantines_past_the_margin(void)
{
    char why[400] = "";
    dh_trial t = trial(10, 0, 3, 10, 0, 0, 10, 20);
    CU_ASSERT_TRUE(dh_trial_verdict(&t, why, sizeof why));
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "quarantined in 3 of 10 canary matches (30%)"));
}

static void test_trial_line_shows_both_sides_and_the_guard(void)
{
    char line[400];
    dh_trial t = trial(8, 2, 1, 12, 0, 0, 20, 10);
    dh_trial_line(&t, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "trial: canary 8 matches, 2 with script errors (25%), 1 "
                                 "quarantined | current 12 matches, 0 (0%), 0 | aborts past 10 "
                                 "points after 20 matches");
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"guard_waits_for_its_minimum_of_canary_matches",
         test_guard_waits_for_its_minimum_of_canary_matches},
        {"guard_aborts_on_an_error_rate_past_the_margin_and_says_why",
         test_guard_aborts_on_an_error_rate_past_the_margin_and_says_why},
        {"guard_compares_rates_not_counts", test_guard_compares_rates_not_counts},
        {"guard_aborts_on_quarantines_past_the_margin",
         test_guard_aborts_on_quarantines_past_the_margin},
        {"trial_line_shows_both_sides_and_the_guard",
         test_trial_line_shows_both_sides_and_the_guard},
        {NULL, NULL},
    };
    return dh_test_main("trial", cases);
}
