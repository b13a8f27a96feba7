/*
 * scripts_rollout.c: what follows a push (see scripts.h, docs/OPERATIONS.md):
 *
 *   rollback --game G --reason TEXT   new matches of G go back to the bundle before the
 *                                     current one (bundle:history replayed as a stack);
 *                                     the history and the audit trail gain an entry, none
 *                                     is erased
 *   promote --game G                  G's canary becomes current for every new match
 *   abort --game G                    G's canary is dropped; matches on it finish on it
 *
 * Each reads what it will change first (a prepare step), then, under a WATCH, checks
 * nobody changed it meanwhile and commits the change with its audit entry in one
 * transaction (a plan step); scripts_commit runs the rounds and retries a raced one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_bundle.h"
#include "dh_keys.h"
#include "scripts.h"

static const dh_flag_spec rollout_spec[] = {{"game", DH_FLAG_VALUE},
                                            {"redis", DH_FLAG_VALUE},
                                            {"by", DH_FLAG_VALUE},
                                            {"reason", DH_FLAG_VALUE},
                                            {NULL, 0}};

/* Parse flags, the actor and --game, connect. The game, or NULL with *rc the exit status
 * (rd needs closing once *opened). */
static const char *rollout_open(int argc, char **argv, const char *who, const char *need_reason,
                                dh_flags *f, scripts_actor *actor, dh_redis *rd, bool *opened,
                                int *rc)
{
    *opened = false;
    *rc = dh_flags_parse_main(f, rollout_spec, argc, argv, SCRIPTS_WHO, scripts_usage, 0, 0);
    if (*rc >= 0)
        return NULL;
    *rc = 2;
    const char *game = cli_required(f, who, "game");
    if (!game || scripts_actor_init(actor, f, need_reason) < 0)
        return NULL;
    *rc = 1;
    *opened = true;
    if (!cli_redis(f, SCRIPTS_WHO, rd))
        return NULL;
    return game;
}

/* The audit entry's view of bundle sha (DH_BUNDLE_DEFAULT: the embedded default), with
 * the tests it runs for game when recorded. */
static void rollout_about(dh_redis *rd, const char *sha, const char *game, scripts_bundle *b,
                          int *tests)
{
    scripts_bundle_about(rd, sha, game, b);
    *tests = strcmp(b->sha, DH_BUNDLE_DEFAULT) ? dh_bundle_tests(rd, b->sha, game) : -1;
    if (*tests < -1)
        *tests = -1;
    if (!strcmp(sha, DH_BUNDLE_DEFAULT))
        snprintf(b->sha, sizeof b->sha, "%s", DH_BUNDLE_DEFAULT);
}

/* A rollback or a canary's end: the actor, and what the prepare step read for the plan. */
typedef struct {
    const char *game;
    scripts_actor actor;
    bool promote;     /* the canary's end: promote (true) or abort */
    char from[65];    /* rollback: the bundle current holds */
    char to[65];      /* rollback: the one it goes back to; canary: the canary */
    char entry[96];   /* rollback: its history entry */
    int pct;          /* canary: its share */
    scripts_bundle b; /* what the audit entry says of the bundle new matches start on */
    int tests;
} rollout_job;

/* Run job for j's game: flags, actor and connection (rollout_open), then scripts_commit.
 * The exit status. */
static int rollout_run(int argc, char **argv, const char *need_reason, rollout_job *j,
                       scripts_change *job)
{
    dh_flags fl;
    dh_redis rd;
    bool opened;
    int rc;
    j->game = rollout_open(argc, argv, job->who, need_reason, &fl, &j->actor, &rd, &opened, &rc);
    if (j->game) {
        job->game = j->game;
        job->ctx = j;
        rc = scripts_commit(&rd, job) < 0 ? 1 : 0;
    }
    if (opened)
        dh_redis_close(&rd);
    return rc;
}

/* A rollback moves the current pointer only: with a canary running it would leave the
 * canary taking its share, so it is refused, naming the command that drops the canary. */
static bool rollback_canary_refused(const rollout_job *j, const dh_liveops_state *ls)
{
    if (!ls->canary[0])
        return false;
    printf("refused: %s has a canary running (%.12s, %d%%); a rollback moves only the current "
           "bundle: drop the canary with `deckhand scripts abort --game %s --reason TEXT` (or "
           "promote it), then roll back\nnothing changed\n",
           j->game, ls->canary, ls->canary_pct, j->game);
    return true;
}

