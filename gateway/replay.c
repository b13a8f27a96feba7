/*
 * replay.c: see replay.h. One request is a short chain of Redis reads on the gateway's
 * shared connection (lookup.h): HMGET match:{ID} worker status; then candidates checked
 * one at a time with GET worker:{W} (the match's own worker first, then the workers of
 * the routes known here); when none is alive, LRANGE matches:finished and HGET
 * match:{ID} worker of each of the newest, each new worker checked the same way. The first
 * worker alive gets the PlayerCommand{replay}.
 */
#include "replay.h"

#include <hiredis/async.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "inflight.h"
#include "lookup.h"
#include "route.h"
#include "zsock.h"

typedef struct {
    gw *g;
    char player_id[DH_TOKEN_ID_MAX];
    uint64_t cmd_id;
    char match_id[GW_MATCH_ID_MAX];
    char cand[REPLAY_CANDIDATES][DH_ZMQ_ID_MAX + 1]; /* workers to try, in order */
    const char *why[REPLAY_CANDIDATES];              /* where each came from (the log) */
    size_t ncand, next;
    bool finished_read; /* matches:finished was asked for candidates already */
    char ids[REPLAY_FINISHED_IDS][GW_MATCH_ID_MAX]; /* its newest ids, walked from next_id */
    size_t nids, next_id;
} replay_req;

static void replay_try(replay_req *q);

/* The request ends: answered with code (OK: nothing, the worker answers), freed. */
static void replay_end(replay_req *q, Deckhand__ErrorCode code, const char *message)
{
    if (code != DECKHAND__ERROR_CODE__OK &&
        inflight_untrack(&q->g->commands, q->player_id, q->cmd_id))
        q->g->answer(q->g, q->player_id, q->cmd_id, code, message);
    free(q);
}

static void replay_unavailable(replay_req *q)
{
    replay_end(q, DECKHAND__ERROR_CODE__UNAVAILABLE, "no worker can serve the replay now; retry");
}

static void replay_add(replay_req *q, const char *worker_id, size_t len, const char *why)
{
    if (q->ncand == REPLAY_CANDIDATES || len == 0 || len > DH_ZMQ_ID_MAX)
        return;
    for (size_t i = 0; i < q->ncand; i++)
        if (strlen(q->cand[i]) == len && !memcmp(q->cand[i], worker_id, len))
            return;
    memcpy(q->cand[q->ncand], worker_id, len);
    q->why[q->ncand] = why;
    q->cand[q->ncand++][len] = '\0';
}

/* The live worker's endpoint: the request goes there. */
static void replay_send(replay_req *q, size_t cand, const char *endpoint)
{
    gw *g = q->g;
    if (!inflight_waiting(&g->commands, q->player_id, q->cmd_id)) {
        replay_end(q, DECKHAND__ERROR_CODE__OK, NULL); /* timed out meanwhile */
        return;
    }
    zsock *d = zsock_dealer(g, endpoint);
    Deckhand__ReplayRequest rr = DECKHAND__REPLAY_REQUEST__INIT;
    rr.match_id = q->match_id;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    pc.match_id = q->match_id;
    pc.player_id = q->player_id;
    pc.cmd_id = q->cmd_id;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_REPLAY;
    pc.replay = &rr;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = &pc;
    if (!d || zsock_send(d, &m) < 0) {
        replay_unavailable(q);
        return;
    }
    dh_info("replay of %s for %s sent to %s (%s)", q->match_id, q->player_id, q->cand[cand],
            q->why[cand]);
    replay_end(q, DECKHAND__ERROR_CODE__OK, NULL);
}

/* A Redis answer to the request's read: the reply, or NULL when Redis failed or answered
 * with an error or (want >= 0) another type than want; q is then answered UNAVAILABLE. */
static redisReply *replay_answered(replay_req *q, void *reply, int want)
{
    redisReply *r = reply;
    lookup_answered(q->g);
    if (!r || r->type == REDIS_REPLY_ERROR || (want >= 0 && r->type != want)) {
        replay_unavailable(q);
        return NULL;
    }
    return r;
}

static void replay_on_alive(redisAsyncContext *ac, void *reply, void *priv)
{
    replay_req *q = priv;
    redisReply *r = replay_answered(q, reply, -1);
    if (!r)
        return;
    size_t cand = q->next++;
    if (r->type == REDIS_REPLY_STRING && r->len > 0 && r->len < GW_ADDR_MAX)
        replay_send(q, cand, r->str);
    else
        replay_try(q); /* gone: the next one */
}

static void replay_on_finished_worker(redisAsyncContext *ac, void *reply, void *priv)
{
    replay_req *q = priv;
    redisReply *r = replay_answered(q, reply, -1);
    if (!r)
        return;
    if (r->type == REDIS_REPLY_STRING)
        replay_add(q, r->str, r->len, "a finished match's worker");
    replay_try(q);
}

