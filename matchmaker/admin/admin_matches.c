/*
 * admin_matches.c: the admin API's match endpoints (admin_matches.h).
 */
#include "admin_matches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "mm_data.h"
#include "mm_store.h"

/* The fields list and show read, in this order. */
static const char *const admin_fields[] = {
    DH_F_GAME,    DH_F_MODE,     DH_F_BUNDLE,     DH_F_WORKER,     DH_F_EPOCH,
    DH_F_STATUS,  DH_F_PLAYERS,  DH_F_PLAYER_IDS, DH_F_CREATED_MS, DH_F_AWAY,
    DH_F_ABANDON, DH_F_ENDED_MS, DH_F_END_REASON, DH_F_RESULT,
};
enum {
    F_GAME,
    F_MODE,
    F_BUNDLE,
    F_WORKER,
    F_EPOCH,
    F_STATUS,
    F_PLAYERS,
    F_PLAYER_IDS,
    F_CREATED,
    F_AWAY,
    F_ABANDON,
    F_ENDED,
    F_END_REASON,
    F_RESULT,
    F_N
};

static void admin_error(dh_json *j, const char *why)
{
    dh_json_object(j);
    dh_json_kstr(j, "error", why);
    dh_json_end(j);
}

/* Field i of an HMGET reply, or "" when missing. */
static const char *admin_field(const redisReply *r, int i)
{
    if (!r || r->type != REDIS_REPLY_ARRAY || (size_t)i >= r->elements ||
        r->element[i]->type != REDIS_REPLY_STRING)
        return "";
    return r->element[i]->str;
}

/* The HMGET of admin_fields on match:{id}, as a command whose argv lives in argv/key. */
static rconn_cmd admin_hmget(const char *id, const char **argv, char *key)
{
    argv[0] = "HMGET";
    argv[1] = dh_key_match(key, id);
    for (int i = 0; i < F_N; i++)
        argv[2 + i] = admin_fields[i];
    return (rconn_cmd){.argc = 2 + F_N, .argv = argv};
}

static uint64_t admin_age_ms(const mm_state *mm, const redisReply *r, uint64_t now_ms)
{
    uint64_t created = strtoull(admin_field(r, F_CREATED), NULL, 10);
    uint64_t wall = mm_wall_ms(mm, now_ms);
    return created && wall > created ? wall - created : 0;
}

/* A comma-separated field as a JSON array of strings. */
static void admin_csv(dh_json *j, const char *csv)
{
    dh_json_array(j);
    const char *item;
    size_t n;
    while (dh_list_next(&csv, &item, &n))
        dh_json_strn(j, item, n);
    dh_json_end(j);
}

static bool admin_keep(const admin_match_filter *f, const char *worker, const redisReply *r,
                       uint64_t age_ms)
{
    if (f->worker && strcmp(f->worker, worker) != 0)
        return false;
    if (f->game && strcmp(f->game, admin_field(r, F_GAME)) != 0)
        return false;
    if (f->bundle && strncmp(admin_field(r, F_BUNDLE), f->bundle, strlen(f->bundle)) != 0)
        return false; /* a prefix of the SHA is enough, as `scripts` prints it */
    return age_ms >= f->min_age_ms && !strcmp(admin_field(r, F_STATUS), DH_STATUS_RUNNING);
}

static void admin_row(dh_json *j, const char *id, const char *worker, const redisReply *r,
                      uint64_t age_ms)
{
    dh_json_object(j);
    dh_json_kstr(j, "match_id", id);
    dh_json_kstr(j, "game", admin_field(r, F_GAME));
    dh_json_kstr(j, "mode", admin_field(r, F_MODE));
    dh_json_kstr(j, "worker", worker);
    dh_json_kstr(j, "bundle", admin_field(r, F_BUNDLE));
    dh_json_key(j, "players");
    admin_csv(j, admin_field(r, F_PLAYERS));
    dh_json_kuint(j, "age_s", age_ms / 1000);
    dh_json_end(j);
}

/* One candidate of a scan step: a running match and its worker (pointers into the
 * HSCAN reply). */
