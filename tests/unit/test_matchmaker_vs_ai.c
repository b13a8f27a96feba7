/*
 * test_matchmaker_vs_ai.c: playing the AI from the lobby (QueueJoin.vs_ai, issue 29): a
 * join against the AI is a ticket in a line of its own (queue_key.vs_ai) whose match
 * forms at once, alone with bots of the difficulty (placement_form.c), unrated; a bad
 * difficulty or game is refused and queues nothing (tickets.c).
 */
#include <string.h>

#include "queue.h"
#include "tickets.h"
#include "rig_mm.h"

/* Worker i says hello again with dominion's bots as a worker lists them (issue 28). */
static void hello_with_difficulties(rig_mm *r, int i)
{
    char *bots[] = {"default", "big_money", "random", "easy", "normal", "search", "hard"};
    Deckhand__Internal__GameInfo gi = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *gis[] = {&gi};
    gi.name = "dominion";
    gi.min_players = 2;
    gi.max_players = 4;
    gi.n_bots = sizeof bots / sizeof *bots;
    gi.bots = bots;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    h.worker_id = (char *)rig_mm_worker_ids[i];
    h.endpoint = i ? "tcp://b:1" : "tcp://a:1";
    h.n_games = 1;
    h.games = gis;
    h.capacity = 1000;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    rig_mm_send(r->w[i], &m);
}

static void open_rig(rig_mm *r, const char *id)
{
    rig_mm_open(r, id, NULL, 1, 0);
    hello_with_difficulties(r, 0);
    rig_mm_pump(r, 5);
}

/* pid joins game against the AI at difficulty (players 0: the game's minimum), pumped at
 * now: the reply's code (0: ok; its text in r->why). */
static int join_vs_ai(rig_mm *r, const char *pid, uint64_t cmd, const char *game,
                      const char *difficulty, uint32_t players, uint64_t now)
{
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = (char *)pid;
    j.name = (char *)pid;
    j.cmd_id = cmd;
    j.game = (char *)game;
    j.players = players;
    j.vs_ai = (char *)difficulty;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN;
    m.queue_join = &j;
    rig_mm_send(r->gw, &m);
    rig_mm_pump(r, now);
    return rig_mm_reply_why(r->gw, cmd, r->why, sizeof r->why);
}

static void test_vs_ai_starts_a_match_at_once_with_bots_of_the_difficulty(void)
{
    rig_mm r;
    open_rig(&r, "mm-ai-1");
    /* no bot_fill_ms (the shipped settings): the match forms in the join's own pump */
    CU_ASSERT_EQUAL(r.mm.settings.defaults.bot_fill_ms, 0);
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 1, "dominion", "hard", 0, 10), 0);
    Deckhand__Internal__Internal *m = rig_mm_next_start(&r, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const Deckhand__Internal__StartMatch *sm = m->start_match;
    CU_ASSERT_EQUAL_FATAL(sm->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->bot, "");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->bot, "hard");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->name, "Bot 1");
    CU_ASSERT_TRUE(sm->unrated);
    rig_mm_started(r.w[0], sm->match_id, true);
    rig_mm_pump(&r, 20);
    Deckhand__Internal__Internal *a = rig_mm_next(r.gw, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
    CU_ASSERT_STRING_EQUAL(a->match_assigned->player_id, "p1");
    deckhand__internal__internal__free_unpacked(a, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_vs_ai_seats_the_count_asked_with_bots(void)
{
    rig_mm r;
    open_rig(&r, "mm-ai-2");
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 1, "dominion", "easy", 4, 10), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    CU_ASSERT_EQUAL_FATAL(m->start_match->n_seats, 4);
    for (size_t i = 1; i < 4; i++)
        CU_ASSERT_STRING_EQUAL(m->start_match->seats[i]->bot, "easy");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_vs_ai_bad_difficulty_or_game_is_refused_and_queues_nothing(void)
{
    rig_mm r;
    open_rig(&r, "mm-ai-3");
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 1, "dominion", "brutal", 0, 10),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "no difficulty 'brutal'"));
    /* a bot strategy that is not a difficulty is not one either */
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 2, "dominion", "big_money", 0, 20),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    /* (past the start, when every worker has reported its games) */
    rig_mm_beats(&r, 1);
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 3, "chess", "easy", 0, REGISTRY_DEAD_MS + 30),
                    DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    rig_mm_beats(&r, 1);
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 4, "dominion", "easy", 9, REGISTRY_DEAD_MS + 40),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(queue_total(r.mm.queues), 0);
    CU_ASSERT_EQUAL(r.mm.placements.n, 0);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    rig_mm_close(&r);
}

