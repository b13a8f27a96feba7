/*
 * test_matchmaker_parties.c: parties (matchmaker/social/parties.c). First the set as pure data:
 * codes, joins, FULL, one party per player, the next member leading when the leader
 * leaves, the cap. Then through a real matchmaker (rig_mm, Redis) with its gateways: every
 * member told of every change, the leader queueing the whole party as one ticket that
 * sits in one match, a member's QueueJoin refused, a member's QueueLeave taking the party
 * out, and a queued member who drops out: the ticket waits passed over, and past the
 * grace period the member leaves the party and the ticket while the rest wait on; and a
 * party stored in Redis comes back, with its ticket, at the matchmaker that takes over.
 */
#include <stdio.h>
#include <string.h>

#include "codes.h"
#include "dh_keys.h"
#include "parties.h"
#include "rig_mm.h"
#include "rig_redis.h"
#include "rig_social.h"

static member_info member(const char *pid)
{
    member_info m;
    CU_ASSERT_FATAL(member_init(&m, pid, pid, "gw-1"));
    return m;
}

/* ---- the set ---------------------------------------------------------------------------- */

/* A party of code led by lead, made as parties.c makes one: a group with a party's spec. */
static group_status party_create(group_set *s, const char *code, const member_info *lead,
                                 group **out)
{
    group spec = group_party_spec(code);
    return group_set_create(s, &spec, lead, out);
}

/* Ten characters (issue 24): long enough that guessing at the gateway's throttled rate
 * stays hopeless (test_gateway_guess.c); a six-character code made before still reads, so
 * the parties and lobbies stored across an upgrade stay joinable. */
static void test_party_codes_are_ten_unambiguous_characters_read_in_any_case(void)
{
    char a[CODES_LEN + 1], b[CODES_LEN + 1], in[CODES_LEN + 1];
    CU_ASSERT_EQUAL_FATAL(codes_new(a), 0);
    CU_ASSERT_EQUAL_FATAL(codes_new(b), 0);
    CU_ASSERT_EQUAL(strlen(a), 10);
    CU_ASSERT_TRUE(codes_read("k7qx2m", b));
    CU_ASSERT_STRING_EQUAL(b, "K7QX2M");
    CU_ASSERT_FALSE(codes_read("K7QX2MK7", b));
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
    CU_ASSERT_PTR_NULL(strpbrk(a, "01OIL"));
    for (size_t i = 0; i <= CODES_LEN; i++)
        in[i] = (char)(a[i] >= 'A' && a[i] <= 'Z' ? a[i] + 32 : a[i]);
    CU_ASSERT_TRUE(codes_read(in, b));
    CU_ASSERT_STRING_EQUAL(b, a);
    CU_ASSERT_FALSE(codes_read("ABC", b));
    CU_ASSERT_FALSE(codes_read("ABCDE0", b));
    CU_ASSERT_FALSE(codes_read("ABCD\nE", b));
    CU_ASSERT_FALSE(codes_read(NULL, b));
}

static void test_party_join_full_already_and_not_found(void)
{
    group_set s;
    group_set_init(&s, PARTIES_MAX);
    group *p, *q;
    member_info lead = member("p0");
    CU_ASSERT_EQUAL_FATAL(party_create(&s, "AAAAAA", &lead, &p), GROUP_OK);
    CU_ASSERT_EQUAL(party_create(&s, "BBBBBB", &lead, &q), GROUP_ALREADY);
    char pid[16];
    for (int i = 1; i < QUEUE_PARTY_MAX; i++) {
        snprintf(pid, sizeof pid, "p%d", i);
        member_info m = member(pid);
        CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &m, &q), GROUP_OK);
        CU_ASSERT_PTR_EQUAL(q, p);
    }
    member_info extra = member("extra");
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &extra, &q), GROUP_FULL);
    CU_ASSERT_EQUAL(group_set_join(&s, "CCCCCC", &extra, &q), GROUP_NOT_FOUND);
    member_info again = member("p3");
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &again, &q), GROUP_ALREADY);
    CU_ASSERT_EQUAL(p->n, QUEUE_PARTY_MAX);
    CU_ASSERT_PTR_EQUAL(group_set_of(&s, "p5"), p);
    CU_ASSERT_PTR_NULL(group_set_of(&s, "extra"));
    group_set_free(&s);
}

