/*
 * test_random.c: common/dh_random.h, the one source of unpredictable bytes. It fills the
 * whole buffer, sizes above one getrandom(2) call included, and two draws differ.
 */
#include "dh_random.h"

#include <string.h>

#include "dh_test.h"

static void test_random_fills_every_byte_asked_for(void)
{
    /* A byte that stays 0 in all of 8 draws of 4 KiB has a chance of 2^-64 */
    static unsigned char seen[4096], buf[4096];
    for (int i = 0; i < 8; i++) {
        CU_ASSERT_EQUAL_FATAL(dh_random_bytes(buf, sizeof buf), 0);
        for (size_t k = 0; k < sizeof buf; k++)
            seen[k] |= buf[k];
    }
    size_t zero = 0;
    for (size_t k = 0; k < sizeof seen; k++)
        zero += seen[k] == 0;
    CU_ASSERT_EQUAL(zero, 0);
}

static void test_random_two_draws_differ(void)
{
    uint64_t a = dh_random_u64(), b = dh_random_u64();
    CU_ASSERT_NOT_EQUAL(a, b);
    unsigned char x[32], y[32];
    CU_ASSERT_EQUAL(dh_random_bytes(x, sizeof x), 0);
    CU_ASSERT_EQUAL(dh_random_bytes(y, sizeof y), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(x, y, sizeof x), 0);
}

static void test_random_zero_bytes_is_a_no_op(void)
{
    CU_ASSERT_EQUAL(dh_random_bytes(NULL, 0), 0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"random_fills_every_byte_asked_for", test_random_fills_every_byte_asked_for},
        {"random_two_draws_differ", test_random_two_draws_differ},
        {"random_zero_bytes_is_a_no_op", test_random_zero_bytes_is_a_no_op},
        {NULL, NULL},
    };
    return dh_test_main("random", cases);
}
