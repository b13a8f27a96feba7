/*
 * test_matchmaker_takeover.c: moving the matches of dead workers (matchmaker/failover/takeover.c)
 * against a real Redis: the move script's compare-and-move, the sweep that finds dead
 * and unknown workers' matches and sends AdoptMatch to a live worker, the MatchMoved
 * broadcast, and a refused or silent adoption moving the match again.
 *
 * The rig (tests/unit/rig_mm.h) is one acting matchmaker with three fake workers (wk-a,
 * wk-b, wk-c) and two gateways; the test moves the clock and writes the match metadata
 * a worker would have written.
 */
#include "dh_keys.h"
#include "rig_mm.h"
#include "rig_redis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fresh Redis and a matchmaker on it that holds the lease. */
static void open_acting(rig_mm *r)
{
    rig_mm_open_fresh(r, "mm-t", 3);
    CU_ASSERT_TRUE_FATAL(mm_acting(&r->mm, 0));
}

/* wk-a beats never, wk-b and wk-c twice: at 2000 wk-a is dead and its matches move. */
static void wk_a_falls_silent(rig_mm *r)
{
    rig_mm_beats(r, 6);
    rig_mm_pump(r, 1000);
    rig_mm_beats(r, 6);
    rig_mm_pump(r, 2000);
}

/* A field of match:{id}, copied into out ("" when missing). */
static const char *meta(const char *id, const char *field, char *out, size_t cap)
{
    redisReply *r = rig_redis_cmd("HGET match:{%s} %s", id, field);
    snprintf(out, cap, "%s", r && r->type == REDIS_REPLY_STRING ? r->str : "");
    if (r)
        freeReplyObject(r);
    return out;
}

/* Redis says match id is on worker at epoch. */
static void on_worker(const char *id, const char *worker, const char *epoch)
{
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta(id, "worker", v, sizeof v), worker);
    CU_ASSERT_STRING_EQUAL(meta(id, "epoch", v, sizeof v), epoch);
}

/* A running match as its worker would have stored it. */
static void put_match(const char *id, const char *worker, const char *status)
{
    rig_redis_ok(
        "HSET match:{%s} game dominion worker %s epoch 1 status %s player_ids p1,p2 players A,B",
        id, worker, status);
    if (!strcmp(status, "running"))
        rig_redis_ok("HSET matches:running %s %s", id, worker);
}

static void send_adopted(void *sock, const char *match_id, bool ok, bool with_ids)
{
    char *ids[] = {(char *)"p1", (char *)"p2"};
    Deckhand__Internal__MatchAdopted a = DECKHAND__INTERNAL__MATCH_ADOPTED__INIT;
    a.match_id = (char *)match_id;
    a.ok = ok;
    a.error = (char *)(ok ? "" : "bundle missing");
    if (with_ids) {
        a.n_player_ids = 2;
        a.player_ids = ids;
    }
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED;
    m.match_adopted = &a;
    rig_mm_send(sock, &m);
}

/* Which worker (index) got an AdoptMatch for match_id next; -1 when none did. The
 * epoch goes to *epoch. */
static int adopter(rig_mm *r, const char *match_id, uint64_t *epoch)
{
    for (int i = 0; i < 3; i++) {
        Deckhand__Internal__Internal *m = rig_mm_next(r->w[i], 50);
        if (!m)
            continue;
        int got = -1;
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADOPT_MATCH &&
            !strcmp(m->adopt_match->match_id, match_id)) {
            got = i;
            if (epoch)
                *epoch = m->adopt_match->epoch;
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
        if (got >= 0)
            return got;
    }
    return -1;
}

