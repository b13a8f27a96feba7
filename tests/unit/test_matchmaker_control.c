/*
 * test_matchmaker_control.c: the matchmaker's control path (matchmaker/control.c and
 * placement.c) over inproc ZeroMQ, with fake workers and a fake gateway and a clock the
 * test moves: join validation, formation onto the least loaded worker, MatchAssigned in
 * seat order, and the tickets' return to the front of the line when a worker refuses,
 * stays silent, or dies. The matchmaker runs without Redis (tests/unit/rig_mm.h).
 */
#include "rig_mm.h"

#include <string.h>

static void test_mm_join_validation(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-test", NULL, 2, 0);
    /* past the starting window (see the next test), the workers still beating */
    const uint64_t t = REGISTRY_DEAD_MS + 10;
    rig_mm_beat(r.w[0], 0, false);
    rig_mm_beat(r.w[1], 0, false);
    /* each join in turn, as command i + 1 */
    static const struct {
        const char *pid, *game;
        uint32_t players;
        int code;
    } joins[] = {
        {"p1", "chess", 2, DECKHAND__ERROR_CODE__UNKNOWN_GAME},
        {"p1", "dominion", 5, DECKHAND__ERROR_CODE__BAD_REQUEST},
        {"p1", "dominion", 1, DECKHAND__ERROR_CODE__BAD_REQUEST},
        {"", "dominion", 2, DECKHAND__ERROR_CODE__BAD_REQUEST},
        {"p1", "dominion", 0, 0},                                 /* 0: the game's minimum, 2 */
        {"p1", "dominion", 3, DECKHAND__ERROR_CODE__BAD_REQUEST}, /* p1 waits in another line */
    };
    for (size_t i = 0; i < sizeof joins / sizeof *joins; i++) {
        rig_mm_join_game(r.gw, joins[i].pid, joins[i].pid, i + 1, joins[i].game, joins[i].players);
        rig_mm_pump(&r, t);
        CU_ASSERT_EQUAL(rig_mm_reply(r.gw, i + 1), joins[i].code);
    }
    CU_ASSERT_EQUAL(queue_line_key(r.mm.queues, 0)->players, 2);
    rig_mm_close(&r);
}

