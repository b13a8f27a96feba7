/*
 * test_matchmaker_options_stored.c: game options and bot seats survive a matchmaker's
 * death (state.c, placement.c on Redis): a ticket's options come back with it
 * (TicketRecord.options) into the line of those options, and a bot-filled placement is
 * resumed with its bot seats, options and unrated mark (PlacementRecord).
 */
#include "rig_mm.h"
#include "rig_mm_options.h"
#include "rig_redis.h"
#include "settings.h"

/* The line of the ticket pid waits on. */
static const queue_key *key_of(rig_mm *r, const char *pid)
{
    size_t line;
    CU_ASSERT_PTR_NOT_NULL_FATAL(queue_find(r->mm.queues, pid, &line));
    return queue_line_key(r->mm.queues, line);
}

static void test_tickets_reload_into_the_lines_of_their_options(void)
{
    rig_mm a, b;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_mm_hello_options(&a, 0);
    rig_mm_hello_options(&a, 1);
    rig_mm_pump(&a, 1);
    rig_mm_beat(a.w[0], 0, true); /* draining: nothing forms */
    rig_mm_beat(a.w[1], 0, true);
    rig_mm_pump(&a, 2);
    rig_mm_join_kingdom(a.gw, "p1", 1, "random");
    rig_mm_join_kingdom(a.gw, "p2", 2, NULL);
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 2), 0);
    CU_ASSERT_STRING_EQUAL(key_of(&a, "p1")->options, "kingdom=random");

    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 20);
    CU_ASSERT_EQUAL_FATAL(mm_load(&b.mm, 20), 0);
    CU_ASSERT_STRING_EQUAL(key_of(&b, "p1")->options, "kingdom=random");
    CU_ASSERT_STRING_EQUAL(key_of(&b, "p2")->options, "");
    rig_mm_close(&b);
    rig_mm_close(&a);
}

static void test_bot_filled_placement_resumes_with_its_bots_options_and_unrated_mark(void)
{
    rig_mm a, b;
    rig_mm_open_fresh(&a, "mm-a", 1);
    rig_mm_hello_options(&a, 0);
    rig_mm_pump(&a, 1);
    CU_ASSERT_EQUAL(settings_set(&a.mm.settings.defaults, "bot_fill_ms", "1000"), 0);
    rig_mm_join_kingdom(a.gw, "p1", 1, "random");
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0);
    rig_mm_beats(&a, 1);
    rig_mm_pump(&a, 1100);
    Deckhand__Internal__Internal *first = rig_mm_expect_start(&a, NULL);
    rig_mm_close(&a); /* dies without an answer */
    rig_mm_lease_lapses();

    rig_mm_open(&b, "mm-b", rig_redis_url(), 1, 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 0));
    Deckhand__Internal__Internal *again = rig_mm_expect_start(&b, NULL);
    const Deckhand__Internal__StartMatch *x = first->start_match, *y = again->start_match;
    CU_ASSERT_STRING_EQUAL(y->match_id, x->match_id);
    CU_ASSERT_EQUAL_FATAL(y->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(y->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(y->seats[0]->bot, "");
    CU_ASSERT_STRING_EQUAL(y->seats[1]->player_id, x->seats[1]->player_id);
    CU_ASSERT_STRING_EQUAL(y->seats[1]->bot, "default");
    CU_ASSERT_TRUE(y->unrated);
    CU_ASSERT_EQUAL_FATAL(y->n_options, 1);
    CU_ASSERT_STRING_EQUAL(y->options[0]->value, "random");
    /* refused by its worker: only the human goes back in line */
    rig_mm_started(b.w[0], y->match_id, false);
    rig_mm_pump(&b, 10);
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 1);
    CU_ASSERT_STRING_EQUAL(key_of(&b, "p1")->options, "kingdom=random");
    deckhand__internal__internal__free_unpacked(first, NULL);
    deckhand__internal__internal__free_unpacked(again, NULL);
    rig_mm_close(&b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"tickets_reload_into_the_lines_of_their_options",
         test_tickets_reload_into_the_lines_of_their_options},
        {"bot_filled_placement_resumes_with_its_bots_options_and_unrated_mark",
         test_bot_filled_placement_resumes_with_its_bots_options_and_unrated_mark},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_options_stored", cases);
}
