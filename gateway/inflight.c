/*
 * inflight.c: requests in flight and their deadlines (inflight.h says why). Answers go
 * out through g->answer, the session layer's, which sits above this module.
 */
#include "inflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_log.h"
#include "dh_str.h"

int inflight_init(gw *g)
{
    if (dh_table_init(&g->pending) < 0 || dh_table_init(&g->commands) < 0)
        return -1;
    return 0;
}

void inflight_free(gw *g)
{
    if (g->pending.buckets)
        dh_table_free(&g->pending, free);
    if (g->commands.buckets)
        dh_table_free(&g->commands, free);
}

/* "player_id/cmd_id", written without printf (about 800 instructions a call, twice per
 * answered command: docs/BENCHMARKS.md, issue 27's gateway sections). */
static void inflight_key(char *out, size_t n, const char *player_id, uint64_t cmd_id)
{
    size_t at = 0;
    dh_str_add(out, n, &at, player_id);
    dh_str_add(out, n, &at, "/");
    dh_str_add_uint(out, n, &at, cmd_id);
}

inflight *inflight_track(gw *g, dh_table *t, const char *player_id, uint64_t cmd_id,
                         const char *match_id, uint64_t timeout)
{
    char key[DH_TOKEN_ID_MAX + 32];
    inflight *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    dh_str_copy(p->player_id, sizeof p->player_id, player_id);
    if (strlen(match_id) < sizeof p->match_id)
        memcpy(p->match_id, match_id, strlen(match_id) + 1);
    else
        p->match_id[0] = '\0'; /* too long to remember: routed, never re-routed */
    p->cmd_id = cmd_id;
    p->since = uv_now(g->loop);
    p->deadline = p->since + timeout;
    p->expired = false;
    p->watch = false;
    p->start_ns = dh_now_ns();
    inflight_key(key, sizeof key, player_id, cmd_id);
    inflight *old = dh_table_get(t, key); /* a reused cmd_id replaces its older request */
    if (dh_table_set(t, key, p) < 0) {
        free(p);
        return NULL;
    }
    free(old);
    return p;
}

inflight *inflight_take(dh_table *t, const char *player_id, uint64_t cmd_id)
{
    char key[DH_TOKEN_ID_MAX + 32];
    inflight_key(key, sizeof key, player_id, cmd_id);
    return dh_table_del(t, key);
}

bool inflight_untrack(dh_table *t, const char *player_id, uint64_t cmd_id)
{
    inflight *p = inflight_take(t, player_id, cmd_id);
    bool waiting = p && !p->expired;
    free(p);
    return waiting;
}

bool inflight_waiting(dh_table *t, const char *player_id, uint64_t cmd_id)
{
    char key[DH_TOKEN_ID_MAX + 32];
    inflight_key(key, sizeof key, player_id, cmd_id);
    inflight *p = dh_table_get(t, key);
    return p && !p->expired;
}

void inflight_expire(gw *g, inflight *p, Deckhand__ErrorCode code, const char *message)
{
    g->answer(g, p->player_id, p->cmd_id, code, message);
    p->expired = true;
    p->deadline = uv_now(g->loop) + GW_LATE_GRACE;
}

typedef struct {
    gw *gw;
    Deckhand__ErrorCode code;
    const char *message;
    size_t n;
} inflight_all_state;

static void inflight_expire_waiting(const char *key, void *val, void *arg)
{
    (void)key;
    inflight_all_state *st = arg;
    inflight *p = val;
    if (p->expired)
        return;
    inflight_expire(st->gw, p, st->code, st->message);
    st->n++;
}

size_t inflight_expire_all(gw *g, dh_table *t, Deckhand__ErrorCode code, const char *message)
{
    inflight_all_state st = {g, code, message, 0};
    dh_table_each(t, inflight_expire_waiting, &st);
    return st.n;
}

typedef struct {
    gw *gw;
    dh_table *t;
    uint64_t now;
    const char *who;
    const uint64_t *heard; /* when the peer was last heard from; NULL: a fixed deadline */
} inflight_expire_state;

/* A request due now whose peer was heard from within GW_MM_TIMEOUT waits on: its new
 * deadline is when that peer's silence would reach GW_MM_TIMEOUT (at most GW_MM_PATIENCE
 * after it was sent). */
static bool inflight_wait_on(const inflight_expire_state *st, inflight *p)
{
    if (!st->heard || st->now - p->since >= GW_MM_PATIENCE || st->now - *st->heard >= GW_MM_TIMEOUT)
        return false;
    p->deadline = *st->heard + GW_MM_TIMEOUT;
    if (p->deadline > p->since + GW_MM_PATIENCE)
        p->deadline = p->since + GW_MM_PATIENCE;
    return true;
}

static void inflight_expire_one(const char *key, void *val, void *arg)
{
    inflight_expire_state *st = arg;
    inflight *p = val;
    if (p->deadline > st->now)
        return;
    if (p->expired) {
        dh_table_del(st->t, key);
        free(p);
        return;
    }
    if (inflight_wait_on(st, p))
        return;
    char msg[64];
    snprintf(msg, sizeof msg, "the %s did not answer", st->who);
    inflight_expire(st->gw, p, DECKHAND__ERROR_CODE__UNAVAILABLE, msg);
    dh_warn_every(DH_LOG_EVERY_MS, "%s did not answer %s in time", st->who, key);
}

void inflight_tick(gw *g)
{
    uint64_t now = uv_now(g->loop);
    inflight_expire_state mm = {g, &g->pending, now, "matchmaker", &g->mm_heard};
    dh_table_each(&g->pending, inflight_expire_one, &mm);
    inflight_expire_state wk = {g, &g->commands, now, "worker", NULL};
    dh_table_each(&g->commands, inflight_expire_one, &wk);
}