static void test_party_leader_leaving_hands_over_and_the_last_closes_it(void)
{
    group_set s;
    group_set_init(&s, PARTIES_MAX);
    group *p;
    member_info a = member("a"), b = member("b"), c = member("c");
    CU_ASSERT_EQUAL_FATAL(party_create(&s, "AAAAAA", &a, &p), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &b, &p), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_join(&s, "AAAAAA", &c, &p), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_leave(&s, "a", &p), GROUP_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->members[0].player_id, "b");
    CU_ASSERT_STRING_EQUAL(p->members[1].player_id, "c");
    CU_ASSERT_PTR_NULL(group_set_of(&s, "a"));
    CU_ASSERT_EQUAL(group_set_leave(&s, "a", &p), GROUP_NOT_IN);
    CU_ASSERT_EQUAL(group_set_leave(&s, "c", &p), GROUP_OK);
    CU_ASSERT_EQUAL(group_set_leave(&s, "b", &p), GROUP_OK);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NULL(group_set_find(&s, "AAAAAA"));
    CU_ASSERT_EQUAL(group_set_count(&s), 0);
    group_set_free(&s);
}

static void test_party_count_is_capped(void)
{
    group_set s;
    group_set_init(&s, PARTIES_MAX);
    s.max = 2;
    group *p;
    member_info a = member("a"), b = member("b"), c = member("c");
    CU_ASSERT_EQUAL(party_create(&s, "AAAAAA", &a, &p), GROUP_OK);
    CU_ASSERT_EQUAL(party_create(&s, "BBBBBB", &b, &p), GROUP_OK);
    CU_ASSERT_EQUAL(party_create(&s, "CCCCCC", &c, &p), GROUP_TOO_MANY);
    group_set_free(&s);
}

/* A party is a group without a lobby's parts: never listed as an open lobby, and its seats
 * are the party's limit; freeing a set keeps its cap. */
static void test_party_is_a_group_never_listed_as_a_lobby(void)
{
    group_set s;
    group_set_init(&s, 1);
    group *p;
    member_info a = member("a"), b = member("b");
    CU_ASSERT_EQUAL_FATAL(party_create(&s, "AAAAAA", &a, &p), GROUP_OK);
    CU_ASSERT_EQUAL(p->seats, GROUP_MEMBERS_MAX);
    CU_ASSERT_FALSE(p->members[0].ready);
    const group *ls[2];
    CU_ASSERT_EQUAL(group_set_list(&s, NULL, ls, 2), 0);
    group_set_free(&s);
    CU_ASSERT_EQUAL(s.max, 1);
    CU_ASSERT_EQUAL(party_create(&s, "BBBBBB", &b, &p), GROUP_OK);
    CU_ASSERT_EQUAL(party_create(&s, "CCCCCC", &a, &p), GROUP_TOO_MANY);
    group_set_free(&s);
}

/* ---- through the matchmaker --------------------------------------------------------------- */

/* p1 makes a party at gw-1 and p2 joins it from gw-2; the code. */
static void make_party(rig_social *s, rig_mm *r, char code[CODES_LEN + 1])
{
    CU_ASSERT_EQUAL_FATAL(rs_do(s, r, r->gw, "p1", 1, rs_party_create(), 10), 0);
    const Deckhand__PartyState *st = rs_party(s, "p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(st);
    CU_ASSERT_EQUAL_FATAL(strlen(st->code), CODES_LEN);
    memcpy(code, st->code, CODES_LEN + 1);
    CU_ASSERT_EQUAL_FATAL(rs_do(s, r, r->gw2, "p2", 2, rs_party_join(code), 20), 0);
    rs_drain(s, r->gw, 20);
    for (int i = 0; i < 2; i++) {
        st = rs_party(s, i ? "p2" : "p1");
        CU_ASSERT_PTR_NOT_NULL_FATAL(st);
        CU_ASSERT_STRING_EQUAL(st->leader_id, "p1");
        CU_ASSERT_EQUAL(st->n_members, 2);
        CU_ASSERT_FALSE(st->closed);
    }
}

/* A fresh matchmaker with workers workers, and p1's party that p2 joined; its code. */
static void open_with_party(rig_mm *r, rig_social *s, int workers, char code[CODES_LEN + 1])
{
    rig_mm_open_fresh(r, "mm-a", workers);
    rs_init(s);
    make_party(s, r, code);
}

static void close_rigs(rig_mm *r, rig_social *s)
{
    rs_free(s);
    rig_mm_close(r);
}

/* pid at gw queues for a match of seats seats as cmd, pumped at now: the reply's code. */
static int queue_answer(rig_social *s, rig_mm *r, void *gw, const char *pid, uint64_t cmd,
                        uint32_t seats, uint64_t now)
{
    rig_mm_join(gw, pid, cmd, seats);
    rig_mm_pump(r, now);
    return rs_answer(s, gw, cmd);
}

static void test_party_members_hear_every_change_and_bad_codes_are_refused(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 2, code);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p3", 3, rs_party_join("ZZZZZZ"), 30),
                    DECKHAND__ERROR_CODE__NOT_FOUND);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p3", 4, rs_party_join("bad\ncode"), 30),
                    DECKHAND__ERROR_CODE__NOT_FOUND);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "p2", 5, rs_party_create(), 30),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p1", 6, rs_party_leave(), 40), 0);
    CU_ASSERT_TRUE(rs_party(&s, "p1")->closed);
    rs_drain(&s, r.gw2, 20);
    CU_ASSERT_STRING_EQUAL(rs_party(&s, "p2")->leader_id, "p2");
    CU_ASSERT_EQUAL(rs_party(&s, "p2")->n_members, 1);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p1", 7, rs_party_leave(), 50),
                    DECKHAND__ERROR_CODE__NOT_FOUND);
    /* the game list comes through the same path (games_answer): Games, then the reply */
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p1", 8, rs_games(), 50), 0);
    const Deckhand__Games *games = rs_games_of(&s, "p1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(games);
    CU_ASSERT_EQUAL(games->n_games, 1);
    CU_ASSERT_STRING_EQUAL(games->games[0]->game, "dominion");
    close_rigs(&r, &s);
}

