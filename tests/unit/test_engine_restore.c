/*
 * test_engine_restore.c: snapshots and rebuilding a match through the public API
 * (engine/include/engine.h), on the small fixture game in tests/fixtures/bundle/mini: turn
 * boundaries, restore and replay (also in another VM whose names were interned in another
 * order, as another process would), undo, rollback after a script error, and refused
 * snapshots; the public event count (spectators' event_seq) and version 1 snapshots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static void test_turn_boundary_takes_snapshot_and_clears_log(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 3, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t v = engine_match_snapshot_version(m);
    size_t len = 0;
    CU_ASSERT_PTR_NOT_NULL(engine_match_snapshot(m, &len));
    CU_ASSERT(len > 0);
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Pass"), NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 1);
    CU_ASSERT_EQUAL(engine_match_snapshot_version(m), v);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 0, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 0);
    CU_ASSERT_EQUAL(engine_match_snapshot_version(m), v + 1);
    CU_ASSERT_EQUAL(engine_match_decision(m)->seat, 1);
    engine_match_free(m);
    engine_bundle_free(b);
}

static engine_match *restore_copy(engine_bundle *b, const engine_match *m)
{
    size_t len, n = engine_match_log_len(m);
    const uint8_t *snap = engine_match_snapshot(m, &len);
    engine_answer log[64];
    for (size_t i = 0; i < n && i < 64; i++)
        log[i] = engine_match_log_at(m, i);
    engine_match_config cfg = rig_engine_mini_config(999, NULL, NULL);
    engine_error err = {0};
    engine_match *r = engine_match_restore(b, &cfg, snap, len, log, n, &err);
    if (!r)
        fprintf(stderr, "restore: %s\n", err.message);
    return r;
}

static void test_restore_with_replay_gives_same_hash_in_another_vm(void)
{
    engine_bundle *b = rig_engine_load_mini(), *b2 = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 11, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    rig_engine_mini_pass_turn(m);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK); /* seat 1 plays a card */
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Pass"), NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 1); /* mid-turn: one answer to replay */
    engine_match *r = restore_copy(b2, m);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    CU_ASSERT_EQUAL(engine_match_decision(r)->decision_id, engine_match_decision(m)->decision_id);
    CU_ASSERT_EQUAL(engine_match_event_seq(r, 0), engine_match_event_seq(m, 0));
    CU_ASSERT_EQUAL(engine_match_event_seq(r, 1), engine_match_event_seq(m, 1));
    /* Both go on identically. */
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(rig_engine_answer(r, 1, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    engine_match_free(r);
    engine_match_free(m);
    engine_bundle_free(b2);
    engine_bundle_free(b);
}

static void count_cb(void *ud, const engine_event *ev)
{
    (void)ev;
    (*(int *)ud)++;
}

static void test_restore_does_not_deliver_replayed_events(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 4, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Pass"), NULL), ENGINE_OK);
    engine_match *r = restore_copy(b, m);
    CU_ASSERT_FATAL(r != NULL);
    int n = 0;
    engine_match_drain_events(r, count_cb, &n);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT(engine_match_event_seq(r, 0) > 0);
    CU_ASSERT_EQUAL(engine_match_event_seq(r, 0), engine_match_event_seq(m, 0));
    engine_match_free(r);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_undo_returns_to_the_state_before_the_answer(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 5, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_BAD_REQUEST);
    uint64_t h0 = engine_match_hash(m);
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Pass"), NULL), ENGINE_OK);
    uint64_t h1 = engine_match_hash(m);
    uint64_t v1 = engine_match_snapshot_version(m);
    uint64_t seq1 = engine_match_event_seq(m, 0);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 0, NULL), ENGINE_OK); /* ends the turn: a new snapshot */
    CU_ASSERT_EQUAL(engine_match_snapshot_version(m), v1 + 1);
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(m), h1);
    CU_ASSERT_EQUAL(engine_match_snapshot_version(m), v1);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 1);
    CU_ASSERT_EQUAL(engine_match_event_seq(m, 0), seq1);
    CU_ASSERT_STRING_EQUAL(engine_match_decision(m)->kind, "discard");
    /* one level only */
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_BAD_REQUEST);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(m), h0);
    /* and the match goes on from there */
    CU_ASSERT_EQUAL(rig_engine_answer(m, 0, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_decision(m)->seat, 1);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_undo_drops_undrained_events_of_the_answer(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 5, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    int before = 0, after = 0;
    engine_match_drain_events(m, count_cb, &before);
    CU_ASSERT(before > 0);
    rig_engine_mini_pass_turn(m); /* P2's turn starts: events queued */
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_OK);
    engine_match_drain_events(m, count_cb, &after);
    CU_ASSERT_EQUAL(after, 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_script_error_rolls_back_and_match_keeps_working(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 6, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint64_t seq = engine_match_event_seq(m, 0);
    engine_error err;
    uint32_t crash = rig_engine_option(m, "Crash");
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, &crash, 1, &err), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "boom"));
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_event_seq(m, 0), seq);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 0);
    CU_ASSERT_EQUAL(engine_match_decision(m)->decision_id, 1);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* Counts the events drained: each public one once (seat 0's copy), and every private one. */
typedef struct {
    int public_, private_;
} event_tally;

static void tally_cb(void *ud, const engine_event *ev)
{
    event_tally *t = ud;
    if (!ev->everyone)
        t->private_++;
    else if (ev->to_seat == 0)
        t->public_++;
}

static void test_public_event_seq_counts_only_public_events(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 21, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    event_tally t = {0, 0};
    engine_match_drain_events(m, tally_cb, &t);
    uint64_t before = engine_match_event_seq(m, ENGINE_SEAT_PUBLIC);
    CU_ASSERT_EQUAL(before, (uint64_t)t.public_);
    rig_engine_mini_pass_turn(m); /* seat 1 draws (private to it) and starts its turn */
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK); /* plays a card: public */
    event_tally u = {0, 0};
    engine_match_drain_events(m, tally_cb, &u);
    CU_ASSERT(u.public_ > 0);
    CU_ASSERT(u.private_ > 0); /* the private draws moved seat counts, not the public one */
    CU_ASSERT_EQUAL(engine_match_event_seq(m, ENGINE_SEAT_PUBLIC), before + (uint64_t)u.public_);
    CU_ASSERT(engine_match_event_seq(m, 1) > engine_match_event_seq(m, ENGINE_SEAT_PUBLIC));
    Deckhand__View *v = engine_match_view(m, ENGINE_SEAT_PUBLIC);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(v->event_seq, engine_match_event_seq(m, ENGINE_SEAT_PUBLIC));
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_public_event_seq_survives_snapshot_and_restore(void)
{
    engine_bundle *b = rig_engine_load_mini(), *b2 = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 22, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    rig_engine_mini_pass_turn(m);
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK);
    rig_engine_mini_pass_turn(m); /* a turn boundary: the snapshot holds the count */
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK); /* and the log one more */
    uint64_t pub = engine_match_event_seq(m, ENGINE_SEAT_PUBLIC);
    CU_ASSERT(pub > 0);
    engine_match *r = restore_copy(b2, m);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(engine_match_event_seq(r, ENGINE_SEAT_PUBLIC), pub);
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    engine_match_free(r);
    engine_match_free(m);
    engine_bundle_free(b2);
    engine_bundle_free(b);
}

