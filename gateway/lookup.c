/*
 * lookup.c: see lookup.h. Two round trips (HGET match:{ID} worker, then GET worker:{ID}, braces
 * included: they are the keys' cluster hash tags, as the worker writes them) because the second key
 * depends on the first answer; lookups only happen on a route miss, so their cost does not matter.
 * The connection is made on first use and again, at most once a second, after it drops.
 *
 * A connection that stops answering is dropped by lookup_tick: hiredis' libuv adapter
 * ignores a poll error, and libuv reports a refused non-blocking connect as exactly that,
 * so without the check a lookup made while Redis is down would wait forever, and every
 * later one behind it.
 */
#include "lookup.h"

#include <hiredis/adapters/libuv.h>
#include <hiredis/async.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "dh_redis.h"

#define LOOKUP_RETRY_MS   1000
#define LOOKUP_TIMEOUT_MS 2000

typedef struct {
    gw *gw;
    lookup_cb cb;
    void *arg;
    char worker_id[DH_ZMQ_ID_MAX + 1];
    char match_id[];
} lookup_req;

int lookup_init(gw *g)
{
    if (strcmp(g->redis_url, "none") == 0 || g->redis_url[0] == '\0') {
        g->redis_enabled = false;
        return 0;
    }
    if (dh_redis_parse_url(g->redis_url, &g->redis_addr) < 0) {
        dh_error("bad --redis URL %s", g->redis_url);
        return -1;
    }
    g->redis_enabled = true;
    return 0;
}

bool lookup_enabled(const gw *g)
{
    return g->redis_enabled;
}

static void lookup_on_connect(const redisAsyncContext *ac, int status)
{
    gw *g = ac->data;
    if (status != REDIS_OK) {
        dh_warn("redis %s unreachable: %s", g->redis_url, ac->errstr);
        g->redis = NULL; /* hiredis frees the context after this callback */
        return;
    }
    g->redis_progress_at = uv_now(g->loop);
}

static void lookup_on_disconnect(const redisAsyncContext *ac, int status)
{
    gw *g = ac->data;
    if (status != REDIS_OK)
        dh_warn("redis %s disconnected: %s", g->redis_url, ac->errstr);
    g->redis = NULL;
}

/* The connection, made now if needed; NULL when down. */
static redisAsyncContext *lookup_conn(gw *g)
{
    if (g->redis)
        return g->redis;
    uint64_t now = uv_now(g->loop);
    if (g->stopping || (g->redis_retry_at && now < g->redis_retry_at))
        return NULL;
    g->redis_retry_at = now + LOOKUP_RETRY_MS;
    redisAsyncContext *ac = redisAsyncConnect(g->redis_addr.host, g->redis_addr.port);
    if (!ac)
        return NULL;
    if (ac->err) {
        dh_warn("redis %s: %s", g->redis_url, ac->errstr);
        redisAsyncFree(ac);
        return NULL;
    }
    ac->data = g;
    if (redisLibuvAttach(ac, g->loop) != REDIS_OK) {
        redisAsyncFree(ac);
        return NULL;
    }
    redisAsyncSetConnectCallback(ac, lookup_on_connect);
    redisAsyncSetDisconnectCallback(ac, lookup_on_disconnect);
    /* Commands queue until the connection is up; AUTH and SELECT go first. */
    const char *auth[3];
    int argc = dh_redis_auth_argv(&g->redis_addr, auth);
    if (argc)
        redisAsyncCommandArgv(ac, NULL, NULL, argc, auth, NULL);
    if (g->redis_addr.db)
        redisAsyncCommand(ac, NULL, NULL, "SELECT %d", g->redis_addr.db);
    g->redis = ac;
    return ac;
}

/* Hiredis answers one connection's commands in order, so the send times form a queue:
 * each answer takes the oldest. An overflow stops timing until nothing waits. */
static void lookup_sent(gw *g)
{
    size_t cap = sizeof g->redis_sent_ns / sizeof *g->redis_sent_ns;
    if (g->redis_untimed || g->redis_sent_n == cap) {
        g->redis_untimed = true;
        return;
    }
    g->redis_sent_ns[(g->redis_sent_head + g->redis_sent_n++) % cap] = dh_now_ns();
}

/* Send one lookup command; its callback must call lookup_answered. REDIS_OK or not. */
static int lookup_command(gw *g, redisAsyncContext *ac, redisCallbackFn *fn, lookup_req *r,
                          const char *fmt, const char *arg)
{
    if (redisAsyncCommand(ac, fn, r, fmt, arg) != REDIS_OK)
        return REDIS_ERR;
    lookup_sent(g);
    if (g->redis_waiting++ == 0)
        g->redis_progress_at = uv_now(g->loop);
    return REDIS_OK;
}

