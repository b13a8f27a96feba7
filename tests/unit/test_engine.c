/*
 * test_engine.c: the rules engine's behaviour through its public API (engine/engine.h),
 * on the small fixture game in tests/fixtures/bundle/mini: decisions and their validation,
 * snapshots, restore and replay, undo, rollback after script faults, the sandbox, and
 * what views may show. (engine_internal.h only to intern names in another order, as
 * another process would.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static engine_bundle *load(void)
{
    engine_error err = {0};
    engine_limits lim = {32u << 20, 100};
    engine_bundle *b = engine_bundle_load(dh_test_path("tests/fixtures/bundle"), &lim, &err);
    if (!b)
        fprintf(stderr, "bundle: %s\n", err.message);
    return b;
}

static const char *names2[] = {"Ann", "Bob"};

static engine_match *new_match(engine_bundle *b, uint64_t seed, const char *options,
                               const char *const *bots)
{
    engine_match_config cfg = {"m1", "mini", seed, 2, names2, bots, options};
    engine_error err = {0};
    engine_match *m = engine_match_new(b, &cfg, &err);
    if (!m)
        fprintf(stderr, "match: %s\n", err.message);
    return m;
}

/* Answers the pending decision with option `id` (or nothing when id is 0). */
static engine_code answer(engine_match *m, uint32_t id)
{
    const engine_decision *d = engine_match_decision(m);
    if (!d)
        return ENGINE_BAD_REQUEST;
    engine_error err;
    return engine_match_answer(m, d->seat, d->decision_id, &id, id ? 1 : 0, &err);
}

static size_t option_labelled(const engine_match *m, const char *label)
{
    const engine_decision *d = engine_match_decision(m);
    for (size_t i = 0; d && i < d->noptions; i++)
        if (!strcmp(d->options[i].label, label))
            return d->options[i].id;
    return 0;
}

static const Deckhand__Zone *view_zone(const Deckhand__View *v, const char *name, int owner)
{
    for (size_t i = 0; i < v->n_zones; i++)
        if (!strcmp(v->zones[i]->name, name) && v->zones[i]->owner == owner)
            return v->zones[i];
    return NULL;
}

static void test_bundle_lists_its_game_and_ignores_other_files(void)
{
    engine_bundle *b = load();
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info gi[4];
    CU_ASSERT_EQUAL(engine_bundle_games(b, gi, 4), 1);
    CU_ASSERT_STRING_EQUAL(gi[0].name, "mini");
    CU_ASSERT_EQUAL(gi[0].min_players, 1);
    CU_ASSERT_EQUAL(gi[0].max_players, 4);
    CU_ASSERT_EQUAL(strlen(engine_bundle_id(b)), 64);
    engine_bundle *b2 = load();
    CU_ASSERT_STRING_EQUAL(engine_bundle_id(b), engine_bundle_id(b2));
    engine_bundle_free(b2);
    engine_bundle_free(b);
}

static void test_first_decision_is_player_one_action(void)
{
    engine_bundle *b = load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = new_match(b, 1, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(d->decision_id, 1);
    CU_ASSERT_EQUAL(d->seat, 0);
    CU_ASSERT_STRING_EQUAL(d->kind, "action");
    CU_ASSERT_EQUAL(d->noptions, 4); /* three cards in hand and Pass */
    CU_ASSERT_PTR_NOT_NULL(d->options[0].card);
    CU_ASSERT_NOT_EQUAL(d->options[0].entity, 0);
    CU_ASSERT_STRING_EQUAL(d->options[3].label, "Pass");
    CU_ASSERT_FALSE(engine_match_finished(m));
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_answer_out_of_turn_changes_nothing(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 1, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint32_t id = 1;
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_answer(m, 1, 1, &id, 1, &err), ENGINE_NOT_YOUR_TURN);
    CU_ASSERT_EQUAL(err.code, ENGINE_NOT_YOUR_TURN);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_illegal_answers_are_refused_and_change_nothing(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 1, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    engine_error err;
    uint32_t bad[] = {9};
    uint32_t twice[] = {1, 1};
    uint32_t ok[] = {1};
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 2, ok, 1, &err), ENGINE_ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, bad, 1, &err), ENGINE_ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, twice, 2, &err), ENGINE_ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, ok, 0, &err), ENGINE_ILLEGAL_CHOICE);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, ok, 1, &err), ENGINE_OK);
    CU_ASSERT_NOT_EQUAL(engine_match_hash(m), h);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* Plays Pass then discards nothing: ends the turn of whoever is deciding. */
