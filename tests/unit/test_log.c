/*
 * test_log.c: rate-limited log lines (common/dh_log.c, dh_log_every): one line per
 * interval per call site, the count of the lines left out said on the next one printed,
 * and each call site limited on its own; and every line's text escaped, so that a client's
 * string (a queue mode with a newline) cannot forge a line. stderr is captured in a
 * temporary file.
 */
#include "dh_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dh_test.h"

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
    dh_test_capture_stderr(log_flood, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "WARN test: accept failed: too many open files\n"));
    CU_ASSERT_EQUAL(limit_a.suppressed, 999);
}

static void test_log_every_says_how_many_were_suppressed(void)
{
    static char out[4096];
    dh_test_capture_stderr(log_after_interval, out, sizeof out);
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
    dh_test_capture_stderr(log_two_sites, out, sizeof out);
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
    dh_test_capture_stderr(log_macro_twice, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "from the macro 0\n"));
}

static void log_forgery(void)
{
    dh_info("queue join p-1 (ann) dominion/%s/2",
            "casual\n2026-11-25T10:00:00.000Z ERROR matchmaker: forged\r\x1b[31m\x01\x7f\t");
    dh_log_every(&limit_a, 0, DH_LOG_WARN, "mode %s", "a\nb");
}

static void test_log_escapes_control_characters(void)
{
    static char out[4096];
    memset(&limit_a, 0, sizeof limit_a);
    dh_test_capture_stderr(log_forgery, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 2);
    CU_ASSERT_PTR_NULL(strstr(out, "\n2026-11-25T10:00:00.000Z ERROR"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out,
                                  "INFO test: queue join p-1 (ann) dominion/casual\\n2026-11-25T"
                                  "10:00:00.000Z ERROR matchmaker: forged\\r\\x1b[31m\\x01"
                                  "\\x7f\\t/2\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "WARN test: mode a\\nb\n"));
    CU_ASSERT_PTR_NULL(strchr(out, '\r'));
    CU_ASSERT_PTR_NULL(strchr(out, 0x1b));
}

static void log_long_controls(void)
{
    static char text[3000];
    memset(text, '\n', sizeof text - 1);
    dh_info("%s", text);
}

/* A text of nothing but control bytes grows fourfold when escaped: cut, not overflowed. */
static void test_log_escaped_line_is_bounded(void)
{
    static char out[1 << 14];
    dh_test_capture_stderr(log_long_controls, out, sizeof out);
    CU_ASSERT_EQUAL(log_lines(out), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\\n\\n...\n"));
    CU_ASSERT(strlen(out) < 2048 + 128);
}

static void log_one_line(void)
{
    dh_info("stamped %d", 1);
}

/* "2026-11-22T10:00:00.123Z INFO test: stamped 1": the date and time of day are formatted
 * once a second (dh_log.c's log_stamp), and each line's must still be the time it went out,
 * UTC, read before and after the line. */
static void test_log_line_starts_with_the_utc_time_to_the_millisecond(void)
{
    static char out[4096];
    for (int i = 0; i < 3; i++) {
        time_t before = time(NULL);
        dh_test_capture_stderr(log_one_line, out, sizeof out);
        time_t after = time(NULL);
        CU_ASSERT_EQUAL_FATAL(strlen(out), 24 + strlen(" INFO test: stamped 1\n"));
        CU_ASSERT_STRING_EQUAL(out + 24, " INFO test: stamped 1\n");
        CU_ASSERT_EQUAL(out[19], '.');
        CU_ASSERT_EQUAL(out[23], 'Z');
        for (int k = 20; k < 23; k++)
            CU_ASSERT(out[k] >= '0' && out[k] <= '9');
        char want[2][32];
        struct tm tm;
        strftime(want[0], sizeof want[0], "%Y-%m-%dT%H:%M:%S", gmtime_r(&before, &tm));
        strftime(want[1], sizeof want[1], "%Y-%m-%dT%H:%M:%S", gmtime_r(&after, &tm));
        CU_ASSERT(!strncmp(out, want[0], 19) || !strncmp(out, want[1], 19));
        if (i < 2)
            usleep(600 * 1000); /* the next second's line, from the stamp formatted again */
    }
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
        {"log_escapes_control_characters", test_log_escapes_control_characters},
        {"log_escaped_line_is_bounded", test_log_escaped_line_is_bounded},
        {"log_line_starts_with_the_utc_time_to_the_millisecond",
         test_log_line_starts_with_the_utc_time_to_the_millisecond},
        {NULL, NULL},
    };
    return dh_test_main("log", cases);
}
