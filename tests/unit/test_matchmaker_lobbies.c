/*
 * test_matchmaker_lobbies.c: lobbies (matchmaker/social/lobbies.c). First the set as pure data:
 * FULL at the seats, one lobby per player, the host handed on and the last one out
 * closing it, the start check (host only, everyone ready, the game's minimum), the public
 * list newest first and by game, the cap. Then through a real matchmaker (rig_mm, Redis):
 * a private lobby joined by code, a ready check, the host's start placed like a formed
 * match (StartMatch with every member, LobbyState with the match id, MatchAssigned after
 * MatchStarted), the public list, the refusals (unknown game, seats out of range, a
 * queued player, a lobby member's QueueJoin), a list kept within a client's frame, and a
 * lobby stored in Redis that the matchmaker taking over after a failover starts.
 */
#include <stdio.h>
#include <string.h>

#include "dh_keys.h"
#include "lobbies.h"
#include "rig_mm.h"
#include "rig_redis.h"
#include "rig_social.h"

static member_info member(const char *pid)
{
    member_info m;
    CU_ASSERT_FATAL(member_init(&m, pid, pid, "gw-1"));
    return m;
}

static group spec(const char *code, const char *game, uint32_t seats, bool public_)
{
    group l;
    memset(&l, 0, sizeof l);
    snprintf(l.code, sizeof l.code, "%s", code);
    snprintf(l.game, sizeof l.game, "%s", game);
    snprintf(l.mode, sizeof l.mode, "casual");
    l.seats = seats;
    l.public = public_;
    return l;
}

/* ---- the set ---------------------------------------------------------------------------- */

static void test_lobby_join_fills_its_seats_and_one_lobby_per_player(void)
{
    group_set s;
    group_set_init(&s, LOBBIES_MAX);
    group *l, *x;
    member_info a = member("a"), b = member("b"), c = member("c");
    group sp = spec("AAAAAA", "dominion", 2, false);
    CU_ASSERT_EQUAL_FATAL(group_set_create(&s, &sp, &a, &l), GROUP_OK);
    group sp2 = spec("BBBBBB", "dominion", 2, false);
    CU_ASSERT_EQUAL(group_set_create(&s, &sp2, &a, &x), GROUP_ALREADY);
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &b, &x), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &c, &x), GROUP_FULL);
    CU_ASSERT_EQUAL(group_set_join(&s, "ZZZZZZ", &c, &x), GROUP_NOT_FOUND);
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &b, &x), GROUP_ALREADY);
    CU_ASSERT_EQUAL(l->n, 2);
    group_set_free(&s);
}

static void test_lobby_host_leaving_hands_over_and_the_last_closes_it(void)
{
    group_set s;
    group_set_init(&s, LOBBIES_MAX);
    group *l;
    member_info a = member("a"), b = member("b");
    group sp = spec("AAAAAA", "dominion", 4, true);
    CU_ASSERT_EQUAL_FATAL(group_set_create(&s, &sp, &a, &l), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &b, &l), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_leave(&s, "a", &l), GROUP_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_STRING_EQUAL(l->members[0].player_id, "b");
    CU_ASSERT_EQUAL(group_set_leave(&s, "a", &l), GROUP_NOT_IN);
    CU_ASSERT_EQUAL(group_set_leave(&s, "b", &l), GROUP_OK);
    CU_ASSERT_PTR_NULL(l);
    CU_ASSERT_EQUAL(group_set_count(&s), 0);
    const group *ls[4];
    CU_ASSERT_EQUAL(group_set_list(&s, "", ls, 4), 0);
    group_set_free(&s);
}

static void test_lobby_start_needs_the_host_everyone_ready_and_the_minimum(void)
{
    group_set s;
    group_set_init(&s, LOBBIES_MAX);
    group *l;
    member_info a = member("a"), b = member("b");
    group sp = spec("AAAAAA", "dominion", 4, false);
    CU_ASSERT_EQUAL_FATAL(group_set_create(&s, &sp, &a, &l), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_ready(&s, "a", true), GROUP_OK);
    CU_ASSERT_PTR_NOT_NULL(group_start_check(l, "a", 2)); /* alone: below the minimum */
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &b, &l), GROUP_OK);
    CU_ASSERT_STRING_EQUAL(group_start_check(l, "a", 2), "not every member is ready");
    CU_ASSERT_EQUAL(group_set_ready(&s, "b", true), GROUP_OK);
    CU_ASSERT_STRING_EQUAL(group_start_check(l, "b", 2), "only the host starts the lobby");
    CU_ASSERT_PTR_NULL(group_start_check(l, "a", 2));
    CU_ASSERT_EQUAL(group_set_ready(&s, "b", false), GROUP_OK);
    CU_ASSERT_PTR_NOT_NULL(group_start_check(l, "a", 2));
    CU_ASSERT_EQUAL(group_set_ready(&s, "c", true), GROUP_NOT_IN);
    group_set_free(&s);
}

