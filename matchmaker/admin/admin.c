/*
 * admin.c: the admin API's routes, the worker and gateway endpoints, and the audit of
 * every action (admin.h).
 */
#include "admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_audit.h"
#include "admin_matches.h"
#include "dh_grow.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "mm_data.h"
#include "mm_store.h"

#define ADMIN_ID_MAX     256
#define ADMIN_DETAIL_MAX 256

static int admin_error(dh_json *j, int status, const char *why)
{
    dh_json_object(j);
    dh_json_kstr(j, "error", why);
    dh_json_end(j);
    return status;
}

/* The path's segments after /admin: at most 3 ("matches", ID, "end"). */
typedef struct {
    char seg[3][ADMIN_ID_MAX];
    int n;
} admin_path;

/* Split path into its URL-decoded segments; -1 when it has more, an empty, a badly
 * encoded or a too long one. */
static int admin_split(const char *path, admin_path *p)
{
    memset(p, 0, sizeof *p);
    if (strncmp(path, "/admin", 6) != 0)
        return -1;
    path += 6;
    while (*path == '/' && path[1]) {
        path++;
        size_t n = strcspn(path, "/");
        if (p->n == 3 || n == 0 ||
            dh_ops_url_decode(path, n, false, p->seg[p->n], ADMIN_ID_MAX) <= 0)
            return -1;
        p->n++;
        path += n;
    }
    return *path && strcmp(path, "/") != 0 ? -1 : 0;
}

/* An optional parameter: out "" when absent; -1 (j answered 400) when malformed. */
static int admin_param(const dh_ops_admin_req *q, const char *key, char *out, size_t cap,
                       dh_json *j)
{
    long n = dh_ops_query(q->query, key, out, cap);
    if (n == -1)
        out[0] = '\0';
    if (n >= -1)
        return 0;
    char why[96];
    snprintf(why, sizeof why, "bad parameter %s (too long, or badly encoded)", key);
    admin_error(j, 400, why);
    return -1;
}

/* An unsigned parameter within [lo, hi], def when absent; -1 (400 in j) otherwise. */
static long long admin_uparam(const dh_ops_admin_req *q, const char *key, long long def,
                              long long lo, long long hi, dh_json *j)
{
    char v[32], *end;
    if (admin_param(q, key, v, sizeof v, j) < 0)
        return -1;
    if (!v[0])
        return def;
    long long n = strtoll(v, &end, 10);
    if (*end || n < lo || n > hi) {
        char why[96];
        snprintf(why, sizeof why, "bad %s (%lld..%lld)", key, lo, hi);
        admin_error(j, 400, why);
        return -1;
    }
    return n;
}

static int admin_list(mm_state *mm, const dh_ops_admin_req *q, dh_json *j, uint64_t now_ms)
{
    char game[64], worker[DH_ZMQ_ID_MAX + 1], bundle[80], cursor[32 + QUEUE_NAME_MAX];
    if (admin_param(q, "game", game, sizeof game, j) < 0 ||
        admin_param(q, "worker", worker, sizeof worker, j) < 0 ||
        admin_param(q, "bundle", bundle, sizeof bundle, j) < 0 ||
        admin_param(q, "cursor", cursor, sizeof cursor, j) < 0)
        return 400;
    long long age = admin_uparam(q, "min_age_s", 0, 0, 100LL * 365 * 86400, j);
    long long limit = age < 0 ? -1 : admin_uparam(q, "limit", 100, 1, ADMIN_LIST_MAX, j);
    if (age < 0 || limit < 0)
        return 400;
    admin_match_filter f = {.game = game[0] ? game : NULL,
                            .worker = worker[0] ? worker : NULL,
                            .bundle = bundle[0] ? bundle : NULL,
                            .min_age_ms = (uint64_t)age * 1000,
                            .limit = (unsigned)limit,
                            .cursor = cursor[0] ? cursor : "0"};
    return admin_matches_list(mm, &f, j, now_ms);
}

