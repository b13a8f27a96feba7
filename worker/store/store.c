/*
 * store.c: the worker's Redis writes, batched and fenced (see store.h); the reads are in
 * store_read.c.
 */
#include "store.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_grow.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "dh_snapz.h"

int store_init(store *s, const char *url, int timeout_ms)
{
    memset(s, 0, sizeof *s);
    dh_script_init(&s->commit_batch, dh_script_commit_batch);
    dh_script_init(&s->move_bundle, dh_script_move_bundle);
    dh_script_init(&s->fields, dh_script_match_fields);
    dh_script_init(&s->finished_push, dh_script_finished_push);
    dh_script_init(&s->retire, dh_script_retire);
    dh_script_init(&s->undo, dh_script_undo);
    dh_retention_env(&s->retention);
    return dh_redis_init(&s->redis, url, timeout_ms);
}

static void store_cmds_free(store *s)
{
    for (size_t i = 0; i < s->ncmds; i++)
        dh_redis_format_free(&s->cmds[i]);
    s->ncmds = 0;
    store_batch_reset(s);
}

void store_close(store *s)
{
    dh_redis_close(&s->redis);
    store_cmds_free(s);
    store_batch_free(s);
    for (size_t i = 0; i < s->nfin; i++)
        free(s->fin[i].job);
    free(s->fin);
    free(s->cmds);
    free(s->ops);
    free(s->argv);
    free(s->lens);
    s->fin = NULL;
    s->cmds = NULL;
    s->ops = NULL;
    s->argv = NULL;
    s->lens = NULL;
    s->nops = s->capops = s->capargv = s->caplens = s->capcmds = s->nfin = s->capfin = 0;
}

/* SCRIPT LOAD the scripts on every master after a new connection, so that commits do
 * not meet NOSCRIPT first (they would still land: dh_redis loads it and sends again). */
static void store_load_scripts(store *s, uint64_t now_ms)
{
    const dh_script *scripts[] = {&s->move_bundle, &s->fields,       &s->finished_push,
                                  &s->retire,      &s->commit_batch, &s->undo};
    redisContext *nodes[DH_REDIS_NODES];
    size_t n = dh_redis_masters(&s->redis, now_ms, nodes, DH_REDIS_NODES);
    for (size_t i = 0; i < n; i++)
        if (dh_script_load(nodes[i], scripts, sizeof scripts / sizeof *scripts) < 0)
            return;
    s->scripts_at = s->redis.connects;
}

int store_op(store *s, uint64_t now_ms)
{
    if (!dh_redis_get(&s->redis, now_ms)) {
        s->up = false;
        return -1;
    }
    if (s->scripts_at != s->redis.connects && !s->nops)
        store_load_scripts(s, now_ms);
    if (dh_grow(&s->ops, &s->capops, s->nops + 1, sizeof *s->ops, 64) < 0)
        return -1;
    s->ops[s->nops] = (store_op_state){.commands = 0, .ok = true, .fenced = false, .finish = -1};
    return (int)s->nops++;
}

/* Append cmd (formatted, owned from here on; NULL: an unformatted placeholder of a commit
 * the batch call carries at place, store_batch.c) to the newest op; place: cmd_batch's. */
static int store_cmd_put(store *s, dh_redis_cmd *cmd, const dh_script *script, long place)
{
    if (!s->nops || dh_grow(&s->cmds, &s->capcmds, s->ncmds + 1, sizeof *s->cmds, 64) < 0 ||
        dh_grow(&s->cmd_batch, &s->capcmd_batch, s->ncmds + 1, sizeof *s->cmd_batch, 64) < 0) {
        if (cmd)
            dh_redis_format_free(cmd);
        s->broken = true;
        return -1;
    }
    if (cmd)
        s->cmds[s->ncmds] = *cmd;
    else
        memset(&s->cmds[s->ncmds], 0, sizeof s->cmds[s->ncmds]);
    s->cmd_batch[s->ncmds] = place;
    s->cmds[s->ncmds++].script = script;
    s->ops[s->nops - 1].commands++;
    return 0;
}

/* Append one command (EVALSHA of script, or a plain one when NULL) to the newest op. */
static int store_cmd(store *s, int argc, const char **argv, const size_t *lens,
                     const dh_script *script)
{
    dh_redis_cmd cmd;
    if (!s->nops)
        return -1;
    if (dh_redis_format(&cmd, argc, argv, lens) < 0) {
        s->broken = true;
        return -1;
    }
    return store_cmd_put(s, &cmd, script, -1);
}

