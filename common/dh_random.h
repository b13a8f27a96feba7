/*
 * dh_random.h: the one source of unpredictable bytes for every process (session ids,
 * party and lobby codes, placement keys, token keys, WebSocket masks, password salts).
 *
 * It reads the kernel's generator (getrandom(2)), retrying short reads and EINTR, so no
 * caller repeats that loop or picks a library's generator of its own. Game randomness is
 * not drawn here: a match's outcomes come from its own seeded xoshiro256** (engine), which
 * replays must reproduce.
 */
#ifndef DECKHAND_DH_RANDOM_H
#define DECKHAND_DH_RANDOM_H

#include <stddef.h>
#include <stdint.h>

/* Fill out with n unpredictable bytes. 0, or -1 when the kernel refuses (logged once by the
 * caller: nothing here logs). */
int dh_random_bytes(void *out, size_t n);

/* One unpredictable 64-bit value; 0 when the kernel refuses (callers treat it as a failure
 * only where 0 matters). */
uint64_t dh_random_u64(void);

#endif