static void test_lobby_list_is_public_open_newest_first_and_by_game(void)
{
    group_set s;
    group_set_init(&s, LOBBIES_MAX);
    group *l;
    const char *codes[] = {"AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE"};
    const char *games[] = {"dominion", "caveman", "dominion", "dominion", "dominion"};
    bool pub[] = {true, true, false, true, true};
    char pid[16];
    for (int i = 0; i < 5; i++) {
        snprintf(pid, sizeof pid, "h%d", i);
        member_info h = member(pid);
        group sp = spec(codes[i], games[i], 2, pub[i]);
        CU_ASSERT_EQUAL_FATAL(group_set_create(&s, &sp, &h, &l), GROUP_OK);
    }
    member_info x = member("x");
    CU_ASSERT_EQUAL(group_set_join(&s, "EEEEEE", &x, &l), GROUP_OK); /* full: not listed */
    const group *ls[8];
    CU_ASSERT_EQUAL_FATAL(group_set_list(&s, "dominion", ls, 8), 2);
    CU_ASSERT_STRING_EQUAL(ls[0]->code, "DDDDDD");
    CU_ASSERT_STRING_EQUAL(ls[1]->code, "AAAAAA");
    CU_ASSERT_EQUAL(group_set_list(&s, NULL, ls, 8), 3);
    CU_ASSERT_EQUAL(group_set_list(&s, "", ls, 1), 1);
    CU_ASSERT_STRING_EQUAL(ls[0]->code, "DDDDDD");
    group_set_close(&s, group_set_find(&s, "DDDDDD"));
    CU_ASSERT_EQUAL(group_set_list(&s, "dominion", ls, 8), 1);
    CU_ASSERT_PTR_NULL(group_set_of(&s, "h3"));
    group_set_free(&s);
}

static void test_lobby_count_is_capped(void)
{
    group_set s;
    group_set_init(&s, LOBBIES_MAX);
    s.max = 1;
    group *l;
    member_info a = member("a"), b = member("b");
    group sp = spec("AAAAAA", "dominion", 2, true), sp2 = spec("BBBBBB", "dominion", 2, true);
    CU_ASSERT_EQUAL(group_set_create(&s, &sp, &a, &l), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_create(&s, &sp2, &b, &l), GROUP_TOO_MANY);
    group_set_free(&s);
}

/* ---- through the matchmaker --------------------------------------------------------------- */

/* A lobby's options are held to what the game declares, like a QueueJoin's, and go with
 * its match: StartMatch carries them (a default value is left out). */
static void test_lobby_options_are_checked_and_reach_the_match(void)
{
    rig_mm r;
    rig_social s;
    rs_open_fresh(&r, "mm-a", 1);
    rs_init(&s);
    CU_ASSERT_EQUAL(
        rs_do(&s, &r, r.gw, "h", 1, rs_lobby_create_with("dominion", 2, "colour", "red"), 10),
        DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(s.why, "dominion has no option 'colour'");
    CU_ASSERT_EQUAL(
        rs_do(&s, &r, r.gw, "h", 2, rs_lobby_create_with("dominion", 2, "kingdom", "chaos"), 10),
        DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(group_set_count(&r.mm.lobbies), 0);
    CU_ASSERT_EQUAL_FATAL(
        rs_do(&s, &r, r.gw, "h", 3, rs_lobby_create_with("dominion", 2, "kingdom", "random"), 10),
        0);
    char code[CODES_LEN + 1];
    snprintf(code, sizeof code, "%s", rs_lobby(&s, "h")->code);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 4, rs_lobby_join(code), 20), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 5, rs_lobby_ready(true), 30), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 6, rs_lobby_ready(true), 30), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 7, rs_lobby_start(), 40), 0);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, &w);
    CU_ASSERT_EQUAL_FATAL(m->start_match->n_options, 1);
    CU_ASSERT_STRING_EQUAL(m->start_match->options[0]->name, "kingdom");
    CU_ASSERT_STRING_EQUAL(m->start_match->options[0]->value, "random");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rs_free(&s);
    rig_mm_close(&r);
}

