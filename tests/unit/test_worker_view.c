/*
 * test_worker_view.c: what the worker shows each seat after a change (worker/out/out_view.c):
 * a ViewDelta against the View the seat was last sent, numbered so a client can tell it
 * holds that View, carrying only what the seat's own full View shows; the Catalog before
 * the first full View of a connection, and a full View again on a new connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "host.h"
#include "rig_worker.h"

static bool other_hand_cards(const Deckhand__ViewDelta *d)
{
    for (size_t i = 0; i < d->n_zones; i++)
        if (!strncmp(d->zones[i]->name, "hand", 4) && d->zones[i]->owner != (int)d->seat &&
            d->zones[i]->n_cards > 0)
            return true;
    return false;
}

static void test_worker_sends_seats_deltas_against_their_last_view(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-delta", "dominion", NULL);
    uint64_t last[2] = {0, 0};
    for (int p = 0; p < 2; p++) { /* a Resync: the Catalog if needed, then a full View */
        rig_worker_command(&r, "m-delta", rig_worker_players[p], 100 + (uint64_t)p, NULL);
        rig_outbox o;
        rig_worker_gw_drain(&r, &o);
        const Deckhand__ServerMessage *v =
            rig_outbox_find(&o, rig_worker_players[p], DECKHAND__SERVER_MESSAGE__BODY_VIEW);
        CU_ASSERT_TRUE_FATAL(v != NULL);
        CU_ASSERT_EQUAL(v->view->n_cards, 0);
        CU_ASSERT_TRUE(v->view->bundle_id && strlen(v->view->bundle_id) == 64);
        last[p] = v->view->view_seq;
        rig_outbox_free(&o);
    }
    unsigned deltas = 0, other_hands = 0;
    uint64_t cmd = 1;
    for (int turn = 0; turn < 30 && !engine_match_finished(hm->m); turn++) {
        const engine_decision *dec = engine_match_decision(hm->m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dec);
        Deckhand__Choose c;
        uint32_t ids[64];
        rig_worker_legal_choice(dec, &c, ids);
        rig_worker_command(&r, hm->id, rig_worker_players[dec->seat], cmd++, &c);
        host_flush(&r.h, r.now);
        rig_outbox o;
        rig_worker_gw_drain(&r, &o);
        for (size_t i = 0; i < o.n; i++) {
            int p = strcmp(o.player[i], rig_worker_players[0]) ? 1 : 0;
            const Deckhand__ServerMessage *m = o.msg[i];
            if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW) {
                CU_ASSERT_TRUE(m->view->view_seq > last[p]);
                last[p] = m->view->view_seq;
            } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA) {
                const Deckhand__ViewDelta *d = m->view_delta;
                deltas++;
                CU_ASSERT_EQUAL(d->seat, (uint32_t)p);
                CU_ASSERT_EQUAL(d->base_view_seq, last[p]);
                CU_ASSERT_TRUE(d->view_seq > d->base_view_seq);
                CU_ASSERT_FALSE(other_hand_cards(d));
                CU_ASSERT_TRUE(!d->decision || d->decision->seat == d->seat);
                for (size_t z = 0; z < d->n_zones; z++)
                    other_hands += !strncmp(d->zones[z]->name, "hand", 4) &&
                                   d->zones[z]->owner != (int)d->seat;
                last[p] = d->view_seq;
            } else {
                CU_ASSERT_NOT_EQUAL(m->body_case, DECKHAND__SERVER_MESSAGE__BODY_CATALOG);
            }
        }
        rig_outbox_free(&o);
    }
    CU_ASSERT_TRUE(deltas > 10);
    CU_ASSERT_TRUE(other_hands > 0); /* the other hand changed, and showed only its count */
    rig_worker_close(&r);
}

/* A seat's zones as a client holds them: from its last full View, each ViewDelta's zones
 * put over them (by name and owner). */
#define HELD_ZONES 128
typedef struct {
    char key[HELD_ZONES][96];
    char *body[HELD_ZONES];
    size_t n;
} held_view;

/* A zone's count and cards as text. */
static char *zone_body(const Deckhand__Zone *z)
{
    size_t cap = 32, at;
    for (size_t i = 0; i < z->n_cards; i++)
        cap += 24 + strlen(z->cards[i]->name);
    char *s = malloc(cap);
    CU_ASSERT_FATAL(s != NULL);
    at = (size_t)snprintf(s, cap, "%u:", z->count);
    for (size_t i = 0; i < z->n_cards; i++)
        at += (size_t)snprintf(s + at, cap - at, "%u=%s,", z->cards[i]->entity, z->cards[i]->name);
    return s;
}

static void held_clear(held_view *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->body[i]);
    h->n = 0;
}

static void held_put(held_view *h, Deckhand__Zone *const *zones, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char key[96];
        snprintf(key, sizeof key, "%s/%d", zones[i]->name, zones[i]->owner);
        size_t j = 0;
        while (j < h->n && strcmp(h->key[j], key))
            j++;
        CU_ASSERT_FATAL(j < HELD_ZONES);
        if (j == h->n)
            snprintf(h->key[h->n++], sizeof h->key[0], "%s", key);
        else
            free(h->body[j]);
        h->body[j] = zone_body(zones[i]);
    }
}

