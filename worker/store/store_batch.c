/*
 * store_batch.c: on a single Redis, the commits of one loop turn go as one call of
 * dh_script_commit_batch instead of one EVALSHA each (see store.h).
 *
 * Redis spends most of a commit's time on the script call itself (setting up the call,
 * its KEYS and ARGV tables, the reply), not on the few writes inside; at load a loop turn
 * commits tens of matches, and batching them pays that cost once. Each commit still runs as
 * dh_script_commit would, fenced on its own and in a pcall of its own, and its reply is its
 * element of the batch's array, so a fenced or failed commit fails only its own op. A Redis
 * Cluster keeps one EVALSHA per commit: a script's keys must share one hash slot there.
 *
 * A commit's keys and arguments are copied into two buffers as RESP bulk strings when it
 * is put (the caller's memory does not outlive the call); its place in s->cmds is held by
 * an unformatted placeholder, and store_batch_plan turns the placeholders into the one
 * batch command, sent where the last of them stood.
 */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_slot.h"

#define STORE_COMMIT_KEYS 4

bool store_batching(const store *s)
{
    return !s->redis.addr.cluster;
}

/* "$N\r\n", the head of a bulk string of n bytes, into head (at least 24 bytes); its
 * length. Written by hand: snprintf was most of a commit's formatting. */
static size_t store_bulk_head(char *head, size_t n)
{
    char digits[20];
    size_t nd = 0;
    do {
        digits[nd++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    size_t h = 0;
    head[h++] = '$';
    while (nd)
        head[h++] = digits[--nd];
    head[h++] = '\r';
    head[h++] = '\n';
    return h;
}

/* Append one RESP bulk string to b. */
static int store_bulk(store_resp *b, const char *p, size_t n)
{
    char head[24];
    size_t h = store_bulk_head(head, n);
    if (dh_grow(&b->p, &b->cap, b->len + h + n + 2, 1, 4096) < 0)
        return -1;
    memcpy(b->p + b->len, head, h);
    memcpy(b->p + b->len + h, p, n);
    memcpy(b->p + b->len + h + n, "\r\n", 2);
    b->len += h + n + 2;
    b->count++;
    return 0;
}

int store_batch_add(store *s, int argc, const char **argv, const size_t *lens)
{
    /* argv: EVALSHA sha 4 | the four keys | the commit's arguments */
    int first = 3 + STORE_COMMIT_KEYS, nargs = argc - first;
    char count[16];
    int n = snprintf(count, sizeof count, "%d", nargs);
    if (nargs < 0 || store_bulk(&s->bargs, count, (size_t)n) < 0)
        return -1;
    for (int i = 3; i < first; i++)
        if (store_bulk(&s->bkeys, argv[i], lens[i]) < 0)
            return -1;
    for (int i = first; i < argc; i++)
        if (store_bulk(&s->bargs, argv[i], lens[i]) < 0)
            return -1;
    if (s->nbatched == 0) { /* the batch is routed by its first key, like any EVALSHA */
        const char *probe[] = {"EVALSHA", s->commit_batch.sha, "1", argv[3]};
        size_t plens[] = {7, DH_SCRIPT_SHA_LEN, 1, lens[3]};
        s->batch_slot = dh_slot_of_command(4, probe, plens);
    }
    return (int)s->nbatched++;
}

/* The batch command: EVALSHA sha NKEYS keys... args..., formatted into cmd (owned). */
static int store_batch_format(store *s, dh_redis_cmd *cmd)
{
    char nkeys[16], head[96];
    int nk = snprintf(nkeys, sizeof nkeys, "%zu", s->bkeys.count);
    int h = snprintf(head, sizeof head, "*%zu\r\n$7\r\nEVALSHA\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n",
                     3 + s->bkeys.count + s->bargs.count, DH_SCRIPT_SHA_LEN, s->commit_batch.sha,
                     nk, nkeys);
    size_t len = (size_t)h + s->bkeys.len + s->bargs.len;
    char *raw = malloc(len + 1);
    if (!raw)
        return -1;
    memcpy(raw, head, (size_t)h);
    memcpy(raw + h, s->bkeys.p, s->bkeys.len);
    memcpy(raw + h + s->bkeys.len, s->bargs.p, s->bargs.len);
    raw[len] = '\0';
    memset(cmd, 0, sizeof *cmd);
    cmd->raw = raw;
    cmd->rawlen = len;
    cmd->slot = s->batch_slot;
    cmd->script = &s->commit_batch;
    return 0;
}

int store_batch_plan(store *s, dh_redis_cmd *sent, size_t *where, size_t *nsent)
{
    /* The call goes where the last batched commit stood: every commit in it then runs after
     * whatever came before it in the pipeline (a new match's meta before its first commit),
     * and nothing of a match is ever written after a commit it preceded. */
    size_t last = 0, at = 0, n = 0;
    for (size_t k = 0; k < s->ncmds; k++)
        if (s->cmd_batch[k] >= 0)
            last = k;
    for (size_t k = 0; k < last; k++) /* the commands sent before it */
        at += s->cmd_batch[k] < 0;
    for (size_t k = 0; k < s->ncmds; k++) {
        if (s->cmd_batch[k] < 0) {
            sent[n] = s->cmds[k];
            where[k] = n++;
            continue;
        }
        where[k] = at;
        if (k == last) {
            if (store_batch_format(s, &sent[n]) < 0)
                return -1;
            n++;
        }
    }
    *nsent = n;
    return 0;
}

void store_batch_reset(store *s)
{
    s->bkeys.len = s->bkeys.count = 0;
    s->bargs.len = s->bargs.count = 0;
    s->nbatched = 0;
}

void store_batch_free(store *s)
{
    free(s->bkeys.p);
    free(s->bargs.p);
    free(s->cmd_batch);
    memset(&s->bkeys, 0, sizeof s->bkeys);
    memset(&s->bargs, 0, sizeof s->bargs);
    s->cmd_batch = NULL;
    s->capcmd_batch = 0;
    s->nbatched = 0;
}

redisReply *store_batch_reply(redisReply *r, long k)
{
    if (k < 0 || !r || r->type != REDIS_REPLY_ARRAY)
        return r; /* not batched, or the whole call failed: every commit in it did */
    return (size_t)k < r->elements ? r->element[k] : NULL;
}
