/*
 * dh_str.h: copying C strings into fixed buffers without printf's cost (issue 27: a
 * snprintf(dst, cap, "%s", src) cost the matchmaker 500-2,600 instructions, several times
 * per match).
 */
#ifndef DECKHAND_DH_STR_H
#define DECKHAND_DH_STR_H

#include <stddef.h>
#include <string.h>

/* Copy src (NULL: "") into dst of cap bytes (cap > 0), truncated to cap - 1 and
 * NUL-terminated, as snprintf(dst, cap, "%s", src) does: the length copied. */
static inline size_t dh_str_copy(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strnlen(src, cap - 1) : 0;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
    return n;
}

/* Append the decimal form of v to dst at *at (cap bytes in all), truncated as
 * dh_str_copy; *at advances by what was written. */
static inline void dh_str_add_uint(char *dst, size_t cap, size_t *at, unsigned long long v)
{
    char digits[24];
    size_t k = sizeof digits;
    digits[--k] = '\0';
    do
        digits[--k] = (char)('0' + v % 10);
    while ((v /= 10));
    *at += dh_str_copy(dst + *at, cap - *at, digits + k);
}

/* Append src to dst at *at (cap bytes in all), truncated as dh_str_copy. */
static inline void dh_str_add(char *dst, size_t cap, size_t *at, const char *src)
{
    *at += dh_str_copy(dst + *at, cap - *at, src);
}

#endif
