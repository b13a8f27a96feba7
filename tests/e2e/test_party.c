/*
 * test_party.c: parties end to end, on a real cluster (scripts/lib/cluster.sh, ports from
 * 24500) with players connected to the gateway like any client (rig_player.c): players
 * make a party and join it by code, every member hears of every change, the leader's
 * QueueJoin puts the whole party in one match (each member gets MatchFound for it), a
 * member's QueueJoin is refused, and a member who drops out of a queued party leaves it
 * after the grace period (1.5 s here) while the rest wait on and are matched.
 */
#include "dh_client_social.h"
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PORT_BASE 24500

/* Pump ps until cond holds, for at most WAIT_MS. */
#define WAIT_UNTIL(ps, n, cond)                                                                    \
    do {                                                                                           \
        long long until_ = pl_now_ms() + WAIT_MS;                                                  \
        while (!(cond) && pl_now_ms() < until_)                                                    \
            pl_pump((ps), (n), 50);                                                                \
    } while (0)

static const Deckhand__PartyState *party_of(const pl_player *p)
{
    return p->party ? p->party->party : NULL;
}

/* a makes a party and b joins it by its code; both see two members led by a. */
static bool make_party(pl_player *a, pl_player *b)
{
    dh_client_social msg;
    if (pl_wait_reply(a, pl_send(a, dh_client_social_party_create(&msg))) != 0 || !party_of(a))
        return false;
    char code[16];
    snprintf(code, sizeof code, "%s", party_of(a)->code);
    CU_ASSERT_EQUAL(strlen(code), 10);
    if (pl_wait_reply(b, pl_send(b, dh_client_social_party_join(&msg, code))) != 0)
        return false;
    pl_player *ps[2] = {a, b};
    WAIT_UNTIL(ps, 2, party_of(a)->n_members == 2);
    return party_of(a)->n_members == 2 && party_of(b) && party_of(b)->n_members == 2 &&
           !strcmp(party_of(b)->leader_id, party_of(a)->members[0]->player_id);
}

static void test_party_of_two_queues_together_and_lands_in_one_match(void)
{
    pl_player *a = pl_login("pa-a"), *b = pl_login("pa-b");
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT_FATAL(make_party(a, b));
    CU_ASSERT_EQUAL(pl_wait_reply(b, pl_send_queue(b, "dominion", 2)),
                    DECKHAND__ERROR_CODE__BAD_REQUEST); /* only the leader queues */
    CU_ASSERT_EQUAL(pl_wait_reply(a, pl_send_queue(a, "dominion", 2)), 0);
    pl_player *ps[2] = {a, b};
    WAIT_UNTIL(ps, 2, a->seat >= 0 && b->seat >= 0);
    CU_ASSERT_TRUE(a->seat >= 0 && b->seat >= 0);
    CU_ASSERT_STRING_EQUAL(a->match_id, b->match_id);
    CU_ASSERT_NOT_EQUAL(a->seat, b->seat);
    pl_drop(a);
    pl_drop(b);
    /* the party was stored for a failover (the matchmaker's Redis user may write it) */
    CU_ASSERT_EQUAL(rc_log_count("matchmaker*.log", "party ", "in redis"), 0);
    CU_ASSERT(rc_log_count("matchmaker*.log", "party ", " made by ") >= 1);
}

static void test_party_member_dropping_out_leaves_and_the_rest_are_matched(void)
{
    pl_player *a = pl_login("pd-a"), *b = pl_login("pd-b");
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT_FATAL(make_party(a, b));
    CU_ASSERT_EQUAL_FATAL(pl_wait_reply(a, pl_send_queue(a, "dominion", 3)), 0);
    pl_player *pa[1] = {a};
    WAIT_UNTIL(pa, 1, *party_of(a)->queued_game);
    CU_ASSERT_STRING_EQUAL(party_of(a)->queued_game, "dominion");
    pl_drop(b); /* its gateway reports it away; the party's ticket is passed over */
    WAIT_UNTIL(pa, 1, party_of(a)->n_members == 1 || !party_of(a)->members[1]->connected);
    CU_ASSERT_TRUE(party_of(a)->n_members == 1 || !party_of(a)->members[1]->connected);
    WAIT_UNTIL(pa, 1, party_of(a)->n_members == 1); /* past the 1.5 s grace */
    CU_ASSERT_EQUAL_FATAL(party_of(a)->n_members, 1);
    CU_ASSERT_STRING_EQUAL(party_of(a)->queued_game, "dominion");
    CU_ASSERT_TRUE(a->seat < 0);
    pl_player *c = pl_login("pd-c"), *d = pl_login("pd-d");
    CU_ASSERT_FATAL(c && d);
    CU_ASSERT_EQUAL(pl_wait_reply(c, pl_send_queue(c, "dominion", 3)), 0);
    CU_ASSERT_EQUAL(pl_wait_reply(d, pl_send_queue(d, "dominion", 3)), 0);
    pl_player *ps[3] = {a, c, d};
    WAIT_UNTIL(ps, 3, a->seat >= 0 && c->seat >= 0 && d->seat >= 0);
    CU_ASSERT_TRUE(a->seat >= 0);
    CU_ASSERT_STRING_EQUAL(a->match_id, c->match_id);
    CU_ASSERT_STRING_EQUAL(a->match_id, d->match_id);
    pl_drop(a);
    pl_drop(c);
    pl_drop(d);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"party_of_two_queues_together_and_lands_in_one_match",
         test_party_of_two_queues_together_and_lands_in_one_match},
        {"party_member_dropping_out_leaves_and_the_rest_are_matched",
         test_party_member_dropping_out_leaves_and_the_rest_are_matched},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    setenv("DECKHAND_GRACE_MS", "1500", 1); /* the matchmaker's queue grace */
    if (rc_start("party", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_party", cases));
}
