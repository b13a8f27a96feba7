/*
 * dh_redis_sub.c: a pub/sub channel followed from the caller's loop (see dh_redis_sub.h).
 * It stands on dh_redis_node.c's dh_redis_open, the way every connection of the Redis
 * layer is opened (AUTH, SELECT, timeouts).
 */
#include "dh_redis_sub.h"

#include <stdio.h>
#include <string.h>

#include "dh_log.h"
#include "dh_redis_int.h"

#define DH_REDIS_SUB_BACKOFF_MIN 100
#define DH_REDIS_SUB_BACKOFF_MAX 2000

int dh_redis_sub_init(dh_redis_sub *s, const char *url, int timeout_ms, const char *channel)
{
    memset(s, 0, sizeof *s);
    if (strlen(channel) >= sizeof s->channel || dh_redis_init(&s->r, url, timeout_ms) < 0)
        return -1;
    snprintf(s->channel, sizeof s->channel, "%s", channel);
    s->backoff_ms = DH_REDIS_SUB_BACKOFF_MIN;
    return 0;
}

static void dh_redis_sub_drop(dh_redis_sub *s, uint64_t now_ms)
{
    if (s->ctx)
        redisFree(s->ctx);
    s->ctx = NULL;
    s->retry_at_ms = now_ms + s->backoff_ms;
    s->backoff_ms =
        s->backoff_ms * 2 > DH_REDIS_SUB_BACKOFF_MAX ? DH_REDIS_SUB_BACKOFF_MAX : s->backoff_ms * 2;
    s->seed = (s->seed + 1) % s->r.addr.nseeds;
}

int dh_redis_sub_tick(dh_redis_sub *s, uint64_t now_ms)
{
    if (s->ctx || now_ms < s->retry_at_ms)
        return 0;
    /* a Cluster's seeds in turn (one Redis: its only one; a parsed URL has at least one) */
    const dh_redis_hostport *at = &s->r.addr.seeds[s->seed % s->r.addr.nseeds];
    s->ctx = dh_redis_open(&s->r, at);
    if (!s->ctx) {
        s->r.down_logged = 1; /* dh_redis_open logs the first failure of an outage only */
        dh_redis_sub_drop(s, now_ms);
        return -1;
    }
    const char *argv[] = {"SUBSCRIBE", s->channel};
    redisReply *rep = redisCommandArgv(s->ctx, 2, argv, NULL);
    bool ok = rep && rep->type == REDIS_REPLY_ARRAY;
    if (!ok)
        dh_warn("redis SUBSCRIBE %s at %s:%d failed: %s", s->channel, at->host, at->port,
                rep && rep->type == REDIS_REPLY_ERROR ? rep->str : s->ctx->errstr);
    if (rep)
        freeReplyObject(rep);
    if (!ok) {
        dh_redis_sub_drop(s, now_ms);
        return -1;
    }
    if (s->r.down_logged)
        dh_info("redis %s:%d: subscribed to %s again", at->host, at->port, s->channel);
    s->r.down_logged = 0;
    s->backoff_ms = DH_REDIS_SUB_BACKOFF_MIN;
    return 1;
}

int dh_redis_sub_fd(const dh_redis_sub *s)
{
    return s->ctx ? s->ctx->fd : -1;
}

/* Whether rep is a message published on the channel: ["message", channel, payload]. */
static bool dh_redis_sub_is_message(const redisReply *rep)
{
    return rep->type == REDIS_REPLY_ARRAY && rep->elements == 3 &&
           rep->element[0]->type == REDIS_REPLY_STRING && !strcmp(rep->element[0]->str, "message");
}

int dh_redis_sub_read(dh_redis_sub *s, uint64_t now_ms)
{
    if (!s->ctx)
        return 0;
    if (redisBufferRead(s->ctx) != REDIS_OK) {
        dh_warn("redis subscription to %s lost: %s", s->channel, s->ctx->errstr);
        s->r.down_logged = 1;
        dh_redis_sub_drop(s, now_ms);
        return -1;
    }
    int n = 0;
    for (;;) {
        void *rep = NULL;
        if (redisGetReplyFromReader(s->ctx, &rep) != REDIS_OK) {
            dh_warn("redis subscription to %s: bad reply: %s", s->channel, s->ctx->errstr);
            dh_redis_sub_drop(s, now_ms);
            return -1;
        }
        if (!rep)
            break;
        n += dh_redis_sub_is_message(rep);
        freeReplyObject(rep);
    }
    s->messages += (uint64_t)n;
    return n;
}

void dh_redis_sub_close(dh_redis_sub *s)
{
    if (s->ctx)
        redisFree(s->ctx);
    s->ctx = NULL;
}
