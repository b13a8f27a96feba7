/*
 * test_matchmaker_state.c: the matchmaker's state in a real Redis (matchmaker/store/state.c):
 * waiting tickets reload into another matchmaker in the same lines and order, and a
 * stored placement is resumed there, its StartMatch sent again, or put back at the front
 * of its line when that worker does not answer either.
 *
 * The joins of a loop turn and the match formed from them are one write, and a refused
 * write leaves them in no line and no match. A started match's deletes (its placement, its players'
 * tickets) cost no write of their own: they ride the next join's write, or go alone once they
 * waited STATE_LATER_MS.
 *
 * Each rig (tests/unit/rig_mm.h) is one matchmaker with two fake workers and two fake
 * gateways; a matchmaker "dies" by closing its rig without a word.
 */
#include "dh_keys.h"
#include "loop.h"
#include "rig_mm.h"
#include "rig_redis.h"

#include <stdio.h>
#include <string.h>
#include <zmq.h>

static size_t line_with(const queue_set *s, const queue_key *k)
{
    for (size_t i = 0; i < queue_lines(s); i++) {
        const queue_key *o = queue_line_key(s, i);
        if (o->players == k->players && !strcmp(o->game, k->game) && !strcmp(o->mode, k->mode))
            return i;
    }
    return (size_t)-1;
}

static void test_mm_tickets_reload_into_the_same_lines_in_the_same_order(void)
{
    rig_mm a, b;
    rig_mm_open_fresh(&a, "mm-a", 2);
    CU_ASSERT_TRUE_FATAL(mm_acting(&a.mm, 0));
    /* draining workers: joins are accepted but nothing forms */
    rig_mm_beat(a.w[0], 0, true);
    rig_mm_beat(a.w[1], 0, true);
    rig_mm_pump(&a, 1);
    /* long names make records too big for Redis's compact hash encoding, whose HGETALL
     * would answer in insertion order: the load has to sort */
    char pid[16], name[QUEUE_NAME_MAX];
    for (int i = 0; i < 30; i++) {
        snprintf(pid, sizeof pid, "p%02d", i);
        snprintf(name, sizeof name, "%s-with-a-name-long-enough-to-leave-the-listpack", pid);
        void *gw = i % 2 ? a.gw : a.gw2;
        rig_mm_join_game(gw, pid, name, (uint64_t)i + 1, "dominion", 2 + (uint32_t)(i % 3 == 0));
        rig_mm_pump(&a, 10 + (uint64_t)i / 4); /* ties in since_ms: seq decides */
        CU_ASSERT_EQUAL(rig_mm_reply(gw, (uint64_t)i + 1), 0);
    }
    redisReply *enc = rig_redis_cmd("OBJECT ENCODING " DH_KEY_MM_TICKETS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(enc);
    CU_ASSERT_STRING_EQUAL(enc->str, "hashtable");
    freeReplyObject(enc);
    rig_mm_away(a.gw, "p05");
    rig_mm_pump(&a, 20);
    CU_ASSERT_EQUAL(queue_total(a.mm.queues), 30);

    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 20);
    CU_ASSERT_FALSE(mm_acting(&b.mm, 20));
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 0);
    CU_ASSERT_EQUAL_FATAL(mm_load(&b.mm, 20), 0);
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 30);
    size_t lines = 0;
    for (size_t l = 0; l < queue_lines(a.mm.queues); l++) {
        size_t n = queue_line_len(a.mm.queues, l);
        if (!n)
            continue;
        lines++;
        size_t bl = line_with(b.mm.queues, queue_line_key(a.mm.queues, l));
        CU_ASSERT_EQUAL_FATAL(queue_line_len(b.mm.queues, bl), n);
        const queue_ticket *xs[64], *ys[64];
        CU_ASSERT_EQUAL_FATAL(queue_line_list(a.mm.queues, l, xs, 64), n);
        CU_ASSERT_EQUAL_FATAL(queue_line_list(b.mm.queues, bl, ys, 64), n);
        for (size_t i = 0; i < n; i++) {
            const queue_ticket *x = xs[i];
            const queue_ticket *y = ys[i];
            CU_ASSERT_STRING_EQUAL(x->player_id, y->player_id);
            CU_ASSERT_STRING_EQUAL(x->name, y->name);
            CU_ASSERT_STRING_EQUAL(x->gateway, y->gateway);
            CU_ASSERT_EQUAL(x->since_ms, y->since_ms);
            CU_ASSERT_EQUAL(x->seq, y->seq);
            CU_ASSERT_EQUAL(x->away_since_ms, y->away_since_ms);
        }
    }
    CU_ASSERT_EQUAL(lines, 2);
    CU_ASSERT_EQUAL(queue_find(b.mm.queues, "p05", NULL)->away_since_ms, RIG_MM_WALL0 + 20);
    CU_ASSERT_EQUAL(queue_find(b.mm.queues, "p00", NULL)->since_ms, RIG_MM_WALL0 + 10);
    CU_ASSERT_EQUAL(b.mm.next_seq, a.mm.next_seq);
    rig_mm_close(&b);
    rig_mm_close(&a);
}

