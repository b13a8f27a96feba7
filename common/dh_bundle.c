/*
 * dh_bundle.c: reading and writing script bundles in Redis (see dh_bundle.h).
 */
#include "dh_bundle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"

static int is_file_field(const char *s, size_t len)
{
    return len > 4 && !memcmp(s + len - 4, ".lua", 4);
}

void dh_bundle_files_free(dh_bundle_file *f, size_t n)
{
    for (size_t i = 0; f && i < n; i++) {
        free((char *)f[i].path); /* owned by the array (dh_bundle.h) */
        free((char *)f[i].data);
    }
    free(f);
}

int dh_bundle_fetch(dh_redis *rd, const char *sha, dh_bundle_file **out, size_t *n)
{
    char key[DH_KEY_MAX];
    dh_key_bundle(key, sha);
    const char *argv[] = {"HGETALL", key};
    redisReply *r = dh_redis_command(rd, dh_now_ms(), 2, argv, NULL);
    dh_bundle_file *f = NULL;
    size_t k = 0;
    *out = NULL;
    *n = 0;
    if (!r || r->type != REDIS_REPLY_ARRAY)
        goto err;
    if (r->elements == 0) {
        freeReplyObject(r);
        return 0;
    }
    f = calloc(r->elements / 2 + 1, sizeof *f);
    if (!f)
        goto err;
    for (size_t i = 0; i + 1 < r->elements; i += 2) {
        const redisReply *name = r->element[i], *val = r->element[i + 1];
        if (name->type != REDIS_REPLY_STRING || val->type != REDIS_REPLY_STRING ||
            !is_file_field(name->str, name->len))
            continue;
        char *data = malloc(val->len ? val->len : 1);
        f[k].path = strndup(name->str, name->len);
        f[k].data = data;
        if (!f[k].path || !data) {
            k++;
            goto err;
        }
        memcpy(data, val->str, val->len);
        f[k].len = val->len;
        k++;
    }
    freeReplyObject(r);
    *out = f;
    *n = k;
    return 1;
err:
    dh_bundle_files_free(f, k);
    if (r)
        freeReplyObject(r);
    return -1;
}

/* Runs one command and checks its reply is not an error. */
static int run(dh_redis *rd, int argc, const char **argv, const size_t *lens)
{
    redisReply *r = dh_redis_command(rd, dh_now_ms(), argc, argv, lens);
    int ok = r && r->type != REDIS_REPLY_ERROR;
    if (r && r->type == REDIS_REPLY_ARRAY)
        for (size_t i = 0; i < r->elements; i++)
            ok = ok && r->element[i]->type != REDIS_REPLY_ERROR;
    if (r)
        freeReplyObject(r);
    return ok ? 0 : -1;
}

int dh_bundle_store(dh_redis *rd, const char *sha, const dh_bundle_file *files, size_t n,
                    const dh_bundle_meta *meta)
{
    char key[DH_KEY_MAX], compat[4], created[24];
    size_t argc = 2 + 2 * n + 8;
    const char **argv = calloc(argc, sizeof *argv);
    size_t *lens = calloc(argc, sizeof *lens);
    int rc = -1;
    if (!argv || !lens)
        goto out;
    dh_key_bundle(key, sha);
    snprintf(compat, sizeof compat, "%d", meta->compatible ? 1 : 0);
    snprintf(created, sizeof created, "%llu", (unsigned long long)meta->created_ms);
    size_t a = 0;
#define ARG(s, l) (argv[a] = (s), lens[a] = (l), a++)
    ARG("HSET", 4);
    ARG(key, strlen(key));
    for (size_t i = 0; i < n; i++) {
        ARG(files[i].path, strlen(files[i].path));
        ARG(files[i].data, files[i].len);
    }
#define ARGS(s) ARG((s), strlen(s))
    ARGS(DH_F_BUNDLE_LABEL);
    ARG(meta->label ? meta->label : "", strlen(meta->label ? meta->label : ""));
    ARGS(DH_F_BUNDLE_GAMES);
    ARG(meta->games ? meta->games : "", strlen(meta->games ? meta->games : ""));
    ARGS(DH_F_BUNDLE_COMPATIBLE);
    ARG(compat, strlen(compat));
    ARGS(DH_F_BUNDLE_CREATED_MS);
    ARG(created, strlen(created));
#undef ARGS
#undef ARG
    /* the bundle, then the index (another slot of a Redis Cluster): a bundle whose SADD
     * failed is stored again by the next push, which writes the same content */
    const char *sadd[] = {"SADD", DH_KEY_BUNDLES, sha};
    if (run(rd, (int)a, argv, lens) < 0)
        goto out;
    rc = run(rd, 3, sadd, NULL);
out:
    free(argv);
    free(lens);
    return rc;
}

bool dh_bundle_canary_takes(const char *match_id, int pct)
{
    uint64_t h = 14695981039346656037ULL; /* FNV-1a 64: offset basis, then prime */
    for (const unsigned char *p = (const unsigned char *)match_id; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return (int)(h % 100) < pct;
}

static void tests_field(char *field, size_t len, const char *game)
{
    snprintf(field, len, "%s%s", DH_F_BUNDLE_TESTS_PREFIX, game);
}

int dh_bundle_tests(dh_redis *rd, const char *sha, const char *game)
{
    char key[DH_KEY_MAX], field[96];
    dh_key_bundle(key, sha);
    tests_field(field, sizeof field, game);
    const char *argv[] = {"HGET", key, field};
    redisReply *r = dh_redis_command(rd, dh_now_ms(), 3, argv, NULL);
    int n = -2;
    if (r && r->type == REDIS_REPLY_NIL)
        n = -1;
    else if (r && r->type == REDIS_REPLY_STRING)
        n = atoi(r->str);
    if (r)
        freeReplyObject(r);
    return n;
}

int dh_bundle_tests_set(dh_redis *rd, const char *sha, const char *game, int n)
{
    char key[DH_KEY_MAX], field[96], val[16];
    dh_key_bundle(key, sha);
    tests_field(field, sizeof field, game);
    snprintf(val, sizeof val, "%d", n);
    const char *argv[] = {"HSET", key, field, val};
    return run(rd, 4, argv, NULL);
}