static void pass_turn(engine_match *m)
{
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Pass")), ENGINE_OK);
    CU_ASSERT_EQUAL(answer(m, 0), ENGINE_OK);
}

static void test_turn_boundary_takes_snapshot_and_clears_log(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 3, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t v = engine_match_snapshot_version(m);
    size_t len = 0;
    CU_ASSERT_PTR_NOT_NULL(engine_match_snapshot(m, &len));
    CU_ASSERT(len > 0);
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Pass")), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 1);
    CU_ASSERT_EQUAL(engine_match_snapshot_version(m), v);
    CU_ASSERT_EQUAL(answer(m, 0), ENGINE_OK);
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
    engine_match_config cfg = {"m1", "mini", 999, 2, names2, NULL, NULL};
    engine_error err = {0};
    engine_match *r = engine_match_restore(b, &cfg, snap, len, log, n, &err);
    if (!r)
        fprintf(stderr, "restore: %s\n", err.message);
    return r;
}

static void test_restore_with_replay_gives_same_hash_in_another_vm(void)
{
    engine_bundle *b = load(), *b2 = load();
    engine_match *m = new_match(b, 11, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    pass_turn(m);
    CU_ASSERT_EQUAL(answer(m, 1), ENGINE_OK); /* seat 1 plays a card */
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Pass")), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 1); /* mid-turn: one answer to replay */
    engine_match *r = restore_copy(b2, m);
    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL(engine_match_hash(r), engine_match_hash(m));
    CU_ASSERT_EQUAL(engine_match_decision(r)->decision_id, engine_match_decision(m)->decision_id);
    CU_ASSERT_EQUAL(engine_match_event_seq(r, 0), engine_match_event_seq(m, 0));
    CU_ASSERT_EQUAL(engine_match_event_seq(r, 1), engine_match_event_seq(m, 1));
    /* Both go on identically. */
    CU_ASSERT_EQUAL(answer(m, 1), ENGINE_OK);
    CU_ASSERT_EQUAL(answer(r, 1), ENGINE_OK);
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
    engine_bundle *b = load();
    engine_match *m = new_match(b, 4, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Pass")), ENGINE_OK);
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
    engine_bundle *b = load();
    engine_match *m = new_match(b, 5, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_BAD_REQUEST);
    uint64_t h0 = engine_match_hash(m);
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Pass")), ENGINE_OK);
    uint64_t h1 = engine_match_hash(m);
    uint64_t v1 = engine_match_snapshot_version(m);
    uint64_t seq1 = engine_match_event_seq(m, 0);
    CU_ASSERT_EQUAL(answer(m, 0), ENGINE_OK); /* ends the turn: a new snapshot */
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
    CU_ASSERT_EQUAL(answer(m, 0), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_decision(m)->seat, 1);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_undo_drops_undrained_events_of_the_answer(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 5, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    int before = 0, after = 0;
    engine_match_drain_events(m, count_cb, &before);
    CU_ASSERT(before > 0);
    pass_turn(m); /* P2's turn starts: events queued */
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_undo(m, &err), ENGINE_OK);
    engine_match_drain_events(m, count_cb, &after);
    CU_ASSERT_EQUAL(after, 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_script_error_rolls_back_and_match_keeps_working(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 6, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint64_t seq = engine_match_event_seq(m, 0);
    engine_error err;
    uint32_t crash = (uint32_t)option_labelled(m, "Crash");
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, &crash, 1, &err), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "boom"));
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_event_seq(m, 0), seq);
    CU_ASSERT_EQUAL(engine_match_log_len(m), 0);
    CU_ASSERT_EQUAL(engine_match_decision(m)->decision_id, 1);
    CU_ASSERT_EQUAL(answer(m, 1), ENGINE_OK);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_endless_loop_inside_pcall_is_killed_other_match_unaffected(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 7, "traps=1", NULL);
    engine_match *other = new_match(b, 8, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL && other != NULL);
    uint64_t h = engine_match_hash(m), ho = engine_match_hash(other);
    CU_ASSERT_EQUAL(answer(other, (uint32_t)option_labelled(other, "Pass")), ENGINE_OK);
    ho = engine_match_hash(other);
    uint32_t spin = (uint32_t)option_labelled(m, "Spin");
    engine_error err;
    double t0 = now_s();
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, &spin, 1, &err), ENGINE_SCRIPT_ERROR);
    double took = now_s() - t0;
    CU_ASSERT(took >= 0.09 && took < 2.0); /* the budget is 100 ms */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "time budget"));
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_hash(other), ho);
    CU_ASSERT_EQUAL(answer(other, 0), ENGINE_OK);
    CU_ASSERT_EQUAL(answer(m, 1), ENGINE_OK);
    engine_match_free(other);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_memory_bomb_is_refused_and_match_keeps_working(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 9, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint32_t hog = (uint32_t)option_labelled(m, "Hog");
    engine_error err;
    engine_match *other = new_match(b, 9, NULL, NULL);
    CU_ASSERT_FATAL(other != NULL);
    CU_ASSERT_EQUAL(answer(other, (uint32_t)option_labelled(other, "Pass")), ENGINE_OK);
    uint64_t ho = engine_match_hash(other);
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 1, &hog, 1, &err), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_hash(other), ho);
    CU_ASSERT_EQUAL(answer(other, 0), ENGINE_OK);
    CU_ASSERT_EQUAL(answer(m, 1), ENGINE_OK);
    engine_match_free(other);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_sandbox_has_no_io_os_load_or_random(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 10, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Probe")), ENGINE_OK);
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    int found = 0;
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, "probe")) {
            found = 1;
            CU_ASSERT_EQUAL(v->counters[i]->value, 0);
            CU_ASSERT_EQUAL(v->counters[i]->owner, -1);
        }
    CU_ASSERT(found);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_view_hides_decks_and_other_hands(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 12, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    pass_turn(m); /* seat 0 discarded nothing; draws one: 4 in hand */
    Deckhand__View *v = engine_match_view(m, 1);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(v->seat, 1);
    CU_ASSERT_STRING_EQUAL(v->game, "mini");
    CU_ASSERT_EQUAL(v->n_players, 2);
    const Deckhand__Zone *z = view_zone(v, "hand", 0);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(z->count, 4);
    CU_ASSERT_EQUAL(z->n_cards, 0);
    z = view_zone(v, "hand", 1);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(z->n_cards, z->count);
    z = view_zone(v, "deck", 1);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT(z->count > 0);
    CU_ASSERT_EQUAL(z->n_cards, 0);
    z = view_zone(v, "pile", -1);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(z->n_cards, 1);
    CU_ASSERT_STRING_EQUAL(z->cards[0]->name, "Gem");
    z = view_zone(v, "vault:1", -1); /* hidden through its prefix */
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(z->count, 1);
    CU_ASSERT_EQUAL(z->n_cards, 0);
    for (size_t i = 0; i < v->n_counters; i++)
        CU_ASSERT_NOT_EQUAL(v->counters[i]->name[0], '_');
    CU_ASSERT_EQUAL(v->n_cards, 2);
    CU_ASSERT_STRING_EQUAL(v->cards[0]->name, "Coin");
    CU_ASSERT_STRING_EQUAL(v->cards[1]->types, "Treasure - Jewel");
    CU_ASSERT_EQUAL(v->cards[1]->cost, 3);
    CU_ASSERT_EQUAL(v->waiting_for, 1);
    CU_ASSERT_PTR_NOT_NULL(v->decision);
    engine_view_free(v);
    v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_PTR_NULL(v->decision);
    z = view_zone(v, "hand", 1);
    CU_ASSERT_EQUAL(z->n_cards, 0);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_discard_shows_only_its_top_card(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 13, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint32_t two[] = {1, 2};
    engine_error err;
    CU_ASSERT_EQUAL(answer(m, (uint32_t)option_labelled(m, "Pass")), ENGINE_OK);
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, 2, two, 2, &err), ENGINE_OK);
    Deckhand__View *v = engine_match_view(m, 1);
    CU_ASSERT_FATAL(v != NULL);
    const Deckhand__Zone *z = view_zone(v, "discard", 0);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(z->count, 2);
    CU_ASSERT_EQUAL(z->n_cards, 1);
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

