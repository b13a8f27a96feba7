/*
 * store_batch.c: on a single Redis, the commits of one loop turn go as one call of
 * dh_script_commit_batch instead of one EVALSHA each (see store.h).
 *
 * Redis spends most of a commit's time on the script call itself (setting up the call,
 * its KEYS and ARGV tables, the reply), not on the few writes inside; at load a loop turn
 * commits tens of matches, and batching them pays that cost once. Each commit still runs
 * fenced on its own and in a pcall of its own, and its reply is its element of the batch's
 * array, so a fenced or failed commit fails only its own op. A Redis Cluster keeps one
 * EVALSHA per commit, a batch of one: a script's keys must share one hash slot there
 * (store_batch_alone). There is no other commit script: a commit alone is a batch of one.
 *
 * The call has a format of its own (dh_keys.c), as Redis's cost of a call is per argument
 * and per redis.call: the worker once per call, then per commit only the parts it has (an
 * answer without a snapshot sent once, for the log and the history; a finish's fields only
 * with a finish), and a snapshot's log in one RPUSH. A commit of another worker than the
 * call's goes alone, as on a Cluster.
 *
 * A commit's keys and arguments are copied into two buffers as RESP bulk strings when it
 * is put (the caller's memory does not outlive the call); its place in s->cmds is held by
 * an unformatted placeholder, and store_batch_plan turns the placeholders into the one
 * batch command, sent where the last of them stood.
 */
#include "store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_random.h"
#include "dh_slot.h"
#include "dh_str.h"

#define STORE_COMMIT_KEYS 4

bool store_batching(const store *s)
{
    return !s->redis.addr.cluster;
}

/* "$N\r\n", the head of a bulk string of n bytes, into head (at least 24 bytes); its
 * length. Written by hand: snprintf was most of a commit's formatting. */
