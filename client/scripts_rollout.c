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
 * Each reads what it will change first, then, under a WATCH, checks nobody changed it
 * meanwhile and commits the change with its audit entry in one transaction
 * (dh_liveops.h); a raced attempt is retried. The transaction runs on the connection to
 * the node of the game's slot (scripts_game_node), asked again before each WATCH: the
 * routed reads in between may have moved or reconnected it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_bundle.h"
#include "dh_keys.h"
#include "scripts.h"

#define ROLLOUT_ATTEMPTS 5

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

int scripts_rollback(int argc, char **argv)
{
    dh_flags fl;
    scripts_actor actor;
    dh_redis rd;
    redisContext *c = NULL;
    bool opened;
    int rc;
    const char *game = rollout_open(argc, argv, "deckhand scripts rollback", "a rollback", &fl,
                                    &actor, &rd, &opened, &rc);
    if (!game)
        goto out;
    rc = 1;
    for (int attempt = 0; attempt < ROLLOUT_ATTEMPTS; attempt++) {
        char from[65], to[65], from2[65], to2[65];
        if (!(c = scripts_game_node(&rd, game)))
            goto out;
        int st = dh_liveops_rollback_read(c, game, from, to);
        if (st < 0)
            goto out;
        if (st == 0) {
            printf("%s: nothing to roll back (it runs on the workers' embedded default)\n", game);
            rc = 0;
            goto out;
        }
        scripts_bundle b;
        int tests;
        rollout_about(&rd, to, game, &b, &tests);
        dh_liveops_state ls;
        if (!(c = scripts_game_node(&rd, game)) || dh_liveops_watch(c, game, &ls) < 0)
            goto out;
        if (ls.canary[0]) {
            dh_liveops_unwatch(c);
            printf("refused: %s has a canary running (%.12s, %d%%): promote or abort it first\n",
                   game, ls.canary, ls.canary_pct);
            goto out;
        }
        if (dh_liveops_rollback_read(c, game, from2, to2) != 1 || strcmp(from, from2) ||
            strcmp(to, to2)) {
            dh_liveops_unwatch(c);
            continue;
        }
        bool to_default = !strcmp(to, DH_BUNDLE_DEFAULT);
        char entry[96];
        snprintf(entry, sizeof entry, "%s rollback", to);
        dh_liveops_change ch = {.current = to_default ? "" : to, .history = entry};
        dh_audit a = scripts_audit_entry(&actor, "rollback", game, &b);
        a.tests = tests;
        a.from = ls.current[0] ? ls.current : DH_BUNDLE_DEFAULT;
        int done = dh_liveops_commit(c, game, &ch, &a);
        if (done < 0)
            goto out;
        if (done == 0)
            continue;
        if (to_default)
            printf("%s: current is now the workers' embedded default\n", game);
        else
            printf("%s: current is now %.12s\n", game, to);
        rc = 0;
        goto out;
    }
    fprintf(stderr, "deckhand scripts rollback: the history kept changing; try again\n");
out:
    if (opened)
        dh_redis_close(&rd);
    return rc;
}

/* promote (true) or abort (false) game's canary. */
static int rollout_canary(int argc, char **argv, bool promote)
{
    dh_flags fl;
    scripts_actor actor;
    dh_redis rd;
    redisContext *c = NULL;
    bool opened;
    int rc;
    const char *who = promote ? "deckhand scripts promote" : "deckhand scripts abort";
    const char *game = rollout_open(argc, argv, who, NULL, &fl, &actor, &rd, &opened, &rc);
    if (!game)
        goto out;
    rc = 1;
    for (int attempt = 0; attempt < ROLLOUT_ATTEMPTS; attempt++) {
        dh_liveops_state ls;
        if (!(c = scripts_game_node(&rd, game)) || dh_liveops_read(c, game, &ls) < 0)
            goto out;
        if (!ls.canary[0]) {
            printf("refused: %s has no canary\n", game);
            goto out;
        }
        scripts_bundle b;
        int tests;
        rollout_about(&rd, ls.canary, game, &b, &tests);
        char canary[65];
        snprintf(canary, sizeof canary, "%s", ls.canary);
        int pct = ls.canary_pct;
        if (!(c = scripts_game_node(&rd, game)) || dh_liveops_watch(c, game, &ls) < 0)
            goto out;
        if (strcmp(ls.canary, canary)) {
            dh_liveops_unwatch(c);
            continue;
        }
        dh_liveops_change ch = {.canary = ""};
        if (promote) {
            ch.current = canary;
            ch.history = canary;
        }
        dh_audit a = scripts_audit_entry(&actor, promote ? "promote" : "abort", game, &b);
        a.tests = tests;
        a.pct = pct;
        a.from = ls.current[0] ? ls.current : DH_BUNDLE_DEFAULT;
        int done = dh_liveops_commit(c, game, &ch, &a);
        if (done < 0)
            goto out;
        if (done == 0)
            continue;
        if (promote)
            printf("%s: current is now %.12s (the canary, promoted)\n", game, canary);
        else
            printf("%s: canary %.12s dropped; new matches start on %.12s\n", game, canary,
                   ls.current[0] ? ls.current : DH_BUNDLE_DEFAULT);
        rc = 0;
        goto out;
    }
    fprintf(stderr, "%s: the canary kept changing; try again\n", who);
out:
    if (opened)
        dh_redis_close(&rd);
    return rc;
}

int scripts_promote(int argc, char **argv)
{
    return rollout_canary(argc, argv, true);
}

int scripts_abort(int argc, char **argv)
{
    return rollout_canary(argc, argv, false);
}