typedef struct {
    uint64_t next[2];
    int bad;
} seq_check;

static void seq_cb(void *ud, const engine_event *ev)
{
    seq_check *c = ud;
    if (ev->to_seat < 0 || ev->to_seat > 1 || ev->seq != ++c->next[ev->to_seat])
        c->bad = 1;
}

static void test_events_are_per_seat_without_gaps(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 14, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    seq_check c = {{0, 0}, 0};
    engine_match_drain_events(m, seq_cb, &c);
    pass_turn(m);
    engine_match_drain_events(m, seq_cb, &c);
    CU_ASSERT_FALSE(c.bad);
    CU_ASSERT_EQUAL(c.next[0], engine_match_event_seq(m, 0));
    CU_ASSERT_EQUAL(c.next[1], engine_match_event_seq(m, 1));
    CU_ASSERT(c.next[0] > 4);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_all_bot_match_plays_to_the_end_deterministically(void)
{
    engine_bundle *b = load();
    const char *bots[] = {"default", "passer"};
    engine_match *m = new_match(b, 15, "turns=10", bots);
    engine_match *m2 = new_match(b, 15, "turns=10", bots);
    engine_match *m3 = new_match(b, 16, "turns=10", bots);
    CU_ASSERT_FATAL(m && m2 && m3);
    CU_ASSERT_TRUE(engine_match_finished(m));
    CU_ASSERT_PTR_NULL(engine_match_decision(m));
    engine_result r[2];
    CU_ASSERT_EQUAL(engine_match_results(m, r, 2), 2);
    CU_ASSERT(r[0].score >= 5);
    CU_ASSERT_EQUAL(r[1].score, 0);
    CU_ASSERT_EQUAL(r[0].rank, 1);
    CU_ASSERT_EQUAL(r[1].rank, 2);
    CU_ASSERT_EQUAL(r[0].turns, 10);
    CU_ASSERT_EQUAL(engine_match_hash(m), engine_match_hash(m2));
    CU_ASSERT_NOT_EQUAL(engine_match_hash(m), engine_match_hash(m3));
    size_t len;
    CU_ASSERT_PTR_NOT_NULL(engine_match_snapshot(m, &len));
    CU_ASSERT(len > 0);
    engine_match_free(m3);
    engine_match_free(m2);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_cheating_bot_fails_the_match(void)
{
    engine_bundle *b = load();
    const char *bots[] = {"cheat", "cheat"};
    engine_match_config cfg = {"m1", "mini", 1, 2, names2, bots, NULL};
    engine_error err = {0};
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "illegally"));
    const char *nobot[] = {"nosuch", NULL};
    cfg.bots = nobot;
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_BAD_REQUEST);
    engine_bundle_free(b);
}