static void test_party_queues_as_one_ticket_and_sits_in_one_match(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 2, code);
    /* a member may not queue the party */
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw2, "p2", 10, 3, 30),
                    DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 11, 3, 40), 0);
    rs_drain(&s, r.gw2, 20);
    CU_ASSERT_STRING_EQUAL(rs_party(&s, "p2")->queued_game, "dominion");
    const queue_ticket *members[QUEUE_PARTY_MAX];
    CU_ASSERT_EQUAL(queue_party(r.mm.queues, "p2", members, QUEUE_PARTY_MAX), 2);
    CU_ASSERT_STRING_EQUAL(queue_find(r.mm.queues, "p2", NULL)->gateway, "gw-2");
    /* the leader's client joins again after a reconnect */
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 15, 3, 45), 0);
    CU_ASSERT_EQUAL(queue_party(r.mm.queues, "p1", members, QUEUE_PARTY_MAX), 2);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL)); /* three seats: waits for a third */
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p3", 12, 3, 50), 0);
    int w;
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, &w);
    rig_mm_check_seats(m->start_match, "p1,p2,p3");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[1]->gateway_id, "gw-2");
    rig_mm_started(r.w[w], m->start_match->match_id, true);
    rig_mm_pump(&r, 60);
    Deckhand__Internal__Internal *a = rig_mm_next(r.gw2, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(a->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
    CU_ASSERT_STRING_EQUAL(a->match_assigned->match_id, m->start_match->match_id);
    deckhand__internal__internal__free_unpacked(a, NULL);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_PTR_NOT_NULL(group_set_of(&r.mm.parties, "p2")); /* the party outlives its match */
    close_rigs(&r, &s);
}

/* Issue 29: the party panel still said "Queued for dominion" after the party's match
 * started (and ended): once its match starts, every member hears the party is no longer
 * queued. */
static void test_party_is_no_longer_queued_once_its_match_starts(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 1, code);
    /* two seats: the party fills its match */
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 11, 2, 40), 0);
    rs_drain(&s, r.gw2, 20);
    CU_ASSERT_STRING_EQUAL(rs_party(&s, "p2")->queued_game, "dominion");
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_started(r.w[0], m->start_match->match_id, true);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_pump(&r, 60);
    rs_drain(&s, r.gw, 20);
    rs_drain(&s, r.gw2, 20);
    for (int i = 0; i < 2; i++) {
        const Deckhand__PartyState *ps = rs_party(&s, i ? "p2" : "p1");
        CU_ASSERT_PTR_NOT_NULL_FATAL(ps);
        CU_ASSERT_STRING_EQUAL(ps->queued_game, "");
        CU_ASSERT_FALSE(ps->closed);
    }
    close_rigs(&r, &s);
}