static void test_two_vs_ai_players_never_share_a_match(void)
{
    rig_mm r;
    open_rig(&r, "mm-ai-4");
    /* an ordinary ticket: no AI match takes it */
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p0", 1, 2, 8), 0);
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 2, "dominion", "normal", 2, 10), 0);
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p2", 3, "dominion", "normal", 2, 20), 0);
    for (int k = 0; k < 2; k++) {
        Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
        const Deckhand__Internal__StartMatch *sm = m->start_match;
        CU_ASSERT_EQUAL_FATAL(sm->n_seats, 2);
        CU_ASSERT_STRING_EQUAL(sm->seats[0]->player_id, k ? "p2" : "p1");
        CU_ASSERT_STRING_EQUAL(sm->seats[1]->bot, "normal");
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p0"));
    rig_mm_close(&r);
}

static void test_vs_ai_failed_placement_tries_again_against_the_ai(void)
{
    rig_mm r;
    open_rig(&r, "mm-ai-5");
    CU_ASSERT_EQUAL(join_vs_ai(&r, "p1", 1, "dominion", "easy", 0, 10), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_started(r.w[0], m->start_match->match_id, false);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_pump(&r, 20);
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p1")); /* back in its line against the AI */
    rig_mm_beats(&r, 1);
    rig_mm_pump(&r, 20 + REGISTRY_AVOID_MS + 10);
    m = rig_mm_expect_start(&r, NULL);
    CU_ASSERT_EQUAL_FATAL(m->start_match->n_seats, 2);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[1]->bot, "easy");
    CU_ASSERT_TRUE(m->start_match->unrated);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_vs_ai_seats_a_party_together_with_bots(void)
{
    rig_mm r;
    open_rig(&r, "mm-ai-6");
    Deckhand__Internal__QueueJoin j = DECKHAND__INTERNAL__QUEUE_JOIN__INIT;
    j.player_id = "p1";
    j.name = "p1";
    j.cmd_id = 1;
    j.game = "dominion";
    j.players = 3;
    j.vs_ai = "normal";
    tickets_member others[] = {{.player_id = "p2", .name = "p2", .gateway = "gw-2"}};
    tickets_join(&r.mm, "gw-1", &j, others, 1, 10);
    rig_mm_pump(&r, 20);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 1), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    const Deckhand__Internal__StartMatch *sm = m->start_match;
    CU_ASSERT_EQUAL_FATAL(sm->n_seats, 3);
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->player_id, "p2");
    CU_ASSERT_STRING_EQUAL(sm->seats[1]->gateway_id, "gw-2");
    CU_ASSERT_STRING_EQUAL(sm->seats[2]->bot, "normal");
    CU_ASSERT_TRUE(sm->unrated);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_queue_fill_alone_takes_one_ticket(void)
{
    queue_set *s = queue_set_new();
    queue_key k;
    queue_key_init(&k, "dominion", "", 3);
    CU_ASSERT_EQUAL(queue_key_vs_ai(&k, "easy"), QUEUE_OK);
    queue_ticket a, b;
    queue_ticket_init(&a, "a", "a", "gw-1", 1, 10);
    queue_ticket_init(&b, "b", "b", "gw-1", 2, 20);
    CU_ASSERT_EQUAL(queue_join(s, &k, &a), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_join(s, &k, &b), QUEUE_OK);
    queue_ticket out[3];
    CU_ASSERT_EQUAL(queue_fill_alone(s, 0, 3, out), 1);
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "a");
    CU_ASSERT_EQUAL(queue_line_len(s, 0), 1);
    /* the same game, mode and count without vs_ai is another line */
    queue_key plain;
    queue_key_init(&plain, "dominion", "", 3);
    queue_ticket c;
    queue_ticket_init(&c, "c", "c", "gw-1", 3, 30);
    CU_ASSERT_EQUAL(queue_join(s, &plain, &c), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_lines(s), 2);
    char why[128];
    CU_ASSERT_TRUE(queue_check(s, why, sizeof why));
    queue_set_free(s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"vs_ai_starts_a_match_at_once_with_bots_of_the_difficulty",
         test_vs_ai_starts_a_match_at_once_with_bots_of_the_difficulty},
        {"vs_ai_seats_the_count_asked_with_bots", test_vs_ai_seats_the_count_asked_with_bots},
        {"vs_ai_bad_difficulty_or_game_is_refused_and_queues_nothing",
         test_vs_ai_bad_difficulty_or_game_is_refused_and_queues_nothing},
        {"two_vs_ai_players_never_share_a_match", test_two_vs_ai_players_never_share_a_match},
        {"vs_ai_failed_placement_tries_again_against_the_ai",
         test_vs_ai_failed_placement_tries_again_against_the_ai},
        {"vs_ai_seats_a_party_together_with_bots", test_vs_ai_seats_a_party_together_with_bots},
        {"queue_fill_alone_takes_one_ticket", test_queue_fill_alone_takes_one_ticket},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_vs_ai", cases);
}