static void test_lobby_private_joined_by_code_ready_checked_and_started_by_the_host(void)
{
    rig_mm r;
    rig_social s;
    rs_open_fresh(&r, "mm-a", 2);
    rs_init(&s);
    CU_ASSERT_EQUAL_FATAL(rs_do(&s, &r, r.gw, "h", 1, rs_lobby_create("dominion", 3, false), 10),
                          0);
    const Deckhand__LobbyState *st = rs_lobby(&s, "h");
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL(st->players, 3);
    CU_ASSERT_EQUAL(st->n_options, 1);
    CU_ASSERT_STRING_EQUAL(st->options[0]->value, "first_game");
    CU_ASSERT_STRING_EQUAL(st->host_id, "h");
    char code[CODES_LEN + 1];
    snprintf(code, sizeof code, "%s", st->code);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "x", 2, rs_lobby_list(""), 20), 0);
    CU_ASSERT_EQUAL(rs_list(&s, "x")->n_lobbies, 0); /* private: not listed */
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 3, rs_lobby_join(code), 20), 0);
    rs_drain(&s, r.gw, 20);
    CU_ASSERT_EQUAL(rs_lobby(&s, "h")->n_members, 2);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 4, rs_lobby_start(), 30),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(s.why, "not every member is ready");
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 5, rs_lobby_ready(true), 30), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 6, rs_lobby_ready(true), 30), 0);
    rs_drain(&s, r.gw, 20);
    CU_ASSERT_TRUE(rs_lobby(&s, "h")->members[1]->ready);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 7, rs_lobby_start(), 40),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(s.why, "only the host starts the lobby");
    rig_mm_join(r.gw2, "g", 8, 2); /* a lobby's member does not queue */
    rig_mm_pump(&r, 40);
    CU_ASSERT_EQUAL(rs_answer(&s, r.gw2, 8), DECKHAND__ERROR_CODE__BAD_REQUEST);

    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 9, rs_lobby_start(), 50), 0);
    st = rs_lobby(&s, "h");
    CU_ASSERT_TRUE(st->closed);
    CU_ASSERT_EQUAL(strlen(st->match_id), PLACEMENT_ID_LEN);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, &w);
    rig_mm_check_seats(m->start_match, "h,g");
    CU_ASSERT_STRING_EQUAL(m->start_match->match_id, st->match_id);
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[1]->gateway_id, "gw-2");
    CU_ASSERT_PTR_NULL(group_set_of(&r.mm.lobbies, "g"));
    rig_mm_started(r.w[w], m->start_match->match_id, true);
    rig_mm_pump(&r, 60);
    rs_drain(&s, r.gw2, 20);
    CU_ASSERT_STRING_EQUAL(rs_lobby(&s, "g")->match_id, m->start_match->match_id);
    CU_ASSERT_PTR_NOT_NULL(seated_find(&r.mm.seated, "g"));
    deckhand__internal__internal__free_unpacked(m, NULL);
    rs_free(&s);
    rig_mm_close(&r);
}

static void test_lobby_public_is_listed_and_joined_from_the_list(void)
{
    rig_mm r;
    rig_social s;
    rs_open_fresh(&r, "mm-a", 1);
    rs_init(&s);
    CU_ASSERT_EQUAL_FATAL(rs_do(&s, &r, r.gw, "h", 1, rs_lobby_create("dominion", 0, true), 10), 0);
    CU_ASSERT_EQUAL(rs_lobby(&s, "h")->players, 4); /* 0: the game's maximum */
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 2, rs_lobby_list("dominion"), 20), 0);
    const Deckhand__LobbyList *ls = rs_list(&s, "g");
    CU_ASSERT_EQUAL_FATAL(ls->n_lobbies, 1);
    CU_ASSERT_STRING_EQUAL(ls->lobbies[0]->host, "h");
    CU_ASSERT_EQUAL(ls->lobbies[0]->members, 1);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 3, rs_lobby_join(ls->lobbies[0]->code), 20), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 4, rs_lobby_list("caveman"), 20), 0);
    CU_ASSERT_EQUAL(rs_list(&s, "g")->n_lobbies, 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 5, rs_lobby_leave(), 30), 0);
    CU_ASSERT_TRUE(rs_lobby(&s, "g")->closed);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 6, rs_lobby_leave(), 30),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    rs_free(&s);
    rig_mm_close(&r);
}

