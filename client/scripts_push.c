/*
 * scripts_push.c: `deckhand scripts push DIR` (see scripts.h, docs/OPERATIONS.md).
 *
 * A push is refused, with nothing written, unless the bundle loads in the sandbox here,
 * its own rules tests pass (engine_rules_run), it runs at least as many rules tests for
 * each game it moves as that game's current bundle does (unless --force, with a reason),
 * and a few seeded all-bot games of each game it moves play to the end (not merely to
 * the turn cap). The checks load the bundle with the engine's default limits, the ones
 * the workers load bundles with, so a card the workers would stop at its time or memory
 * budget fails the checks as fast.
 *
 * Then bundle:{SHA} is stored and each game moves in one transaction with its audit
 * entry (dh_liveops.h): to the new bundle (push, apply), or, with --canary PCT, the new
 * bundle becomes the game's canary, which PCT% of new matches start on until `scripts
 * promote` or `scripts abort`, or until its guard aborts it (--guard-min matches,
 * --guard-margin points: dh_trial.h, worker/bundles/bundles_guard.c).
 *
 * With --simulate N it first plays N games of the game (--game) on its current bundle and
 * on this one, on the same seeds and bots, prints what moved with 95% intervals, and
 * puts the moved figures in the push's audit entry (scripts_compare.c).
 *
 * The guard counts tests per game: a bundle that drops six failing tests has fewer than
 * the bundle it replaces, which is what the checks alone could not see (issue 15). The
 * current bundle's count is recorded in bundle:{SHA} at its push; for a bundle stored
 * before that (or the workers' default), it is counted here once, on the bundle as Redis
 * holds it, and recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_bundle.h"
#include "dh_keys.h"
#include "dh_trial.h"
#include "scripts.h"

#define SCRIPTS_BOT_GAMES 3
#define SCRIPTS_SEATS_MAX 16

typedef struct {
    const char *dir, *only, *label;
    long wait_s, canary;
    long guard_min, guard_margin; /* the canary's guard (dh_trial.h) */
    long simulate;                /* --simulate N: games per bundle (scripts_compare.c) */
    scripts_sim sim;
    char sim_summary[1024]; /* what moved, for the audit entry ("": not simulated) */
    bool apply, force;
    scripts_actor actor;
    engine_bundle *b;
    const char *sha;
    engine_manifest man;
    engine_game_info gi[SCRIPTS_GAMES_MAX];
    int tests[SCRIPTS_GAMES_MAX];   /* rules tests per game moved */
    bool forced[SCRIPTS_GAMES_MAX]; /* the guard let it through on --force */
    size_t ng;
    char games[512]; /* the games moved, comma-separated */
} push_job;

static bool push_moves(const push_job *p, size_t i)
{
    return !p->only || !strcmp(p->only, p->gi[i].name);
}

/* A few seeded all-bot games of game: they must play to the end. 0, or -1 with why. */
static int push_bot_games(engine_bundle *b, const engine_game_info *gi, char *why, size_t whylen)
{
    int np = gi->min_players < 2 ? (gi->max_players < 2 ? gi->max_players : 2) : gi->min_players;
    if (np > SCRIPTS_SEATS_MAX)
        np = SCRIPTS_SEATS_MAX;
    const char *names[SCRIPTS_SEATS_MAX], *bots[SCRIPTS_SEATS_MAX];
    char namebuf[SCRIPTS_SEATS_MAX][16];
    for (int i = 0; i < np; i++) {
        snprintf(namebuf[i], sizeof namebuf[i], "bot-%d", i + 1);
        names[i] = namebuf[i];
        bots[i] = "default";
    }
    for (uint64_t seed = 1; seed <= SCRIPTS_BOT_GAMES; seed++) {
        engine_match_config cfg = {.match_id = "push-check",
                                   .game = gi->name,
                                   .seed = seed,
                                   .nplayers = np,
                                   .names = names,
                                   .bots = bots};
        engine_error ee = {0};
        engine_match *m = engine_match_new(b, &cfg, &ee);
        if (!m) {
            snprintf(why, whylen, "bot game %s seed %llu: %s", gi->name, (unsigned long long)seed,
                     ee.message);
            return -1;
        }
        bool done = engine_match_finished(m), capped = engine_match_turn_capped(m);
        engine_match_free(m);
        if (!done || capped) {
            snprintf(why, whylen, "bot game %s seed %llu %s", gi->name, (unsigned long long)seed,
                     capped ? "never ended (stopped at the turn cap)" : "stopped at a decision");
            return -1;
        }
    }
    return 0;
}