static void test_answer_encoding_round_trips(void)
{
    uint32_t ids[] = {3, 1, 300};
    engine_answer a = {1, 123456789, ids, 3}, d;
    uint8_t *buf;
    size_t len;
    uint32_t out[8];
    CU_ASSERT_EQUAL_FATAL(engine_answer_encode(&a, &buf, &len), 0);
    CU_ASSERT_EQUAL(engine_answer_decode(buf, len, &d, out, 8), 0);
    CU_ASSERT_EQUAL(d.seat, 1);
    CU_ASSERT_EQUAL(d.decision_id, 123456789);
    CU_ASSERT_EQUAL(d.n, 3);
    CU_ASSERT_EQUAL(out[2], 300);
    CU_ASSERT_NOT_EQUAL(engine_answer_decode(buf, len - 1, &d, out, 8), 0);
    CU_ASSERT_NOT_EQUAL(engine_answer_decode(buf, len, &d, out, 2), 0);
    free(buf);
}

static void test_bad_snapshot_is_refused(void)
{
    engine_bundle *b = load();
    engine_match *m = new_match(b, 17, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    size_t len;
    const uint8_t *snap = engine_match_snapshot(m, &len);
    uint8_t *cut = malloc(len);
    CU_ASSERT_FATAL(cut != NULL);
    memcpy(cut, snap, len);
    engine_match_config cfg = {"m1", "mini", 1, 2, names2, NULL, NULL};
    engine_error err;
    CU_ASSERT_PTR_NULL(engine_match_restore(b, &cfg, cut, len / 2, NULL, 0, &err));
    cut[0] ^= 0xff;
    CU_ASSERT_PTR_NULL(engine_match_restore(b, &cfg, cut, len, NULL, 0, &err));
    free(cut);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* ---- bundles built on the fly in a temporary folder ---------------------------------- */

static const char *tiny_game =
    "return { min_players = 1, max_players = 2, zones = {}, cards = {},\n"
    "  turn = function(g) g:add_counter('n', 0, 1) end,\n"
    "  finished = function(g) return g:counter('n') >= 2 end,\n"
    "  results = function(g) return { { score = 1 }, { score = 2 } } end }\n";

static int write_file(const char *dir, const char *rel, const char *text, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = fwrite(text, 1, len, f);
    fclose(f);
    return n == len ? 0 : -1;
}

static int make_tmp_bundle(char *dir, size_t len, const char *game_text)
{
    snprintf(dir, len, "/tmp/dh-engine-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/tiny", dir);
    if (mkdir(sub, 0700) < 0)
        return -1;
    return write_file(dir, "tiny/game.lua", game_text, strlen(game_text));
}

static void rm_tmp_bundle(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_bundle_id_covers_lua_files_only(void)
{
    char dir[256];
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, tiny_game) == 0);
    engine_error err;
    engine_bundle *b1 = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b1 != NULL);
    CU_ASSERT_EQUAL(write_file(dir, "tiny/notes.txt", "x", 1), 0);
    engine_bundle *b2 = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b2 != NULL);
    CU_ASSERT_STRING_EQUAL(engine_bundle_id(b1), engine_bundle_id(b2));
    CU_ASSERT_EQUAL(write_file(dir, "tiny/extra.lua", "return 1\n", 9), 0);
    engine_bundle *b3 = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b3 != NULL);
    CU_ASSERT_STRING_NOT_EQUAL(engine_bundle_id(b1), engine_bundle_id(b3));
    engine_game_info gi;
    CU_ASSERT_EQUAL(engine_bundle_games(b3, &gi, 1), 1);
    CU_ASSERT_STRING_EQUAL(gi.name, "tiny");
    engine_bundle_free(b3);
    engine_bundle_free(b2);
    engine_bundle_free(b1);
    rm_tmp_bundle(dir);
}

