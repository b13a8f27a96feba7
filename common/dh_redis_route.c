/*
 * dh_redis_route.c: see dh_redis.h. The routing floor of the Redis layer (dh_redis_int.h): a
 * URL parsed, a slot routed to its node (the slot map read when stale), MOVED and ASK
 * followed on the map for both the synchronous and the asynchronous commands, reconnects
 * backed off; WAIT and INFO memory over every node.
 */
#include "dh_redis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "dh_log.h"
#include "dh_redis_int.h"
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

/* One redis://[[user]:password@]host[:port][/db]. */
static int redis_parse_one(const char *url, dh_redis_addr *out)
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

/* "host:port" into hp; 0, or -1. */
static int redis_parse_hostport(const char *s, size_t n, dh_redis_hostport *hp)
{
    const char *colon = memchr(s, ':', n);
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof hp->host)
        return -1;
    char port[8];
    size_t pn = n - (size_t)(colon + 1 - s);
    if (pn == 0 || pn >= sizeof port)
        return -1;
    memcpy(port, colon + 1, pn);
    port[pn] = '\0';
    char *end;
    long v = strtol(port, &end, 10);
    if (*end || v <= 0 || v > 65535)
        return -1;
    memcpy(hp->host, s, (size_t)(colon - s));
    hp->host[colon - s] = '\0';
    hp->port = (int)v;
    return 0;
}

int dh_redis_parse_url(const char *url, dh_redis_addr *out)
{
    static const char scheme[] = "redis+cluster://";
    const char *env = getenv("DECKHAND_REDIS_CLUSTER");
    bool cluster = url && !strncmp(url, scheme, sizeof scheme - 1);
    if (!cluster) {
        if (redis_parse_one(url, out) < 0)
            return -1;
        out->cluster = env && !strcmp(env, "1");
        out->nseeds = 1;
        snprintf(out->seeds[0].host, sizeof out->seeds[0].host, "%s", out->host);
        out->seeds[0].port = out->port;
        return out->cluster && out->db ? -1 : 0; /* a cluster has only db 0 */
    }
    const char *rest = url + sizeof scheme - 1;
    const char *comma = strchr(rest, ',');
    size_t first = comma ? (size_t)(comma - rest) : strlen(rest);
    char one[512];
    if (first + 8 >= sizeof one)
        return -1;
    snprintf(one, sizeof one, "redis://%.*s", (int)first, rest);
    if (redis_parse_one(one, out) < 0 || out->db)
        return -1;
    out->cluster = true;
    out->nseeds = 1;
    snprintf(out->seeds[0].host, sizeof out->seeds[0].host, "%s", out->host);
    out->seeds[0].port = out->port;
    while (comma) {
        const char *s = comma + 1;
        comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        if (out->nseeds == DH_REDIS_SEEDS ||
            redis_parse_hostport(s, n, &out->seeds[out->nseeds]) < 0)
            return -1;
        out->nseeds++;
    }
    return 0;
}

int dh_redis_init(dh_redis *r, const char *url, int timeout_ms)
{
    memset(r, 0, sizeof *r);
    r->timeout_ms = timeout_ms > 0 ? timeout_ms : 1000;
    r->backoff_ms = DH_REDIS_BACKOFF_MIN;
    memset(r->slot_node, -1, sizeof r->slot_node);
    if (dh_redis_parse_url(url, &r->addr) < 0)
        return -1;
    r->stale = r->addr.cluster;
    const char *wait = getenv("DECKHAND_REDIS_WAIT"), *wait_ms = getenv("DECKHAND_REDIS_WAIT_MS");
    r->wait_replicas = wait && *wait ? atoi(wait) : r->addr.cluster ? 1 : 0;
    r->wait_ms = wait_ms && *wait_ms ? atoi(wait_ms) : 500;
    const char *full = getenv("DECKHAND_REDIS_FULL_PCT");
    r->full_pct = full && atoi(full) > 0 ? atoi(full) : 90;
    if (!r->addr.cluster) { /* one node serves every slot */
        r->nnodes = 1;
        r->nodes[0].at = r->addr.seeds[0];
        memset(r->slot_node, 0, sizeof r->slot_node);
    }
    return 0;
}