static size_t store_bulk_head(char *head, size_t n)
{
    size_t h = 0;
    head[h++] = '$';
    dh_str_add_uint(head, 24, &h, n);
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

/* Append v's decimal form as one bulk string (not snprintf: its cost, issue 27). */
static int store_bulk_uint(store_resp *b, unsigned long long v)
{
    char num[24];
    size_t n = 0;
    dh_str_add_uint(num, sizeof num, &n, v);
    return store_bulk(b, num, n);
}

/* Whether c's log is its answer alone (no snapshot): the batch sends those bytes once. */
static bool store_batch_answer_is_log(const store_commit *c)
{
    return !c->snap && c->hist && c->nlog == 1 && c->log[0].len == c->hist_len &&
           memcmp(c->log[0].data, c->hist, c->hist_len) == 0;
}

/* The bits of c's kind in dh_script_commit_batch's format (sent as '0' plus them). An
 * answer goes on the log by itself only when it is the log (KIND_LOG unset): an answer
 * with other entries, or none, has them sent (KIND_LOG, nlog 0 when none). */
enum {
    KIND_SNAP = 1,
    KIND_ANSWER = 2,
    KIND_RECHECK = 4,
    KIND_FINISH = 8,
    KIND_LOG = 16,
    KIND_OWNED = 32, /* seen owned at this epoch under the trusted token: no fence needed, and
                        only the keys it writes sent */
    KIND_TAIL = 64   /* the log is the history's tail (c->tail): the log key untouched */
};

bool store_tail_ok(const store_commit *c)
{
    /* a snapshot's entries are its answers since its boundary, on the history already;
     * without a snapshot the log may only be the answer */
    return !c->tail || c->snap || !c->nlog || store_batch_answer_is_log(c);
}

static int store_batch_kind(const store_commit *c)
{
    int f = (c->snap ? KIND_SNAP : 0) | (c->hist ? KIND_ANSWER : 0) |
            (c->hist && c->recheck ? KIND_RECHECK : 0) | (c->finish ? KIND_FINISH : 0);
    if (c->tail)
        return f | KIND_TAIL;
    return f | (!c->snap && (c->nlog || c->hist) && !store_batch_answer_is_log(c) ? KIND_LOG : 0);
}

/* Append c's count and arguments to the batch: N epoch kind [snap] [nlog log...] [entry]
 * [ended_ms result final_hash end_reason rating_job]; in the tail layout a snapshot's nlog
 * without its entries (the history holds them). */
static int store_batch_args(store_resp *b, const store_commit *c, const char *epoch,
                            const uint8_t *z, size_t zlen, bool owned)
{
    int f = store_batch_kind(c);
    bool logged = f & (KIND_SNAP | KIND_LOG);
    size_t entries = f & KIND_TAIL ? 0 : c->nlog;
    size_t count = 2 + (f & KIND_SNAP ? 1 : 0) + (logged ? 1 + entries : 0) +
                   (f & KIND_ANSWER ? 1 : 0) + (f & KIND_FINISH ? 5 : 0);
    char kind = (char)('0' + f + (owned ? KIND_OWNED : 0));
    int rc =
        store_bulk_uint(b, count) | store_bulk(b, epoch, strlen(epoch)) | store_bulk(b, &kind, 1);
    if (f & KIND_SNAP)
        rc |= store_bulk(b, z ? (const char *)z : "", zlen);
    if (logged) {
        rc |= store_bulk_uint(b, c->nlog);
        for (size_t i = 0; i < entries; i++)
            rc |= store_bulk(b, (const char *)c->log[i].data, c->log[i].len);
    }
    if (f & KIND_ANSWER)
        rc |= store_bulk(b, (const char *)c->hist, c->hist_len);
    if (f & KIND_FINISH) {
        const char *fin[] = {c->result ? c->result : "", c->final_hash ? c->final_hash : "",
                             c->end_reason ? c->end_reason : "",
                             c->rating_job ? c->rating_job : ""};
        rc |= store_bulk_uint(b, c->ended_ms);
        for (size_t i = 0; i < sizeof fin / sizeof *fin; i++)
            rc |= store_bulk(b, fin[i], strlen(fin[i]));
    }
    return rc;
}

/* The batch's own keys and arguments before the commits' (lead: with moves,
 * worker:{W}:moves; pre: the worker, and with moves the token trusted and a fresh one). */
static int store_batch_frame(store *s, const char *worker, bool moves, store_resp *pre,
                             store_resp *lead)
{
    int rc = store_bulk(pre, worker, strlen(worker));
    if (!moves)
        return rc;
    char key[DH_KEY_MAX], fresh[STORE_TOKEN_MAX];
    if (!s->token_base && !(s->token_base = dh_random_u64()))
        s->token_base = dh_now_ns(); /* the kernel refused: unique enough for a worker's life */
    snprintf(fresh, sizeof fresh, "%016llx-%llu", (unsigned long long)s->token_base,
             (unsigned long long)++s->token_seq);
    dh_key_worker_moves(key, worker);
    return rc | store_bulk(pre, s->trust, strlen(s->trust)) |
           store_bulk(pre, fresh, strlen(fresh)) | store_bulk(lead, key, strlen(key));
}

/* A batch command: EVALSHA sha NKEYS [moves] keys... worker [trust fresh] args...,
 * formatted into cmd (owned); moves: with worker:{W}:moves (--fence-per-turn). */
static int store_batch_format(store *s, const char *worker, const store_resp *keys,
                              const store_resp *args, int slot, bool moves, dh_redis_cmd *cmd)
{
    store_resp pre = {0}, lead = {0};
    char nkeys[16], head[160];
    char *raw = NULL;
    if (store_batch_frame(s, worker, moves, &pre, &lead) < 0)
        goto out;
    int nk = snprintf(nkeys, sizeof nkeys, "%zu", keys->count + lead.count);
    int h = snprintf(head, sizeof head, "*%zu\r\n$7\r\nEVALSHA\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n",
                     3 + keys->count + lead.count + pre.count + args->count, DH_SCRIPT_SHA_LEN,
                     s->commit_batch.sha, nk, nkeys);
    size_t len = (size_t)h + lead.len + keys->len + pre.len + args->len;
    char *p = raw = malloc(len + 1);
    if (!raw)
        goto out;
    memcpy(p, head, (size_t)h);
    p += h;
    if (lead.len) /* the moves key first: the script knows it by its name */
        memcpy(p, lead.p, lead.len);
    p += lead.len;
    memcpy(p, keys->p, keys->len);
    p += keys->len;
    memcpy(p, pre.p, pre.len); /* the worker, first of ARGV */
    p += pre.len;
    memcpy(p, args->p, args->len);
    raw[len] = '\0';
    memset(cmd, 0, sizeof *cmd);
    cmd->raw = raw;
    cmd->rawlen = len;
    cmd->slot = slot;
    cmd->script = &s->commit_batch;
out:
    free(pre.p);
    free(lead.p);
    return raw ? 0 : -1;
}

/* The hash slot a batch whose first key is key goes to (routed like any EVALSHA). */
static int store_batch_slot(const store *s, const char *key)
{
    const char *probe[] = {"EVALSHA", s->commit_batch.sha, "1", key};
    size_t plens[] = {7, DH_SCRIPT_SHA_LEN, 1, strlen(key)};
    return dh_slot_of_command(4, probe, plens);
}

/* --fence-per-turn: whether the worker saw c's match owned at c's epoch under the token it
 * trusts (then the batch skips its fence while worker:{W}:moves holds that token, and c
 * sends only the keys it writes). Never a finish or a retried answer: they read the match. */
static bool store_batch_owned(store *s, const store_commit *c)
{
    if (!s->fence_per_turn || !s->trust[0] || !s->owned.buckets || c->finish ||
        (c->hist && c->recheck))
        return false;
    uintptr_t e = (uintptr_t)dh_table_get(&s->owned, c->match_id);
    return e && e == c->epoch;
}

/* Keys and arguments of one commit appended to keys and args: its four keys (match snap
 * log history), or when owned only those it writes ([snap] log history; in the tail layout
 * [snap] history). */
static int store_batch_put(store_resp *keys, store_resp *args, const store_commit *c,
                           const char *const k[4], const char *epoch, const uint8_t *z, size_t zlen,
                           bool owned)
{
    if (store_batch_args(args, c, epoch, z, zlen, owned) < 0)
        return -1;
    for (int i = owned ? (c->snap ? 1 : 2) : 0; i < STORE_COMMIT_KEYS; i++)
        if (!(owned && i == 2 && c->tail) && store_bulk(keys, k[i], strlen(k[i])) < 0)
            return -1;
    return 0;
}

int store_batch_alone(store *s, const store_commit *c, const char *const keys[4], const char *epoch,
                      const uint8_t *z, size_t zlen, dh_redis_cmd *cmd)
{
    store_resp k = {0}, a = {0};
    int rc =
        store_batch_put(&k, &a, c, keys, epoch, z, zlen, false) < 0
            ? -1
            : store_batch_format(s, c->worker, &k, &a, store_batch_slot(s, keys[0]), false, cmd);
    free(k.p);
    free(a.p);
    return rc;
}

int store_batch_commit(store *s, const store_commit *c, const char *const keys[4],
                       const char *epoch, const uint8_t *z, size_t zlen)
{
    size_t wlen = strlen(c->worker);
    if (wlen >= sizeof s->bworker || (s->nbatched && strcmp(s->bworker, c->worker) != 0) ||
        strlen(c->match_id) >= STORE_ID_MAX)
        return -2; /* the call is fenced on one worker: another's commit goes alone */
    if (dh_grow(&s->bmeta, &s->capbmeta, s->nbatched + 1, sizeof *s->bmeta, 64) < 0 ||
        store_batch_put(&s->bkeys, &s->bargs, c, keys, epoch, z, zlen, store_batch_owned(s, c)) < 0)
        return -1;
    store_batched *m = &s->bmeta[s->nbatched];
    memcpy(m->match_id, c->match_id, strlen(c->match_id) + 1);
    m->epoch = c->epoch;
    m->finish = c->finish;
    if (s->nbatched == 0) { /* the batch is routed by its first key, like any EVALSHA */
        memcpy(s->bworker, c->worker, wlen + 1);
        s->batch_slot = store_batch_slot(s, keys[0]);
    }
    return (int)s->nbatched++;
}

int store_batch_plan(store *s, dh_redis_cmd *sent, size_t *where, size_t *nsent, size_t *batch_at)
{
    /* The call goes where the last batched commit stood: every commit in it then runs after
     * whatever came before it in the pipeline (a new match's meta before its first commit),
     * and nothing of a match is ever written after a commit it preceded. */
    size_t last = 0, at = 0, n = 0;
    *batch_at = SIZE_MAX;
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
            if (store_batch_format(s, s->bworker, &s->bkeys, &s->bargs, s->batch_slot,
                                   s->fence_per_turn, &sent[n]) < 0)
                return -1;
            *batch_at = n++;
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
    free(s->bmeta);
    dh_table_free(&s->owned, NULL);
    s->bmeta = NULL;
    s->capbmeta = 0;
    memset(&s->bkeys, 0, sizeof s->bkeys);
    memset(&s->bargs, 0, sizeof s->bargs);
    s->cmd_batch = NULL;
    s->capcmd_batch = 0;
    s->nbatched = 0;
}

redisReply *store_batch_reply(redisReply *r, long k)
{
    if (k == STORE_BATCH_ALONE)
        k = 0; /* a batch of one */
    if (k < 0 || !r || r->type != REDIS_REPLY_ARRAY)
        return r; /* not batched, or the whole call failed: every commit in it did */
    return (size_t)k < r->elements ? r->element[k] : NULL;
}

void store_batch_learn(store *s, const redisReply *r)
{
    if (!s->fence_per_turn || !r || r->type != REDIS_REPLY_ARRAY || r->elements != s->nbatched + 2)
        return;
    const redisReply *t = r->element[s->nbatched], *held = r->element[s->nbatched + 1];
    if (t->type != REDIS_REPLY_STRING || t->len >= sizeof s->trust ||
        held->type != REDIS_REPLY_INTEGER)
        return;
    if (!held->integer || !s->owned.buckets) {
        /* the trusted token was gone: a match of the worker moved (or the key expired), so
         * every match is fenced again once before its commits are trusted */
        dh_table_free(&s->owned, NULL);
        if (dh_table_init(&s->owned) < 0) {
            s->trust[0] = '\0';
            return;
        }
    } /* else a new token for the same trust (the batch fenced a match): the table holds */
    memcpy(s->trust, t->str, t->len + 1);
    for (size_t k = 0; k < s->nbatched; k++) {
        const store_batched *m = &s->bmeta[k];
        const redisReply *e = r->element[k];
        /* a commit that succeeded was the worker's under the token (the script read it in
         * the same step); a fenced, failed or finishing one is trusted no more */
        if (e->type == REDIS_REPLY_INTEGER && !m->finish && m->epoch &&
            (uintptr_t)m->epoch == m->epoch) {
            if (dh_table_set(&s->owned, m->match_id, (void *)(uintptr_t)m->epoch) < 0)
                dh_table_del(&s->owned, m->match_id);
        } else {
            dh_table_del(&s->owned, m->match_id);
        }
    }
}