static void test_takeover_script_moves_only_from_the_named_worker(void)
{
    rig_mm r;
    open_acting(&r);
    char v[64];
    put_match("m1", "wk-a", "running");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-b", "wk-c"), 0);
    on_worker("m1", "wk-a", "1");
    CU_ASSERT_EQUAL(rig_redis_int("SCARD worker:{%s}:adopt", "wk-c"), 0);

    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-c"), 2);
    on_worker("m1", "wk-c", "2");
    redisReply *run = rig_redis_cmd("HGET matches:running m1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(run);
    CU_ASSERT_STRING_EQUAL(run->str, "wk-c");
    freeReplyObject(run);
    CU_ASSERT_EQUAL(rig_redis_int("SISMEMBER worker:{%s}:adopt %s", "wk-c", "m1"), 1);
    /* the same move again finds it moved already */
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-b"), 0);
    CU_ASSERT_STRING_EQUAL(meta("m1", "epoch", v, sizeof v), "2");
    CU_ASSERT_EQUAL(rig_redis_int("SCARD worker:{%s}:adopt", "wk-b"), 0);
    rig_mm_close(&r);
}

static void test_takeover_script_refuses_a_finished_match_and_a_lost_lease(void)
{
    rig_mm r;
    open_acting(&r);
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m-none", "wk-a", "wk-b"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{%s}", "m-none"), 0);
    char v[64];
    put_match("m1", "wk-a", "finished");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-b"), 0);
    on_worker("m1", "wk-a", "1");

    put_match("m2", "wk-a", "running");
    rig_redis_ok("SET " DH_KEY_MM_LEASE " mm-other");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m2", "wk-a", "wk-b"), -1);
    CU_ASSERT_STRING_EQUAL(meta("m2", "worker", v, sizeof v), "wk-a");
    CU_ASSERT_FALSE(mm_acting(&r.mm, 10));
    rig_mm_close(&r);
}

static void test_takeover_sweep_moves_a_dead_workers_matches_to_live_workers(void)
{
    rig_mm r;
    open_acting(&r);
    put_match("m1", "wk-a", "running");
    put_match("m2", "wk-a", "running");
    put_match("m3", "wk-b", "running");
    rig_mm_beats(&r, 7);
    rig_mm_pump(&r, 500);
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_mm_beats(&r, 6); /* wk-a falls silent after 500 */
    rig_mm_pump(&r, 1000);
    rig_mm_beats(&r, 6);
    rig_mm_pump(&r, 2001); /* wk-a silent 1501 ms: dead */
    uint64_t e1 = 0, e2 = 0;
    int a1 = adopter(&r, "m1", &e1), a2 = adopter(&r, "m2", &e2);
    CU_ASSERT(a1 == 1 || a1 == 2);
    CU_ASSERT(a2 == 1 || a2 == 2);
    CU_ASSERT_NOT_EQUAL(a1, a2); /* pending load spreads them */
    CU_ASSERT_EQUAL(e1, 2);
    CU_ASSERT_EQUAL(e2, 2);
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), rig_mm_worker_ids[a1]);
    on_worker("m3", "wk-b", "1");
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, rig_mm_worker_ids[a1])->adopting, 1);

    /* the adopter answers: every gateway learns where m1 is now */
    send_adopted(r.w[a1], "m1", true, true);
    rig_mm_pump(&r, 2100);
    void *gws[] = {r.gw, r.gw2};
    for (int g = 0; g < 2; g++) {
        Deckhand__Internal__Internal *m = rig_mm_next(gws[g], 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_MOVED);
        const Deckhand__Internal__MatchMoved *mv = m->match_moved;
        CU_ASSERT_STRING_EQUAL(mv->match_id, "m1");
        CU_ASSERT_STRING_EQUAL(mv->worker_id, rig_mm_worker_ids[a1]);
        CU_ASSERT_STRING_EQUAL(mv->worker_endpoint, a1 == 1 ? "tcp://b:1" : "tcp://c:1");
        CU_ASSERT_EQUAL_FATAL(mv->n_player_ids, 2);
        CU_ASSERT_STRING_EQUAL(mv->player_ids[0], "p1");
        CU_ASSERT_STRING_EQUAL(mv->player_ids[1], "p2");
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, rig_mm_worker_ids[a1])->adopting, 0);
    /* an adopter that does not name the players: the ids come from the match meta */
    send_adopted(r.w[a2], "m2", true, false);
    rig_mm_pump(&r, 2200);
    Deckhand__Internal__Internal *m = rig_mm_next(r.gw, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->match_moved->n_player_ids, 2);
    CU_ASSERT_STRING_EQUAL(m->match_moved->player_ids[1], "p2");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(r.mm.takeover.n, 0);
    rig_mm_close(&r);
}

