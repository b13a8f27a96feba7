/*
 * test_log.c: rate-limited log lines (common/dh_log.c, dh_log_every): one line per
 * interval per call site, the count of the lines left out said on the next one printed,
 * and each call site limited on its own. stderr is captured in a temporary file.
 */
#include "dh_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_test.h"

/* Run fn with stderr sent to a temporary file; its contents into out (NUL-terminated). */
static void log_capture(void (*fn)(void), char *out, size_t n)
{
    FILE *tmp = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(tmp);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t got = fread(out, 1, n - 1, tmp);
    out[got] = '\0';
    fclose(tmp);
}

static size_t log_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static dh_log_limit limit_a, limit_b;

static void log_flood(void)
{
    for (int i = 0; i < 1000; i++)
        dh_log_every(&limit_a, 60000, DH_LOG_WARN, "accept failed: %s", "too many open files");
}

static void log_after_interval(void)
{
    limit_a.next_ms = 0; /* as if the interval had passed */
    dh_log_every(&limit_a, 60000, DH_LOG_WARN, "accept failed: %s", "too many open files");
}

static void log_two_sites(void)
{
    for (int i = 0; i < 10; i++) {
        dh_log_every(&limit_a, 60000, DH_LOG_WARN, "site a");
        dh_log_every(&limit_b, 60000, DH_LOG_WARN, "site b");
    }
}

static void test_log_every_prints_one_line_per_interval(void)
{
    static char out[1 << 16];
    memset(&limit_a, 0, sizeof limit_a);
    log_capture(log_flood, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "WARN test: accept failed: too many open files\n"));
    CU_ASSERT_EQUAL(limit_a.suppressed, 999);
}

static void test_log_every_says_how_many_were_suppressed(void)
{
    static char out[4096];
    log_capture(log_after_interval, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(out, "accept failed: too many open files (999 more suppressed)\n"));
    CU_ASSERT_EQUAL(limit_a.suppressed, 0);
}

static void test_log_every_limits_each_site_on_its_own(void)
{
    static char out[4096];
    memset(&limit_a, 0, sizeof limit_a);
    memset(&limit_b, 0, sizeof limit_b);
    log_capture(log_two_sites, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "site a\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "site b\n"));
    CU_ASSERT_EQUAL(limit_a.suppressed, 9);
    CU_ASSERT_EQUAL(limit_b.suppressed, 9);
}

static void log_macro_twice(void)
{
    for (int i = 0; i < 5; i++)
        dh_warn_every(60000, "from the macro %d", i);
}

static void test_log_warn_every_keeps_a_state_per_call_site(void)
{
    static char out[4096];
    log_capture(log_macro_twice, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "from the macro 0\n"));
}

int main(void)
{
    dh_log_init("test");
    static const dh_test_case cases[] = {
        {"log_every_prints_one_line_per_interval", test_log_every_prints_one_line_per_interval},
        {"log_every_says_how_many_were_suppressed", test_log_every_says_how_many_were_suppressed},
        {"log_every_limits_each_site_on_its_own", test_log_every_limits_each_site_on_its_own},
        {"log_warn_every_keeps_a_state_per_call_site",
         test_log_warn_every_keeps_a_state_per_call_site},
        {NULL, NULL},
    };
    return dh_test_main("log", cases);
}
