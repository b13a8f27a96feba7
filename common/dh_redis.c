/*
 * dh_redis.c: see dh_redis.h.
 */
#include "dh_redis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "dh_log.h"
#include "dh_secret.h"

#define DH_REDIS_BACKOFF_MIN 100
#define DH_REDIS_BACKOFF_MAX 2000

/* DECKHAND_REDIS_USER and DECKHAND_REDIS_PASSWORD(_FILE) into out; 0, or -1. */
static int redis_env_credentials(dh_redis_addr *out)
{
    const char *user = getenv("DECKHAND_REDIS_USER");
    if (user && strlen(user) >= sizeof out->user)
        return -1;
    snprintf(out->user, sizeof out->user, "%s", user ? user : "");
    return dh_secret_get("DECKHAND_REDIS_PASSWORD", out->password, sizeof out->password) < 0 ? -1
                                                                                             : 0;
}

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

int dh_redis_parse_url(const char *url, dh_redis_addr *out)
{
    memset(out, 0, sizeof *out);
    out->port = DH_REDIS_DEFAULT_PORT;
    if (!url)
        return -1;
    const char *p = url;
    if (!strncmp(p, "redis://", 8))
        p += 8;
    else if (strstr(p, "://"))
        return -1;
    const char *at = strrchr(p, '@');
    const char *slash = strchr(p, '/');
    if (at && (!slash || at < slash)) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        const char *pw = colon ? colon + 1 : p; /* "user:pass@" or "pass@" */
        size_t n = (size_t)(at - pw), un = colon ? (size_t)(colon - p) : 0;
        if (n >= sizeof out->password || un >= sizeof out->user)
            return -1;
        memcpy(out->password, pw, n);
        out->password[n] = '\0';
        memcpy(out->user, p, un);
        out->user[un] = '\0';
        p = at + 1;
    } else if (redis_env_credentials(out) < 0) {
        return -1;
    }
    size_t hostport = slash ? (size_t)(slash - p) : strlen(p);
    const char *colon = memchr(p, ':', hostport);
    size_t hostlen = colon ? (size_t)(colon - p) : hostport;
    if (hostlen == 0 || hostlen >= sizeof out->host)
        return -1;
    memcpy(out->host, p, hostlen);
    out->host[hostlen] = '\0';
    if (colon) {
        char *end;
        long port = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || end != p + hostport || port <= 0 || port > 65535)
            return -1;
        out->port = (int)port;
    }
    if (slash && slash[1]) {
        char *end;
        long db = strtol(slash + 1, &end, 10);
        if (*end || db < 0 || db > 65535)
            return -1;
        out->db = (int)db;
    }
    return 0;
}

int dh_redis_init(dh_redis *r, const char *url, int timeout_ms)
{
    memset(r, 0, sizeof *r);
    r->timeout_ms = timeout_ms > 0 ? timeout_ms : 1000;
    r->backoff_ms = DH_REDIS_BACKOFF_MIN;
    return dh_redis_parse_url(url, &r->addr);
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

static redisContext *dh_redis_connect(dh_redis *r)
{
    struct timeval tv = {.tv_sec = r->timeout_ms / 1000, .tv_usec = (r->timeout_ms % 1000) * 1000};
    redisContext *c = redisConnectWithTimeout(r->addr.host, r->addr.port, tv);
    if (!c || c->err) {
        if (!r->down_logged)
            dh_warn("redis %s:%d unreachable: %s", r->addr.host, r->addr.port,
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
    return c;
err:
    if (c)
        redisFree(c);
    return NULL;
}

redisContext *dh_redis_get(dh_redis *r, uint64_t now_ms)
{
    if (r->ctx)
        return r->ctx;
    if (now_ms < r->retry_at_ms)
        return NULL;
    r->ctx = dh_redis_connect(r);
    if (!r->ctx) {
        r->down_logged = 1;
        r->retry_at_ms = now_ms + r->backoff_ms;
        r->backoff_ms =
            r->backoff_ms * 2 > DH_REDIS_BACKOFF_MAX ? DH_REDIS_BACKOFF_MAX : r->backoff_ms * 2;
        return NULL;
    }
    dh_info("redis %s:%d connected", r->addr.host, r->addr.port);
    r->down_logged = 0;
    r->connects++;
    r->backoff_ms = DH_REDIS_BACKOFF_MIN;
    return r->ctx;
}

void dh_redis_fail(dh_redis *r, uint64_t now_ms)
{
    if (!r->ctx)
        return;
    dh_warn("redis %s:%d lost: %s", r->addr.host, r->addr.port,
            r->ctx->errstr[0] ? r->ctx->errstr : "protocol error");
    redisFree(r->ctx);
    r->ctx = NULL;
    r->retry_at_ms = now_ms + r->backoff_ms;
}

void dh_redis_close(dh_redis *r)
{
    if (r->ctx)
        redisFree(r->ctx);
    r->ctx = NULL;
}
