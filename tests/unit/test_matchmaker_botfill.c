/*
 * test_matchmaker_botfill.c: bot fill (queue_fill in matchmaker/data/queue_fill.c, the
 * formation in placement.c, the queue setting bot_fill_ms) and the game list
 * (matchmaker/social/games.c, games_answer).
 */
#include "games.h"
#include "queue.h"
#include "rig_mm.h"
#include "rig_mm_options.h"
#include "settings.h"

static queue_ticket ticket(const char *pid, uint64_t since)
{
    queue_ticket t;
    CU_ASSERT_EQUAL_FATAL(queue_ticket_init(&t, pid, pid, "gw-1", 1, since), QUEUE_OK);
    return t;
}

static void test_queue_fill_waits_for_the_oldest_ticket(void)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "", 4);
    queue_ticket a = ticket("a", 1000), b = ticket("b", 3000);
    CU_ASSERT_EQUAL(queue_join(s, &k, &a), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_join(s, &k, &b), QUEUE_OK);
    queue_ticket out[4];
    CU_ASSERT_EQUAL(queue_fill(s, 0, 4, 5000, 5999, out), 0);
    CU_ASSERT_EQUAL(queue_line_len(s, 0), 2);
    CU_ASSERT_EQUAL(queue_fill(s, 0, 4, 5000, 6000, out), 2);
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "a");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "b");
    CU_ASSERT_EQUAL(queue_line_len(s, 0), 0);
    char why[128];
    CU_ASSERT_TRUE(queue_check(s, why, sizeof why));
    queue_set_free(s);
}

static void test_queue_fill_skips_away_tickets_and_what_does_not_fit(void)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "", 2);
    queue_ticket a = ticket("a", 0), b = ticket("b", 100), c = ticket("c", 200);
    queue_join(s, &k, &a);
    queue_join(s, &k, &b);
    queue_join(s, &k, &c);
    queue_away(s, "a", 50);
    queue_ticket out[2];
    CU_ASSERT_EQUAL(queue_fill(s, 0, 1, 1000, 1050, out), 0); /* b waited 950: not yet */
    CU_ASSERT_EQUAL(queue_fill(s, 0, 1, 1000, 1100, out), 1);
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "b");
    CU_ASSERT_TRUE(queue_has(s, "a"));
    CU_ASSERT_TRUE(queue_has(s, "c"));
    queue_set_free(s);
}

