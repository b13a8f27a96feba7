/*
 * store_read.c: the store's reads (see store.h): what an adopting worker reads of a match
 * (one by one, or a whole batch of matches in one pipelined round trip), whether hosted
 * matches are still ours, the adopt set. Apart from store.c, the write batch, which they
 * share a connection with: a read runs between batches.
 */
#include "store.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_keys.h"
#include "dh_replay.h"
#include "dh_snapz.h"

/* Run one read command; NULL when Redis is down or the connection broke. */
static redisReply *store_read(store *s, int argc, const char **argv, uint64_t now_ms)
{
    uint64_t start_ns = dh_now_ns();
    redisReply *r = dh_redis_command(&s->redis, now_ms, argc, argv, NULL);
    s->up = r != NULL;
    if (r && s->round_trips)
        dh_histogram_since(s->round_trips, start_ns);
    return r;
}

/* store_read for n commands in one pipeline: 0, or -1 when Redis is down (out all NULL). */
static int store_read_pipeline(store *s, const dh_redis_cmd *cmds, size_t n, redisReply **out,
                               uint64_t now_ms)
{
    uint64_t start_ns = dh_now_ns();
    s->up = dh_redis_pipeline(&s->redis, now_ms, cmds, n, out) == 0;
    if (s->up && s->round_trips)
        dh_histogram_since(s->round_trips, start_ns);
    return s->up ? 0 : -1;
}

int store_owned(store *s, const char *worker, const char *const *ids, const uint64_t *epochs,
                size_t n, int *owned, uint64_t now_ms)
{
    if (!n)
        return 0;
    char(*keys)[DH_KEY_MAX] = calloc(n, sizeof *keys);
    const char *(*argv)[4] = calloc(n, sizeof *argv);
    dh_redis_cmd *cmds = calloc(n, sizeof *cmds);
    redisReply **out = calloc(n, sizeof *out);
    int rc = -1;
    if (!keys || !argv || !cmds || !out)
        goto done;
    for (size_t i = 0; i < n; i++) {
        argv[i][0] = "HMGET";
        argv[i][1] = dh_key_match(keys[i], ids[i]);
        argv[i][2] = DH_F_WORKER;
        argv[i][3] = DH_F_EPOCH;
        cmds[i] = (dh_redis_cmd){.argc = 4, .argv = argv[i]};
    }
    if (store_read_pipeline(s, cmds, n, out, now_ms) < 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const redisReply *r = out[i];
        if (r->type == REDIS_REPLY_ARRAY && r->elements == 2) {
            const redisReply *w = r->element[0], *e = r->element[1];
            owned[i] = w->type == REDIS_REPLY_STRING && !strcmp(w->str, worker) &&
                       e->type == REDIS_REPLY_STRING && strtoull(e->str, NULL, 10) == epochs[i];
        } else {
            owned[i] = 1; /* an error reply tells nothing: the match stays */
        }
        freeReplyObject(out[i]);
    }
    rc = 0;
done:
    free(keys);
    free(argv);
    free(cmds);
    free(out);
    return rc;
}

char *store_get_field(store *s, const char *match_id, const char *field, uint64_t now_ms)
{
    char key[DH_KEY_MAX];
    dh_key_match(key, match_id);
    const char *argv[] = {"HGET", key, field};
    redisReply *r = store_read(s, 3, argv, now_ms);
    char *v = NULL;
    if (r && r->type == REDIS_REPLY_STRING)
        v = strndup(r->str, r->len);
    if (r)
        freeReplyObject(r);
    return v;
}

static uint8_t *store_dup(const char *p, size_t len)
{
    uint8_t *d = malloc(len ? len : 1);
    if (d)
        memcpy(d, p, len);
    return d;
}

/* A snapshot's reply: 1 (*out, caller frees), 0 missing, -1 unreadable. */
static int store_parse_snapshot(const redisReply *r, uint8_t **out, size_t *len)
{
    if (r->type == REDIS_REPLY_NIL)
        return 0;
    if (r->type == REDIS_REPLY_STRING &&
        dh_snapz_unpack((const uint8_t *)r->str, r->len, out, len) == 0)
        return 1;
    return -1;
}

