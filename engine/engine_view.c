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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "engine_present.h"

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

/* A View is built in an arena of its own: the View message heads the first chunk, and
 * every string, array and sub-message after it is carved from that chunk (or from a
 * later, larger one when it fills), so a View costs one or two mallocs instead of one per
 * card, zone, counter and string, and engine_view_free frees the chunks. */
#define VIEW_CHUNK 8192

typedef struct view_chunk {
    struct view_chunk *next;
    size_t at, cap; /* bytes used and held after this header */
} view_chunk;

typedef struct {
    Deckhand__View v; /* first: engine_view_free gets back here from it */
    view_chunk *head; /* the chunk carved from now; older ones follow */
    uint64_t shape;   /* engine_view_shape */
    uint64_t *prints; /* engine_view_zone_print, one per zone of v */
    uint64_t *stamps; /* engine_view_zone_stamp, one per zone of v */
    uint64_t epoch;   /* the match state's epoch as it was built */
    size_t nkept;     /* zones left without their cards (engine_match_view_since) */
} view_arena;

/* One step of the fingerprints below: FNV-1a's, on a whole 64-bit word. */
static uint64_t view_mix(uint64_t h, uint64_t x)
{
    return (h ^ x) * 1099511628211ULL;
}

/* s's bytes and its NUL, one step each. */
static uint64_t view_mix_str(uint64_t h, const char *s)
{
    do
        h = view_mix(h, (unsigned char)*s);
    while (*s++);
    return h;
}

