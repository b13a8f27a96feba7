/*
 * lookup.c: see lookup.h. Two round trips (HGET match:{ID} worker, then GET worker:{ID}, braces
 * included: they are the keys' cluster hash tags, as the worker writes them) because the second key
 * depends on the first answer; lookups only happen on a route miss, so their cost does not matter.
 * The connections (one Redis, or a Redis Cluster's masters) are rlink.c's.
 *
 * A connection that stops answering is dropped by lookup_tick: hiredis' libuv adapter
 * ignores a poll error, and libuv reports a refused non-blocking connect as exactly that,
 * so without the check a lookup made while Redis is down would wait forever, and every
 * later one behind it.
 */
#include "lookup.h"

#include <hiredis/async.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_clock.h"
#include "dh_log.h"
#include "dh_redis.h"
#include "rlink.h"

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
    return rlink_init(g);
}

bool lookup_enabled(const gw *g)
{
    return g->redis_enabled;
}

void lookup_answered(gw *g)
{
    if (g->redis_waiting)
        g->redis_waiting--;
    g->redis_progress_at = uv_now(g->loop);
}

/* A command in flight, timed: its round trip goes to the gateway's Redis histogram when
 * the reply comes (not when it fails: a lost connection is no round trip). */
typedef struct {
    gw *g;
    void (*fn)(redisAsyncContext *, void *, void *);
    void *priv;
    uint64_t sent_ns;
} lookup_timed;

static void lookup_on_timed(redisAsyncContext *ac, void *reply, void *priv)
{
    lookup_timed *t = priv;
    if (reply)
        dh_histogram_since(&t->g->stats.redis_seconds, t->sent_ns);
    t->fn(ac, reply, t->priv);
    free(t);
}

int lookup_send(gw *g, void (*fn)(redisAsyncContext *, void *, void *), void *priv, int argc,
                const char **argv, const size_t *lens)
{
    if (!g->redis_enabled || g->stopping)
        return -1;
    lookup_timed *t = malloc(sizeof *t);
    if (!t)
        return -1;
    *t = (lookup_timed){g, fn, priv, dh_now_ns()};
    if (rlink_send(g, lookup_on_timed, t, argc, argv, lens) < 0) {
        free(t);
        return -1;
    }
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
    const char *argv[] = {"GET", dh_key_worker(key, r->worker_id)};
    if (lookup_send(r->gw, lookup_on_endpoint, r, 2, argv, NULL) < 0)
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
    char key[DH_KEY_MAX];
    const char *argv[] = {"HGET", dh_key_match(key, match_id), DH_F_WORKER};
    if (lookup_send(g, lookup_on_worker, r, 3, argv, NULL) < 0)
        lookup_done(r, LOOKUP_FAILED, NULL);
}

void lookup_tick(gw *g)
{
    if (!rlink_any(g) || !g->redis_waiting ||
        uv_now(g->loop) - g->redis_progress_at < LOOKUP_TIMEOUT_MS)
        return;
    dh_warn("redis %s: %zu lookups unanswered for %d ms, reconnecting", g->redis_url,
            g->redis_waiting, LOOKUP_TIMEOUT_MS);
    rlink_drop(g); /* the waiting lookups fail now */
    g->redis_waiting = 0;
}

void lookup_stop(gw *g)
{
    /* Not redisAsyncDisconnect, which waits for outstanding replies: a hung Redis must
     * not hold the shutdown. Freeing fails the pending lookups at once. */
    rlink_stop(g);
}
