/*
 * rater.c: see rater.h. A job is text, one field per line: game, mode, bundle, ended_ms,
 * then "ACCOUNT_ID RANK" per seat in seat order.
 */
#include "rater.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_log.h"
#include "dh_token.h"

#define RATER_STALE_TRIES 4 /* reads again after STALE before leaving the job to a sweep */

void rater_init(rater *r)
{
    r->params = dh_rating_defaults();
    dh_script_init(&r->rate, dh_script_rate);
    dh_script_init(&r->skip, dh_script_rate_skip);
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
static redisReply *rater_hmget(redisContext *c, const char *key, const rater_plan *plan)
{
    const char *argv[2 + DH_RATING_SEATS];
    argv[0] = "HMGET";
    argv[1] = key;
    for (size_t i = 0; i < plan->n; i++)
        argv[2 + i] = plan->ids[i];
    redisReply *r = redisCommandArgv(c, (int)(2 + plan->n), argv, NULL);
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

int rater_prepare(rater *r, redisContext *c, const char *match_id, const char *job,
                  rater_plan *plan)
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
    redisReply *old = rater_hmget(c, dh_key_rating(key, plan->game, plan->mode), plan);
    redisReply *names = old ? rater_hmget(c, DH_KEY_ACCOUNT_NAMES, plan) : NULL;
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

/* EVALSHA, loading the script again when Redis forgot it. The reply, or NULL. */
static redisReply *rater_eval(redisContext *c, const dh_script *s, int argc, const char **argv)
{
    argv[1] = s->sha;
    redisReply *rep = redisCommandArgv(c, argc, argv, NULL);
    if (rep && dh_script_missing(rep)) {
        freeReplyObject(rep);
        const dh_script *one[] = {s};
        if (dh_script_load(c, one, 1) < 0)
            return NULL;
        rep = redisCommandArgv(c, argc, argv, NULL);
    }
    return rep;
}

int rater_commit(rater *r, redisContext *c, const rater_plan *plan)
{
    char mkey[DH_KEY_MAX], rkey[DH_KEY_MAX], lkey[DH_KEY_MAX];
    char hkeys[DH_RATING_SEATS][DH_KEY_MAX], n[8], hmax[8];
    const char *argv[7 + DH_RATING_SEATS * 6];
    int argc = 2;
    argv[0] = "EVALSHA";
    dh_key_match(mkey, plan->match_id);
    if (plan->skip) {
        const char *skip[] = {"EVALSHA", NULL, "2", mkey, DH_KEY_MATCHES_UNRATED, plan->match_id};
        redisReply *rep = rater_eval(c, &r->skip, 6, skip);
        int rc = rep && rep->type == REDIS_REPLY_INTEGER ? 0 : -1;
        freeReplyObject(rep);
        return rc;
    }
    snprintf(n, sizeof n, "%zu", plan->n);
    snprintf(hmax, sizeof hmax, "%d", DH_HISTORY_MAX);
    char nkeys[8];
    snprintf(nkeys, sizeof nkeys, "%zu", 4 + plan->n);
    argv[argc++] = nkeys;
    argv[argc++] = mkey;
    argv[argc++] = DH_KEY_MATCHES_UNRATED;
    argv[argc++] = dh_key_rating(rkey, plan->game, plan->mode);
    argv[argc++] = dh_key_leaderboard(lkey, plan->game, plan->mode);
    for (size_t i = 0; i < plan->n; i++)
        argv[argc++] = dh_key_history(hkeys[i], plan->ids[i]);
    argv[argc++] = plan->match_id;
    argv[argc++] = n;
    argv[argc++] = hmax;
    for (size_t i = 0; i < plan->n; i++) {
        argv[argc++] = plan->ids[i];
        argv[argc++] = plan->old_value[i];
        argv[argc++] = plan->new_value[i];
        argv[argc++] = plan->ordinal[i];
        argv[argc++] = plan->entry[i];
    }
    redisReply *rep = rater_eval(c, &r->rate, argc, argv);
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
    return rc;
}

int rater_apply(rater *r, redisContext *c, const char *match_id, const char *job)
{
    rater_plan *plan = malloc(sizeof *plan);
    int rc = -1;
    if (!plan)
        return -1;
    for (int tries = 0; tries < RATER_STALE_TRIES; tries++) {
        if (rater_prepare(r, c, match_id, job, plan) < 0) {
            rc = -1;
            break;
        }
        rc = rater_commit(r, c, plan);
        if (rc != 2)
            break;
    }
    free(plan);
    return rc == 2 ? 0 : rc; /* still contended: the job stays for the next sweep */
}

long rater_sweep(rater *r, redisContext *c, size_t max)
{
    char count[24];
    snprintf(count, sizeof count, "%zu", max);
    const char *argv[] = {"HRANDFIELD", DH_KEY_MATCHES_UNRATED, count, "WITHVALUES"};
    redisReply *rep = redisCommandArgv(c, 4, argv, NULL);
    if (!rep || rep->type != REDIS_REPLY_ARRAY) {
        if (rep && rep->type == REDIS_REPLY_ERROR)
            dh_warn_every(DH_LOG_EVERY_MS, "cannot read rating jobs: %s", rep->str);
        freeReplyObject(rep);
        return c->err ? -1 : 0;
    }
    long applied = 0;
    for (size_t i = 0; i + 1 < rep->elements; i += 2) {
        const redisReply *id = rep->element[i], *job = rep->element[i + 1];
        if (id->type != REDIS_REPLY_STRING || job->type != REDIS_REPLY_STRING)
            continue;
        int rc = rater_apply(r, c, id->str, job->str);
        if (rc < 0 && c->err) { /* the connection broke: the caller drops it */
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
