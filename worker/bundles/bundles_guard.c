/*
 * bundles_guard.c: a canary that stops itself (issue 30; see bundles.h and dh_trial.h).
 * While a game has a canary, every worker counts the matches it starts on the canary and
 * on the current bundle, and those that meet a script error or are quarantined, in the
 * canary's trial hash in Redis (one HINCRBY each: only while a canary runs). After each
 * count that can tip the verdict it reads the trial and, when the guard says so, aborts
 * the canary itself: the same WATCH and MULTI/EXEC as `deckhand scripts abort`, with an
 * audit entry by "canary-guard" from this worker giving the figures. Workers that judge
 * at once race harmlessly: the first commit drops the canary, the others find it gone.
 *
 * Apart from bundles.c, which follows the pointers: this file only reports on them.
 */
#include "bundles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_liveops.h"
#include "dh_log.h"

static bundles_current *guard_game(bundles *bs, const char *game)
{
    for (size_t i = 0; i < bs->ncur; i++)
        if (!strcmp(bs->cur[i].game, game))
            return &bs->cur[i];
    return NULL;
}

/* Abort game's canary sha (when it still is) for why. */
static void guard_abort(bundles *bs, const char *game, const char *sha, const char *why,
                        uint64_t now_ms)
{
    char key[DH_KEY_MAX], label[128] = "-";
    dh_key_bundle(key, sha);
    const char *hget[] = {"HGET", key, DH_F_BUNDLE_LABEL};
    redisReply *r = dh_redis_command(&bs->redis, now_ms, 3, hget, NULL);
    if (r && r->type == REDIS_REPLY_STRING)
        snprintf(label, sizeof label, "%s", r->str);
    if (r)
        freeReplyObject(r);
    dh_key_bundle_current(key, game);
    redisContext *c = dh_redis_for_key(&bs->redis, key, now_ms);
    dh_liveops_state st;
    if (!c || dh_liveops_watch(c, game, &st) < 0)
        return;
    if (strcmp(st.canary, sha)) {
        dh_liveops_unwatch(c); /* ended meanwhile (another worker's guard, an operator) */
        return;
    }
    dh_audit a = {.action = "abort",
                  .game = game,
                  .bundle = sha,
                  .label = label,
                  .games = game,
                  .from = st.current[0] ? st.current : DH_BUNDLE_DEFAULT,
                  .by = "canary-guard",
                  .host = bs->worker_id,
                  .reason = why,
                  .tests = -1,
                  .pct = st.canary_pct};
    dh_liveops_change ch = {.canary = ""};
    if (dh_liveops_commit(c, game, &ch, &a) == 1) {
        dh_counter_inc(&bs->canaries_aborted);
        dh_warn("game %s: canary %.12s aborted: %s", game, sha, why);
    }
}

/* Read game's trial of canary sha and abort it when the guard says so. */
static void guard_judge(bundles *bs, const char *game, const char *sha, uint64_t now_ms)
{
    dh_trial t;
    char why[400];
    if (dh_trial_read(&bs->redis, now_ms, sha, game, &t) == 0 &&
        dh_trial_verdict(&t, why, sizeof why))
        guard_abort(bs, game, sha, why, now_ms);
}

int bundles_trial_start(bundles *bs, const char *game, const bundles_entry *e, char *sha,
                        uint64_t now_ms)
{
    const bundles_current *g = guard_game(bs, game);
    if (!g || !g->canary)
        return 0;
    int side = e == g->canary ? DH_TRIAL_CANARY : DH_TRIAL_CURRENT;
    snprintf(sha, 65, "%s", g->canary->id);
    bundles_trial_note(bs, game, sha, side + 1, DH_TRIAL_STARTED, now_ms);
    return side + 1;
}

void bundles_trial_note(bundles *bs, const char *game, const char *sha, int side,
                        dh_trial_count what, uint64_t now_ms)
{
    if (side < 1 || !dh_redis_get(&bs->redis, now_ms))
        return;
    if (dh_trial_add(&bs->redis, now_ms, sha, game, (dh_trial_side)(side - 1), what) < 0)
        return;
    /* a current match's start cannot tip the verdict towards an abort */
    if (what != DH_TRIAL_STARTED || side - 1 == DH_TRIAL_CANARY)
        guard_judge(bs, game, sha, now_ms);
}

void bundles_script_error(bundles *bs, const bundles_entry *e)
{
    bool canary = false;
    for (size_t i = 0; e && i < bs->ncur; i++)
        canary = canary || bs->cur[i].canary == e;
    dh_counter_inc(canary ? &bs->errors_canary : &bs->errors_current);
}
