/*
 * test_worker_rating_job.c: which finished matches the worker hands to the rater
 * (worker/host_persist.c, rater.h), in the rig of rig_worker.h: a match between accounts
 * ends with its rating job in matches:unrated, written by the finishing commit itself
 * (the forfeiting seat placed last); a match of guests and a quarantined match leave none.
 */
#include "rig_worker.h"

#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"

/* The rig's seats become accounts: the worker only reads seat ids when a match ends. */
static void seat_accounts(host_match *hm)
{
    snprintf(hm->seats[0].player_id, sizeof hm->seats[0].player_id, "a-ann");
    snprintf(hm->seats[1].player_id, sizeof hm->seats[1].player_id, "a-bob");
}

/* A dominion match whose deciding seat leaves and forfeits; that seat. */
static int forfeit(rig_worker *r, const char *id, bool accounts)
{
    host_match *hm = rig_worker_started_away(r, id, 10, "forfeit");
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_mm_drain(r);
    rig_worker_away_via(r, "gw-t", id, rig_worker_players[seat]);
    if (accounts)
        seat_accounts(hm);
    rig_worker_advance(r, 30);
    host_tick(&r->h, r->now);
    host_flush(&r->h, r->now);
    CU_ASSERT_PTR_NULL(host_find(&r->h, id));
    return seat;
}

static void test_rating_job_queued_by_the_finish_of_a_match_between_accounts(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    int seat = forfeit(&r, "m-acc", true);
    char *job = rig_worker_hget(DH_KEY_MATCHES_UNRATED, "m-acc");
    CU_ASSERT_PTR_NOT_NULL_FATAL(job);
    CU_ASSERT_TRUE(strncmp(job, "dominion\ncasual\n", 16) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(job, seat == 0 ? "\na-ann 2\na-bob 1" : "\na-ann 1\na-bob 2"));
    free(job);
    rig_worker_close_drained(&r);
}

/* A bot-filled match (StartMatch.unrated) between accounts moves no rating: no job. */
static void test_rating_job_not_queued_for_an_unrated_match(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started_away(&r, "m-unrated", 10, "forfeit");
    hm->unrated = true;
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_mm_drain(&r);
    rig_worker_away_via(&r, "gw-t", "m-unrated", rig_worker_players[seat]);
    seat_accounts(hm);
    rig_worker_advance(&r, 30);
    host_tick(&r.h, r.now);
    host_flush(&r.h, r.now);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-unrated"));
    char *status = rig_worker_hget("match:{m-unrated}", DH_F_STATUS);
    CU_ASSERT_STRING_EQUAL(status ? status : "", DH_STATUS_FINISHED);
    free(status);
    char *job = rig_worker_hget(DH_KEY_MATCHES_UNRATED, "m-unrated");
    CU_ASSERT_PTR_NULL(job);
    free(job);
    rig_worker_close_drained(&r);
}

static void test_rating_job_not_queued_for_guests(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    forfeit(&r, "m-guests", false);
    char *status = rig_worker_hget("match:{m-guests}", DH_F_STATUS);
    CU_ASSERT_STRING_EQUAL(status ? status : "", DH_STATUS_FINISHED);
    free(status);
    char *job = rig_worker_hget(DH_KEY_MATCHES_UNRATED, "m-guests");
    CU_ASSERT_PTR_NULL(job);
    free(job);
    rig_worker_close_drained(&r);
}

static void test_rating_job_not_queued_for_a_quarantined_match(void)
{
    rig_worker r;
    rig_worker_open(&r, "tests/fixtures/poison", NULL);
    Deckhand__Internal__QueueSettings set = DECKHAND__INTERNAL__QUEUE_SETTINGS__INIT;
    set.grace_ms = 30;
    set.abandon = (char *)"bot";
    host_match *hm = rig_worker_started(&r, "m-poison", "poison", &set);
    int seat = engine_match_decision(hm->m)->seat;
    rig_worker_mm_drain(&r);
    rig_worker_away_via(&r, "gw-t", "m-poison", rig_worker_players[seat]);
    host_flush(&r.h, r.now);
    seat_accounts(hm);
    rig_worker_advance(&r, 50);
    for (int t = 0; t < 100 && host_find(&r.h, "m-poison"); t++) {
        host_tick(&r.h, r.now);
        host_flush(&r.h, r.now);
        rig_worker_advance(&r, 100);
    }
    CU_ASSERT_PTR_NULL_FATAL(host_find(&r.h, "m-poison"));
    char *reason = rig_worker_hget("match:{m-poison}", DH_F_END_REASON);
    CU_ASSERT_STRING_EQUAL(reason ? reason : "", DH_END_SCRIPT_ERROR);
    free(reason);
    char *job = rig_worker_hget(DH_KEY_MATCHES_UNRATED, "m-poison");
    CU_ASSERT_PTR_NULL(job);
    free(job);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"rating_job_queued_by_the_finish_of_a_match_between_accounts",
         test_rating_job_queued_by_the_finish_of_a_match_between_accounts},
        {"rating_job_not_queued_for_guests", test_rating_job_not_queued_for_guests},
        {"rating_job_not_queued_for_an_unrated_match",
         test_rating_job_not_queued_for_an_unrated_match},
        {"rating_job_not_queued_for_a_quarantined_match",
         test_rating_job_not_queued_for_a_quarantined_match},
        {NULL, NULL},
    };
    return rig_worker_main("worker_rating_job", cases);
}