/* Matchmaker a on an empty Redis, where p1 and p2 have just been placed: the StartMatch
 * and which worker got it (which does not answer). */
static Deckhand__Internal__Internal *placed_at_a(rig_mm *a, int *worker)
{
    rig_mm_open_fresh(a, "mm-a", 2);
    Deckhand__Internal__Internal *m = rig_mm_place_two(a, 1, 10, worker);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static void test_mm_stored_placement_is_resumed_with_its_start_match_sent_again(void)
{
    rig_mm a, b;
    int worker;
    Deckhand__Internal__Internal *first = placed_at_a(&a, &worker);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_PLACEMENTS), 1);
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " %s", "p1"), 1);
    rig_mm_close(&a); /* dies without answer */
    rig_mm_lease_lapses();

    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 0));
    CU_ASSERT_EQUAL(queue_total(b.mm.queues), 0);
    CU_ASSERT_EQUAL(b.mm.placements.n, 1);
    int w;
    Deckhand__Internal__Internal *again = rig_mm_expect_start(&b, &w);
    CU_ASSERT_EQUAL(w, worker);
    const Deckhand__Internal__StartMatch *x = first->start_match, *y = again->start_match;
    CU_ASSERT_STRING_EQUAL(x->match_id, y->match_id);
    CU_ASSERT_EQUAL(x->seed, y->seed);
    rig_mm_check_seats(y, "p1,p2");
    CU_ASSERT_STRING_EQUAL(y->seats[0]->gateway_id, "gw-1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(y->settings);
    CU_ASSERT_EQUAL(y->settings->grace_ms, x->settings->grace_ms);
    CU_ASSERT_STRING_EQUAL(y->settings->abandon, "bot");
    /* a player of the placement cannot queue meanwhile */
    CU_ASSERT_EQUAL(rig_mm_joined(&b, b.gw, "p1", 3, 2, 10), DECKHAND__ERROR_CODE__BAD_REQUEST);

    rig_mm_started(b.w[w], y->match_id, true);
    rig_mm_pump(&b, 20);
    for (int i = 0; i < 2; i++) {
        Deckhand__Internal__Internal *m = rig_mm_next(b.gw, RIG_MM_WAIT_MS);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        CU_ASSERT_STRING_EQUAL(m->match_assigned->match_id, y->match_id);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(b.mm.placements.n, 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_PLACEMENTS), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_TICKETS), 0);
    deckhand__internal__internal__free_unpacked(first, NULL);
    deckhand__internal__internal__free_unpacked(again, NULL);
    rig_mm_close(&b);
}

static void test_mm_resumed_placement_without_answer_goes_back_to_the_front(void)
{
    rig_mm a, b;
    int w;
    Deckhand__Internal__Internal *first = placed_at_a(&a, &w);
    CU_ASSERT_EQUAL(rig_mm_joined(&a, a.gw, "p3", 3, 2, 20), 0);
    rig_mm_close(&a);
    rig_mm_lease_lapses();

    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 0);
    Deckhand__Internal__Internal *again = rig_mm_expect_start(&b, &w);
    CU_ASSERT_TRUE(queue_has(b.mm.queues, "p3"));
    rig_mm_beats(&b, 3);
    rig_mm_pump(&b, PLACEMENT_TIMEOUT_MS - 1);
    CU_ASSERT_EQUAL(b.mm.placements.n, 1);
    rig_mm_beats(&b, 3);
    rig_mm_pump(&b, PLACEMENT_TIMEOUT_MS + 1);
    CU_ASSERT_EQUAL(
        rig_redis_int("HEXISTS " DH_KEY_MM_PLACEMENTS " %s", first->start_match->match_id), 0);
    /* p1 and p2 were first in line again: they form the next match, p3 waits */
    int other;
    Deckhand__Internal__Internal *retry = rig_mm_expect_start(&b, &other);
    CU_ASSERT_NOT_EQUAL(other, w);
    rig_mm_check_seats(retry->start_match, "p1,p2");
    CU_ASSERT_TRUE(queue_has(b.mm.queues, "p3"));
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_TICKETS), 3);
    deckhand__internal__internal__free_unpacked(first, NULL);
    deckhand__internal__internal__free_unpacked(again, NULL);
    deckhand__internal__internal__free_unpacked(retry, NULL);
    rig_mm_close(&b);
}

/* Wait until a message waits at the matchmaker (inproc delivery is quick, not instant). */
static void readable(rig_mm *a)
{
    zmq_pollitem_t it = {.socket = a->mm.router, .events = ZMQ_POLLIN};
    CU_ASSERT_EQUAL(zmq_poll(&it, 1, RIG_MM_WAIT_MS), 1);
}

/* The worker w answers the StartMatch m, and the loop's drain at now reads it. */
static void started_in_a_drain(rig_mm *a, int w, const Deckhand__Internal__Internal *m,
                               uint64_t now)
{
    rig_mm_started(a->w[w], m->start_match->match_id, true);
    readable(a);
    loop_drain(&a->mm, now);
}

