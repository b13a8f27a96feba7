/*
 * test_queue.c: the matchmaker's waiting lines (matchmaker/data/queue.c), their storage:
 * lines, leaves, away, requeues. With equal ratings a pass takes the oldest tickets
 * first, so these read as the first-come-first-served rules they were; skill windows
 * and parties are test_matchmaker_matching*.c.
 */
#include "queue.h"

#include "dh_test.h"

static queue_ticket ticket(const char *pid)
{
    queue_ticket t;
    CU_ASSERT_EQUAL_FATAL(queue_ticket_init(&t, pid, pid, "gw-1", 7, 100), QUEUE_OK);
    return t;
}

static queue_key key(const char *game, uint32_t players)
{
    queue_key k;
    CU_ASSERT_EQUAL_FATAL(queue_key_init(&k, game, "", players), QUEUE_OK);
    return k;
}

/* One formation of n players from line (every rating accepted), as a pass would. */
static bool queue_take(queue_set *s, size_t line, queue_ticket *out, uint32_t n)
{
    queue_rules r = {.min_players = n, .max_players = n, .window_initial = 100, .window_max = 100};
    queue_formed f;
    queue_pass_begin(s, line, true);
    return queue_form(s, line, &r, 100, out, &f);
}

static size_t line_of(queue_set *s, const char *game, uint32_t players)
{
    for (size_t i = 0; i < queue_lines(s); i++)
        if (!strcmp(queue_line_key(s, i)->game, game) && queue_line_key(s, i)->players == players)
            return i;
    return (size_t)-1;
}

static void test_queue_is_fifo(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key("dominion", 2);
    const char *ids[] = {"p1", "p2", "p3", "p4", "p5"};
    for (int i = 0; i < 5; i++) {
        queue_ticket t = ticket(ids[i]);
        CU_ASSERT_EQUAL(queue_join(s, &k, &t), QUEUE_OK);
    }
    size_t l = line_of(s, "dominion", 2);
    queue_ticket out[2];
    CU_ASSERT_TRUE(queue_take(s, l, out, 2));
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "p1");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "p2");
    CU_ASSERT_TRUE(queue_take(s, l, out, 2));
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "p3");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "p4");
    CU_ASSERT_FALSE(queue_take(s, l, out, 2));
    CU_ASSERT_EQUAL(queue_line_len(s, l), 1);
    queue_set_free(s);
}

static void test_queue_empty_mode_is_casual(void)
{
    queue_key k = key("dominion", 2);
    CU_ASSERT_STRING_EQUAL(k.mode, "casual");
}

static void test_queue_sizes_wait_in_separate_lines(void)
{
    queue_set *s = queue_set_new();
    queue_key k2 = key("dominion", 2), k3 = key("dominion", 3), other = key("deckbuilder", 2);
    queue_ticket a = ticket("a"), b = ticket("b"), c = ticket("c");
    CU_ASSERT_EQUAL(queue_join(s, &k2, &a), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_join(s, &k3, &b), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_join(s, &other, &c), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_lines(s), 3);
    CU_ASSERT_EQUAL(queue_total(s), 3);
    queue_ticket out[2];
    CU_ASSERT_FALSE(queue_take(s, line_of(s, "dominion", 2), out, 2));
    queue_set_free(s);
}

static void test_queue_modes_wait_in_separate_lines(void)
{
    queue_set *s = queue_set_new();
    queue_key ranked, casual = key("dominion", 2);
    CU_ASSERT_EQUAL(queue_key_init(&ranked, "dominion", "ranked", 2), QUEUE_OK);
    queue_ticket a = ticket("a"), b = ticket("b");
    CU_ASSERT_EQUAL(queue_join(s, &ranked, &a), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_join(s, &casual, &b), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_lines(s), 2);
    queue_set_free(s);
}

static void test_queue_duplicate_join_is_refused(void)
{
    queue_set *s = queue_set_new();
    queue_key k2 = key("dominion", 2), k3 = key("dominion", 3);
    queue_ticket a = ticket("a");
    CU_ASSERT_EQUAL(queue_join(s, &k2, &a), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_join(s, &k2, &a), QUEUE_DUPLICATE);
    CU_ASSERT_EQUAL(queue_join(s, &k3, &a), QUEUE_DUPLICATE);
    CU_ASSERT_EQUAL(queue_total(s), 1);
    queue_set_free(s);
}

static void test_queue_leave_removes_only_that_player(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key("dominion", 2);
    queue_ticket a = ticket("a"), b = ticket("b"), c = ticket("c");
    queue_join(s, &k, &a);
    queue_join(s, &k, &b);
    queue_join(s, &k, &c);
    CU_ASSERT_FALSE(queue_leave(s, "b", "deckbuilder"));
    CU_ASSERT_TRUE(queue_leave(s, "b", ""));
    CU_ASSERT_FALSE(queue_leave(s, "b", NULL));
    CU_ASSERT_FALSE(queue_has(s, "b"));
    queue_ticket out[2];
    CU_ASSERT_TRUE(queue_take(s, line_of(s, "dominion", 2), out, 2));
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "a");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "c");
    /* after leaving, the player may join again */
    CU_ASSERT_EQUAL(queue_join(s, &k, &b), QUEUE_OK);
    queue_set_free(s);
}