/* Back off after a failure to reach Redis. */
static void dh_redis_backoff(dh_redis *r, uint64_t now_ms)
{
    r->down_logged = 1;
    r->retry_at_ms = now_ms + r->backoff_ms;
    r->backoff_ms =
        r->backoff_ms * 2 > DH_REDIS_BACKOFF_MAX ? DH_REDIS_BACKOFF_MAX : r->backoff_ms * 2;
}

/* Ready to route: the slot map is known (a cluster) and the backoff allows. */
static int dh_redis_ready(dh_redis *r, uint64_t now_ms)
{
    if (r->addr.cluster && now_ms >= r->refreshed_at_ms + DH_REDIS_REFRESH_MS)
        r->stale = true;
    if (!r->stale)
        return 0;
    if (now_ms < r->retry_at_ms)
        return -1;
    if (dh_redis_refresh(r) < 0) {
        dh_redis_backoff(r, now_ms);
        return -1;
    }
    r->stale = false;
    r->refreshed_at_ms = now_ms;
    r->backoff_ms = DH_REDIS_BACKOFF_MIN;
    return 0;
}

int dh_redis_route(dh_redis *r, int slot, uint64_t now_ms)
{
    if (dh_redis_ready(r, now_ms) < 0)
        return -1;
    int i = slot >= 0 ? r->slot_node[slot] : -1;
    if (slot < 0)
        for (size_t k = 0; k < r->nnodes && i < 0; k++)
            if (r->nodes[k].ctx)
                i = (int)k;
    if (slot < 0 && i < 0 && r->nnodes)
        i = 0;
    if (i < 0) {
        r->stale = r->addr.cluster;
        return -1;
    }
    int up = dh_redis_node_up(r, (size_t)i, now_ms);
    if (up == -2)
        dh_redis_backoff(r, now_ms);
    if (up < 0)
        return -1;
    r->backoff_ms = DH_REDIS_BACKOFF_MIN;
    return i;
}

int dh_redis_redirect(dh_redis *r, const redisReply *rep, dh_redirect *to)
{
    to->kind = DH_REDIRECT_NONE;
    if (rep->type != REDIS_REPLY_ERROR ||
        dh_slot_redirect(rep->str, rep->len, to) == DH_REDIRECT_NONE)
        return -1;
    int i = dh_redis_node_index(r, to->host, to->port);
    if (i < 0)
        return -1;
    r->redirects++;
    if (to->kind == DH_REDIRECT_MOVED) {
        r->slot_node[to->slot] = (int8_t)i;
        r->stale = true;
    }
    return i;
}

redisContext *dh_redis_get(dh_redis *r, uint64_t now_ms)
{
    int i = dh_redis_route(r, -1, now_ms);
    return i < 0 ? NULL : r->nodes[i].ctx;
}

redisContext *dh_redis_for_key(dh_redis *r, const char *key, uint64_t now_ms)
{
    int i = dh_redis_route(r, dh_slot_of(key, strlen(key)), now_ms);
    return i < 0 ? NULL : r->nodes[i].ctx;
}

void dh_redis_fail(dh_redis *r, uint64_t now_ms)
{
    for (size_t i = 0; i < r->nnodes; i++)
        dh_redis_node_fail(r, i);
    r->ctx = NULL;
    r->retry_at_ms = now_ms + r->backoff_ms;
}

void dh_redis_close(dh_redis *r)
{
    for (size_t i = 0; i < r->nnodes; i++) {
        if (r->nodes[i].ctx)
            redisFree(r->nodes[i].ctx);
        r->nodes[i].ctx = NULL;
    }
    r->ctx = NULL;
}

