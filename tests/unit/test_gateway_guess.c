/*
 * test_gateway_guess.c: guessing party and lobby codes is throttled (issue 24, item 4;
 * gateway/guess.h). A thousand wrong codes from one address at the rate 20 connections
 * reached (900 a second) are not all let through: past the first few each waits, the
 * wait doubles with every wrong code up to an hour, and the counters say so; another
 * address and another player are not held up, a code that was found is not counted, an
 * IPv6 host counts by its /64, a key is forgotten a day after its last wrong code, new keys
 * share one count once the table is full, and at the allowed rate the codes
 * (matchmaker/data/codes.h) stay out of reach.
 */
#include <math.h>
#include <stdio.h>

#include "codes.h"
#include "dh_test.h"
#include "guess.h"

/* One wrong code from addr/player at now, if it may go: true when it went. */
static bool wrong(guess_table *t, const char *addr, const char *player, uint64_t now)
{
    if (guess_try(t, addr, player, now))
        return false;
    guess_answered(t, addr, player, true);
    return true;
}

static void test_gateway_guess_a_thousand_wrong_codes_are_not_all_let_through(void)
{
    guess_table t;
    CU_ASSERT_EQUAL_FATAL(guess_init(&t), 0);
    int went = 0;
    for (uint64_t i = 0; i < 1000; i++) /* 900 a second: 1,000 in 1.11 s */
        went += wrong(&t, "203.0.113.7", "g-guesser", 1000 + i * 10 / 9);
    /* the free ones, then one after the first second's wait */
    CU_ASSERT_EQUAL(went, GUESS_FREE + 1);
    CU_ASSERT_EQUAL((uint64_t)t.failed, (uint64_t)went);
    CU_ASSERT_EQUAL((uint64_t)t.refused, (uint64_t)(1000 - went));
    guess_free(&t);
}

static void test_gateway_guess_the_wait_doubles_up_to_an_hour(void)
{
    guess_table t;
    CU_ASSERT_EQUAL_FATAL(guess_init(&t), 0);
    uint64_t now = 0;
    for (int i = 0; i < GUESS_FREE; i++)
        CU_ASSERT_TRUE(wrong(&t, "198.51.100.1", "g-p", now));
    uint64_t expect = GUESS_BASE_MS;
    for (int i = 0; i < 20; i++) {
        uint64_t wait = guess_try(&t, "198.51.100.1", "g-p", now);
        CU_ASSERT_EQUAL(wait, expect);
        now += wait - 1;
        CU_ASSERT_EQUAL(guess_try(&t, "198.51.100.1", "g-p", now), 1); /* not yet */
        now += 1;
        CU_ASSERT_TRUE(wrong(&t, "198.51.100.1", "g-p", now));
        expect = expect * 2 < GUESS_MAX_MS ? expect * 2 : GUESS_MAX_MS;
    }
    CU_ASSERT_EQUAL(guess_try(&t, "198.51.100.1", "g-p", now), GUESS_MAX_MS);
    /* forgotten a day after the last wrong code: free again */
    guess_tick(&t, now + GUESS_FORGET_MS - 1);
    CU_ASSERT_EQUAL(t.keys.count, 2);        /* the address and the player */
    now += GUESS_FORGET_MS + GUESS_SWEEP_MS; /* the next sweep */
    guess_tick(&t, now);
    CU_ASSERT_EQUAL(t.keys.count, 0);
    CU_ASSERT_EQUAL(guess_try(&t, "198.51.100.1", "g-p", now), 0);
    guess_free(&t);
}

static void test_gateway_guess_holds_up_only_the_guessing_address_and_player(void)
{
    guess_table t;
    CU_ASSERT_EQUAL_FATAL(guess_init(&t), 0);
    for (int i = 0; i < GUESS_FREE; i++)
        CU_ASSERT_TRUE(wrong(&t, "192.0.2.1", "g-mallory", 10));
    CU_ASSERT_NOT_EQUAL(guess_try(&t, "192.0.2.1", "g-mallory", 20), 0);
    CU_ASSERT_NOT_EQUAL(guess_try(&t, "192.0.2.1", "g-fresh-guest", 20), 0); /* the address */
    CU_ASSERT_NOT_EQUAL(guess_try(&t, "192.0.2.99", "g-mallory", 20), 0);    /* the player */
    uint64_t refused = (uint64_t)t.refused;
    CU_ASSERT_EQUAL(guess_try(&t, "192.0.2.2", "g-alice", 20), 0); /* someone else: goes */
    guess_answered(&t, "192.0.2.2", "g-alice", false);             /* and finds the party */
    CU_ASSERT_EQUAL((uint64_t)t.refused, refused);
    /* a found code is taken back: alice may join as often as she likes */
    for (int i = 0; i < 50; i++) {
        CU_ASSERT_EQUAL(guess_try(&t, "192.0.2.2", "g-alice", 30 + (uint64_t)i), 0);
        guess_answered(&t, "192.0.2.2", "g-alice", false);
    }
    CU_ASSERT_EQUAL((uint64_t)t.failed, GUESS_FREE);
    guess_free(&t);
}

