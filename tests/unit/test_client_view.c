/*
 * test_client_view.c: a client's View kept current from ViewDeltas (dh_client_view.h):
 * a delta against the View held replaces its zones, counters and pending state; one
 * against another View, or naming what the View lacks, changes nothing and asks for a
 * Resync; and cards are found in a Catalog by name or unique prefix.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_client_view.h"
#include "dh_test.h"

/* A heap copy of v, as a client gets it from protobuf-c. */
static Deckhand__View *heap_view(const Deckhand__View *v)
{
    size_t n = deckhand__view__get_packed_size(v);
    uint8_t *buf = malloc(n + 1);
    deckhand__view__pack(v, buf);
    Deckhand__View *out = deckhand__view__unpack(NULL, n, buf);
    free(buf);
    return out;
}

static Deckhand__ViewDelta *heap_delta(const Deckhand__ViewDelta *d)
{
    size_t n = deckhand__view_delta__get_packed_size(d);
    uint8_t *buf = malloc(n + 1);
    deckhand__view_delta__pack(d, buf);
    Deckhand__ViewDelta *out = deckhand__view_delta__unpack(NULL, n, buf);
    free(buf);
    return out;
}

/* A View of seat 1 at view_seq 7: hands of both seats (the other's hidden), one counter. */
static Deckhand__View *start_view(void)
{
    Deckhand__Card c1 = DECKHAND__CARD__INIT, c2 = DECKHAND__CARD__INIT;
    c1.entity = 5, c1.name = (char *)"Copper";
    c2.entity = 6, c2.name = (char *)"Estate";
    Deckhand__Card *cards[] = {&c1, &c2};
    Deckhand__Zone h0 = DECKHAND__ZONE__INIT, h1 = DECKHAND__ZONE__INIT;
    h0.name = h1.name = (char *)"hand";
    h0.owner = 0, h0.count = 5;
    h1.owner = 1, h1.count = 2, h1.n_cards = 2, h1.cards = cards;
    Deckhand__Zone *zones[] = {&h0, &h1};
    Deckhand__Counter k = DECKHAND__COUNTER__INIT;
    k.name = (char *)"coins", k.owner = 1, k.value = 0;
    Deckhand__Counter *counters[] = {&k};
    Deckhand__View v = DECKHAND__VIEW__INIT;
    v.match_id = (char *)"m-1";
    v.seat = 1, v.view_seq = 7, v.event_seq = 3, v.waiting_for = 0;
    v.n_zones = 2, v.zones = zones;
    v.n_counters = 1, v.counters = counters;
    return heap_view(&v);
}

/* A delta of seat 1 on base: its hand down to one card, coins 2, its decision. */
static Deckhand__ViewDelta *make_delta(uint64_t base, const char *zone)
{
    Deckhand__Card c1 = DECKHAND__CARD__INIT;
    c1.entity = 6, c1.name = (char *)"Estate";
    Deckhand__Card *cards[] = {&c1};
    Deckhand__Zone h1 = DECKHAND__ZONE__INIT;
    h1.name = (char *)zone, h1.owner = 1, h1.count = 1, h1.n_cards = 1, h1.cards = cards;
    Deckhand__Zone *zones[] = {&h1};
    Deckhand__Counter k = DECKHAND__COUNTER__INIT;
    k.name = (char *)"coins", k.owner = 1, k.value = 2;
    Deckhand__Counter *counters[] = {&k};
    Deckhand__DecisionRequest dr = DECKHAND__DECISION_REQUEST__INIT;
    dr.match_id = (char *)"m-1", dr.seat = 1, dr.decision_id = 9;
    Deckhand__ViewDelta d = DECKHAND__VIEW_DELTA__INIT;
    d.match_id = (char *)"m-1";
    d.seat = 1, d.base_view_seq = base, d.view_seq = base + 1, d.event_seq = 4;
    d.waiting_for = 1;
    d.n_zones = 1, d.zones = zones;
    d.n_counters = 1, d.counters = counters;
    d.decision = &dr;
    return heap_delta(&d);
}

