/*
 * dh_client_arena.h: a bump allocator for the messages a connection decodes, so that a
 * load generator's connections unpack without a malloc per field and free without a walk
 * of every message (docs/BENCHMARKS.md, issue 27: malloc, free and protobuf-c's
 * free_unpacked were a third of `deckhand load`'s instructions per answer).
 *
 * Memory comes from chunks; nothing is freed one by one (its ProtobufCAllocator's free
 * does nothing). dh_arena_reset gives everything back at once and keeps the last chunk
 * for the next round, so a connection in its steady state allocates nothing.
 */
#ifndef DECKHAND_DH_CLIENT_ARENA_H
#define DECKHAND_DH_CLIENT_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include "deckhand.pb-c.h"

#define DH_ARENA_CHUNK 8192 /* bytes of a chunk, unless one allocation needs more */

typedef struct dh_arena_chunk dh_arena_chunk;

typedef struct dh_arena {
    dh_arena_chunk *head;  /* the chunk allocated from, then the older ones */
    ProtobufCAllocator pa; /* for protobuf-c's unpack: allocates here, frees nothing */
} dh_arena;

void dh_arena_init(dh_arena *a);
/* n bytes aligned for any type, or NULL when out of memory. */
void *dh_arena_alloc(dh_arena *a, size_t n);
/* True when p lies in one of a's chunks. */
bool dh_arena_owns(const dh_arena *a, const void *p);
/* Everything allocated is given back; the newest chunk stays for reuse. */
void dh_arena_reset(dh_arena *a);
/* Give back a message unpacked with a's allocator (nothing to do until the reset) or,
 * when a is NULL or does not hold it, with malloc (free_unpacked). */
void dh_arena_release(const dh_arena *a, Deckhand__ServerMessage *m);
/* Every chunk freed; a is empty (and usable) again. */
void dh_arena_free(dh_arena *a);

#endif