int store_get_snapshot(store *s, const char *match_id, uint8_t **out, size_t *len, uint64_t now_ms)
{
    char key[DH_KEY_MAX];
    dh_key_match_snap(key, match_id);
    const char *argv[] = {"GET", key};
    redisReply *r = store_read(s, 2, argv, now_ms);
    if (!r)
        return -1;
    int rc = store_parse_snapshot(r, out, len);
    freeReplyObject(r);
    return rc;
}

/* A log's reply (LRANGE): its entries (*out, store_blobs_free) and their count, or -1. */
static long store_parse_log(const redisReply *r, store_blob **out)
{
    store_blob *b = NULL;
    size_t i = 0;
    *out = NULL;
    if (r->type != REDIS_REPLY_ARRAY || !(b = calloc(r->elements ? r->elements : 1, sizeof *b)))
        return -1;
    for (; i < r->elements; i++) {
        const redisReply *e = r->element[i];
        if (e->type != REDIS_REPLY_STRING || !(b[i].data = store_dup(e->str, e->len))) {
            store_blobs_free(b, i);
            return -1;
        }
        b[i].len = e->len;
    }
    *out = b;
    return (long)r->elements;
}

/* The LRANGE of the history from index at into argv (from: at in decimal, 24 bytes). */
static void store_tail_cmd(const char *match_id, uint64_t at, char *key, char *from,
                           const char *argv[4])
{
    snprintf(from, 24, "%llu", (unsigned long long)at);
    argv[0] = "LRANGE";
    argv[1] = dh_key_match_history(key, match_id);
    argv[2] = from;
    argv[3] = "-1";
}

long store_get_log(store *s, const char *match_id, store_blob **out, uint64_t now_ms)
{
    char key[DH_KEY_MAX], from[24];
    const char *get[] = {"GET", dh_key_match_snap(key, match_id)};
    redisReply *snap = store_read(s, 2, get, now_ms);
    *out = NULL;
    if (!snap)
        return -1;
    uint64_t at;
    int tail = dh_replay_log_start(snap, &at);
    freeReplyObject(snap);
    if (tail < 0)
        return -1;
    const char *argv[] = {"LRANGE", dh_key_match_log(key, match_id), "0", "-1"};
    if (tail) /* the log is the history's tail */
        store_tail_cmd(match_id, at, key, from, argv);
    redisReply *r = store_read(s, 4, argv, now_ms);
    if (!r)
        return -1;
    long n = store_parse_log(r, out);
    freeReplyObject(r);
    return n;
}

void store_blobs_free(store_blob *b, size_t n)
{
    for (size_t i = 0; b && i < n; i++)
        free(b[i].data);
    free(b);
}

static void store_meta_set(store_match *m, const char *f, const char *v, size_t n)
{
    static const struct {
        const char *name;
        size_t off, cap;
    } fields[] = {
#define STORE_FIELD(x, name) {name, offsetof(store_match, x), sizeof(((store_match *)0)->x)}
        STORE_FIELD(game, DH_F_GAME),       STORE_FIELD(bundle, DH_F_BUNDLE),
        STORE_FIELD(worker, DH_F_WORKER),   STORE_FIELD(status, DH_F_STATUS),
        STORE_FIELD(players, DH_F_PLAYERS), STORE_FIELD(player_ids, DH_F_PLAYER_IDS),
        STORE_FIELD(mode, DH_F_MODE),       STORE_FIELD(abandon, DH_F_ABANDON),
        STORE_FIELD(away, DH_F_AWAY),       STORE_FIELD(options, DH_F_OPTIONS),
        STORE_FIELD(bots, DH_F_BOTS),       STORE_FIELD(queue_bot, DH_F_QUEUE_BOT),
        STORE_FIELD(removed, DH_F_REMOVED),
#undef STORE_FIELD
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (!strcmp(f, fields[i].name))
            snprintf((char *)m + fields[i].off, fields[i].cap, "%.*s", (int)n, v);
    if (!strcmp(f, DH_F_EPOCH))
        m->epoch = strtoull(v, NULL, 10);
    else if (!strcmp(f, DH_F_SEED))
        m->seed = strtoull(v, NULL, 10);
    else if (!strcmp(f, DH_F_GRACE_MS))
        m->grace_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(f, DH_F_DECISION_MS))
        m->decision_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(f, DH_F_TURN_MS))
        m->turn_ms = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(f, DH_F_UNRATED))
        m->unrated = n == 1 && v[0] == '1';
    else if (!strcmp(f, DH_F_SCRIPT_FAILURES))
        m->script_failures = (uint32_t)strtoul(v, NULL, 10);
    else if (!strcmp(f, DH_F_STALLED))
        m->stalled = strtoull(v, NULL, 10);
}