typedef struct {
    const char *id, *worker;
} admin_cand;

static int admin_cand_cmp(const void *a, const void *b)
{
    return strcmp(((const admin_cand *)a)->id, ((const admin_cand *)b)->id);
}

/* A page's progress: rows written so far, and where it stopped. */
typedef struct {
    unsigned rows;
    char last[QUEUE_NAME_MAX]; /* the id of the last row written ("" none) */
    bool cut;                  /* the page filled up before this step's candidates ran out */
} admin_page;

/* One HSCAN step: its pairs (id, worker in kv) with ids after `after`, in id order, read
 * in one pipeline, filtered and written into j until the page holds f->limit rows.
 * 0, or -1 when Redis failed. */
static int admin_list_step(mm_state *mm, const admin_match_filter *f, const redisReply *kv,
                           const char *after, admin_page *pg, dh_json *j, uint64_t now_ms)
{
    size_t n = 0, total = kv->elements / 2;
    admin_cand *cand = calloc(total ? total : 1, sizeof *cand);
    if (!cand)
        return -1;
    for (size_t i = 0; i < total; i++) {
        const redisReply *k = kv->element[2 * i], *v = kv->element[2 * i + 1];
        if (k->type == REDIS_REPLY_STRING && v->type == REDIS_REPLY_STRING &&
            strlen(k->str) < QUEUE_NAME_MAX && strcmp(k->str, after) > 0)
            cand[n++] = (admin_cand){k->str, v->str};
    }
    qsort(cand, n, sizeof *cand, admin_cand_cmp);
    rconn_hmgets h;
    int rc = -1;
    if (rconn_hmgets_init(&h, n, F_N) < 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        rconn_hmgets_add(&h, dh_key_match(rconn_hmgets_key(&h), cand[i].id), admin_fields);
    if (rconn_hmgets_run(mm, now_ms, &h) < 0)
        goto out;
    rc = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t age = admin_age_ms(mm, h.out[i], now_ms);
        if (pg->rows == f->limit) {
            pg->cut = true; /* more candidates wait: the next page starts after last */
            break;
        }
        if (h.out[i]->type == REDIS_REPLY_ARRAY && admin_keep(f, cand[i].worker, h.out[i], age)) {
            admin_row(j, cand[i].id, cand[i].worker, h.out[i], age);
            snprintf(pg->last, sizeof pg->last, "%s", cand[i].id);
            pg->rows++;
        }
    }
out:
    rconn_hmgets_free(&h);
    free(cand);
    return rc;
}

/* Start j over with an error (a failure halfway leaves no half document). */
static int admin_fail(dh_json *j, int status, const char *why)
{
    dh_json_free(j);
    admin_error(j, why);
    return status;
}

int admin_matches_list(mm_state *mm, const admin_match_filter *f, dh_json *j, uint64_t now_ms)
{
    /* the cursor: "SCAN" (HSCAN's) or "SCAN:ID" (that step again, after ID) */
    char cursor[32], after[QUEUE_NAME_MAX] = "", count[16], next[32 + QUEUE_NAME_MAX] = "";
    size_t cl = strcspn(f->cursor, ":");
    if (cl >= sizeof cursor || strlen(f->cursor + cl) > sizeof after)
        return admin_fail(j, 400, "bad cursor");
    snprintf(cursor, sizeof cursor, "%.*s", (int)cl, f->cursor);
    if (f->cursor[cl] == ':')
        snprintf(after, sizeof after, "%s", f->cursor + cl + 1);
    snprintf(count, sizeof count, "%d", ADMIN_LIST_STEP);
    admin_page pg = {0};
    dh_json_object(j);
    dh_json_key(j, "matches");
    dh_json_array(j);
    for (int step = 0; step < ADMIN_SCAN_STEPS; step++) {
        const char *argv[] = {"HSCAN", DH_KEY_MATCHES_RUNNING, cursor, "COUNT", count};
        redisReply *r = rconn_command(mm, now_ms, 5, argv);
        if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
            r->element[0]->type != REDIS_REPLY_STRING || r->element[1]->type != REDIS_REPLY_ARRAY) {
            if (r)
                freeReplyObject(r);
            return admin_fail(j, 503, "Redis unreachable, or matches:running is not a hash");
        }
        int rc = admin_list_step(mm, f, r->element[1], after, &pg, j, now_ms);
        if (rc == 0 && pg.cut)
            snprintf(next, sizeof next, "%s:%s", cursor, pg.last);
        else if (rc == 0)
            snprintf(cursor, sizeof cursor, "%s", r->element[0]->str);
        freeReplyObject(r);
        if (rc < 0)
            return admin_fail(j, 503, "Redis unreachable");
        after[0] = '\0';
        if (pg.cut || !strcmp(cursor, "0"))
            break;
        if (pg.rows == f->limit) { /* full at a step's end: the next page is the next step */
            snprintf(next, sizeof next, "%s", cursor);
            break;
        }
    }
    if (!next[0] && strcmp(cursor, "0") != 0)
        snprintf(next, sizeof next, "%s", cursor); /* out of steps for this page */
    dh_json_end(j);
    dh_json_kuint(j, "count", pg.rows);
    dh_json_kstr(j, "next", next);
    dh_json_end(j);
    return 200;
}

