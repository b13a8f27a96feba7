/*
 * test_worker_adopt.c: a match moving between workers (worker/host_adopt.c, host.c), in the
 * rig of rig_worker.h: the new owner restores it exactly from Redis and the old one is
 * fenced; a worker that was frozen while its matches moved drops them by itself; a big
 * move is adopted in rounds bounded in time, each match answered as it is adopted.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"

static void test_worker_adopts_a_moved_match_exactly_and_the_old_owner_is_fenced(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-move", "dominion", NULL);
    uint64_t cmd = 1;
    rig_worker_play(&r, hm, 25, &cmd); /* past a turn boundary: snapshot plus log */
    uint64_t hash = engine_match_hash(hm->m);
    uint64_t decision = engine_match_decision(hm->m)->decision_id;
    int decider = engine_match_decision(hm->m)->seat;
    Deckhand__Internal__Internal *m;
    rig_worker_mm_drain(&r);

    /* the matchmaker's takeover: another owner, the next epoch, the adopt set */
    rig_worker_redis_do("HSET match:{m-move} worker %s epoch %s", "wk-u", "2");
    rig_worker_redis_do("SADD worker:{wk-u}:adopt %s%s", "m-", "move");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    char ids[4][STORE_ID_MAX];
    CU_ASSERT_EQUAL(store_adopt_pop(&st2, "wk-u", ids, 4, r.now), 1);
    CU_ASSERT_EQUAL(host_adopt(&h2, ids[0], r.now), 1);
    host_match *hm2 = host_find(&h2, "m-move");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm2);
    CU_ASSERT_EQUAL(engine_match_hash(hm2->m), hash);
    CU_ASSERT_EQUAL(hm2->epoch, 2);
    CU_ASSERT_EQUAL(hm2->answers, 25);
    m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE_FATAL(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED);
    CU_ASSERT_TRUE(m->match_adopted->ok && m->match_adopted->n_player_ids == 2 &&
                   !strcmp(m->match_adopted->player_ids[1], "p-bob"));
    deckhand__internal__internal__free_unpacked(m, NULL);

    /* the old owner's next write is fenced: UNKNOWN_MATCH, the match dropped, Redis untouched */
    Deckhand__Choose c;
    uint32_t opt[64];
    rig_worker_legal_choice(engine_match_decision(hm->m), &c, opt);
    rig_worker_command(&r, "m-move", rig_worker_players[decider], 500, &c);
    host_flush(&r.h, r.now);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE_FATAL(o.n == 1 && o.msg[0]->body_case == DECKHAND__SERVER_MESSAGE__BODY_REPLY);
    CU_ASSERT_TRUE(o.msg[0]->reply->error &&
                   o.msg[0]->reply->error->code == DECKHAND__ERROR_CODE__UNKNOWN_MATCH);
    rig_outbox_free(&o);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-move"));
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-move}:history"), 25);

    /* the gateway re-attaches the decider: the new owner re-sends the same decision */
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    rs.match_id = (char *)"m-move";
    pc.match_id = (char *)"m-move";
    pc.player_id = (char *)rig_worker_players[decider];
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc.resync = &rs;
    host_command(&h2, "gw-t", &pc, r.now);
    out_flush(&h2);
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *dr =
        rig_outbox_find(&o, rig_worker_players[decider], DECKHAND__SERVER_MESSAGE__BODY_DECISION);
    CU_ASSERT_TRUE(dr && dr->decision->decision_id == decision);
    rig_outbox_free(&o);
    /* and accepts the answer the old owner could not write */
    pc.cmd_id = 501;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_CHOOSE;
    pc.choose = &c;
    host_command(&h2, "gw-t", &pc, r.now);
    host_flush(&h2, r.now);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_TRUE(o.n >= 1 && o.msg[0]->reply->ok);
    rig_outbox_free(&o);
    CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-move}:history"), 26);

    /* adopting a match that is not ours is refused */
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-nobody", r.now), 0);
    m = rig_worker_mm_next(&r);
    CU_ASSERT_TRUE(m && m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED &&
                   !m->match_adopted->ok);
    if (m)
        deckhand__internal__internal__free_unpacked(m, NULL);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close(&r);
}