void lookup_answered(gw *g)
{
    size_t cap = sizeof g->redis_sent_ns / sizeof *g->redis_sent_ns;
    if (!g->redis_untimed && g->redis_sent_n) {
        dh_histogram_since(&g->stats.redis_seconds, g->redis_sent_ns[g->redis_sent_head]);
        g->redis_sent_head = (g->redis_sent_head + 1) % cap;
        g->redis_sent_n--;
    }
    if (g->redis_waiting)
        g->redis_waiting--;
    if (!g->redis_waiting) {
        g->redis_untimed = false;
        g->redis_sent_head = g->redis_sent_n = 0;
    }
    g->redis_progress_at = uv_now(g->loop);
}

int lookup_send(gw *g, void (*fn)(redisAsyncContext *, void *, void *), void *priv, int argc,
                const char **argv, const size_t *lens)
{
    redisAsyncContext *ac = g->redis_enabled && !g->stopping ? lookup_conn(g) : NULL;
    if (!ac || redisAsyncCommandArgv(ac, fn, priv, argc, argv, lens) != REDIS_OK)
        return -1;
    lookup_sent(g);
    if (g->redis_waiting++ == 0)
        g->redis_progress_at = uv_now(g->loop);
    return 0;
}

static void lookup_done(lookup_req *r, lookup_result res, const char *endpoint)
{
    r->cb(r->gw, r->arg, res, r->worker_id, endpoint);
    free(r);
}

static lookup_result lookup_classify(const redisReply *rep)
{
    if (!rep || rep->type == REDIS_REPLY_ERROR)
        return LOOKUP_FAILED;
    if (rep->type != REDIS_REPLY_STRING || rep->len == 0 || rep->len > DH_ZMQ_ID_MAX)
        return LOOKUP_MISSING;
    return LOOKUP_FOUND;
}

static void lookup_on_endpoint(redisAsyncContext *ac, void *reply, void *priv)
{
    redisReply *rep = reply;
    lookup_req *r = priv;
    lookup_answered(r->gw);
    lookup_result res = lookup_classify(rep);
    if (res == LOOKUP_FOUND && (size_t)rep->len >= GW_ADDR_MAX)
        res = LOOKUP_MISSING;
    lookup_done(r, res, res == LOOKUP_FOUND ? rep->str : NULL);
}

static void lookup_on_worker(redisAsyncContext *ac, void *reply, void *priv)
{
    redisReply *rep = reply;
    lookup_req *r = priv;
    lookup_answered(r->gw);
    lookup_result res = lookup_classify(rep);
    if (res != LOOKUP_FOUND) {
        lookup_done(r, res, NULL);
        return;
    }
    memcpy(r->worker_id, rep->str, rep->len);
    r->worker_id[rep->len] = '\0';
    char key[DH_KEY_MAX];
    if (r->gw->stopping || lookup_command(r->gw, ac, lookup_on_endpoint, r, "GET %s",
                                          dh_key_worker(key, r->worker_id)) != REDIS_OK)
        lookup_done(r, LOOKUP_FAILED, NULL);
}

void lookup_match(gw *g, const char *match_id, lookup_cb cb, void *arg)
{
    size_t n = strlen(match_id);
    lookup_req *r = calloc(1, sizeof *r + n + 1);
    if (!r) {
        cb(g, arg, LOOKUP_FAILED, "", NULL);
        return;
    }
    r->gw = g;
    r->cb = cb;
    r->arg = arg;
    memcpy(r->match_id, match_id, n + 1);
    redisAsyncContext *ac = g->redis_enabled ? lookup_conn(g) : NULL;
    char key[DH_KEY_MAX];
    if (!ac || lookup_command(g, ac, lookup_on_worker, r, "HGET %s " DH_F_WORKER,
                              dh_key_match(key, match_id)) != REDIS_OK)
        lookup_done(r, LOOKUP_FAILED, NULL);
}

void lookup_tick(gw *g)
{
    redisAsyncContext *ac = g->redis;
    if (!ac || !g->redis_waiting || uv_now(g->loop) - g->redis_progress_at < LOOKUP_TIMEOUT_MS)
        return;
    dh_warn("redis %s: %zu lookups unanswered for %d ms, reconnecting", g->redis_url,
            g->redis_waiting, LOOKUP_TIMEOUT_MS);
    g->redis = NULL;
    redisAsyncFree(ac); /* the waiting lookups fail now */
    g->redis_waiting = 0;
    g->redis_untimed = false;
    g->redis_sent_head = g->redis_sent_n = 0;
}

void lookup_stop(gw *g)
{
    /* Not redisAsyncDisconnect, which waits for outstanding replies: a hung Redis must
     * not hold the shutdown. Freeing fails the pending lookups at once. */
    redisAsyncContext *ac = g->redis;
    g->redis = NULL;
    if (ac)
        redisAsyncFree(ac);
}
