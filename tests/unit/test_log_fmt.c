/*
 * test_log_fmt.c: the log's own printf (common/dh_log_fmt.c) writes what vsnprintf writes,
 * byte for byte, for the conversions it writes itself (strings, characters, integers of
 * every length, fixed-point floats), for those it leaves to vsnprintf, and for a text cut
 * at the buffer's end. Each case is formatted both ways and compared.
 */
#include "dh_log_fmt.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dh_test.h"

static int mismatches;

/* fmt formatted by dh_log_vformat and by vsnprintf into cap bytes: the same text, and the
 * length returned is the text's. */
static void __attribute__((format(printf, 2, 3))) same_at(size_t cap, const char *fmt, ...)
{
    char mine[512], libc[512];
    memset(mine, 'M', sizeof mine);
    memset(libc, 'L', sizeof libc);
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    size_t n = dh_log_vformat(mine, cap, fmt, ap);
    vsnprintf(libc, cap, fmt, ap2);
    va_end(ap2);
    va_end(ap);
    if (strcmp(mine, libc) || n != strlen(libc)) {
        if (mismatches++ < 10)
            fprintf(stderr, "format \"%s\" cap %zu: \"%s\" (%zu), vsnprintf \"%s\"\n", fmt, cap,
                    mine, n, libc);
    }
    CU_ASSERT_STRING_EQUAL(mine, libc);
    CU_ASSERT_EQUAL(n, strlen(libc));
}

#define same(...) same_at(512, __VA_ARGS__)

static void test_log_format_writes_what_vsnprintf_writes(void)
{
    same("plain text, no conversion");
    same("100%% sure, %s%%", "half");
    same("match %s: %s/%s %zu players -> %s (load %u+%u); spread %.2f, waited up to %llu ms "
         "(mean %llu), window %.2f",
         "m-7f3a", "dominion", "casual", (size_t)2, "wk-1", 213u, 3u, 0.25, 17ULL, 9ULL, 1.5);
    same("worker %s up bundle=%.12s, %.3s|%.0s|%.40s", "wk-1", "0123456789abcdef0123", "ab", "x",
         "short");
    same("%d %d %d %i %u %u", 0, -1, INT_MIN, INT_MAX, 0u, UINT_MAX);
    same("%ld %ld %lu %lld %lld %llu", LONG_MIN, LONG_MAX, ULONG_MAX, LLONG_MIN, LLONG_MAX,
         ULLONG_MAX);
    same("%zu %zd %zd %x %lx %llx %zx", SIZE_MAX, (ptrdiff_t)-5, PTRDIFF_MAX, 0xdeadbeefu, 0x1UL,
         ULLONG_MAX, (size_t)255);
    same("%c%c%c", 'a', ' ', '~');
    same("%s and %s", "", "caf\xc3\xa9\n\x1b");
    CU_ASSERT_EQUAL(mismatches, 0);
}

/* A fixed-seed generator, so the values are the same every run. */
static uint64_t fmt_rng = 0x9e3779b97f4a7c15ULL;
static double fmt_random(void)
{
    fmt_rng = fmt_rng * 6364136223846793005ULL + 1442695040888963407ULL;
    double unit = (double)(fmt_rng >> 11) / 9007199254740992.0;
    int scale = (int)(fmt_rng >> 3 & 15) - 6; /* 1e-6 .. 1e9 */
    return (fmt_rng & 1 ? -1 : 1) * unit * pow(10, scale);
}

static void test_log_format_rounds_floats_as_printf_does(void)
{
    for (int i = 0; i < 20000; i++) {
        double x = fmt_random();
        same("%.2f %.0f %.1f %.3f %f %.6f", x, x, x, x, x, x);
    }
    /* halfway in decimal: printf rounds the double's exact value (0.125 is a tie, to even;
     * 0.005 is just below, 2.675 just below) */
    static const double ties[] = {0.125,   0.375,  0.5,    1.5,    2.5,    0.005, 2.675,
                                  1.005,   -0.125, -2.5,   1e-300, 0.0049, 0.995, 999.995,
                                  9.995e8, 1e9,    4.2e12, -0.0,   0.0,    -1e-9};
    for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++)
        same("%.2f|%.0f|%.1f|%.3f|%f", ties[i], ties[i], ties[i], ties[i], ties[i]);
    same("%.2f %.2f %.2f %.2f", NAN, -NAN, INFINITY, -INFINITY);
    same("%.7f %.12f", 0.1234567891, 2.5);
    CU_ASSERT_EQUAL(mismatches, 0);
}

static void test_log_format_leaves_other_conversions_to_vsnprintf(void)
{
    const char *volatile none = NULL;
    int width = 7;
    same("%5d|%-5d|%05u|%+d|% d", 42, 42, 42u, 42, 42);
    same("%p %g %e %lf %hd %hhu %jd", (void *)&width, 0.1, 2.5, 1.0, (short)-3, (unsigned char)250,
         (intmax_t)-9);
    same("%*d|%.*s|%-8s|%8s|%#x", width, 3, 2, "abcdef", "left", "right", 255u);
    same("null %s and %.3s", none, none);
    same("%s then %5.1f", "fast part", 3.25);
    CU_ASSERT_EQUAL(mismatches, 0);
}

static void test_log_format_cuts_a_long_text_as_vsnprintf_does(void)
{
    static const size_t caps[] = {1, 2, 5, 9, 10, 11, 17, 23, 40};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        same_at(caps[i], "match %s: %zu players, spread %.2f, %d%%", "m-0123456789", (size_t)12,
                -3.14159, -77);
        same_at(caps[i], "%llu|%x|%c|%.5s|%5d", ULLONG_MAX, 0xabcdefu, 'z', "truncated", 42);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"log_format_writes_what_vsnprintf_writes", test_log_format_writes_what_vsnprintf_writes},
        {"log_format_rounds_floats_as_printf_does", test_log_format_rounds_floats_as_printf_does},
        {"log_format_leaves_other_conversions_to_vsnprintf",
         test_log_format_leaves_other_conversions_to_vsnprintf},
        {"log_format_cuts_a_long_text_as_vsnprintf_does",
         test_log_format_cuts_a_long_text_as_vsnprintf_does},
        {NULL, NULL},
    };
    return dh_test_main("log_fmt", cases);
}
