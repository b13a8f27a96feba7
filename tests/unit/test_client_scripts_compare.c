/*
 * test_client_scripts_compare.c: `deckhand scripts compare` (client/scripts_compare.c),
 * the balance check a push can run (--simulate): the same bundle on both sides moves
 * nothing (every interval holds 0, no card is reported, the summary names no figure);
 * the same seeds give the same report; bad usage is refused with exit 2. The e2e test
 * test_liveops_traps.sh pins a real change (a card made cheaper, bought more).
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "dh_test.h"

/* Run deckhand with args; its exit status, stdout and stderr into out. */
static int run(const char *args, char *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && %s/deckhand %s 2>&1", dh_test_path("."), DECKHAND_BIN_DIR,
             args);
    return dh_test_run(cmd, out, cap);
}

static void test_compare_of_a_bundle_with_itself_moves_nothing(void)
{
    static char out[16384];
    CU_ASSERT_EQUAL(
        run("scripts compare scripts scripts --game dominion --games 40", out, sizeof out), 0);
    printf("\n%s", out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "compare dominion: 40 games per bundle, seed 1, 2 "
                                       "players, bots default (rotating)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  game length (turns) "));
    CU_ASSERT_PTR_NULL(strstr(out, " *\n"));
    CU_ASSERT_PTR_NULL(strstr(out, "  card "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nmoved: games=40 seed=1\n"));
}

static void test_compare_reports_the_same_on_the_same_seeds(void)
{
    static char a[16384], b[16384];
    const char *args = "scripts compare scripts scripts --game caveman --games 10 --seed 7 "
                       "--cards Mammoth";
    CU_ASSERT_EQUAL(run(args, a, sizeof a), 0);
    CU_ASSERT_EQUAL(run(args, b, sizeof b), 0);
    CU_ASSERT_STRING_EQUAL(a, b);
}

static void test_compare_refuses_bad_usage(void)
{
    char out[4096];
    CU_ASSERT_EQUAL(run("scripts compare scripts --game dominion", out, sizeof out), 2);
    CU_ASSERT_EQUAL(run("scripts compare scripts scripts", out, sizeof out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "--game is required"));
    CU_ASSERT_EQUAL(run("scripts compare scripts no/such/dir --game dominion", out, sizeof out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "no/such/dir does not load"));
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"compare_of_a_bundle_with_itself_moves_nothing",
         test_compare_of_a_bundle_with_itself_moves_nothing},
        {"compare_reports_the_same_on_the_same_seeds",
         test_compare_reports_the_same_on_the_same_seeds},
        {"compare_refuses_bad_usage", test_compare_refuses_bad_usage},
        {NULL, NULL},
    };
    return dh_test_main("client_scripts_compare", cases);
}
