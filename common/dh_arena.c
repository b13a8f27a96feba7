/*
 * dh_arena.c: see dh_arena.h.
 */
#include "dh_arena.h"

#include <stdint.h>
#include <stdlib.h>

static void *arena_pa_alloc(void *data, size_t n)
{
    return dh_arena_alloc(data, n);
}

static void arena_pa_free(void *data, void *p)
{
    (void)data;
    (void)p; /* given back all at once by dh_arena_reset */
}

void dh_arena_init(dh_arena *a)
{
    a->head = NULL;
    a->pa =
        (ProtobufCAllocator){.alloc = arena_pa_alloc, .free = arena_pa_free, .allocator_data = a};
}

void *dh_arena_alloc_chunk(dh_arena *a, size_t n)
{
    size_t cap = n > DH_ARENA_CHUNK ? n : DH_ARENA_CHUNK;
    dh_arena_chunk *c;
    if (cap > SIZE_MAX - sizeof *c || !(c = malloc(sizeof *c + cap)))
        return NULL;
    c->cap = cap;
    c->used = n;
    c->next = a->head;
    a->head = c;
    return c->data;
}

bool dh_arena_owns(const dh_arena *a, const void *p)
{
    uintptr_t at = (uintptr_t)p;
    for (const dh_arena_chunk *c = a->head; c; c = c->next)
        if (at >= (uintptr_t)c->data && at - (uintptr_t)c->data < c->cap)
            return true;
    return false;
}

void dh_arena_reset(dh_arena *a)
{
    if (!a->head)
        return;
    dh_arena_chunk *rest = a->head->next;
    a->head->next = NULL;
    a->head->used = 0;
    while (rest) {
        dh_arena_chunk *n = rest->next;
        free(rest);
        rest = n;
    }
}

void dh_arena_free(dh_arena *a)
{
    dh_arena_reset(a);
    free(a->head);
    a->head = NULL;
}
