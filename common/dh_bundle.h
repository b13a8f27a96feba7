/*
 * dh_bundle.h: reading and writing script bundles in Redis (docs/OPERATIONS.md), shared by
 * the worker, which loads bundles, and `deckhand scripts`, which pushes them. The keys
 * (bundle:{SHA}, bundles, bundle:current:{GAME}, bundle:history:{GAME},
 * bundle:{SHA}:errors, worker:{ID}:bundles) and fields are in dh_keys.h. bundle:{SHA} is
 * never deleted (replays need it). How the pointers move, and the audit trail of each
 * move, is dh_liveops.h.
 * The engine, which turns the files into a VM, stays out of common/.
 */
#ifndef DECKHAND_DH_BUNDLE_H
#define DECKHAND_DH_BUNDLE_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_file.h"
#include "dh_keys.h"
#include "dh_redis.h"

/* A bundle's file (dh_file.h). The arrays dh_bundle_fetch returns own their strings
 * (dh_bundle_files_free); the ones handed to dh_bundle_store are only read. */
typedef dh_file dh_bundle_file;

typedef struct {
    const char *label;
    const char *games; /* comma-separated */
    int compatible;
    uint64_t created_ms;
} dh_bundle_meta;

/* Read bundle:{SHA}'s files (the *.lua fields); the caller frees them with
 * dh_bundle_files_free. 1 found, 0 no such bundle, -1 Redis error. */
int dh_bundle_fetch(dh_redis *rd, const char *sha, dh_bundle_file **out, size_t *n);
void dh_bundle_files_free(dh_bundle_file *f, size_t n);

/* Write bundle:{SHA} (files and meta), then add SHA to `bundles`. 0 or -1. */
int dh_bundle_store(dh_redis *rd, const char *sha, const dh_bundle_file *files, size_t n,
                    const dh_bundle_meta *meta);

/* Whether the new match match_id starts on a canary that takes pct% of new matches: FNV-1a
 * of the id, modulo 100, below pct. A hash rather than a coin, so every worker (and a
 * test) makes the same choice for the same match. */
bool dh_bundle_canary_takes(const char *match_id, int pct);

/* The rules tests bundle:{SHA} runs for game (its tests:GAME field, written by the push
 * that stored it or by the first push compared against it): the count, -1 when not
 * recorded, -2 on a Redis error. */
int dh_bundle_tests(dh_redis *rd, const char *sha, const char *game);
int dh_bundle_tests_set(dh_redis *rd, const char *sha, const char *game, int n);

#endif