/* 1 when worker id serves sha, -1 when it reported an error (printed), 0 not yet. */
static int push_worker_state(dh_redis *rd, const char *id, const char *sha)
{
    char key[DH_KEY_MAX];
    dh_key_worker_bundles(key, id);
    const char *hex[] = {"HEXISTS", key, sha};
    redisReply *r = scripts_cmd(rd, 3, hex);
    int st = r && r->type == REDIS_REPLY_INTEGER && r->integer == 1;
    if (r)
        freeReplyObject(r);
    if (st)
        return 1;
    dh_key_bundle_errors(key, sha);
    const char *hget[] = {"HGET", key, id};
    r = scripts_cmd(rd, 3, hget);
    if (r && r->type == REDIS_REPLY_STRING) {
        printf("worker %s cannot load it (still serving the previous bundle): %s\n", id, r->str);
        st = -1;
    }
    if (r)
        freeReplyObject(r);
    return st;
}

/* Waits up to wait_ms for every live worker to serve sha or report why not. */
static int push_wait(dh_redis *rd, const char *sha, long wait_ms, long long t0)
{
    char ids[SCRIPTS_WORKERS][128];
    size_t n = scripts_workers(rd, ids, SCRIPTS_WORKERS);
    int state[SCRIPTS_WORKERS] = {0};
    size_t settled = 0;
    while (settled < n && cli_now_ms() - t0 < wait_ms) {
        for (size_t i = 0; i < n; i++) {
            if (state[i])
                continue;
            state[i] = push_worker_state(rd, ids[i], sha);
            settled += state[i] != 0;
        }
        if (settled < n)
            nanosleep(&(struct timespec){0, 10 * 1000000L}, NULL);
    }
    size_t serving = 0;
    for (size_t i = 0; i < n; i++)
        serving += state[i] == 1;
    printf("serving on %zu/%zu workers %lld ms after the push\n", serving, n, cli_now_ms() - t0);
    for (size_t i = 0; i < n; i++)
        if (!state[i])
            printf("worker %s did not report within %ld ms\n", ids[i], wait_ms);
    return serving == n ? 0 : 3;
}

static int push_refuse(const char *fmt, const char *why)
{
    printf("refused: ");
    printf(fmt, why);
    printf("\nnothing changed\n");
    return 1;
}

/* The flags into p: -1 to go on, else the exit status (0 after --help, 2 on bad usage). */
static int push_flags(push_job *p, dh_flags *f, int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"label", DH_FLAG_VALUE},
                                        {"wait", DH_FLAG_INT},
                                        {"redis", DH_FLAG_VALUE},
                                        {"apply-to-running", DH_FLAG_SWITCH},
                                        {"canary", DH_FLAG_INT},
                                        {"force", DH_FLAG_SWITCH},
                                        {"by", DH_FLAG_VALUE},
                                        {"reason", DH_FLAG_VALUE},
                                        {"guard-min", DH_FLAG_INT},
                                        {"guard-margin", DH_FLAG_INT},
                                        {"simulate", DH_FLAG_INT},
                                        {"seed", DH_FLAG_INT},
                                        {"players", DH_FLAG_INT},
                                        {"bots", DH_FLAG_VALUE},
                                        {"options", DH_FLAG_VALUE},
                                        {"cards", DH_FLAG_VALUE},
                                        {NULL, 0}};
    int done = dh_flags_parse_main(f, spec, argc, argv, SCRIPTS_WHO, scripts_usage, 1, 1);
    if (done >= 0)
        return done;
    p->dir = f->pos[0];
    if (cli_int(f, SCRIPTS_WHO, "wait", 10, 0, 600, &p->wait_s) < 0 ||
        cli_int(f, SCRIPTS_WHO, "canary", 0, 1, 99, &p->canary) < 0 ||
        cli_int(f, SCRIPTS_WHO, "guard-min", DH_TRIAL_MIN, 1, 1000000, &p->guard_min) < 0 ||
        cli_int(f, SCRIPTS_WHO, "guard-margin", DH_TRIAL_MARGIN, 0, 100, &p->guard_margin) < 0 ||
        cli_int(f, SCRIPTS_WHO, "simulate", 0, 2, 1000000, &p->simulate) < 0)
        return 2;
    if (p->simulate && scripts_sim_flags(f, &p->sim, p->simulate) < 0)
        return 2; /* --simulate compares one game: --game is required */
    p->only = dh_flags_str(f, "game", NULL, NULL);
    p->label = dh_flags_str(f, "label", NULL, NULL);
    p->apply = dh_flags_has(f, "apply-to-running");
    p->force = dh_flags_has(f, "force");
    if (p->apply && p->canary) {
        fprintf(stderr,
                "%s: --canary and --apply-to-running do not go together (a canary "
                "is for new matches)\n",
                SCRIPTS_WHO);
        return 2;
    }
    return scripts_actor_init(&p->actor, f, p->force ? "--force" : NULL) < 0 ? 2 : -1;
}