/* Remember the newest op's finish of match_id, to write its indexes once it landed. */
static int store_note_finish(store *s, const char *match_id, const char *job)
{
    if (dh_grow(&s->fin, &s->capfin, s->nfin + 1, sizeof *s->fin, 16) < 0)
        return -1;
    store_finish *f = &s->fin[s->nfin];
    memset(f, 0, sizeof *f);
    snprintf(f->match_id, sizeof f->match_id, "%s", match_id);
    f->stage = -1;
    if (job && *job && !(f->job = strdup(job)))
        return -1;
    s->ops[s->nops - 1].finish = (long)s->nfin++;
    s->ops[s->nops - 1].commit_at = s->ncmds - 1;
    return 0;
}

int store_put_meta(store *s, const store_meta *m)
{
    char key[DH_KEY_MAX], seed[24], created[24], grace[16], dec[16], turn[16];
    dh_key_match(key, m->match_id);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
    snprintf(created, sizeof created, "%llu", (unsigned long long)m->created_ms);
    snprintf(grace, sizeof grace, "%u", m->grace_ms);
    snprintf(dec, sizeof dec, "%u", m->decision_ms);
    snprintf(turn, sizeof turn, "%u", m->turn_ms);
    const char *argv[] = {"HSET",           key,
                          DH_F_GAME,        m->game,
                          DH_F_BUNDLE,      m->bundle,
                          DH_F_WORKER,      m->worker,
                          DH_F_EPOCH,       "1",
                          DH_F_STATUS,      DH_STATUS_RUNNING,
                          DH_F_SEED,        seed,
                          DH_F_PLAYERS,     m->players,
                          DH_F_PLAYER_IDS,  m->player_ids,
                          DH_F_CREATED_MS,  created,
                          DH_F_MODE,        m->mode ? m->mode : "",
                          DH_F_GRACE_MS,    grace,
                          DH_F_DECISION_MS, dec,
                          DH_F_TURN_MS,     turn,
                          DH_F_ABANDON,     m->abandon ? m->abandon : "",
                          DH_F_OPTIONS,     m->options ? m->options : "",
                          DH_F_BOTS,        m->bots ? m->bots : "",
                          DH_F_QUEUE_BOT,   m->queue_bot ? m->queue_bot : "",
                          DH_F_UNRATED,     m->unrated ? "1" : "0"};
    const char *run[] = {"HSET", DH_KEY_MATCHES_RUNNING, m->match_id, m->worker};
    if (store_cmd(s, (int)(sizeof argv / sizeof *argv), argv, NULL, NULL) < 0 ||
        store_cmd(s, 4, run, NULL, NULL) < 0)
        return -1;
    return 0;
}

/* v in decimal into buf (at least 21 bytes): a commit's numbers, written by hand as
 * snprintf was a noticeable part of a commit's CPU. */
static char *store_decimal(char *buf, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        buf[i] = digits[n - 1 - i];
    buf[n] = '\0';
    return buf;
}

int store_put_commit(store *s, const store_commit *c)
{
    char meta[DH_KEY_MAX], snap[DH_KEY_MAX], log[DH_KEY_MAX], hist[DH_KEY_MAX], epoch[24];
    const char *keys[] = {dh_key_match(meta, c->match_id), dh_key_match_snap(snap, c->match_id),
                          dh_key_match_log(log, c->match_id),
                          dh_key_match_history(hist, c->match_id)};
    store_decimal(epoch, c->epoch);
    size_t zlen = 0;
    uint8_t *z = NULL; /* the snapshot as stored: compressed (dh_snapz.h) */
    int rc = -1;
    if (!s->nops || !store_tail_ok(c) ||
        (c->snap && dh_snapz_pack(s->snap_codec, c->snap, c->snap_len, &z, &zlen) < 0))
        goto out;
    long place = store_batching(s) ? store_batch_commit(s, c, keys, epoch, z, zlen) : -2;
    if (place >= 0) {
        rc = store_cmd_put(s, NULL, &s->commit_batch, place);
    } else if (place == -2) { /* alone: a batch of one */
        dh_redis_cmd cmd;
        rc = store_batch_alone(s, c, keys, epoch, z, zlen, &cmd) < 0
                 ? -1
                 : store_cmd_put(s, &cmd, &s->commit_batch, STORE_BATCH_ALONE);
    }
    if (rc < 0)
        s->broken = true;
    if (rc == 0 && c->finish && store_note_finish(s, c->match_id, c->rating_job) < 0)
        rc = -1;
out:
    free(z);
    return rc;
}

