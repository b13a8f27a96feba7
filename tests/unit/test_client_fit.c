/*
 * test_client_fit.c: `deckhand fit` (client/cmd_fit.c), the fit of an evaluation hint's
 * weights to a position log. On a log drawn from a known model (two players, outcomes
 * drawn from the logistic of known weights times the feature differences) it finds those
 * weights back and predicts the held-out games better than a coin; a malformed log is
 * refused with a message naming its line; `sim --positions` writes a log it reads.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dh_test.h"

/* Runs deckhand with args; its exit status, stdout and stderr into out. */
static int run(const char *args, char *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && %s/deckhand %s 2>&1", dh_test_path("."), DECKHAND_BIN_DIR,
             args);
    return dh_test_run(cmd, out, cap);
}

static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* A log of n positions of two players with two features each, outcome drawn from the
 * logistic of 1.0 * d1 - 0.5 * d2 (d: player 1's feature less player 2's). */
static void write_known_log(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    for (int i = 0; i < n; i++) {
        double a[2] = {4 * uniform(), 4 * uniform()}, b[2] = {4 * uniform(), 4 * uniform()};
        double z = 1.0 * (a[0] - b[0]) - 0.5 * (a[1] - b[1]);
        int won = uniform() < 1 / (1 + exp(-z));
        fprintf(f, "%d 1 0 %d %g %g\n%d 1 1 %d %g %g\n", i, won, a[0], a[1], i, !won, b[0], b[1]);
    }
    fclose(f);
}

static void test_fit_finds_the_weights_a_log_was_drawn_from(void)
{
    char path[] = "/tmp/dh-fit-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    write_known_log(path, 20000);
    static char out[4096], args[256];
    snprintf(args, sizeof args, "fit %s", path);
    CU_ASSERT_EQUAL(run(args, out, sizeof out), 0);
    printf("\n%s", out);
    const char *w = strstr(out, "weights = {");
    double w1 = 0, w2 = 0, fitted, held, coin;
    CU_ASSERT_FATAL(w != NULL && sscanf(w, "weights = { %lf, %lf }", &w1, &w2) == 2);
    CU_ASSERT(fabs(w1 - 1.0) < 0.08);
    CU_ASSERT(fabs(w2 + 0.5) < 0.08);
    const char *l = strstr(out, "log-loss fitted");
    CU_ASSERT_FATAL(l != NULL && sscanf(l, "log-loss fitted %lf held out %lf (a coin toss %lf)",
                                        &fitted, &held, &coin) == 3);
    CU_ASSERT(held < coin - 0.1);
    unlink(path);
}

static void test_fit_refuses_a_malformed_log_naming_the_line(void)
{
    char path[] = "/tmp/dh-fit-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    const char text[] = "0 1 0 1 2.5 3\n0 1 1 0 2.5\n";
    CU_ASSERT_EQUAL(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    static char out[4096], args[256];
    snprintf(args, sizeof args, "fit %s", path);
    CU_ASSERT_EQUAL(run(args, out, sizeof out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "line 2"));
    CU_ASSERT_PTR_NULL(strstr(out, "weights"));
    unlink(path);
}

static void test_sim_positions_write_a_log_fit_reads(void)
{
    char path[] = "/tmp/dh-fit-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    static char out[8192], args[512];
    snprintf(args, sizeof args,
             "sim --game dominion --games 40 --seed 3 --bots default,big_money --positions %s",
             path);
    CU_ASSERT_EQUAL(run(args, out, sizeof out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "positions logged: "));
    snprintf(args, sizeof args, "fit %s", path);
    CU_ASSERT_EQUAL(run(args, out, sizeof out), 0);
    printf("\n%s", out);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "features 6\n"));
    unlink(path);
}

static const dh_test_case cases[] = {
    {"test_fit_finds_the_weights_a_log_was_drawn_from",
     test_fit_finds_the_weights_a_log_was_drawn_from},
    {"test_fit_refuses_a_malformed_log_naming_the_line",
     test_fit_refuses_a_malformed_log_naming_the_line},
    {"test_sim_positions_write_a_log_fit_reads", test_sim_positions_write_a_log_fit_reads},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("client_fit", cases);
}
