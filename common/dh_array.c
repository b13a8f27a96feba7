/*
 * dh_array.c: see dh_array.h. The caller's pointer is read and written with memcpy, not
 * through the void ** it is passed as, so a placement * or a queue_line * is never
 * accessed as a void * object (strict aliasing).
 */
#include "dh_array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity that holds need: cap (or first) doubled as often as it takes, or need
 * itself when doubling again would overflow. */
static size_t dh_array_next_cap(size_t cap, size_t need, size_t first)
{
    size_t next = cap ? cap : (first ? first : 1);
    while (next < need) {
        if (next > SIZE_MAX / 2)
            return need;
        next *= 2;
    }
    return next;
}

int dh_array_reserve(void **items, size_t *cap, size_t need, size_t item_size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t next = dh_array_next_cap(*cap, need, first);
    if (!item_size || next > SIZE_MAX / item_size)
        return -1;
    void *old;
    memcpy(&old, items, sizeof old);
    void *grown = realloc(old, next * item_size);
    if (!grown)
        return -1;
    memcpy(items, &grown, sizeof grown);
    *cap = next;
    return 0;
}
