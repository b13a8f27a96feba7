/*
 * test_matchmaker_matching_churn.c: the line structure under many random joins, leaves,
 * aways, backs, requeues and passes: its invariants hold throughout (queue_check), no
 * ticket is ever seated twice or lost, and the cost of joins and formations does not
 * grow with the line's length (the finding: every join and every formation
 * scanned the whole line).
 */
#include "queue.h"

#include <stdlib.h>
#include <time.h>

#include "dh_test.h"

#define T0 1000000ULL

static uint64_t churn_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static double churn_mu(uint64_t *x)
{
    return 10.0 + (double)(churn_rand(x) % 3000) / 100.0; /* 10 .. 40 */
}

static void churn_check(const queue_set *s)
{
    char why[256];
    bool ok = queue_check(s, why, sizeof why);
    if (!ok)
        fprintf(stderr, "queue_check: %s\n", why);
    CU_ASSERT_TRUE_FATAL(ok);
}

/* Player i's id. */
static const char *churn_id(char *buf, size_t cap, unsigned i)
{
    snprintf(buf, cap, "p%u", i);
    return buf;
}

static void test_matching_invariants_hold_through_churn(void)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "ranked", 0);
    queue_rules r = {2, 4, 2, 1, 20, 3000};
    uint64_t x = 88172645463325252ULL, now = T0;
    unsigned next = 0;
    char id[32];
    for (int op = 0; op < 20000; op++) {
        unsigned roll = (unsigned)(churn_rand(&x) % 100);
        unsigned who = next ? (unsigned)(churn_rand(&x) % next) : 0;
        now += churn_rand(&x) % 20;
        if (roll < 50) {
            size_t n = 1 + (churn_rand(&x) % 10 == 0) * (churn_rand(&x) % 3);
            queue_ticket t[3];
            for (size_t i = 0; i < n; i++) {
                queue_ticket_init(&t[i], churn_id(id, sizeof id, next++), "n", "gw", 1, now);
                t[i].mu = churn_mu(&x);
                t[i].seq = next;
            }
            CU_ASSERT_EQUAL(queue_join_party(s, &k, t, n), QUEUE_OK);
        } else if (roll < 60) {
            queue_leave(s, churn_id(id, sizeof id, who), NULL);
        } else if (roll < 70) {
            queue_away(s, churn_id(id, sizeof id, who), now);
        } else if (roll < 80) {
            queue_back(s, churn_id(id, sizeof id, who), NULL);
        } else {
            queue_ticket out[4];
            queue_formed f;
            queue_pass_begin(s, 0, roll < 90);
            if (queue_form(s, 0, &r, now, out, &f) && roll % 2)
                CU_ASSERT_EQUAL(queue_push_front(s, &k, out, f.n), QUEUE_OK);
        }
        if (op % 500 == 0)
            churn_check(s);
    }
    churn_check(s);
    queue_set_free(s);
}

static void test_matching_never_seats_a_ticket_twice(void)
{
    enum { N = 3000 };
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "ranked", 0);
    queue_rules r = {2, 4, 1, 0.5, 10, 2000};
    uint64_t x = 1234567ULL;
    char id[32];
    for (unsigned i = 0; i < N; i++) {
        queue_ticket t;
        queue_ticket_init(&t, churn_id(id, sizeof id, i), "n", "gw", 1, T0 + i);
        t.mu = churn_mu(&x);
        t.seq = i + 1;
        CU_ASSERT_EQUAL_FATAL(queue_join(s, &k, &t), QUEUE_OK);
    }
    unsigned char *seated = calloc(N, 1);
    size_t formed = 0;
    for (uint64_t now = T0 + N; now < T0 + N + 60000; now += 50) {
        queue_ticket out[4];
        queue_formed f;
        queue_pass_begin(s, 0, true);
        while (queue_form(s, 0, &r, now, out, &f)) {
            CU_ASSERT_TRUE(f.n >= 2 && f.n <= 4);
            for (size_t i = 0; i < f.n; i++) {
                unsigned p = (unsigned)atoi(out[i].player_id + 1);
                CU_ASSERT_EQUAL(seated[p], 0);
                seated[p] = 1;
                CU_ASSERT_FALSE(queue_has(s, out[i].player_id));
            }
            formed += f.n;
        }
    }
    CU_ASSERT_EQUAL(formed + queue_total(s), N);
    CU_ASSERT(queue_total(s) < 4); /* everyone plays, once windows reach 10 */
    churn_check(s);
    free(seated);
    queue_set_free(s);
}

/* Seconds per ticket to join n tickets and form them all in one pass. */
static double churn_cost(unsigned n)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "ranked", 2);
    queue_rules r = {2, 2, 2, 1, 50, 0};
    uint64_t x = 99ULL;
    char id[32];
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned i = 0; i < n; i++) {
        queue_ticket t;
        queue_ticket_init(&t, churn_id(id, sizeof id, i), "n", "gw", 1, T0);
        t.mu = churn_mu(&x);
        t.seq = i + 1;
        queue_join(s, &k, &t);
    }
    queue_ticket out[2];
    queue_formed f;
    queue_pass_begin(s, 0, true);
    while (queue_form(s, 0, &r, T0 + 1000, out, &f))
        ;
    clock_gettime(CLOCK_MONOTONIC, &b);
    CU_ASSERT(queue_total(s) < 20);
    queue_set_free(s);
    return ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9) / n;
}

static void test_matching_cost_per_ticket_does_not_grow_with_the_line(void)
{
    churn_cost(20000); /* warm up the allocator */
    double small = churn_cost(20000), big = churn_cost(200000);
    printf("\n  per ticket: %.2f us at 20k, %.2f us at 200k\n", small * 1e6, big * 1e6);
    /* a scan of the line per join or formation would make this ~10x */
    CU_ASSERT(big < small * 4);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"matching_invariants_hold_through_churn", test_matching_invariants_hold_through_churn},
        {"matching_never_seats_a_ticket_twice", test_matching_never_seats_a_ticket_twice},
        {"matching_cost_per_ticket_does_not_grow_with_the_line",
         test_matching_cost_per_ticket_does_not_grow_with_the_line},
        {NULL, NULL},
    };
    return dh_test_main("matching churn", cases);
}
