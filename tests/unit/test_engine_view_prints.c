/*
 * test_engine_view_prints.c: the fingerprints a View carries (engine_view_shape,
 * engine_view_zone_print) tell exactly when what it shows changed. The worker sends a
 * seat only the zones whose fingerprint moved since its last View, and a full View when
 * the shape moved (worker/out/out_view.c); the fingerprints are made from the engine's
 * ids as the View is built, not from its strings, so this compares them with the strings
 * themselves: over whole matches of every game of the bundle in scripts/, after every
 * answer, each seat's View and the public one against the View before it. The zones'
 * stamps too (engine_match_view_since builds a zone unchanged since the seat's last View
 * without its cards): a zone kept must be unchanged, and every change of a zone's ids
 * must move its stamp (engine_internal.h, for the state's own functions).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

#define MAX_GAMES 32
#define MAX_STEPS                                                                                  \
    400 /* answers per match: whole games of the faster ones, long stretches of the rest */
#define SEATS 2

static bool same_shape(const Deckhand__View *a, const Deckhand__View *b)
{
    if (a->n_players != b->n_players || a->n_zones != b->n_zones ||
        a->n_counters != b->n_counters || strcmp(a->bundle_id, b->bundle_id))
        return false;
    for (size_t i = 0; i < a->n_players; i++)
        if (strcmp(a->players[i]->name, b->players[i]->name))
            return false;
    for (size_t i = 0; i < a->n_zones; i++)
        if (strcmp(a->zones[i]->name, b->zones[i]->name) ||
            a->zones[i]->owner != b->zones[i]->owner)
            return false;
    for (size_t i = 0; i < a->n_counters; i++)
        if (strcmp(a->counters[i]->name, b->counters[i]->name) ||
            a->counters[i]->owner != b->counters[i]->owner)
            return false;
    return true;
}

static bool same_zone(const Deckhand__Zone *a, const Deckhand__Zone *b)
{
    if (a->count != b->count || a->n_cards != b->n_cards)
        return false;
    for (size_t i = 0; i < a->n_cards; i++)
        if (a->cards[i]->entity != b->cards[i]->entity ||
            strcmp(a->cards[i]->name, b->cards[i]->name))
            return false;
    return true;
}

typedef struct {
    long views, shape_moves, zone_moves, wrong;
    long kept, stale; /* engine_match_view_since: zones kept, and kept but changed */
} tally;

/* Compares v with the View before it (NULL: none yet). */
static void compare(const Deckhand__View *before, const Deckhand__View *v, tally *t)
{
    t->views++;
    if (!before)
        return;
    bool shape = same_shape(before, v);
    if (shape != (engine_view_shape(before) == engine_view_shape(v)))
        t->wrong++;
    t->shape_moves += !shape;
    for (size_t i = 0; shape && i < v->n_zones; i++) {
        bool same = same_zone(before->zones[i], v->zones[i]);
        if (same != (engine_view_zone_print(before, i) == engine_view_zone_print(v, i)))
            t->wrong++;
        t->zone_moves += !same;
    }
}

/* What before (a View of engine_match_view) showed, for engine_match_view_since; stamps and
 * prints hold SINCE_MAX zones. */
#define SINCE_MAX 256
static engine_view_since since_of(const Deckhand__View *before, uint64_t *stamps, uint64_t *prints)
{
    size_t n = before->n_zones < SINCE_MAX ? before->n_zones : SINCE_MAX;
    for (size_t i = 0; i < n; i++) {
        stamps[i] = engine_view_zone_stamp(before, i);
        prints[i] = engine_view_zone_print(before, i);
    }
    return (engine_view_since){engine_view_shape(before), engine_view_epoch(before), n, stamps,
                               prints};
}

/* The View since before (engine_match_view_since) against v, the full View of the same
 * moment: every zone it keeps (no cards) must be unchanged since before, its fingerprint
 * that of v, and every other zone exactly v's. A mutation of a zone that forgets to mark
 * it (engine_zone_touch) shows here as a stale zone. */
