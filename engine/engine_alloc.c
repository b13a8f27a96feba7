/*
 * engine_alloc.c: the allocator of a bundle's Lua VM: counts what the scripts hold and
 * refuses past the bundle's memory cap (engine_limits.mem_limit).
 *
 * Small blocks (most Lua objects: strings, tables, closures) come from per-size free
 * lists carved out of 64 KiB slabs: cheaper than malloc for the churn of short-lived
 * tables a turn creates. The cap counts requested bytes, so it means the same whatever
 * the allocator keeps in its lists.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static size_t small_class(size_t n)
{
    return (n + ENGINE_SMALL_GRAIN - 1) / ENGINE_SMALL_GRAIN - 1;
}

static void *small_get(engine_bundle *b, size_t cls)
{
    engine_small *s = b->small_free[cls];
    if (s) {
        b->small_free[cls] = s->next;
        return s;
    }
    size_t sz = (cls + 1) * ENGINE_SMALL_GRAIN;
    if (b->slab_left < sz) {
        char *slab = malloc(ENGINE_SLAB_SIZE);
        if (!slab)
            return NULL;
        *(char **)slab = b->slabs; /* slabs are chained through their first word */
        b->slabs = slab;
        b->slab_next = slab + ENGINE_SMALL_GRAIN;
        b->slab_left = ENGINE_SLAB_SIZE - ENGINE_SMALL_GRAIN;
    }
    void *p = b->slab_next;
    b->slab_next += sz;
    b->slab_left -= sz;
    return p;
}

static void small_put(engine_bundle *b, void *p, size_t cls)
{
    engine_small *s = p;
    s->next = b->small_free[cls];
    b->small_free[cls] = s;
}

void *engine_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    engine_bundle *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr) {
            if (old <= ENGINE_SMALL_MAX)
                small_put(b, ptr, small_class(old));
            else
                free(ptr);
        }
        b->mem -= old;
        return NULL;
    }
    if (nsize > old && b->mem + (nsize - old) > b->mem_limit)
        return NULL;
    void *p;
    if (ptr && old > ENGINE_SMALL_MAX && nsize > ENGINE_SMALL_MAX) {
        p = realloc(ptr, nsize);
    } else if (ptr && old <= ENGINE_SMALL_MAX && nsize <= ENGINE_SMALL_MAX &&
               small_class(old) == small_class(nsize)) {
        p = ptr;
    } else {
        p = nsize <= ENGINE_SMALL_MAX ? small_get(b, small_class(nsize)) : malloc(nsize);
        if (p && ptr) {
            memcpy(p, ptr, old < nsize ? old : nsize);
            if (old <= ENGINE_SMALL_MAX)
                small_put(b, ptr, small_class(old));
            else
                free(ptr);
        }
    }
    if (!p)
        return NULL;
    b->mem = b->mem - old + nsize;
    return p;
}

void engine_alloc_free(engine_bundle *b)
{
    while (b->slabs) {
        char *next = *(char **)b->slabs;
        free(b->slabs);
        b->slabs = next;
    }
}
