/*
 * engine_intern.c: the names scripts use for cards, zones, attributes and counters,
 * interned once per bundle as small integer ids (the match state and its snapshots hold
 * ids, never strings).
 *
 * A name is found by the Lua string's address first: short strings are unique in Lua, and
 * the interned string is anchored in the registry so its address stays the name's for the
 * VM's life; the hot calls of `g` resolve a name with one probe. A string seen for the
 * first time (another address, same bytes) is looked up by content.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static uint32_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(x >> 32);
}

static uint32_t str_hash(const char *s, size_t len)
{
    return (uint32_t)engine_fnv1a((const uint8_t *)s, len);
}

static int intern_grow(engine_intern *in)
{
    uint32_t cap = in->cap ? in->cap * 2 : 256;
    engine_name *v = realloc(in->v, sizeof(engine_name) * cap);
    if (!v)
        return -1;
    in->v = v;
    uint32_t slots = cap * 2;
    uint32_t *bp = calloc(slots, sizeof(uint32_t)), *bs = calloc(slots, sizeof(uint32_t));
    if (!bp || !bs) {
        free(bp);
        free(bs);
        return -1;
    }
    free(in->by_ptr);
    free(in->by_str);
    in->by_ptr = bp;
    in->by_str = bs;
    in->mask = slots - 1;
    in->cap = cap;
    if (in->n == 0)
        in->n = 1; /* id 0 means "none" */
    for (uint32_t id = 1; id < in->n; id++) {
        uint32_t i = ptr_hash(in->v[id].lstr) & in->mask;
        while (in->by_ptr[i])
            i = (i + 1) & in->mask;
        in->by_ptr[i] = id;
        i = str_hash(in->v[id].s, in->v[id].len) & in->mask;
        while (in->by_str[i])
            i = (i + 1) & in->mask;
        in->by_str[i] = id;
    }
    return 0;
}

void engine_intern_free(engine_intern *in)
{
    for (uint32_t i = 1; i < in->n; i++)
        free(in->v[i].s);
    free(in->v);
    free(in->by_ptr);
    free(in->by_str);
    free(in->order);
    free(in->rank);
    memset(in, 0, sizeof *in);
}

/* Looks the string at idx up by content, interning it when new. Kept out of line: the
 * lookup by address, a g call's hot path, then needs no stack frame of its own. */
__attribute__((noinline)) static uint32_t intern_slow(engine_bundle *b, lua_State *L, int idx,
                                                      const char *s, size_t len)
{
    engine_intern *in = &b->names;
    uint32_t h = str_hash(s, len);
    for (uint32_t i = h & in->mask;; i = (i + 1) & in->mask) {
        uint32_t id = in->by_str[i];
        if (!id)
            break;
        if (in->v[id].len == len && memcmp(in->v[id].s, s, len) == 0)
            return id;
    }
    if (in->n >= ENGINE_MAX_NAMES)
        luaL_error(L, "too many distinct names");
    if (len > 1024)
        luaL_error(L, "name too long");
    if (in->n >= in->cap && intern_grow(in) < 0)
        luaL_error(L, "out of memory");
    /* Anchor the Lua string so its address stays this name's for the VM's life. */
    idx = lua_absindex(L, idx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->names_ref);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, in->n);
    lua_pop(L, 1);
    char *copy = malloc(len + 1);
    if (!copy)
        luaL_error(L, "out of memory");
    memcpy(copy, s, len);
    copy[len] = 0;
    uint32_t id = in->n++;
    in->v[id].s = copy;
    in->v[id].len = (uint32_t)len;
    in->v[id].lstr = s;
    uint32_t i = ptr_hash(s) & in->mask;
    while (in->by_ptr[i])
        i = (i + 1) & in->mask;
    in->by_ptr[i] = id;
    i = h & in->mask;
    while (in->by_str[i])
        i = (i + 1) & in->mask;
    in->by_str[i] = id;
    return id;
}

int engine_intern_init(engine_intern *in)
{
    memset(in, 0, sizeof *in);
    return intern_grow(in);
}

uint32_t engine_intern_lua(engine_bundle *b, lua_State *L, int idx)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len); /* a number becomes a string in place */
    if (!s)
        luaL_error(L, "name expected, got %s", luaL_typename(L, idx));
    engine_intern *in = &b->names;
    for (uint32_t i = ptr_hash(s) & in->mask;; i = (i + 1) & in->mask) {
        uint32_t id = in->by_ptr[i];
        if (!id)
            break;
        if (in->v[id].lstr == s)
            return id;
    }
    return intern_slow(b, L, idx, s, len);
}

uint32_t engine_intern_c(engine_bundle *b, lua_State *L, const char *s, size_t len)
{
    lua_pushlstring(L, s, len);
    uint32_t id = engine_intern_lua(b, L, -1);
    lua_pop(L, 1);
    return id;
}

static int cmp_name_ids(const void *a, const void *b, void *ud)
{
    const engine_intern *in = ud;
    const engine_name *x = &in->v[*(const uint32_t *)a], *y = &in->v[*(const uint32_t *)b];
    uint32_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Names are only ever added, so the order is sorted anew only when the count grew: after
 * a match's first turns, never. */
int engine_intern_sorted(const engine_intern *cin)
{
    engine_intern *in = (engine_intern *)cin;
    if (in->order && in->nsorted == in->n)
        return 0;
    uint32_t *order = realloc(in->order, sizeof(uint32_t) * (in->n ? in->n : 1));
    if (order)
        in->order = order;
    uint32_t *rank = realloc(in->rank, sizeof(uint32_t) * (in->n ? in->n : 1));
    if (rank)
        in->rank = rank;
    if (!order || !rank) {
        in->nsorted = 0;
        return -1;
    }
    uint32_t k = 0;
    for (uint32_t id = 1; id < in->n; id++)
        order[k++] = id;
    qsort_r(order, k, sizeof(uint32_t), cmp_name_ids, in);
    rank[0] = 0;
    for (uint32_t i = 0; i < k; i++)
        rank[order[i]] = i;
    in->nsorted = in->n;
    return 0;
}