static void compare_since(const engine_match *m, int seat, const Deckhand__View *before,
                          const Deckhand__View *v, tally *t)
{
    if (!before)
        return;
    uint64_t stamps[SINCE_MAX], prints[SINCE_MAX];
    engine_view_since since = since_of(before, stamps, prints);
    Deckhand__View *d = engine_match_view_since(m, seat, &since);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(d->n_zones, v->n_zones);
    CU_ASSERT_EQUAL(engine_view_shape(d), engine_view_shape(v));
    size_t kept = 0;
    for (size_t i = 0; i < v->n_zones && i < d->n_zones; i++) {
        bool was_kept = i < since.n && engine_view_zone_stamp(d, i) == stamps[i] &&
                        engine_view_epoch(d) == since.epoch && engine_view_shape(d) == since.shape;
        kept += was_kept;
        if (engine_view_zone_print(d, i) != engine_view_zone_print(v, i))
            t->wrong++;
        if (was_kept) {
            const Deckhand__Zone *was = before->zones[i], *now = v->zones[i];
            if (strcmp(was->name, now->name) || was->owner != now->owner || !same_zone(was, now))
                t->stale++;
            if (d->zones[i]->n_cards || d->zones[i]->count != v->zones[i]->count)
                t->wrong++;
        } else if (!same_zone(d->zones[i], v->zones[i])) {
            t->wrong++;
        }
    }
    CU_ASSERT_EQUAL(kept, engine_view_kept(d));
    t->kept += (long)kept;
    engine_view_free(d);
}

/* One match of game played by its bots (or the first options it allows), every View
 * compared after every answer. */
static void play(engine_bundle *b, const engine_game_info *g, uint64_t seed, tally *t)
{
    char id[64];
    snprintf(id, sizeof id, "prints-%s-%" PRIu64, g->name, seed);
    engine_match_config cfg = {id, g->name, seed, SEATS, NULL, NULL, NULL, false};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__View *last[SEATS + 1] = {0};
    for (int step = 0; step <= MAX_STEPS; step++) {
        for (int s = 0; s <= SEATS; s++) {
            int seat = s < SEATS ? s : ENGINE_SEAT_PUBLIC;
            Deckhand__View *v = engine_match_view(m, seat);
            CU_ASSERT_FATAL(v != NULL);
            compare(last[s], v, t);
            compare_since(m, seat, last[s], v, t);
            engine_view_free(last[s]);
            last[s] = v;
        }
        if (!engine_match_decision(m) || step == MAX_STEPS)
            break;
        engine_error err;
        CU_ASSERT_EQUAL_FATAL(rig_engine_any_step(m, &err), ENGINE_OK);
    }
    for (int s = 0; s <= SEATS; s++)
        engine_view_free(last[s]);
    engine_match_free(m);
}

