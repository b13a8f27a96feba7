/*
 * store.h: the worker's Redis persistence (docs/ARCHITECTURE.md, "Redis keys").
 *
 * Writes are batched: the host opens an op per thing it must know the fate of (a new
 * match, one accepted answer, a finished match), appends that op's commands, and at
 * the end of the loop iteration store_flush sends the whole pipeline in one round trip
 * and reads every reply. An op is ok only when all its commands succeeded; only then
 * does the host release what depends on it. While Redis is down store_op returns -1 at
 * once (the host answers UNAVAILABLE) and the connection is retried with backoff.
 *
 * Keys carry hash tags so one match's keys share a Redis Cluster slot:
 *   match:{ID}       hash: game bundle worker status seed players player_ids created_ms
 *                          ended_ms result
 *   match:{ID}:snap  the engine snapshot of the last turn boundary
 *   match:{ID}:log   encoded answers accepted since that snapshot
 *   matches:finished ids, newest first
 *   worker:{ID}      the worker's data endpoint, with a TTL (its lease)
 *
 * The reads are synchronous and unbatched: they serve tests and tools (and, later,
 * adopting a dead worker's matches), not the hot path.
 */
#ifndef DECKHAND_WORKER_STORE_H
#define DECKHAND_WORKER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_redis.h"

typedef struct {
    unsigned commands; /* replies to read for this op */
    bool ok;
} store_op_state;

typedef struct {
    dh_redis redis;
    store_op_state *ops; /* ops of the current batch */
    size_t nops, capops;
    bool broken; /* an append failed: the pipeline is unusable, the batch fails */
} store;

typedef struct {
    const char *match_id, *game, *bundle, *worker;
    uint64_t seed;
    const char *players;    /* display names, comma-separated */
    const char *player_ids; /* comma-separated */
    uint64_t created_ms;
} store_meta;

/* Parse url (nothing connects yet); -1 on a malformed URL. */
int store_init(store *s, const char *url, int timeout_ms);
void store_close(store *s);

/* Start an op in the current batch; its id, or -1 when Redis is down (or out of
 * memory): the caller treats that as a failed write right away. */
int store_op(store *s, uint64_t now_ms);
/* Append commands to the newest op. Return 0, or -1 (the op will fail). */
int store_put_meta(store *s, const store_meta *m);
/* MULTI; SET snap; DEL log; EXEC: a new turn boundary replaces the log atomically. */
int store_put_snapshot(store *s, const char *match_id, const uint8_t *snap, size_t len);
int store_append_log(store *s, const char *match_id, const uint8_t *entry, size_t len);
/* HSET status finished, ended_ms, result; LPUSH matches:finished. */
int store_finish(store *s, const char *match_id, uint64_t ended_ms, const char *result_json);
int store_lease(store *s, const char *worker_id, const char *endpoint, unsigned ttl_ms);
/* HSET bundle; RPUSH match:{ID}:bundles note: a running match moved onto another bundle
 * (live-ops --apply-to-running), recorded with the match. */
int store_move_bundle(store *s, const char *match_id, const char *bundle, const char *note);

/* Send the batch and read every reply; then store_ok tells each op's fate until the
 * next store_op after the flush starts a new batch. An I/O error fails every op whose
 * replies were not all read, and drops the connection. */
void store_flush(store *s, uint64_t now_ms);
bool store_ok(const store *s, int op);
/* Forget the flushed batch; the next store_op starts a new one. */
void store_next(store *s);
/* Ops in the current (unflushed) batch. */
size_t store_pending(const store *s);

/* ---- reads ------------------------------------------------------------------------ */

/* A field of match:{ID} (caller frees), NULL when missing or Redis is down. */
char *store_get_field(store *s, const char *match_id, const char *field, uint64_t now_ms);
/* The snapshot (caller frees *out); 1 found, 0 missing, -1 Redis down. */
int store_get_snapshot(store *s, const char *match_id, uint8_t **out, size_t *len, uint64_t now_ms);

typedef struct {
    uint8_t *data;
    size_t len;
} store_blob;

/* Every log entry in order (caller frees with store_blobs_free); count, or -1. */
long store_get_log(store *s, const char *match_id, store_blob **out, uint64_t now_ms);
void store_blobs_free(store_blob *b, size_t n);

#endif
