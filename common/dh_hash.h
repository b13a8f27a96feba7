/*
 * dh_hash.h: FNV-1a, 64 bits, the one non-cryptographic hash of the project: the engine's
 * state hash and name interning, the hash tables (dh_table), and the fingerprints of what
 * a seat has seen (worker/host_view.c, the e2e player rig). Chained: start from
 * DH_FNV_START and feed the previous result back in.
 */
#ifndef DECKHAND_DH_HASH_H
#define DECKHAND_DH_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DH_FNV_START 0xcbf29ce484222325ULL

static inline uint64_t dh_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* s with its terminating NUL (so "ab","c" and "a","bc" differ); NULL hashes as "". */
static inline uint64_t dh_fnv1a_str(uint64_t h, const char *s)
{
    return dh_fnv1a(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

#endif
