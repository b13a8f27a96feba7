/*
 * bundles.c: the worker's loaded bundles and how they follow Redis (see bundles.h).
 */
#include "bundles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_grow.h"
#include "dh_bundle.h"
#include "dh_clock.h"
#include "dh_log.h"

static uint64_t bundles_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bundles_entry *bundles_add(bundles *bs, engine_bundle *b, bool is_default)
{
    if (dh_grow(&bs->v, &bs->cap, bs->n + 1, sizeof *bs->v, 8) < 0)
        return NULL;
    bundles_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->b = b;
    e->is_default = is_default;
    snprintf(e->id, sizeof e->id, "%s", engine_bundle_id(b));
    bs->v[bs->n++] = e;
    return e;
}

int bundles_init(bundles *bs, const char *worker_id, const char *redis_url, int timeout_ms,
                 engine_bundle *def, unsigned report_ttl_ms)
{
    memset(bs, 0, sizeof *bs);
    bs->worker_id = worker_id;
    bs->report_ttl_ms = report_ttl_ms;
    if (dh_redis_init(&bs->redis, redis_url, timeout_ms) < 0 ||
        dh_redis_sub_init(&bs->sub, redis_url, timeout_ms, DH_CHANNEL_BUNDLES) < 0)
        return -1;
    bundles_entry *e = bundles_add(bs, def, true);
    if (!e)
        return -1;
    engine_game_info info[BUNDLES_GAMES_MAX];
    size_t n = engine_bundle_games(def, info, BUNDLES_GAMES_MAX);
    for (size_t i = 0; i < n && i < BUNDLES_GAMES_MAX; i++) {
        snprintf(bs->cur[i].game, sizeof bs->cur[i].game, "%s", info[i].name);
        bs->cur[i].e = e;
    }
    bs->ncur = n < BUNDLES_GAMES_MAX ? n : BUNDLES_GAMES_MAX;
    bs->report_due = true;
    return 0;
}

static void bundles_entry_free(bundles_entry *e)
{
    if (!e->is_default)
        engine_bundle_free(e->b);
    free(e);
}

void bundles_free(bundles *bs)
{
    for (size_t i = 0; i < bs->n; i++)
        bundles_entry_free(bs->v[i]);
    free(bs->v);
    bs->v = NULL;
    bs->n = bs->cap = 0;
    dh_redis_close(&bs->redis);
    dh_redis_sub_close(&bs->sub);
}

static bool bundles_is_canary(const bundles *bs, const bundles_entry *e)
{
    for (size_t i = 0; i < bs->ncur; i++)
        if (bs->cur[i].canary == e)
            return true;
    return false;
}

/* Whether new matches of some game start on e (as its current bundle or its canary). */
static bool bundles_is_current(const bundles *bs, const bundles_entry *e)
{
    for (size_t i = 0; i < bs->ncur; i++)
        if (bs->cur[i].e == e)
            return true;
    return bundles_is_canary(bs, e);
}

/* Free e when no match runs on it and no game starts new ones on it. */
static void bundles_collect(bundles *bs, bundles_entry *e)
{
    if (e->is_default || e->matches || bundles_is_current(bs, e))
        return;
    for (size_t i = 0; i < bs->n; i++) {
        if (bs->v[i] == e) {
            bs->v[i] = bs->v[--bs->n];
            break;
        }
    }
    dh_info("bundle %.12s unloaded (no matches left on it)", e->id);
    bundles_entry_free(e);
    bs->report_due = true;
}

bundles_entry *bundles_pick(bundles *bs, const char *game)
{
    for (size_t i = 0; i < bs->ncur; i++)
        if (!strcmp(bs->cur[i].game, game))
            return bs->cur[i].e;
    return bs->v[0]; /* the default, first added and never removed */
}

bundles_entry *bundles_pick_new(bundles *bs, const char *game, const char *match_id)
{
    for (size_t i = 0; i < bs->ncur; i++) {
        bundles_current *g = &bs->cur[i];
        if (strcmp(g->game, game))
            continue;
        if (g->canary && dh_bundle_canary_takes(match_id, g->canary_pct))
            return g->canary;
        return g->e;
    }
    return bs->v[0];
}