int dh_redis_wait(dh_redis *r, uint64_t now_ms)
{
    int least = r->wait_replicas;
    char n[16], ms[16];
    snprintf(n, sizeof n, "%d", r->wait_replicas);
    snprintf(ms, sizeof ms, "%d", r->wait_ms);
    for (size_t i = 0; i < r->nnodes; i++)
        r->nodes[i].unreplicated = false;
    for (size_t i = 0; i < r->nnodes; i++) {
        dh_redis_node *node = &r->nodes[i];
        bool touched = node->touched;
        node->touched = false;
        int want = r->addr.cluster && node->replicas < r->wait_replicas ? node->replicas
                                                                        : r->wait_replicas;
        if (!touched || !node->ctx || want <= 0)
            continue;
        snprintf(n, sizeof n, "%d", want);
        const char *argv[] = {"WAIT", n, ms};
        redisReply *rep = redisCommandArgv(node->ctx, 3, argv, NULL);
        if (!rep) {
            dh_redis_fail(r, now_ms);
            return -1;
        }
        int got = rep->type == REDIS_REPLY_INTEGER ? (int)rep->integer : 0;
        freeReplyObject(rep);
        if (got < want) {
            node->unreplicated = true;
            r->wait_short++;
            dh_warn_every(DH_LOG_EVERY_MS, "redis %s:%d: writes reached %d of %d replicas in %d ms",
                          node->at.host, node->at.port, got, want, r->wait_ms);
        }
        least = got < least ? got : least;
    }
    return least;
}

bool dh_redis_unreplicated(const dh_redis *r, int slot)
{
    int i = slot >= 0 && slot < DH_SLOTS ? r->slot_node[slot] : (r->nnodes ? 0 : -1);
    return i >= 0 && (size_t)i < r->nnodes && r->nodes[i].unreplicated;
}

/* One INFO memory field as a number (0 when missing). */
static unsigned long long redis_info_field(const char *info, const char *field)
{
    const char *p = strstr(info, field);
    return p ? strtoull(p + strlen(field), NULL, 10) : 0;
}

bool dh_redis_full(dh_redis *r, uint64_t now_ms)
{
    if (r->full_at_ms && now_ms < r->full_at_ms + 1000)
        return r->full;
    redisContext *nodes[DH_REDIS_NODES];
    size_t n = dh_redis_masters(r, now_ms, nodes, DH_REDIS_NODES);
    if (!n)
        return r->full;
    bool full = false;
    for (size_t i = 0; i < n; i++) {
        redisReply *rep = redisCommand(nodes[i], "INFO memory");
        if (!rep) {
            dh_redis_fail(r, now_ms);
            return r->full;
        }
        if (rep->type == REDIS_REPLY_STRING) {
            unsigned long long used = redis_info_field(rep->str, "\nused_memory:");
            unsigned long long max = redis_info_field(rep->str, "\nmaxmemory:");
            full = full || (max && used * 100 >= max * (unsigned long long)r->full_pct);
        }
        freeReplyObject(rep);
    }
    if (full != r->full)
        dh_warn("redis %s: %d%% of maxmemory or more used; new matches are refused until it "
                "drops",
                full ? "full" : "no longer full", r->full_pct);
    r->full = full;
    r->full_at_ms = now_ms;
    return full;
}

size_t dh_redis_masters(dh_redis *r, uint64_t now_ms, redisContext **out, size_t max)
{
    size_t n = 0;
    if (dh_redis_ready(r, now_ms) < 0)
        return 0;
    for (size_t i = 0; i < r->nnodes && n < max; i++) {
        bool serves = !r->addr.cluster;
        for (size_t s = 0; s < DH_SLOTS && !serves; s++)
            serves = r->slot_node[s] == (int)i;
        if (serves && dh_redis_node_ctx(r, i))
            out[n++] = r->nodes[i].ctx;
    }
    return n;
}