int store_put_undo(store *s, const store_commit *c)
{
    char meta[DH_KEY_MAX], snap[DH_KEY_MAX], log[DH_KEY_MAX], hist[DH_KEY_MAX];
    char epoch[24], nlog[24];
    dh_key_match(meta, c->match_id);
    dh_key_match_snap(snap, c->match_id);
    dh_key_match_log(log, c->match_id);
    dh_key_match_history(hist, c->match_id);
    snprintf(epoch, sizeof epoch, "%llu", (unsigned long long)c->epoch);
    snprintf(nlog, sizeof nlog, "%zu", c->nlog);
    size_t argc = 0, max = 13 + c->nlog, zlen = 0;
    uint8_t *z = NULL; /* the snapshot as stored: compressed (dh_snapz.h) */
    int rc = -1;
    if (!c->snap || !c->hist || dh_grow(&s->argv, &s->capargv, max, sizeof *s->argv, 32) < 0 ||
        dh_grow(&s->lens, &s->caplens, max, sizeof *s->lens, 32) < 0 ||
        dh_snapz_pack(s->snap_codec, c->snap, c->snap_len, &z, &zlen) < 0)
        goto out;
    const char *head[] = {"EVALSHA", s->undo.sha, "4", meta, snap, log, hist, c->worker, epoch};
    for (; argc < sizeof head / sizeof *head; argc++) {
        s->argv[argc] = head[argc];
        s->lens[argc] = strlen(head[argc]);
    }
    s->argv[argc] = (const char *)c->hist;
    s->lens[argc++] = c->hist_len;
    s->argv[argc] = (const char *)z;
    s->lens[argc++] = zlen;
    s->argv[argc] = nlog;
    s->lens[argc++] = strlen(nlog);
    for (size_t i = 0; i < c->nlog; i++) {
        s->argv[argc] = (const char *)c->log[i].data;
        s->lens[argc++] = c->log[i].len;
    }
    if (c->tail) { /* the snapshot behind the tail head; the log key left alone */
        s->argv[argc] = "tail";
        s->lens[argc++] = 4;
    }
    rc = store_cmd(s, (int)argc, s->argv, s->lens, &s->undo);
out:
    free(z);
    return rc;
}

int store_lease(store *s, const char *worker_id, const char *endpoint, unsigned ttl_ms)
{
    char key[DH_KEY_MAX], ttl[16];
    dh_key_worker(key, worker_id);
    snprintf(ttl, sizeof ttl, "%u", ttl_ms);
    const char *argv[] = {"SET", key, endpoint, "PX", ttl};
    return store_cmd(s, 5, argv, NULL, NULL);
}

int store_move_bundle(store *s, const char *worker, const char *match_id, uint64_t epoch,
                      const char *bundle, const char *note)
{
    char key[DH_KEY_MAX], list[DH_KEY_MAX], ep[24];
    dh_key_match(key, match_id);
    dh_key_match_bundles(list, match_id);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    const char *argv[] = {"EVALSHA", s->move_bundle.sha, "2", key, list, worker, ep, bundle, note};
    return store_cmd(s, 9, argv, NULL, &s->move_bundle);
}

int store_put_notes(store *s, const char *worker, const char *match_id, uint64_t epoch,
                    const char *away, const char *removed, unsigned script_failures)
{
    char key[DH_KEY_MAX], ep[24], failures[16];
    dh_key_match(key, match_id);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    snprintf(failures, sizeof failures, "%u", script_failures);
    const char *argv[] = {
        "EVALSHA", s->fields.sha,        "1",      key,          worker, ep, DH_F_AWAY,
        away,      DH_F_SCRIPT_FAILURES, failures, DH_F_REMOVED, removed};
    return store_cmd(s, 12, argv, NULL, &s->fields);
}

int store_put_field(store *s, const char *worker, const char *match_id, uint64_t epoch,
                    const char *field, const char *value)
{
    char key[DH_KEY_MAX], ep[24];
    dh_key_match(key, match_id);
    snprintf(ep, sizeof ep, "%llu", (unsigned long long)epoch);
    const char *argv[] = {"EVALSHA", s->fields.sha, "1", key, worker, ep, field, value};
    return store_cmd(s, 8, argv, NULL, &s->fields);
}

/* True when a reply reports success (an EXEC also needs every queued command to have
 * succeeded). */
