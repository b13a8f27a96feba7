/*
 * dh_trial.h: a canary's trial (issue 30): while bundle SHA is game G's canary, the
 * workers count, for the matches they start on it and for those they start on G's
 * current bundle meanwhile, how many started, how many met a script error (once per
 * match: a player's answer or the worker's own that failed in a card script), and how
 * many were quarantined (ended as a script error). The counts live in one hash,
 * bundle:{SHA}:trial, fields "G:canary:started", "G:current:errored", ..., plus the
 * guard's settings "G:min" and "G:margin" that `deckhand scripts push --canary` writes
 * (with the counts zeroed) before the canary starts.
 *
 * The guard: once the canary has started at least min matches, a script-error rate or a
 * quarantine rate (per cent of started matches) above the current bundle's by more than
 * margin points aborts the canary (the worker that counted last does it, with an audit
 * entry saying why: worker/bundles/bundles_guard.c). `deckhand scripts list` prints the
 * same figures (dh_trial_line). Rates, not counts: the canary takes a share of matches.
 */
#ifndef DECKHAND_DH_TRIAL_H
#define DECKHAND_DH_TRIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_redis.h"

#define DH_TRIAL_MIN    20 /* canary matches before the guard judges */
#define DH_TRIAL_MARGIN 10 /* points over the current bundle's rate that abort */

typedef enum { DH_TRIAL_CANARY, DH_TRIAL_CURRENT } dh_trial_side;
typedef enum { DH_TRIAL_STARTED, DH_TRIAL_ERRORED, DH_TRIAL_QUARANTINED } dh_trial_count;

typedef struct {
    long long n[2][3]; /* [side][count] */
    int min, margin;
} dh_trial;

/* Add one to game's count on side in sha's trial. 0, or -1 on a Redis error. */
int dh_trial_add(dh_redis *r, uint64_t now_ms, const char *sha, const char *game,
                 dh_trial_side side, dh_trial_count what);
/* Read game's trial of canary sha into t (absent fields 0; min and margin the defaults
 * when unset). 0, or -1 on a Redis error. */
int dh_trial_read(dh_redis *r, uint64_t now_ms, const char *sha, const char *game, dh_trial *t);
/* Zero game's counts and set its guard (min matches, margin points). 0 or -1. */
int dh_trial_reset(dh_redis *r, uint64_t now_ms, const char *sha, const char *game, int min,
                   int margin);
/* Whether the guard aborts the canary; why (the audit entry's reason) when it does. */
bool dh_trial_verdict(const dh_trial *t, char *why, size_t whylen);
/* The figures on one line, for `scripts list`. */
void dh_trial_line(const dh_trial *t, char *out, size_t cap);

#endif