static void test_queue_requeue_goes_to_the_front_in_order(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key("dominion", 2);
    const char *ids[] = {"p1", "p2", "p3"};
    for (int i = 0; i < 3; i++) {
        queue_ticket t = ticket(ids[i]);
        queue_join(s, &k, &t);
    }
    size_t l = line_of(s, "dominion", 2);
    queue_ticket out[2];
    CU_ASSERT_TRUE(queue_take(s, l, out, 2));
    queue_ticket late = ticket("p4");
    queue_join(s, &k, &late);
    CU_ASSERT_EQUAL(queue_push_front(s, &k, out, 2), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_line_len(s, l), 4);
    queue_ticket again[4];
    CU_ASSERT_TRUE(queue_take(s, l, again, 4));
    CU_ASSERT_STRING_EQUAL(again[0].player_id, "p1");
    CU_ASSERT_STRING_EQUAL(again[1].player_id, "p2");
    CU_ASSERT_STRING_EQUAL(again[2].player_id, "p3");
    CU_ASSERT_STRING_EQUAL(again[3].player_id, "p4");
    queue_set_free(s);
}

static void test_queue_requeue_skips_players_who_joined_again(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key("dominion", 2);
    queue_ticket a = ticket("a"), b = ticket("b");
    queue_join(s, &k, &a);
    queue_join(s, &k, &b);
    queue_ticket out[2];
    CU_ASSERT_TRUE(queue_take(s, 0, out, 2));
    queue_join(s, &k, &b);
    CU_ASSERT_EQUAL(queue_push_front(s, &k, out, 2), QUEUE_OK);
    CU_ASSERT_EQUAL(queue_total(s), 2);
    queue_set_free(s);
}

static void test_queue_rejects_too_long_fields(void)
{
    char big[QUEUE_NAME_MAX + 10];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    queue_ticket t;
    queue_key k;
    CU_ASSERT_EQUAL(queue_ticket_init(&t, big, "n", "gw", 1, 0), QUEUE_TOO_LONG);
    CU_ASSERT_EQUAL(queue_key_init(&k, big, "", 2), QUEUE_TOO_LONG);
}

static void test_queue_many_players_grow_the_line(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key("dominion", 4);
    char id[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(id, sizeof id, "p%d", i);
        queue_ticket t = ticket(id);
        CU_ASSERT_EQUAL(queue_join(s, &k, &t), QUEUE_OK);
    }
    queue_ticket out[4];
    int formed = 0;
    while (queue_take(s, 0, out, 4))
        formed++;
    CU_ASSERT_EQUAL(formed, 250);
    queue_set_free(s);
}

static void test_queue_take_passes_over_away_tickets_which_keep_their_place(void)
{
    queue_set *s = queue_set_new();
    queue_key k = key("dominion", 2);
    const char *ids[] = {"p1", "p2", "p3", "p4"};
    for (int i = 0; i < 4; i++) {
        queue_ticket t = ticket(ids[i]);
        queue_join(s, &k, &t);
    }
    size_t l;
    CU_ASSERT_PTR_NOT_NULL_FATAL(queue_find(s, "p1", &l));
    CU_ASSERT_TRUE(queue_away(s, "p1", 500));
    CU_ASSERT_TRUE(queue_away(s, "p3", 600));
    CU_ASSERT_EQUAL(queue_line_len(s, l), 4);
    CU_ASSERT_EQUAL(queue_line_ready(s, l), 2);
    queue_ticket out[2];
    CU_ASSERT_TRUE(queue_take(s, l, out, 2));
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "p2");
    CU_ASSERT_STRING_EQUAL(out[1].player_id, "p4");
    CU_ASSERT_FALSE(queue_take(s, l, out, 1));
    /* the away tickets still wait, in their order */
    CU_ASSERT_EQUAL(queue_line_len(s, l), 2);
    const queue_ticket *left[3];
    CU_ASSERT_EQUAL(queue_line_list(s, l, left, 3), 2);
    CU_ASSERT_STRING_EQUAL(left[0]->player_id, "p1");
    CU_ASSERT_STRING_EQUAL(left[1]->player_id, "p3");
    CU_ASSERT_STRING_EQUAL(queue_line_away_first(s, l)->player_id, "p1");
    CU_ASSERT_TRUE(queue_back(s, "p3", NULL));
    CU_ASSERT_TRUE(queue_take(s, l, out, 1));
    CU_ASSERT_STRING_EQUAL(out[0].player_id, "p3");
    queue_set_free(s);
}