static void test_bundle_with_syntax_error_is_refused(void)
{
    char dir[256];
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, "return {\n") == 0);
    engine_error err = {0};
    CU_ASSERT_PTR_NULL(engine_bundle_load(dir, NULL, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "tiny/game.lua"));
    rm_tmp_bundle(dir);
}

static void test_require_refuses_binary_chunks_and_escapes(void)
{
    char dir[256];
    const char *game = "local ok, e = pcall(require, 'tiny.bin')\n"
                       "assert(not ok and e:find('binary'), e)\n"
                       "assert(not pcall(require, '..tiny.game'))\n"
                       "assert(not pcall(require, 'tiny/game'))\n"
                       "assert(require('tiny.helper') == require('tiny.helper'))\n"
                       "return { min_players = 1, max_players = 1, turn = function() end,\n"
                       "  finished = function() return true end,\n"
                       "  results = function() return { { score = 0 } } end }\n";
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, game) == 0);
    CU_ASSERT_EQUAL(write_file(dir, "tiny/bin.lua", "\x1bLua\x54\x00", 6), 0);
    CU_ASSERT_EQUAL(write_file(dir, "tiny/helper.lua", "return {}\n", 10), 0);
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dir, NULL, &err);
    if (!b)
        fprintf(stderr, "load: %s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL(b);
    engine_bundle_free(b);
    rm_tmp_bundle(dir);
}