static void test_lobby_bad_creates_and_a_queued_player_are_refused(void)
{
    rig_mm r;
    rig_social s;
    rs_open_fresh(&r, "mm-a", 1);
    rs_init(&s);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 1, rs_lobby_create("nosuchgame", 2, true), 10),
                    DECKHAND__ERROR_CODE__UNKNOWN_GAME);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 2, rs_lobby_create("dominion", 9, true), 10),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 3, rs_lobby_create("dominion", 1, true), 10),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "q", 4, 3, 20), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "q", 5, rs_lobby_create("dominion", 2, true), 30),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    r.mm.lobbies.max = 1;
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "a", 6, rs_lobby_create("dominion", 2, true), 30), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "b", 7, rs_lobby_create("dominion", 2, true), 30),
                    DECKHAND__ERROR_CODE__OVERLOADED);
    rs_free(&s);
    rig_mm_close(&r);
}

/* Lobbies are stored: after a failover the matchmaker that takes over has the lobby, its
 * options, members and ready marks, and the host starts it there; a started lobby is gone
 * from Redis. */
static void test_lobby_survives_a_matchmaker_failover(void)
{
    rig_mm a, b;
    rig_social s;
    rs_open_fresh(&a, "mm-a", 2);
    rs_init(&s);
    CU_ASSERT_EQUAL_FATAL(rs_do(&s, &a, a.gw, "h", 1, rs_lobby_create("dominion", 3, true), 10), 0);
    char code[CODES_LEN + 1];
    snprintf(code, sizeof code, "%s", rs_lobby(&s, "h")->code);
    CU_ASSERT_EQUAL(rs_do(&s, &a, a.gw2, "g", 2, rs_lobby_join(code), 20), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &a, a.gw2, "g", 3, rs_lobby_ready(true), 20), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_LOBBIES), 1);
    rig_mm_close(&a);
    rig_mm_lease_lapses();

    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 0);
    rs_announce(&b, 2);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 0));
    group *l = group_set_find(&b.mm.lobbies, code);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_EQUAL(l->n, 2);
    CU_ASSERT_EQUAL(l->seats, 3);
    CU_ASSERT_TRUE(l->public);
    CU_ASSERT_EQUAL(l->noptions, 1);
    CU_ASSERT_STRING_EQUAL(l->options[0].value, "first_game");
    CU_ASSERT_STRING_EQUAL(l->members[0].player_id, "h");
    CU_ASSERT_FALSE(l->members[0].ready);
    CU_ASSERT_TRUE(l->members[1].ready);
    CU_ASSERT_STRING_EQUAL(l->members[1].gateway, "gw-2");
    CU_ASSERT_EQUAL(rs_do(&s, &b, b.gw, "h", 4, rs_lobby_ready(true), 10), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &b, b.gw, "h", 5, rs_lobby_start(), 10), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&b, NULL);
    rig_mm_check_seats(m->start_match, "h,g");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_LOBBIES), 0);
    rs_free(&s);
    rig_mm_close(&b);
}

/* A started lobby whose worker refuses the match: its players wait at the front of their
 * line as one ticket and are placed together on another worker, as a formed match's are. */
static void test_lobby_match_refused_by_its_worker_is_placed_again_together(void)
{
    rig_mm r;
    rig_social s;
    rs_open_fresh(&r, "mm-a", 2);
    rs_init(&s);
    CU_ASSERT_EQUAL_FATAL(rs_do(&s, &r, r.gw, "h", 1, rs_lobby_create("dominion", 2, false), 10),
                          0);
    char code[CODES_LEN + 1];
    snprintf(code, sizeof code, "%s", rs_lobby(&s, "h")->code);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 2, rs_lobby_join(code), 10), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 3, rs_lobby_ready(true), 10), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "g", 4, rs_lobby_ready(true), 10), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "h", 5, rs_lobby_start(), 20), 0);
    int w, w2;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, &w);
    rig_mm_started(r.w[w], m->start_match->match_id, false);
    rig_mm_beats(&r, 3);
    rig_mm_pump(&r, 30);
    Deckhand__Internal__Internal *again = rig_mm_expect_start(&r, &w2);
    CU_ASSERT_NOT_EQUAL(w2, w);
    rig_mm_check_seats(again->start_match, "h,g");
    CU_ASSERT_STRING_NOT_EQUAL(again->start_match->match_id, m->start_match->match_id);
    deckhand__internal__internal__free_unpacked(m, NULL);
    deckhand__internal__internal__free_unpacked(again, NULL);
    rs_free(&s);
    rig_mm_close(&r);
}

