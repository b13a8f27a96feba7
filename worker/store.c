/*
 * store.c: the worker's Redis writes and reads (see store.h).
 */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"

#define STORE_KEY_MAX 320

int store_init(store *s, const char *url, int timeout_ms)
{
    memset(s, 0, sizeof *s);
    return dh_redis_init(&s->redis, url, timeout_ms);
}

void store_close(store *s)
{
    dh_redis_close(&s->redis);
    free(s->ops);
    s->ops = NULL;
    s->nops = s->capops = 0;
}

static void store_key(char *buf, const char *match_id, const char *suffix)
{
    snprintf(buf, STORE_KEY_MAX, "match:{%s}%s", match_id, suffix);
}

int store_op(store *s, uint64_t now_ms)
{
    if (!dh_redis_get(&s->redis, now_ms))
        return -1;
    if (s->nops == s->capops) {
        size_t cap = s->capops ? s->capops * 2 : 64;
        store_op_state *ops = realloc(s->ops, cap * sizeof *ops);
        if (!ops)
            return -1;
        s->ops = ops;
        s->capops = cap;
    }
    s->ops[s->nops] = (store_op_state){.commands = 0, .ok = true};
    return (int)s->nops++;
}

/* Append one command to the newest op. */
static int store_cmd(store *s, int argc, const char **argv, const size_t *lens)
{
    if (!s->nops || !s->redis.ctx)
        return -1;
    if (redisAppendCommandArgv(s->redis.ctx, argc, argv, lens) != REDIS_OK) {
        s->broken = true;
        return -1;
    }
    s->ops[s->nops - 1].commands++;
    return 0;
}

int store_put_meta(store *s, const store_meta *m)
{
    char key[STORE_KEY_MAX], seed[24], created[24];
    store_key(key, m->match_id, "");
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
    snprintf(created, sizeof created, "%llu", (unsigned long long)m->created_ms);
    const char *argv[] = {"HSET",        key,          "game",    m->game,    "bundle",
                          m->bundle,     "worker",     m->worker, "status",   "running",
                          "seed",        seed,         "players", m->players, "player_ids",
                          m->player_ids, "created_ms", created};
    return store_cmd(s, (int)(sizeof argv / sizeof *argv), argv, NULL);
}

int store_put_snapshot(store *s, const char *match_id, const uint8_t *snap, size_t len)
{
    char key[STORE_KEY_MAX], log[STORE_KEY_MAX];
    store_key(key, match_id, ":snap");
    store_key(log, match_id, ":log");
    const char *multi[] = {"MULTI"}, *exec[] = {"EXEC"};
    const char *set[] = {"SET", key, (const char *)snap};
    size_t setlen[] = {3, strlen(key), len};
    const char *del[] = {"DEL", log};
    if (store_cmd(s, 1, multi, NULL) < 0 || store_cmd(s, 3, set, setlen) < 0 ||
        store_cmd(s, 2, del, NULL) < 0 || store_cmd(s, 1, exec, NULL) < 0)
        return -1;
    return 0;
}

int store_append_log(store *s, const char *match_id, const uint8_t *entry, size_t len)
{
    char key[STORE_KEY_MAX];
    store_key(key, match_id, ":log");
    const char *argv[] = {"RPUSH", key, (const char *)entry};
    size_t lens[] = {5, strlen(key), len};
    return store_cmd(s, 3, argv, lens);
}

int store_finish(store *s, const char *match_id, uint64_t ended_ms, const char *result_json)
{
    char key[STORE_KEY_MAX], ended[24];
    store_key(key, match_id, "");
    snprintf(ended, sizeof ended, "%llu", (unsigned long long)ended_ms);
    const char *hset[] = {"HSET",     key,   "status", "finished",
                          "ended_ms", ended, "result", result_json};
    const char *lpush[] = {"LPUSH", "matches:finished", match_id};
    if (store_cmd(s, 8, hset, NULL) < 0 || store_cmd(s, 3, lpush, NULL) < 0)
        return -1;
    return 0;
}

int store_lease(store *s, const char *worker_id, const char *endpoint, unsigned ttl_ms)
{
    char key[STORE_KEY_MAX], ttl[16];
    snprintf(key, sizeof key, "worker:{%s}", worker_id);
    snprintf(ttl, sizeof ttl, "%u", ttl_ms);
    const char *argv[] = {"SET", key, endpoint, "PX", ttl};
    return store_cmd(s, 5, argv, NULL);
}

