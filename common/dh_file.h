/*
 * dh_file.h: a file held in memory, as a bundle's scripts travel: read from Redis
 * (dh_bundle.h), loaded by the engine (engine_file_in is this type), pushed by `deckhand
 * scripts`. One type, so the worker and the command hand a bundle's files from Redis to
 * the engine and back without copying them field by field.
 */
#ifndef DECKHAND_DH_FILE_H
#define DECKHAND_DH_FILE_H

#include <stddef.h>

typedef struct {
    const char *path; /* relative, '/'-separated */
    const char *data; /* len bytes, not NUL-terminated */
    size_t len;
} dh_file;

#endif