/* Load, read the manifest, list the games, run the tests per game and the bot games.
 * 0, or 1 (refused, printed). */
static int push_check(push_job *p)
{
    engine_error ee = {0};
    char why[600];
    p->b = engine_bundle_load(p->dir, NULL, &ee);
    if (!p->b)
        return push_refuse("the bundle does not load: %s", ee.message);
    p->sha = engine_bundle_id(p->b);
    if (engine_bundle_manifest(p->b, &p->man, &ee) < 0)
        return push_refuse("bad manifest.lua: %s", ee.message);
    if (p->apply && !p->man.compatible)
        return push_refuse("%s", "--apply-to-running needs compatible = true in manifest.lua");
    p->ng = engine_bundle_games(p->b, p->gi, SCRIPTS_GAMES_MAX);
    if (p->ng > SCRIPTS_GAMES_MAX)
        p->ng = SCRIPTS_GAMES_MAX;
    size_t moved = 0, at = 0;
    for (size_t i = 0; i < p->ng; i++) {
        if (!push_moves(p, i))
            continue;
        moved++;
        at += (size_t)snprintf(p->games + at, sizeof p->games - at, "%s%s", at ? "," : "",
                               p->gi[i].name);
        if (at >= sizeof p->games)
            return push_refuse("%s", "too many games");
    }
    if (!moved)
        return push_refuse("the bundle has no game %s", p->only ? p->only : "at all");
    printf("bundle %s (%s), games %s\n", p->sha, p->label ? p->label : p->man.label, p->games);

    /* The tests run in a VM of their own: the one that gets stored stays untouched. */
    engine_bundle *tb = engine_bundle_load(p->dir, NULL, &ee);
    if (!tb)
        return push_refuse("the bundle does not load: %s", ee.message);
    int passed = 0;
    for (size_t i = 0; i < p->ng; i++) {
        if (!push_moves(p, i))
            continue;
        engine_rules_report rep;
        engine_rules_run(tb, p->gi[i].name, NULL, NULL, &rep);
        if (rep.failed) {
            engine_bundle_free(tb);
            return push_refuse("rules tests failed: %s", rep.first_failure);
        }
        p->tests[i] = rep.passed;
        passed += rep.passed;
    }
    engine_bundle_free(tb);
    printf("rules tests: %d passed\n", passed);
    for (size_t i = 0; i < p->ng; i++)
        if (push_moves(p, i) && push_bot_games(p->b, &p->gi[i], why, sizeof why) < 0)
            return push_refuse("%s", why);
    printf("bot games: %d per game played to the end\n", SCRIPTS_BOT_GAMES);
    return 0;
}

/* The rules tests bundle sha runs for game: recorded, else counted on the bundle Redis
 * holds and recorded. -1 when it cannot be had (no comparison then). */
static int push_tests_of(dh_redis *rd, const char *sha, const char *game)
{
    int n = dh_bundle_tests(rd, sha, game);
    if (n >= 0 || n == -2)
        return n < 0 ? -1 : n;
    engine_bundle *cb = cli_redis_bundle(rd, sha, SCRIPTS_WHO);
    if (!cb)
        return -1;
    engine_rules_report rep;
    engine_rules_run(cb, game, NULL, NULL, &rep);
    engine_bundle_free(cb);
    n = rep.passed + rep.failed;
    dh_bundle_tests_set(rd, sha, game, n);
    return n;
}

/* Every game moved is one the live workers serve: a pointer for any other game would
 * serve nobody (a push cannot add a game to a running cluster). 0, or 1 (refused). */
static int push_served(push_job *p, dh_redis *rd)
{
    char served[1024], why[1400];
    size_t nw = scripts_served_games(rd, served, sizeof served);
    for (size_t i = 0; i < p->ng; i++) {
        if (!push_moves(p, i) || dh_list_find(served, p->gi[i].name) >= 0)
            continue;
        snprintf(why, sizeof why,
                 "no worker serves %s (%zu live workers, serving %s): a push changes the "
                 "games the workers serve, it cannot add one; a new game reaches the workers "
                 "in their embedded bundle (the worker's --scripts folder, or the image), "
                 "rolled out by restarting them, then push to change it",
                 p->gi[i].name, nw, *served ? served : "no game");
        return push_refuse("%s", why);
    }
    return 0;
}

