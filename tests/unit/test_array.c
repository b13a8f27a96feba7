/*
 * test_array.c: room in a growable array (common/dh_array.c): nothing allocated for no
 * room, the first size, doubling as often as it takes, the array kept while the room
 * suffices, and a size that would overflow refused with the array left as it was.
 */
#include "dh_array.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "dh_test.h"

static void test_array_starts_at_the_first_size_then_doubles(void)
{
    static const struct {
        size_t need, cap;
        bool moves; /* may the array move */
    } steps[] = {
        {0, 0, false}, {1, 8, true},     {8, 8, false},
        {9, 16, true}, {100, 128, true}, {3, 128, false},
    };
    int *v = NULL;
    size_t cap = 0, filled = 0;
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        int *before = v;
        CU_ASSERT_EQUAL_FATAL(dh_array_reserve((void **)&v, &cap, steps[i].need, sizeof *v, 8), 0);
        CU_ASSERT_EQUAL(cap, steps[i].cap);
        if (!steps[i].moves)
            CU_ASSERT_PTR_EQUAL(v, before);
        for (size_t k = 0; k < filled; k++) /* what was there is still there */
            CU_ASSERT_EQUAL(v[k], (int)k);
        for (; filled < steps[i].need; filled++)
            v[filled] = (int)filled;
    }
    free(v);
}

static void test_array_refuses_a_size_that_overflows_and_keeps_the_array(void)
{
    char *v = NULL;
    size_t cap = 0;
    CU_ASSERT_EQUAL_FATAL(dh_array_reserve((void **)&v, &cap, 2, 16, 2), 0);
    char *before = v;
    CU_ASSERT_EQUAL(dh_array_reserve((void **)&v, &cap, SIZE_MAX / 8, 16, 2), -1);
    CU_ASSERT_PTR_EQUAL(v, before);
    CU_ASSERT_EQUAL(cap, 2);
    CU_ASSERT_EQUAL(dh_array_reserve((void **)&v, &cap, SIZE_MAX, 2, 2), -1);
    CU_ASSERT_PTR_EQUAL(v, before);
    CU_ASSERT_EQUAL(cap, 2);
    free(v);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"array_starts_at_the_first_size_then_doubles",
         test_array_starts_at_the_first_size_then_doubles},
        {"array_refuses_a_size_that_overflows_and_keeps_the_array",
         test_array_refuses_a_size_that_overflows_and_keeps_the_array},
        {NULL, NULL},
    };
    return dh_test_main("array", cases);
}
