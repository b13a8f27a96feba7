/*
 * test_array.c: room in a growable array (common/dh_array.c): the first size, doubling,
 * no reallocation while the room suffices, and a size that would overflow refused with
 * the array left as it was.
 */
#include "dh_array.h"

#include <stdint.h>
#include <stdlib.h>

#include "dh_test.h"

static void test_array_starts_at_the_first_size_then_doubles(void)
{
    int *v = NULL;
    size_t cap = 0;
    CU_ASSERT_EQUAL_FATAL(dh_array_reserve((void **)&v, &cap, 1, sizeof *v, 8), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(cap, 8);
    for (int i = 0; i < 8; i++)
        v[i] = i;
    CU_ASSERT_EQUAL_FATAL(dh_array_reserve((void **)&v, &cap, 9, sizeof *v, 8), 0);
    CU_ASSERT_EQUAL(cap, 16);
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(v[i], i);
    /* far past the capacity: doubled as often as it takes */
    CU_ASSERT_EQUAL_FATAL(dh_array_reserve((void **)&v, &cap, 100, sizeof *v, 8), 0);
    CU_ASSERT_EQUAL(cap, 128);
    CU_ASSERT_EQUAL(v[7], 7);
    free(v);
}

static void test_array_keeps_the_array_while_the_room_suffices(void)
{
    long *v = NULL;
    size_t cap = 0;
    CU_ASSERT_EQUAL(dh_array_reserve((void **)&v, &cap, 0, sizeof *v, 4), 0);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_EQUAL(cap, 0);
    CU_ASSERT_EQUAL_FATAL(dh_array_reserve((void **)&v, &cap, 3, sizeof *v, 4), 0);
    long *before = v;
    CU_ASSERT_EQUAL(dh_array_reserve((void **)&v, &cap, 4, sizeof *v, 4), 0);
    CU_ASSERT_PTR_EQUAL(v, before);
    CU_ASSERT_EQUAL(cap, 4);
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
        {"array_keeps_the_array_while_the_room_suffices",
         test_array_keeps_the_array_while_the_room_suffices},
        {"array_refuses_a_size_that_overflows_and_keeps_the_array",
         test_array_refuses_a_size_that_overflows_and_keeps_the_array},
        {NULL, NULL},
    };
    return dh_test_main("array", cases);
}
