/*
 * test_match_found_once.c: a player told of its match once per connection. A join the
 * matchmaker did not answer in time (a gateway cut off from it: test_netns_worker_matchmaker)
 * is sent again by the client; when both reach the matchmaker, the player is seated by the
 * first and the second gets the assignment again (tickets.c, "seated in running match").
 * The gateway had already told this connection of that match: telling it again made the
 * client attach a second time and answer a decision it had answered (refused "not the
 * pending one"). On a real cluster (ports from 16400), players like any client.
 */
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <string.h>

#define PORT_BASE 16400

static pl_player *watched;
static int found;

static void count_found(pl_player *p, const Deckhand__ServerMessage *m)
{
    if (p == watched && m->body_case == DECKHAND__SERVER_MESSAGE__BODY_MATCH_FOUND)
        found++;
}

static void test_match_found_not_repeated_on_the_connection_that_has_it(void)
{
    pl_player *a = NULL, *b = NULL;
    CU_ASSERT_FATAL(pl_start_match("mfo", &a, &b));
    char match_id[sizeof a->match_id];
    strcpy(match_id, a->match_id);
    watched = a;
    found = 0;
    pl_on_message = count_found;
    /* The join sent again while seated: answered ok, the assignment sent again. */
    CU_ASSERT_EQUAL(pl_wait_reply(a, pl_send_queue(a, "dominion", 2)), 0);
    pl_player *ps[2] = {a, b};
    for (int i = 0; i < 10; i++)
        pl_pump(ps, 2, 100);
    pl_on_message = NULL;
    CU_ASSERT_EQUAL(found, 0);
    CU_ASSERT_STRING_EQUAL(a->match_id, match_id);
    pl_end_match(a, b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"match_found_not_repeated_on_the_connection_that_has_it",
         test_match_found_not_repeated_on_the_connection_that_has_it},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("match_found_once", PORT_BASE) != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_match_found_once", cases));
}