/* Per game moved: no canary runs (it must be promoted or aborted first), and the
 * test-count guard. 0, or 1 (refused, printed). */
static int push_guard(push_job *p, dh_redis *rd)
{
    char why[600];
    if (push_served(p, rd))
        return 1;
    for (size_t i = 0; i < p->ng; i++) {
        if (!push_moves(p, i))
            continue;
        const char *game = p->gi[i].name;
        dh_liveops_state st;
        redisContext *c = scripts_game_node(rd, game);
        if (!c || dh_liveops_read(c, game, &st) < 0)
            return push_refuse("%s", "cannot read the current bundles from Redis");
        if (st.canary[0]) {
            snprintf(why, sizeof why,
                     "%s has a canary running (%.12s, %d%%): promote or abort it first", game,
                     st.canary, st.canary_pct);
            return push_refuse("%s", why);
        }
        scripts_bundle cur;
        scripts_bundle_about(rd, st.current[0] ? st.current : DH_BUNDLE_DEFAULT, game, &cur);
        if (!strcmp(cur.sha, DH_BUNDLE_DEFAULT) || !strcmp(cur.sha, p->sha))
            continue; /* no stored bundle to compare with, or the same one */
        int have = push_tests_of(rd, cur.sha, game);
        if (have < 0 || p->tests[i] >= have)
            continue;
        if (p->force) {
            printf("%s runs %d rules tests, the current bundle %.12s runs %d: forced (%s)\n", game,
                   p->tests[i], cur.sha, have, p->actor.reason);
            p->forced[i] = true;
            continue;
        }
        snprintf(why, sizeof why,
                 "%s runs %d rules tests, the current bundle %.12s runs %d (--force --reason "
                 "TEXT to push it anyway)",
                 game, p->tests[i], cur.sha, have);
        return push_refuse("%s", why);
    }
    return 0;
}

/* --simulate N: the game's current bundle (from Redis: the pointer, else the workers'
 * stored default) against this one, N games each (scripts_compare.c). 0, or 1 (refused,
 * printed). */
static int push_simulate(push_job *p, dh_redis *rd)
{
    dh_liveops_state st;
    scripts_bundle cur;
    redisContext *c = scripts_game_node(rd, p->sim.game);
    if (!c || dh_liveops_read(c, p->sim.game, &st) < 0)
        return push_refuse("%s", "cannot read the current bundles from Redis");
    scripts_bundle_about(rd, st.current[0] ? st.current : DH_BUNDLE_DEFAULT, p->sim.game, &cur);
    if (!strcmp(cur.sha, DH_BUNDLE_DEFAULT))
        return push_refuse("%s", "--simulate: the game's current bundle is not in Redis (no "
                                 "worker stored its default yet)");
    engine_bundle *old = cli_redis_bundle(rd, cur.sha, SCRIPTS_WHO);
    if (!old)
        return push_refuse("%s", "--simulate: the current bundle does not load from Redis");
    printf("simulate: %.12s (current) against %.12s (this push)\n", cur.sha, p->sha);
    int rc = scripts_compare_run(old, p->b, &p->sim, p->sim_summary, sizeof p->sim_summary);
    engine_bundle_free(old);
    return rc < 0 ? push_refuse("%s", "--simulate: the games did not play to their end") : 0;
}

/* Store bundle:{SHA} (files, meta, tests per game, the apply mark). 0 or -1. */
static int push_store(push_job *p, dh_redis *rd)
{
    size_t nf;
    engine_file_in *files = engine_bundle_files(p->b, &nf);
    if (!files)
        return -1;
    dh_bundle_meta meta = {p->label ? p->label : p->man.label, p->games, p->man.compatible,
                           scripts_wall_ms()};
    int rc = dh_bundle_store(rd, p->sha, files, nf, &meta);
    free(files);
    for (size_t i = 0; rc == 0 && i < p->ng; i++)
        if (push_moves(p, i))
            rc = dh_bundle_tests_set(rd, p->sha, p->gi[i].name, p->tests[i]);
    /* a canary's trial starts from zero, with its guard's settings (dh_trial.h) */
    for (size_t i = 0; rc == 0 && p->canary && i < p->ng; i++)
        if (push_moves(p, i))
            rc = dh_trial_reset(rd, (uint64_t)cli_now_ms(), p->sha, p->gi[i].name,
                                (int)p->guard_min, (int)p->guard_margin);
    if (rc == 0 && p->apply) {
        /* before the pointer moves: a worker reads it when it loads the bundle */
        char key[DH_KEY_MAX];
        dh_key_bundle(key, p->sha);
        const char *hset[] = {"HSET", key, DH_F_BUNDLE_APPLY_TO_RUNNING, "1"};
        redisReply *r = scripts_cmd(rd, 4, hset);
        rc = r && r->type == REDIS_REPLY_INTEGER ? 0 : -1;
        if (r)
            freeReplyObject(r);
    }
    if (rc < 0)
        fprintf(stderr, "%s: cannot store the bundle %.12s\n", SCRIPTS_WHO, p->sha);
    return rc;
}

