/*
 * dh_grow.c: see dh_grow.h. The array pointer is read and written with memcpy so one
 * function serves every element type without a macro (object pointers share one
 * representation on every platform the project builds on).
 */
#include "dh_grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int dh_grow(void *pp, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : (first ? first : 1);
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    if (n > SIZE_MAX / elem)
        return -1;
    void *p;
    memcpy(&p, pp, sizeof p);
    p = realloc(p, n * elem);
    if (!p)
        return -1;
    memcpy(pp, &p, sizeof p);
    *cap = n;
    return 0;
}
