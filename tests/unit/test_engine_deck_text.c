/*
 * test_engine_deck_text.c: the deck kit's event texts (engine/engine_deck.c): a number
 * written into a log line is what "%lld" writes, negative and extreme values included,
 * and a text cut at its room as before. It includes engine_deck.h, the kit's private
 * header, for engine_deck_text.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "engine_deck.h"

static void test_deck_text_int_writes_what_lld_writes(void)
{
    static const int64_t values[] = {0,
                                     1,
                                     -1,
                                     9,
                                     10,
                                     -10,
                                     99,
                                     100,
                                     -100,
                                     123456789,
                                     1000000000000LL,
                                     INT64_MAX,
                                     INT64_MIN,
                                     INT64_MIN + 1,
                                     -9223372036854775807LL};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        engine_deck_text t = {.n = 0};
        engine_deck_text_str(&t, "buys ");
        engine_deck_text_int(&t, values[i]);
        char want[64];
        int n = snprintf(want, sizeof want, "buys %lld", (long long)values[i]);
        CU_ASSERT_EQUAL(t.n, (size_t)n);
        CU_ASSERT_EQUAL(memcmp(t.s, want, (size_t)n), 0);
    }
}

static void test_deck_text_int_is_cut_at_the_text_room(void)
{
    engine_deck_text t = {.n = 0};
    memset(t.s, 'x', sizeof t.s);
    t.n = sizeof t.s - 3;
    engine_deck_text_int(&t, -12345);
    CU_ASSERT_EQUAL(t.n, sizeof t.s);
    CU_ASSERT_EQUAL(memcmp(t.s + sizeof t.s - 3, "-12", 3), 0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"deck_text_int_writes_what_lld_writes", test_deck_text_int_writes_what_lld_writes},
        {"deck_text_int_is_cut_at_the_text_room", test_deck_text_int_is_cut_at_the_text_room},
        {NULL, NULL},
    };
    return dh_test_main("engine_deck_text", cases);
}