/* Read match:{id} (admin_fields) into *out: 200, 404 when there is no such match, or
 * 503 (j holds the error then). */
static int admin_read(mm_state *mm, const char *id, redisReply **out, dh_json *j, uint64_t now_ms)
{
    const char *argv[2 + F_N];
    char key[DH_KEY_MAX];
    rconn_cmd c = admin_hmget(id, argv, key);
    *out = NULL;
    if (strlen(id) >= QUEUE_NAME_MAX || !id[0]) {
        admin_error(j, "no such match");
        return 404;
    }
    redisReply *r = rconn_command_cmd(mm, now_ms, &c);
    if (!r || r->type != REDIS_REPLY_ARRAY) {
        if (r)
            freeReplyObject(r);
        admin_error(j, "Redis unreachable");
        return 503;
    }
    if (!admin_field(r, F_STATUS)[0]) {
        freeReplyObject(r);
        admin_error(j, "no such match");
        return 404;
    }
    *out = r;
    return 200;
}

/* The seats: ids, names and away times side by side. */
static void admin_seats(dh_json *j, const redisReply *r, uint64_t wall_ms)
{
    const char *ids = admin_field(r, F_PLAYER_IDS), *names = admin_field(r, F_PLAYERS);
    const char *away = admin_field(r, F_AWAY);
    dh_json_array(j);
    const char *id, *name, *gone;
    size_t ni, nn, ng;
    for (int seat = 0; dh_list_next(&ids, &id, &ni); seat++) {
        if (!dh_list_next(&names, &name, &nn))
            name = "", nn = 0; /* fewer names than ids: the seat shows none */
        uint64_t left = dh_list_next(&away, &gone, &ng) ? strtoull(gone, NULL, 10) : 0;
        dh_json_object(j);
        dh_json_kint(j, "seat", seat);
        dh_json_key(j, "player_id");
        dh_json_strn(j, id, ni);
        dh_json_key(j, "name");
        dh_json_strn(j, name, nn);
        dh_json_kbool(j, "connected", left == 0);
        if (left)
            dh_json_kuint(j, "away_s", wall_ms > left ? (wall_ms - left) / 1000 : 0);
        dh_json_end(j);
    }
    dh_json_end(j);
}

/* The history's length: the answers the match has taken (-1 when unknown). */
static long long admin_answers(mm_state *mm, const char *id, uint64_t now_ms)
{
    char key[DH_KEY_MAX];
    const char *argv[] = {"LLEN", dh_key_match_history(key, id)};
    redisReply *r = rconn_command(mm, now_ms, 2, argv);
    long long n = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return n;
}

