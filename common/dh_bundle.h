/*
 * dh_bundle.h: the Redis layout of script bundles (docs/OPERATIONS.md), shared by the
 * worker, which loads bundles from it, and `deckhand scripts`, which pushes them.
 *
 *   bundle:{SHA}            hash: one field per file (its relative path, always *.lua)
 *                           holding the content, plus label, games (comma-separated),
 *                           compatible (0/1), created_ms, and apply_to_running (1) when
 *                           pushed with --apply-to-running. Never deleted: replays need it.
 *   bundles                 set of every stored SHA
 *   bundle:current:{GAME}   the SHA new matches of GAME start on; absent = the workers'
 *                           embedded default (their --scripts folder)
 *   bundle:history:{GAME}   list of the SHAs current has pointed at, newest first; its
 *                           head is current. Rollback pops it.
 *   bundle:{SHA}:errors     hash: worker id -> why that worker could not load the bundle
 *   worker:{ID}:bundles     hash, TTL: SHA -> live matches on it, for every bundle the
 *                           worker has loaded; refreshed every beat and after a load
 *
 * Only the keys and the bundle's own read and write live here; the engine (which turns
 * the files into a VM) stays out of common/.
 */
#ifndef DECKHAND_DH_BUNDLE_H
#define DECKHAND_DH_BUNDLE_H

#include <hiredis/hiredis.h>
#include <stddef.h>
#include <stdint.h>

#define DH_BUNDLE_KEY_MAX 320

typedef struct {
    char *path;
    char *data;
    size_t len;
} dh_bundle_file;

typedef struct {
    const char *label;
    const char *games; /* comma-separated */
    int compatible;
    uint64_t created_ms;
} dh_bundle_meta;

/* Key names (buf of DH_BUNDLE_KEY_MAX bytes). */
void dh_bundle_key(char *buf, const char *sha);
void dh_bundle_current_key(char *buf, const char *game);
void dh_bundle_history_key(char *buf, const char *game);
void dh_bundle_errors_key(char *buf, const char *sha);
void dh_bundle_worker_key(char *buf, const char *worker_id);

/* Read bundle:{SHA}'s files (the *.lua fields); the caller frees them with
 * dh_bundle_files_free. 1 found, 0 no such bundle, -1 Redis error. */
int dh_bundle_fetch(redisContext *c, const char *sha, dh_bundle_file **out, size_t *n);
void dh_bundle_files_free(dh_bundle_file *f, size_t n);

/* Write bundle:{SHA} (files and meta) and add SHA to `bundles`, in one MULTI. 0 or -1. */
int dh_bundle_store(redisContext *c, const char *sha, const dh_bundle_file *files, size_t n,
                    const dh_bundle_meta *meta);

/* The SHA bundle:current:{GAME} holds, copied into out (65 bytes); 1 set, 0 unset, -1 on
 * a Redis error. */
int dh_bundle_current(redisContext *c, const char *game, char *out);

#endif