static bool store_reply_ok(const redisReply *r)
{
    if (!r || r->type == REDIS_REPLY_ERROR || r->type == REDIS_REPLY_NIL)
        return false;
    if (r->type == REDIS_REPLY_ARRAY)
        for (size_t i = 0; i < r->elements; i++)
            if (!store_reply_ok(r->element[i]))
                return false;
    return true;
}

/* Write the indexes of the finishes at stage: each one's commands into cmds (owned by
 * the caller), the count. */
static size_t store_finish_cmds(store *s, int stage, dh_redis_cmd *cmds, size_t *who)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nfin; i++) {
        store_finish *f = &s->fin[i];
        if (f->stage != stage)
            continue;
        if (stage == 0 && f->job) {
            const char *job[] = {"HSET", DH_KEY_MATCHES_UNRATED, f->match_id, f->job};
            if (dh_redis_format(&cmds[n], 4, job, NULL) == 0)
                who[n++] = i;
        }
        if (stage == 0) {
            char max[24];
            snprintf(max, sizeof max, "%ld", s->retention.finished_max);
            const char *push[] = {
                "EVALSHA", s->finished_push.sha, "1", DH_KEY_MATCHES_FINISHED, f->match_id, max};
            if (dh_redis_format(&cmds[n], 6, push, NULL) == 0) {
                cmds[n].script = &s->finished_push;
                who[n++] = i;
            }
        }
        if (stage == 0 && s->retention.retention_s > 0) {
            char k[6][DH_KEY_MAX], ret[24], res[24];
            snprintf(ret, sizeof ret, "%ld", s->retention.retention_s);
            snprintf(res, sizeof res, "%ld", s->retention.result_s);
            const char *retire[] = {"EVALSHA",
                                    s->retire.sha,
                                    "6",
                                    dh_key_match(k[0], f->match_id),
                                    dh_key_match_snap(k[1], f->match_id),
                                    dh_key_match_log(k[2], f->match_id),
                                    dh_key_match_history(k[3], f->match_id),
                                    dh_key_match_bundles(k[4], f->match_id),
                                    dh_key_match_result(k[5], f->match_id),
                                    ret,
                                    res};
            if (dh_redis_format(&cmds[n], 11, retire, NULL) == 0) {
                cmds[n].script = &s->retire;
                who[n++] = i;
            }
        }
        if (stage == 1) {
            const char *del[] = {"HDEL", DH_KEY_MATCHES_RUNNING, f->match_id};
            if (dh_redis_format(&cmds[n], 3, del, NULL) == 0)
                who[n++] = i;
        }
    }
    return n;
}

/* Move every finish at stage one stage on, when all its writes landed; the finishes
 * done are dropped. */
static void store_finish_stage(store *s, int stage, uint64_t now_ms)
{
    size_t max = 3 * s->nfin, n = 0;
    dh_redis_cmd *cmds = calloc(max ? max : 1, sizeof *cmds);
    redisReply **out = calloc(max ? max : 1, sizeof *out);
    size_t *who = calloc(max ? max : 1, sizeof *who);
    bool *bad = calloc(s->nfin ? s->nfin : 1, sizeof *bad);
    if (!cmds || !out || !who || !bad || !(n = store_finish_cmds(s, stage, cmds, who)))
        goto out;
    if (dh_redis_pipeline(&s->redis, now_ms, cmds, n, out) < 0)
        goto out;
    for (size_t k = 0; k < n; k++) {
        if (out[k]->type == REDIS_REPLY_ERROR) {
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: index write refused: %s",
                          s->fin[who[k]].match_id, out[k]->str);
            bad[who[k]] = true;
        }
        freeReplyObject(out[k]);
    }
    for (size_t i = 0; i < s->nfin; i++)
        if (s->fin[i].stage == stage && !bad[i])
            s->fin[i].stage++;
    for (size_t i = s->nfin; i-- > 0;) {
        if (s->fin[i].stage < 2)
            continue;
        free(s->fin[i].job);
        s->fin[i] = s->fin[--s->nfin];
    }
out:
    for (size_t k = 0; cmds && k < n; k++)
        dh_redis_format_free(&cmds[k]);
    free(cmds);
    free(out);
    free(who);
    free(bad);
}

/* The batch's finishes whose commit did not land: forgotten (the host retries them). */
static void store_finish_settle(store *s)
{
    for (size_t i = 0; i < s->nops; i++)
        if (s->ops[i].finish >= 0 && s->fin[s->ops[i].finish].stage == -1)
            s->fin[s->ops[i].finish].stage = s->ops[i].ok ? 0 : -2;
    for (size_t i = s->nfin; i-- > 0;) {
        if (s->fin[i].stage != -2)
            continue;
        free(s->fin[i].job);
        s->fin[i] = s->fin[--s->nfin];
    }
}