/* A match of worker (wk-a dies, wk-ghost is unknown) with the workers of mask beating:
 * not moved at before, moved at after. */
static void moved_between(const char *worker, unsigned mask, uint64_t before, uint64_t after)
{
    rig_mm r;
    open_acting(&r);
    put_match("m1", worker, "running");
    rig_mm_beats(&r, mask);
    rig_mm_pump(&r, before);
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_mm_beats(&r, mask);
    rig_mm_pump(&r, after);
    CU_ASSERT_NOT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_mm_close(&r);
}

static void test_takeover_runs_in_the_tick_that_declares_the_worker_dead(void)
{
    /* a sweep at 1400: the next is due at 1900, after wk-a is dead */
    moved_between("wk-a", 6, 1400, REGISTRY_DEAD_MS + 1);
}

static void test_takeover_unknown_worker_counts_as_dead_only_after_the_startup_grace(void)
{
    moved_between("wk-ghost", 7, TAKEOVER_UNKNOWN_DEAD_MS - 1,
                  TAKEOVER_UNKNOWN_DEAD_MS + TAKEOVER_SWEEP_MS);
}

/* A player seated in a running match who queues again (its MatchFound reached nobody)
 * gets that match's assignment again, not a second match; once Redis says the match is
 * finished (its MatchEnded not here yet), the same join queues as usual. */
static void test_join_while_seated_in_a_running_match_gets_it_again(void)
{
    rig_mm r;
    open_acting(&r);
    rig_mm_seat(&r.mm.seated, "p2", "m-s", 1, "wk-a");
    put_match("m-s", "wk-a", "running");
    rig_mm_beats(&r, 7);
    rig_mm_join(r.gw, "p2", 40, 2);
    rig_mm_pump(&r, 100);
    Deckhand__Internal__Internal *m = rig_mm_next(r.gw, 200);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
    CU_ASSERT_TRUE(m->queue_reply->ok && m->queue_reply->cmd_id == 40);
    deckhand__internal__internal__free_unpacked(m, NULL);
    m = rig_mm_next(r.gw, 200);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
    CU_ASSERT_STRING_EQUAL(m->match_assigned->player_id, "p2");
    CU_ASSERT_STRING_EQUAL(m->match_assigned->match_id, "m-s");
    CU_ASSERT_EQUAL(m->match_assigned->seat, 1);
    CU_ASSERT_STRING_EQUAL(m->match_assigned->players[0], "ann");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p2"));

    rig_redis_ok("HSET match:{m-s} status finished");
    rig_mm_beats(&r, 7);
    rig_mm_join(r.gw, "p2", 41, 2);
    rig_mm_pump(&r, 200);
    m = rig_mm_next(r.gw, 200);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
    CU_ASSERT_TRUE(m->queue_reply->ok && m->queue_reply->cmd_id == 41);
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_TRUE(queue_has(r.mm.queues, "p2"));
    CU_ASSERT_PTR_NULL(seated_find(&r.mm.seated, "p2"));
    rig_mm_close(&r);
}

/* How many HGETALLs Redis has served: the sweeps' reads of matches:running. */
static long long hgetall_calls(void)
{
    redisReply *r = rig_redis_cmd("INFO commandstats");
    long long n = 0;
    const char *p = r && r->type == REDIS_REPLY_STRING ? r->str : NULL;
    if (p && (p = strstr(p, "cmdstat_hgetall:calls=")))
        n = strtoll(p + strlen("cmdstat_hgetall:calls="), NULL, 10);
    if (r)
        freeReplyObject(r);
    return n;
}

