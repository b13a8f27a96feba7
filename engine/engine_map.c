/*
 * engine_map.c: the open-addressing hash map from a 64-bit key to a 64-bit value that
 * holds a match's zone index, attributes and counters (engine_state.c), so a script's hot
 * calls cost one probe. Entries stay in insertion order in one array (kv) beside the
 * linear-probing index (idx), so a walk over them (the snapshot's) needs no hashing.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static uint32_t map_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (uint32_t)k;
}

int engine_map_init(engine_map *mp, uint32_t cap)
{
    memset(mp, 0, sizeof *mp);
    uint32_t slots = 16;
    while (slots < cap * 2)
        slots <<= 1;
    mp->kv = malloc(sizeof(engine_kv) * cap);
    mp->idx = calloc(slots, sizeof(uint32_t));
    if (!mp->kv || !mp->idx)
        goto err;
    mp->cap = cap;
    mp->mask = slots - 1;
    return 0;
err:
    engine_map_free(mp);
    return -1;
}

void engine_map_free(engine_map *mp)
{
    free(mp->kv);
    free(mp->idx);
    memset(mp, 0, sizeof *mp);
}

void engine_map_clear(engine_map *mp)
{
    mp->n = 0;
    memset(mp->idx, 0, sizeof(uint32_t) * (mp->mask + 1));
}

int64_t *engine_map_find(const engine_map *mp, uint64_t key)
{
    uint32_t i = map_hash(key) & mp->mask;
    for (;;) {
        uint32_t x = mp->idx[i];
        if (!x)
            return NULL;
        if (mp->kv[x - 1].key == key)
            return &mp->kv[x - 1].val;
        i = (i + 1) & mp->mask;
    }
}

static int map_grow(engine_map *mp)
{
    uint32_t cap = mp->cap * 2;
    if (cap > ENGINE_MAX_MAP)
        return -1;
    engine_kv *kv = realloc(mp->kv, sizeof(engine_kv) * cap);
    if (!kv)
        return -1;
    mp->kv = kv;
    uint32_t slots = (mp->mask + 1) * 2;
    uint32_t *idx = calloc(slots, sizeof(uint32_t));
    if (!idx)
        return -1;
    free(mp->idx);
    mp->idx = idx;
    mp->mask = slots - 1;
    mp->cap = cap;
    for (uint32_t j = 0; j < mp->n; j++) {
        uint32_t i = map_hash(mp->kv[j].key) & mp->mask;
        while (mp->idx[i])
            i = (i + 1) & mp->mask;
        mp->idx[i] = j + 1;
    }
    return 0;
}

int64_t *engine_map_put(engine_map *mp, uint64_t key)
{
    int64_t *v = engine_map_find(mp, key);
    if (v)
        return v;
    if (mp->n == mp->cap && map_grow(mp) < 0)
        return NULL;
    uint32_t i = map_hash(key) & mp->mask;
    while (mp->idx[i])
        i = (i + 1) & mp->mask;
    mp->kv[mp->n].key = key;
    mp->kv[mp->n].val = 0;
    mp->idx[i] = ++mp->n;
    return &mp->kv[mp->n - 1].val;
}