static void test_party_member_leave_takes_the_party_out_of_the_line(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 2, code);
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 11, 3, 30), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "p3", 12, rs_party_join(code), 35),
                    DECKHAND__ERROR_CODE__BAD_REQUEST); /* queued: no one joins */
    rig_mm_leave(r.gw2, "p2", 13);
    rig_mm_pump(&r, 40);
    CU_ASSERT_EQUAL(rs_answer(&s, r.gw2, 13), 0);
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p2"));
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_TICKETS), 0);
    rs_drain(&s, r.gw2, 20); /* the party's state follows the leave's answer */
    CU_ASSERT_STRING_EQUAL(rs_party(&s, "p2")->queued_game, "");
    /* queued again, then a member leaves the party: the rest leave the line too */
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 14, 3, 50), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw2, "p2", 15, rs_party_leave(), 60), 0);
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    close_rigs(&r, &s);
}

static void test_party_member_away_past_grace_leaves_and_the_rest_wait_on(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 2, code);
    char err[64];
    CU_ASSERT_EQUAL_FATAL(
        settings_parse_line(&r.mm.settings, "dominion casual grace_ms=500", err, sizeof err), 0);
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 11, 3, 30), 0);
    rig_mm_away(r.gw2, "p2");
    rig_mm_pump(&r, 40);
    rs_drain(&s, r.gw, 20);
    CU_ASSERT_FALSE(rs_party(&s, "p1")->members[1]->connected);
    /* two more join: the party's ticket is passed over while p2 is away */
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p3", 12, 3, 50), 0);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    rig_mm_pump(&r, 600); /* past the grace: p2 is out, p1 waits on alone */
    rs_drain(&s, r.gw, 20);
    const Deckhand__PartyState *st = rs_party(&s, "p1");
    CU_ASSERT_EQUAL(st->n_members, 1);
    CU_ASSERT_STRING_EQUAL(st->queued_game, "dominion");
    CU_ASSERT_PTR_NULL(group_set_of(&r.mm.parties, "p2"));
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p2"));
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p1"));
    CU_ASSERT_EQUAL(rig_redis_int("HEXISTS " DH_KEY_MM_TICKETS " p2"), 0);
    CU_ASSERT_EQUAL(rig_mm_joined(&r, r.gw, "p4", 13, 3, 610), 0);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    CU_ASSERT_EQUAL_FATAL(m->start_match->n_seats, 3);
    char seats[64];
    snprintf(seats, sizeof seats, "%s,%s,%s", m->start_match->seats[0]->player_id,
             m->start_match->seats[1]->player_id, m->start_match->seats[2]->player_id);
    CU_ASSERT_PTR_NOT_NULL(strstr(seats, "p1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(seats, "p3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(seats, "p4"));
    deckhand__internal__internal__free_unpacked(m, NULL);
    close_rigs(&r, &s);
}

/* A member whose connection is down when the leader queues: the ticket waits passed over
 * until the member is back (on another gateway), then sits in its match. */
static void test_party_queued_with_an_away_member_waits_for_it(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 2, code);
    rig_mm_away(r.gw2, "p2");
    rig_mm_pump(&r, 25);
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 11, 2, 30), 0);
    CU_ASSERT_NOT_EQUAL(queue_find(r.mm.queues, "p2", NULL)->away_since_ms, 0);
    rig_mm_pump(&r, 100);
    CU_ASSERT_PTR_NULL(rig_mm_next_start(&r, NULL));
    rig_mm_back(r.gw, "p2"); /* resumed on gw-1 */
    rig_mm_pump(&r, 200);
    Deckhand__Internal__Internal *m = rig_mm_expect_start(&r, NULL);
    rig_mm_check_seats(m->start_match, "p1,p2");
    CU_ASSERT_STRING_EQUAL(m->start_match->seats[1]->gateway_id, "gw-1");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_STRING_EQUAL(group_set_of(&r.mm.parties, "p2")->members[1].gateway, "gw-1");
    close_rigs(&r, &s);
}

static void test_party_larger_than_the_match_is_refused(void)
{
    rig_mm r;
    rig_social s;
    char code[CODES_LEN + 1];
    open_with_party(&r, &s, 1, code);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p3", 3, rs_party_join(code), 25), 0);
    CU_ASSERT_EQUAL(queue_answer(&s, &r, r.gw, "p1", 4, 2, 30), DECKHAND__ERROR_CODE__BAD_REQUEST);
    CU_ASSERT_STRING_EQUAL(s.why, "the party has more players than the match seats");
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p3"));
    close_rigs(&r, &s);
}