/* Moving one game of a push: the job, the game's index, and what the commit's strings
 * point into. */
typedef struct {
    push_job *p;
    size_t i;
    scripts_bundle me;
    char canary[96];
} push_target;

static scripts_step push_plan(void *ctx, redisContext *c, const dh_liveops_state *st,
                              dh_liveops_change *ch, dh_audit *a)
{
    (void)c;
    push_target *t = ctx;
    push_job *p = t->p;
    const char *game = p->gi[t->i].name;
    if (!strcmp(st->current, p->sha) || (st->canary[0] && !strcmp(st->canary, p->sha))) {
        printf("%s: already %s\n", game, st->canary[0] ? "its canary" : "current");
        return SCRIPTS_DONE;
    }
    if (st->canary[0]) {
        fprintf(stderr, "%s: %s: a canary started meanwhile\n", SCRIPTS_WHO, game);
        return SCRIPTS_FAIL;
    }
    snprintf(t->canary, sizeof t->canary, "%ld %s", p->canary, p->sha);
    *ch = (dh_liveops_change){.current = p->canary ? NULL : p->sha,
                              .canary = p->canary ? t->canary : NULL,
                              .history = p->canary ? NULL : p->sha};
    const char *action = p->canary ? "canary" : p->apply ? "apply" : "push";
    *a = scripts_audit_entry(&p->actor, action, game, &t->me);
    a->tests = p->tests[t->i];
    a->from = st->current[0] ? st->current : DH_BUNDLE_DEFAULT;
    a->pct = (int)p->canary;
    a->forced = p->forced[t->i];
    a->simulate = p->sim_summary[0] ? p->sim_summary : NULL;
    return SCRIPTS_GO;
}

static void push_moved(void *ctx, const dh_liveops_state *st)
{
    (void)st;
    push_target *t = ctx;
    push_job *p = t->p;
    const char *game = p->gi[t->i].name;
    if (p->canary)
        printf("%s: canary %.12s takes %ld%% of new matches\n", game, p->sha, p->canary);
    else
        printf("%s: current is now %.12s\n", game, p->sha);
}

/* Move game i to the bundle (or start its canary), with its audit entry. 0 or -1. */
static int push_move(push_job *p, dh_redis *rd, size_t i)
{
    push_target t = {.p = p, .i = i};
    snprintf(t.me.sha, sizeof t.me.sha, "%s", p->sha);
    snprintf(t.me.label, sizeof t.me.label, "%s", p->label ? p->label : p->man.label);
    snprintf(t.me.games, sizeof t.me.games, "%s", p->games);
    const char *game = p->gi[i].name;
    scripts_change job = {.game = game,
                          .who = SCRIPTS_WHO,
                          .what = game,
                          .ctx = &t,
                          .plan = push_plan,
                          .done = push_moved};
    return scripts_commit(rd, &job);
}

int scripts_push(int argc, char **argv)
{
    push_job job = {0}, *p = &job;
    dh_flags fl, *f = &fl;
    int rc = push_flags(p, f, argc, argv);
    if (rc >= 0)
        return rc;
    dh_redis rd;
    bool opened = false;
    rc = 1;
    if (push_check(p))
        goto out;
    opened = true;
    if (!cli_redis(f, SCRIPTS_WHO, &rd))
        goto out;
    if (push_guard(p, &rd) || (p->simulate && push_simulate(p, &rd)) || push_store(p, &rd) < 0)
        goto out;
    long long t0 = cli_now_ms();
    for (size_t i = 0; i < p->ng; i++)
        if (push_moves(p, i) && push_move(p, &rd, i) < 0)
            goto out;
    rc = p->wait_s ? push_wait(&rd, p->sha, p->wait_s * 1000, t0) : 0;
out:
    if (opened)
        dh_redis_close(&rd);
    engine_bundle_free(p->b);
    return rc;
}
