/*
 * rater.h: ratings, leaderboards and match history move once per finished match between
 * accounts (docs/ARCHITECTURE.md, "Ratings").
 *
 * Exactly once, across retries, failovers and a Redis Cluster (where a match, a game's
 * ratings and each account's history live in different slots), in steps that are each
 * atomic in Redis and idempotent:
 * 1. The finishing commit (dh_script_commit, host_persist.c) keeps the match's rating job
 *    (rater_job: game, mode, bundle, each seat's account and place) in match:{ID}; once it
 *    landed the worker copies it into matches:unrated (or, when the worker died first, the
 *    matchmaker's takeover does: dh_keys.h).
 * 2. Any worker's sweep (rater_sweep, from the worker loop) takes jobs from
 *    matches:unrated; a job whose match is rated already is just deleted. Otherwise it
 *    reads the seats' ratings, computes the new ones (dh_rating.h) and writes them with
 *    dh_script_rate on the game's slot, which does nothing when the match's marker
 *    rated:{GAME}:{ID} exists and refuses (STALE) when a rating changed since it was read;
 *    otherwise it writes every rating and leaderboard score and the marker at once.
 * 3. Each seat's history entry (dh_script_history_push, which skips an entry the list
 *    holds already), then match:{ID}.rated = 1, then the job leaves matches:unrated.
 * A worker that dies between steps leaves the job for another, which redoes the steps:
 * the marker and the history check make each happen once. Two workers racing on one job
 * both compute, one writes, the other finds the marker; two jobs sharing a player never
 * lose an update (the loser of the race reads again).
 *
 * Who is rated: every seat must be an account (dh_token_is_account_id) and there must be
 * at least two distinct accounts; guests are not rated (a match with a guest seat moves
 * nobody's rating). A seat a bot played for an absent player still counts as that player.
 * A quarantined match (end_reason script_error) is not rated.
 */
#ifndef DECKHAND_WORKER_RATER_H
#define DECKHAND_WORKER_RATER_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_rating.h"
#include "dh_redis.h"
#include "dh_script.h"

#define RATER_JOB_MAX   2048
#define RATER_ID_MAX    64
#define RATER_ENTRY_MAX 2304 /* fits every field at its longest (doubles in %.2f) */
#define RATER_TEXT_MAX  128

typedef struct {
    dh_rating_params params;
    dh_script rate, history; /* by hash; loaded again on a NOSCRIPT reply */
} rater;

/* What one job will write, computed from the ratings read (rater_prepare). */
typedef struct {
    char match_id[RATER_ID_MAX];
    char game[RATER_TEXT_MAX], mode[RATER_TEXT_MAX], bundle[RATER_TEXT_MAX];
    uint64_t ended_ms;
    bool skip; /* a malformed job: dropped, never rated */
    size_t n;
    char ids[DH_RATING_SEATS][RATER_ID_MAX];
    int ranks[DH_RATING_SEATS];
    char old_value[DH_RATING_SEATS][80], new_value[DH_RATING_SEATS][80];
    char ordinal[DH_RATING_SEATS][32];
    char entry[DH_RATING_SEATS][RATER_ENTRY_MAX];
} rater_plan;

void rater_init(rater *r);

/* The rating job of a finished match into out (RATER_JOB_MAX bytes): 0, or -1 when the
 * match is not rated (a guest seat, fewer than two distinct accounts, more than
 * DH_RATING_SEATS seats, or a field that does not fit). ranks: 1 first, equal ranks tie. */
int rater_job(const char *game, const char *mode, const char *bundle, uint64_t ended_ms,
              const char *const *player_ids, const int *ranks, size_t n, char *out, size_t cap);

/* Read the seats' ratings and names and compute the plan. 0, or -1 when Redis failed. */
int rater_prepare(rater *r, dh_redis *rd, const char *match_id, const char *job, rater_plan *plan);
/* Write a plan: 1 applied, 0 the match was rated already (or the job dropped), 2 STALE
 * (prepare again), -1 Redis failed. */
int rater_commit(rater *r, dh_redis *rd, const rater_plan *plan);
/* prepare + commit, reading again after STALE (a few times). 1, 0 or -1 as commit. */
int rater_apply(rater *r, dh_redis *rd, const char *match_id, const char *job);
/* Apply up to max jobs of matches:unrated (picked at random, so that workers sweeping at
 * once spread out). The number applied, or -1 when Redis failed (dh_redis retries
 * it); a job Redis refuses otherwise (an error reply) is logged and stays. */
long rater_sweep(rater *r, dh_redis *rd, size_t max);

#endif