void bundles_pin(bundles_entry *e)
{
    e->matches++;
}

void bundles_started(bundles *bs, bundles_entry *e)
{
    bundles_pin(e);
    e->started++;
    dh_counter_inc(bundles_is_canary(bs, e) ? &bs->started_canary : &bs->started_current);
}

void bundles_unpin(bundles *bs, bundles_entry *e)
{
    if (e->matches)
        e->matches--;
    bs->report_due = true;
    bundles_collect(bs, e);
}

static bundles_entry *bundles_find(bundles *bs, const char *sha)
{
    for (size_t i = 0; i < bs->n; i++)
        if (!strcmp(bs->v[i]->id, sha))
            return bs->v[i];
    return NULL;
}

static bool bundles_failed(const bundles *bs, const char *sha)
{
    for (size_t i = 0; i < bs->nfailed; i++)
        if (!strcmp(bs->failed[i], sha))
            return true;
    return false;
}

/* Record why sha cannot be served here: the log, bundle:{SHA}:errors, and a note that
 * keeps the next polls from retrying it. */
static void bundles_refuse(bundles *bs, const char *sha, const char *why)
{
    dh_counter_inc(&bs->failed_loads);
    dh_warn("bundle %.12s not loaded, still serving the previous one: %s", sha, why);
    snprintf(bs->failed[bs->nfailed % BUNDLES_FAILED], 65, "%s", sha);
    if (bs->nfailed < BUNDLES_FAILED)
        bs->nfailed++;
    char key[DH_KEY_MAX];
    dh_key_bundle_errors(key, sha);
    const char *argv[] = {"HSET", key, bs->worker_id, why};
    redisReply *r = dh_redis_command(&bs->redis, dh_now_ms(), 4, argv, NULL);
    if (r)
        freeReplyObject(r);
}

/* Fetch bundle:{SHA} and load it into a new VM; NULL (reported) when it cannot serve game. */
static bundles_entry *bundles_load(bundles *bs, const char *sha, const char *game)
{
    dh_bundle_file *files = NULL;
    size_t n = 0;
    engine_bundle *b = NULL;
    bundles_entry *e = NULL;
    char why[300];
    int rc = dh_bundle_fetch(&bs->redis, sha, &files, &n);
    if (rc < 0)
        return NULL; /* Redis trouble: try again at the next poll */
    if (rc == 0) {
        bundles_refuse(bs, sha, "no such bundle in Redis");
        return NULL;
    }
    uint64_t t0 = bundles_wall_ms();
    engine_error ee = {0};
    b = engine_bundle_load_files("bundle", files, n, NULL, &ee);
    if (!b) {
        snprintf(why, sizeof why, "load failed: %s", ee.message);
        bundles_refuse(bs, sha, why);
        goto out;
    }
    if (strcmp(engine_bundle_id(b), sha)) {
        snprintf(why, sizeof why, "content hashes to %.12s, not to its id", engine_bundle_id(b));
        bundles_refuse(bs, sha, why);
        goto out;
    }
    engine_game_info info[BUNDLES_GAMES_MAX];
    size_t ng = engine_bundle_games(b, info, BUNDLES_GAMES_MAX);
    bool has = false;
    for (size_t i = 0; i < ng && i < BUNDLES_GAMES_MAX; i++)
        has = has || !strcmp(info[i].name, game);
    if (!has) {
        snprintf(why, sizeof why, "the bundle has no game '%s'", game);
        bundles_refuse(bs, sha, why);
        goto out;
    }
    e = bundles_add(bs, b, false);
    if (!e) {
        bundles_refuse(bs, sha, "out of memory");
        goto out;
    }
    b = NULL;
    char key[DH_KEY_MAX];
    dh_key_bundle(key, sha);
    const char *argv[] = {"HMGET", key, DH_F_BUNDLE_COMPATIBLE, DH_F_BUNDLE_APPLY_TO_RUNNING};
    redisReply *r = dh_redis_command(&bs->redis, dh_now_ms(), 4, argv, NULL);
    e->apply_running =
        r && r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
        r->element[0]->type == REDIS_REPLY_STRING && !strcmp(r->element[0]->str, "1") &&
        r->element[1]->type == REDIS_REPLY_STRING && !strcmp(r->element[1]->str, "1");
    if (r)
        freeReplyObject(r);
    dh_counter_inc(&bs->loaded);
    dh_info("bundle %.12s loaded in %llu ms%s", sha, (unsigned long long)(bundles_wall_ms() - t0),
            e->apply_running ? " (applies to running matches)" : "");
out:
    engine_bundle_free(b);
    dh_bundle_files_free(files, n);
    return e;
}

