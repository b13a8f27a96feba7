/*
 * dh_snapz.c: see dh_snapz.h. Level 1 deflate. Setting a deflate stream up allocates and
 * clears its window and hash tables (a few hundred KB), which costs more than compressing
 * a 4 KB snapshot, so each thread keeps one stream and resets it between snapshots
 * (deflateReset keeps the tables; the output is the same bytes compress2 would give).
 * Reading uses one-shot uncompress: it is rare (adoption, replays).
 */
#include "dh_snapz.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SNAPZ_MAGIC "DHSZ"
#define SNAPZ_HEAD  8 /* magic + raw length */

/* This thread's deflate stream, set up on first use; NULL when zlib could not. */
static z_stream *snapz_stream(void)
{
    static _Thread_local z_stream zs;
    static _Thread_local int ready;
    if (!ready) {
        memset(&zs, 0, sizeof zs);
        if (deflateInit(&zs, 1) != Z_OK)
            return NULL;
        ready = 1;
    } else if (deflateReset(&zs) != Z_OK) {
        return NULL;
    }
    return &zs;
}

int dh_snapz_pack(const uint8_t *raw, size_t n, uint8_t **out, size_t *outn)
{
    z_stream *zs = n <= DH_SNAPZ_MAX ? snapz_stream() : NULL;
    if (!zs)
        return -1;
    uLong cap = deflateBound(zs, (uLong)n);
    uint8_t *buf = malloc(SNAPZ_HEAD + cap);
    if (!buf)
        return -1;
    memcpy(buf, SNAPZ_MAGIC, 4);
    for (int i = 0; i < 4; i++)
        buf[4 + i] = (uint8_t)(n >> (8 * i));
    zs->next_in = (Bytef *)raw;
    zs->avail_in = (uInt)n;
    zs->next_out = buf + SNAPZ_HEAD;
    zs->avail_out = (uInt)cap;
    if (deflate(zs, Z_FINISH) != Z_STREAM_END) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outn = SNAPZ_HEAD + zs->total_out;
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