/* With nothing dead and the start-up grace over, matches:running is read only every
 * TAKEOVER_IDLE_SWEEP_MS, not every TAKEOVER_SWEEP_MS; a match of a worker nobody knows
 * is still moved, at that idle sweep. */
static void test_takeover_sweeps_rarely_when_nothing_is_dead(void)
{
    rig_mm r;
    open_acting(&r);
    uint64_t t = TAKEOVER_UNKNOWN_DEAD_MS + TAKEOVER_SWEEP_MS + 10;
    for (uint64_t now = 500; now <= t; now += 500) { /* small steps: the lease is renewed */
        rig_mm_beats(&r, 7);
        rig_mm_pump(&r, now);
    }
    rig_mm_beats(&r, 7);
    rig_mm_pump(&r, t); /* the first sweep after the grace: nothing found */
    long long before = hgetall_calls();
    CU_ASSERT(before > 0);
    put_match("m1", "wk-ghost", "running");
    for (uint64_t dt = 500; dt < TAKEOVER_IDLE_SWEEP_MS; dt += 500) {
        rig_mm_beats(&r, 7);
        rig_mm_pump(&r, t + dt);
    }
    CU_ASSERT_EQUAL(hgetall_calls(), before);
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_mm_beats(&r, 7);
    rig_mm_pump(&r, t + TAKEOVER_IDLE_SWEEP_MS);
    CU_ASSERT_EQUAL(hgetall_calls(), before + 1);
    CU_ASSERT_NOT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_mm_close(&r);
}

/* A move deletes the old owner's worker:{ID}:moves in the same script (a worker fencing
 * once per loop turn sees it: dh_keys.h); a move that does not happen deletes nothing, and
 * the sweep's moves do the same as the single one. */
static void test_takeover_move_deletes_the_old_owners_move_token(void)
{
    rig_mm r;
    open_acting(&r);
    put_match("m1", "wk-a", "running");
    rig_redis_ok("SET worker:{wk-a}:moves tok-a");
    rig_redis_ok("SET worker:{wk-b}:moves tok-b");
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-b", "wk-c"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{%s}:moves", "wk-a"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{%s}:moves", "wk-b"), 1);
    CU_ASSERT_EQUAL(takeover_move_script(&r.mm, 10, "m1", "wk-a", "wk-c"), 2);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{%s}:moves", "wk-a"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{%s}:moves", "wk-b"), 1);
    rig_mm_close(&r);

    open_acting(&r);
    put_match("m2", "wk-a", "running");
    rig_redis_ok("SET worker:{wk-a}:moves tok-a2");
    wk_a_falls_silent(&r);
    CU_ASSERT_NOT_EQUAL(adopter(&r, "m2", NULL), -1);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{%s}:moves", "wk-a"), 0);
    rig_mm_close(&r);
}

static void test_takeover_refused_adoption_moves_the_match_again_elsewhere(void)
{
    rig_mm r;
    open_acting(&r);
    put_match("m1", "wk-a", "running");
    wk_a_falls_silent(&r);
    uint64_t epoch = 0;
    int first = adopter(&r, "m1", &epoch);
    CU_ASSERT_FATAL(first == 1 || first == 2);
    send_adopted(r.w[first], "m1", false, false);
    rig_mm_beats(&r, 6);
    rig_mm_pump(&r, 2050);
    rig_mm_pump(&r, 2100);
    int second = adopter(&r, "m1", &epoch);
    CU_ASSERT_EQUAL(second, first == 1 ? 2 : 1);
    CU_ASSERT_EQUAL(epoch, 3);
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta("m1", "worker", v, sizeof v), rig_mm_worker_ids[second]);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, rig_mm_worker_ids[first])->adopting, 0);
    rig_mm_close(&r);
}