static size_t view_align(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* Each thread keeps the largest chunk (up to VIEW_SPARE_MAX) of the last View it freed
 * and starts its next View in it, so a seat's View after every answer costs no malloc and
 * free in the steady state (issue 27): a View needs the same room as the one before. The
 * spare is a thread's, behind a key whose destructor frees it when the thread ends. */
#define VIEW_SPARE_MAX 65536

static pthread_key_t view_spare_key;
static pthread_once_t view_spare_once = PTHREAD_ONCE_INIT;
static int view_spare_ok;

static void view_spare_init(void)
{
    view_spare_ok = pthread_key_create(&view_spare_key, free) == 0;
}

/* This thread's spare chunk, taken (NULL when it has none). */
static view_chunk *view_spare_take(void)
{
    pthread_once(&view_spare_once, view_spare_init);
    if (!view_spare_ok)
        return NULL;
    view_chunk *c = pthread_getspecific(view_spare_key);
    if (c)
        pthread_setspecific(view_spare_key, NULL);
    return c;
}

/* c kept as this thread's spare when it is larger than the one kept (which is freed), else
 * freed. */
static void view_spare_keep(view_chunk *c)
{
    view_chunk *old = view_spare_ok ? pthread_getspecific(view_spare_key) : NULL;
    if (!view_spare_ok || c->cap > VIEW_SPARE_MAX || (old && old->cap >= c->cap) ||
        pthread_setspecific(view_spare_key, c) != 0) {
        free(c);
        return;
    }
    free(old);
}

/* A new chunk of at least need bytes, twice the last one's size or more. */
static view_chunk *view_chunk_new(size_t need, size_t last)
{
    size_t cap = last * 2 > need ? last * 2 : need;
    view_chunk *c = malloc(view_align(sizeof *c) + cap);
    if (!c)
        return NULL;
    c->next = NULL;
    c->at = 0;
    c->cap = cap;
    return c;
}

/* n bytes from the arena, not cleared (for what is written whole right after: strings,
 * arrays of pointers, messages their _init fills), or NULL when out of memory. */
static void *view_take(view_arena *a, size_t n)
{
    n = view_align(n ? n : 1);
    view_chunk *c = a->head;
    if (c->cap - c->at < n) {
        view_chunk *more = view_chunk_new(n, c->cap);
        if (!more)
            return NULL;
        more->next = c;
        a->head = c = more;
    }
    void *p = (char *)c + view_align(sizeof *c) + c->at;
    c->at += n;
    return p;
}

/* n zeroed bytes from the arena, or NULL when out of memory. */
static void *view_alloc(view_arena *a, size_t n)
{
    void *p = view_take(a, n);
    return p ? memset(p, 0, n ? n : 1) : NULL;
}

static char *view_strn(view_arena *a, const char *s, size_t n)
{
    char *d = view_take(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *view_str(view_arena *a, const char *s)
{
    return view_strn(a, s, strlen(s));
}

/* The interned name id: the bundle's own string, not a copy (a View holds a name per
 * card it shows, and is freed before its match and so its bundle: engine.h). */
static char *view_name(const engine_match *m, uint32_t id)
{
    return m->b->names.v[id].s;
}

void engine_view_free(Deckhand__View *v)
{
    if (!v)
        return;
    view_arena *a = (view_arena *)v;
    view_chunk *c = a->head;
    while (c) { /* the last one holds the arena itself: nothing is read after it */
        view_chunk *next = c->next;
        view_spare_keep(c);
        c = next;
    }
}

static int32_t wire_owner(int32_t owner)
{
    return owner == 0 ? -1 : owner - 1;
}

/* A string the View points at rather than copies (every View is freed before its match:
 * engine.h), "" for NULL. */
static char *view_keep(const char *s)
{
    static char empty[1];
    return s ? (char *)s : empty;
}

/* The decision's texts (prompt, kind, each option's label, verb and space) all live in
 * the match's dtext (engine_decision.c), which the next decision rewrites: the View takes
 * one copy of it, and text p is then at the same offset in the copy. */
typedef struct {
    const char *from; /* m->dtext */
    size_t len;
    char *copy;
} view_texts;

static char *view_text(view_arena *a, const view_texts *t, const char *p)
{
    uintptr_t at = (uintptr_t)p, from = (uintptr_t)t->from;
    if (p && t->copy && at >= from && at < from + t->len)
        return t->copy + (at - from);
    return view_str(a, p ? p : ""); /* not from dtext: copied on its own */
}

static Deckhand__DecisionRequest *make_decision(view_arena *a, const engine_match *m)
{
    Deckhand__DecisionRequest *d = view_take(a, sizeof *d);
    if (!d)
        return NULL;
    *d = (Deckhand__DecisionRequest)DECKHAND__DECISION_REQUEST__INIT;
    view_texts t = {m->dtext, m->dtext_len, NULL};
    if (t.len && (t.copy = view_take(a, t.len)))
        memcpy(t.copy, t.from, t.len);
    d->match_id = view_keep(m->match_id);
    d->prompt = view_text(a, &t, m->dec.prompt);
    d->kind = view_text(a, &t, m->dec.kind);
    d->options = view_take(a, m->dec.noptions * sizeof(*d->options));
    Deckhand__Option *ops = view_take(a, m->dec.noptions * sizeof *ops);
    if ((t.len && !t.copy) || !d->prompt || !d->kind || !d->options || !ops)
        return NULL;
    d->event_seq = m->st.event_seq[m->dec.seat];
    d->decision_id = m->dec.decision_id;
    d->seat = (uint32_t)m->dec.seat;
    d->min = m->dec.min;
    d->max = m->dec.max;
    for (size_t i = 0; i < m->dec.noptions; i++) {
        const engine_option *o = &m->dec.options[i];
        Deckhand__Option *op = &ops[i];
        *op = (Deckhand__Option)DECKHAND__OPTION__INIT;
        d->options[d->n_options++] = op;
        op->id = o->id;
        op->entity = o->entity;
        op->label = view_text(a, &t, o->label);
        op->card = view_keep(o->card); /* the bundle's name */
        op->target = o->target;
        op->verb = view_text(a, &t, o->verb);
        op->space = view_text(a, &t, o->space);
        if (!op->label || !op->verb || !op->space)
            return NULL;
    }
    return d;
}

/* Zone z as seat sees it, its fingerprint into *print; with kept (the fingerprint of the
 * zone as the seat saw it, unchanged since: engine_match_view_since), without its cards
 * and with that fingerprint. */
static Deckhand__Zone *make_zone(view_arena *a, const engine_match *m, const engine_zone *z,
                                 int seat, uint64_t *print, const uint64_t *kept)
{
    Deckhand__Zone *zo = view_take(a, sizeof *zo);
    if (!zo)
        return NULL;
    *zo = (Deckhand__Zone)DECKHAND__ZONE__INIT;
    zo->name = view_name(m, z->name);
    zo->owner = wire_owner(z->owner);
    zo->count = z->n;
    if (kept) {
        *print = *kept;
        a->nkept++;
        return zo;
    }
    engine_vis vis = engine_zone_vis_id(m->game, &m->b->names, z->name);
    uint32_t from = 0, to = 0;
    if (vis == ENGINE_VIS_PUBLIC || (vis == ENGINE_VIS_OWNER && seat >= 0 && z->owner == seat + 1))
        to = z->n;
    else if (vis == ENGINE_VIS_TOP && z->n)
        from = z->n - 1, to = z->n;
    *print = view_mix(view_mix(1469598103934665603ULL, z->n), to - from);
    if (to > from) {
        zo->cards = view_take(a, (to - from) * sizeof(*zo->cards));
        Deckhand__Card *cards = view_take(a, (to - from) * sizeof *cards);
        if (!zo->cards || !cards)
            return NULL;
        for (uint32_t i = from; i < to; i++) {
            Deckhand__Card *c = &cards[i - from];
            *c = (Deckhand__Card)DECKHAND__CARD__INIT;
            zo->cards[zo->n_cards++] = c;
            c->entity = z->ids[i];
            uint32_t name = m->st.ents[z->ids[i] - 1].name;
            *print = view_mix(*print, ((uint64_t)name << 32) | z->ids[i]);
            c->name = view_name(m, name);
        }
    }
    return zo;
}

/* The signature of the zones' (which 0) or counters' (1) keys, in storage order. */
static uint64_t view_sig(const engine_match *m, int which, uint32_t *n)
{
    uint64_t h = 1469598103934665603ULL;
    if (which == 0) {
        *n = m->st.nzones;
        for (uint32_t i = 0; i < *n; i++)
            h = (h ^ (((uint64_t)m->st.zones[i].name << 32) | (uint32_t)m->st.zones[i].owner)) *
                1099511628211ULL;
    } else {
        *n = m->st.counters.n;
        for (uint32_t i = 0; i < *n; i++)
            h = (h ^ m->st.counters.kv[i].key) * 1099511628211ULL;
    }
    return h;
}

/* The zones' (which 0) or counters' (1) indices in name order: the match's memo when the
 * same keys are stored in the same places, else sorted anew into the memo (into scratch
 * when the memo cannot grow). The memo is a cache, not state: building a View changes
 * nothing a snapshot, a hash or a rule sees. */
static const uint32_t *view_order(const engine_match *cm, int which, uint32_t *scratch)
{
    engine_match *m = (engine_match *)cm;
    engine_view_order *o = &m->vorder[which];
    uint32_t n;
    uint64_t sig = view_sig(m, which, &n);
    if (n == 0)
        return scratch;
    if (o->idx && o->n == n && o->sig == sig)
        return o->idx;
    uint32_t *idx = scratch;
    if (n > o->cap) {
        uint32_t *grown = realloc(o->idx, n * sizeof *grown);
        if (grown) {
            o->idx = grown;
            o->cap = n;
        }
    }
    if (n <= o->cap)
        idx = o->idx;
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    qsort_r(idx, n, sizeof(uint32_t), which ? cmp_counter : cmp_zone, m);
    if (idx == o->idx) {
        o->n = n;
        o->sig = sig;
    }
    return idx;
}

/* The fingerprint since holds for the zone at position i of a View, when the zone z there
 * is unchanged since the View since describes (the same epoch, the same stamp: the same
 * zone, its ids and their names as they were), else NULL. */
static const uint64_t *view_kept(const engine_match *m, const engine_view_since *since, uint32_t i,
                                 const engine_zone *z)
{
    if (!since || i >= since->n || since->epoch != m->st.epoch || !z->stamp ||
        since->stamps[i] != z->stamp)
        return NULL;
    return &since->prints[i];
}

/* The start of every View's shape: the players' count and names and the bundle, which a
 * match never changes, mixed once per match (a cache like vorder: not state). */
static uint64_t view_shape_base(const engine_match *cm)
{
    engine_match *m = (engine_match *)cm;
    if (!m->vshape) {
        uint64_t h = view_mix(1469598103934665603ULL, (uint64_t)m->np);
        for (int i = 0; i < m->np; i++)
            h = view_mix_str(h, m->names[i]);
        h = view_mix_str(h, engine_bundle_id(m->b));
        m->vshape = h | 1; /* never 0, the mark of none yet */
    }
    return m->vshape;
}

/* The view's players, zones (in name order) and counters, into the arena's View. */
static int fill_view(view_arena *a, const engine_match *m, int seat, uint32_t *order,
                     const engine_view_since *since)
{
    Deckhand__View *v = &a->v;
    uint64_t shape = view_shape_base(m);
    v->players = view_alloc(a, (size_t)m->np * sizeof(*v->players));
    Deckhand__PlayerInfo *players = view_alloc(a, (size_t)m->np * sizeof *players);
    if (!v->players || !players)
        return -1;
    for (int i = 0; i < m->np; i++) {
        Deckhand__PlayerInfo *p = &players[i];
        deckhand__player_info__init(p);
        v->players[v->n_players++] = p;
        p->seat = (uint32_t)i;
        p->connected = true;
        p->name = view_keep(m->names[i]);
    }
    uint32_t nz = m->st.nzones, nc = m->st.counters.n;
    /* order holds nz + nc: the zones' order stays while the counters' is made */
    const uint32_t *zorder = view_order(m, 0, order), *corder = view_order(m, 1, order + nz);
    shape = view_mix(shape, nz);
    for (uint32_t i = 0; i < nz; i++) {
        const engine_zone *z = &m->st.zones[zorder[i]];
        shape = view_mix(shape, ((uint64_t)z->name << 32) | (uint32_t)z->owner);
    }
    v->counters = view_take(a, nc * sizeof(*v->counters));
    Deckhand__Counter *counters = view_take(a, nc * sizeof *counters);
    if (!v->counters || !counters)
        return -1;
    for (uint32_t i = 0; i < nc; i++) {
        const engine_kv *kv = &m->st.counters.kv[corder[i]];
        const char *name = m->b->names.v[kv->key >> 32].s;
        if (name[0] == '_' || !engine_view_counter_shown(m, (uint32_t)(kv->key >> 32), seat))
            continue;
        Deckhand__Counter *c = &counters[v->n_counters];
        *c = (Deckhand__Counter)DECKHAND__COUNTER__INIT;
        v->counters[v->n_counters++] = c;
        c->name = view_name(m, (uint32_t)(kv->key >> 32));
        c->owner = wire_owner((int32_t)(uint32_t)kv->key);
        c->value = kv->val;
        shape = view_mix(shape, kv->key);
    }
    a->shape = view_mix(shape, v->n_counters);
    if (since && since->shape != a->shape) /* zones or counters came or went: all in full */
        since = NULL;
    if (!(v->zones = view_take(a, nz * sizeof(*v->zones))) ||
        !(a->prints = view_take(a, nz * sizeof(*a->prints))) ||
        !(a->stamps = view_take(a, nz * sizeof(*a->stamps))))
        return -1;
    a->epoch = m->st.epoch;
    for (uint32_t i = 0; i < nz; i++) {
        const engine_zone *z = &m->st.zones[zorder[i]];
        a->stamps[i] = z->stamp;
        Deckhand__Zone *zo = make_zone(a, m, z, seat, &a->prints[i], view_kept(m, since, i, z));
        if (!zo)
            return -1;
        v->zones[v->n_zones++] = zo;
    }
    return 0;
}

Deckhand__View *engine_match_view_since(const engine_match *m, int seat,
                                        const engine_view_since *since)
{
    /* The first chunk holds the arena (and so the View) at its start. */
    view_chunk *first = view_spare_take();
    if (first) {
        first->next = NULL;
        first->at = 0;
    } else if (!(first = view_chunk_new(VIEW_CHUNK, 0))) {
        return NULL;
    }
    view_arena *a = (view_arena *)((char *)first + view_align(sizeof *first));
    first->at = view_align(sizeof *a);
    memset(a, 0, sizeof *a);
    a->head = first;
    Deckhand__View *v = &a->v;
    deckhand__view__init(v);
    uint32_t nz = m->st.nzones, nc = m->st.counters.n;
    uint32_t *order = view_take(a, sizeof(uint32_t) * (nz + nc)); /* scratch */
    v->match_id = view_keep(m->match_id);
    v->game = view_keep(m->game->name);
    v->bundle_id = view_keep(engine_bundle_id(m->b));
    if (!order)
        goto err;
    v->seat = seat >= 0 ? (uint32_t)seat : 0;
    v->event_seq = engine_match_event_seq(m, seat);
    v->finished = m->st.finished != 0;
    v->waiting_for = m->pending ? m->dec.seat : -1;
    if (fill_view(a, m, seat, order, since) < 0)
        goto err;
    if (seat >= 0 && m->pending && m->dec.seat == seat && !(v->decision = make_decision(a, m)))
        goto err;
    return v;
err:
    engine_view_free(v);
    return NULL;
}

Deckhand__View *engine_match_view(const engine_match *m, int seat)
{
    return engine_match_view_since(m, seat, NULL);
}

uint64_t engine_view_zone_stamp(const Deckhand__View *v, size_t i)
{
    return i < v->n_zones ? ((const view_arena *)v)->stamps[i] : 0;
}

const uint64_t *engine_view_zone_prints(const Deckhand__View *v)
{
    return ((const view_arena *)v)->prints;
}

const uint64_t *engine_view_zone_stamps(const Deckhand__View *v)
{
    return ((const view_arena *)v)->stamps;
}

uint64_t engine_view_epoch(const Deckhand__View *v)
{
    return ((const view_arena *)v)->epoch;
}

size_t engine_view_kept(const Deckhand__View *v)
{
    return ((const view_arena *)v)->nkept;
}

uint64_t engine_view_shape(const Deckhand__View *v)
{
    return ((const view_arena *)v)->shape;
}

uint64_t engine_view_zone_print(const Deckhand__View *v, size_t i)
{
    return i < v->n_zones ? ((const view_arena *)v)->prints[i] : 0;
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
    if (engine_present_catalog(g, c) < 0)
        goto err;
    return c;
err:
    engine_catalog_free(c);
    return NULL;
}
