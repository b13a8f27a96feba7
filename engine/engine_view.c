/*
 * engine_view.c: what one seat may see of a match, as the wire's View message.
 *
 * This is the single place that decides visibility, so it is deliberately plain: a
 * zone's cards are copied only when the game's `zones` table lets this seat see them
 * (public; owner and the viewer owns it; top: the top card only; hidden: none), and
 * every zone always shows its count. Unlisted zones are hidden, so a forgotten entry
 * can never leak a deck. Zones and counters are listed in name order, so a live match
 * and its restored copy produce the same view. Cards are named only: their static data
 * (cost, types, text) is the game's Catalog, built here too and sent once per bundle.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static engine_vis zone_vis(const engine_game *g, const char *name)
{
    const char *colon = strchr(name, ':');
    size_t plen = colon ? (size_t)(colon - name) : strlen(name);
    engine_vis prefix = ENGINE_VIS_HIDDEN;
    for (size_t i = 0; i < g->nzones; i++) {
        if (!strcmp(g->zones[i].name, name))
            return g->zones[i].vis;
        if (colon && strlen(g->zones[i].name) == plen && !strncmp(g->zones[i].name, name, plen))
            prefix = g->zones[i].vis;
    }
    return prefix;
}

static int cmp_zone(const void *a, const void *b, void *ud)
{
    const engine_match *m = ud;
    const engine_zone *x = &m->st.zones[*(const uint32_t *)a];
    const engine_zone *y = &m->st.zones[*(const uint32_t *)b];
    int c = strcmp(m->b->names.v[x->name].s, m->b->names.v[y->name].s);
    return c ? c : (x->owner > y->owner) - (x->owner < y->owner);
}

static int cmp_counter(const void *a, const void *b, void *ud)
{
    const engine_match *m = ud;
    uint64_t x = m->st.counters.kv[*(const uint32_t *)a].key;
    uint64_t y = m->st.counters.kv[*(const uint32_t *)b].key;
    int c = strcmp(m->b->names.v[x >> 32].s, m->b->names.v[y >> 32].s);
    int32_t ox = (int32_t)(uint32_t)x, oy = (int32_t)(uint32_t)y;
    return c ? c : (ox > oy) - (ox < oy);
}

/* Every string, array and sub-message of a view or decision built here is malloc'd (or
 * still protobuf-c's empty default, which its free skips), and counts cover only filled
 * slots, so protobuf-c's own free walks and frees exactly what was built, even half way. */
static void free_decision(Deckhand__DecisionRequest *d)
{
    deckhand__decision_request__free_unpacked(d, NULL);
}

void engine_view_free(Deckhand__View *v)
{
    deckhand__view__free_unpacked(v, NULL);
}

static int32_t wire_owner(int32_t owner)
{
    return owner == 0 ? -1 : owner - 1;
}

static Deckhand__DecisionRequest *make_decision(const engine_match *m)
{
    Deckhand__DecisionRequest *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    deckhand__decision_request__init(d);
    d->match_id = strdup(m->match_id);
    d->prompt = strdup(m->dec.prompt);
    d->kind = strdup(m->dec.kind);
    d->options = calloc(m->dec.noptions ? m->dec.noptions : 1, sizeof(*d->options));
    if (!d->match_id || !d->prompt || !d->kind || !d->options)
        goto err;
    d->event_seq = m->st.event_seq[m->dec.seat];
    d->decision_id = m->dec.decision_id;
    d->seat = (uint32_t)m->dec.seat;
    d->min = m->dec.min;
    d->max = m->dec.max;
    for (size_t i = 0; i < m->dec.noptions; i++) {
        const engine_option *o = &m->dec.options[i];
        Deckhand__Option *op = calloc(1, sizeof *op);
        if (!op)
            goto err;
        deckhand__option__init(op);
        d->options[d->n_options++] = op;
        op->id = o->id;
        op->entity = o->entity;
        op->label = strdup(o->label);
        op->card = strdup(o->card ? o->card : "");
        if (!op->label || !op->card)
            goto err;
    }
    return d;
err:
    free_decision(d);
    return NULL;
}

static Deckhand__Zone *make_zone(const engine_match *m, const engine_zone *z, int seat)
{
    const char *name = m->b->names.v[z->name].s;
    Deckhand__Zone *zo = calloc(1, sizeof *zo);
    if (!zo)
        return NULL;
    deckhand__zone__init(zo);
    zo->name = strdup(name);
    if (!zo->name)
        goto err;
    zo->owner = wire_owner(z->owner);
    zo->count = z->n;
    engine_vis vis = zone_vis(m->game, name);
    uint32_t from = 0, to = 0;
    if (vis == ENGINE_VIS_PUBLIC || (vis == ENGINE_VIS_OWNER && z->owner == seat + 1))
        to = z->n;
    else if (vis == ENGINE_VIS_TOP && z->n)
        from = z->n - 1, to = z->n;
    if (to > from) {
        zo->cards = calloc(to - from, sizeof(*zo->cards));
        if (!zo->cards)
            goto err;
        for (uint32_t i = from; i < to; i++) {
            Deckhand__Card *c = calloc(1, sizeof *c);
            if (!c)
                goto err;
            deckhand__card__init(c);
            zo->cards[zo->n_cards++] = c;
            c->entity = z->ids[i];
            c->name = strdup(m->b->names.v[m->st.ents[z->ids[i] - 1].name].s);
            if (!c->name)
                goto err;
        }
    }
    return zo;
err:
    for (size_t j = 0; zo->cards && j < zo->n_cards; j++) {
        free(zo->cards[j]->name);
        free(zo->cards[j]);
    }
    free(zo->cards);
    free(zo->name);
    free(zo);
    return NULL;
}