/* Parties are stored: the matchmaker that wins the lease after a failover has the party,
 * its leader and its queued ticket, and a party that closed is gone from Redis. */
static void test_party_survives_a_matchmaker_failover(void)
{
    rig_mm a, b;
    rig_social s;
    rig_mm_open_fresh(&a, "mm-a", 2);
    rs_init(&s);
    char code[CODES_LEN + 1];
    make_party(&s, &a, code);
    CU_ASSERT_EQUAL(rs_do(&s, &a, a.gw, "p9", 3, rs_party_create(), 25), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &a, a.gw, "p9", 4, rs_party_leave(), 25), 0); /* closed */
    CU_ASSERT_EQUAL(queue_answer(&s, &a, a.gw, "p1", 5, 3, 30), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_PARTIES), 1);
    rig_mm_close(&a); /* dies */
    rig_mm_lease_lapses();

    rig_mm_open(&b, "mm-b", rig_redis_url(), 2, 0);
    CU_ASSERT_TRUE_FATAL(mm_acting(&b.mm, 0));
    const group *p = group_set_of(&b.mm.parties, "p2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(p->code, code);
    CU_ASSERT_EQUAL(p->n, 2);
    CU_ASSERT_STRING_EQUAL(p->members[0].player_id, "p1");
    CU_ASSERT_STRING_EQUAL(p->members[1].gateway, "gw-2");
    CU_ASSERT_EQUAL(group_set_count(&b.mm.parties), 1);
    const queue_ticket *members[QUEUE_PARTY_MAX];
    CU_ASSERT_EQUAL(queue_party(b.mm.queues, "p2", members, QUEUE_PARTY_MAX), 2);
    /* it goes on as before: a member's leave takes the party out of the line */
    CU_ASSERT_EQUAL(rs_do(&s, &b, b.gw2, "p2", 6, rs_party_leave(), 10), 0);
    CU_ASSERT_FALSE(queue_has(b.mm.queues, "p1"));
    CU_ASSERT_EQUAL(group_set_of(&b.mm.parties, "p1")->n, 1);
    CU_ASSERT_EQUAL(rs_do(&s, &b, b.gw, "p1", 7, rs_party_leave(), 10), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN " DH_KEY_MM_PARTIES), 0);
    rs_free(&s);
    rig_mm_close(&b);
}

static void test_party_count_past_the_cap_is_overloaded(void)
{
    rig_mm r;
    rig_social s;
    rig_mm_open_fresh(&r, "mm-a", 1);
    rs_init(&s);
    r.mm.parties.max = 1;
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p1", 1, rs_party_create(), 10), 0);
    CU_ASSERT_EQUAL(rs_do(&s, &r, r.gw, "p2", 2, rs_party_create(), 10),
                    DECKHAND__ERROR_CODE__OVERLOADED);
    close_rigs(&r, &s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"party_codes_are_ten_unambiguous_characters_read_in_any_case",
         test_party_codes_are_ten_unambiguous_characters_read_in_any_case},
        {"party_join_full_already_and_not_found", test_party_join_full_already_and_not_found},
        {"party_leader_leaving_hands_over_and_the_last_closes_it",
         test_party_leader_leaving_hands_over_and_the_last_closes_it},
        {"party_count_is_capped", test_party_count_is_capped},
        {"party_is_a_group_never_listed_as_a_lobby", test_party_is_a_group_never_listed_as_a_lobby},
        {"party_members_hear_every_change_and_bad_codes_are_refused",
         test_party_members_hear_every_change_and_bad_codes_are_refused},
        {"party_queues_as_one_ticket_and_sits_in_one_match",
         test_party_queues_as_one_ticket_and_sits_in_one_match},
        {"party_is_no_longer_queued_once_its_match_starts",
         test_party_is_no_longer_queued_once_its_match_starts},
        {"party_member_leave_takes_the_party_out_of_the_line",
         test_party_member_leave_takes_the_party_out_of_the_line},
        {"party_member_away_past_grace_leaves_and_the_rest_wait_on",
         test_party_member_away_past_grace_leaves_and_the_rest_wait_on},
        {"party_queued_with_an_away_member_waits_for_it",
         test_party_queued_with_an_away_member_waits_for_it},
        {"party_larger_than_the_match_is_refused", test_party_larger_than_the_match_is_refused},
        {"party_survives_a_matchmaker_failover", test_party_survives_a_matchmaker_failover},
        {"party_count_past_the_cap_is_overloaded", test_party_count_past_the_cap_is_overloaded},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_parties", cases);
}
