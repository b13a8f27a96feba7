/*
 * dh_grow.h: growing a heap array by doubling, the one spelling of the "realloc when
 * full" step that the frame decoder, the client's buffers and the engine's logs,
 * events and snapshots all need.
 *
 *   if (dh_grow(&lg->v, &lg->cap, lg->n + 1, sizeof *lg->v, 16) < 0)
 *       return -1;
 */
#ifndef DECKHAND_DH_GROW_H
#define DECKHAND_DH_GROW_H

#include <stddef.h>

/* Make the array *pp (elements of elem bytes, room for *cap of them) hold at least need:
 * when it is short, the capacity doubles, starting from first (or from *cap when it is
 * not 0), until need fits, and the array is realloc'd. pp is the address of the caller's
 * array pointer (a T ** for any object type T). 0, or -1 when out of memory or the size
 * would overflow; on -1 the array and *cap are unchanged and still the caller's. */
int dh_grow(void *pp, size_t *cap, size_t need, size_t elem, size_t first);

#endif
