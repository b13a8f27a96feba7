/*
 * test_matchmaker_matching.c: who plays whom (matchmaker/data/queue_form.c): windows that
 * widen with the wait and stop at their maximum, the nearest rating first, fuller
 * matches first on a flexible line, parties kept together, a leave that removes exactly
 * its ticket, and a structure whose invariants hold through churn and that never seats
 * a ticket twice. The line structure is pure data: the tests drive it with their clock.
 */
#include "queue.h"

#include <stdlib.h>

#include "dh_test.h"

#define T0 1000000ULL /* the wall clock at which the tests' tickets join */

static queue_key key_of(uint32_t players)
{
    queue_key k;
    CU_ASSERT_EQUAL_FATAL(queue_key_init(&k, "dominion", "ranked", players), QUEUE_OK);
    return k;
}

static queue_ticket rated(const char *pid, double mu, uint64_t since)
{
    queue_ticket t;
    CU_ASSERT_EQUAL_FATAL(queue_ticket_init(&t, pid, pid, "gw-1", 1, since), QUEUE_OK);
    t.mu = mu;
    static uint64_t seq;
    t.seq = ++seq;
    return t;
}

static void join(queue_set *s, const queue_key *k, const char *pid, double mu, uint64_t since)
{
    queue_ticket t = rated(pid, mu, since);
    CU_ASSERT_EQUAL_FATAL(queue_join(s, k, &t), QUEUE_OK);
}

/* Window 2, +1 per second, at most max; seats min..max, full_wait_ms. */
static queue_rules rules(uint32_t min, uint32_t max, double wmax, uint32_t full_wait_ms)
{
    return (queue_rules){.min_players = min,
                         .max_players = max,
                         .window_initial = 2,
                         .window_per_s = 1,
                         .window_max = wmax,
                         .full_wait_ms = full_wait_ms};
}

/* One full pass at now: the first match it forms into out (false: none). */
static bool form_at(queue_set *s, const queue_rules *r, uint64_t now, queue_ticket *out,
                    queue_formed *f)
{
    queue_pass_begin(s, 0, true);
    return queue_form(s, 0, r, now, out, f);
}

static void check_invariants(const queue_set *s)
{
    char why[256];
    bool ok = queue_check(s, why, sizeof why);
    if (!ok)
        fprintf(stderr, "queue_check: %s\n", why);
    CU_ASSERT_TRUE(ok);
}

static void test_matching_window_widens_with_the_wait(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(2);
    queue_rules r = rules(2, 2, 50, 0);
    join(s, &k, "low", 20, T0);
    join(s, &k, "high", 30, T0);
    queue_ticket out[2];
    queue_formed f;
    CU_ASSERT_DOUBLE_EQUAL(queue_window(&r, 0), 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(queue_window(&r, 7000), 9.0, 1e-9);
    CU_ASSERT_FALSE(form_at(s, &r, T0, out, &f));
    CU_ASSERT_FALSE(form_at(s, &r, T0 + 7000, out, &f)); /* window 9 < 10 */
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 8000, out, &f));
    CU_ASSERT_EQUAL(f.n, 2);
    CU_ASSERT_DOUBLE_EQUAL(f.spread, 10.0, 1e-9);
    CU_ASSERT_EQUAL(f.max_wait_ms, 8000);
    CU_ASSERT_EQUAL(queue_total(s), 0);
    queue_set_free(s);
}

static void test_matching_window_stops_at_its_max(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(2);
    queue_rules r = rules(2, 2, 5, 0);
    join(s, &k, "low", 20, T0);
    join(s, &k, "high", 30, T0);
    queue_ticket out[2];
    queue_formed f;
    CU_ASSERT_DOUBLE_EQUAL(queue_window(&r, 3600000), 5.0, 1e-9);
    CU_ASSERT_FALSE(form_at(s, &r, T0 + 3600000, out, &f));
    CU_ASSERT_EQUAL(queue_total(s), 2);
    queue_set_free(s);
}

