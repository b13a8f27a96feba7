/*
 * rater.c: the rater (see store.h). A job is text, one field per line: game, mode, bundle,
 * ended_ms, then "ACCOUNT_ID RANK" per seat in seat order.
 */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_keys.h"
#include "dh_log.h"
#include "dh_token.h"

#define RATER_STALE_TRIES 4 /* reads again after STALE before leaving the job to a sweep */

void rater_init(rater *r)
{
    r->params = dh_rating_defaults();
    dh_script_init(&r->rate, dh_script_rate);
    dh_script_init(&r->history, dh_script_history_push);
}

static bool rater_line_ok(const char *s)
{
    return s && *s && strlen(s) < RATER_TEXT_MAX && !strpbrk(s, "\n\t");
}

int rater_job(const char *game, const char *mode, const char *bundle, uint64_t ended_ms,
              const char *const *player_ids, const int *ranks, size_t n, char *out, size_t cap)
{
    if (n < 2 || n > DH_RATING_SEATS || !rater_line_ok(game) || !rater_line_ok(mode) ||
        !rater_line_ok(bundle))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!dh_token_is_account_id(player_ids[i]) || strlen(player_ids[i]) >= RATER_ID_MAX ||
            strpbrk(player_ids[i], " \n\t") || ranks[i] < 1)
            return -1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(player_ids[i], player_ids[j]) == 0)
                return -1; /* one account in two seats: nothing to learn */
    }
    int at =
        snprintf(out, cap, "%s\n%s\n%s\n%llu", game, mode, bundle, (unsigned long long)ended_ms);
    for (size_t i = 0; i < n && at >= 0 && (size_t)at < cap; i++)
        at += snprintf(out + at, cap - (size_t)at, "\n%s %d", player_ids[i], ranks[i]);
    return at < 0 || (size_t)at >= cap ? -1 : 0;
}

/* Copy the next line of *p into out (cap bytes); false when missing or too long. */
static bool rater_take_line(const char **p, char *out, size_t cap)
{
    if (!*p || !**p)
        return false;
    size_t n = strcspn(*p, "\n");
    if (n == 0 || n >= cap)
        return false;
    memcpy(out, *p, n);
    out[n] = '\0';
    *p += n + ((*p)[n] == '\n');
    return true;
}

static bool rater_parse(const char *job, rater_plan *plan)
{
    char line[RATER_TEXT_MAX];
    const char *p = job;
    if (!rater_take_line(&p, plan->game, sizeof plan->game) ||
        !rater_take_line(&p, plan->mode, sizeof plan->mode) ||
        !rater_take_line(&p, plan->bundle, sizeof plan->bundle) ||
        !rater_take_line(&p, line, sizeof line))
        return false;
    plan->ended_ms = strtoull(line, NULL, 10);
    plan->n = 0;
    while (rater_take_line(&p, line, sizeof line)) {
        char *sp = strchr(line, ' ');
        if (plan->n == DH_RATING_SEATS || !sp || (size_t)(sp - line) >= RATER_ID_MAX)
            return false;
        *sp = '\0';
        memcpy(plan->ids[plan->n], line, (size_t)(sp - line) + 1);
        plan->ranks[plan->n++] = atoi(sp + 1);
    }
    return plan->n >= 2;
}

/* HMGET key ids...: one reply per seat (the caller frees), NULL when Redis failed. */
static redisReply *rater_hmget(dh_redis *rd, const char *key, const rater_plan *plan)
{
    const char *argv[2 + DH_RATING_SEATS];
    argv[0] = "HMGET";
    argv[1] = key;
    for (size_t i = 0; i < plan->n; i++)
        argv[2 + i] = plan->ids[i];
    redisReply *r = dh_redis_command(rd, dh_now_ms(), (int)(2 + plan->n), argv, NULL);
    if (r && (r->type != REDIS_REPLY_ARRAY || r->elements != plan->n)) {
        freeReplyObject(r);
        return NULL;
    }
    return r;
}

/* Each seat's history entry: DH_HISTORY_FIELDS, tab-separated. */
static void rater_entries(rater_plan *plan, const redisReply *names, const dh_rating *before,
                          const dh_rating *after)
{
    for (size_t i = 0; i < plan->n; i++) {
        char opponents[1024];
        size_t at = 0;
        opponents[0] = '\0';
        for (size_t j = 0; j < plan->n && at < sizeof opponents; j++) {
            if (j == i)
                continue;
            const redisReply *nm = names->element[j];
            at += (size_t)snprintf(opponents + at, sizeof opponents - at, "%s%s", at ? "," : "",
                                   nm->type == REDIS_REPLY_STRING ? nm->str : plan->ids[j]);
        }
        snprintf(plan->entry[i], RATER_ENTRY_MAX, "%s\t%s\t%s\t%s\t%llu\t%d\t%zu\t%.2f\t%.2f\t%s",
                 plan->match_id, plan->game, plan->mode, plan->bundle,
                 (unsigned long long)plan->ended_ms, plan->ranks[i], plan->n,
                 dh_rating_ordinal(before[i]), dh_rating_ordinal(after[i]), opponents);
    }
}