static void test_runaway_game_is_stopped(void)
{
    char dir[256];
    const char *game = "return { min_players = 1, max_players = 1, turn = function() end,\n"
                       "  finished = function() return false end,\n"
                       "  results = function() return { { score = 0 } } end,\n"
                       "  bots = { default = function() return { 1 } end } }\n";
    CU_ASSERT_FATAL(make_tmp_bundle(dir, sizeof dir, game) == 0);
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load(dir, NULL, &err);
    CU_ASSERT_FATAL(b != NULL);
    const char *bots[] = {"default"};
    engine_match_config cfg = {"r", "tiny", 1, 1, NULL, bots, NULL};
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "turns"));
    engine_bundle_free(b);
    rm_tmp_bundle(dir);
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
    lua_State *L = engine_bundle_lua(b);
    const char *names[] = {"score", "hand", "zzz", "discard", "Gem", "play", "deck", "Coin"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        engine_intern_c(b, L, names[i], strlen(names[i]));
}

static void test_random_play_restores_identically_at_every_step(void)
{
    engine_bundle *b = load(), *b2 = load();
    CU_ASSERT_FATAL(b && b2);
    shift_names(b2);
    const char *names3[] = {"A", "B", "C"};
    engine_match_config cfg = {"r", "mini", 77, 3, names3, NULL, "turns=12"};
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

static void test_endless_bot_in_an_all_bot_match_is_stopped(void)
{
    engine_bundle *b = load();
    CU_ASSERT_FATAL(b != NULL);
    const char *bots[] = {"spinner", "spinner"};
    engine_match_config cfg = {"m1", "mini", 1, 2, names2, bots, NULL};
    engine_error err = {0};
    double t0 = now_s();
    CU_ASSERT_PTR_NULL(engine_match_new(b, &cfg, &err));
    CU_ASSERT(now_s() - t0 < 2.0);
    CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "time budget"));
    const char *good[] = {"default", "default"};
    engine_match *m = new_match(b, 1, NULL, good);
    CU_ASSERT_PTR_NOT_NULL(m);
    CU_ASSERT_TRUE(m && engine_match_finished(m));
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_bundle_lists_its_game_and_ignores_other_files",
     test_bundle_lists_its_game_and_ignores_other_files},
    {"test_first_decision_is_player_one_action", test_first_decision_is_player_one_action},
    {"test_answer_out_of_turn_changes_nothing", test_answer_out_of_turn_changes_nothing},
    {"test_illegal_answers_are_refused_and_change_nothing",
     test_illegal_answers_are_refused_and_change_nothing},
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
    {"test_endless_loop_inside_pcall_is_killed_other_match_unaffected",
     test_endless_loop_inside_pcall_is_killed_other_match_unaffected},
    {"test_memory_bomb_is_refused_and_match_keeps_working",
     test_memory_bomb_is_refused_and_match_keeps_working},
    {"test_sandbox_has_no_io_os_load_or_random", test_sandbox_has_no_io_os_load_or_random},
    {"test_view_hides_decks_and_other_hands", test_view_hides_decks_and_other_hands},
    {"test_discard_shows_only_its_top_card", test_discard_shows_only_its_top_card},
    {"test_events_are_per_seat_without_gaps", test_events_are_per_seat_without_gaps},
    {"test_all_bot_match_plays_to_the_end_deterministically",
     test_all_bot_match_plays_to_the_end_deterministically},
    {"test_cheating_bot_fails_the_match", test_cheating_bot_fails_the_match},
    {"test_answer_encoding_round_trips", test_answer_encoding_round_trips},
    {"test_bad_snapshot_is_refused", test_bad_snapshot_is_refused},
    {"test_bundle_id_covers_lua_files_only", test_bundle_id_covers_lua_files_only},
    {"test_bundle_with_syntax_error_is_refused", test_bundle_with_syntax_error_is_refused},
    {"test_require_refuses_binary_chunks_and_escapes",
     test_require_refuses_binary_chunks_and_escapes},
    {"test_runaway_game_is_stopped", test_runaway_game_is_stopped},
    {"test_random_play_restores_identically_at_every_step",
     test_random_play_restores_identically_at_every_step},
    {"test_endless_bot_in_an_all_bot_match_is_stopped",
     test_endless_bot_in_an_all_bot_match_is_stopped},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine", cases);
}
