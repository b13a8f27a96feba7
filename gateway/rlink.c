/*
 * rlink.c: see rlink.h.
 *
 * A connection that fails is forgotten in its callbacks (hiredis frees it after them).
 * Commands to a cluster carry a small wrapper (the formatted command, its slot, the
 * caller's callback) so that a redirect can send it again; the wrapper is freed when the
 * caller's callback has run.
 */
#include "rlink.h"

#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_redis.h"
#include "dh_slot.h"

#define RLINK_RETRY_MS 1000
#define RLINK_HOPS     5

/* A cluster's state: the slot map (a dh_redis used only to read it) and a connection
 * per master, by the map's node index. */
struct rlink_nodes {
    dh_redis map;
    redisAsyncContext *ac[DH_REDIS_NODES];
    uint64_t retry_at[DH_REDIS_NODES];
    uint64_t map_retry_at;
};

typedef struct {
    gw *g;
    rlink_fn *fn;
    void *priv;
    char *raw;
    size_t len;
    int slot, hops;
} rlink_req;

/* Forget ac wherever it is kept. */
static void rlink_forget(gw *g, const redisAsyncContext *ac)
{
    if (g->redis == ac)
        g->redis = NULL;
    for (size_t i = 0; g->redis_nodes && i < DH_REDIS_NODES; i++)
        if (g->redis_nodes->ac[i] == ac)
            g->redis_nodes->ac[i] = NULL;
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
        g->redis_nodes->map.stale = true;
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

int rlink_init(gw *g)
{
    if (!g->redis_addr.cluster)
        return 0;
    g->redis_nodes = calloc(1, sizeof *g->redis_nodes);
    if (!g->redis_nodes || dh_redis_init(&g->redis_nodes->map, g->redis_url, 500) < 0)
        return -1;
    return 0;
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

/* Read the slot map again, keeping the connections to nodes that are still masters. */
static void rlink_refresh(gw *g, uint64_t now)
{
    struct rlink_nodes *n = g->redis_nodes;
    if (now < n->map_retry_at)
        return;
    dh_redis_hostport old[DH_REDIS_NODES];
    redisAsyncContext *ac[DH_REDIS_NODES];
    size_t nold = n->map.nnodes;
    for (size_t i = 0; i < nold; i++)
        old[i] = n->map.nodes[i].at;
    memcpy(ac, n->ac, sizeof ac);
    if (dh_redis_refresh(&n->map) < 0) {
        n->map_retry_at = now + RLINK_RETRY_MS;
        return;
    }
    dh_redis_close(&n->map); /* the map's own connections are not used for commands */
    n->map.stale = false;
    memset(n->ac, 0, sizeof n->ac);
    for (size_t i = 0; i < nold; i++) {
        if (!ac[i])
            continue;
        int k = -1;
        for (size_t j = 0; j < n->map.nnodes && k < 0; j++)
            if (n->map.nodes[j].at.port == old[i].port &&
                !strcmp(n->map.nodes[j].at.host, old[i].host))
                k = (int)j;
        if (k >= 0)
            n->ac[k] = ac[i];
        else
            redisAsyncFree(ac[i]); /* no longer a master: its commands fail (NULL reply) */
    }
}

/* The connection of node i, made now if needed; NULL when down. */
static redisAsyncContext *rlink_node(gw *g, int i, uint64_t now)
{
    struct rlink_nodes *n = g->redis_nodes;
    if (i < 0 || (size_t)i >= n->map.nnodes)
        return NULL;
    if (!n->ac[i] && now >= n->retry_at[i]) {
        n->retry_at[i] = now + RLINK_RETRY_MS;
        n->ac[i] = rlink_open(g, n->map.nodes[i].at.host, n->map.nodes[i].at.port);
    }
    return n->ac[i];
}

/* The connection serving slot (-1: any master). */
static redisAsyncContext *rlink_route(gw *g, int slot)
{
    struct rlink_nodes *n = g->redis_nodes;
    uint64_t now = uv_now(g->loop);
    if (g->stopping)
        return NULL;
    if (n->map.stale || !n->map.nnodes)
        rlink_refresh(g, now);
    if (!n->map.nnodes)
        return NULL;
    return rlink_node(g, slot >= 0 ? n->map.slot_node[slot] : 0, now);
}

static void rlink_req_free(rlink_req *q)
{
    redisFreeCommand(q->raw);
    free(q);
}

static int rlink_send_req(gw *g, rlink_req *q, redisAsyncContext *ac, bool asking);

static void rlink_on_reply(redisAsyncContext *ac, void *reply, void *priv)
{
    rlink_req *q = priv;
    redisReply *rep = reply;
    dh_redirect to;
    if (rep && rep->type == REDIS_REPLY_ERROR && q->hops < RLINK_HOPS &&
        dh_slot_redirect(rep->str, rep->len, &to) != DH_REDIRECT_NONE) {
        struct rlink_nodes *n = q->g->redis_nodes;
        int i = dh_redis_node_index(&n->map, to.host, to.port);
        if (to.kind == DH_REDIRECT_MOVED) {
            if (i >= 0)
                n->map.slot_node[to.slot] = (int8_t)i;
            n->map.stale = true;
        }
        redisAsyncContext *next = rlink_node(q->g, i, uv_now(q->g->loop));
        q->hops++;
        if (next && rlink_send_req(q->g, q, next, to.kind == DH_REDIRECT_ASK) == 0)
            return;
        reply = NULL; /* could not follow: the caller sees a failure */
    }
    q->fn(ac, reply, q->priv);
    rlink_req_free(q);
}

static int rlink_send_req(gw *g, rlink_req *q, redisAsyncContext *ac, bool asking)
{
    if (asking && redisAsyncCommand(ac, NULL, NULL, "ASKING") != REDIS_OK)
        return -1;
    return redisAsyncFormattedCommand(ac, rlink_on_reply, q, q->raw, q->len) == REDIS_OK ? 0 : -1;
}

int rlink_send(gw *g, rlink_fn *fn, void *priv, int argc, const char **argv, const size_t *lens)
{
    if (!g->redis_nodes) {
        redisAsyncContext *ac = g->stopping ? NULL : rlink_single(g);
        return ac && redisAsyncCommandArgv(ac, fn, priv, argc, argv, lens) == REDIS_OK ? 0 : -1;
    }
    rlink_req *q = calloc(1, sizeof *q);
    if (!q)
        return -1;
    int len = redisFormatCommandArgv(&q->raw, argc, argv, lens);
    if (len < 0) {
        free(q);
        return -1;
    }
    *q = (rlink_req){.g = g,
                     .fn = fn,
                     .priv = priv,
                     .raw = q->raw,
                     .len = (size_t)len,
                     .slot = dh_slot_of_command(argc, argv, lens)};
    redisAsyncContext *ac = rlink_route(g, q->slot);
    if (!ac || rlink_send_req(g, q, ac, false) < 0) {
        rlink_req_free(q);
        return -1;
    }
    return 0;
}

void rlink_drop(gw *g)
{
    redisAsyncContext *ac = g->redis;
    g->redis = NULL;
    if (ac)
        redisAsyncFree(ac); /* the waiting commands fail now */
    for (size_t i = 0; g->redis_nodes && i < DH_REDIS_NODES; i++) {
        ac = g->redis_nodes->ac[i];
        g->redis_nodes->ac[i] = NULL;
        if (ac)
            redisAsyncFree(ac);
    }
    if (g->redis_nodes)
        g->redis_nodes->map.stale = true;
}

bool rlink_any(const gw *g)
{
    if (g->redis)
        return true;
    for (size_t i = 0; g->redis_nodes && i < DH_REDIS_NODES; i++)
        if (g->redis_nodes->ac[i])
            return true;
    return false;
}

void rlink_stop(gw *g)
{
    rlink_drop(g);
    if (g->redis_nodes) {
        dh_redis_close(&g->redis_nodes->map);
        free(g->redis_nodes);
        g->redis_nodes = NULL;
    }
}
