/*
 * dh_trial.c: a canary's trial against the current bundle, counted by the workers and
 * judged by its guard (see dh_trial.h).
 */
#include "dh_trial.h"

#include <stdio.h>
#include <stdlib.h>

#include "dh_keys.h"

static const char *const trial_sides[] = {"canary", "current"};
static const char *const trial_counts[] = {"started", "errored", "quarantined"};

static void trial_field(char *out, size_t cap, const char *game, int side, int what)
{
    snprintf(out, cap, "%s:%s:%s", game, trial_sides[side], trial_counts[what]);
}

int dh_trial_add(dh_redis *r, uint64_t now_ms, const char *sha, const char *game,
                 dh_trial_side side, dh_trial_count what)
{
    char key[DH_KEY_MAX], field[128];
    dh_key_bundle_trial(key, sha);
    trial_field(field, sizeof field, game, (int)side, (int)what);
    const char *argv[] = {"HINCRBY", key, field, "1"};
    redisReply *rep = dh_redis_command(r, now_ms, 4, argv, NULL);
    int rc = rep && rep->type == REDIS_REPLY_INTEGER ? 0 : -1;
    if (rep)
        freeReplyObject(rep);
    return rc;
}

int dh_trial_read(dh_redis *r, uint64_t now_ms, const char *sha, const char *game, dh_trial *t)
{
    char key[DH_KEY_MAX], fields[8][128];
    const char *argv[2 + 8] = {"HMGET", key};
    dh_key_bundle_trial(key, sha);
    for (int i = 0; i < 6; i++) {
        trial_field(fields[i], sizeof fields[i], game, i / 3, i % 3);
        argv[2 + i] = fields[i];
    }
    snprintf(fields[6], sizeof fields[6], "%s:min", game);
    snprintf(fields[7], sizeof fields[7], "%s:margin", game);
    argv[8] = fields[6];
    argv[9] = fields[7];
    redisReply *rep = dh_redis_command(r, now_ms, 10, argv, NULL);
    if (!rep || rep->type != REDIS_REPLY_ARRAY || rep->elements != 8) {
        if (rep)
            freeReplyObject(rep);
        return -1;
    }
    long long v[8];
    for (int i = 0; i < 8; i++)
        v[i] = rep->element[i]->type == REDIS_REPLY_STRING ? strtoll(rep->element[i]->str, NULL, 10)
                                                           : -1;
    freeReplyObject(rep);
    for (int i = 0; i < 6; i++)
        t->n[i / 3][i % 3] = v[i] > 0 ? v[i] : 0;
    t->min = v[6] > 0 ? (int)v[6] : DH_TRIAL_MIN;
    t->margin = v[7] >= 0 ? (int)v[7] : DH_TRIAL_MARGIN;
    return 0;
}

int dh_trial_reset(dh_redis *r, uint64_t now_ms, const char *sha, const char *game, int min,
                   int margin)
{
    char key[DH_KEY_MAX], fields[8][128], nums[2][16];
    const char *argv[2 + 16] = {"HSET", key};
    dh_key_bundle_trial(key, sha);
    for (int i = 0; i < 6; i++) {
        trial_field(fields[i], sizeof fields[i], game, i / 3, i % 3);
        argv[2 + 2 * i] = fields[i];
        argv[3 + 2 * i] = "0";
    }
    snprintf(fields[6], sizeof fields[6], "%s:min", game);
    snprintf(fields[7], sizeof fields[7], "%s:margin", game);
    snprintf(nums[0], sizeof nums[0], "%d", min);
    snprintf(nums[1], sizeof nums[1], "%d", margin);
    argv[14] = fields[6];
    argv[15] = nums[0];
    argv[16] = fields[7];
    argv[17] = nums[1];
    redisReply *rep = dh_redis_command(r, now_ms, 18, argv, NULL);
    int rc = rep && rep->type == REDIS_REPLY_INTEGER ? 0 : -1;
    if (rep)
        freeReplyObject(rep);
    return rc;
}

/* Per cent of side's started matches that count what. */
static double trial_rate(const dh_trial *t, int side, int what)
{
    long long started = t->n[side][DH_TRIAL_STARTED];
    return started ? 100.0 * (double)t->n[side][what] / (double)started : 0.0;
}

bool dh_trial_verdict(const dh_trial *t, char *why, size_t whylen)
{
    if (t->n[DH_TRIAL_CANARY][DH_TRIAL_STARTED] < t->min)
        return false;
    for (int what = DH_TRIAL_ERRORED; what <= DH_TRIAL_QUARANTINED; what++) {
        double c = trial_rate(t, DH_TRIAL_CANARY, what), b = trial_rate(t, DH_TRIAL_CURRENT, what);
        if (c - b <= t->margin)
            continue;
        snprintf(why, whylen,
                 "canary guard: %s in %lld of %lld canary matches (%.0f%%) against %lld of %lld "
                 "(%.0f%%) on the current bundle, more than %d points over (after at least %d "
                 "matches)",
                 what == DH_TRIAL_ERRORED ? "script errors" : "quarantined",
                 t->n[DH_TRIAL_CANARY][what], t->n[DH_TRIAL_CANARY][DH_TRIAL_STARTED], c,
                 t->n[DH_TRIAL_CURRENT][what], t->n[DH_TRIAL_CURRENT][DH_TRIAL_STARTED], b,
                 t->margin, t->min);
        return true;
    }
    return false;
}

void dh_trial_line(const dh_trial *t, char *out, size_t cap)
{
    snprintf(out, cap,
             "trial: canary %lld matches, %lld with script errors (%.0f%%), %lld quarantined | "
             "current %lld matches, %lld (%.0f%%), %lld | aborts past %d points after %d matches",
             t->n[0][0], t->n[0][1], trial_rate(t, 0, 1), t->n[0][2], t->n[1][0], t->n[1][1],
             trial_rate(t, 1, 1), t->n[1][2], t->margin, t->min);
}