bundles_entry *bundles_get(bundles *bs, const char *sha, const char *game, uint64_t now_ms)
{
    bundles_entry *e = bundles_find(bs, sha);
    if (e || bundles_failed(bs, sha))
        return e; /* a SHA that failed here fails again: not fetched, loaded, warned again */
    return dh_redis_get(&bs->redis, now_ms) ? bundles_load(bs, sha, game) : NULL;
}

/* Put the default bundle in Redis once, so matches on it can be replayed from there too. */
static void bundles_store_default(bundles *bs)
{
    bundles_entry *d = bs->v[0];
    char key[DH_KEY_MAX];
    dh_key_bundle(key, d->id);
    const char *argv[] = {"EXISTS", key};
    redisReply *r = dh_redis_command(&bs->redis, dh_now_ms(), 2, argv, NULL);
    if (!r)
        return;
    bool exists = r->type == REDIS_REPLY_INTEGER && r->integer == 1;
    freeReplyObject(r);
    if (!exists) {
        size_t n;
        engine_file_in *files = engine_bundle_files(d->b, &n);
        if (!files)
            return;
        char games[512] = "";
        size_t at = 0;
        for (size_t i = 0; i < bs->ncur && at < sizeof games; i++)
            at += (size_t)snprintf(games + at, sizeof games - at, "%s%s", i ? "," : "",
                                   bs->cur[i].game);
        dh_bundle_meta meta = {"default", games, 0, bundles_wall_ms()};
        int rc = dh_bundle_store(&bs->redis, d->id, files, n, &meta);
        free(files);
        if (rc < 0)
            return;
    }
    bs->default_stored = true;
}

/* The loaded entry for sha (loaded now when new); NULL when it cannot be served. */
static bundles_entry *bundles_want(bundles *bs, const char *sha, const char *game)
{
    bundles_entry *e = bundles_find(bs, sha);
    if (!e && !bundles_failed(bs, sha))
        e = bundles_load(bs, sha, game);
    return e;
}

/* Game g's current pointer says v (nil: the default). */
static void bundles_follow_current(bundles *bs, bundles_current *g, const redisReply *v)
{
    bundles_entry *want = bs->v[0];
    if (v->type == REDIS_REPLY_STRING) {
        char sha[65];
        snprintf(sha, sizeof sha, "%.*s", (int)v->len, v->str);
        want = bundles_want(bs, sha, g->game);
        if (!want)
            return; /* keep serving what we had */
    }
    bundles_entry *old = g->e;
    if (old == want)
        return;
    dh_info("game %s: new matches start on bundle %.12s (was %.12s)", g->game, want->id, old->id);
    g->e = want;
    bs->report_due = true;
    bundles_collect(bs, old);
}

/* Game g's canary says v ("PCT SHA", nil: none). A canary that does not load here is
 * no canary on this worker: its new matches stay on the current bundle. */
static void bundles_follow_canary(bundles *bs, bundles_current *g, const redisReply *v)
{
    bundles_entry *want = NULL;
    int pct = 0;
    char sha[65];
    if (v->type == REDIS_REPLY_STRING && sscanf(v->str, "%d %64s", &pct, sha) == 2 && pct > 0)
        want = bundles_want(bs, sha, g->game);
    if (want == g->e)
        want = NULL;
    bundles_entry *old = g->canary;
    if (old == want && (!want || pct == g->canary_pct))
        return;
    if (want)
        dh_info("game %s: canary bundle %.12s takes %d%% of new matches", g->game, want->id, pct);
    else
        dh_info("game %s: canary %.12s ended", g->game, old ? old->id : "-");
    g->canary = want;
    g->canary_pct = want ? pct : 0;
    bs->report_due = true;
    if (old && old != want)
        bundles_collect(bs, old);
}