static void test_matching_takes_the_nearest_rating_in_the_window(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(2);
    queue_rules r = rules(2, 2, 50, 0);
    join(s, &k, "a", 25, T0);
    join(s, &k, "far", 26.9, T0 + 1);
    join(s, &k, "near", 25.3, T0 + 2);
    queue_ticket out[2];
    queue_formed f;
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 10, out, &f));
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "a");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "near");
    CU_ASSERT_TRUE(queue_has(s, "far"));
    queue_set_free(s);
}

static void test_matching_oldest_ticket_is_looked_at_first(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(2);
    queue_rules r = rules(2, 2, 50, 0);
    /* young ones close to each other; the old one waited long enough to reach them */
    join(s, &k, "old", 10, T0);
    join(s, &k, "y1", 20, T0 + 9000);
    join(s, &k, "y2", 20, T0 + 9000);
    queue_ticket out[2];
    queue_formed f;
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 10000, out, &f)); /* old's window: 12 */
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "old");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "y1");
    queue_set_free(s);
}

static void test_matching_prefers_full_matches_then_accepts_fewer(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(0);
    queue_rules r = rules(2, 4, 50, 10000);
    CU_ASSERT_EQUAL(queue_seats_wanted(&r, 0), 4);
    CU_ASSERT_EQUAL(queue_seats_wanted(&r, 10000), 3);
    CU_ASSERT_EQUAL(queue_seats_wanted(&r, 25000), 2);
    CU_ASSERT_EQUAL(queue_seats_wanted(&r, 999999), 2);
    join(s, &k, "a", 25, T0);
    join(s, &k, "b", 25, T0);
    join(s, &k, "c", 25, T0);
    queue_ticket out[4];
    queue_formed f;
    CU_ASSERT_FALSE(form_at(s, &r, T0 + 9999, out, &f)); /* waits for a fourth */
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 10000, out, &f));
    CU_ASSERT_EQUAL(f.n, 3);
    /* four at once: a full match straight away */
    join(s, &k, "d", 25, T0 + 20000);
    join(s, &k, "e", 25, T0 + 20000);
    join(s, &k, "f", 25, T0 + 20000);
    join(s, &k, "g", 25, T0 + 20000);
    join(s, &k, "h", 25, T0 + 20000);
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 20000, out, &f));
    CU_ASSERT_EQUAL(f.n, 4);
    /* the fifth alone: not even two */
    CU_ASSERT_FALSE(form_at(s, &r, T0 + 90000, out, &f));
    join(s, &k, "i", 25, T0 + 90000);
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 90000, out, &f)); /* h has waited: takes 2 */
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "h");
    CU_ASSERT_EQUAL(f.n, 2);
    check_invariants(s);
    queue_set_free(s);
}

static void test_matching_keeps_a_party_together(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(4);
    queue_rules r = rules(4, 4, 50, 0);
    join(s, &k, "s1", 25, T0);
    queue_ticket party[3] = {rated("m1", 24, T0 + 1), rated("m2", 26, T0 + 1),
                             rated("m3", 25, T0 + 1)};
    CU_ASSERT_EQUAL_FATAL(queue_join_party(s, &k, party, 3), QUEUE_OK);
    join(s, &k, "s2", 25, T0 + 2);
    const queue_ticket *members[4];
    CU_ASSERT_EQUAL(queue_party(s, "m2", members, 4), 3);
    CU_ASSERT_EQUAL(members[1]->seq, members[0]->seq);
    queue_ticket out[4];
    queue_formed f;
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 10, out, &f));
    CU_ASSERT_EQUAL(f.n, 4);
    CU_ASSERT_EQUAL(f.entries, 2);
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "s1");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "m1");
    CU_ASSERT_STRING_EQUAL(out[2].player_id, "m2");
    CU_ASSERT_STRING_EQUAL(out[3].player_id, "m3");
    CU_ASSERT_TRUE(queue_has(s, "s2")); /* s2 did not fit beside the party */
    /* a party of 3 cannot join a two-seat line; two parties of 2 never make 3 */
    queue_key k2 = key_of(2), k3 = key_of(3);
    queue_ticket big[3] = {rated("x1", 25, T0), rated("x2", 25, T0), rated("x3", 25, T0)};
    CU_ASSERT_EQUAL(queue_join_party(s, &k2, big, 3), QUEUE_BAD_PARTY);
    CU_ASSERT_FALSE(queue_has(s, "x1"));
    queue_ticket p1[2] = {rated("q1", 25, T0), rated("q2", 25, T0)};
    queue_ticket p2[2] = {rated("q3", 25, T0), rated("q4", 25, T0)};
    CU_ASSERT_EQUAL_FATAL(queue_join_party(s, &k3, p1, 2), QUEUE_OK);
    CU_ASSERT_EQUAL_FATAL(queue_join_party(s, &k3, p2, 2), QUEUE_OK);
    queue_rules r3 = rules(3, 3, 50, 0);
    queue_pass_begin(s, 2, true);
    CU_ASSERT_FALSE(queue_form(s, 2, &r3, T0 + 100000, out, &f));
    check_invariants(s);
    queue_set_free(s);
}