static void replay_on_finished(redisAsyncContext *ac, void *reply, void *priv)
{
    replay_req *q = priv;
    redisReply *r = replay_answered(q, reply, REDIS_REPLY_ARRAY);
    if (!r)
        return;
    for (size_t i = 0; i < r->elements && q->nids < REPLAY_FINISHED_IDS; i++) {
        const redisReply *id = r->element[i];
        if (id->type == REDIS_REPLY_STRING && id->len > 0 && id->len < GW_MATCH_ID_MAX)
            memcpy(q->ids[q->nids++], id->str, id->len + 1);
    }
    replay_try(q);
}

/* Check the next candidate; when none is left, find more among the newest finished
 * matches' workers; when those are spent too, UNAVAILABLE. */
static void replay_try(replay_req *q)
{
    gw *g = q->g;
    char key[DH_KEY_MAX];
    int rc;
    if (q->next < q->ncand) {
        const char *argv[] = {"GET", dh_key_worker(key, q->cand[q->next])};
        rc = lookup_send(g, replay_on_alive, q, 2, argv, NULL);
    } else if (!q->finished_read) {
        q->finished_read = true;
        char last[24];
        snprintf(last, sizeof last, "%d", REPLAY_FINISHED_IDS - 1);
        const char *argv[] = {"LRANGE", DH_KEY_MATCHES_FINISHED, "0", last};
        rc = lookup_send(g, replay_on_finished, q, 4, argv, NULL);
    } else if (q->next_id < q->nids) {
        const char *argv[] = {"HGET", dh_key_match(key, q->ids[q->next_id++]), DH_F_WORKER};
        rc = lookup_send(g, replay_on_finished_worker, q, 3, argv, NULL);
    } else {
        dh_info("replay of %s: no live worker among %zu tried", q->match_id, q->ncand);
        replay_unavailable(q);
        return;
    }
    if (rc < 0)
        replay_unavailable(q);
}

static void replay_on_meta(redisAsyncContext *ac, void *reply, void *priv)
{
    replay_req *q = priv;
    redisReply *r = replay_answered(q, reply, REDIS_REPLY_ARRAY);
    if (!r)
        return;
    if (r->elements != 2) {
        replay_unavailable(q);
        return;
    }
    const redisReply *worker = r->element[0], *status = r->element[1];
    if (status->type != REDIS_REPLY_STRING || strcmp(status->str, DH_STATUS_FINISHED)) {
        replay_end(q, DECKHAND__ERROR_CODE__UNKNOWN_MATCH,
                   "no such finished match (or it is past its retention)");
        return;
    }
    if (worker->type == REDIS_REPLY_STRING)
        replay_add(q, worker->str, worker->len, "the match's worker");
    const char *known[REPLAY_CANDIDATES];
    size_t n = route_workers(q->g, known, REPLAY_CANDIDATES);
    for (size_t i = 0; i < n; i++)
        replay_add(q, known[i], strlen(known[i]), "a routed match's worker");
    replay_try(q);
}

/* A match id as the gateway passes them on: printable ASCII, no braces (a key's hash tag). */
static bool replay_id_valid(const char *id)
{
    size_t n = id ? strlen(id) : 0;
    if (n == 0 || n >= GW_MATCH_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (id[i] < 0x20 || id[i] > 0x7e || id[i] == '{' || id[i] == '}')
            return false;
    return true;
}

Deckhand__ErrorCode replay_request(gw_conn *c, uint64_t cmd_id, const Deckhand__ReplayRequest *r)
{
    gw *g = c->gw;
    if (cmd_id == 0 || !replay_id_valid(r->match_id)) {
        g->answer(g, c->player_id, cmd_id, DECKHAND__ERROR_CODE__BAD_REQUEST,
                  cmd_id == 0 ? "cmd_id must not be 0"
                              : "match_id must be 1-127 printable ASCII characters, no braces");
        return DECKHAND__ERROR_CODE__OK; /* answered */
    }
    if (!lookup_enabled(g))
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    replay_req *q = calloc(1, sizeof *q);
    if (!q)
        return DECKHAND__ERROR_CODE__INTERNAL;
    q->g = g;
    snprintf(q->player_id, sizeof q->player_id, "%s", c->player_id);
    snprintf(q->match_id, sizeof q->match_id, "%s", r->match_id);
    q->cmd_id = cmd_id;
    if (!inflight_track(g, &g->commands, c->player_id, cmd_id, "", REPLAY_TIMEOUT_MS)) {
        free(q);
        return DECKHAND__ERROR_CODE__INTERNAL;
    }
    char key[DH_KEY_MAX];
    const char *argv[] = {"HMGET", dh_key_match(key, q->match_id), DH_F_WORKER, DH_F_STATUS};
    if (lookup_send(g, replay_on_meta, q, 4, argv, NULL) < 0) {
        inflight_untrack(&g->commands, c->player_id, cmd_id);
        free(q);
        return DECKHAND__ERROR_CODE__UNAVAILABLE;
    }
    return DECKHAND__ERROR_CODE__OK;
}