int store_move_bundle(store *s, const char *match_id, const char *bundle, const char *note)
{
    char key[STORE_KEY_MAX], list[STORE_KEY_MAX];
    store_key(key, match_id, "");
    store_key(list, match_id, ":bundles");
    const char *hset[] = {"HSET", key, "bundle", bundle};
    const char *rpush[] = {"RPUSH", list, note};
    if (store_cmd(s, 4, hset, NULL) < 0 || store_cmd(s, 3, rpush, NULL) < 0)
        return -1;
    return 0;
}

/* True when a reply reports success (an EXEC also needs every queued command to have
 * succeeded). */
static bool store_reply_ok(const redisReply *r)
{
    if (!r || r->type == REDIS_REPLY_ERROR || r->type == REDIS_REPLY_NIL)
        return false;
    if (r->type == REDIS_REPLY_ARRAY)
        for (size_t i = 0; i < r->elements; i++)
            if (!store_reply_ok(r->element[i]))
                return false;
    return true;
}

void store_flush(store *s, uint64_t now_ms)
{
    redisContext *c = s->redis.ctx;
    size_t i = 0;
    if (!c || s->broken)
        goto err;
    for (; i < s->nops; i++) {
        store_op_state *op = &s->ops[i];
        for (unsigned k = 0; k < op->commands; k++) {
            redisReply *r = NULL;
            if (redisGetReply(c, (void **)&r) != REDIS_OK)
                goto err;
            if (!store_reply_ok(r)) {
                if (op->ok)
                    dh_warn("redis refused a write: %s",
                            r && r->type == REDIS_REPLY_ERROR ? r->str : "(nil)");
                op->ok = false;
            }
            freeReplyObject(r);
        }
    }
    return;
err:
    for (; i < s->nops; i++)
        s->ops[i].ok = false;
    s->broken = false;
    dh_redis_fail(&s->redis, now_ms);
}

bool store_ok(const store *s, int op)
{
    return op >= 0 && (size_t)op < s->nops && s->ops[op].ok;
}

size_t store_pending(const store *s)
{
    return s->nops;
}

void store_next(store *s)
{
    s->nops = 0;
}

/* Run one read command; NULL when Redis is down or the connection broke. */
static redisReply *store_read(store *s, int argc, const char **argv, uint64_t now_ms)
{
    redisContext *c = dh_redis_get(&s->redis, now_ms);
    if (!c)
        return NULL;
    redisReply *r = redisCommandArgv(c, argc, argv, NULL);
    if (!r)
        dh_redis_fail(&s->redis, now_ms);
    return r;
}

char *store_get_field(store *s, const char *match_id, const char *field, uint64_t now_ms)
{
    char key[STORE_KEY_MAX];
    store_key(key, match_id, "");
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

int store_get_snapshot(store *s, const char *match_id, uint8_t **out, size_t *len, uint64_t now_ms)
{
    char key[STORE_KEY_MAX];
    store_key(key, match_id, ":snap");
    const char *argv[] = {"GET", key};
    redisReply *r = store_read(s, 2, argv, now_ms);
    int rc = -1;
    if (!r)
        return -1;
    if (r->type == REDIS_REPLY_NIL) {
        rc = 0;
    } else if (r->type == REDIS_REPLY_STRING && (*out = store_dup(r->str, r->len))) {
        *len = r->len;
        rc = 1;
    }
    freeReplyObject(r);
    return rc;
}

long store_get_log(store *s, const char *match_id, store_blob **out, uint64_t now_ms)
{
    char key[STORE_KEY_MAX];
    store_key(key, match_id, ":log");
    const char *argv[] = {"LRANGE", key, "0", "-1"};
    redisReply *r = store_read(s, 4, argv, now_ms);
    store_blob *b = NULL;
    size_t i = 0;
    *out = NULL;
    if (!r || r->type != REDIS_REPLY_ARRAY)
        goto err;
    b = calloc(r->elements ? r->elements : 1, sizeof *b);
    if (!b)
        goto err;
    for (; i < r->elements; i++) {
        const redisReply *e = r->element[i];
        if (e->type != REDIS_REPLY_STRING || !(b[i].data = store_dup(e->str, e->len)))
            goto err;
        b[i].len = e->len;
    }
    long n = (long)r->elements;
    freeReplyObject(r);
    *out = b;
    return n;
err:
    store_blobs_free(b, i);
    if (r)
        freeReplyObject(r);
    return -1;
}

void store_blobs_free(store_blob *b, size_t n)
{
    for (size_t i = 0; b && i < n; i++)
        free(b[i].data);
    free(b);
}