/* Lobbies cannot be made big: options are held to what the game declares (options_check:
 * at most 8, short, declared), so 16 options of the longest names and values are refused
 * and make nothing; and a full list of 50 public lobbies stays well within a client's
 * 64 KiB frame (the list's own byte cap, LOBBY_LIST_BYTES, stays as a second bound). */
static void test_lobby_list_stays_within_a_client_frame(void)
{
    rig_mm r;
    rig_social s;
    rs_open_fresh(&r, "mm-a", 1);
    rs_init(&s);
    char names[LOBBY_OPTIONS_MAX][LOBBY_TEXT_MAX], value[LOBBY_TEXT_MAX], pid[16];
    Deckhand__GameOption os[LOBBY_OPTIONS_MAX], *op[LOBBY_OPTIONS_MAX];
    memset(value, 'v', sizeof value - 1);
    value[sizeof value - 1] = '\0';
    for (int i = 0; i < LOBBY_OPTIONS_MAX; i++) {
        memset(names[i], 'a' + i, sizeof names[i] - 1);
        names[i][sizeof names[i] - 1] = '\0';
        deckhand__game_option__init(&os[i]);
        os[i].name = names[i];
        os[i].value = value;
        op[i] = &os[i];
    }
    Deckhand__LobbyCreate lc = DECKHAND__LOBBY_CREATE__INIT;
    lc.game = "dominion";
    lc.public_ = true;
    lc.n_options = LOBBY_OPTIONS_MAX;
    lc.options = op;
    Deckhand__ClientMessage m = DECKHAND__CLIENT_MESSAGE__INIT;
    m.body_case = DECKHAND__CLIENT_MESSAGE__BODY_LOBBY_CREATE;
    m.lobby_create = &lc;
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "big", 1, &m, 10), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(group_set_count(&r.mm.lobbies), 0);
    for (int i = 0; i < LOBBY_LIST_MAX; i++) {
        snprintf(pid, sizeof pid, "h%d", i);
        rs_send(r.gw, pid, (uint64_t)i + 2, rs_lobby_create("dominion", 0, true));
    }
    rig_mm_pump(&r, 10);
    rs_drain(&s, r.gw, 50);
    CU_ASSERT_EQUAL(group_set_count(&r.mm.lobbies), LOBBY_LIST_MAX);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "x", 100, rs_lobby_list(""), 20), 0);
    const Deckhand__LobbyList *ls = rs_list(&s, "x");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ls);
    CU_ASSERT_EQUAL(ls->n_lobbies, LOBBY_LIST_MAX);
    CU_ASSERT(deckhand__lobby_list__get_packed_size(ls) <= LOBBY_LIST_BYTES);
    rs_free(&s);
    rig_mm_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"lobby_join_fills_its_seats_and_one_lobby_per_player",
         test_lobby_join_fills_its_seats_and_one_lobby_per_player},
        {"lobby_host_leaving_hands_over_and_the_last_closes_it",
         test_lobby_host_leaving_hands_over_and_the_last_closes_it},
        {"lobby_start_needs_the_host_everyone_ready_and_the_minimum",
         test_lobby_start_needs_the_host_everyone_ready_and_the_minimum},
        {"lobby_list_is_public_open_newest_first_and_by_game",
         test_lobby_list_is_public_open_newest_first_and_by_game},
        {"lobby_count_is_capped", test_lobby_count_is_capped},
        {"lobby_private_joined_by_code_ready_checked_and_started_by_the_host",
         test_lobby_private_joined_by_code_ready_checked_and_started_by_the_host},
        {"lobby_public_is_listed_and_joined_from_the_list",
         test_lobby_public_is_listed_and_joined_from_the_list},
        {"lobby_bad_creates_and_a_queued_player_are_refused",
         test_lobby_bad_creates_and_a_queued_player_are_refused},
        {"lobby_match_refused_by_its_worker_is_placed_again_together",
         test_lobby_match_refused_by_its_worker_is_placed_again_together},
        {"lobby_survives_a_matchmaker_failover", test_lobby_survives_a_matchmaker_failover},
        {"lobby_options_are_checked_and_reach_the_match",
         test_lobby_options_are_checked_and_reach_the_match},
        {"lobby_list_stays_within_a_client_frame", test_lobby_list_stays_within_a_client_frame},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_lobbies", cases);
}