/* match:{ID}'s reply (HGETALL) and its history's (LLEN) into out: 1 found, 0 no such
 * match, -1 unreadable. */
static int store_parse_match(const redisReply *r, const redisReply *llen, store_match *out)
{
    memset(out, 0, sizeof *out);
    if (r->type != REDIS_REPLY_ARRAY)
        return -1;
    if (!r->elements)
        return 0;
    for (size_t i = 0; i + 1 < r->elements; i += 2) {
        const redisReply *f = r->element[i], *v = r->element[i + 1];
        if (f->type == REDIS_REPLY_STRING && v->type == REDIS_REPLY_STRING)
            store_meta_set(out, f->str, v->str, v->len);
    }
    if (llen->type != REDIS_REPLY_INTEGER)
        return -1;
    out->history = (uint64_t)llen->integer;
    return 1;
}

int store_get_match(store *s, const char *match_id, store_match *out, uint64_t now_ms)
{
    char key[DH_KEY_MAX], hist[DH_KEY_MAX];
    const char *argv[] = {"HGETALL", dh_key_match(key, match_id)};
    const char *llen[] = {"LLEN", dh_key_match_history(hist, match_id)};
    dh_redis_cmd cmds[] = {{.argc = 2, .argv = argv}, {.argc = 2, .argv = llen}};
    redisReply *r[2] = {NULL, NULL};
    if (store_read_pipeline(s, cmds, 2, r, now_ms) < 0)
        return -1;
    int rc = store_parse_match(r[0], r[1], out);
    freeReplyObject(r[0]);
    freeReplyObject(r[1]);
    return rc;
}

long store_adopt_pop(store *s, const char *worker_id, char ids[][STORE_ID_MAX], size_t max,
                     uint64_t now_ms)
{
    char key[DH_KEY_MAX], count[16];
    dh_key_worker_adopt(key, worker_id);
    snprintf(count, sizeof count, "%zu", max);
    const char *argv[] = {"SPOP", key, count};
    redisReply *r = store_read(s, 3, argv, now_ms);
    if (!r)
        return -1;
    long n = 0;
    if (r->type == REDIS_REPLY_ARRAY)
        for (size_t i = 0; i < r->elements && (size_t)n < max; i++)
            if (r->element[i]->type == REDIS_REPLY_STRING && r->element[i]->len < STORE_ID_MAX)
                snprintf(ids[n++], STORE_ID_MAX, "%s", r->element[i]->str);
    freeReplyObject(r);
    return n;
}

int store_adopt_return(store *s, const char *worker_id, const char *match_id, uint64_t now_ms)
{
    char key[DH_KEY_MAX];
    dh_key_worker_adopt(key, worker_id);
    const char *argv[] = {"SADD", key, match_id};
    redisReply *r = store_read(s, 3, argv, now_ms);
    int rc = r && r->type == REDIS_REPLY_INTEGER ? 0 : -1;
    if (r)
        freeReplyObject(r);
    return rc;
}

void store_match_read_free(store_match_read *m)
{
    free(m->snap);
    store_blobs_free(m->log, m->nlog > 0 ? (size_t)m->nlog : 0);
    m->snap = NULL;
    m->log = NULL;
    m->nlog = -1;
}

/* The four reads of match id (meta, history length, snapshot, log) into cmds, on keys. */
static void store_match_cmds(const char *id, char (*keys)[DH_KEY_MAX], const char *(*argv)[4],
                             dh_redis_cmd *cmds)
{
    argv[0][0] = "HGETALL";
    argv[0][1] = dh_key_match(keys[0], id);
    argv[1][0] = "LLEN";
    argv[1][1] = dh_key_match_history(keys[1], id);
    argv[2][0] = "GET";
    argv[2][1] = dh_key_match_snap(keys[2], id);
    argv[3][0] = "LRANGE";
    argv[3][1] = dh_key_match_log(keys[3], id);
    argv[3][2] = "0";
    argv[3][3] = "-1";
    for (int k = 0; k < 4; k++)
        cmds[k] = (dh_redis_cmd){.argc = k == 3 ? 4 : 2, .argv = argv[k]};
}

