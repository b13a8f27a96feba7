/*
 * rconn.h: the matchmaker's Redis (synchronous hiredis, dh_redis: one Redis or a Redis
 * Cluster routed by slot): single commands and pipelines, for the lease, the stored queue
 * (state.c), takeover and the join check. A broken connection is dropped and retried on the next
 * command.
 *
 * Scripts go by hash (EVALSHA, dh_script.h): a command that names its script in
 * rconn_cmd.script and gets NOSCRIPT back (Redis restarted or flushed its scripts; the
 * script did not run) is retried once after SCRIPT LOAD, so callers never see NOSCRIPT
 * unless Redis refuses the load.
 */
#ifndef DECKHAND_MM_RCONN_H
#define DECKHAND_MM_RCONN_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_keys.h"
#include "dh_script.h"

struct mm_state;

/* One command: argc strings, with their lengths in lens (NULL: all are C strings). */
typedef struct {
    int argc;
    const char **argv;
    const size_t *lens;
    const dh_script *script; /* argv is EVALSHA of this script, or NULL */
} rconn_cmd;

/* Run one command. The reply (the caller frees it), or NULL when Redis is down or the
 * connection broke (the connection is then dropped and retried later). A Redis error
 * reply is returned as such. */
redisReply *rconn_command(struct mm_state *mm, uint64_t now_ms, int argc, const char **argv);
redisReply *rconn_command_cmd(struct mm_state *mm, uint64_t now_ms, const rconn_cmd *c);
/* Run EVALSHA of s: argv starts "EVALSHA", s->sha. */
redisReply *rconn_script(struct mm_state *mm, uint64_t now_ms, const dh_script *s, int argc,
                         const char **argv);
/* Send n commands in one pipeline and read their n replies into out (the caller frees
 * each). 0, or -1 (out all NULL) when Redis is down or the connection broke. */
/* HGETALL key, handing each field's value to add(ctx, value, len); a value add refuses is
 * skipped with a warning naming what ("party", "lobby"). The number added (logged as
 * "N whats loaded"), or -1 when Redis did not answer (logged). */
long rconn_hash_each(struct mm_state *mm, uint64_t now_ms, const char *key, const char *what,
                     bool (*add)(void *ctx, const uint8_t *value, size_t len), void *ctx);
int rconn_pipeline(struct mm_state *mm, uint64_t now_ms, const rconn_cmd *cmds, size_t n,
                   redisReply **out);

/* A pipeline of HMGETs of nfields fields each, one per key (what a sweep, a listing or a
 * batch of ratings reads): the room for cap of them, and their replies once run. */
typedef struct {
    rconn_cmd *cmds;
    const char **argv;
    char (*keys)[DH_KEY_MAX];
    redisReply **out; /* the replies after rconn_hmgets_run (NULL: none) */
    size_t n, cap;
    int nfields;
} rconn_hmgets;

/* Room for cap HMGETs. 0, or -1 when memory ran out (rconn_hmgets_free cleans up either
 * way). */
int rconn_hmgets_init(rconn_hmgets *h, size_t cap, int nfields);
/* The key buffer (DH_KEY_MAX bytes) of the next HMGET, for a dh_key_* call. */
char *rconn_hmgets_key(rconn_hmgets *h);
/* Add HMGET key fields[0..nfields): key is the buffer rconn_hmgets_key gave, fields live
 * until the run. At most cap. */
void rconn_hmgets_add(rconn_hmgets *h, const char *key, const char *const *fields);
/* Run the HMGETs added in one pipeline: 0 (also when there are none), or -1 as
 * rconn_pipeline. */
int rconn_hmgets_run(struct mm_state *mm, uint64_t now_ms, rconn_hmgets *h);
/* Free the replies and the room. */
void rconn_hmgets_free(rconn_hmgets *h);

#endif