static void test_matching_leave_removes_exactly_that_ticket(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(4);
    char id[16];
    for (int i = 0; i < 100; i++) {
        snprintf(id, sizeof id, "p%d", i);
        join(s, &k, id, 20 + (i % 10), T0 + (uint64_t)i);
    }
    queue_ticket party[2] = {rated("m1", 25, T0), rated("m2", 25, T0)};
    CU_ASSERT_EQUAL_FATAL(queue_join_party(s, &k, party, 2), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_leave(s, "p42", "other-game"), 0);
    CU_ASSERT_EQUAL(queue_leave(s, "p42", "dominion"), 1);
    CU_ASSERT_EQUAL(queue_leave(s, "p42", NULL), 0);
    CU_ASSERT_FALSE(queue_has(s, "p42"));
    CU_ASSERT_EQUAL(queue_total(s), 101);
    for (int i = 0; i < 100; i++) {
        snprintf(id, sizeof id, "p%d", i);
        CU_ASSERT_EQUAL(queue_has(s, id), i != 42);
    }
    /* a member's leave takes the party's one ticket, both players, nobody else */
    CU_ASSERT_EQUAL(queue_leave(s, "m2", ""), 2);
    CU_ASSERT_FALSE(queue_has(s, "m1"));
    CU_ASSERT_EQUAL(queue_total(s), 99);
    check_invariants(s);
    queue_set_free(s);
}

static void test_matching_away_ticket_is_passed_over_until_back(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key_of(2);
    queue_rules r = rules(2, 2, 50, 0);
    join(s, &k, "a", 25, T0);
    join(s, &k, "b", 25, T0);
    CU_ASSERT_TRUE(queue_away(s, "a", T0 + 5));
    CU_ASSERT_EQUAL(queue_line_ready(s, 0), 1);
    queue_ticket out[2];
    queue_formed f;
    CU_ASSERT_FALSE(form_at(s, &r, T0 + 10, out, &f));
    CU_ASSERT_TRUE(queue_back(s, "a", "gw-2"));
    CU_ASSERT_TRUE_FATAL(form_at(s, &r, T0 + 20, out, &f));
    CU_ASSERT_STRING_EQUAL(out[0].gateway, "gw-2");
    queue_set_free(s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"matching_window_widens_with_the_wait", test_matching_window_widens_with_the_wait},
        {"matching_window_stops_at_its_max", test_matching_window_stops_at_its_max},
        {"matching_takes_the_nearest_rating_in_the_window",
         test_matching_takes_the_nearest_rating_in_the_window},
        {"matching_oldest_ticket_is_looked_at_first",
         test_matching_oldest_ticket_is_looked_at_first},
        {"matching_prefers_full_matches_then_accepts_fewer",
         test_matching_prefers_full_matches_then_accepts_fewer},
        {"matching_keeps_a_party_together", test_matching_keeps_a_party_together},
        {"matching_leave_removes_exactly_that_ticket",
         test_matching_leave_removes_exactly_that_ticket},
        {"matching_away_ticket_is_passed_over_until_back",
         test_matching_away_ticket_is_passed_over_until_back},
        {NULL, NULL},
    };
    return dh_test_main("matching", cases);
}