static void test_lone_player_gets_bots_after_bot_fill_ms(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-fill-1", NULL, 1, 0);
    CU_ASSERT_EQUAL(settings_set(&r.mm.settings.defaults, "bot_fill_ms", "5000"), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p1", 1, 2, 10), 0);
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 1000);
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 2000);
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 3000);
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 4000);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 5010);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    const Deckhand__Internal__StartMatch *sm = m->start_match;
    CU_ASSERT_EQUAL_FATAL(sm->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->bot, "");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->bot, "default");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->name, "Bot 1");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->gateway_id, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(sm->seats[1]->player_id, sm->match_id));
    CU_ASSERT_TRUE(sm->unrated);
    rig_mm_started(r.w[0], sm->match_id, true);
    rig_mm_pump(&r, 5020);
    /* the human hears of the match; the bot has no gateway to hear anything */
    Deckhand__Internal__Internal *a = rig_mm_next(r.gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
    CU_ASSERT_STRING_EQUAL(a->match_assigned->player_id, "p1");
    deckhand__internal__internal__free_unpacked(a, NULL);
    CU_ASSERT_PTR_NULL(rig_mm_next(r.gw, 50));
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_bot_fill_off_by_default_and_a_full_line_is_rated(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-fill-2", NULL, 1, 0);
    CU_ASSERT_EQUAL(r.mm.settings.defaults.bot_fill_ms, 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p1", 1, 2, 10), 0);
    for (uint64_t now = 1000; now <= 60000; now += 1000) {
        rig_mm_beats(&r, 1);
        rig_mm_pump(&r, now);
    }
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    rig_mm_beats(&r, 1);
    CU_ASSERT_EQUAL(settings_set(&r.mm.settings.defaults, "bot_fill_ms", "1000"), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p2", 2, 2, 60010), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "p1,p2");
    CU_ASSERT_FALSE(m->start_match->unrated);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_a_failed_bot_filled_placement_puts_back_only_the_humans(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-fill-3", NULL, 1, 0);
    settings_set(&r.mm.settings.defaults, "bot_fill_ms", "1000");
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p1", 1, 3, 10), 0);
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 1100);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    CU_ASSERT_EQUAL(m->start_match->n_seats, 3);
    rig_mm_started(r.w[0], m->start_match->match_id, false);
    rig_mm_pump(&r, 1110);
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p1"));
    CU_ASSERT_EQUAL(queue_total(r.mm.queues), 1);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_games_answer_lists_games_modes_options_and_bots(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-games-1", NULL, 1, 0);
    rig_mm_hello_options(&r, 0);
    rig_mm_pump(&r, 10);
    char err[128];
    CU_ASSERT_EQUAL(
        settings_parse_line(&r.mm.settings, "dominion ranked grace_ms=1000", err, sizeof err), 0);
    Deckhand__GamesRequest gr = DECKHAND__GAMES_REQUEST__INIT;
    Deckhand__ClientMessage cm = DECKHAND__CLIENT_MESSAGE__INIT;
    cm.body_case = DECKHAND__CLIENT_MESSAGE__BODY_GAMES_REQUEST;
    cm.games_request = &gr;
    Deckhand__Internal__ClientRequest req = DECKHAND__INTERNAL__CLIENT_REQUEST__INIT;
    req.player_id = "p1";
    req.gateway_id = "gw-1";
    req.cmd_id = 9;
    req.message = &cm;
    games_answer(&r.mm, "gw-1", &req);
    Deckhand__Internal__Internal *m = rig_mm_next(r.gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MM_OUTPUT);
    CU_ASSERT_STRING_EQUAL(m->mm_output->player_id, "p1");
    Deckhand__ServerMessage *sm = deckhand__server_message__unpack(NULL, m->mm_output->message.len,
                                                                   m->mm_output->message.data);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    CU_ASSERT_EQUAL_FATAL(sm->body_case, DECKHAND__SERVER_MESSAGE__BODY_GAMES);
    CU_ASSERT_EQUAL_FATAL(sm->games->n_games, 1);
    const Deckhand__GameDesc *d = sm->games->games[0];
    CU_ASSERT_STRING_EQUAL(d->game, "dominion");
    CU_ASSERT_EQUAL(d->min_players, 2);
    CU_ASSERT_EQUAL(d->max_players, 4);
    CU_ASSERT_EQUAL_FATAL(d->n_modes, 2);
    CU_ASSERT_STRING_EQUAL(d->modes[0], "casual");
    CU_ASSERT_STRING_EQUAL(d->modes[1], "ranked");
    CU_ASSERT_EQUAL_FATAL(d->n_options, 1);
    CU_ASSERT_STRING_EQUAL(d->options[0]->name, "kingdom");
    CU_ASSERT_STRING_EQUAL(d->options[0]->default_value, "first_game");
    CU_ASSERT_EQUAL(d->options[0]->n_values, 3);
    CU_ASSERT_EQUAL_FATAL(d->n_bots, 2);
    CU_ASSERT_STRING_EQUAL(d->bots[0], "default");
    deckhand__server_message__free_unpacked(sm, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 9), 0);
    rig_mm_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"queue_fill_waits_for_the_oldest_ticket", test_queue_fill_waits_for_the_oldest_ticket},
        {"queue_fill_skips_away_tickets_and_what_does_not_fit",
         test_queue_fill_skips_away_tickets_and_what_does_not_fit},
        {"lone_player_gets_bots_after_bot_fill_ms", test_lone_player_gets_bots_after_bot_fill_ms},
        {"bot_fill_off_by_default_and_a_full_line_is_rated",
         test_bot_fill_off_by_default_and_a_full_line_is_rated},
        {"a_failed_bot_filled_placement_puts_back_only_the_humans",
         test_a_failed_bot_filled_placement_puts_back_only_the_humans},
        {"games_answer_lists_games_modes_options_and_bots",
         test_games_answer_lists_games_modes_options_and_bots},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_botfill", cases);
}
