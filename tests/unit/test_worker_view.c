/*
 * test_worker_view.c: what the worker shows each seat after a change (worker/out/out_view.c):
 * a ViewDelta against the View the seat was last sent, numbered so a client can tell it
 * holds that View, carrying only what the seat's own full View shows; the Catalog before
 * the first full View of a connection, and a full View again on a new connection.
 */
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
        {"worker_new_connection_gets_catalog_and_full_view",
         test_worker_new_connection_gets_catalog_and_full_view},
        {NULL, NULL},
    };
    return rig_worker_main("worker_view", cases);
}