int rater_prepare(rater *r, dh_redis *rd, const char *match_id, const char *job, rater_plan *plan)
{
    char key[DH_KEY_MAX];
    dh_rating before[DH_RATING_SEATS], after[DH_RATING_SEATS];
    unsigned matches[DH_RATING_SEATS];
    memset(plan, 0, sizeof *plan);
    snprintf(plan->match_id, sizeof plan->match_id, "%s", match_id);
    if (strlen(match_id) >= RATER_ID_MAX || !rater_parse(job, plan)) {
        plan->skip = true;
        return 0;
    }
    redisReply *old = rater_hmget(rd, dh_key_rating(key, plan->game, plan->mode), plan);
    redisReply *names = old ? rater_hmget(rd, DH_KEY_ACCOUNT_NAMES, plan) : NULL;
    if (!old || !names) {
        freeReplyObject(old);
        return -1;
    }
    for (size_t i = 0; i < plan->n; i++) {
        const redisReply *v = old->element[i];
        dh_rating_parse(v->type == REDIS_REPLY_STRING ? v->str : NULL, &before[i], &matches[i]);
        snprintf(plan->old_value[i], sizeof plan->old_value[i], "%s",
                 v->type == REDIS_REPLY_STRING ? v->str : "");
    }
    if (dh_rating_update(&r->params, before, plan->ranks, plan->n, after) < 0) {
        plan->skip = true; /* a stored rating that is not a number: never rated */
    } else {
        for (size_t i = 0; i < plan->n; i++) {
            dh_rating_format(after[i], matches[i] + 1, plan->new_value[i],
                             sizeof plan->new_value[i]);
            snprintf(plan->ordinal[i], sizeof plan->ordinal[i], "%.17g",
                     dh_rating_ordinal(after[i]));
        }
        rater_entries(plan, names, before, after);
    }
    freeReplyObject(old);
    freeReplyObject(names);
    return 0;
}

/* One command; 0 when Redis answered without an error, -1 otherwise. */
static int rater_run(dh_redis *rd, int argc, const char **argv)
{
    redisReply *rep = dh_redis_command(rd, dh_now_ms(), argc, argv, NULL);
    int rc = rep && rep->type != REDIS_REPLY_ERROR ? 0 : -1;
    if (rep && rep->type == REDIS_REPLY_ERROR)
        dh_warn_every(DH_LOG_EVERY_MS, "rating write refused: %s", rep->str);
    freeReplyObject(rep);
    return rc;
}

/* Steps 3 of the rater (store.h): each seat's history entry (once), the match marked rated, the job
 * deleted. 0, or -1. */
static int rater_finish(rater *r, dh_redis *rd, const rater_plan *plan)
{
    char mkey[DH_KEY_MAX], hkey[DH_KEY_MAX], hmax[8];
    snprintf(hmax, sizeof hmax, "%d", DH_HISTORY_MAX);
    for (size_t i = 0; !plan->skip && i < plan->n; i++) {
        const char *argv[] = {
            "EVALSHA",      r->history.sha, "1", dh_key_history(hkey, plan->ids[i]),
            plan->match_id, plan->entry[i], hmax};
        redisReply *rep = dh_redis_script(rd, dh_now_ms(), &r->history, 7, argv, NULL);
        int ok = rep && rep->type == REDIS_REPLY_INTEGER;
        if (rep && !ok)
            dh_warn_every(DH_LOG_EVERY_MS, "match %s: history refused: %s", plan->match_id,
                          rep->type == REDIS_REPLY_ERROR ? rep->str : "unexpected reply");
        freeReplyObject(rep);
        if (!ok)
            return -1;
    }
    const char *rated[] = {"HSET", dh_key_match(mkey, plan->match_id), DH_F_RATED, "1"};
    const char *del[] = {"HDEL", DH_KEY_MATCHES_UNRATED, plan->match_id};
    return rater_run(rd, 4, rated) < 0 || rater_run(rd, 3, del) < 0 ? -1 : 0;
}

/* Whether match_id is rated already: 1 yes, 0 no, -1 Redis failed. */
static int rater_done(dh_redis *rd, const char *match_id)
{
    char mkey[DH_KEY_MAX];
    const char *argv[] = {"HGET", dh_key_match(mkey, match_id), DH_F_RATED};
    redisReply *rep = dh_redis_command(rd, dh_now_ms(), 3, argv, NULL);
    int rc = !rep ? -1 : rep->type == REDIS_REPLY_STRING && !strcmp(rep->str, "1") ? 1 : 0;
    freeReplyObject(rep);
    return rc;
}