static void test_takeover_silent_adopter_loses_the_match_after_the_timeout(void)
{
    rig_mm r;
    open_acting(&r);
    put_match("m1", "wk-a", "running");
    wk_a_falls_silent(&r);
    int first = adopter(&r, "m1", NULL);
    CU_ASSERT_FATAL(first == 1 || first == 2);
    uint64_t t = 2000;
    for (; t < 2000 + TAKEOVER_ADOPT_TIMEOUT_MS; t += 400) {
        rig_mm_beats(&r, 6);
        rig_mm_pump(&r, t);
    }
    CU_ASSERT_EQUAL(adopter(&r, "m1", NULL), -1);
    rig_mm_beats(&r, 6);
    rig_mm_pump(&r, 2000 + TAKEOVER_ADOPT_TIMEOUT_MS);
    rig_mm_pump(&r, 2000 + TAKEOVER_ADOPT_TIMEOUT_MS + 50);
    uint64_t epoch = 0;
    CU_ASSERT_EQUAL(adopter(&r, "m1", &epoch), first == 1 ? 2 : 1);
    CU_ASSERT_EQUAL(epoch, 3);
    rig_mm_close(&r);
}

/* An adopter that dies in turn (its connection closed) before answering gives its
 * adoptions up at once: they move again in the same tick, not after the 3 s timeout. */
static void test_takeover_adopter_that_dies_gives_the_match_up_at_once(void)
{
    rig_mm r;
    open_acting(&r);
    put_match("m1", "wk-a", "running");
    wk_a_falls_silent(&r);
    int first = adopter(&r, "m1", NULL);
    CU_ASSERT_FATAL(first == 1 || first == 2);
    CU_ASSERT_TRUE(registry_lost(&r.mm.reg, rig_mm_worker_ids[first], "connection closed"));
    int other = first == 1 ? 2 : 1;
    rig_mm_beats(&r, 1u << other);
    rig_mm_pump(&r, 2050);
    uint64_t epoch = 0;
    CU_ASSERT_EQUAL(adopter(&r, "m1", &epoch), other);
    CU_ASSERT_EQUAL(epoch, 3);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, rig_mm_worker_ids[first])->adopting, 0);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, rig_mm_worker_ids[other])->adopting, 1);
    rig_mm_close(&r);
}

