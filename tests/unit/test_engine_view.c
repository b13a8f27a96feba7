/*
 * test_engine_view.c: what a seat's View may show (engine/engine_view.c), on the small
 * fixture game in tests/fixtures/bundle/mini: no deck order, no other player's hand, only
 * the top card of a discard pile, nothing of a zone hidden through its prefix; a View
 * built in the arena a freed one leaves to its thread packs to the same bytes.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const Deckhand__Zone *view_zone(const Deckhand__View *v, const char *name, int owner)
{
    for (size_t i = 0; i < v->n_zones; i++)
        if (!strcmp(v->zones[i]->name, name) && v->zones[i]->owner == owner)
            return v->zones[i];
    return NULL;
}

static void test_view_hides_decks_and_other_hands(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 12, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    rig_engine_mini_pass_turn(m); /* seat 0 discarded nothing; draws one: 4 in hand */
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
    CU_ASSERT_EQUAL(v->n_cards, 0); /* card texts come in the catalog */
    CU_ASSERT_STRING_EQUAL(v->bundle_id, engine_bundle_id(b));
    Deckhand__Catalog *cat = engine_match_catalog(m);
    CU_ASSERT_FATAL(cat != NULL);
    CU_ASSERT_STRING_EQUAL(cat->bundle_id, engine_bundle_id(b));
    CU_ASSERT_STRING_EQUAL(cat->game, "mini");
    CU_ASSERT_EQUAL(cat->n_cards, 2);
    CU_ASSERT_STRING_EQUAL(cat->cards[0]->name, "Coin");
    CU_ASSERT_STRING_EQUAL(cat->cards[1]->types, "Treasure - Jewel");
    CU_ASSERT_EQUAL(cat->cards[1]->cost, 3);
    engine_catalog_free(cat);
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

/* The View's zones and counters are in name order (then owner); *nz, *nc their counts. */
static void check_name_order(const Deckhand__View *v, size_t *nz, size_t *nc)
{
    for (size_t i = 1; i < v->n_zones; i++) {
        int c = strcmp(v->zones[i - 1]->name, v->zones[i]->name);
        CU_ASSERT_TRUE(c < 0 || (c == 0 && v->zones[i - 1]->owner < v->zones[i]->owner));
    }
    for (size_t i = 1; i < v->n_counters; i++) {
        int c = strcmp(v->counters[i - 1]->name, v->counters[i]->name);
        CU_ASSERT_TRUE(c < 0 || (c == 0 && v->counters[i - 1]->owner < v->counters[i]->owner));
    }
    *nz = v->n_zones;
    *nc = v->n_counters;
}

/* The id of the pending decision's first option whose label starts with prefix, or 0. */
static uint32_t option_starting(const engine_match *m, const char *prefix)
{
    const engine_decision *d = engine_match_decision(m);
    for (size_t i = 0; d && i < d->noptions; i++)
        if (!strncmp(d->options[i].label, prefix, strlen(prefix)))
            return d->options[i].id;
    return 0;
}

/* Views keep zones and counters in name order when new ones appear mid-match (the order
 * a View reuses from the one before is dropped when the zones or counters change). */