/* A worker frozen while its match moved finds out by itself, without a command to fence:
 * host_check_owned drops what Redis says is another worker's (or another epoch's), keeps
 * the rest, and touches nothing in Redis. */
/* Redis's snapshot of match id, as stored (malloc'd; *len its size). */
static char *stored_snap(const char *id, size_t *len)
{
    char key[96];
    snprintf(key, sizeof key, "match:{%s}:snap", id);
    char *v = rig_worker_redis_get(key, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    return v;
}

/* A snapshot goes to Redis every k turn boundaries (set = 0: the host's default, k), the
 * answers between on the log across those boundaries, over plays answers; an adopter
 * replays them onto the older snapshot and reaches exactly the state the old owner had. */
static void check_snapshots_every(uint32_t set, uint64_t k, int plays)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    if (set)
        r.h.snap_every = set;
    host_match *hm = rig_worker_started(&r, "m-every", "dominion", NULL);
    uint64_t cmd = 1, written = engine_match_snapshot_version(hm->m);
    size_t len = 0, since = 0, writes = 0, spanned = 0;
    char *snap = stored_snap("m-every", &len);
    for (int i = 0; i < plays; i++) {
        uint64_t before = engine_match_snapshot_version(hm->m);
        rig_worker_play(&r, hm, 1, &cmd);
        uint64_t now = engine_match_snapshot_version(hm->m);
        size_t nlen = 0;
        char *next = stored_snap("m-every", &nlen);
        bool changed = nlen != len || memcmp(next, snap, len);
        since++;
        if (changed) { /* only once k boundaries passed since the last one */
            CU_ASSERT_TRUE(now - written >= k);
            written = now;
            since = engine_match_log_len(hm->m);
            writes++;
        } else {
            CU_ASSERT_TRUE(now - written < k);
            spanned += now != before; /* a boundary passed, no snapshot: logged across it */
        }
        CU_ASSERT_EQUAL(rig_worker_redis_int("LLEN", "match:{m-every}:log"), (long long)since);
        free(snap);
        snap = next;
        len = nlen;
    }
    free(snap);
    CU_ASSERT_TRUE(writes >= 2);
    CU_ASSERT_TRUE(spanned >= 2);
    uint64_t hash = engine_match_hash(hm->m);
    rig_worker_redis_do("HSET match:{m-every} worker %s epoch %s", "wk-u", "2");
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, 10);
    CU_ASSERT_EQUAL(host_adopt(&h2, "m-every", r.now), 1);
    host_match *hm2 = host_find(&h2, "m-every");
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm2);
    CU_ASSERT_EQUAL(engine_match_hash(hm2->m), hash);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close(&r);
}

static void test_worker_snapshots_every_k_boundaries_and_adopts_across_them(void)
{
    check_snapshots_every(3, 3, 60);
}

/* The default: every 8 boundaries (a snapshot's zstd was an eighth of the worker's
 * instructions per answer at every 4th; docs/BENCHMARKS.md, issue 27). */
static void test_worker_snapshots_every_8_boundaries_by_default(void)
{
    check_snapshots_every(0, 8, 100);
}