static void admin_worker_json(dh_json *j, const registry_worker *w, uint64_t now_ms)
{
    dh_json_object(j);
    dh_json_kstr(j, "worker_id", w->id);
    dh_json_kstr(j, "endpoint", w->endpoint);
    dh_json_kbool(j, "alive", w->alive);
    dh_json_kbool(j, "draining", w->draining);
    dh_json_kuint(j, "active", w->active);
    dh_json_kuint(j, "pending", w->pending);
    dh_json_kuint(j, "capacity", w->capacity);
    dh_json_kstr(j, "bundle", w->bundle);
    dh_json_kuint(j, "seen_ms_ago", now_ms > w->last_seen_ms ? now_ms - w->last_seen_ms : 0);
    dh_json_key(j, "games");
    dh_json_array(j);
    for (size_t g = 0; g < w->ngames; g++)
        dh_json_str(j, w->games[g].name);
    dh_json_end(j);
    dh_json_end(j);
}

static int admin_workers(mm_state *mm, dh_json *j, uint64_t now_ms)
{
    dh_json_object(j);
    dh_json_key(j, "workers");
    dh_json_array(j);
    for (size_t i = 0; i < mm->reg.nworkers; i++)
        if (!mm->reg.workers[i].stopped) /* drained: gone until it says hello again */
            admin_worker_json(j, &mm->reg.workers[i], now_ms);
    dh_json_end(j);
    dh_json_end(j);
    return 200;
}

static int admin_gateways(mm_state *mm, dh_json *j, uint64_t now_ms)
{
    dh_json_object(j);
    dh_json_key(j, "gateways");
    dh_json_array(j);
    for (size_t i = 0; i < mm->reg.ngateways; i++) {
        const registry_gateway *g = &mm->reg.gateways[i];
        uint64_t ago = now_ms > g->last_seen_ms ? now_ms - g->last_seen_ms : 0;
        dh_json_object(j);
        dh_json_kstr(j, "gateway_id", g->id);
        dh_json_kbool(j, "alive", ago < ADMIN_GATEWAY_SILENT_MS);
        dh_json_kuint(j, "connections", g->connections);
        dh_json_kuint(j, "players", g->players);
        dh_json_kuint(j, "seen_ms_ago", ago);
        dh_json_end(j);
    }
    dh_json_end(j);
    dh_json_end(j);
    return 200;
}

/* POST /admin/workers/ID/drain: the worker stops as on SIGTERM and its matches move.
 * Refused for the last live worker unless forced: its matches would have nowhere to go. */
static int admin_drain(mm_state *mm, const char *id, const char *reason, bool force,
                       const char *who, dh_json *j, char *detail, size_t cap)
{
    registry_worker *w = registry_find(&mm->reg, id);
    size_t others = 0;
    for (size_t i = 0; i < mm->reg.nworkers; i++)
        others += mm->reg.workers[i].alive && &mm->reg.workers[i] != w;
    const char *why = !w || !w->alive ? "no such live worker"
                      : !others && !force
                          ? "the only live worker: its matches would have nowhere to go "
                            "(force=1 drains it anyway)"
                          : NULL;
    if (why) {
        snprintf(detail, cap, "%s", why);
        return admin_error(j, w && w->alive ? 409 : 404, why);
    }
    Deckhand__Internal__AdminDrain d = DECKHAND__INTERNAL__ADMIN_DRAIN__INIT;
    d.reason = (char *)reason;
    d.who = (char *)who;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_DRAIN;
    msg.admin_drain = &d;
    if (dh_zmq_send(mm->router, w->id, &msg) < 0) {
        snprintf(detail, cap, "could not reach the worker");
        return admin_error(j, 503, detail);
    }
    snprintf(detail, cap, "sent; %u matches to move", w->active);
    dh_json_object(j);
    dh_json_kstr(j, "worker_id", w->id);
    dh_json_kbool(j, "sent", true);
    dh_json_kuint(j, "matches", w->active);
    dh_json_end(j);
    return 202;
}

