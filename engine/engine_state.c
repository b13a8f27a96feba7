/*
 * engine_state.c: a match's state in plain C (entities, ordered zones, attributes,
 * counters, the xoshiro256** generator); its canonical binary form is engine_state_save.c.
 *
 * The state is kept in flat arrays and hash maps so that the hot calls of a script
 * (count, move, get, counter) cost a hash probe and no allocation. The serialized form
 * is canonical: names are written as strings (intern ids differ between processes) and
 * every collection is sorted by name, so equal states give equal bytes, which is what
 * snapshots, restores and engine_match_hash rely on.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "engine_internal.h"

/* ---- state -------------------------------------------------------------------------- */

/* The last epoch handed out (engine_state_epoch): one counter for the process, so two
 * states (a match and its rebuild, two matches) never share one. */
static atomic_uint_fast64_t state_epochs;

void engine_state_epoch(engine_state *st)
{
    st->epoch = atomic_fetch_add_explicit(&state_epochs, 1, memory_order_relaxed) + 1;
}

int engine_state_init(engine_state *st, int np)
{
    memset(st, 0, sizeof *st);
    st->np = np;
    st->cap = 256;
    st->zcap = 32;
    st->ents = malloc(sizeof(engine_entity) * st->cap);
    st->zones = calloc(st->zcap, sizeof(engine_zone));
    st->event_seq = calloc((size_t)np, sizeof(uint64_t));
    st->results = calloc((size_t)np, sizeof(engine_result));
    if (!st->ents || !st->zones || !st->event_seq || !st->results)
        goto err;
    if (engine_map_init(&st->zone_map, 32) < 0 || engine_map_init(&st->attrs, 64) < 0 ||
        engine_map_init(&st->counters, 32) < 0)
        goto err;
    engine_state_epoch(st);
    return 0;
err:
    engine_state_free(st);
    return -1;
}

void engine_state_free(engine_state *st)
{
    for (uint32_t i = 0; i < st->zcap && st->zones; i++)
        free(st->zones[i].ids);
    free(st->zones);
    free(st->ents);
    free(st->event_seq);
    free(st->results);
    engine_map_free(&st->zone_map);
    engine_map_free(&st->attrs);
    engine_map_free(&st->counters);
    memset(st, 0, sizeof *st);
}