/* The zones of v (the seat's full View now) that h shows otherwise. */
static int held_differs(const held_view *h, const Deckhand__View *v)
{
    int wrong = v->n_zones != h->n;
    for (size_t i = 0; i < v->n_zones; i++) {
        char key[96], *body = zone_body(v->zones[i]);
        snprintf(key, sizeof key, "%s/%d", v->zones[i]->name, v->zones[i]->owner);
        size_t j = 0;
        while (j < h->n && strcmp(h->key[j], key))
            j++;
        wrong += j == h->n || strcmp(h->body[j], body);
        free(body);
    }
    return wrong;
}

/* The worker builds a delta's View without the cards of the zones unchanged since the
 * seat's last View (engine_match_view_since): a client that puts every ViewDelta over its
 * last full View holds, after every answer, exactly the zones its full View shows, over
 * whole matches of two games (a stale zone, one a change forgot to mark, fails here). */
static void test_worker_deltas_over_the_last_view_give_the_full_view(void)
{
    const char *games[] = {"dominion", "ascension"};
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        rig_worker r;
        rig_worker_open(&r, "scripts", NULL);
        char id[32];
        snprintf(id, sizeof id, "m-held-%zu", g);
        host_match *hm = rig_worker_started(&r, id, games[g], NULL);
        static held_view held[2];
        unsigned deltas = 0, fulls = 0, wrong = 0;
        uint64_t cmd = 1;
        for (int p = 0; p < 2; p++) /* a Resync: a full View each */
            rig_worker_command(&r, id, rig_worker_players[p], 100 + (uint64_t)p, NULL);
        for (int turn = 0; turn < 400; turn++) {
            host_flush(&r.h, r.now);
            rig_outbox o;
            rig_worker_gw_drain(&r, &o);
            for (size_t i = 0; i < o.n; i++) {
                int p = strcmp(o.player[i], rig_worker_players[0]) ? 1 : 0;
                const Deckhand__ServerMessage *m = o.msg[i];
                if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW) {
                    held_clear(&held[p]);
                    held_put(&held[p], m->view->zones, m->view->n_zones);
                    fulls++;
                } else if (m->body_case == DECKHAND__SERVER_MESSAGE__BODY_VIEW_DELTA) {
                    held_put(&held[p], m->view_delta->zones, m->view_delta->n_zones);
                    deltas++;
                }
            }
            rig_outbox_free(&o);
            if (!(hm = host_find(&r.h, id))) /* finished and dropped */
                break;
            for (int p = 0; p < 2; p++) {
                Deckhand__View *v = engine_match_view(hm->m, p);
                CU_ASSERT_FATAL(v != NULL);
                wrong += (unsigned)held_differs(&held[p], v);
                engine_view_free(v);
            }
            const engine_decision *dec = engine_match_decision(hm->m);
            if (!dec || engine_match_finished(hm->m))
                break;
            Deckhand__Choose c;
            uint32_t ids[64];
            rig_worker_legal_choice(dec, &c, ids);
            rig_worker_command(&r, hm->id, rig_worker_players[dec->seat], cmd++, &c);
        }
        printf("\n  %s: %u full Views, %u deltas, %u zones held wrong", games[g], fulls, deltas,
               wrong);
        CU_ASSERT_EQUAL(wrong, 0);
        CU_ASSERT_TRUE(deltas > 50);
        CU_ASSERT_TRUE(fulls >= 2);
        held_clear(&held[0]);
        held_clear(&held[1]);
        rig_worker_close(&r);
    }
}

static void test_worker_new_connection_gets_catalog_and_full_view(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_match *hm = rig_worker_started(&r, "m-conn", "dominion", NULL);
    uint64_t cmd = 1;
    rig_worker_play(&r, hm, 2, &cmd);
    rig_outbox o;
    rig_worker_gw_drain(&r, &o);
    rig_outbox_free(&o);
    const char *p = rig_worker_players[0];
    rig_worker_away_via(&r, "gw-t", "m-conn", p);
    rig_worker_command(&r, "m-conn", p, 50, NULL); /* back, and a Resync */
    rig_worker_gw_drain(&r, &o);
    const Deckhand__ServerMessage *c =
        rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_CATALOG);
    const Deckhand__ServerMessage *v = rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW);
    CU_ASSERT_TRUE_FATAL(c != NULL && v != NULL);
    CU_ASSERT_STRING_EQUAL(c->catalog->bundle_id, v->view->bundle_id);
    CU_ASSERT_STRING_EQUAL(c->catalog->game, "dominion");
    CU_ASSERT_TRUE(c->catalog->n_cards > 10);
    bool catalog_first = false;
    for (size_t i = 0; i < o.n; i++) {
        if (o.msg[i] == c)
            catalog_first = true;
        if (o.msg[i] == v)
            break;
    }
    CU_ASSERT_TRUE(catalog_first);
    rig_outbox_free(&o);
    /* a Resync on the same connection: a full View, no second Catalog */
    rig_worker_command(&r, "m-conn", p, 51, NULL);
    rig_worker_gw_drain(&r, &o);
    CU_ASSERT_PTR_NOT_NULL(rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_VIEW));
    CU_ASSERT_PTR_NULL(rig_outbox_find(&o, p, DECKHAND__SERVER_MESSAGE__BODY_CATALOG));
    rig_outbox_free(&o);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_sends_seats_deltas_against_their_last_view",
         test_worker_sends_seats_deltas_against_their_last_view},
        {"worker_deltas_over_the_last_view_give_the_full_view",
         test_worker_deltas_over_the_last_view_give_the_full_view},
        {"worker_new_connection_gets_catalog_and_full_view",
         test_worker_new_connection_gets_catalog_and_full_view},
        {NULL, NULL},
    };
    return rig_worker_main("worker_view", cases);
}