static void test_view_fingerprints_move_exactly_when_the_view_does(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info games[MAX_GAMES];
    size_t ng = rig_engine_games_seating(b, SEATS, games, MAX_GAMES);
    CU_ASSERT_TRUE_FATAL(ng > 1);
    tally t = {0};
    for (size_t i = 0; i < ng; i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            play(b, &games[i], seed * 100 + i, &t);
    printf("\n  %ld views, %ld shape moves, %ld zone moves, %ld wrong, %ld kept, %ld stale",
           t.views, t.shape_moves, t.zone_moves, t.wrong, t.kept, t.stale);
    CU_ASSERT_EQUAL(t.wrong, 0);
    CU_ASSERT_EQUAL(t.stale, 0);
    CU_ASSERT_TRUE(t.kept > 1000); /* engine_match_view_since kept zones, not only built them */
    CU_ASSERT_TRUE(t.zone_moves > 100); /* the comparison saw changes, not only sameness */
    CU_ASSERT_TRUE(t.shape_moves > 0);
    engine_bundle_free(b);
}

/* Two matches of one game, two seeds: the same number of changes to the same zones in
 * their setup (so the same stamps), different cards. A View of one must keep nothing of
 * the other: stamps hold only within one state's epoch. */
static void test_view_since_keeps_nothing_of_another_match(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info games[MAX_GAMES];
    size_t ng = rig_engine_games_seating(b, SEATS, games, MAX_GAMES);
    CU_ASSERT_TRUE_FATAL(ng > 0);
    size_t zones = 0;
    for (size_t g = 0; g < ng; g++) {
        engine_match_config ca = {"since-a", games[g].name, 7, SEATS, NULL, NULL, NULL, false};
        engine_match_config cb = {"since-b", games[g].name, 8, SEATS, NULL, NULL, NULL, false};
        engine_match *ma = rig_engine_match(b, &ca), *mb = rig_engine_match(b, &cb);
        CU_ASSERT_FATAL(ma != NULL && mb != NULL);
        Deckhand__View *va = engine_match_view(ma, 0);
        CU_ASSERT_FATAL(va != NULL);
        uint64_t stamps[SINCE_MAX], prints[SINCE_MAX];
        engine_view_since since = since_of(va, stamps, prints);
        Deckhand__View *d = engine_match_view_since(mb, 0, &since);
        CU_ASSERT_FATAL(d != NULL);
        CU_ASSERT_EQUAL(engine_view_kept(d), 0);
        CU_ASSERT_NOT_EQUAL(engine_view_epoch(d), engine_view_epoch(va));
        /* within one match the same stamps keep every zone */
        Deckhand__View *again = engine_match_view_since(ma, 0, &since);
        CU_ASSERT_FATAL(again != NULL);
        CU_ASSERT_EQUAL(engine_view_kept(again), va->n_zones);
        zones += va->n_zones;
        engine_view_free(again);
        engine_view_free(d);
        engine_view_free(va);
        engine_match_free(mb);
        engine_match_free(ma);
    }
    CU_ASSERT_TRUE(zones > 0);
    engine_bundle_free(b);
}

/* Every change of a zone's ids moves its stamp (engine_zone_touch), and only its own:
 * engine_match_view_since keeps a zone whose stamp did not move, so a change that forgot
 * to mark would show a seat the zone as it was. Also the shuffle of a zone, which in the
 * shipped games only hidden decks get (where the test above cannot see it). */
static void test_every_zone_change_moves_its_stamp(void)
{
    engine_state st;
    CU_ASSERT_EQUAL_FATAL(engine_state_init(&st, 2), 0);
    engine_zone *a = engine_zone_get(&st, 1, 1, 1);
    CU_ASSERT_FATAL(a != NULL && a->stamp != 0);
    uint64_t sa = a->stamp;
    engine_zone *b = engine_zone_get(&st, 2, 0, 1);
    a = engine_zone_get(&st, 1, 1, 0);
    CU_ASSERT_FATAL(b != NULL && a != NULL);
    CU_ASSERT_EQUAL(a->stamp, sa); /* making b changes nothing of a */
    uint32_t ai = (uint32_t)(a - st.zones), bi = (uint32_t)(b - st.zones);
    uint64_t sb = b->stamp;
#define MOVED(z, was) ((z)->stamp != (was) ? ((was) = (z)->stamp, true) : false)
    CU_ASSERT_NOT_EQUAL(engine_entity_new(&st, 7, ai), 0);
    CU_ASSERT_TRUE(MOVED(a, sa));
    CU_ASSERT_FALSE(MOVED(b, sb));
    CU_ASSERT_NOT_EQUAL(engine_entity_new_n(&st, 8, ai, 5), 0);
    CU_ASSERT_TRUE(MOVED(a, sa));
    CU_ASSERT_EQUAL(engine_entity_move(&st, 2, bi, 0), 0);
    CU_ASSERT_TRUE(MOVED(a, sa));
    CU_ASSERT_TRUE(MOVED(b, sb));
    CU_ASSERT_EQUAL(engine_entity_move(&st, 3, bi, 1), 0);
    CU_ASSERT_TRUE(MOVED(a, sa));
    CU_ASSERT_TRUE(MOVED(b, sb));
    engine_rng_seed(&st, 1);
    engine_zone_shuffle(&st, a);
    CU_ASSERT_TRUE(MOVED(a, sa));
    CU_ASSERT_FALSE(MOVED(b, sb));
    CU_ASSERT_EQUAL(engine_zone_move_all(&st, ai, bi, 0), 0);
    CU_ASSERT_TRUE(MOVED(a, sa));
    CU_ASSERT_TRUE(MOVED(b, sb));
    /* a rewrite of the whole state renews the epoch: every stamp before it is void */
    engine_state copy;
    CU_ASSERT_EQUAL_FATAL(engine_state_init(&copy, 2), 0);
    uint64_t epoch = copy.epoch;
    CU_ASSERT_NOT_EQUAL(epoch, st.epoch);
    CU_ASSERT_EQUAL(engine_state_copy(&copy, &st), 0);
    CU_ASSERT_NOT_EQUAL(copy.epoch, epoch);
    CU_ASSERT_NOT_EQUAL(copy.epoch, st.epoch);
    epoch = st.epoch;
    engine_state_reset(&st);
    CU_ASSERT_NOT_EQUAL(st.epoch, epoch);
#undef MOVED
    engine_state_free(&copy);
    engine_state_free(&st);
}

static const dh_test_case cases[] = {
    {"test_every_zone_change_moves_its_stamp", test_every_zone_change_moves_its_stamp},
    {"test_view_since_keeps_nothing_of_another_match",
     test_view_since_keeps_nothing_of_another_match},
    {"test_view_fingerprints_move_exactly_when_the_view_does",
     test_view_fingerprints_move_exactly_when_the_view_does},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_view_prints", cases);
}
