/*
 * test_matchmaker_tickets.c: a waiting player's ticket (matchmaker/play/tickets.c) as stored
 * in a real Redis: a repeated join in the same line keeps its place and moves the ticket
 * to the new gateway, an away ticket is passed over and leaves after its grace, and a
 * player back clears away and gets its match through the new gateway; and a join whose
 * game, mode or name holds a control character is refused (issue 12, case 5: the gateway
 * refuses them first; this is the matchmaker's own guard); and a leave that lost the race
 * to a formation says so.
 */
#include "dh_keys.h"
#include "settings.h"
#include "rig_mm.h"
#include "rig_redis.h"

/* The stored ticket of a player (free it), or NULL. */
static Deckhand__Internal__TicketRecord *stored_ticket(const char *pid)
{
    redisReply *r = rig_redis_cmd("HGET " DH_KEY_MM_TICKETS " %s", pid);
    Deckhand__Internal__TicketRecord *t = NULL;
    if (r && r->type == REDIS_REPLY_STRING)
        t = deckhand__internal__ticket_record__unpack(NULL, r->len, (const uint8_t *)r->str);
    if (r)
        freeReplyObject(r);
    return t;
}

static void test_mm_rejoin_in_the_same_line_keeps_the_place_and_moves_the_ticket(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_mm_join(a.gw, "p1", 1, 3);
    rig_mm_join(a.gw, "p2", 2, 3);
    rig_mm_away(a.gw, "p1");
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 2), 0);
    CU_ASSERT_NOT_EQUAL(queue_find(a.mm.queues, "p1", NULL)->away_since_ms, 0);

    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw2, "p1", 3, 3, 20), 0);
    size_t line;
    const queue_ticket *t = queue_find(a.mm.queues, "p1", &line);
    const queue_ticket *first[1];
    CU_ASSERT_EQUAL(queue_line_list(a.mm.queues, line, first, 1), 1);
    CU_ASSERT_PTR_EQUAL(first[0], t);
    CU_ASSERT_STRING_EQUAL(t->gateway, "gw-2");
    CU_ASSERT_EQUAL(t->away_since_ms, 0);
    CU_ASSERT_EQUAL(t->since_ms, RIG_MM_WALL0 + 10);
    Deckhand__Internal__TicketRecord *rec = stored_ticket("p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_STRING_EQUAL(rec->gateway, "gw-2");
    CU_ASSERT_EQUAL(rec->away_since_ms, 0);
    CU_ASSERT_EQUAL(rec->seq, t->seq);
    deckhand__internal__ticket_record__free_unpacked(rec, NULL);

    /* another line: refused as before */
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw2, "p1", 4, 4, 30), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 2);

    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p3", 5, 3, 40), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&a, NULL);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[0]->gateway_id, "gw-2");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&a);
}

static void test_mm_away_ticket_is_passed_over_then_removed_after_its_grace(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    char err[64];
    CU_ASSERT_EQUAL_FATAL(
        settings_parse_line(&a.mm.settings, "dominion casual grace_ms=500", err, sizeof err), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 1, 2, 10), 0);
    rig_mm_away(a.gw2, "p1"); /* not the gateway holding the ticket: stale */
    rig_mm_pump(&a, 15);
    CU_ASSERT_EQUAL(queue_find(a.mm.queues, "p1", NULL)->away_since_ms, 0);
    rig_mm_away(a.gw, "p1");
    rig_mm_pump(&a, 20);
    Deckhand__Internal__TicketRecord *rec = stored_ticket("p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_EQUAL(rec->away_since_ms, RIG_MM_WALL0 + 20);
    deckhand__internal__ticket_record__free_unpacked(rec, NULL);

    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 2, 2, 30), 0);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&a, NULL));
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p3", 3, 2, 40), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&a, NULL);
    rig_mm_check_seats(m->start_match, "p2,p3");
    deckhand__internal__internal__free_unpacked(m, NULL);

    rig_mm_beats(&a, 3);
    rig_mm_pump(&a, 20 + 499);
    CU_ASSERT_TRUE(queue_has(a.mm.queues, "p1"));
    rig_mm_pump(&a, 20 + 500);
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p1"));
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 0);
    rig_mm_close(&a);
}