/* Joins sent together are counted as they go, not as their answers come back. */
static void test_gateway_guess_joins_in_flight_count_at_once(void)
{
    guess_table t;
    CU_ASSERT_EQUAL_FATAL(guess_init(&t), 0);
    int went = 0;
    for (int i = 0; i < 100; i++)
        went += guess_try(&t, "192.0.2.50", "g-pipe", 5) == 0;
    CU_ASSERT_EQUAL(went, GUESS_FREE);
    /* a player's own party joined between guesses takes back only that join */
    for (int i = 0; i < went; i++)
        guess_answered(&t, "192.0.2.50", "g-pipe", i > 0);
    CU_ASSERT_EQUAL(guess_try(&t, "192.0.2.50", "g-pipe", 5), 0);
    CU_ASSERT_NOT_EQUAL(guess_try(&t, "192.0.2.50", "g-pipe", 5), 0);
    guess_free(&t);
}

static void test_gateway_guess_an_ipv6_host_counts_by_its_slash_64(void)
{
    guess_table t;
    CU_ASSERT_EQUAL_FATAL(guess_init(&t), 0);
    char addr[64];
    for (int i = 0; i < GUESS_FREE; i++) {
        snprintf(addr, sizeof addr, "2001:db8:1:2::%x", i + 1);
        char player[16];
        snprintf(player, sizeof player, "g-%d", i);
        CU_ASSERT_TRUE(wrong(&t, addr, player, 0));
    }
    CU_ASSERT_NOT_EQUAL(guess_try(&t, "2001:db8:1:2:ffff::1", "g-new", 0), 0);
    CU_ASSERT_EQUAL(guess_try(&t, "2001:db8:1:3::1", "g-new", 0), 0); /* another /64 */
    guess_free(&t);
}

/* Past GUESS_KEYS_MAX keys the new ones share one count: a full table does not let new
 * addresses guess unthrottled. */
static void test_gateway_guess_a_full_table_shares_one_count(void)
{
    guess_table t;
    CU_ASSERT_EQUAL_FATAL(guess_init(&t), 0);
    char addr[32], player[32];
    for (int i = 0; t.keys.count < GUESS_KEYS_MAX; i++) {
        snprintf(addr, sizeof addr, "10.%d.%d.%d", i >> 16 & 255, i >> 8 & 255, i & 255);
        snprintf(player, sizeof player, "g-%d", i);
        guess_try(&t, addr, player, 0);
    }
    for (int i = 0; i < GUESS_FREE; i++) {
        snprintf(addr, sizeof addr, "172.16.0.%d", i);
        snprintf(player, sizeof player, "g-new-%d", i);
        CU_ASSERT_TRUE(wrong(&t, addr, player, 0));
    }
    CU_ASSERT_NOT_EQUAL(guess_try(&t, "172.16.1.1", "g-other", 0), 0);
    CU_ASSERT_EQUAL(t.keys.count, GUESS_KEYS_MAX + 1);
    guess_free(&t);
}

/* The codes outlast guessing at the allowed rate (docs/SECURITY.md): with 10,000 open
 * parties, a botnet of 10,000 addresses behind 4 gateways, each address allowed a wrong
 * code an hour once its first ones are spent, expects to wait more than a century. */
static void test_gateway_guess_codes_stay_out_of_reach(void)
{
    double codes = pow(31, CODES_LEN), open = 10000;
    double per_day = 10000.0 * 4 * (24.0 * 3600 * 1000 / (double)GUESS_MAX_MS);
    double days = codes / open / per_day;
    CU_ASSERT(days > 100 * 365);
    /* and even unthrottled, at the 900 a second 20 connections reached: over a year */
    CU_ASSERT(codes / open / 900 > 365.0 * 24 * 3600);
    printf("\n  10 chars of 31: %.3g codes; %.0f years at the throttled rate above\n", codes,
           days / 365);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_guess_a_thousand_wrong_codes_are_not_all_let_through",
         test_gateway_guess_a_thousand_wrong_codes_are_not_all_let_through},
        {"gateway_guess_the_wait_doubles_up_to_an_hour",
         test_gateway_guess_the_wait_doubles_up_to_an_hour},
        {"gateway_guess_holds_up_only_the_guessing_address_and_player",
         test_gateway_guess_holds_up_only_the_guessing_address_and_player},
        {"gateway_guess_joins_in_flight_count_at_once",
         test_gateway_guess_joins_in_flight_count_at_once},
        {"gateway_guess_an_ipv6_host_counts_by_its_slash_64",
         test_gateway_guess_an_ipv6_host_counts_by_its_slash_64},
        {"gateway_guess_a_full_table_shares_one_count",
         test_gateway_guess_a_full_table_shares_one_count},
        {"gateway_guess_codes_stay_out_of_reach", test_gateway_guess_codes_stay_out_of_reach},
        {NULL, NULL},
    };
    return dh_test_main("gateway_guess", cases);
}
