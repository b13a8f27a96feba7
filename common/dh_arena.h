/*
 * dh_arena.h: a bump allocator for the messages a process decodes, so that it unpacks
 * without a malloc per field and frees without a walk of every message (docs/BENCHMARKS.md,
 * issue 27: malloc, free and protobuf-c's free_unpacked were a third of `deckhand load`'s
 * instructions per answer, and a fifth of the matchmaker's per match). The load
 * generator's connections decode into one (dh_client_arena.h), the matchmaker's loop each
 * message it reads (matchmaker/loop.c).
 *
 * Memory comes from chunks; nothing is freed one by one (its ProtobufCAllocator's free
 * does nothing). dh_arena_reset gives everything back at once and keeps the last chunk
 * for the next round, so a connection in its steady state allocates nothing.
 */
#ifndef DECKHAND_DH_ARENA_H
#define DECKHAND_DH_ARENA_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>

#include <protobuf-c/protobuf-c.h>

#define DH_ARENA_CHUNK 65536 /* bytes of a chunk, unless one allocation needs more */

typedef struct dh_arena_chunk {
    struct dh_arena_chunk *next;
    size_t cap, used;
    alignas(max_align_t) unsigned char data[];
} dh_arena_chunk;

typedef struct dh_arena {
    dh_arena_chunk *head;  /* the chunk allocated from, then the older ones */
    ProtobufCAllocator pa; /* for protobuf-c's unpack: allocates here, frees nothing */
} dh_arena;

void dh_arena_init(dh_arena *a);
/* dh_arena_alloc when the newest chunk has no room: a new chunk. */
void *dh_arena_alloc_chunk(dh_arena *a, size_t n);

/* n bytes aligned for any type, or NULL when out of memory. */
static inline void *dh_arena_alloc(dh_arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    n = n ? (n + align - 1) & ~(align - 1) : align;
    dh_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < n)
        return dh_arena_alloc_chunk(a, n);
    void *p = c->data + c->used;
    c->used += n;
    return p;
}
/* True when p lies in one of a's chunks. */
bool dh_arena_owns(const dh_arena *a, const void *p);
/* Everything allocated is given back; the newest chunk stays for reuse. */
void dh_arena_reset(dh_arena *a);
/* Every chunk freed; a is empty (and usable) again. */
void dh_arena_free(dh_arena *a);

#endif