static void test_mm_player_back_clears_away_and_the_match_goes_to_the_new_gateway(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_mm_join(a.gw, "p1", 1, 2);
    rig_mm_away(a.gw, "p1");
    rig_mm_pump(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0);
    rig_mm_back(a.gw2, "p1");
    rig_mm_back(a.gw2, "nobody"); /* no ticket: ignored */
    rig_mm_pump(&a, 20);
    const queue_ticket *t = queue_find(a.mm.queues, "p1", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->away_since_ms, 0);
    CU_ASSERT_STRING_EQUAL(t->gateway, "gw-2");
    Deckhand__Internal__TicketRecord *rec = stored_ticket("p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_STRING_EQUAL(rec->gateway, "gw-2");
    deckhand__internal__ticket_record__free_unpacked(rec, NULL);

    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p2", 2, 2, 30), 0);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&a, &w);
    rig_mm_started(a.w[w], m->start_match->match_id, true);
    rig_mm_pump(&a, 40);
    Deckhand__Internal__Internal *to1 = rig_mm_next(a.gw2, RIG_MM_WAIT_MS),
                                 *to2 = rig_mm_next(a.gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(to1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(to2);
    CU_ASSERT_STRING_EQUAL(to1->match_assigned->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(to2->match_assigned->player_id, "p2");
    deckhand__internal__internal__free_unpacked(to1, NULL);
    deckhand__internal__internal__free_unpacked(to2, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&a);
}

/* Issue 24, item 3, as reported: two gateways, the other player's join forms the match a
 * moment before the leave arrives. The leave says it lost (ALREADY_PLACED) while the
 * placement waits and while Redis says the match runs; once the match is over, a leave is
 * plain ok again (nothing left to lose). */
static void test_mm_leave_that_loses_the_race_to_a_formation_says_so(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p1", 1, 2, 10), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw2, "p2", 2, 2, 20), 0); /* forms the match */
    int w;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&a, &w);
    rig_mm_leave(a.gw, "p1", 3);
    rig_mm_pump(&a, 21);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 3), DECKHAND__ERROR_CODE__ALREADY_PLACED);
    char key[DH_KEY_MAX];
    rig_redis_ok("HSET %s " DH_F_STATUS " " DH_STATUS_RUNNING,
                 dh_key_match(key, m->start_match->match_id));
    rig_mm_started(a.w[w], m->start_match->match_id, true);
    rig_mm_pump(&a, 30);
    for (int i = 0; i < 2; i++) {
        Deckhand__Internal__Internal *found = rig_mm_next(i ? a.gw2 : a.gw, RIG_MM_WAIT_MS);
        CU_ASSERT_PTR_NOT_NULL_FATAL(found);
        CU_ASSERT_EQUAL(found->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        deckhand__internal__internal__free_unpacked(found, NULL);
    }
    rig_mm_leave(a.gw, "p1", 4);
    rig_mm_pump(&a, 40);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 4), DECKHAND__ERROR_CODE__ALREADY_PLACED);
    rig_redis_ok("HSET %s " DH_F_STATUS " " DH_STATUS_FINISHED, key);
    rig_mm_leave(a.gw, "p1", 5);
    rig_mm_pump(&a, 50);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 5), 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&a);
}

static int join_with(rig_mm *a, uint64_t cmd, const char *game, const char *mode, const char *name)
{
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    j.player_id = "p9";
    j.name = (char *)name;
    j.cmd_id = cmd;
    j.game = (char *)game;
    j.mode = (char *)mode;
    j.players = 2;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    rig_mm_send(a->gw, &m);
    rig_mm_pump(a, 10 + cmd);
    return rig_mm_reply_why(a->gw, cmd, a->why, sizeof a->why);
}

static void test_mm_join_with_control_characters_is_refused(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    CU_ASSERT_EQUAL(join_with(&a, 1, "dominion", "casual\nERROR matchmaker: forged", "ann"),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(join_with(&a, 2, "dominion\r", "", "ann"), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(join_with(&a, 3, "dominion", "", "a\x1b[2Jnn"),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_EQUAL(join_with(&a, 4, "dominion", "", "ann"), 0);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 1);
    rig_mm_close(&a);
}

/* Modes come from the configured list: "casual", or a mode the queues file names for the
 * game. A made-up mode is refused and makes no line (issue 13 measured 48,000 modes from
 * 100 guests growing the matchmaker by 218 MB). */
static void test_mm_join_with_an_unconfigured_mode_is_refused(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    char err[128];
    CU_ASSERT_EQUAL_FATAL(settings_parse_line(&a.mm.settings, "dominion ranked", err, sizeof err),
                          0);
    CU_ASSERT_EQUAL(join_with(&a, 1, "dominion", "made-up-mode-1", "ann"),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(a.why,
                           "dominion has no mode 'made-up-mode-1' (casual, or one the queues file "
                           "names)");
    CU_ASSERT_EQUAL(join_with(&a, 2, "dominion", "Ranked", "ann"),
                    DECKHAND__ERROR_CODE__BAD_REQUEST); /* modes are exact names */
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 0);
    CU_ASSERT_EQUAL(queue_lines(a.mm.queues), 0);
    CU_ASSERT_EQUAL(join_with(&a, 3, "dominion", "ranked", "ann"), 0);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 1);
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_rejoin_in_the_same_line_keeps_the_place_and_moves_the_ticket",
         test_mm_rejoin_in_the_same_line_keeps_the_place_and_moves_the_ticket},
        {"mm_away_ticket_is_passed_over_then_removed_after_its_grace",
         test_mm_away_ticket_is_passed_over_then_removed_after_its_grace},
        {"mm_player_back_clears_away_and_the_match_goes_to_the_new_gateway",
         test_mm_player_back_clears_away_and_the_match_goes_to_the_new_gateway},
        {"mm_leave_that_loses_the_race_to_a_formation_says_so",
         test_mm_leave_that_loses_the_race_to_a_formation_says_so},
        {"mm_join_with_control_characters_is_refused",
         test_mm_join_with_control_characters_is_refused},
        {"mm_join_with_an_unconfigured_mode_is_refused",
         test_mm_join_with_an_unconfigured_mode_is_refused},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_tickets", cases);
}
