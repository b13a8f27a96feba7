/*
 * test_client_track.c: what a client checks about a match's stream (dh_client_track.h):
 * event gaps ask for a resync, an accepted answer that disappears is LOST, and an answer
 * of unknown fate is repeated once, only from the View that answers a later Resync.
 */
#include <string.h>

#include "dh_client_track.h"
#include "dh_test.h"

static Deckhand__DecisionRequest decision(uint32_t seat, uint64_t id)
{
    Deckhand__DecisionRequest d = DECKHAND__DECISION_REQUEST__INIT;
    d.seat = seat;
    d.decision_id = id;
    return d;
}

static dh_track_verdict view(dh_track *t, uint64_t seq, const Deckhand__DecisionRequest *d)
{
    char why[160];
    return dh_track_state(t, true, seq, d, why, sizeof why);
}

static dh_track_verdict request(dh_track *t, uint64_t seq, const Deckhand__DecisionRequest *d)
{
    char why[160];
    return dh_track_state(t, false, seq, d, why, sizeof why);
}

/* The verdict was ANSWER, and the client sends its answer to decision id. */
static void sent(dh_track *t, dh_track_verdict verdict, uint64_t id)
{
    CU_ASSERT_EQUAL(verdict, DH_TRACK_ANSWER);
    dh_track_sent(t, id);
}

static void test_track_event_gap_after_view_asks_for_resync(void)
{
    dh_track t;
    dh_track_start(&t, 0);
    /* Before any View there is nothing to compare with. */
    CU_ASSERT_EQUAL(dh_track_event(&t, 5), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(view(&t, 5, NULL), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(dh_track_event(&t, 6), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(dh_track_event(&t, 6), DH_TRACK_NONE); /* a repeat */
    CU_ASSERT_EQUAL(dh_track_event(&t, 4), DH_TRACK_NONE); /* an old one */
    CU_ASSERT_EQUAL(dh_track_event(&t, 9), DH_TRACK_GAP);
    /* The resync's View sets the position again. */
    CU_ASSERT_EQUAL(view(&t, 12, NULL), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(dh_track_event(&t, 13), DH_TRACK_NONE);
}

static void test_track_view_older_than_seen_is_lost(void)
{
    dh_track t;
    char why[160] = "";
    dh_track_start(&t, 1);
    CU_ASSERT_EQUAL(view(&t, 3, NULL), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(dh_track_event(&t, 4), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(dh_track_event(&t, 5), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(view(&t, 5, NULL), DH_TRACK_NONE); /* the same point is fine */
    CU_ASSERT_EQUAL(dh_track_state(&t, true, 4, NULL, why, sizeof why), DH_TRACK_LOST);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "event_seq 4"));
}

static void test_track_accepted_decision_offered_again_is_lost(void)
{
    dh_track t;
    char why[160] = "";
    Deckhand__DecisionRequest d7 = decision(0, 7), d9 = decision(0, 9);
    dh_track_start(&t, 0);
    sent(&t, request(&t, 1, &d7), 7);
    dh_track_accepted(&t, 7);
    sent(&t, request(&t, 2, &d9), 9);
    CU_ASSERT_EQUAL(dh_track_state(&t, true, 2, &d7, why, sizeof why), DH_TRACK_LOST);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "decision 7"));
}

static void test_track_answered_decision_seen_again_is_not_answered_twice(void)
{
    dh_track t;
    Deckhand__DecisionRequest d4 = decision(2, 4), other = decision(1, 5);
    dh_track_start(&t, 2);
    sent(&t, view(&t, 1, &d4), 4);
    /* The DecisionRequest that follows the View, before the Reply. */
    CU_ASSERT_EQUAL(request(&t, 1, &d4), DH_TRACK_NONE);
    /* Another seat's decision is none of ours. */
    CU_ASSERT_EQUAL(request(&t, 2, &other), DH_TRACK_NONE);
}

static void test_track_refused_answer_repeats_only_from_the_resync_view(void)
{
    dh_track t;
    Deckhand__DecisionRequest d6 = decision(0, 6);
    dh_track_start(&t, 0);
    sent(&t, view(&t, 2, &d6), 6);
    dh_track_refused(&t);
    /* Messages still in flight from before the answer do not make it repeat... */
    CU_ASSERT_EQUAL(request(&t, 2, &d6), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(view(&t, 2, &d6), DH_TRACK_NONE);
    /* ...the View after the Resync's Reply does, once. */
    dh_track_resynced(&t);
    sent(&t, view(&t, 2, &d6), 6);
    CU_ASSERT_EQUAL(view(&t, 2, &d6), DH_TRACK_NONE);
}

static void test_track_refused_answer_that_went_in_moves_on(void)
{
    dh_track t;
    Deckhand__DecisionRequest d6 = decision(0, 6), d8 = decision(0, 8);
    dh_track_start(&t, 0);
    sent(&t, view(&t, 2, &d6), 6);
    dh_track_refused(&t);
    dh_track_resynced(&t);
    /* The resync's View is past decision 6 (another seat decides): no repeat is left. */
    CU_ASSERT_EQUAL(view(&t, 4, NULL), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(view(&t, 4, &d6), DH_TRACK_NONE);
    CU_ASSERT_EQUAL(request(&t, 5, &d8), DH_TRACK_ANSWER);
}

static void test_track_new_match_forgets_the_old_one(void)
{
    dh_track t;
    Deckhand__DecisionRequest d1 = decision(1, 1);
    dh_track_start(&t, 0);
    CU_ASSERT_EQUAL(view(&t, 40, NULL), DH_TRACK_NONE);
    dh_track_sent(&t, 30);
    dh_track_accepted(&t, 30);
    dh_track_start(&t, 1);
    CU_ASSERT_EQUAL(view(&t, 1, &d1), DH_TRACK_ANSWER);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"track_event_gap_after_view_asks_for_resync",
         test_track_event_gap_after_view_asks_for_resync},
        {"track_view_older_than_seen_is_lost", test_track_view_older_than_seen_is_lost},
        {"track_accepted_decision_offered_again_is_lost",
         test_track_accepted_decision_offered_again_is_lost},
        {"track_answered_decision_seen_again_is_not_answered_twice",
         test_track_answered_decision_seen_again_is_not_answered_twice},
        {"track_refused_answer_repeats_only_from_the_resync_view",
         test_track_refused_answer_repeats_only_from_the_resync_view},
        {"track_refused_answer_that_went_in_moves_on",
         test_track_refused_answer_that_went_in_moves_on},
        {"track_new_match_forgets_the_old_one", test_track_new_match_forgets_the_old_one},
        {NULL, NULL},
    };
    return dh_test_main("client_track", cases);
}
