/*
 * host_persist.c: how a hosted match is written to Redis (store.h): the one fenced write
 * that makes Redis hold the match as the engine has it now, the result table once it is
 * over (with its rating job, rater_job, when every seat is an account), and the held action whose
 * outputs wait for that write's acknowledgement.
 */
#include "host_persist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bundles.h"
#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "store.h"

#define HOST_RESULT_MAX 4096
#define HOST_LOG_STACK  16 /* log entries a commit lists on the stack */
/* their bytes and the history's entry, on the stack when they fit */
#define HOST_BYTES_STACK 1024

uint64_t host_wall_ms(const host *h)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 + h->wall_ahead_ms;
}

/* A bounded text buffer: appends past the end are cut, never overflow. */
typedef struct {
    char *p;
    size_t at, cap;
} host_text;

static void host_text_add(host_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void host_text_add(host_text *t, const char *fmt, ...)
{
    if (t->at + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->p + t->at, t->cap - t->at, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->at = t->at + (size_t)n < t->cap ? t->at + (size_t)n : t->cap - 1;
}

static void host_text_json_str(host_text *t, const char *s)
{
    host_text_add(t, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            host_text_add(t, "\\%c", c);
        else if (c < 0x20)
            host_text_add(t, "\\u%04x", c);
        else
            host_text_add(t, "%c", c);
    }
    host_text_add(t, "\"");
}

/* Over: the rules ended it, a seat forfeited, the match was quarantined, or an operator
 * ended it. */
bool host_over(const host_match *hm)
{
    return hm->forfeit_seat >= 0 || hm->quarantined || hm->admin_end[0] ||
           engine_match_finished(hm->m);
}

const char *host_end_reason(const host_match *hm)
{
    if (hm->quarantined)
        return DH_END_SCRIPT_ERROR;
    if (hm->admin_end[0])
        return hm->admin_end; /* "admin: REASON" */
    if (hm->idle)
        return DH_END_IDLE;
    if (hm->resign_end)
        return DH_END_RESIGNED;
    return engine_match_turn_capped(hm->m) ? DH_END_TURN_CAP : NULL;
}

/* Seats that resigned (and a bot played on) rank last, behind every seat that played to
 * the end, whatever the rules said; those keep their order among themselves (a rank is 1
 * + the seats that played on and ranked strictly ahead). */
static void host_results_resigned(const host_match *hm, engine_result *res, size_t n)
{
    int rank[HOST_SEATS_MAX], on = 0;
    for (size_t i = 0; i < n && i < HOST_SEATS_MAX; i++) {
        const host_seat *s =
            res[i].seat >= 0 && res[i].seat < hm->nseats ? &hm->seats[res[i].seat] : NULL;
        on += !(s && s->resigned);
        rank[i] = 1;
        for (size_t j = 0; j < n; j++) {
            const host_seat *t =
                res[j].seat >= 0 && res[j].seat < hm->nseats ? &hm->seats[res[j].seat] : NULL;
            rank[i] += !(t && t->resigned) && res[j].rank < res[i].rank;
        }
    }
    for (size_t i = 0; i < n && i < HOST_SEATS_MAX; i++) {
        const host_seat *s =
            res[i].seat >= 0 && res[i].seat < hm->nseats ? &hm->seats[res[i].seat] : NULL;
        res[i].rank = s && s->resigned ? on + 1 : rank[i];
    }
}

/* The final table by seat: the engine's, or after a forfeit (or the resignation that ends
 * it) every other seat shares first place and the forfeiting seat is last with any that
 * resigned before (scores are the points held when it happened, unknown to the host: 0). */
size_t host_results(const host_match *hm, engine_result *res, size_t max)
{
    if (hm->quarantined || hm->admin_end[0]) {
        /* nobody won a match its scripts could not play, or an operator stopped: rank 0 */
        size_t n = (size_t)hm->nseats < max ? (size_t)hm->nseats : max;
        for (size_t i = 0; i < n; i++)
            res[i] = (engine_result){.seat = (int)i, .score = 0, .rank = 0, .turns = 0};
        return n;
    }
    if (hm->forfeit_seat < 0) {
        size_t n = engine_match_results(hm->m, res, max);
        host_results_resigned(hm, res, n);
        return n;
    }
    size_t n = (size_t)hm->nseats < max ? (size_t)hm->nseats : max;
    for (size_t i = 0; i < n; i++) {
        bool lost = (int)i == hm->forfeit_seat || hm->seats[i].resigned;
        res[i] = (engine_result){.seat = (int)i, .score = 0, .rank = lost ? hm->nseats : 1};
    }
    return n;
}

/* The result as stored in match:{ID}.result: [{seat,name,score,rank,turns}...]. A
 * result cut by the buffer's end is not valid JSON; 4 KiB holds any real table. */
static void host_results_json(host_match *hm, char *json, size_t cap)
{
    engine_result res[HOST_SEATS_MAX];
    size_t n = host_results(hm, res, HOST_SEATS_MAX);
    host_text t = {json, 0, cap};
    json[0] = '\0';
    host_text_add(&t, "[");
    for (size_t i = 0; i < n; i++) {
        int seat = res[i].seat;
        host_text_add(&t, "%s{\"seat\":%d,\"name\":", i ? "," : "", seat);
        host_text_json_str(&t, seat >= 0 && seat < hm->nseats ? hm->seats[seat].name : "");
        bool resigned = seat >= 0 && seat < hm->nseats && hm->seats[seat].resigned;
        host_text_add(&t, ",\"score\":%d,\"rank\":%d,\"turns\":%d%s%s}", res[i].score, res[i].rank,
                      res[i].turns, seat == hm->forfeit_seat ? ",\"forfeit\":true" : "",
                      resigned ? ",\"resigned\":true" : "");
    }
    host_text_add(&t, "]");
}

/* The rating job of a finished match (rater_job) into job: 0, or -1 when it is not rated
 * (unrated: bot-filled; quarantined; ended by an operator; or not every seat an account).
 * No job also means no history entry: the rater writes both. */
static int host_rating_job(host *h, host_match *hm, uint64_t ended_ms, char *job, size_t cap)
{
    engine_result res[HOST_SEATS_MAX];
    const char *ids[HOST_SEATS_MAX];
    int ranks[HOST_SEATS_MAX];
    if (hm->unrated || hm->quarantined || hm->admin_end[0] || hm->nseats > HOST_SEATS_MAX)
        return -1;
    size_t n = host_results(hm, res, HOST_SEATS_MAX);
    if (n != (size_t)hm->nseats)
        return -1;
    for (int i = 0; i < hm->nseats; i++)
        ids[i] = hm->seats[i].player_id;
    for (size_t i = 0; i < n; i++) {
        if (res[i].seat < 0 || res[i].seat >= hm->nseats)
            return -1;
        ranks[res[i].seat] = res[i].rank;
    }
    const char *bundle = hm->pin ? hm->pin->id : engine_bundle_id(h->bundle);
    return rater_job(hm->game, hm->mode[0] ? hm->mode : "casual", bundle, ended_ms, ids, ranks, n,
                     job, cap);
}

/* Whether this write carries a new snapshot: at the start (no answer), at the end, at a
 * bundle move (no answer either), and every h->snap_every turn boundaries; between them the
 * log carries the answers since the snapshot Redis holds, across boundaries. */
static bool host_snapshot_due(const host *h, const host_match *hm, uint64_t version,
                              const engine_answer *accepted)
{
    if (version == hm->snap_version)
        return false;
    return !accepted || host_over(hm) || version - hm->snap_version >= h->snap_every;
}

/* Append the one fenced write that makes Redis hold hm as the engine has it now: a new
 * snapshot when one is due (host_snapshot_due; it resets the log to the engine's answers
 * since its turn boundary), else the answer just accepted appended to the log; the accepted
 * answer (NULL for a new match) on the history; the result and final hash once finished.
 * -1 when the write could not be queued. */
int host_persist(host *h, host_match *hm, const engine_answer *accepted)
{
    int rc = -1;
    store_commit c = {.match_id = hm->id,
                      .worker = h->worker_id,
                      .epoch = hm->epoch,
                      .recheck = hm->commit_unsure};
    uint64_t version = engine_match_snapshot_version(hm->m);
    bool snap = host_snapshot_due(h, hm, version, accepted);
    size_t nlog = snap ? engine_match_log_len(hm->m) : 0;
    hm->snap_writing = 0;
    c.tail = hm->tail;
    if (snap) {
        c.snap = engine_match_snapshot(hm->m, &c.snap_len);
        if (!c.snap) /* an all-bot match writes its last one when read: out of memory */
            return -1;
        hm->snap_writing = version;
        host_persist_tail(h, hm, &c);
    }
    /* the new entries and the history's: on the stack, unless the engine's log since its
     * boundary is long (no malloc per answer: issue 27) */
    size_t need = accepted ? ENGINE_ANSWER_BYTES(accepted->n) : 0;
    for (size_t i = 0; i < nlog; i++)
        need += ENGINE_ANSWER_BYTES(engine_match_log_at(hm->m, i).n);
    store_blob logbuf[HOST_LOG_STACK];
    uint8_t bytebuf[HOST_BYTES_STACK];
    store_blob *log = nlog < HOST_LOG_STACK ? logbuf : calloc(nlog + 1, sizeof *log);
    uint8_t *bytes = need <= sizeof bytebuf ? bytebuf : malloc(need), *at = bytes;
    char json[HOST_RESULT_MAX], hash[24], job[RATER_JOB_MAX];
    if (!log || !bytes)
        goto out;
    for (size_t i = 0; i < nlog; i++) {
        engine_answer a = engine_match_log_at(hm->m, i);
        log[c.nlog] = (store_blob){.data = at, .len = engine_answer_encode_to(&a, at)};
        at += log[c.nlog++].len;
    }
    c.log = log;
    if (accepted) {
        c.hist = at;
        c.hist_len = engine_answer_encode_to(accepted, at);
        if (!snap) /* the same bytes on the log */
            log[c.nlog++] = (store_blob){.data = at, .len = c.hist_len};
    }
    if (host_over(hm)) {
        host_results_json(hm, json, sizeof json);
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)engine_match_hash(hm->m));
        c.finish = true;
        c.ended_ms = host_wall_ms(h);
        c.result = json;
        c.final_hash = hash;
        c.end_reason = host_end_reason(hm);
        if (host_rating_job(h, hm, c.ended_ms, job, sizeof job) == 0)
            c.rating_job = job;
    }
    rc = store_put_commit(h->st, &c);
out:
    if (log != logbuf)
        free(log);
    if (bytes != bytebuf)
        free(bytes);
    return rc;
}