static void test_takeover_of_an_unanswered_placement_assigns_its_players_to_the_adopter(void)
{
    rig_mm r;
    open_acting(&r);
    rig_mm_join(r.gw, "p1", 1, 2);
    rig_mm_join(r.gw, "p2", 2, 2);
    rig_mm_pump(&r, 10);
    for (int i = 0; i < 2; i++) {
        Deckhand__Internal__Internal *qr = rig_mm_next(r.gw, 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(qr);
        CU_ASSERT_EQUAL(qr->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_REPLY);
        deckhand__internal__internal__free_unpacked(qr, NULL);
    }
    int x;
    char match_id[64] = "";
    Deckhand__Internal__Internal *start = rig_mm_next_start(&r, &x);
    if (start) {
        snprintf(match_id, sizeof match_id, "%s", start->start_match->match_id);
        deckhand__internal__internal__free_unpacked(start, NULL);
    }
    CU_ASSERT_FATAL(x >= 0);
    /* the worker created the match, then died before answering */
    put_match(match_id, rig_mm_worker_ids[x], "running");
    unsigned others = 7u & ~(1u << x);
    rig_mm_beats(&r, others);
    rig_mm_pump(&r, 1000);
    rig_mm_beats(&r, others);
    rig_mm_pump(&r, 1600);
    uint64_t epoch = 0;
    int y = adopter(&r, match_id, &epoch);
    CU_ASSERT_FATAL(y >= 0 && y != x);
    CU_ASSERT_EQUAL(epoch, 2);
    /* past the placement's deadline: it waits for the adopter instead of requeueing */
    rig_mm_beats(&r, others);
    rig_mm_pump(&r, 10 + PLACEMENT_TIMEOUT_MS + 100);
    CU_ASSERT_EQUAL(r.mm.placements.n, 1);
    CU_ASSERT_PTR_NOT_NULL(placement_find(&r.mm.placements, match_id));
    CU_ASSERT_FALSE(queue_has(r.mm.queues, "p1"));
    send_adopted(r.w[y], match_id, true, true);
    rig_mm_pump(&r, 10 + PLACEMENT_TIMEOUT_MS + 200);
    for (uint32_t seat = 0; seat < 2; seat++) {
        Deckhand__Internal__Internal *m = rig_mm_next(r.gw, 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_EQUAL_FATAL(m->body_case, DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED);
        CU_ASSERT_STRING_EQUAL(m->match_assigned->match_id, match_id);
        CU_ASSERT_EQUAL(m->match_assigned->seat, seat);
        CU_ASSERT_STRING_EQUAL(m->match_assigned->worker_id, rig_mm_worker_ids[y]);
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_PTR_NULL(rig_mm_next(r.gw2, 50)); /* no MatchMoved: nobody knew the match yet */
    CU_ASSERT_EQUAL(r.mm.placements.n, 0);
    CU_ASSERT_EQUAL(r.mm.takeover.n, 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN mm:{mm}:placements"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN mm:{mm}:tickets"), 0);
    rig_mm_close(&r);
}

/* The matchmaker's Redis round trips so far (one per command or pipeline: rconn.c). */
static uint64_t round_trips(const mm_state *mm)
{
    uint64_t n = 0;
    for (size_t i = 0; i <= mm->stats.redis_seconds.n; i++)
        n += mm->stats.redis_seconds.counts[i];
    return n;
}

/* AdoptMatch messages waiting at sock. */
static size_t adopts_at(void *sock)
{
    size_t n = 0;
    Deckhand__Internal__Internal *m;
    while ((m = rig_mm_next(sock, 50))) {
        n += m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_ADOPT_MATCH;
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    return n;
}

/* Every match of a dead worker moves in the sweep that declares it dead: more than
 * REGISTRY_PENDING_MAX per adopter (that cap is for StartMatch bursts), spread evenly over
 * the live workers, in a few round trips (the running list, the metadata and the lease once,
 * then the move scripts and the index writes per TAKEOVER_CHUNK matches), and every adopter
 * hears of each of its matches. The tree moved 200 per sweep, each match's index
 * writes their own round trip. */
static void test_takeover_moves_every_match_in_one_sweep(void)
{
    enum { TOTAL = 2 * REGISTRY_PENDING_MAX + 100 };
    rig_mm r;
    open_acting(&r);
    for (int i = 0; i < TOTAL; i++) {
        char id[16];
        snprintf(id, sizeof id, "m%04d", i);
        put_match(id, "wk-a", "running");
    }
    rig_mm_beats(&r, 6);
    rig_mm_pump(&r, 1000);
    rig_mm_beats(&r, 6);
    uint64_t trips = round_trips(&r.mm);
    rig_mm_pump(&r, 2000);
    trips = round_trips(&r.mm) - trips;
    CU_ASSERT(trips <= 3 + 2 * ((TOTAL + TAKEOVER_CHUNK - 1) / TAKEOVER_CHUNK) + 3);
    long long b = rig_redis_int("SCARD worker:{%s}:adopt", "wk-b");
    long long c = rig_redis_int("SCARD worker:{%s}:adopt", "wk-c");
    CU_ASSERT_EQUAL(b + c, TOTAL);
    CU_ASSERT(b - c <= 1 && c - b <= 1);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN matches:running"), TOTAL);
    CU_ASSERT_EQUAL(r.mm.takeover.n, (size_t)TOTAL);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, "wk-b")->adopting, (uint32_t)b);
    CU_ASSERT_EQUAL(registry_find(&r.mm.reg, "wk-b")->pending, 0);
    CU_ASSERT_EQUAL(adopts_at(r.w[1]), (size_t)b);
    CU_ASSERT_EQUAL(adopts_at(r.w[2]), (size_t)c);
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta("m0000", "epoch", v, sizeof v), "2");
    CU_ASSERT_STRING_NOT_EQUAL(meta("m0000", "worker", v, sizeof v), "wk-a");
    rig_mm_close(&r);
}

