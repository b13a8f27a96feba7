/*
 * rconn.h: the matchmaker's one Redis connection (synchronous hiredis, dh_redis): single
 * commands and pipelines, for the lease, the stored queue (state.c), takeover and the
 * join check. A broken connection is dropped and retried on the next command.
 */
#ifndef DECKHAND_MM_RCONN_H
#define DECKHAND_MM_RCONN_H

#include <hiredis/hiredis.h>
#include <stddef.h>
#include <stdint.h>

struct mm_state;

/* One command: argc strings, with their lengths in lens (NULL: all are C strings). */
typedef struct {
    int argc;
    const char **argv;
    const size_t *lens;
} rconn_cmd;

/* Run one command. The reply (the caller frees it), or NULL when Redis is down or the
 * connection broke (the connection is then dropped and retried later). A Redis error
 * reply is returned as such. */
redisReply *rconn_command(struct mm_state *mm, uint64_t now_ms, int argc, const char **argv);
redisReply *rconn_command_cmd(struct mm_state *mm, uint64_t now_ms, const rconn_cmd *c);
/* Send n commands in one pipeline and read their n replies into out (the caller frees
 * each). 0, or -1 (out all NULL) when Redis is down or the connection broke. */
int rconn_pipeline(struct mm_state *mm, uint64_t now_ms, const rconn_cmd *cmds, size_t n,
                   redisReply **out);

#endif
