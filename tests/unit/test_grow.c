/*
 * test_grow.c: growing a heap array by doubling (common/dh_grow.c): the first size, the
 * doubling, the contents kept, and a size that would overflow refused with the array
 * left as it was.
 */
#include "dh_grow.h"

#include <stdint.h>
#include <stdlib.h>

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

int main(void)
{
    static const dh_test_case cases[] = {
        {"grow_starts_at_first_then_doubles", test_grow_starts_at_first_then_doubles},
        {"grow_refuses_an_overflowing_size", test_grow_refuses_an_overflowing_size},
        {NULL, NULL},
    };
    return dh_test_main("grow", cases);
}