static void test_mm_forms_on_least_loaded_and_assigns_in_seat_order(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-test", NULL, 2, 0);
    rig_mm_beat(r.w[0], 7, false);
    rig_mm_beat(r.w[1], 2, false);
    rig_mm_pump(&r, 100);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_place_two(&r, 11, 200, &w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(w, 1); /* wk-b */
    CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_START_MATCH);
    const Deckhand__Internal__StartMatch *sm = m->start_match;
    CU_ASSERT_EQUAL(strlen(sm->match_id), 18);
    CU_ASSERT_EQUAL(strncmp(sm->match_id, "m-", 2), 0);
    CU_ASSERT_STRING_EQUAL(sm->game, "dominion");
    CU_ASSERT_STRING_EQUAL(sm->mode, "casual");
    rig_mm_check_seats(sm, "p1,p2");
    CU_ASSERT_STRING_EQUAL(sm->seats[0]->gateway_id, "gw-1");
    /* a player in a pending placement cannot queue again */
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p1", 13, 2, 250), DECKHAND__ERROR_CODE__BAD_REQUEST);

    rig_mm_started(r.w[1], sm->match_id, true);
    rig_mm_pump(&r, 300);
    for (uint32_t seat = 0; seat < 2; seat++) {
        Deckhand__Internal__Internal *a = rig_mm_next(r.gw, RIG_MM_WAIT_MS);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL_FATAL(a->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        const Deckhand__Internal__MatchAssigned *ma = a->match_assigned;
        CU_ASSERT_STRING_EQUAL(ma->player_id, seat ? "p2" : "p1");
        CU_ASSERT_EQUAL(ma->seat, seat);
        CU_ASSERT_STRING_EQUAL(ma->match_id, sm->match_id);
        CU_ASSERT_STRING_EQUAL(ma->worker_id, "wk-b");
        CU_ASSERT_STRING_EQUAL(ma->worker_endpoint, "tcp://b:1");
        CU_ASSERT_EQUAL(ma->n_players, 2);
        deckhand__internal__internal__free_unpacked(a, NULL);
    }
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, "wk-b")->active, 3);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, "wk-b")->pending, 0);
    CU_ASSERT_EQUAL(r.mm.placements.n, 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

/* A matchmaker where p1 and p2 have just been placed at 100: the StartMatch and which
 * worker got it. */
static Deckhand__Internal__Internal *placed(rig_mm *r, int *worker)
{
    rig_mm_open(r, "mm-test", NULL, 2, 0);
    Deckhand__Internal__Internal *m = rig_mm_place_two(r, 11, 100, worker);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

static void test_mm_refused_start_requeues_and_retries_elsewhere(void)
{
    rig_mm r;
    int w;
    Deckhand__Internal__Internal *m = placed(&r, &w);
    rig_mm_started(r.w[w], m->start_match->match_id, false);
    rig_mm_pump(&r, 200);
    void *other = r.w[1 - w];
    Deckhand__Internal__Internal *again = rig_mm_next(other, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    rig_mm_check_seats(again->start_match, "p1,p2");
    CU_ASSERT_STRING_NOT_EQUAL(again->start_match->match_id, m->start_match->match_id);
    deckhand__internal__internal__free_unpacked(again, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_mm_silent_worker_times_out_and_players_keep_their_place(void)
{
    rig_mm r;
    int w;
    Deckhand__Internal__Internal *m = placed(&r, &w);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p3", 14, 2, 200), 0);
    /* keep both workers alive, the chosen one never answers */
    rig_mm_beat(r.w[0], 0, false);
    rig_mm_beat(r.w[1], 0, false);
    rig_mm_pump(&r, 100 + PLACEMENT_TIMEOUT_MS - 1);
    CU_ASSERT_EQUAL(r.mm.placements.n, 1);
    rig_mm_beat(r.w[0], 0, false);
    rig_mm_beat(r.w[1], 0, false);
    rig_mm_pump(&r, 100 + PLACEMENT_TIMEOUT_MS + 1);
    void *other = r.w[1 - w];
    Deckhand__Internal__Internal *again = rig_mm_next(other, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    rig_mm_check_seats(again->start_match, "p1,p2");
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p3"));
    /* the late answer of the first worker changes nothing */
    rig_mm_started(r.w[w], m->start_match->match_id, true);
    rig_mm_pump(&r, 100 + PLACEMENT_TIMEOUT_MS + 2);
    CU_ASSERT_PTR_NULL(rig_mm_next(r.gw, RIG_MM_WAIT_MS));
    deckhand__internal__internal__free_unpacked(again, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

/* Right after a (re)start the workers have not all reported their games: a join for a
 * game nobody has reported yet is UNAVAILABLE (join again), not UNKNOWN_GAME. */
static void test_mm_unknown_game_while_starting_is_unavailable(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-test", NULL, 2, 0);
    rig_mm_join_game(r.gw, "p1", "p1", 1, "chess", 2);
    rig_mm_pump(&r, 10);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 1), DECKHAND__ERROR_CODE__UNAVAILABLE);
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    rig_mm_join_game(r.gw, "p1", "p1", 2, "chess", 2);
    rig_mm_pump(&r, REGISTRY_DEAD_MS + 1);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 2), DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    rig_mm_close(&r);
}

static void test_mm_dead_workers_get_nothing(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-test", NULL, 2, 0);
    rig_mm_pump(&r, REGISTRY_DEAD_MS + 1);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p1", 21, 2, REGISTRY_DEAD_MS + 2),
                    DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    /* one comes back with a beat and takes the match */
    rig_mm_beat(r.w[0], 0, false);
    rig_mm_pump(&r, REGISTRY_DEAD_MS + 3);
    rig_mm_join(r.gw, "p1", 22, 2);
    rig_mm_join(r.gw, "p2", 23, 2);
    rig_mm_pump(&r, REGISTRY_DEAD_MS + 4);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 22), 0);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 23), 0);
    Deckhand__Internal__Internal *m = rig_mm_next(r.w[0], RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL(m);
    CU_ASSERT_PTR_NULL(rig_mm_next(r.w[1], RIG_MM_WAIT_MS));
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_mm_leave_takes_the_player_out(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-test", NULL, 2, 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p1", 31, 2, 10), 0);
    rig_mm_leave(r.gw, "p1", 32);
    rig_mm_pump(&r, 20);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 32), 0);
    rig_mm_leave(r.gw, "p1", 0); /* the gateway's own leave: no reply */
    rig_mm_pump(&r, 30);
    CU_ASSERT_PTR_NULL(rig_mm_next(r.gw, RIG_MM_WAIT_MS));
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p2", 33, 2, 40), 0);
    CU_ASSERT_PTR_NULL(rig_mm_next(r.w[0], RIG_MM_WAIT_MS));
    CU_ASSERT_PTR_NULL(rig_mm_next(r.w[1], RIG_MM_WAIT_MS));
    rig_mm_close(&r);
}

/* Issue 24, item 3: a leave racing a formation. The other player's join formed the match a
 * moment before the leave arrived: the leave must not be answered ok while the player is
 * seated anyway. It says it lost (ALREADY_PLACED), while the placement waits for its worker
 * and once the match runs, and the MatchFound still comes. */
