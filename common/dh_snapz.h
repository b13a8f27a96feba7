/*
 * dh_snapz.h: a match snapshot as Redis stores it (match:{ID}:snap). The engine's
 * snapshot (engine_match_snapshot: "DHSN", names as strings, sorted) repeats card and
 * zone names and is about 4 KB for a two-player Dominion match; stored deflated it is a
 * fraction of that, which keeps Redis under its per-match budget (docs/BENCHMARKS.md).
 *
 * Stored form: "DHSZ", the raw length (4 bytes, little-endian), then the raw snapshot
 * deflated with zlib. A stored value that does not start with "DHSZ" is a raw snapshot
 * (written before this format) and is read as it is, so old matches still adopt and
 * replay. The state hash is always of the raw snapshot: compression changes nothing the
 * engine sees.
 */
#ifndef DECKHAND_DH_SNAPZ_H
#define DECKHAND_DH_SNAPZ_H

#include <stddef.h>
#include <stdint.h>

/* The largest raw snapshot dh_snapz_unpack accepts (a corrupt length must not allocate
 * gigabytes). */
#define DH_SNAPZ_MAX (16u << 20)

/* The stored form of raw[0..n) in a new buffer (*out, *outn; the caller frees it). 0, or
 * -1 when memory runs out or n exceeds DH_SNAPZ_MAX. */
int dh_snapz_pack(const uint8_t *raw, size_t n, uint8_t **out, size_t *outn);

/* The raw snapshot of a stored value, in a new buffer (*out, *outn; the caller frees it):
 * inflated when it is "DHSZ", copied when it is not. 0, or -1 (nothing allocated) when a
 * "DHSZ" value is corrupt or memory runs out. */
int dh_snapz_unpack(const uint8_t *stored, size_t n, uint8_t **out, size_t *outn);

#endif
