/*
 * dh_client_view.c: applying a ViewDelta to the View a client holds, and looking cards up
 * in a Catalog (see dh_client_view.h).
 */
#include "dh_client_view.h"

#include <string.h>
#include <strings.h>

static Deckhand__Zone **view_zone(Deckhand__View *v, const Deckhand__Zone *z)
{
    for (size_t i = 0; i < v->n_zones; i++)
        if (v->zones[i]->owner == z->owner && !strcmp(v->zones[i]->name, z->name))
            return &v->zones[i];
    return NULL;
}

static Deckhand__Counter **view_counter(Deckhand__View *v, const Deckhand__Counter *c)
{
    for (size_t i = 0; i < v->n_counters; i++)
        if (v->counters[i]->owner == c->owner && !strcmp(v->counters[i]->name, c->name))
            return &v->counters[i];
    return NULL;
}

dh_view_verdict dh_view_apply(Deckhand__View *v, Deckhand__ViewDelta *d)
{
    if (!v || !d || strcmp(v->match_id, d->match_id) != 0 || v->seat != d->seat ||
        v->view_seq != d->base_view_seq)
        return DH_VIEW_RESYNC;
    /* check everything first, so a delta that does not fit leaves v as it was */
    for (size_t i = 0; i < d->n_zones; i++)
        if (!view_zone(v, d->zones[i]))
            return DH_VIEW_RESYNC;
    for (size_t i = 0; i < d->n_counters; i++)
        if (!view_counter(v, d->counters[i]))
            return DH_VIEW_RESYNC;
    for (size_t i = 0; i < d->n_zones; i++) {
        Deckhand__Zone **slot = view_zone(v, d->zones[i]), *old = *slot;
        *slot = d->zones[i];
        d->zones[i] = old;
    }
    for (size_t i = 0; i < d->n_counters; i++) {
        Deckhand__Counter **slot = view_counter(v, d->counters[i]), *old = *slot;
        *slot = d->counters[i];
        d->counters[i] = old;
    }
    Deckhand__DecisionRequest *old = v->decision;
    v->decision = d->decision;
    d->decision = old;
    v->event_seq = d->event_seq;
    v->view_seq = d->view_seq;
    v->waiting_for = d->waiting_for;
    v->finished = d->finished;
    return DH_VIEW_APPLIED;
}

const Deckhand__CardInfo *dh_catalog_card(const Deckhand__Catalog *c, const char *name)
{
    if (!c || !name)
        return NULL;
    for (size_t i = 0; i < c->n_cards; i++)
        if (!strcasecmp(c->cards[i]->name, name))
            return c->cards[i];
    const Deckhand__CardInfo *found = NULL;
    for (size_t i = 0; i < c->n_cards; i++)
        if (!strncasecmp(c->cards[i]->name, name, strlen(name))) {
            if (found)
                return NULL;
            found = c->cards[i];
        }
    return found;
}
