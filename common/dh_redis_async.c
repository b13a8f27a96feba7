/*
 * dh_redis_async.c: see dh_redis_async.h. The top floor of the Redis layer
 * (dh_redis_int.h): the slot map is a dh_redis used only to read it (its own connections
 * are closed after each read), and redirects are followed on it by dh_redis_redirect,
 * the one router the synchronous commands use too.
 *
 * Commands carry a small wrapper (the formatted command, its slot, the caller's callback)
 * so that a redirect can send them again; the wrapper is freed when the caller's callback
 * has run.
 */
#include "dh_redis_async.h"

#include <hiredis/async.h>
#include <stdlib.h>
#include <string.h>

#include "dh_redis_int.h"

#define ASYNC_RETRY_MS 1000 /* between connection attempts to one node, or map reads */

struct dh_redis_async {
    dh_redis map;
    dh_redis_async_hooks hooks;
    redisAsyncContext *ac[DH_REDIS_NODES]; /* by the map's node index */
    uint64_t retry_at[DH_REDIS_NODES];
    uint64_t map_retry_at;
};

typedef struct {
    dh_redis_async *a;
    dh_redis_async_fn *fn;
    void *priv;
    char *raw;
    size_t len;
    int slot, hops;
} async_req;

dh_redis_async *dh_redis_async_new(const char *url, const dh_redis_async_hooks *hooks)
{
    dh_redis_async *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    if (dh_redis_init(&a->map, url, 500) < 0) {
        free(a);
        return NULL;
    }
    a->hooks = *hooks;
    return a;
}

/* Read the slot map again, keeping the connections to nodes that are still masters. */
static void async_refresh(dh_redis_async *a, uint64_t now)
{
    if (now < a->map_retry_at)
        return;
    dh_redis_hostport old[DH_REDIS_NODES];
    redisAsyncContext *ac[DH_REDIS_NODES];
    size_t nold = a->map.nnodes;
    for (size_t i = 0; i < nold; i++)
        old[i] = a->map.nodes[i].at;
    memcpy(ac, a->ac, sizeof ac);
    if (dh_redis_refresh(&a->map) < 0) {
        a->map_retry_at = now + ASYNC_RETRY_MS;
        return;
    }
    dh_redis_close(&a->map); /* the map's own connections are not used for commands */
    a->map.stale = false;
    memset(a->ac, 0, sizeof a->ac);
    for (size_t i = 0; i < nold; i++) {
        if (!ac[i])
            continue;
        int k = dh_redis_node_find(&a->map, old[i].host, old[i].port);
        if (k >= 0)
            a->ac[k] = ac[i];
        else
            redisAsyncFree(ac[i]); /* no longer a master: its commands fail (NULL reply) */
    }
}

/* The connection of node i, made now if needed; NULL when down. */
static redisAsyncContext *async_node(dh_redis_async *a, int i, uint64_t now)
{
    if (i < 0 || (size_t)i >= a->map.nnodes)
        return NULL;
    if (!a->ac[i] && now >= a->retry_at[i]) {
        a->retry_at[i] = now + ASYNC_RETRY_MS;
        a->ac[i] = a->hooks.open(a->hooks.ud, a->map.nodes[i].at.host, a->map.nodes[i].at.port);
    }
    return a->ac[i];
}

/* The connection serving slot (-1: any master). */
static redisAsyncContext *async_route(dh_redis_async *a, int slot)
{
    uint64_t now = a->hooks.now_ms(a->hooks.ud);
    if (a->map.stale || !a->map.nnodes)
        async_refresh(a, now);
    if (!a->map.nnodes)
        return NULL;
    return async_node(a, slot >= 0 ? a->map.slot_node[slot] : 0, now);
}

static void async_req_free(async_req *q)
{
    redisFreeCommand(q->raw);
    free(q);
}

static int async_send_req(async_req *q, redisAsyncContext *ac, bool asking);

static void async_on_reply(redisAsyncContext *ac, void *reply, void *priv)
{
    async_req *q = priv;
    redisReply *rep = reply;
    dh_redirect to = {.kind = DH_REDIRECT_NONE};
    int i = rep && q->hops < DH_REDIS_ASYNC_HOPS ? dh_redis_redirect(&q->a->map, rep, &to) : -1;
    if (to.kind != DH_REDIRECT_NONE) {
        redisAsyncContext *next = async_node(q->a, i, q->a->hooks.now_ms(q->a->hooks.ud));
        q->hops++;
        if (next && async_send_req(q, next, to.kind == DH_REDIRECT_ASK) == 0)
            return;
        reply = NULL; /* could not follow: the caller sees a failure */
    }
    q->fn(ac, reply, q->priv);
    async_req_free(q);
}

static int async_send_req(async_req *q, redisAsyncContext *ac, bool asking)
{
    if (asking && redisAsyncCommand(ac, NULL, NULL, "ASKING") != REDIS_OK)
        return -1;
    return redisAsyncFormattedCommand(ac, async_on_reply, q, q->raw, q->len) == REDIS_OK ? 0 : -1;
}

int dh_redis_async_send(dh_redis_async *a, dh_redis_async_fn *fn, void *priv, int argc,
                        const char **argv, const size_t *lens)
{
    async_req *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    int len = redisFormatCommandArgv(&q->raw, argc, argv, lens);
    if (len < 0) {
        free(q);
        return -1;
    }
    *q = (async_req){.a = a,
                     .fn = fn,
                     .priv = priv,
                     .raw = q->raw,
                     .len = (size_t)len,
                     .slot = dh_slot_of_command(argc, argv, lens)};
    redisAsyncContext *ac = async_route(a, q->slot);
    if (!ac || async_send_req(q, ac, false) < 0) {
        async_req_free(q);
        return -1;
    }
    return 0;
}

void dh_redis_async_forget(dh_redis_async *a, const redisAsyncContext *ac)
{
    for (size_t i = 0; i < DH_REDIS_NODES; i++)
        if (a->ac[i] == ac)
            a->ac[i] = NULL;
}

void dh_redis_async_stale(dh_redis_async *a)
{
    a->map.stale = true;
}

void dh_redis_async_drop(dh_redis_async *a)
{
    for (size_t i = 0; i < DH_REDIS_NODES; i++) {
        redisAsyncContext *ac = a->ac[i];
        a->ac[i] = NULL;
        if (ac)
            redisAsyncFree(ac); /* the waiting commands fail now */
    }
    a->map.stale = true;
}

bool dh_redis_async_any(const dh_redis_async *a)
{
    for (size_t i = 0; i < DH_REDIS_NODES; i++)
        if (a->ac[i])
            return true;
    return false;
}

void dh_redis_async_free(dh_redis_async *a)
{
    if (!a)
        return;
    dh_redis_async_drop(a);
    dh_redis_close(&a->map);
    free(a);
}