/* The worker's part of a show: "live": {...} or null. */
static void admin_live(dh_json *j, const Deckhand__Internal__AdminMatchInfo *live)
{
    dh_json_key(j, "live");
    if (!live || !live->found) {
        dh_json_null(j);
        return;
    }
    dh_json_object(j);
    dh_json_kuint(j, "turn", live->turn);
    dh_json_kuint(j, "answers", live->answers);
    dh_json_kint(j, "waiting_seat", live->waiting_seat);
    dh_json_kuint(j, "waiting_s", live->waiting_ms / 1000);
    dh_json_key(j, "seats");
    dh_json_array(j);
    for (size_t i = 0; i < live->n_seats; i++) {
        dh_json_object(j);
        dh_json_kint(j, "seat", (int64_t)i);
        dh_json_kbool(j, "connected", live->seats[i]->connected);
        dh_json_kbool(j, "bot", live->seats[i]->bot);
        dh_json_kbool(j, "removed", live->seats[i]->removed);
        dh_json_end(j);
    }
    dh_json_end(j);
    dh_json_end(j);
}

int admin_matches_worker(mm_state *mm, const char *id, char *worker, uint64_t now_ms)
{
    char key[DH_KEY_MAX];
    if (!id[0] || strlen(id) >= QUEUE_NAME_MAX)
        return -1;
    const char *argv[] = {"HMGET", dh_key_match(key, id), DH_F_STATUS, DH_F_WORKER};
    redisReply *r = rconn_command(mm, now_ms, 4, argv);
    int rc = -1;
    if (!strcmp(admin_field(r, 0), DH_STATUS_RUNNING)) {
        registry_worker *w = registry_find(&mm->reg, admin_field(r, 1));
        if (w && w->alive) {
            snprintf(worker, DH_ZMQ_ID_MAX + 1, "%s", w->id);
            rc = 0;
        }
    }
    if (r)
        freeReplyObject(r);
    return rc;
}

int admin_matches_show(mm_state *mm, const char *id, const Deckhand__Internal__AdminMatchInfo *live,
                       dh_json *j, uint64_t now_ms)
{
    redisReply *r;
    int status = admin_read(mm, id, &r, j, now_ms);
    if (status != 200)
        return status;
    const char *worker = admin_field(r, F_WORKER);
    registry_worker *w = registry_find(&mm->reg, worker);
    long long answers = admin_answers(mm, id, now_ms);
    dh_json_object(j);
    dh_json_kstr(j, "match_id", id);
    dh_json_kstr(j, "status", admin_field(r, F_STATUS));
    dh_json_kstr(j, "game", admin_field(r, F_GAME));
    dh_json_kstr(j, "mode", admin_field(r, F_MODE));
    dh_json_kstr(j, "bundle", admin_field(r, F_BUNDLE));
    dh_json_kstr(j, "worker", worker);
    dh_json_kbool(j, "worker_alive", w && w->alive);
    dh_json_kuint(j, "epoch", strtoull(admin_field(r, F_EPOCH), NULL, 10));
    dh_json_kuint(j, "created_ms", strtoull(admin_field(r, F_CREATED), NULL, 10));
    dh_json_kuint(j, "age_s", admin_age_ms(mm, r, now_ms) / 1000);
    if (answers >= 0)
        dh_json_kint(j, "answers", answers);
    dh_json_kstr(j, "abandon", admin_field(r, F_ABANDON));
    dh_json_key(j, "seats");
    admin_seats(j, r, mm_wall_ms(mm, now_ms));
    if (admin_field(r, F_ENDED)[0]) {
        dh_json_kuint(j, "ended_ms", strtoull(admin_field(r, F_ENDED), NULL, 10));
        dh_json_kstr(j, "end_reason", admin_field(r, F_END_REASON));
        dh_json_kstr(j, "result", admin_field(r, F_RESULT));
    }
    admin_live(j, live);
    dh_json_end(j);
    freeReplyObject(r);
    return 200;
}

/* The checks both actions share: the match runs, on a live worker (whose id goes into
 * worker). 200, or the refusal's status with j and detail filled. */
