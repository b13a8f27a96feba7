/*
 * dh_array.h: room in a growable array (items, n used, cap allocated), the one way the
 * matchmaker's lists and the worker's held actions grow: the capacity starts at the
 * caller's first size and doubles, with the size arithmetic checked for overflow.
 */
#ifndef DECKHAND_DH_ARRAY_H
#define DECKHAND_DH_ARRAY_H

#include <stddef.h>

/* Make *items (an array of *cap elements of item_size bytes, NULL when *cap is 0) hold at
 * least need elements: when need > *cap, the capacity becomes first (when *cap is 0) and
 * doubles until it fits, and the array is reallocated (elements past the old capacity
 * are not initialized). Pass the address of the typed pointer, cast: (void **)&l->items.
 * Returns 0, or -1 when memory runs out or the size overflows (*items and *cap are then
 * unchanged and still valid). */
int dh_array_reserve(void **items, size_t *cap, size_t need, size_t item_size, size_t first);

#endif