Deckhand__View *engine_match_view(const engine_match *m, int seat)
{
    uint32_t *order = NULL;
    Deckhand__View *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    deckhand__view__init(v);
    v->match_id = strdup(m->match_id);
    v->game = strdup(m->game->name);
    v->bundle_id = strdup(engine_bundle_id(m->b));
    if (!v->match_id || !v->game || !v->bundle_id)
        goto err;
    v->seat = (uint32_t)seat;
    v->event_seq = engine_match_event_seq(m, seat);
    v->finished = m->st.finished != 0;
    v->waiting_for = m->pending ? m->dec.seat : -1;

    v->players = calloc((size_t)m->np, sizeof(*v->players));
    if (!v->players)
        goto err;
    for (int i = 0; i < m->np; i++) {
        Deckhand__PlayerInfo *p = calloc(1, sizeof *p);
        if (!p)
            goto err;
        deckhand__player_info__init(p);
        v->players[v->n_players++] = p;
        p->seat = (uint32_t)i;
        p->connected = true;
        p->name = strdup(m->names[i]);
        if (!p->name)
            goto err;
    }

    uint32_t nz = m->st.nzones, nc = m->st.counters.n;
    order = malloc(sizeof(uint32_t) * ((nz > nc ? nz : nc) + 1));
    if (!order)
        goto err;
    for (uint32_t i = 0; i < nz; i++)
        order[i] = i;
    qsort_r(order, nz, sizeof(uint32_t), cmp_zone, (void *)m);
    v->zones = calloc(nz ? nz : 1, sizeof(*v->zones));
    if (!v->zones)
        goto err;
    for (uint32_t i = 0; i < nz; i++) {
        Deckhand__Zone *zo = make_zone(m, &m->st.zones[order[i]], seat);
        if (!zo)
            goto err;
        v->zones[v->n_zones++] = zo;
    }

    for (uint32_t i = 0; i < nc; i++)
        order[i] = i;
    qsort_r(order, nc, sizeof(uint32_t), cmp_counter, (void *)m);
    v->counters = calloc(nc ? nc : 1, sizeof(*v->counters));
    if (!v->counters)
        goto err;
    for (uint32_t i = 0; i < nc; i++) {
        const engine_kv *kv = &m->st.counters.kv[order[i]];
        const char *name = m->b->names.v[kv->key >> 32].s;
        if (name[0] == '_')
            continue;
        Deckhand__Counter *c = calloc(1, sizeof *c);
        if (!c)
            goto err;
        deckhand__counter__init(c);
        v->counters[v->n_counters++] = c;
        c->name = strdup(name);
        if (!c->name)
            goto err;
        c->owner = wire_owner((int32_t)(uint32_t)kv->key);
        c->value = kv->val;
    }

    if (m->pending && m->dec.seat == seat) {
        v->decision = make_decision(m);
        if (!v->decision)
            goto err;
    }
    free(order);
    return v;
err:
    free(order);
    engine_view_free(v);
    return NULL;
}

void engine_catalog_free(Deckhand__Catalog *c)
{
    deckhand__catalog__free_unpacked(c, NULL);
}

Deckhand__Catalog *engine_match_catalog(const engine_match *m)
{
    const engine_game *g = m->game;
    Deckhand__Catalog *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    deckhand__catalog__init(c);
    c->bundle_id = strdup(engine_bundle_id(m->b));
    c->game = strdup(g->name);
    c->cards = calloc(g->ncards ? g->ncards : 1, sizeof(*c->cards));
    if (!c->bundle_id || !c->game || !c->cards)
        goto err;
    for (size_t i = 0; i < g->ncards; i++) {
        Deckhand__CardInfo *ci = calloc(1, sizeof *ci);
        if (!ci)
            goto err;
        deckhand__card_info__init(ci);
        c->cards[c->n_cards++] = ci;
        ci->cost = g->cards[i].cost;
        ci->name = strdup(g->cards[i].name);
        ci->types = strdup(g->cards[i].types);
        ci->text = strdup(g->cards[i].text);
        if (!ci->name || !ci->types || !ci->text)
            goto err;
    }
    return c;
err:
    engine_catalog_free(c);
    return NULL;
}