static void test_view_keeps_name_order_as_zones_and_counters_appear(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, "traps=1", NULL);
    CU_ASSERT_FATAL(m != NULL);
    int seat = engine_match_decision(m)->seat;
    size_t nz0, nc0, nz1, nc1, nz2, nc2;
    Deckhand__View *v = engine_match_view(m, seat);
    check_name_order(v, &nz0, &nc0);
    engine_view_free(v);
    CU_ASSERT_EQUAL_FATAL(rig_engine_answer(m, option_starting(m, "Play "), NULL), ENGINE_OK);
    v = engine_match_view(m, seat);
    check_name_order(v, &nz1, &nc1);
    engine_view_free(v);
    CU_ASSERT_TRUE(nz1 > nz0); /* the seat's play zone came */
    while (!option_starting(m, "Probe"))
        rig_engine_mini_pass_turn(m);
    CU_ASSERT_EQUAL_FATAL(rig_engine_answer(m, option_starting(m, "Probe"), NULL), ENGINE_OK);
    v = engine_match_view(m, seat);
    check_name_order(v, &nz2, &nc2);
    engine_view_free(v);
    CU_ASSERT_TRUE(nc2 > nc1); /* the probe counter came */
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_discard_shows_only_its_top_card(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 13, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint32_t two[] = {1, 2};
    engine_error err;
    CU_ASSERT_EQUAL(rig_engine_answer(m, rig_engine_option(m, "Pass"), NULL), ENGINE_OK);
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

static void count_public(void *ud, const engine_event *ev)
{
    int *n = ud;
    n[ev->everyone ? 0 : 1]++;
    if (!ev->everyone)
        CU_ASSERT(strncmp(ev->text, "you draw", 8) == 0); /* only g:log_to's text is private */
}

static void test_public_view_shows_no_hand_and_no_decision(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 14, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    rig_engine_mini_pass_turn(m);
    Deckhand__View *v = engine_match_view(m, ENGINE_SEAT_PUBLIC);
    CU_ASSERT_FATAL(v != NULL);
    CU_ASSERT_EQUAL(v->seat, 0);
    /* the public event count: the start's and the turns' g:log lines, no g:log_to draw */
    CU_ASSERT_TRUE(v->event_seq > 0);
    CU_ASSERT_EQUAL(v->event_seq, engine_match_event_seq(m, ENGINE_SEAT_PUBLIC));
    CU_ASSERT_TRUE(v->event_seq < engine_match_event_seq(m, 0));
    CU_ASSERT_PTR_NULL(v->decision);
    CU_ASSERT_EQUAL(v->waiting_for, 1); /* whose turn it is stays public */
    for (int seat = 0; seat < 2; seat++) {
        const Deckhand__Zone *z = view_zone(v, "hand", seat);
        CU_ASSERT_FATAL(z != NULL);
        CU_ASSERT(z->count > 0);
        CU_ASSERT_EQUAL(z->n_cards, 0);
        z = view_zone(v, "deck", seat);
        CU_ASSERT_FATAL(z != NULL);
        CU_ASSERT_EQUAL(z->n_cards, 0);
    }
    const Deckhand__Zone *z = view_zone(v, "pile", -1);
    CU_ASSERT_FATAL(z != NULL);
    CU_ASSERT_EQUAL(z->n_cards, 1); /* a public zone is public to everyone */
    engine_view_free(v);
    int n[2] = {0, 0};
    engine_match_drain_events(m, count_public, n);
    CU_ASSERT(n[0] > 0);
    CU_ASSERT(n[1] > 0);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* v packed, into a malloc'd buffer of *n bytes; v freed. */
static uint8_t *view_bytes(Deckhand__View *v, size_t *n)
{
    CU_ASSERT_FATAL(v != NULL);
    *n = deckhand__view__get_packed_size(v);
    uint8_t *p = malloc(*n ? *n : 1);
    CU_ASSERT_FATAL(p != NULL);
    CU_ASSERT_EQUAL(deckhand__view__pack(v, p), *n);
    engine_view_free(v);
    return p;
}

typedef struct {
    const engine_match *m;
    uint8_t *bytes;
    size_t n;
} view_job;

/* A thread of its own has no arena kept from an earlier View: its first one is fresh. Its
 * kept arena is freed as it ends (LeakSanitizer checks that under ASan). */
static void *fresh_view(void *arg)
{
    view_job *j = arg;
    j->bytes = view_bytes(engine_match_view(j->m, 0), &j->n);
    return NULL;
}

static void test_view_in_a_reused_arena_packs_the_same_bytes(void)
{
    engine_bundle *b = rig_engine_load_mini();
    engine_match *m = rig_engine_mini_match(b, 12, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    rig_engine_mini_pass_turn(m);
    view_job fresh = {.m = m};
    pthread_t t;
    CU_ASSERT_FATAL(pthread_create(&t, NULL, fresh_view, &fresh) == 0);
    pthread_join(t, NULL);
    /* this thread's arena last held other Views: seat 1's (another hand, no decision) and
     * the public one, each freed before the next is built */
    size_t n;
    free(view_bytes(engine_match_view(m, 1), &n));
    free(view_bytes(engine_match_view(m, ENGINE_SEAT_PUBLIC), &n));
    uint8_t *again = view_bytes(engine_match_view(m, 0), &n);
    CU_ASSERT_EQUAL(n, fresh.n);
    CU_ASSERT(n == fresh.n && !memcmp(again, fresh.bytes, n));
    /* two Views held at once: the second does not share the first's arena */
    Deckhand__View *v0 = engine_match_view(m, 0), *v1 = engine_match_view(m, 1);
    CU_ASSERT_FATAL(v0 != NULL && v1 != NULL);
    uint8_t *b1 = view_bytes(v1, &n), *b0;
    size_t n0;
    b0 = view_bytes(v0, &n0);
    CU_ASSERT(n0 == fresh.n && !memcmp(b0, fresh.bytes, n0));
    free(b0);
    free(b1);
    free(again);
    free(fresh.bytes);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_view_in_a_reused_arena_packs_the_same_bytes",
     test_view_in_a_reused_arena_packs_the_same_bytes},
    {"test_public_view_shows_no_hand_and_no_decision",
     test_public_view_shows_no_hand_and_no_decision},
    {"test_view_hides_decks_and_other_hands", test_view_hides_decks_and_other_hands},
    {"test_discard_shows_only_its_top_card", test_discard_shows_only_its_top_card},
    {"test_view_keeps_name_order_as_zones_and_counters_appear",
     test_view_keeps_name_order_as_zones_and_counters_appear},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_view", cases);
}
