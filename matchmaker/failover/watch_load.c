/*
 * watch_load.c: the watch list rebuilt from matches:running and match:{ID}, a bounded
 * number of steps per tick (see watch_load.h).
 */
#include "watch_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "mm_data.h"
#include "mm_store.h"

static const char *const watch_load_fields[] = {DH_F_GAME, DH_F_MODE, DH_F_PLAYERS, DH_F_CREATED_MS,
                                                DH_F_STATUS};
enum { WF_GAME, WF_MODE, WF_PLAYERS, WF_CREATED, WF_STATUS, WF_N };

void watch_load_begin(mm_state *mm)
{
    watch_rebuild_begin(&mm->watching);
}

/* Field i of an HMGET reply, or "" when missing. */
static const char *watch_load_field(const redisReply *r, int i)
{
    if (!r || r->type != REDIS_REPLY_ARRAY || (size_t)i >= r->elements ||
        r->element[i]->type != REDIS_REPLY_STRING)
        return "";
    return r->element[i]->str;
}

/* Match id, from its hash r (HMGET of watch_load_fields), handed to the rebuild unless it
 * is not running (or its hash is gone). 0, or -1 out of memory. */
static int watch_load_one(mm_state *mm, const char *id, const redisReply *r)
{
    if (strcmp(watch_load_field(r, WF_STATUS), DH_STATUS_RUNNING) != 0)
        return 0;
    const char *csv = watch_load_field(r, WF_PLAYERS);
    size_t n = dh_list_count(csv);
    char *copy = strdup(csv);
    const char **names = calloc(n ? n : 1, sizeof *names);
    int rc = -1;
    if (copy && names) {
        size_t k = 0, len;
        for (const char *cur = copy; k < n && dh_list_next(&cur, &names[k], &len); k++)
            copy[names[k] - copy + len] = '\0'; /* the cursor is past it already */
        rc = watch_restore(&mm->watching, id, watch_load_field(r, WF_GAME),
                           watch_load_field(r, WF_MODE), names, k,
                           strtoull(watch_load_field(r, WF_CREATED), NULL, 10));
    }
    free(copy);
    free(names);
    return rc;
}

/* The ids of one HSCAN reply's pairs read in one pipeline and restored. 0, or -1 when
 * Redis did not answer. */
static int watch_load_pairs(mm_state *mm, const redisReply *kv, uint64_t now_ms)
{
    size_t total = kv->elements / 2;
    rconn_hmgets h;
    const char **ids = calloc(total ? total : 1, sizeof *ids);
    int rc = -1;
    if (rconn_hmgets_init(&h, total, WF_N) < 0 || !ids) {
        dh_error("watch list rebuild: out of memory");
        goto out;
    }
    for (size_t i = 0; i < total; i++) {
        const redisReply *k = kv->element[2 * i];
        if (k->type != REDIS_REPLY_STRING || k->len >= WATCH_TEXT_MAX)
            continue;
        ids[h.n] = k->str;
        rconn_hmgets_add(&h, dh_key_match(rconn_hmgets_key(&h), k->str), watch_load_fields);
    }
    if (rconn_hmgets_run(mm, now_ms, &h) < 0)
        goto out;
    rc = 0;
    for (size_t i = 0; i < h.n; i++) {
        if (watch_load_one(mm, ids[i], h.out[i]) < 0)
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: not in the watch list (out of memory)",
                          ids[i]);
    }
out:
    rconn_hmgets_free(&h);
    free(ids);
    return rc;
}

/* One HSCAN step: 0, or -1 when Redis did not answer (the same step is tried again). */
static int watch_load_one_step(mm_state *mm, uint64_t now_ms)
{
    watch_list *l = &mm->watching;
    char count[16];
    snprintf(count, sizeof count, "%d", WATCH_LOAD_STEP);
    const char *argv[] = {"HSCAN", DH_KEY_MATCHES_RUNNING, l->cursor, "COUNT", count};
    redisReply *r = rconn_command(mm, now_ms, 5, argv);
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
        r->element[0]->type != REDIS_REPLY_STRING || r->element[1]->type != REDIS_REPLY_ARRAY ||
        r->element[0]->len >= sizeof l->cursor) {
        dh_warn_every(DH_LOG_EVERY_MS, "watch list rebuild: %s; trying again",
                      r && r->type == REDIS_REPLY_ERROR ? r->str : "no answer from redis");
        if (r)
            freeReplyObject(r);
        return -1;
    }
    int rc = watch_load_pairs(mm, r->element[1], now_ms);
    if (rc == 0) {
        snprintf(l->cursor, sizeof l->cursor, "%s", r->element[0]->str);
        l->steps++;
        if (!strcmp(l->cursor, "0")) {
            size_t steps = l->steps;
            long restored = watch_rebuild_end(l);
            if (restored < 0)
                dh_error("watch list rebuild: out of memory; the matches placed before are not "
                         "listed");
            else
                dh_info("watch list rebuilt: %ld running matches restored from redis in %zu "
                        "steps, %zu listed",
                        restored, steps, l->n);
        }
    }
    freeReplyObject(r);
    return rc;
}

void watch_load_step(mm_state *mm, uint64_t now_ms)
{
    if (!mm->redis_on)
        return;
    uint64_t start_ns = dh_now_ns();
    uint64_t budget_ns =
        (uint64_t)(mm->watch_budget_us ? mm->watch_budget_us : WATCH_LOAD_BUDGET_US) * 1000;
    while (mm->watching.rebuilding) {
        if (watch_load_one_step(mm, now_ms) < 0 || dh_now_ns() - start_ns >= budget_ns)
            break;
    }
}
