/*
 * dh_redis_node.c: one node's connection of a dh_redis (dh_redis.h): opening it (AUTH,
 * SELECT), finding a node by address, dropping one that failed. The lowest floor of the
 * Redis layer (dh_redis_int.h): the slot map (dh_redis_topo.c), the routing (dh_redis_route.c)
 * and the commands share these.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "dh_log.h"
#include "dh_redis_int.h"

int dh_redis_auth_argv(const dh_redis_addr *addr, const char *argv[3])
{
    if (!addr->password[0])
        return 0;
    argv[0] = "AUTH";
    if (!addr->user[0]) {
        argv[1] = addr->password;
        return 2;
    }
    argv[1] = addr->user;
    argv[2] = addr->password;
    return 3;
}

/* Run one setup command (AUTH, SELECT); 0 when Redis says OK. */
static int dh_redis_setup(redisContext *c, int argc, const char **argv)
{
    redisReply *rep = redisCommandArgv(c, argc, argv, NULL);
    int ok = rep && rep->type == REDIS_REPLY_STATUS;
    if (!ok)
        dh_warn("redis %s failed: %s", argv[0], rep ? rep->str : c->errstr);
    if (rep)
        freeReplyObject(rep);
    return ok ? 0 : -1;
}

redisContext *dh_redis_open(dh_redis *r, const dh_redis_hostport *at)
{
    struct timeval tv = {.tv_sec = r->timeout_ms / 1000, .tv_usec = (r->timeout_ms % 1000) * 1000};
    redisContext *c = redisConnectWithTimeout(at->host, at->port, tv);
    if (!c || c->err) {
        if (!r->down_logged)
            dh_warn("redis %s:%d unreachable: %s", at->host, at->port,
                    c ? c->errstr : "out of memory");
        goto err;
    }
    if (redisSetTimeout(c, tv) != REDIS_OK)
        goto err;
    redisEnableKeepAlive(c);
    const char *auth[3];
    int argc = dh_redis_auth_argv(&r->addr, auth);
    if (argc && dh_redis_setup(c, argc, auth) < 0)
        goto err;
    if (r->addr.db) {
        char db[16];
        snprintf(db, sizeof db, "%d", r->addr.db);
        const char *select[] = {"SELECT", db};
        if (dh_redis_setup(c, 2, select) < 0)
            goto err;
    }
    r->connects++;
    return c;
err:
    if (c)
        redisFree(c);
    return NULL;
}

redisContext *dh_redis_node_ctx(dh_redis *r, size_t i)
{
    dh_redis_node *n = &r->nodes[i];
    if (!n->ctx) {
        n->ctx = dh_redis_open(r, &n->at);
        if (n->ctx && r->down_logged) {
            dh_info("redis %s:%d connected", n->at.host, n->at.port);
            r->down_logged = 0;
        }
    }
    if (n->ctx && !r->ctx)
        r->ctx = n->ctx;
    return n->ctx;
}

int dh_redis_node_up(dh_redis *r, size_t i, uint64_t now_ms)
{
    if (!r->nodes[i].ctx && now_ms < r->retry_at_ms)
        return -1;
    if (!dh_redis_node_ctx(r, i)) {
        r->stale = r->addr.cluster;
        r->retry_at_ms = now_ms + r->backoff_ms;
        return -2;
    }
    return 0;
}

int dh_redis_node_find(const dh_redis *r, const char *host, int port)
{
    for (size_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].at.port == port && !strcmp(r->nodes[i].at.host, host))
            return (int)i;
    return -1;
}

int dh_redis_node_index(dh_redis *r, const char *host, int port)
{
    int found = dh_redis_node_find(r, host, port);
    if (found >= 0)
        return found;
    if (r->nnodes == DH_REDIS_NODES)
        return -1;
    dh_redis_node *n = &r->nodes[r->nnodes];
    memset(n, 0, sizeof *n);
    snprintf(n->at.host, sizeof n->at.host, "%s", host);
    n->at.port = port;
    return (int)r->nnodes++;
}

/* Close c's socket abortively (a reset, not a FIN after the data): what the kernel still
 * holds of the commands written on it is thrown away instead of being delivered to Redis
 * once the network heals. A command given up as failed (a timeout across a partition)
 * must not land seconds later, after the caller has undone it and later writes have
 * followed: a late commit would append a stale answer to a match's history
 * (tests/e2e/test_netns_worker_redis.sh). */
static void dh_redis_abort(redisContext *c)
{
    struct linger lg = {.l_onoff = 1, .l_linger = 0};
    if (c->fd >= 0)
        setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
}

void dh_redis_node_fail(dh_redis *r, size_t i)
{
    dh_redis_node *n = &r->nodes[i];
    if (!n->ctx)
        return;
    if (n->ctx->err) /* the others are dropped only because their replies are unread */
        dh_warn("redis %s:%d lost: %s", n->at.host, n->at.port, n->ctx->errstr);
    if (r->ctx == n->ctx)
        r->ctx = NULL;
    dh_redis_abort(n->ctx);
    redisFree(n->ctx);
    n->ctx = NULL;
    r->stale = r->addr.cluster;
}