/* Empties the state but keeps its allocations (a rebuild reuses them). */
void engine_state_reset(engine_state *st)
{
    st->nents = 0;
    for (uint32_t i = 0; i < st->nzones; i++)
        st->zones[i].n = 0;
    st->nzones = 0;
    engine_map_clear(&st->zone_map);
    engine_map_clear(&st->attrs);
    engine_map_clear(&st->counters);
    memset(st->rng, 0, sizeof st->rng);
    st->decision_seq = 0;
    st->version = 0;
    st->turn = 0;
    memset(st->event_seq, 0, sizeof(uint64_t) * (size_t)st->np);
    st->public_seq = 0;
    st->finished = 0;
    memset(st->results, 0, sizeof(engine_result) * (size_t)st->np);
    engine_state_epoch(st);
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void engine_rng_seed(engine_state *st, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        st->rng[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t engine_rng_next(engine_state *st)
{
    uint64_t *s = st->rng;
    uint64_t r = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

uint64_t engine_rng_below(engine_state *st, uint64_t n)
{
    /* Rejection keeps it uniform: drop the top partial bucket. */
    uint64_t lim = UINT64_MAX - (UINT64_MAX % n);
    uint64_t x;
    do
        x = engine_rng_next(st);
    while (x >= lim);
    return x % n;
}

engine_zone *engine_zone_get(engine_state *st, uint32_t name, int32_t owner, int create)
{
    uint64_t key = (uint64_t)name << 32 | (uint32_t)owner;
    int64_t *v = engine_map_find(&st->zone_map, key);
    if (v)
        return &st->zones[*v];
    if (!create)
        return NULL;
    if (st->nzones == st->zcap) {
        uint32_t cap = st->zcap * 2;
        engine_zone *z = realloc(st->zones, sizeof(engine_zone) * cap);
        if (!z)
            return NULL;
        memset(z + st->zcap, 0, sizeof(engine_zone) * (cap - st->zcap));
        st->zones = z;
        st->zcap = cap;
    }
    v = engine_map_put(&st->zone_map, key);
    if (!v)
        return NULL;
    *v = st->nzones;
    engine_zone *z = &st->zones[st->nzones++];
    z->name = name;
    z->owner = owner;
    z->n = 0;
    engine_zone_touch(st, z);
    return z;
}

int engine_zone_reserve(engine_zone *z, uint32_t n)
{
    if (n <= z->cap)
        return 0;
    uint32_t cap = z->cap ? z->cap : 16;
    while (cap < n)
        cap *= 2;
    uint32_t *ids = realloc(z->ids, sizeof(uint32_t) * cap);
    if (!ids)
        return -1;
    z->ids = ids;
    z->cap = cap;
    return 0;
}

void engine_state_trim(engine_state *st)
{
    uint32_t cap = st->nents > 16 ? st->nents : 16;
    if (cap >= st->cap)
        return;
    engine_entity *e = realloc(st->ents, sizeof(engine_entity) * cap);
    if (e) {
        st->ents = e;
        st->cap = cap;
    }
}

uint32_t engine_entity_new(engine_state *st, uint32_t card, uint32_t zi)
{
    if (st->nents >= ENGINE_MAX_ENTITIES)
        return 0;
    if (st->nents == st->cap) {
        engine_entity *e = realloc(st->ents, sizeof(engine_entity) * st->cap * 2);
        if (!e)
            return 0;
        st->ents = e;
        st->cap *= 2;
    }
    engine_zone *z = &st->zones[zi];
    if (engine_zone_reserve(z, z->n + 1) < 0)
        return 0;
    uint32_t id = st->nents + 1;
    st->ents[st->nents].name = card;
    st->ents[st->nents].zone = zi;
    st->nents++;
    z->ids[z->n++] = id;
    engine_zone_touch(st, z);
    return id;
}

uint32_t engine_entity_new_n(engine_state *st, uint32_t card, uint32_t zi, uint32_t n)
{
    if (n == 0 || n > ENGINE_MAX_ENTITIES - st->nents)
        return 0;
    uint32_t cap = st->cap ? st->cap : 16;
    while (cap < st->nents + n)
        cap *= 2;
    if (cap != st->cap) {
        engine_entity *e = realloc(st->ents, sizeof(engine_entity) * cap);
        if (!e)
            return 0;
        st->ents = e;
        st->cap = cap;
    }
    engine_zone *z = &st->zones[zi];
    if (engine_zone_reserve(z, z->n + n) < 0)
        return 0;
    uint32_t first = st->nents + 1;
    for (uint32_t i = 0; i < n; i++) {
        st->ents[st->nents].name = card;
        st->ents[st->nents].zone = zi;
        z->ids[z->n++] = ++st->nents;
    }
    engine_zone_touch(st, z);
    return first;
}

int engine_entity_move(engine_state *st, uint32_t id, uint32_t zi, int bottom)
{
    engine_entity *e = &st->ents[id - 1];
    engine_zone *to = &st->zones[zi];
    if (engine_zone_reserve(to, to->n + 1) < 0)
        return -1;
    engine_zone *from = &st->zones[e->zone];
    /* Most moves take the top card (draw, play the last drawn), so search from the top. */
    uint32_t i = from->n;
    while (i > 0 && from->ids[i - 1] != id)
        i--;
    if (i == 0)
        return -1;
    memmove(from->ids + i - 1, from->ids + i, sizeof(uint32_t) * (from->n - i));
    from->n--;
    if (bottom) {
        memmove(to->ids + 1, to->ids, sizeof(uint32_t) * to->n);
        to->ids[0] = id;
        to->n++;
    } else {
        to->ids[to->n++] = id;
    }
    e->zone = zi;
    engine_zone_touch(st, from);
    engine_zone_touch(st, to);
    return 0;
}

int engine_zone_move_all(engine_state *st, uint32_t from_zi, uint32_t to_zi, int bottom)
{
    if (from_zi == to_zi)
        return 0; /* card by card, a zone moved onto itself ends as it was */
    engine_zone *from = &st->zones[from_zi], *to = &st->zones[to_zi];
    uint32_t n = from->n;
    if (n == 0)
        return 0;
    if (engine_zone_reserve(to, to->n + n) < 0)
        return -1;
    if (bottom) {
        memmove(to->ids + n, to->ids, sizeof(uint32_t) * to->n);
        memcpy(to->ids, from->ids, sizeof(uint32_t) * n);
    } else {
        memcpy(to->ids + to->n, from->ids, sizeof(uint32_t) * n);
    }
    to->n += n;
    for (uint32_t i = 0; i < n; i++)
        st->ents[from->ids[i] - 1].zone = to_zi;
    from->n = 0;
    engine_zone_touch(st, from);
    engine_zone_touch(st, to);
    return 0;
}

void engine_zone_shuffle(engine_state *st, engine_zone *z)
{
    for (uint32_t i = z->n; i > 1; i--) {
        uint32_t j = (uint32_t)engine_rng_below(st, i);
        uint32_t t = z->ids[i - 1];
        z->ids[i - 1] = z->ids[j];
        z->ids[j] = t;
    }
    engine_zone_touch(st, z);
}