int rater_commit(rater *r, dh_redis *rd, const rater_plan *plan)
{
    char rkey[DH_KEY_MAX], lkey[DH_KEY_MAX], dkey[DH_KEY_MAX], n[8], ttl[16];
    const char *argv[6 + DH_RATING_SEATS * 4];
    int argc = 0;
    if (plan->skip)
        return rater_finish(r, rd, plan) < 0 ? -1 : 0;
    snprintf(n, sizeof n, "%zu", plan->n);
    snprintf(ttl, sizeof ttl, "%d", DH_RATED_TTL_S);
    argv[argc++] = "EVALSHA";
    argv[argc++] = r->rate.sha;
    argv[argc++] = "3";
    argv[argc++] = dh_key_rating(rkey, plan->game, plan->mode);
    argv[argc++] = dh_key_leaderboard(lkey, plan->game, plan->mode);
    argv[argc++] = dh_key_rated(dkey, plan->game, plan->match_id);
    argv[argc++] = n;
    argv[argc++] = ttl;
    for (size_t i = 0; i < plan->n; i++) {
        argv[argc++] = plan->ids[i];
        argv[argc++] = plan->old_value[i];
        argv[argc++] = plan->new_value[i];
        argv[argc++] = plan->ordinal[i];
    }
    redisReply *rep = dh_redis_script(rd, dh_now_ms(), &r->rate, argc, argv, NULL);
    int rc = -1;
    if (rep && rep->type == REDIS_REPLY_INTEGER)
        rc = rep->integer == 1 ? 1 : 0;
    else if (rep && rep->type == REDIS_REPLY_ERROR &&
             strncmp(rep->str, DH_REPLY_STALE, sizeof DH_REPLY_STALE - 1) == 0)
        rc = 2;
    else if (rep && rep->type == REDIS_REPLY_ERROR)
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: rating refused: %s", plan->match_id, rep->str);
    else if (rep)
        dh_warn_every(DH_LOG_EVERY_MS, "match %s: rating script answered %d", plan->match_id,
                      rep->type);
    freeReplyObject(rep);
    if ((rc == 0 || rc == 1) && rater_finish(r, rd, plan) < 0)
        return -1; /* the ratings moved (once); the rest is redone by the next sweep */
    return rc;
}

int rater_apply(rater *r, dh_redis *rd, const char *match_id, const char *job)
{
    int done = rater_done(rd, match_id);
    if (done != 0) {
        const char *del[] = {"HDEL", DH_KEY_MATCHES_UNRATED, match_id};
        return done < 0 || rater_run(rd, 3, del) < 0 ? -1 : 0;
    }
    rater_plan *plan = malloc(sizeof *plan);
    int rc = -1;
    if (!plan)
        return -1;
    for (int tries = 0; tries < RATER_STALE_TRIES; tries++) {
        if (rater_prepare(r, rd, match_id, job, plan) < 0) {
            rc = -1;
            break;
        }
        rc = rater_commit(r, rd, plan);
        if (rc != 2)
            break;
    }
    free(plan);
    return rc == 2 ? 0 : rc; /* still contended: the job stays for the next sweep */
}

long rater_sweep(rater *r, dh_redis *rd, size_t max)
{
    char count[24];
    snprintf(count, sizeof count, "%zu", max);
    const char *argv[] = {"HRANDFIELD", DH_KEY_MATCHES_UNRATED, count, "WITHVALUES"};
    redisReply *rep = dh_redis_command(rd, dh_now_ms(), 4, argv, NULL);
    if (!rep || rep->type != REDIS_REPLY_ARRAY) {
        if (rep && rep->type == REDIS_REPLY_ERROR)
            dh_warn_every(DH_LOG_EVERY_MS, "cannot read rating jobs: %s", rep->str);
        freeReplyObject(rep);
        return rep ? 0 : -1;
    }
    long applied = 0;
    for (size_t i = 0; i + 1 < rep->elements; i += 2) {
        const redisReply *id = rep->element[i], *job = rep->element[i + 1];
        if (id->type != REDIS_REPLY_STRING || job->type != REDIS_REPLY_STRING)
            continue;
        int rc = rater_apply(r, rd, id->str, job->str);
        if (rc < 0 && !rd->ctx) { /* the connection broke: dh_redis reconnects later */
            applied = -1;
            break;
        }
        if (rc < 0) /* refused (logged): the job stays for a later sweep */
            continue;
        applied += rc == 1;
    }
    freeReplyObject(rep);
    return applied;
}
