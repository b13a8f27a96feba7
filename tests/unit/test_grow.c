/*
 * test_grow.c: growing a heap array by doubling (common/dh_grow.c): the first size, the
 * doubling, the contents kept, and a size that would overflow refused with the array
 * left as it was. And the string copies into fixed buffers (common/dh_str.h): what
 * snprintf(dst, cap, "%s", src) and "%llu" would write, truncation included.
 */
#include "dh_grow.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_str.h"

#include "dh_test.h"

static void test_grow_starts_at_first_then_doubles(void)
{
    uint32_t *v = NULL;
    size_t cap = 0;
    CU_ASSERT_EQUAL(dh_grow(&v, &cap, 1, sizeof *v, 16), 0);
    CU_ASSERT_EQUAL(cap, 16);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    for (uint32_t i = 0; i < 16; i++)
        v[i] = i * 7;
    uint32_t *before = v;
    CU_ASSERT_EQUAL(dh_grow(&v, &cap, 16, sizeof *v, 16), 0); /* fits: untouched */
    CU_ASSERT_PTR_EQUAL(v, before);
    CU_ASSERT_EQUAL(dh_grow(&v, &cap, 17, sizeof *v, 16), 0);
    CU_ASSERT_EQUAL(cap, 32);
    CU_ASSERT_EQUAL(dh_grow(&v, &cap, 100, sizeof *v, 16), 0);
    CU_ASSERT_EQUAL(cap, 128);
    for (uint32_t i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(v[i], i * 7);
    free(v);
}

static void test_grow_refuses_an_overflowing_size(void)
{
    char *p = NULL;
    size_t cap = 0;
    CU_ASSERT_EQUAL(dh_grow(&p, &cap, 10, 1, 8), 0);
    char *before = p;
    CU_ASSERT_EQUAL(dh_grow(&p, &cap, SIZE_MAX, 1, 8), -1);
    CU_ASSERT_EQUAL(dh_grow(&p, &cap, SIZE_MAX / 4, 8, 8), -1);
    CU_ASSERT_PTR_EQUAL(p, before);
    CU_ASSERT_EQUAL(cap, 16);
    free(p);
}

static void test_str_copy_and_add_write_what_snprintf_writes(void)
{
    char got[8], want[8];
    const char *texts[] = {"", "abc", "1234567", "12345678", "a much longer text"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        size_t n = dh_str_copy(got, sizeof got, texts[i]);
        snprintf(want, sizeof want, "%s", texts[i]);
        CU_ASSERT_STRING_EQUAL(got, want);
        CU_ASSERT_EQUAL(n, strlen(want));
    }
    CU_ASSERT_EQUAL(dh_str_copy(got, sizeof got, NULL), 0);
    CU_ASSERT_STRING_EQUAL(got, "");
    char key[16];
    size_t at = 0;
    dh_str_add_uint(key, sizeof key, &at, 0);
    dh_str_add(key, sizeof key, &at, ":");
    dh_str_add_uint(key, sizeof key, &at, 18446744073709551615ULL); /* truncated */
    CU_ASSERT_STRING_EQUAL(key, "0:1844674407370");
    CU_ASSERT_EQUAL(at, 15);
    dh_str_add(key, sizeof key, &at, "more"); /* full: nothing */
    CU_ASSERT_STRING_EQUAL(key, "0:1844674407370");
    at = 0;
    dh_str_add_uint(key, sizeof key, &at, 4096);
    CU_ASSERT_STRING_EQUAL(key, "4096");
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"grow_starts_at_first_then_doubles", test_grow_starts_at_first_then_doubles},
        {"grow_refuses_an_overflowing_size", test_grow_refuses_an_overflowing_size},
        {"str_copy_and_add_write_what_snprintf_writes",
         test_str_copy_and_add_write_what_snprintf_writes},
        {NULL, NULL},
    };
    return dh_test_main("grow", cases);
}