/* Each op's standing from its commands' replies (out: one per command sent, where[k]: the
 * one of command k). */
static void store_settle_ops(store *s, redisReply **out, const size_t *where)
{
    size_t at = 0;
    for (size_t i = 0; i < s->nops; i++) {
        store_op_state *op = &s->ops[i];
        for (unsigned k = 0; k < op->commands; k++) {
            redisReply *r = store_batch_reply(out[where[at]], s->cmd_batch[at]);
            if (op->finish >= 0 && op->commit_at == at && r && r->type == REDIS_REPLY_INTEGER &&
                r->integer != 2) { /* the commit kept no rating job: none to index */
                free(s->fin[op->finish].job);
                s->fin[op->finish].job = NULL;
            }
            int slot = s->cmd_batch[at] >= 0 ? s->batch_slot : s->cmds[at].slot;
            bool kept = store_reply_ok(r) && !dh_redis_unreplicated(&s->redis, slot);
            at++;
            if (!kept && store_reply_ok(r)) {
                dh_warn_every(DH_LOG_EVERY_MS, "redis: a write reached no replica in time: "
                                               "not acknowledged (a failover would lose it)");
                op->ok = false;
            } else if (!kept) {
                if (r && r->type == REDIS_REPLY_ERROR &&
                    !strncmp(r->str, DH_REPLY_FENCED, strlen(DH_REPLY_FENCED)))
                    op->fenced = true;
                else if (op->ok)
                    dh_warn_every(DH_LOG_EVERY_MS, "redis refused a write: %s",
                                  r && r->type == REDIS_REPLY_ERROR ? r->str : "(nil)");
                op->ok = false;
            }
        }
    }
}

void store_flush(store *s, uint64_t now_ms)
{
    redisReply **out = NULL;
    dh_redis_cmd *sent = NULL;
    size_t *where = NULL, nsent = 0, batch_at = SIZE_MAX;
    if (!s->broken && !s->ncmds)
        goto done; /* nothing to send: every op (without commands) stands */
    if (s->broken || !(out = calloc(s->ncmds, sizeof *out)) ||
        !(sent = calloc(s->ncmds, sizeof *sent)) || !(where = calloc(s->ncmds, sizeof *where)) ||
        store_batch_plan(s, sent, where, &nsent, &batch_at) < 0)
        goto err;
    /* a node lost mid-batch fails only the ops with a command on it */
    uint64_t start_ns = dh_now_ns();
    s->up = dh_redis_pipeline_partial(&s->redis, now_ms, sent, nsent, out) == 0;
    /* On a replica before the host acknowledges anything, so that a failover keeps it: an
     * op with a write on a node whose WAIT came short fails (store_settle_ops). A
     * connection lost during the WAIT leaves the ops as their replies say: a master
     * flushes its replication stream with its replies, so what it answered had left for
     * the replica (failing them would have the host redo writes that landed). */
    dh_redis_wait(&s->redis, now_ms);
    if (s->round_trips) /* the batch's round trip, its WAIT included */
        dh_histogram_since(s->round_trips, start_ns);
    store_settle_ops(s, out, where);
    if (batch_at < nsent)
        store_batch_learn(s, out[batch_at]);
    for (size_t k = 0; k < nsent; k++)
        freeReplyObject(out[k]);
    goto done;
err:
    for (size_t i = 0; i < s->nops; i++)
        s->ops[i].ok = false;
done:
    if (sent && batch_at < nsent) /* the batch call, formatted for this flush */
        dh_redis_format_free(&sent[batch_at]);
    free(sent);
    free(where);
    free(out);
    s->broken = false;
    store_cmds_free(s);
    store_finish_settle(s);
    if (s->nfin) {
        store_finish_stage(s, 0, now_ms);
        store_finish_stage(s, 1, now_ms);
    }
}

size_t store_finishing(const store *s)
{
    return s->nfin;
}

bool store_ok(const store *s, int op)
{
    return op >= 0 && (size_t)op < s->nops && s->ops[op].ok;
}

bool store_fenced(const store *s, int op)
{
    return op >= 0 && (size_t)op < s->nops && s->ops[op].fenced;
}

size_t store_pending(const store *s)
{
    return s->nops;
}

void store_next(store *s)
{
    s->nops = 0;
}
