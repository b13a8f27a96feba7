/*
 * dh_snapz.c: see dh_snapz.h. zstd at level 1, or level 1 deflate. Setting a compressor
 * up allocates and clears its window and hash tables (a few hundred KB), which costs more
 * than compressing a 4 KB snapshot, so each thread keeps one of each and reuses it
 * (deflateReset keeps the tables; the output is the same bytes compress2 would give; a
 * zstd context reused gives the same bytes as a fresh one). Reading uses one-shot calls:
 * it is rare (adoption, replays).
 *
 * Why zstd: at level 1 on the worker's snapshots (two-player Dominion, 3.9 KB raw) it
 * writes 1,217 bytes against deflate's 1,245 for a third of the instructions (178 k against
 * 513 k per snapshot) and 16 against 41 µs of CPU (docs/BENCHMARKS.md, issue 27).
 */
#include "dh_snapz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#define SNAPZ_MAGIC      "DHSZ" /* deflate */
#define SNAPZ_MAGIC_ZSTD "DHZS"
#define SNAPZ_HEAD       8 /* magic + raw length */

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

/* This thread's zstd context, made on first use; NULL when out of memory. Level 1, with
 * the frame's checksum: a stored value damaged in Redis is refused on reading, as
 * deflate's adler32 does, instead of being handed to the engine. */
static ZSTD_CCtx *snapz_zstd(void)
{
    static _Thread_local ZSTD_CCtx *cc;
    if (cc)
        return cc;
    cc = ZSTD_createCCtx();
    if (cc && (ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1)) ||
               ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1)))) {
        ZSTD_freeCCtx(cc);
        cc = NULL;
    }
    return cc;
}

/* The stored head: magic and raw length n. */
static void snapz_head(uint8_t *buf, const char *magic, size_t n)
{
    memcpy(buf, magic, 4);
    for (int i = 0; i < 4; i++)
        buf[4 + i] = (uint8_t)(n >> (8 * i));
}

static int snapz_pack_zstd(const uint8_t *raw, size_t n, uint8_t **out, size_t *outn)
{
    ZSTD_CCtx *cc = snapz_zstd();
    size_t cap = ZSTD_compressBound(n);
    uint8_t *buf = cc ? malloc(SNAPZ_HEAD + cap) : NULL;
    if (!buf)
        return -1;
    snapz_head(buf, SNAPZ_MAGIC_ZSTD, n);
    size_t z = ZSTD_compress2(cc, buf + SNAPZ_HEAD, cap, raw, n);
    if (ZSTD_isError(z)) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outn = SNAPZ_HEAD + z;
    return 0;
}

static int snapz_pack_zlib(const uint8_t *raw, size_t n, uint8_t **out, size_t *outn)
{
    z_stream *zs = snapz_stream();
    if (!zs)
        return -1;
    uLong cap = deflateBound(zs, (uLong)n);
    uint8_t *buf = malloc(SNAPZ_HEAD + cap);
    if (!buf)
        return -1;
    snapz_head(buf, SNAPZ_MAGIC, n);
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

int dh_snapz_pack(dh_snapz_codec codec, const uint8_t *raw, size_t n, uint8_t **out, size_t *outn)
{
    if (n > DH_SNAPZ_MAX)
        return -1;
    return codec == DH_SNAPZ_ZLIB ? snapz_pack_zlib(raw, n, out, outn)
                                  : snapz_pack_zstd(raw, n, out, outn);
}

/* The body of a stored value (zstd's, or else deflate's) into buf, which holds the raw
 * length its head gives. 0, or -1 when corrupt. */
static int snapz_unpack_body(bool zstd, const uint8_t *body, size_t n, uint8_t *buf, size_t raw)
{
    if (zstd) {
        size_t got = ZSTD_decompress(buf, raw, body, n);
        return !ZSTD_isError(got) && got == raw ? 0 : -1;
    }
    uLongf got = (uLongf)raw;
    return uncompress(buf, &got, body, (uLong)n) == Z_OK && got == raw ? 0 : -1;
}

int dh_snapz_tail(const uint8_t *stored, size_t n, uint64_t *at, size_t *body)
{
    *at = 0;
    *body = 0;
    if (n < DH_SNAPZ_TAIL_LEN || memcmp(stored, DH_SNAPZ_TAIL, DH_SNAPZ_TAIL_LEN) != 0)
        return 0;
    uint64_t v = 0;
    size_t i = DH_SNAPZ_TAIL_LEN;
    for (; i < n && i < DH_SNAPZ_TAIL_LEN + 20 && stored[i] >= '0' && stored[i] <= '9'; i++)
        v = v * 10 + (uint64_t)(stored[i] - '0');
    if (i == DH_SNAPZ_TAIL_LEN || i >= n || stored[i] != '\n')
        return -1;
    *at = v;
    *body = i + 1;
    return 1;
}

int dh_snapz_unpack(const uint8_t *stored, size_t n, uint8_t **out, size_t *outn)
{
    uint64_t at;
    size_t body;
    int tail = dh_snapz_tail(stored, n, &at, &body);
    if (tail < 0)
        return -1;
    stored += body;
    n -= body;
    bool zstd = n >= SNAPZ_HEAD && !memcmp(stored, SNAPZ_MAGIC_ZSTD, 4);
    if (!zstd && (n < SNAPZ_HEAD || memcmp(stored, SNAPZ_MAGIC, 4) != 0)) {
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
    if (snapz_unpack_body(zstd, stored + SNAPZ_HEAD, n - SNAPZ_HEAD, buf, raw) < 0) {
        free(buf);
        return -1;
    }
    *out = buf;
    *outn = raw;
    return 0;
}