static long long stored(const char *key, const char *field)
{
    return rig_redis_int("HEXISTS %s %s", key, field);
}

static void test_mm_a_started_match_deletes_ride_the_next_join_write(void)
{
    rig_mm a;
    int w;
    Deckhand__Internal__Internal *m = placed_at_a(&a, &w);
    const char *id = m->start_match->match_id;
    long long writes = rig_redis_calls("evalsha");
    started_in_a_drain(&a, w, m, 20);
    CU_ASSERT_EQUAL(a.mm.later.n, 3); /* the placement and both tickets, deferred */
    CU_ASSERT_EQUAL(rig_redis_calls("evalsha"), writes);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_PLACEMENTS, id), 1);
    rig_mm_join(a.gw, "p3", 3, 2); /* a join: its write carries them, first */
    readable(&a);
    loop_drain(&a.mm, 30);
    loop_finish(&a.mm, 30);
    CU_ASSERT_EQUAL(rig_redis_calls("evalsha"), writes + 1);
    CU_ASSERT_EQUAL(a.mm.later.n, 0);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_PLACEMENTS, id), 0);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_TICKETS, "p1"), 0);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_TICKETS, "p2"), 0);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_TICKETS, "p3"), 1);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&a);
}

static void test_mm_a_started_match_deletes_go_alone_after_a_while(void)
{
    rig_mm a;
    int w;
    Deckhand__Internal__Internal *m = placed_at_a(&a, &w);
    const char *id = m->start_match->match_id;
    started_in_a_drain(&a, w, m, 20);
    loop_finish(&a.mm, 20);
    loop_finish(&a.mm, 20 + STATE_LATER_MS - 1); /* an empty turn: still waiting */
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_PLACEMENTS, id), 1);
    loop_finish(&a.mm, 20 + STATE_LATER_MS);
    CU_ASSERT_EQUAL(a.mm.later.n, 0);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_PLACEMENTS, id), 0);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_TICKETS, "p1"), 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&a);
}

/* p1 and p2 join at gw-1 and one loop turn (drain, tick, finish, as main.c runs it) at
 * now takes both. */
static void two_joins_one_turn(rig_mm *a, uint64_t now)
{
    rig_mm_join(a->gw, "p1", 1, 2);
    rig_mm_join(a->gw, "p2", 2, 2);
    for (size_t got = 0; got < 2;) {
        readable(a);
        got += loop_drain(&a->mm, now).handled;
    }
    mm_tick(&a->mm, now);
    loop_finish(&a->mm, now);
}

static void test_mm_joins_and_the_match_formed_from_them_take_one_write(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    mm_tick(&a.mm, 10); /* an idle turn first: the periodic reads due then */
    loop_finish(&a.mm, 10);
    uint64_t trips = dh_histogram_count(&a.mm.stats.redis_seconds);
    two_joins_one_turn(&a, 10);
    CU_ASSERT_EQUAL(dh_histogram_count(&a.mm.stats.redis_seconds), trips + 1);
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_TICKETS, "p1"), 1); /* the tickets, as placed */
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_TICKETS, "p2"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_PLACEMENTS), 1);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), 0); /* answered once written */
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 2), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&a, NULL);
    rig_mm_check_seats(m->start_match, "p1,p2");
    CU_ASSERT_EQUAL(stored(DH_KEY_MM_PLACEMENTS, m->start_match->match_id), 1);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&a);
}

static void test_mm_joins_refused_with_their_match_are_in_no_line_and_no_match(void)
{
    rig_mm a;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rig_redis_ok("SET %s mm-other", DH_KEY_MM_LEASE); /* the write is refused: NOTLEADER */
    two_joins_one_turn(&a, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 1), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_EQUAL(rig_mm_reply(a.gw, 2), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p1"));
    CU_ASSERT_FALSE(queue_has(a.mm.queues, "p2"));
    CU_ASSERT_EQUAL(a.mm.placements.n, 0);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&a, NULL)); /* no StartMatch went out */
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_TICKETS), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MM_PLACEMENTS), 0);
    rig_mm_close(&a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_tickets_reload_into_the_same_lines_in_the_same_order",
         test_mm_tickets_reload_into_the_same_lines_in_the_same_order},
        {"mm_stored_placement_is_resumed_with_its_start_match_sent_again",
         test_mm_stored_placement_is_resumed_with_its_start_match_sent_again},
        {"mm_resumed_placement_without_answer_goes_back_to_the_front",
         test_mm_resumed_placement_without_answer_goes_back_to_the_front},
        {"mm_a_started_match_deletes_ride_the_next_join_write",
         test_mm_a_started_match_deletes_ride_the_next_join_write},
        {"mm_a_started_match_deletes_go_alone_after_a_while",
         test_mm_a_started_match_deletes_go_alone_after_a_while},
        {"mm_joins_and_the_match_formed_from_them_take_one_write",
         test_mm_joins_and_the_match_formed_from_them_take_one_write},
        {"mm_joins_refused_with_their_match_are_in_no_line_and_no_match",
         test_mm_joins_refused_with_their_match_are_in_no_line_and_no_match},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_state", cases);
}