/* The actions (POST): each is audited, whatever its outcome. */
static int admin_act(mm_state *mm, const dh_ops_admin_req *q, const admin_path *p, dh_json *j,
                     uint64_t now_ms)
{
    char reason[ADMIN_REASON_MAX], player[ADMIN_ID_MAX] = "", target[2 * ADMIN_ID_MAX + 2];
    char detail[ADMIN_DETAIL_MAX] = "";
    int status;
    bool on_match = p->n == 3 && !strcmp(p->seg[0], "matches");
    bool end = on_match && !strcmp(p->seg[2], "end");
    bool remove = on_match && !strcmp(p->seg[2], "remove");
    bool drain = p->n == 3 && !strcmp(p->seg[0], "workers") && !strcmp(p->seg[2], "drain");
    if (!end && !remove && !drain)
        return admin_error(j, 404, "no such admin action");
    const char *action = p->seg[2];
    if (admin_param(q, "reason", reason, sizeof reason, j) < 0 ||
        (remove && admin_param(q, "player", player, sizeof player, j) < 0))
        return 400;
    snprintf(target, sizeof target, "%s%s%s", p->seg[1], remove ? "/" : "", player);
    if (!reason[0] || (remove && !player[0])) {
        status = admin_error(
            j, 400, reason[0] ? "player=ID is required" : "a reason is required (reason=...)");
        snprintf(detail, sizeof detail, "refused: no %s given", reason[0] ? "player" : "reason");
    } else if (end) {
        status = admin_matches_end(mm, p->seg[1], reason, q->who, j, detail, sizeof detail, now_ms);
    } else if (remove) {
        status = admin_matches_remove(mm, p->seg[1], player, reason, q->who, j, detail,
                                      sizeof detail, now_ms);
    } else {
        char force[4];
        if (admin_param(q, "force", force, sizeof force, j) < 0)
            return 400;
        status = admin_drain(mm, p->seg[1], reason, !strcmp(force, "1"), q->who, j, detail,
                             sizeof detail);
    }
    admin_audit_entry e = {q->who, action, target, reason, status, detail};
    if (admin_audit_add(mm, &e, now_ms) < 0 && status < 300)
        dh_warn("admin: %s on %s was done but is missing from the audit trail", action, target);
    return status;
}

int admin_handle(mm_state *mm, const dh_ops_admin_req *q, dh_json *j, uint64_t now_ms)
{
    admin_path p;
    if (!lease_acting(mm, now_ms))
        return admin_error(j, 503,
                           "standby: this matchmaker does not hold mm:lease; ask the "
                           "acting one");
    if (admin_split(q->path, &p) < 0 || p.n == 0)
        return admin_error(j, 404, "no such admin path");
    if (!strcmp(q->method, "POST"))
        return admin_act(mm, q, &p, j, now_ms);
    if (!strcmp(p.seg[0], "matches") && p.n == 1)
        return admin_list(mm, q, j, now_ms);
    if (!strcmp(p.seg[0], "matches") && p.n == 2)
        return admin_matches_show(mm, p.seg[1], NULL, j, now_ms);
    if (!strcmp(p.seg[0], "workers") && p.n == 1)
        return admin_workers(mm, j, now_ms);
    if (!strcmp(p.seg[0], "gateways") && p.n == 1)
        return admin_gateways(mm, j, now_ms);
    if (!strcmp(p.seg[0], "audit") && p.n == 1) {
        long long limit = admin_uparam(q, "limit", 100, 1, ADMIN_AUDIT_MAX, j);
        return limit < 0 ? 400 : admin_audit_list(mm, (size_t)limit, j, now_ms);
    }
    if (p.n == 3)
        return admin_error(j, 405, "this action takes POST");
    return admin_error(j, 404, "no such admin path");
}

