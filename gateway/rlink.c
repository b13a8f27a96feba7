/*
 * rlink.c: see rlink.h.
 *
 * A connection that fails is forgotten in its callbacks (hiredis frees it after them).
 * What is the gateway's own: the libuv loop connections are attached to, the one-Redis
 * connection, and the logs; a cluster's routing (slot map, MOVED, ASK) is
 * common/dh_redis_async.c, on the same router as the synchronous processes'.
 */
#include "rlink.h"

#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_redis.h"
#include "dh_redis_async.h"

#define RLINK_RETRY_MS 1000

/* Forget ac wherever it is kept. */
static void rlink_forget(gw *g, const redisAsyncContext *ac)
{
    if (g->redis == ac)
        g->redis = NULL;
    if (g->redis_nodes)
        dh_redis_async_forget(g->redis_nodes, ac);
}

static void rlink_on_connect(const redisAsyncContext *ac, int status)
{
    gw *g = ac->data;
    if (status != REDIS_OK) {
        dh_warn("redis %s unreachable: %s", g->redis_url, ac->errstr);
        rlink_forget(g, ac); /* hiredis frees the context after this callback */
        return;
    }
    g->redis_progress_at = uv_now(g->loop);
}

static void rlink_on_disconnect(const redisAsyncContext *ac, int status)
{
    gw *g = ac->data;
    if (status != REDIS_OK)
        dh_warn("redis %s disconnected: %s", g->redis_url, ac->errstr);
    rlink_forget(g, ac);
    if (g->redis_nodes)
        dh_redis_async_stale(g->redis_nodes);
}

/* A new connection to host:port, AUTH (and SELECT) queued first; NULL on failure. */
static redisAsyncContext *rlink_open(gw *g, const char *host, int port)
{
    redisAsyncContext *ac = redisAsyncConnect(host, port);
    if (!ac)
        return NULL;
    if (ac->err) {
        dh_warn("redis %s:%d: %s", host, port, ac->errstr);
        redisAsyncFree(ac);
        return NULL;
    }
    ac->data = g;
    if (redisLibuvAttach(ac, g->loop) != REDIS_OK) {
        redisAsyncFree(ac);
        return NULL;
    }
    redisAsyncSetConnectCallback(ac, rlink_on_connect);
    redisAsyncSetDisconnectCallback(ac, rlink_on_disconnect);
    const char *auth[3];
    int argc = dh_redis_auth_argv(&g->redis_addr, auth);
    if (argc)
        redisAsyncCommandArgv(ac, NULL, NULL, argc, auth, NULL);
    if (g->redis_addr.db)
        redisAsyncCommand(ac, NULL, NULL, "SELECT %d", g->redis_addr.db);
    return ac;
}

/* dh_redis_async's hooks: the gateway's loop and clock. */
static redisAsyncContext *rlink_open_hook(void *ud, const char *host, int port)
{
    return rlink_open(ud, host, port);
}

static uint64_t rlink_now_hook(void *ud)
{
    gw *g = ud;
    return uv_now(g->loop);
}

int rlink_init(gw *g)
{
    if (!g->redis_addr.cluster)
        return 0;
    dh_redis_async_hooks hooks = {.open = rlink_open_hook, .now_ms = rlink_now_hook, .ud = g};
    g->redis_nodes = dh_redis_async_new(g->redis_url, &hooks);
    return g->redis_nodes ? 0 : -1;
}

/* The one Redis's connection, made now if needed; NULL when down. */
static redisAsyncContext *rlink_single(gw *g)
{
    if (g->redis)
        return g->redis;
    uint64_t now = uv_now(g->loop);
    if (g->stopping || (g->redis_retry_at && now < g->redis_retry_at))
        return NULL;
    g->redis_retry_at = now + RLINK_RETRY_MS;
    g->redis = rlink_open(g, g->redis_addr.host, g->redis_addr.port);
    return g->redis;
}

int rlink_send(gw *g, rlink_fn *fn, void *priv, int argc, const char **argv, const size_t *lens)
{
    if (g->stopping)
        return -1;
    if (g->redis_nodes)
        return dh_redis_async_send(g->redis_nodes, fn, priv, argc, argv, lens);
    redisAsyncContext *ac = rlink_single(g);
    return ac && redisAsyncCommandArgv(ac, fn, priv, argc, argv, lens) == REDIS_OK ? 0 : -1;
}

void rlink_drop(gw *g)
{
    redisAsyncContext *ac = g->redis;
    g->redis = NULL;
    if (ac)
        redisAsyncFree(ac); /* the waiting commands fail now */
    if (g->redis_nodes)
        dh_redis_async_drop(g->redis_nodes);
}

bool rlink_any(const gw *g)
{
    return g->redis || (g->redis_nodes && dh_redis_async_any(g->redis_nodes));
}

void rlink_stop(gw *g)
{
    rlink_drop(g);
    dh_redis_async_free(g->redis_nodes);
    g->redis_nodes = NULL;
}
