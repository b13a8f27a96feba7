/*
 * test_engine_view.c: what a seat's View may show (engine/engine_view.c), on the small
 * fixture game in tests/fixtures/bundle/mini: no deck order, no other player's hand, only
 * the top card of a discard pile, nothing of a zone hidden through its prefix.
 */
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

static const dh_test_case cases[] = {
    {"test_public_view_shows_no_hand_and_no_decision",
     test_public_view_shows_no_hand_and_no_decision},
    {"test_view_hides_decks_and_other_hands", test_view_hides_decks_and_other_hands},
    {"test_discard_shows_only_its_top_card", test_discard_shows_only_its_top_card},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_view", cases);
}