/* Answer q with status and j's document, and free q. */
static void admin_answer(dh_ops_admin *a, dh_ops_admin_req *q, int status, dh_json *j)
{
    size_t len = 0;
    char *body = dh_json_finish(j, &len);
    if (!body) {
        status = 500;
        body = strdup("{\"error\":\"the answer could not be written\"}");
        len = body ? strlen(body) : 0;
    }
    dh_debug("admin: %s %s?%s by %s: %d", q->method, q->path, q->query, q->who, status);
    dh_ops_admin_answer(a, q, status, body, len);
}

/* A show of a running match on a live worker: ask the worker and park q until it
 * answers (admin_info) or ADMIN_QUERY_MS pass (admin_expire). False: answer q now. */
static bool admin_park(mm_state *mm, dh_ops_admin_req *q, uint64_t now_ms)
{
    admin_path p;
    char worker[DH_ZMQ_ID_MAX + 1];
    if (strcmp(q->method, "GET") != 0 || admin_split(q->path, &p) < 0 || p.n != 2 ||
        strcmp(p.seg[0], "matches") != 0 || !lease_acting(mm, now_ms) ||
        admin_matches_worker(mm, p.seg[1], worker, now_ms) < 0)
        return false;
    admin_waits *w = &mm->admin;
    if (dh_grow(&w->v, &w->cap, w->n + 1, sizeof *w->v, 8) < 0)
        return false;
    Deckhand__Internal__AdminQuery aq = DECKHAND__INTERNAL__ADMIN_QUERY__INIT;
    aq.match_id = p.seg[1];
    aq.query_id = q->id;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_QUERY;
    msg.admin_query = &aq;
    if (dh_zmq_send(mm->router, worker, &msg) < 0)
        return false;
    w->v[w->n++] = (admin_wait){q, now_ms + ADMIN_QUERY_MS};
    return true;
}

/* Answer the parked show at index i with live (NULL: without the worker's part). */
static void admin_unpark(mm_state *mm, size_t i, const Deckhand__Internal__AdminMatchInfo *live,
                         uint64_t now_ms)
{
    admin_waits *w = &mm->admin;
    dh_ops_admin_req *q = w->v[i].q;
    w->v[i] = w->v[--w->n];
    admin_path p;
    dh_json j;
    dh_json_init(&j);
    int status = admin_split(q->path, &p) == 0 && p.n == 2
                     ? admin_matches_show(mm, p.seg[1], live, &j, now_ms)
                     : admin_error(&j, 404, "no such admin path");
    admin_answer(w->door, q, status, &j);
}

void admin_info(mm_state *mm, const Deckhand__Internal__AdminMatchInfo *info, uint64_t now_ms)
{
    for (size_t i = 0; i < mm->admin.n; i++)
        if (mm->admin.v[i].q->id == info->query_id) {
            admin_unpark(mm, i, info, now_ms);
            return;
        }
}

void admin_expire(mm_state *mm, uint64_t now_ms)
{
    for (size_t i = mm->admin.n; i-- > 0;)
        if (now_ms >= mm->admin.v[i].deadline_ms)
            admin_unpark(mm, i, NULL, now_ms);
}

void admin_free(mm_state *mm)
{
    admin_waits *w = &mm->admin;
    for (size_t i = 0; i < w->n; i++) {
        dh_json j;
        dh_json_init(&j);
        admin_answer(w->door, w->v[i].q, admin_error(&j, 503, "the matchmaker is stopping"), &j);
    }
    free(w->v);
    memset(w, 0, sizeof *w);
}

void admin_serve(mm_state *mm, dh_ops_admin *a, uint64_t now_ms)
{
    dh_ops_admin_req *q;
    mm->admin.door = a;
    while ((q = dh_ops_admin_take(a))) {
        if (admin_park(mm, q, now_ms))
            continue;
        dh_json j;
        dh_json_init(&j);
        int status = admin_handle(mm, q, &j, now_ms);
        admin_answer(a, q, status, &j);
    }
}