static void test_view_delta_replaces_what_changed(void)
{
    Deckhand__View *v = start_view();
    Deckhand__ViewDelta *d = make_delta(7, "hand");
    CU_ASSERT_EQUAL(dh_view_apply(v, d), DH_VIEW_APPLIED);
    deckhand__view_delta__free_unpacked(d, NULL);
    CU_ASSERT_EQUAL(v->view_seq, 8);
    CU_ASSERT_EQUAL(v->event_seq, 4);
    CU_ASSERT_EQUAL(v->waiting_for, 1);
    CU_ASSERT_EQUAL(v->zones[0]->count, 5); /* not in the delta: unchanged */
    CU_ASSERT_EQUAL(v->zones[1]->count, 1);
    CU_ASSERT_EQUAL_FATAL(v->zones[1]->n_cards, 1);
    CU_ASSERT_STRING_EQUAL(v->zones[1]->cards[0]->name, "Estate");
    CU_ASSERT_EQUAL(v->counters[0]->value, 2);
    CU_ASSERT_TRUE(v->decision && v->decision->decision_id == 9);
    /* the next delta has no decision: the View's goes */
    Deckhand__ViewDelta *d2 = make_delta(8, "hand");
    deckhand__decision_request__free_unpacked(d2->decision, NULL);
    d2->decision = NULL;
    CU_ASSERT_EQUAL(dh_view_apply(v, d2), DH_VIEW_APPLIED);
    deckhand__view_delta__free_unpacked(d2, NULL);
    CU_ASSERT_PTR_NULL(v->decision);
    deckhand__view__free_unpacked(v, NULL);
}

static void test_view_delta_not_against_the_view_asks_for_resync(void)
{
    Deckhand__View *v = start_view();
    Deckhand__ViewDelta *d = make_delta(6, "hand"); /* a delta was missed */
    CU_ASSERT_EQUAL(dh_view_apply(v, d), DH_VIEW_RESYNC);
    deckhand__view_delta__free_unpacked(d, NULL);
    d = make_delta(7, "play"); /* a zone the View does not have */
    CU_ASSERT_EQUAL(dh_view_apply(v, d), DH_VIEW_RESYNC);
    deckhand__view_delta__free_unpacked(d, NULL);
    CU_ASSERT_EQUAL(v->view_seq, 7); /* untouched */
    CU_ASSERT_EQUAL(v->zones[1]->count, 2);
    CU_ASSERT_EQUAL(v->counters[0]->value, 0);
    CU_ASSERT_PTR_NULL(v->decision);
    d = make_delta(7, "hand");
    CU_ASSERT_EQUAL(dh_view_apply(NULL, d), DH_VIEW_RESYNC); /* no View yet */
    deckhand__view_delta__free_unpacked(d, NULL);
    deckhand__view__free_unpacked(v, NULL);
}

static void test_catalog_finds_cards_by_name_or_unique_prefix(void)
{
    Deckhand__CardInfo a = DECKHAND__CARD_INFO__INIT, b = DECKHAND__CARD_INFO__INIT,
                       c = DECKHAND__CARD_INFO__INIT;
    a.name = (char *)"Throne Room";
    b.name = (char *)"Thief";
    c.name = (char *)"Smithy";
    Deckhand__CardInfo *cards[] = {&a, &b, &c};
    Deckhand__Catalog cat = DECKHAND__CATALOG__INIT;
    cat.n_cards = 3, cat.cards = cards;
    CU_ASSERT_PTR_EQUAL(dh_catalog_card(&cat, "smithy"), &c);
    CU_ASSERT_PTR_EQUAL(dh_catalog_card(&cat, "thr"), &a);
    CU_ASSERT_PTR_NULL(dh_catalog_card(&cat, "th")); /* two cards */
    CU_ASSERT_PTR_NULL(dh_catalog_card(&cat, "Gold"));
    CU_ASSERT_PTR_NULL(dh_catalog_card(NULL, "Gold"));
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"view_delta_replaces_what_changed", test_view_delta_replaces_what_changed},
        {"view_delta_not_against_the_view_asks_for_resync",
         test_view_delta_not_against_the_view_asks_for_resync},
        {"catalog_finds_cards_by_name_or_unique_prefix",
         test_catalog_finds_cards_by_name_or_unique_prefix},
        {NULL, NULL},
    };
    return dh_test_main("client_view", cases);
}
