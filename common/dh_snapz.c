/*
 * dh_snapz.c: see dh_snapz.h. zlib's one-shot compress2/uncompress: a snapshot is small
 * and written once per turn, so streaming buys nothing; level 1 keeps the cost to a few
 * tens of microseconds.
 */
#include "dh_snapz.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SNAPZ_MAGIC "DHSZ"
#define SNAPZ_HEAD  8 /* magic + raw length */

int dh_snapz_pack(const uint8_t *raw, size_t n, uint8_t **out, size_t *outn)
{
    if (n > DH_SNAPZ_MAX)
        return -1;
    uLongf cap = compressBound((uLong)n);
    uint8_t *buf = malloc(SNAPZ_HEAD + cap);
    if (!buf)
        return -1;
    memcpy(buf, SNAPZ_MAGIC, 4);
    for (int i = 0; i < 4; i++)
        buf[4 + i] = (uint8_t)(n >> (8 * i));
    if (compress2(buf + SNAPZ_HEAD, &cap, raw, (uLong)n, 1) != Z_OK) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outn = SNAPZ_HEAD + cap;
    return 0;
}

int dh_snapz_unpack(const uint8_t *stored, size_t n, uint8_t **out, size_t *outn)
{
    if (n < SNAPZ_HEAD || memcmp(stored, SNAPZ_MAGIC, 4) != 0) {
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy)
            return -1;
        memcpy(copy, stored, n);
        *out = copy;
        *outn = n;
        return 0;
    }
    size_t raw = 0;
    for (int i = 0; i < 4; i++)
        raw |= (size_t)stored[4 + i] << (8 * i);
    if (raw > DH_SNAPZ_MAX)
        return -1;
    uint8_t *buf = malloc(raw ? raw : 1);
    if (!buf)
        return -1;
    uLongf got = (uLongf)raw;
    if (uncompress(buf, &got, stored + SNAPZ_HEAD, (uLong)(n - SNAPZ_HEAD)) != Z_OK || got != raw) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outn = raw;
    return 0;
}
