/*
 * dh_snapz.h: a match snapshot as Redis stores it (match:{ID}:snap). The engine's
 * snapshot (engine_match_snapshot: "DHSN", names as strings, sorted) repeats card and
 * zone names and is about 4 KB for a two-player Dominion match; stored deflated it is a
 * fraction of that, which keeps Redis under its per-match budget (docs/BENCHMARKS.md).
 *
 * Stored form: "DHZS" (zstd) or "DHSZ" (deflate), the raw length (4 bytes,
 * little-endian), then the raw snapshot compressed: one zstd frame at level 1, or zlib's
 * deflate at level 1. Both are read whichever a worker writes (its --snapshot-codec), so
 * matches written by workers of either setting, or by a release before zstd (which
 * wrote "DHSZ" only), adopt and replay. A stored value that starts with neither is a raw
 * snapshot (written before either format) and is read as it is. The state hash is
 * always of the raw snapshot: compression changes nothing the engine sees.
 */
#ifndef DECKHAND_DH_SNAPZ_H
#define DECKHAND_DH_SNAPZ_H

#include <stddef.h>
#include <stdint.h>

/* The largest raw snapshot dh_snapz_unpack accepts (a corrupt length must not allocate
 * gigabytes). */
#define DH_SNAPZ_MAX (16u << 20)

/* How a snapshot is stored: zstd (the default), or deflate, which a release before zstd
 * can read (a rolling upgrade: docs/OPERATIONS.md). */
typedef enum { DH_SNAPZ_ZSTD = 0, DH_SNAPZ_ZLIB = 1 } dh_snapz_codec;

/* The stored form of raw[0..n) by codec, in a new buffer (*out, *outn; the caller frees
 * it). 0, or -1 when memory runs out or n exceeds DH_SNAPZ_MAX. */
int dh_snapz_pack(dh_snapz_codec codec, const uint8_t *raw, size_t n, uint8_t **out, size_t *outn);

/* The raw snapshot of a stored value, in a new buffer (*out, *outn; the caller frees it):
 * decompressed when it is "DHZS" or "DHSZ", copied when it is neither; a value with the
 * tail head (below) is read after it. 0, or -1 (nothing allocated) when such a value is
 * corrupt or memory runs out. */
int dh_snapz_unpack(const uint8_t *stored, size_t n, uint8_t **out, size_t *outn);

/* The tail head (--log-in-history, docs/redis.md "The log as the history's tail"): a
 * snapshot stored as "DHTL", the length of match:{ID}:history it covers in decimal, '\n',
 * then the stored form above. Its log is then the history from that index on, and
 * match:{ID}:log is not read (stale or absent). Written by the commit and undo scripts
 * (dh_keys.c), which know the history's length; a release before it reads such a value as
 * a raw snapshot, which the engine refuses ("DHSN" expected): it cannot adopt the match,
 * rather than adopt it without its last answers. */
#define DH_SNAPZ_TAIL     "DHTL"
#define DH_SNAPZ_TAIL_LEN 4

/* Whether stored[0..n) has the tail head: 1 (*at the history index its log starts at,
 * *body the offset of the stored snapshot after the head), 0 none (*at and *body 0), -1
 * a malformed head. */
int dh_snapz_tail(const uint8_t *stored, size_t n, uint64_t *at, size_t *body);

#endif