static void test_worker_check_owned_drops_matches_moved_away(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *a = rig_worker_started(&r, "m-kept", "dominion", NULL);
    host_match *b = rig_worker_started(&r, "m-gone", "dominion", NULL);
    host_match *c = rig_worker_started(&r, "m-epoch", "dominion", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(host_check_owned(&r.h, r.now), 0);
    CU_ASSERT_EQUAL(host_active(&r.h), 3);

    rig_worker_redis_do("HSET match:{m-gone} worker %s epoch %s", "wk-u", "2");
    rig_worker_redis_do("HSET match:{m-epoch} epoch %s%s", "", "2"); /* moved away and back */
    CU_ASSERT_EQUAL(host_check_owned(&r.h, r.now), 2);
    CU_ASSERT_EQUAL(host_active(&r.h), 1);
    CU_ASSERT_PTR_NOT_NULL(host_find(&r.h, "m-kept"));
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-gone"));
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-epoch"));
    CU_ASSERT_EQUAL(rig_worker_redis_int("HLEN", "match:{m-gone}") > 0, 1);
    rig_worker_close(&r);
}

/* 70 matches moved onto wk-u at once (more than two batches): a round given no time adopts
 * one and says more wait; rounds given HOST_ADOPT_TURN_MS each stop near it, the ids they
 * had no time for stay in the set, and together they adopt every match exactly, each
 * answered MatchAdopted with its players. */
static void test_worker_adopts_a_big_move_in_rounds_bounded_in_time(void)
{
    enum { N = 70 };
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    r.h.capacity = N;
    uint64_t hash[N];
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-big-%02d", i);
        host_match *hm = rig_worker_started(&r, id, "dominion", NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
        hash[i] = engine_match_hash(hm->m);
        rig_worker_redis_do("HSET match:{%s} worker wk-u epoch %s", id, "2");
        rig_worker_redis_do("SADD worker:{wk-u}:adopt %s%s", id, "");
    }
    rig_worker_mm_drain(&r);
    store st2;
    CU_ASSERT_EQUAL_FATAL(store_init(&st2, rig_worker_redis_url(), 500), 0);
    host h2;
    host_init(&h2, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st2, N);

    uint64_t now = dh_now_ms();
    CU_ASSERT_TRUE(host_adopt_pending(&h2, now, now)); /* no time: one, and more wait */
    CU_ASSERT_EQUAL(h2.nmatches, 1);
    CU_ASSERT_EQUAL(rig_worker_redis_int("SCARD", "worker:{wk-u}:adopt"), N - 1);
    int rounds = 1;
    uint64_t longest = 0;
    bool more = true;
    while (more && rounds < 100) {
        now = dh_now_ms();
        more = host_adopt_pending(&h2, now, now + HOST_ADOPT_TURN_MS);
        if (dh_now_ms() - now > longest)
            longest = dh_now_ms() - now;
        rounds++;
    }
    fprintf(stderr, "\n  %d matches adopted in %d rounds, the longest %llu ms\n", N, rounds,
            (unsigned long long)longest);
    CU_ASSERT_FALSE(more);
    CU_ASSERT_EQUAL(h2.nmatches, N);
    CU_ASSERT_EQUAL(rig_worker_redis_int("SCARD", "worker:{wk-u}:adopt"), 0);
    CU_ASSERT_TRUE(longest < HOST_ADOPT_TURN_MS + 100); /* one adoption past it, sanitized */
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-big-%02d", i);
        host_match *hm = host_find(&h2, id);
        CU_ASSERT_TRUE_FATAL(hm != NULL);
        CU_ASSERT_EQUAL(engine_match_hash(hm->m), hash[i]);
        CU_ASSERT_EQUAL(hm->epoch, 2);
    }
    int adopted = 0;
    Deckhand__Internal__Internal *m;
    while ((m = rig_worker_mm_wait(&r, RIG_WORKER_QUIET_MS))) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ADOPTED &&
            m->match_adopted->ok && m->match_adopted->n_player_ids == 2)
            adopted++;
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_EQUAL(adopted, N);
    host_free(&h2);
    store_close(&st2);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_adopts_a_moved_match_exactly_and_the_old_owner_is_fenced",
         test_worker_adopts_a_moved_match_exactly_and_the_old_owner_is_fenced},
        {"worker_adopts_a_big_move_in_rounds_bounded_in_time",
         test_worker_adopts_a_big_move_in_rounds_bounded_in_time},
        {"worker_snapshots_every_k_boundaries_and_adopts_across_them",
         test_worker_snapshots_every_k_boundaries_and_adopts_across_them},
        {"worker_snapshots_every_8_boundaries_by_default",
         test_worker_snapshots_every_8_boundaries_by_default},
        {"worker_check_owned_drops_matches_moved_away",
         test_worker_check_owned_drops_matches_moved_away},
        {NULL, NULL},
    };
    return rig_worker_main("worker_adopt", cases);
}