static scripts_step rollback_prepare(void *ctx, dh_redis *rd)
{
    rollout_job *j = ctx;
    dh_liveops_state ls;
    redisContext *c = scripts_game_node(rd, j->game);
    if (!c || dh_liveops_read(c, j->game, &ls) < 0)
        return SCRIPTS_FAIL;
    if (rollback_canary_refused(j, &ls))
        return SCRIPTS_FAIL;
    int st = dh_liveops_rollback_read(c, j->game, j->from, j->to);
    if (st < 0)
        return SCRIPTS_FAIL;
    if (st == 0) {
        printf("%s: nothing to roll back (it runs on the workers' embedded default)\n", j->game);
        return SCRIPTS_DONE;
    }
    rollout_about(rd, j->to, j->game, &j->b, &j->tests);
    return SCRIPTS_GO;
}

static scripts_step rollback_plan(void *ctx, redisContext *c, const dh_liveops_state *ls,
                                  dh_liveops_change *ch, dh_audit *a)
{
    rollout_job *j = ctx;
    char from2[65], to2[65];
    if (rollback_canary_refused(j, ls))
        return SCRIPTS_FAIL;
    if (dh_liveops_rollback_read(c, j->game, from2, to2) != 1 || strcmp(j->from, from2) ||
        strcmp(j->to, to2))
        return SCRIPTS_AGAIN;
    snprintf(j->entry, sizeof j->entry, "%s rollback", j->to);
    *ch = (dh_liveops_change){.current = strcmp(j->to, DH_BUNDLE_DEFAULT) ? j->to : "",
                              .history = j->entry};
    *a = scripts_audit_entry(&j->actor, "rollback", j->game, &j->b);
    a->tests = j->tests;
    a->from = ls->current[0] ? ls->current : DH_BUNDLE_DEFAULT;
    return SCRIPTS_GO;
}

static void rollback_done(void *ctx, const dh_liveops_state *ls)
{
    (void)ls;
    rollout_job *j = ctx;
    if (!strcmp(j->to, DH_BUNDLE_DEFAULT))
        printf("%s: current is now the workers' embedded default\n", j->game);
    else
        printf("%s: current is now %.12s\n", j->game, j->to);
}

int scripts_rollback(int argc, char **argv)
{
    rollout_job j = {.promote = false};
    scripts_change job = {.who = "deckhand scripts rollback",
                          .what = "the history",
                          .prepare = rollback_prepare,
                          .plan = rollback_plan,
                          .done = rollback_done};
    return rollout_run(argc, argv, "a rollback", &j, &job);
}

static scripts_step canary_prepare(void *ctx, dh_redis *rd)
{
    rollout_job *j = ctx;
    dh_liveops_state ls;
    redisContext *c = scripts_game_node(rd, j->game);
    if (!c || dh_liveops_read(c, j->game, &ls) < 0)
        return SCRIPTS_FAIL;
    if (!ls.canary[0]) {
        printf("refused: %s has no canary\n", j->game);
        return SCRIPTS_FAIL;
    }
    rollout_about(rd, ls.canary, j->game, &j->b, &j->tests);
    snprintf(j->to, sizeof j->to, "%s", ls.canary);
    j->pct = ls.canary_pct;
    return SCRIPTS_GO;
}

static scripts_step canary_plan(void *ctx, redisContext *c, const dh_liveops_state *ls,
                                dh_liveops_change *ch, dh_audit *a)
{
    (void)c;
    rollout_job *j = ctx;
    if (strcmp(ls->canary, j->to))
        return SCRIPTS_AGAIN;
    *ch = (dh_liveops_change){.canary = ""};
    if (j->promote) {
        ch->current = j->to;
        ch->history = j->to;
    }
    *a = scripts_audit_entry(&j->actor, j->promote ? "promote" : "abort", j->game, &j->b);
    a->tests = j->tests;
    a->pct = j->pct;
    a->from = ls->current[0] ? ls->current : DH_BUNDLE_DEFAULT;
    return SCRIPTS_GO;
}

static void canary_done(void *ctx, const dh_liveops_state *ls)
{
    rollout_job *j = ctx;
    if (j->promote)
        printf("%s: current is now %.12s (the canary, promoted)\n", j->game, j->to);
    else
        printf("%s: canary %.12s dropped; new matches start on %.12s\n", j->game, j->to,
               ls->current[0] ? ls->current : DH_BUNDLE_DEFAULT);
}

/* promote (true) or abort (false) game's canary. */
static int rollout_canary(int argc, char **argv, bool promote)
{
    rollout_job j = {.promote = promote};
    scripts_change job = {.who = promote ? "deckhand scripts promote" : "deckhand scripts abort",
                          .what = "the canary",
                          .prepare = canary_prepare,
                          .plan = canary_plan,
                          .done = canary_done};
    return rollout_run(argc, argv, NULL, &j, &job);
}

int scripts_promote(int argc, char **argv)
{
    return rollout_canary(argc, argv, true);
}

int scripts_abort(int argc, char **argv)
{
    return rollout_canary(argc, argv, false);
}