static int admin_action_target(mm_state *mm, const char *id, redisReply **r, char *worker,
                               dh_json *j, char *detail, size_t cap, uint64_t now_ms)
{
    int status = admin_read(mm, id, r, j, now_ms);
    if (status != 200) {
        snprintf(detail, cap, "%s", status == 404 ? "no such match" : "Redis unreachable");
        return status;
    }
    const char *why = NULL;
    snprintf(worker, DH_ZMQ_ID_MAX + 1, "%s", admin_field(*r, F_WORKER));
    registry_worker *w = registry_find(&mm->reg, worker);
    if (strcmp(admin_field(*r, F_STATUS), DH_STATUS_RUNNING) != 0)
        why = "the match is not running";
    else if (!w || !w->alive)
        why = "its worker is not alive: the match moves to another worker first; retry";
    if (!why)
        return 200;
    snprintf(detail, cap, "%s", why);
    admin_error(j, why);
    freeReplyObject(*r);
    *r = NULL;
    return 409;
}

/* Send msg to worker; 202 with j naming it, or 503. */
static int admin_send(mm_state *mm, const char *worker, Deckhand__Internal__Internal *msg,
                      const char *id, dh_json *j, char *detail, size_t cap)
{
    if (dh_zmq_send(mm->router, worker, msg) < 0) {
        snprintf(detail, cap, "could not reach worker %s", worker);
        admin_error(j, detail);
        return 503;
    }
    snprintf(detail, cap, "sent to worker %s", worker);
    dh_json_object(j);
    dh_json_kstr(j, "match_id", id);
    dh_json_kstr(j, "worker", worker);
    dh_json_kbool(j, "sent", true);
    return 202; /* the caller adds its members and closes j */
}

int admin_matches_end(mm_state *mm, const char *id, const char *reason, const char *who, dh_json *j,
                      char *detail, size_t cap, uint64_t now_ms)
{
    redisReply *r = NULL;
    char worker[DH_ZMQ_ID_MAX + 1];
    int status = admin_action_target(mm, id, &r, worker, j, detail, cap, now_ms);
    if (status != 200)
        return status;
    freeReplyObject(r);
    Deckhand__Internal__AdminEndMatch e = DECKHAND__INTERNAL__ADMIN_END_MATCH__INIT;
    e.match_id = (char *)id;
    e.reason = (char *)reason;
    e.who = (char *)who;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_END;
    msg.admin_end = &e;
    status = admin_send(mm, worker, &msg, id, j, detail, cap);
    if (status == 202)
        dh_json_end(j);
    return status;
}

int admin_matches_remove(mm_state *mm, const char *id, const char *player, const char *reason,
                         const char *who, dh_json *j, char *detail, size_t cap, uint64_t now_ms)
{
    redisReply *r = NULL;
    char worker[DH_ZMQ_ID_MAX + 1], abandon[16];
    int status = admin_action_target(mm, id, &r, worker, j, detail, cap, now_ms);
    if (status != 200)
        return status;
    int seat = dh_list_find(admin_field(r, F_PLAYER_IDS), player);
    snprintf(abandon, sizeof abandon, "%s", admin_field(r, F_ABANDON));
    freeReplyObject(r);
    if (seat < 0) {
        snprintf(detail, cap, "no such player in the match");
        admin_error(j, detail);
        return 404;
    }
    Deckhand__Internal__AdminRemovePlayer rp = DECKHAND__INTERNAL__ADMIN_REMOVE_PLAYER__INIT;
    rp.match_id = (char *)id;
    rp.player_id = (char *)player;
    rp.reason = (char *)reason;
    rp.who = (char *)who;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_REMOVE;
    msg.admin_remove = &rp;
    status = admin_send(mm, worker, &msg, id, j, detail, cap);
    if (status == 202) {
        const char *policy = !strcmp(abandon, "forfeit") ? "forfeit" : "bot";
        dh_json_kstr(j, "player_id", player);
        dh_json_kint(j, "seat", seat);
        dh_json_kstr(j, "abandon", policy);
        dh_json_end(j);
        snprintf(detail, cap, "sent to worker %s; seat %d follows abandon=%s", worker, seat,
                 policy);
        seated_leave(&mm->seated, player, id); /* it may queue for another match now */
    }
    return status;
}
