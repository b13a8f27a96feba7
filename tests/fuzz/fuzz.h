/*
 * fuzz.h: what every fuzz target (tests/fuzz/fuzz_*.c) shares: libFuzzer's entry points and
 * FUZZ_CHECK, which turns a broken property into a crash libFuzzer keeps (a plain assert()
 * would vanish under NDEBUG).
 */
#ifndef DECKHAND_FUZZ_H
#define DECKHAND_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* One input; returns 0 (libFuzzer reserves other values). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional one-time setup; a target that needs none does not define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_CHECK(c)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #c, __FILE__, __LINE__);            \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