static void test_queue_find_names_the_line(void)
{
    queue_set *s = queue_set_new();
    queue_key k2 = key("dominion", 2), k3 = key("dominion", 3);
    queue_ticket a = ticket("a"), b = ticket("b");
    queue_join(s, &k2, &a);
    queue_join(s, &k3, &b);
    size_t l = 99;
    CU_ASSERT_PTR_NOT_NULL_FATAL(queue_find(s, "b", &l));
    CU_ASSERT_EQUAL(queue_line_key(s, l)->players, 3);
    CU_ASSERT_PTR_NULL(queue_find(s, "c", &l));
    queue_set_free(s);
}

static void test_queue_clear_empties_every_line(void)
{
    queue_set *s = queue_set_new();
    queue_key k2 = key("dominion", 2), k3 = key("dominion", 3);
    queue_ticket a = ticket("a"), b = ticket("b");
    queue_join(s, &k2, &a);
    queue_join(s, &k3, &b);
    queue_clear(s);
    CU_ASSERT_EQUAL(queue_total(s), 0);
    CU_ASSERT_FALSE(queue_has(s, "a"));
    CU_ASSERT_EQUAL(queue_join(s, &k2, &a), QUEUE_OK);
    queue_set_free(s);
}

/* The finding: 48,000 distinct modes made 48,000 lines, never given back. */
static void test_queue_lines_are_bounded_and_empty_ones_reused(void)
{
    queue_set *s = queue_set_new();
    char mode[32];
    queue_key k;
    for (int i = 0; i < 48000; i++) { /* one player after another, each a new mode */
        snprintf(mode, sizeof mode, "m%d", i);
        queue_key_init(&k, "dominion", mode, 2);
        queue_ticket t = ticket("p");
        CU_ASSERT_EQUAL_FATAL(queue_join(s, &k, &t), QUEUE_OK);
        CU_ASSERT_EQUAL(queue_leave(s, "p", NULL), 1);
    }
    CU_ASSERT(queue_lines(s) <= QUEUE_LINES_MAX);
    /* every line holding a ticket: a new one is refused, the existing ones still take */
    for (int i = 0; i < QUEUE_LINES_MAX; i++) {
        snprintf(mode, sizeof mode, "full%d", i);
        queue_key_init(&k, "dominion", mode, 2);
        char pid[32];
        snprintf(pid, sizeof pid, "q%d", i);
        queue_ticket t = ticket(pid);
        CU_ASSERT_EQUAL_FATAL(queue_join(s, &k, &t), QUEUE_OK);
    }
    queue_key_init(&k, "dominion", "one-too-many", 2);
    queue_ticket extra = ticket("x");
    CU_ASSERT_EQUAL(queue_join(s, &k, &extra), QUEUE_TOO_MANY);
    queue_key_init(&k, "dominion", "full7", 2);
    CU_ASSERT_EQUAL(queue_join(s, &k, &extra), QUEUE_OK);
    /* a line empties: its slot serves the next new (game, mode, players) */
    CU_ASSERT_EQUAL(queue_leave(s, "q9", NULL), 1);
    queue_key_init(&k, "dominion", "one-too-many", 2);
    queue_ticket late = ticket("y");
    CU_ASSERT_EQUAL(queue_join(s, &k, &late), QUEUE_OK);
    size_t l;
    CU_ASSERT_PTR_NOT_NULL_FATAL(queue_find(s, "y", &l));
    CU_ASSERT_STRING_EQUAL(queue_line_key(s, l)->mode, "one-too-many");
    CU_ASSERT_EQUAL(queue_lines(s), QUEUE_LINES_MAX);
    char why[256];
    CU_ASSERT_TRUE(queue_check(s, why, sizeof why));
    queue_set_free(s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"queue_is_fifo", test_queue_is_fifo},
        {"queue_empty_mode_is_casual", test_queue_empty_mode_is_casual},
        {"queue_sizes_wait_in_separate_lines", test_queue_sizes_wait_in_separate_lines},
        {"queue_modes_wait_in_separate_lines", test_queue_modes_wait_in_separate_lines},
        {"queue_duplicate_join_is_refused", test_queue_duplicate_join_is_refused},
        {"queue_leave_removes_only_that_player", test_queue_leave_removes_only_that_player},
        {"queue_requeue_goes_to_the_front_in_order", test_queue_requeue_goes_to_the_front_in_order},
        {"queue_requeue_skips_players_who_joined_again",
         test_queue_requeue_skips_players_who_joined_again},
        {"queue_rejects_too_long_fields", test_queue_rejects_too_long_fields},
        {"queue_many_players_grow_the_line", test_queue_many_players_grow_the_line},
        {"queue_take_passes_over_away_tickets_which_keep_their_place",
         test_queue_take_passes_over_away_tickets_which_keep_their_place},
        {"queue_find_names_the_line", test_queue_find_names_the_line},
        {"queue_clear_empties_every_line", test_queue_clear_empties_every_line},
        {"queue_lines_are_bounded_and_empty_ones_reused",
         test_queue_lines_are_bounded_and_empty_ones_reused},
        {NULL, NULL},
    };
    return dh_test_main("queue", cases);
}