/* The snapshot's layout up to the public count: magic, version, state version,
 * decision_seq, turn, np, finished, rng[4], then event_seq per seat. */
#define SNAP_PUBLIC_AT(np) (4 + 4 + 8 + 8 + 4 + 4 + 4 + 32 + 8 * (size_t)(np))

static void test_version_1_snapshot_still_loads_with_public_count_from_zero(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 23, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    rig_engine_mini_pass_turn(m);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 0);
    size_t len, at = SNAP_PUBLIC_AT(engine_match_nplayers(m));
    const uint8_t *snap = engine_match_snapshot(m, &len);
    CU_ASSERT_FATAL(len > at + 8);
    CU_ASSERT_EQUAL(snap[4], 2); /* this engine writes version 2 */
    uint64_t stored = 0;
    for (int i = 0; i < 8; i++)
        stored |= (uint64_t)snap[at + i] << (8 * i);
    CU_ASSERT(stored > 0);
    CU_ASSERT(stored <= engine_match_event_seq(m, ENGINE_SEAT_PUBLIC));
    /* the same snapshot as version 1 wrote it: without the public count */
    uint8_t *old = malloc(len - 8);
    CU_ASSERT_FATAL(old != NULL);
    memcpy(old, snap, at);
    memcpy(old + at, snap + at + 8, len - at - 8);
    old[4] = 1;
    engine_match_config cfg = rig_engine_mini_config(5, NULL, NULL);
    engine_error err = {0};
    engine_match *r = engine_match_restore(b, &cfg, old, len - 8, NULL, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    /* what the match logged after the boundary (its turn's start) counts from 0, where the
     * version 2 snapshot counts on from what it stored */
    CU_ASSERT_EQUAL(engine_match_event_seq(r, ENGINE_SEAT_PUBLIC),
                    engine_match_event_seq(m, ENGINE_SEAT_PUBLIC) - stored);
    CU_ASSERT_EQUAL(engine_match_event_seq(r, 0), engine_match_event_seq(m, 0));
    CU_ASSERT_EQUAL(engine_match_decision(r)->decision_id, engine_match_decision(m)->decision_id);
    /* the state hash leaves the count out: the same play hashes the same */
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    CU_ASSERT_EQUAL(rig_engine_answer(r, 1, NULL), ENGINE_OK); /* it plays on, counting */
    CU_ASSERT_EQUAL(rig_engine_answer(m, 1, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    CU_ASSERT(engine_match_event_seq(r, ENGINE_SEAT_PUBLIC) > 0);
    old[4] = 3; /* a version from the future is refused */
    CU_ASSERT_PTR_NULL(engine_match_restore(b, &cfg, old, len - 8, NULL, 0, &err));
    free(old);
    engine_match_free(r);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_bad_snapshot_is_refused(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 17, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    size_t len;
    const uint8_t *snap = engine_match_snapshot(m, &len);
    uint8_t *cut = malloc(len);
    CU_ASSERT_FATAL(cut != NULL);
    memcpy(cut, snap, len);
    engine_match_config cfg = rig_engine_mini_config(1, NULL, NULL);
    engine_error err;
    CU_ASSERT_PTR_NULL(engine_match_restore(b, &cfg, cut, len / 2, NULL, 0, &err));
    cut[0] ^= 0xff;
    CU_ASSERT_PTR_NULL(engine_match_restore(b, &cfg, cut, len, NULL, 0, &err));
    free(cut);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* Packs seat's view; caller frees. */
static uint8_t *packed_view(const engine_match *m, int seat, size_t *len)
{
    Deckhand__View *v = engine_match_view(m, seat);
    if (!v)
        return NULL;
    *len = deckhand__view__get_packed_size(v);
    uint8_t *buf = malloc(*len + 1);
    if (buf)
        deckhand__view__pack(v, buf);
    engine_view_free(v);
    return buf;
}

/* Interns names in another order than b would, as another process may. */
static void shift_names(engine_bundle *b)
{
    const char *names[] = {"score", "hand", "zzz", "discard", "Gem", "play", "deck", "Coin"};
    rig_engine_intern(b, names, sizeof names / sizeof names[0]);
}

static void test_random_play_restores_identically_at_every_step(void)
{
    engine_bundle *b = rig_engine_load_mini(), *b2 = rig_engine_load_mini();
    CU_ASSERT_FATAL(b && b2);
    shift_names(b2);
    const char *names3[] = {"A", "B", "C"};
    engine_match_config cfg = {"r", "mini", 77, 3, names3, NULL, "turns=12", false};
    engine_error err;
    engine_match *m = engine_match_new(b, &cfg, &err);
    CU_ASSERT_FATAL(m != NULL);
    uint32_t rnd = 12345;
    int steps = 0, mismatches = 0;
    while (!engine_match_finished(m) && steps < 200) {
        const engine_decision *d = engine_match_decision(m);
        CU_ASSERT_FATAL(d != NULL);
        uint32_t ids[2];
        size_t n = 0;
        rnd = rnd * 1103515245u + 12345u;
        size_t want = d->min + (rnd >> 16) % (d->max - d->min + 1);
        for (size_t i = 0; i < want; i++)
            ids[n++] = (uint32_t)(i + 1 + (rnd >> 8) % (d->noptions - want + 1));
        CU_ASSERT_EQUAL_FATAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err),
                              ENGINE_OK);
        steps++;
        size_t len, nlog = engine_match_log_len(m);
        const uint8_t *snap = engine_match_snapshot(m, &len);
        engine_answer log[64];
        for (size_t i = 0; i < nlog && i < 64; i++)
            log[i] = engine_match_log_at(m, i);
        engine_match *r = engine_match_restore(b2, &cfg, snap, len, log, nlog, &err);
        CU_ASSERT_FATAL(r != NULL);
        if (engine_match_hash(r) != engine_match_hash(m))
            mismatches++;
        for (int seat = 0; seat < 3; seat++) {
            size_t la = 0, lb = 0;
            uint8_t *va = packed_view(m, seat, &la), *vb = packed_view(r, seat, &lb);
            CU_ASSERT_FATAL(va && vb);
            if (la != lb || memcmp(va, vb, la))
                mismatches++;
            free(va);
            free(vb);
        }
        engine_match_free(r);
    }
    CU_ASSERT_TRUE(engine_match_finished(m));
    CU_ASSERT(steps > 12);
    CU_ASSERT_EQUAL(mismatches, 0);
    engine_match_free(m);
    engine_bundle_free(b2);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_turn_boundary_takes_snapshot_and_clears_log",
     test_turn_boundary_takes_snapshot_and_clears_log},
    {"test_restore_with_replay_gives_same_hash_in_another_vm",
     test_restore_with_replay_gives_same_hash_in_another_vm},
    {"test_restore_does_not_deliver_replayed_events",
     test_restore_does_not_deliver_replayed_events},
    {"test_undo_returns_to_the_state_before_the_answer",
     test_undo_returns_to_the_state_before_the_answer},
    {"test_undo_drops_undrained_events_of_the_answer",
     test_undo_drops_undrained_events_of_the_answer},
    {"test_script_error_rolls_back_and_match_keeps_working",
     test_script_error_rolls_back_and_match_keeps_working},
    {"test_bad_snapshot_is_refused", test_bad_snapshot_is_refused},
    {"test_public_event_seq_counts_only_public_events",
     test_public_event_seq_counts_only_public_events},
    {"test_public_event_seq_survives_snapshot_and_restore",
     test_public_event_seq_survives_snapshot_and_restore},
    {"test_version_1_snapshot_still_loads_with_public_count_from_zero",
     test_version_1_snapshot_still_loads_with_public_count_from_zero},
    {"test_random_play_restores_identically_at_every_step",
     test_random_play_restores_identically_at_every_step},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_restore", cases);
}
