/*
 * engine_state_copy.c: a snapshot parsed into a match state once, and that state copied
 * into another as often as needed.
 *
 * The search bot restores a copy of the searched match for every play-out, always from the
 * same snapshot. Parsing it (every name interned again, every zone, attribute and counter
 * inserted one by one) cost about 62 k instructions per Dominion copy; copying a state
 * parsed once costs a few memcpys. The copy is exact, down to the order of the zones and
 * the layout of the maps, so a copy plays exactly as a state parsed from the bytes would
 * (engine_match.c's rebuild takes either).
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* dst becomes src: the same entries in the same order, the same index layout. */
static int map_copy(engine_map *dst, const engine_map *src)
{
    if (dst->cap != src->cap) {
        engine_kv *kv = realloc(dst->kv, sizeof(engine_kv) * src->cap);
        if (!kv)
            return -1;
        dst->kv = kv;
        dst->cap = src->cap;
    }
    if (dst->mask != src->mask) {
        uint32_t *idx = realloc(dst->idx, sizeof(uint32_t) * ((size_t)src->mask + 1));
        if (!idx)
            return -1;
        dst->idx = idx;
        dst->mask = src->mask;
    }
    memcpy(dst->kv, src->kv, sizeof(engine_kv) * src->n);
    memcpy(dst->idx, src->idx, sizeof(uint32_t) * ((size_t)src->mask + 1));
    dst->n = src->n;
    return 0;
}

/* dst's zones become src's, in the same order (the zone map holds their indices). */
static int zones_copy(engine_state *dst, const engine_state *src)
{
    if (dst->zcap < src->nzones) {
        engine_zone *z = realloc(dst->zones, sizeof(engine_zone) * src->zcap);
        if (!z)
            return -1;
        memset(z + dst->zcap, 0, sizeof(engine_zone) * (src->zcap - dst->zcap));
        dst->zones = z;
        dst->zcap = src->zcap;
    }
    for (uint32_t i = 0; i < src->nzones; i++) {
        engine_zone *d = &dst->zones[i];
        const engine_zone *s = &src->zones[i];
        if (d->cap < s->n) {
            uint32_t *ids = realloc(d->ids, sizeof(uint32_t) * s->cap);
            if (!ids)
                return -1;
            d->ids = ids;
            d->cap = s->cap;
        }
        if (s->n)
            memcpy(d->ids, s->ids, sizeof(uint32_t) * s->n);
        d->name = s->name;
        d->owner = s->owner;
        d->n = s->n;
    }
    for (uint32_t i = src->nzones; i < dst->nzones; i++)
        dst->zones[i].n = 0;
    dst->nzones = src->nzones;
    return 0;
}

int engine_state_copy(engine_state *dst, const engine_state *src)
{
    if (dst->np != src->np)
        return -1;
    engine_state_epoch(dst); /* dst's zones are rewritten below without a stamp */
    if (dst->cap < src->nents) {
        engine_entity *e = realloc(dst->ents, sizeof(engine_entity) * src->cap);
        if (!e)
            return -1;
        dst->ents = e;
        dst->cap = src->cap;
    }
    if (src->nents)
        memcpy(dst->ents, src->ents, sizeof(engine_entity) * src->nents);
    dst->nents = src->nents;
    if (zones_copy(dst, src) < 0 || map_copy(&dst->zone_map, &src->zone_map) < 0 ||
        map_copy(&dst->attrs, &src->attrs) < 0 || map_copy(&dst->counters, &src->counters) < 0)
        return -1;
    memcpy(dst->rng, src->rng, sizeof dst->rng);
    dst->decision_seq = src->decision_seq;
    dst->version = src->version;
    dst->turn = src->turn;
    memcpy(dst->event_seq, src->event_seq, sizeof(uint64_t) * (size_t)src->np);
    dst->public_seq = src->public_seq;
    dst->finished = src->finished;
    memcpy(dst->results, src->results, sizeof(engine_result) * (size_t)src->np);
    return 0;
}

typedef struct {
    engine_state *st;
    const uint8_t *p;
    size_t len;
    char why[128];
} parse_job;

/* lua_CFunction (protected): interning may raise. */
static int parse_cf(lua_State *L)
{
    parse_job *j = lua_touserdata(L, 1);
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    if (engine_state_load(j->st, b, L, j->p, j->len, j->why, sizeof j->why) < 0)
        return luaL_error(L, "bad snapshot: %s", j->why);
    return 0;
}

int engine_state_parse(engine_state *st, engine_bundle *b, int np, const uint8_t *p, size_t len)
{
    if (engine_state_init(st, np) < 0)
        return -1;
    parse_job j = {st, p, len, ""};
    lua_State *L = b->L;
    int top = lua_gettop(L);
    uint64_t prev = engine_call_begin(b);
    lua_pushcfunction(L, parse_cf);
    lua_pushlightuserdata(L, &j);
    int rc = lua_pcall(L, 1, 0, 0);
    lua_settop(L, top);
    engine_call_end(b, prev);
    if (rc != LUA_OK) {
        engine_state_free(st);
        return -1;
    }
    return 0;
}