void host_persist_tail(const host *h, host_match *hm, store_commit *c)
{
    c->tail = hm->tail_writing = h->log_in_history;
    if (!c->tail) /* whether it lands or not, an answer on the log too is right */
        hm->tail = false;
}

void host_persist_landed(host_match *hm, bool ok)
{
    hm->commit_unsure = !ok;
    if (ok && hm->snap_writing) {
        hm->snap_version = hm->snap_writing;
        hm->tail = hm->tail_writing;
    }
    hm->snap_writing = 0;
}

void host_persist_notes(host *h, host_match *hm, uint64_t now_ms)
{
    char away[STORE_AWAY_MAX], removed[STORE_AWAY_MAX];
    size_t at = 0, rat = 0;
    uint64_t wall = host_wall_ms(h);
    away[0] = removed[0] = '\0';
    for (int i = 0; i < hm->nseats && at < sizeof away && rat < sizeof removed; i++) {
        const host_seat *s = &hm->seats[i];
        uint64_t since = now_ms - s->away_ms; /* how long ago it left, on our clock */
        uint64_t left = !s->away_ms ? 0 : since < wall ? wall - since : 1;
        at += (size_t)snprintf(away + at, sizeof away - at, "%s%llu", i ? "," : "",
                               (unsigned long long)left);
        /* 1: an operator removed the player, 2: it resigned (host_adopt.c reads both) */
        rat += (size_t)snprintf(removed + rat, sizeof removed - rat, "%s%d", i ? "," : "",
                                s->resigned ? 2 : s->removed);
    }
    int op = store_op(h->st, now_ms);
    if (op < 0 || store_put_notes(h->st, h->worker_id, hm->id, hm->epoch, away, removed,
                                  hm->script_failures) < 0)
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: cannot note its seats in Redis", hm->id);
}

host_action *host_hold(host *h, host_act_kind kind, host_match *hm, int op)
{
    if (dh_grow(&h->acts, &h->capacts, h->nacts + 1, sizeof *h->acts, 64) < 0)
        return NULL;
    host_action *a = &h->acts[h->nacts++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->hm = hm;
    a->op = op;
    hm->busy = true;
    return a;
}

bool host_end(host *h, host_match *hm, uint64_t now_ms)
{
    int op = store_op(h->st, now_ms);
    if (op >= 0 && host_persist(h, hm, NULL) < 0)
        op = -1;
    if (!host_hold(h, HOST_ACT_END, hm, op)) {
        hm->busy = false;
        return false;
    }
    return true;
}
