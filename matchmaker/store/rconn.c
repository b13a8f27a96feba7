/*
 * rconn.c: the matchmaker's Redis connection (see rconn.h).
 */
#include "rconn.h"

#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_log.h"
#include "mm.h"

redisReply *rconn_command_cmd(mm_state *mm, uint64_t now_ms, const rconn_cmd *c)
{
    redisReply *r = NULL;
    if (rconn_pipeline(mm, now_ms, c, 1, &r) < 0)
        return NULL;
    return r;
}

redisReply *rconn_command(mm_state *mm, uint64_t now_ms, int argc, const char **argv)
{
    rconn_cmd c = {.argc = argc, .argv = argv, .lens = NULL, .script = NULL};
    return rconn_command_cmd(mm, now_ms, &c);
}

redisReply *rconn_script(mm_state *mm, uint64_t now_ms, const dh_script *s, int argc,
                         const char **argv)
{
    rconn_cmd c = {.argc = argc, .argv = argv, .lens = NULL, .script = s};
    return rconn_command_cmd(mm, now_ms, &c);
}

int rconn_pipeline(mm_state *mm, uint64_t now_ms, const rconn_cmd *cmds, size_t n, redisReply **out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    if (!mm->redis_on)
        return -1;
    dh_redis_cmd *c = calloc(n ? n : 1, sizeof *c);
    if (!c)
        return -1;
    for (size_t i = 0; i < n; i++)
        c[i] = (dh_redis_cmd){.argc = cmds[i].argc,
                              .argv = cmds[i].argv,
                              .lens = cmds[i].lens,
                              .script = cmds[i].script};
    uint64_t start_ns = dh_now_ns();
    int rc = dh_redis_pipeline(&mm->redis, now_ms, c, n, out);
    if (rc == 0)
        dh_histogram_since(&mm->stats.redis_seconds, start_ns); /* a round trip per pipeline */
    free(c);
    return rc;
}

long rconn_hash_each(mm_state *mm, uint64_t now_ms, const char *key, const char *what,
                     bool (*add)(void *ctx, const uint8_t *value, size_t len), void *ctx)
{
    const char *argv[] = {"HGETALL", key};
    redisReply *r = rconn_command(mm, now_ms, 2, argv);
    if (!r || r->type != REDIS_REPLY_ARRAY) {
        dh_warn("%s records not loaded: %s", what,
                r && r->type == REDIS_REPLY_ERROR ? r->str : "no answer");
        if (r)
            freeReplyObject(r);
        return -1;
    }
    long added = 0;
    for (size_t i = 0; i + 1 < r->elements; i += 2) {
        const redisReply *v = r->element[i + 1];
        if (add(ctx, (const uint8_t *)v->str, v->len))
            added++;
        else
            dh_warn("skipping an unreadable %s record %.16s", what, r->element[i]->str);
    }
    dh_info("%ld %s records loaded", added, what);
    freeReplyObject(r);
    return added;
}

int rconn_hmgets_init(rconn_hmgets *h, size_t cap, int nfields)
{
    size_t room = cap ? cap : 1;
    memset(h, 0, sizeof *h);
    h->cap = cap;
    h->nfields = nfields;
    h->cmds = calloc(room, sizeof *h->cmds);
    h->argv = calloc(room * (size_t)(2 + nfields), sizeof *h->argv);
    h->keys = calloc(room, sizeof *h->keys);
    h->out = calloc(room, sizeof *h->out);
    return h->cmds && h->argv && h->keys && h->out ? 0 : -1;
}

char *rconn_hmgets_key(rconn_hmgets *h)
{
    return h->keys[h->n];
}

void rconn_hmgets_add(rconn_hmgets *h, const char *key, const char *const *fields)
{
    const char **a = h->argv + h->n * (size_t)(2 + h->nfields);
    a[0] = "HMGET";
    a[1] = key;
    for (int f = 0; f < h->nfields; f++)
        a[2 + f] = fields[f];
    h->cmds[h->n++] = (rconn_cmd){.argc = 2 + h->nfields, .argv = a};
}

int rconn_hmgets_run(mm_state *mm, uint64_t now_ms, rconn_hmgets *h)
{
    return h->n ? rconn_pipeline(mm, now_ms, h->cmds, h->n, h->out) : 0;
}

void rconn_hmgets_free(rconn_hmgets *h)
{
    for (size_t i = 0; h->out && i < h->n; i++)
        if (h->out[i])
            freeReplyObject(h->out[i]);
    free(h->cmds);
    free(h->argv);
    free(h->keys);
    free(h->out);
    memset(h, 0, sizeof *h);
}