/* The SIGSEGV ("match ... adopted by wk-2: telling 2 gateways", then an invalid
 * read inside libc during takeover churn): a sweep whose candidates included a move
 * waiting to be retried (pointing into the move records) grew those records for the
 * new moves, and the moves' Redis commands then read the retried match's strings from
 * the freed array. Under ASan this is a heap-use-after-free. */
static void test_takeover_retry_survives_the_move_records_growing(void)
{
    rig_mm r;
    open_acting(&r);
    put_match("m-retry", "wk-a", "running");
    wk_a_falls_silent(&r);
    int first = adopter(&r, "m-retry", NULL);
    CU_ASSERT_FATAL(first == 1 || first == 2);
    CU_ASSERT_EQUAL(r.mm.takeover.n, 1);
    /* more of the dead worker's matches than the records had room for (16 before the
     * fix), all in the next sweep with the retry */
    for (size_t i = 0; i < 300; i++) {
        char id[32];
        snprintf(id, sizeof id, "m%03zu", i);
        put_match(id, "wk-a", "running");
    }
    send_adopted(r.w[first], "m-retry", false, false); /* refused: moved again next sweep */
    rig_mm_beats(&r, 6);
    rig_mm_pump(&r, 2050);
    int second = adopter(&r, "m-retry", NULL);
    CU_ASSERT_EQUAL(second, first == 1 ? 2 : 1);
    char v[64];
    CU_ASSERT_STRING_EQUAL(meta("m-retry", "worker", v, sizeof v), rig_mm_worker_ids[second]);
    CU_ASSERT_EQUAL(r.mm.takeover.n, 301);
    rig_mm_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"takeover_script_moves_only_from_the_named_worker",
         test_takeover_script_moves_only_from_the_named_worker},
        {"takeover_script_refuses_a_finished_match_and_a_lost_lease",
         test_takeover_script_refuses_a_finished_match_and_a_lost_lease},
        {"takeover_sweep_moves_a_dead_workers_matches_to_live_workers",
         test_takeover_sweep_moves_a_dead_workers_matches_to_live_workers},
        {"takeover_runs_in_the_tick_that_declares_the_worker_dead",
         test_takeover_runs_in_the_tick_that_declares_the_worker_dead},
        {"takeover_unknown_worker_counts_as_dead_only_after_the_startup_grace",
         test_takeover_unknown_worker_counts_as_dead_only_after_the_startup_grace},
        {"takeover_move_deletes_the_old_owners_move_token",
         test_takeover_move_deletes_the_old_owners_move_token},
        {"takeover_refused_adoption_moves_the_match_again_elsewhere",
         test_takeover_refused_adoption_moves_the_match_again_elsewhere},
        {"takeover_silent_adopter_loses_the_match_after_the_timeout",
         test_takeover_silent_adopter_loses_the_match_after_the_timeout},
        {"takeover_adopter_that_dies_gives_the_match_up_at_once",
         test_takeover_adopter_that_dies_gives_the_match_up_at_once},
        {"takeover_of_an_unanswered_placement_assigns_its_players_to_the_adopter",
         test_takeover_of_an_unanswered_placement_assigns_its_players_to_the_adopter},
        {"takeover_moves_every_match_in_one_sweep", test_takeover_moves_every_match_in_one_sweep},
        {"join_while_seated_in_a_running_match_gets_it_again",
         test_join_while_seated_in_a_running_match_gets_it_again},
        {"takeover_sweeps_rarely_when_nothing_is_dead",
         test_takeover_sweeps_rarely_when_nothing_is_dead},
        {"takeover_retry_survives_the_move_records_growing",
         test_takeover_retry_survives_the_move_records_growing},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_takeover", cases);
}
