/*
 * test_matchmaker_matching_mm.c: skill-based matching inside the matchmaker process
 * (the rig of rig_mm.h, memory only): a queue configured to prefer full matches seats
 * three after its wait, ratings from the rating source decide who plays whom, and every
 * match formed counts its spread and its players' waits in the histograms.
 */
#include <string.h>

#include "rig_mm.h"

/* Ratings by player id: p1 10, p2 40, p3 11, p4 41; nobody else is known (a guest). */
static bool fake_ratings(void *ctx, const char *player_id, const char *game, const char *mode,
                         double *mu, double *sigma)
{
    (void)game;
    (void)mode;
    (*(int *)ctx)++;
    static const struct {
        const char *id;
        double mu;
    } known[] = {{"p1", 10}, {"p2", 40}, {"p3", 11}, {"p4", 41}};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        if (!strcmp(known[i].id, player_id)) {
            *mu = known[i].mu;
            *sigma = 2;
            return true;
        }
    }
    return false;
}

static void test_mm_flexible_queue_waits_for_four_then_seats_three(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-flex", NULL, 1, 0);
    char err[256];
    CU_ASSERT_EQUAL_FATAL(
        settings_parse_line(&r.mm.settings, "dominion casual full_wait_ms=1000", err, sizeof err),
        0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "a", 1, 0, 10), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "b", 2, 0, 10), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "c", 3, 0, 10), 0);
    size_t line;
    CU_ASSERT_PTR_NOT_NULL_FATAL(queue_find(r.mm.queues, "a", &line));
    CU_ASSERT_EQUAL(queue_line_key(r.mm.queues, line)->players, 0);
    rig_mm_pump(&r, 900);
    Deckhand__Internal__Internal *none = rig_mm_next_start(&r, NULL);
    CU_ASSERT_PTR_NULL(none); /* still waiting for a fourth */
    if (none)
        deckhand__internal__internal__free_unpacked(none, NULL);
    rig_mm_pump(&r, 1010);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "a,b,c");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(dh_histogram_count(&r.mm.stats.match_spread), 1);
    CU_ASSERT_EQUAL(dh_histogram_count(&r.mm.stats.match_wait), 3);
    /* every guest has the default rating: spread 0, in the first bucket */
    CU_ASSERT_EQUAL(dh_histogram_cumulative(&r.mm.stats.match_spread, 0), 1);
    rig_mm_close(&r);
}

static void test_mm_named_player_count_keeps_its_own_line(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-fixed", NULL, 1, 0);
    char err[256];
    CU_ASSERT_EQUAL_FATAL(
        settings_parse_line(&r.mm.settings, "dominion casual full_wait_ms=1000", err, sizeof err),
        0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "a", 1, 2, 10), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "b", 2, 2, 10), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "a,b");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_mm_ratings_decide_who_plays_whom(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-rated", NULL, 1, 0);
    int asked = 0;
    r.mm.ratings = (rating_source){fake_ratings, &asked};
    rig_mm_join(r.gw, "p1", 1, 2);
    rig_mm_join(r.gw, "p2", 2, 2);
    rig_mm_join(r.gw, "p3", 3, 2);
    rig_mm_join(r.gw, "p4", 4, 2);
    rig_mm_join(r.gw, "guest", 5, 2);
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(asked, 5);
    CU_ASSERT_DOUBLE_EQUAL(queue_find(r.mm.queues, "guest", NULL)->mu, QUEUE_MU_DEFAULT, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(queue_find(r.mm.queues, "guest", NULL)->sigma, QUEUE_SIGMA_DEFAULT,
                           1e-9);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "p1,p3");
    deckhand__internal__internal__free_unpacked(m, NULL);
    m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "p2,p4");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "guest")); /* 25: nobody within its window yet */
    CU_ASSERT_EQUAL(dh_histogram_count(&r.mm.stats.match_spread), 2);
    CU_ASSERT_DOUBLE_EQUAL(r.mm.stats.match_spread.sum, 2.0, 1e-9);
    rig_mm_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_flexible_queue_waits_for_four_then_seats_three",
         test_mm_flexible_queue_waits_for_four_then_seats_three},
        {"mm_named_player_count_keeps_its_own_line", test_mm_named_player_count_keeps_its_own_line},
        {"mm_ratings_decide_who_plays_whom", test_mm_ratings_decide_who_plays_whom},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker matching", cases);
}