void bundles_poll(bundles *bs, uint64_t now_ms)
{
    if (!dh_redis_get(&bs->redis, now_ms) || bs->ncur == 0)
        return;
    if (!bs->default_stored)
        bundles_store_default(bs);
    /* every game's current pointer and canary: a GET each, in one pipeline (each game's
       keys have their own slot) */
    const char *argv[2 * BUNDLES_GAMES_MAX][2];
    char keys[2 * BUNDLES_GAMES_MAX][DH_KEY_MAX];
    dh_redis_cmd cmds[2 * BUNDLES_GAMES_MAX];
    redisReply *r[2 * BUNDLES_GAMES_MAX];
    size_t n = 2 * bs->ncur;
    for (size_t i = 0; i < bs->ncur; i++) {
        argv[i][0] = argv[bs->ncur + i][0] = "GET";
        argv[i][1] = dh_key_bundle_current(keys[i], bs->cur[i].game);
        argv[bs->ncur + i][1] = dh_key_bundle_canary(keys[bs->ncur + i], bs->cur[i].game);
        cmds[i] = (dh_redis_cmd){.argc = 2, .argv = argv[i]};
        cmds[bs->ncur + i] = (dh_redis_cmd){.argc = 2, .argv = argv[bs->ncur + i]};
    }
    if (dh_redis_pipeline(&bs->redis, now_ms, cmds, n, r) < 0)
        return;
    for (size_t i = 0; i < bs->ncur; i++) {
        bundles_follow_current(bs, &bs->cur[i], r[i]);
        bundles_follow_canary(bs, &bs->cur[i], r[bs->ncur + i]);
    }
    for (size_t i = 0; i < n; i++)
        freeReplyObject(r[i]);
    if (bs->report_due)
        bundles_report(bs, now_ms);
}

void bundles_report(bundles *bs, uint64_t now_ms)
{
    if (!dh_redis_get(&bs->redis, now_ms))
        return;
    char key[DH_KEY_MAX], ttl[16];
    dh_key_worker_bundles(key, bs->worker_id);
    snprintf(ttl, sizeof ttl, "%u", bs->report_ttl_ms);
    size_t argc = 2 + 4 * bs->n;
    const char **argv = calloc(argc, sizeof *argv);
    char(*counts)[24] = calloc(2 * bs->n, sizeof *counts);
    char(*started)[80] = calloc(bs->n, sizeof *started);
    if (!argv || !counts || !started)
        goto out;
    argv[0] = "HSET";
    argv[1] = key;
    for (size_t i = 0; i < bs->n; i++) {
        snprintf(counts[2 * i], sizeof counts[0], "%zu", bs->v[i]->matches);
        snprintf(counts[2 * i + 1], sizeof counts[0], "%llu",
                 (unsigned long long)bs->v[i]->started);
        snprintf(started[i], sizeof started[i], "%s%s", DH_F_WORKER_STARTED_PREFIX, bs->v[i]->id);
        argv[2 + 4 * i] = bs->v[i]->id;
        argv[3 + 4 * i] = counts[2 * i];
        argv[4 + 4 * i] = started[i];
        argv[5 + 4 * i] = counts[2 * i + 1];
    }
    /* one round trip: replace the hash and renew its TTL atomically */
    const char *multi[] = {"MULTI"}, *del[] = {"DEL", key}, *px[] = {"PEXPIRE", key, ttl},
               *exec[] = {"EXEC"};
    dh_redis_cmd cmds[] = {{.argc = 1, .argv = multi},
                           {.argc = 2, .argv = del},
                           {.argc = (int)argc, .argv = argv},
                           {.argc = 3, .argv = px},
                           {.argc = 1, .argv = exec}};
    redisReply *r[5];
    if (dh_redis_pipeline(&bs->redis, now_ms, cmds, 5, r) < 0)
        goto out;
    for (int i = 0; i < 5; i++)
        freeReplyObject(r[i]);
    bs->report_due = false;
out:
    free(argv);
    free(counts);
    free(started);
}