static void test_mm_leave_after_formation_says_it_lost(void)
{
    rig_mm r;
    int w;
    Deckhand__Internal__Internal *m = placed(&r, &w);
    rig_mm_leave(r.gw, "p1", 41);
    rig_mm_pump(&r, 110);
    CU_ASSERT_EQUAL(rig_mm_reply_why(r.gw, 41, r.why, sizeof r.why),
                    DECKHAND__ERROR_CODE__ALREADY_PLACED);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.why, "already placed"));
    CU_ASSERT_EQUAL(r.mm.placements.n, 1); /* the match goes on */
    rig_mm_started(r.w[w], m->start_match->match_id, true);
    rig_mm_pump(&r, 200);
    for (int seat = 0; seat < 2; seat++) {
        Deckhand__Internal__Internal *a = rig_mm_next(r.gw, RIG_MM_WAIT_MS);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL(a->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        deckhand__internal__internal__free_unpacked(a, NULL);
    }
    rig_mm_leave(r.gw, "p2", 42); /* seated in the running match */
    rig_mm_pump(&r, 210);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 42), DECKHAND__ERROR_CODE__ALREADY_PLACED);
    rig_mm_leave(r.gw, "p3", 43); /* never queued: nothing to lose, ok as before */
    rig_mm_pump(&r, 220);
    CU_ASSERT_EQUAL(rig_mm_reply(r.gw, 43), 0);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_mm_start_match_carries_the_queue_settings(void)
{
    rig_mm r;
    rig_mm_open(&r, "mm-test", NULL, 2, 0);
    char err[128];
    CU_ASSERT_EQUAL_FATAL(settings_parse_line(&r.mm.settings,
                                              "dominion casual grace_ms=1234 decision_ms=5000 "
                                              "turn_ms=60000 abandon=forfeit",
                                              err, sizeof err),
                          0);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_place_two(&r, 11, 100, &w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    const Deckhand__Internal__QueueSettings *qs = m->start_match->settings;
    CU_ASSERT_PTR_NOT_NULL_FATAL(qs);
    CU_ASSERT_EQUAL(qs->grace_ms, 1234);
    CU_ASSERT_EQUAL(qs->decision_ms, 5000);
    CU_ASSERT_EQUAL(qs->turn_ms, 60000);
    CU_ASSERT_STRING_EQUAL(qs->abandon, "forfeit");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

static void test_mm_placement_ids_are_random_hex(void)
{
    char a[PLACEMENT_ID_LEN + 1], b[PLACEMENT_ID_LEN + 1];
    uint64_t sa, sb;
    CU_ASSERT_EQUAL(placement_random(a, &sa), 0);
    CU_ASSERT_EQUAL(placement_random(b, &sb), 0);
    CU_ASSERT_EQUAL(strspn(a + 2, "0123456789abcdef"), 16);
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
    CU_ASSERT_NOT_EQUAL(sa, sb);
    /* across the pool's refills (32 matches a read of the kernel's bytes): none repeats */
    enum { DRAWS = 100 };
    static char ids[DRAWS][PLACEMENT_ID_LEN + 1];
    uint64_t seeds[DRAWS];
    for (int i = 0; i < DRAWS; i++) {
        CU_ASSERT_EQUAL(placement_random(ids[i], &seeds[i]), 0);
        CU_ASSERT_EQUAL(strspn(ids[i] + 2, "0123456789abcdef"), 16);
        for (int j = 0; j < i; j++) {
            CU_ASSERT_STRING_NOT_EQUAL(ids[i], ids[j]);
            CU_ASSERT_NOT_EQUAL(seeds[i], seeds[j]);
        }
    }
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"mm_join_validation", test_mm_join_validation},
        {"mm_forms_on_least_loaded_and_assigns_in_seat_order",
         test_mm_forms_on_least_loaded_and_assigns_in_seat_order},
        {"mm_refused_start_requeues_and_retries_elsewhere",
         test_mm_refused_start_requeues_and_retries_elsewhere},
        {"mm_silent_worker_times_out_and_players_keep_their_place",
         test_mm_silent_worker_times_out_and_players_keep_their_place},
        {"mm_unknown_game_while_starting_is_unavailable",
         test_mm_unknown_game_while_starting_is_unavailable},
        {"mm_dead_workers_get_nothing", test_mm_dead_workers_get_nothing},
        {"mm_leave_takes_the_player_out", test_mm_leave_takes_the_player_out},
        {"mm_leave_after_formation_says_it_lost", test_mm_leave_after_formation_says_it_lost},
        {"mm_start_match_carries_the_queue_settings",
         test_mm_start_match_carries_the_queue_settings},
        {"mm_placement_ids_are_random_hex", test_mm_placement_ids_are_random_hex},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_control", cases);
}