/* The second round trip of store_read_matches: the log of each match whose snapshot has
 * the tail head (at[i] its start, UINT64_MAX for the others), read from its history.
 * 0, or -1 when Redis is unreachable (their nlog -1). */
static int store_read_tails(store *s, const char *const *ids, size_t n, const uint64_t *at,
                            store_match_read *out, uint64_t now_ms)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += at[i] != UINT64_MAX;
    if (!k)
        return 0;
    char(*keys)[DH_KEY_MAX] = calloc(k, sizeof *keys);
    char(*from)[24] = calloc(k, sizeof *from);
    const char *(*argv)[4] = calloc(k, sizeof *argv);
    dh_redis_cmd *cmds = calloc(k, sizeof *cmds);
    redisReply **r = calloc(k, sizeof *r);
    int rc = -1;
    if (!keys || !from || !argv || !cmds || !r)
        goto done;
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (at[i] != UINT64_MAX) {
            store_tail_cmd(ids[i], at[i], keys[k], from[k], argv[k]);
            cmds[k] = (dh_redis_cmd){.argc = 4, .argv = argv[k]};
            k++;
        }
    if (store_read_pipeline(s, cmds, k, r, now_ms) < 0)
        goto done;
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (at[i] != UINT64_MAX) {
            out[i].nlog = store_parse_log(r[k], &out[i].log);
            freeReplyObject(r[k++]);
        }
    rc = 0;
done:
    free(keys);
    free(from);
    free(argv);
    free(cmds);
    free(r);
    return rc;
}

int store_read_matches(store *s, const char *const *ids, size_t n, store_match_read *out,
                       uint64_t now_ms)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (store_match_read){.found = -1, .snap_found = -1, .nlog = -1};
    if (!n)
        return 0;
    char(*keys)[DH_KEY_MAX] = calloc(4 * n, sizeof *keys);
    const char *(*argv)[4] = calloc(4 * n, sizeof *argv);
    dh_redis_cmd *cmds = calloc(4 * n, sizeof *cmds);
    redisReply **r = calloc(4 * n, sizeof *r);
    uint64_t *at = calloc(n, sizeof *at);
    int rc = -1;
    if (!keys || !argv || !cmds || !r || !at)
        goto done;
    for (size_t i = 0; i < n; i++)
        store_match_cmds(ids[i], keys + 4 * i, argv + 4 * i, cmds + 4 * i);
    if (store_read_pipeline(s, cmds, 4 * n, r, now_ms) < 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        redisReply **m = r + 4 * i;
        store_match_read *o = &out[i];
        o->found = store_parse_match(m[0], m[1], &o->meta);
        at[i] = UINT64_MAX;
        if (o->found == 1) {
            o->snap_found = store_parse_snapshot(m[2], &o->snap, &o->snap_len);
            int tail = dh_replay_log_start(m[2], &at[i]);
            o->tail = tail > 0;
            if (tail > 0 && at[i] > o->meta.history)
                tail = -1; /* past the history's end: not this match's log */
            if (tail == 0)
                o->nlog = store_parse_log(m[3], &o->log);
            if (tail <= 0) /* the log read here, or none that can be read (nlog -1) */
                at[i] = UINT64_MAX;
        }
        for (int k = 0; k < 4; k++)
            freeReplyObject(m[k]);
    }
    rc = store_read_tails(s, ids, n, at, out, now_ms);
    for (size_t i = 0; rc < 0 && i < n; i++)
        out[i].found = -1; /* Redis went away between the two round trips */
done:
    free(at);
    free(keys);
    free(argv);
    free(cmds);
    free(r);
    return rc;
}

int store_adopt_return_all(store *s, const char *worker_id, const char (*ids)[STORE_ID_MAX],
                           size_t n, uint64_t now_ms)
{
    if (!n)
        return 0;
    char key[DH_KEY_MAX];
    const char **argv = calloc(n + 2, sizeof *argv);
    if (!argv)
        return -1;
    argv[0] = "SADD";
    argv[1] = dh_key_worker_adopt(key, worker_id);
    for (size_t i = 0; i < n; i++)
        argv[i + 2] = ids[i];
    redisReply *r = store_read(s, (int)n + 2, argv, now_ms);
    int rc = r && r->type == REDIS_REPLY_INTEGER ? 0 : -1;
    if (r)
        freeReplyObject(r);
    free(argv);
    return rc;
}
