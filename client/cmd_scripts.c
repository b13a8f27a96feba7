/*
 * cmd_scripts.c: `deckhand scripts push|list|rollback|show`, live-ops for card scripts
 * (docs/OPERATIONS.md). The cluster is changed only through Redis (dh_bundle.h): push
 * stores a bundle and moves its games' current pointers, workers follow within their
 * poll interval (worker/bundles.h) and report back in worker:{ID}:bundles.
 *
 * A push is refused, with nothing written, unless the bundle loads in the sandbox here,
 * its own rules tests pass (engine_rules_run) and a few seeded all-bot games of each game
 * it moves play to the end (not merely to the turn cap). The checks load the bundle with
 * the engine's default limits, the ones the workers load bundles with, so a card the
 * workers would stop at its time or memory budget fails the checks as fast.
 *
 * `show` rebuilds a match from Redis on the bundle it is pinned to (snapshot + log,
 * engine_match_restore) and prints what its players see of a card: how an operator (and
 * the e2e test) checks which rules a match runs on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "dh_bundle.h"
#include "dh_keys.h"
#include "dh_snapz.h"
#include "dh_redis.h"
#include "engine.h"

#define SCRIPTS_GAMES_MAX 32
#define SCRIPTS_BOT_GAMES 3
#define SCRIPTS_SEATS_MAX 16

static const char scripts_who[] = "deckhand scripts";

static const char scripts_usage[] =
    "usage: deckhand scripts push DIR [--game G] [--label L] [--wait SEC] [--apply-to-running]\n"
    "                             [--redis URL]\n"
    "       deckhand scripts list [--redis URL]\n"
    "       deckhand scripts rollback --game G [--redis URL]\n"
    "       deckhand scripts show --match ID [--card NAME] [--redis URL]\n"
    "\n"
    "  push      validate DIR (sandbox load, its rules tests, seeded bot games), store it\n"
    "            in Redis and make it current for its games (or G); waits up to --wait\n"
    "            seconds (default 10, 0 = no wait) for every live worker to serve it;\n"
    "            --apply-to-running (manifest.lua must say compatible = true) also moves\n"
    "            running matches onto it at their next turn boundary\n"
    "  list      bundles, which is current for each game, live matches per worker\n"
    "  rollback  make the previous bundle of G current again\n"
    "  show      rebuild match ID from Redis on its pinned bundle; print its bundle and\n"
    "            the card NAME as players see it\n"
    "Redis is --redis, else DECKHAND_REDIS_URL, else .run/cluster.env, else\n"
    "redis://127.0.0.1:6390.\n";

static uint64_t scripts_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* One command on the node that serves its key (a Redis Cluster: dh_redis.h). */
static redisReply *scripts_cmd(dh_redis *c, int argc, const char **argv)
{
    redisReply *r = dh_redis_command(c, cli_now_ms(), argc, argv, NULL);
    if (!r)
        fprintf(stderr, "deckhand scripts: redis unreachable\n");
    return r;
}

/* One command on connection n (a transaction's node). */
static redisReply *scripts_on(redisContext *n, int argc, const char **argv)
{
    redisReply *r = n ? redisCommandArgv(n, argc, argv, NULL) : NULL;
    if (!r)
        fprintf(stderr, "deckhand scripts: redis: %s\n", n ? n->errstr : "unreachable");
    return r;
}

/* ---- push ------------------------------------------------------------------------------ */

/* A few seeded all-bot games of game: they must play to the end. 0, or -1 with why. */
static int scripts_bot_games(engine_bundle *b, const engine_game_info *gi, char *why, size_t whylen)
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

/* Every live worker id (worker:{ID} leases) of node c into ids; the count. SCAN, not
 * KEYS: a tool must not stall a Redis that serves matches. */
static size_t scripts_workers_on(redisContext *c, char ids[][128], size_t max)
{
    char cursor[32] = "0";
    size_t n = 0;
    do {
        const char *argv[] = {"SCAN", cursor, "MATCH", DH_KEY_WORKER_PATTERN, "COUNT", "1000"};
        redisReply *r = scripts_on(c, 6, argv);
        if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
            if (r)
                freeReplyObject(r);
            break;
        }
        snprintf(cursor, sizeof cursor, "%s", r->element[0]->str);
        const redisReply *keys = r->element[1];
        for (size_t i = 0; i < keys->elements && n < max; i++) {
            const char *k = keys->element[i]->str;
            size_t len = keys->element[i]->len;
            if (len < 10 || k[len - 1] != '}' || len - 9 >= 128)
                continue; /* worker:{ID}:bundles and the like */
            snprintf(ids[n++], 128, "%.*s", (int)(len - 9), k + 8);
        }
        freeReplyObject(r);
    } while (strcmp(cursor, "0") && n < max);
    return n;
}

/* Every live worker id, from every node. */
static size_t scripts_workers(dh_redis *c, char ids[][128], size_t max)
{
    redisContext *nodes[DH_REDIS_NODES];
    size_t nn = dh_redis_masters(c, cli_now_ms(), nodes, DH_REDIS_NODES), n = 0;
    for (size_t k = 0; k < nn; k++) /* SCAN is per node: every master of a cluster */
        n += scripts_workers_on(nodes[k], ids + n, max - n);
    return n;
}

/* 1 when worker id serves sha, -1 when it reported an error (printed), 0 not yet. */
static int scripts_worker_state(dh_redis *c, const char *id, const char *sha, bool print)
{
    char key[DH_KEY_MAX];
    dh_key_worker_bundles(key, id);
    const char *hex[] = {"HEXISTS", key, sha};
    redisReply *r = scripts_cmd(c, 3, hex);
    int st = r && r->type == REDIS_REPLY_INTEGER && r->integer == 1;
    if (r)
        freeReplyObject(r);
    if (st)
        return 1;
    dh_key_bundle_errors(key, sha);
    const char *hget[] = {"HGET", key, id};
    r = scripts_cmd(c, 3, hget);
    if (r && r->type == REDIS_REPLY_STRING) {
        if (print)
            printf("worker %s cannot load it (still serving the previous bundle): %s\n", id,
                   r->str);
        st = -1;
    }
    if (r)
        freeReplyObject(r);
    return st;
}

/* Waits up to wait_ms for every live worker to serve sha or report why not. */
static int scripts_wait(dh_redis *c, const char *sha, long wait_ms, long long t0)
{
    char ids[64][128];
    size_t n = scripts_workers(c, ids, 64);
    int state[64] = {0};
    size_t settled = 0;
    while (settled < n && cli_now_ms() - t0 < wait_ms) {
        for (size_t i = 0; i < n; i++) {
            if (state[i])
                continue;
            state[i] = scripts_worker_state(c, ids[i], sha, true);
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

static int scripts_refuse(engine_bundle *b, const char *fmt, const char *why)
{
    printf("refused: ");
    printf(fmt, why);
    printf("\nnothing changed\n");
    engine_bundle_free(b);
    return 1;
}

static int scripts_push(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"label", DH_FLAG_VALUE},
                                        {"wait", DH_FLAG_INT},
                                        {"redis", DH_FLAG_VALUE},
                                        {"apply-to-running", DH_FLAG_SWITCH},
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, scripts_who, scripts_usage, 1, 1);
    if (done >= 0)
        return done;
    const char *dir = f->pos[0];
    long wait_s = 0;
    if (cli_int(f, scripts_who, "wait", 10, 0, 600, &wait_s) < 0)
        return 2;
    const char *only = dh_flags_str(f, "game", NULL, NULL);
    const char *label = dh_flags_str(f, "label", NULL, NULL);
    bool apply = dh_flags_has(f, "apply-to-running");

    engine_error ee = {0};
    engine_bundle *b = engine_bundle_load(dir, NULL, &ee);
    if (!b)
        return scripts_refuse(NULL, "the bundle does not load: %s", ee.message);
    const char *sha = engine_bundle_id(b);
    engine_manifest man;
    if (engine_bundle_manifest(b, &man, &ee) < 0)
        return scripts_refuse(b, "bad manifest.lua: %s", ee.message);
    if (apply && !man.compatible)
        return scripts_refuse(b, "%s",
                              "--apply-to-running needs compatible = true in manifest.lua");
    engine_game_info gi[SCRIPTS_GAMES_MAX];
    size_t ng = engine_bundle_games(b, gi, SCRIPTS_GAMES_MAX);
    if (ng > SCRIPTS_GAMES_MAX)
        ng = SCRIPTS_GAMES_MAX;
    size_t moved = 0;
    char games[512] = "", why[600];
    for (size_t i = 0, at = 0; i < ng; i++) {
        if (only && strcmp(only, gi[i].name))
            continue;
        moved++;
        at += (size_t)snprintf(games + at, sizeof games - at, "%s%s", at ? "," : "", gi[i].name);
        if (at >= sizeof games)
            return scripts_refuse(b, "%s", "too many games");
    }
    if (!moved)
        return scripts_refuse(b, "the bundle has no game %s", only ? only : "at all");
    printf("bundle %s (%s), games %s\n", sha, label ? label : man.label, games);

    /* The tests run in a VM of their own: the one that gets stored stays untouched. */
    engine_bundle *tb = engine_bundle_load(dir, NULL, &ee);
    if (!tb)
        return scripts_refuse(b, "the bundle does not load: %s", ee.message);
    engine_rules_report rep;
    engine_rules_run(tb, only, NULL, NULL, &rep);
    engine_bundle_free(tb);
    if (rep.failed)
        return scripts_refuse(b, "rules tests failed: %s", rep.first_failure);
    printf("rules tests: %d passed\n", rep.passed);
    for (size_t i = 0; i < ng; i++) {
        if (only && strcmp(only, gi[i].name))
            continue;
        if (scripts_bot_games(b, &gi[i], why, sizeof why) < 0)
            return scripts_refuse(b, "%s", why);
    }
    printf("bot games: %d per game played to the end\n", SCRIPTS_BOT_GAMES);

    dh_redis rd;
    dh_redis *c = cli_redis(f, scripts_who, &rd) ? &rd : NULL;
    int rc = 1;
    dh_bundle_file *files = NULL;
    if (!c)
        goto out;
    size_t nf = 0;
    engine_file_in file;
    while (engine_bundle_file_at(b, nf, &file))
        nf++;
    files = calloc(nf ? nf : 1, sizeof *files);
    if (!files)
        goto out;
    for (size_t i = 0; i < nf; i++) {
        engine_bundle_file_at(b, i, &file);
        files[i] = (dh_bundle_file){(char *)file.path, (char *)file.data, file.len};
    }
    dh_bundle_meta meta = {label ? label : man.label, games, man.compatible, scripts_wall_ms()};
    if (dh_bundle_store(c, sha, files, nf, &meta) < 0) {
        fprintf(stderr, "deckhand scripts: cannot store the bundle (redis refused or down)\n");
        goto out;
    }
    if (apply) {
        /* before the pointer moves: a worker reads it when it loads the bundle */
        char key[DH_KEY_MAX];
        dh_key_bundle(key, sha);
        const char *hset[] = {"HSET", key, DH_F_BUNDLE_APPLY_TO_RUNNING, "1"};
        redisReply *r = scripts_cmd(c, 4, hset);
        bool ok = r && r->type == REDIS_REPLY_INTEGER;
        if (r)
            freeReplyObject(r);
        if (!ok)
            goto out;
    }
    /* Move the pointers: bundle:current and bundle:history of each game, atomically. */
    long long t0 = cli_now_ms();
    for (size_t i = 0; i < ng; i++) {
        if (only && strcmp(only, gi[i].name))
            continue;
        char cur[65], ckey[DH_KEY_MAX], hkey[DH_KEY_MAX];
        if (dh_bundle_current(c, gi[i].name, cur) == 1 && !strcmp(cur, sha)) {
            printf("%s: already current\n", gi[i].name);
            continue;
        }
        dh_key_bundle_current(ckey, gi[i].name);
        dh_key_bundle_history(hkey, gi[i].name);
        const char *multi[] = {"MULTI"}, *set[] = {"SET", ckey, sha},
                   *push[] = {"LPUSH", hkey, sha}, *exec[] = {"EXEC"};
        redisContext *n = dh_redis_for_key(c, ckey, cli_now_ms()); /* one {GAME} slot */
        redisReply *r[4] = {scripts_on(n, 1, multi), scripts_on(n, 3, set), scripts_on(n, 3, push),
                            scripts_on(n, 1, exec)};
        bool ok = r[3] && r[3]->type == REDIS_REPLY_ARRAY;
        for (int k = 0; k < 4; k++)
            if (r[k])
                freeReplyObject(r[k]);
        if (!ok) {
            fprintf(stderr, "deckhand scripts: cannot move %s's pointer\n", gi[i].name);
            goto out;
        }
        printf("%s: current is now %.12s\n", gi[i].name, sha);
    }
    rc = wait_s ? scripts_wait(c, sha, wait_s * 1000, t0) : 0;
out:
    free(files);
    dh_redis_close(&rd);
    engine_bundle_free(b);
    return rc;
}

/* ---- rollback --------------------------------------------------------------------------- */

static int scripts_rollback(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {
        {"game", DH_FLAG_VALUE}, {"redis", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, scripts_who, scripts_usage, 0, 0);
    if (done >= 0)
        return done;
    const char *game = cli_required(f, "deckhand scripts rollback", "game");
    if (!game)
        return 2;
    dh_redis rd;
    dh_redis *c = cli_redis(f, scripts_who, &rd) ? &rd : NULL;
    int rc = 1;
    if (!c)
        goto out;
    char ckey[DH_KEY_MAX], hkey[DH_KEY_MAX];
    dh_key_bundle_current(ckey, game);
    dh_key_bundle_history(hkey, game);
    /* WATCH the history, so two rollbacks at once cannot both pop the same entry. */
    for (int attempt = 0; attempt < 5; attempt++) {
        const char *watch[] = {"WATCH", hkey}, *range[] = {"LRANGE", hkey, "0", "1"};
        redisContext *n = dh_redis_for_key(c, hkey, cli_now_ms()); /* one {GAME} slot */
        redisReply *w = scripts_on(n, 2, watch), *h = scripts_on(n, 4, range);
        if (w)
            freeReplyObject(w);
        if (!h || h->type != REDIS_REPLY_ARRAY) {
            if (h)
                freeReplyObject(h);
            goto out;
        }
        if (h->elements == 0) {
            printf("%s: nothing to roll back (it runs on the workers' embedded default)\n", game);
            freeReplyObject(h);
            const char *unwatch[] = {"UNWATCH"};
            redisReply *u = scripts_on(n, 1, unwatch);
            if (u)
                freeReplyObject(u);
            rc = 0;
            goto out;
        }
        char prev[65] = "";
        if (h->elements > 1)
            snprintf(prev, sizeof prev, "%s", h->element[1]->str);
        freeReplyObject(h);
        const char *multi[] = {"MULTI"}, *pop[] = {"LPOP", hkey}, *set[] = {"SET", ckey, prev},
                   *del[] = {"DEL", ckey}, *exec[] = {"EXEC"};
        redisReply *r[4] = {scripts_on(n, 1, multi), scripts_on(n, 2, pop),
                            prev[0] ? scripts_on(n, 3, set) : scripts_on(n, 2, del),
                            scripts_on(n, 1, exec)};
        bool ok = r[3] && r[3]->type == REDIS_REPLY_ARRAY;
        for (int k = 0; k < 4; k++)
            if (r[k])
                freeReplyObject(r[k]);
        if (!ok)
            continue; /* the history changed under us: read it again */
        if (prev[0])
            printf("%s: current is now %.12s\n", game, prev);
        else
            printf("%s: current is now the workers' embedded default\n", game);
        rc = 0;
        goto out;
    }
    fprintf(stderr, "deckhand scripts rollback: the history kept changing; try again\n");
out:
    dh_redis_close(&rd);
    return rc;
}

/* ---- list ------------------------------------------------------------------------------- */

static char *scripts_hget(dh_redis *c, const char *key, const char *field)
{
    const char *argv[] = {"HGET", key, field};
    redisReply *r = scripts_cmd(c, 3, argv);
    char *v = r && r->type == REDIS_REPLY_STRING ? strdup(r->str) : NULL;
    if (r)
        freeReplyObject(r);
    return v;
}

static int scripts_list(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"redis", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, scripts_who, scripts_usage, 0, 0);
    if (done >= 0)
        return done;
    dh_redis rd;
    dh_redis *c = cli_redis(f, scripts_who, &rd) ? &rd : NULL;
    if (!c) {
        dh_redis_close(&rd);
        return 1;
    }
    char ids[64][128];
    size_t nw = scripts_workers(c, ids, 64);
    const char *sm[] = {"SMEMBERS", DH_KEY_BUNDLES};
    redisReply *all = scripts_cmd(c, 2, sm);
    for (size_t i = 0; all && all->type == REDIS_REPLY_ARRAY && i < all->elements; i++) {
        const char *sha = all->element[i]->str;
        char key[DH_KEY_MAX];
        dh_key_bundle(key, sha);
        char *label = scripts_hget(c, key, DH_F_BUNDLE_LABEL),
             *games = scripts_hget(c, key, DH_F_BUNDLE_GAMES);
        char current[512] = "";
        size_t at = 0;
        for (char *g = games ? strtok(games, ",") : NULL; g; g = strtok(NULL, ",")) {
            char cur[65];
            int st = dh_bundle_current(c, g, cur);
            /* no pointer: the default bundle (labelled so by the workers) is current */
            bool is_cur =
                st == 1 ? !strcmp(cur, sha) : (st == 0 && label && !strcmp(label, "default"));
            if (is_cur && at < sizeof current)
                at += (size_t)snprintf(current + at, sizeof current - at, "%s%s", at ? "," : "", g);
        }
        printf("%s  label=%s  current=%s\n", sha, label && *label ? label : "-",
               at ? current : "-");
        for (size_t w = 0; w < nw; w++) {
            char wkey[DH_KEY_MAX];
            dh_key_worker_bundles(wkey, ids[w]);
            char *cnt = scripts_hget(c, wkey, sha);
            if (cnt)
                printf("    %s: %s live matches\n", ids[w], cnt);
            free(cnt);
        }
        free(label);
        free(games);
    }
    if (all)
        freeReplyObject(all);
    dh_redis_close(&rd);
    return 0;
}

/* ---- show ------------------------------------------------------------------------------- */

static int scripts_show(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {
        {"match", DH_FLAG_VALUE}, {"card", DH_FLAG_VALUE}, {"redis", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, scripts_who, scripts_usage, 0, 0);
    if (done >= 0)
        return done;
    const char *mid = cli_required(f, "deckhand scripts show", "match");
    const char *card = dh_flags_str(f, "card", NULL, NULL);
    if (!mid)
        return 2;
    dh_redis rd;
    dh_redis *c = cli_redis(f, scripts_who, &rd) ? &rd : NULL;
    int rc = 1;
    char *game = NULL, *sha = NULL, *seed = NULL, *players = NULL;
    size_t nlog = 0;
    engine_bundle *b = NULL;
    engine_match *m = NULL;
    engine_answer *log = NULL;
    uint32_t *ids = NULL;
    redisReply *snap = NULL, *lr = NULL;
    uint8_t *raw = NULL; /* the raw snapshot (Redis holds it deflated: dh_snapz.h) */
    size_t raw_len = 0;
    const char *names[SCRIPTS_SEATS_MAX];
    char key[DH_KEY_MAX];
    if (!c)
        goto out;
    dh_key_match(key, mid);
    game = scripts_hget(c, key, DH_F_GAME);
    sha = scripts_hget(c, key, DH_F_BUNDLE);
    seed = scripts_hget(c, key, DH_F_SEED);
    players = scripts_hget(c, key, DH_F_PLAYERS);
    if (!game || !sha || !seed || !players) {
        fprintf(stderr, "deckhand scripts show: no match %s in Redis\n", mid);
        goto out;
    }
    if (!(b = cli_redis_bundle(c, sha, "deckhand scripts show")))
        goto out;
    int np = 0;
    for (char *p = strtok(players, ","); p && np < SCRIPTS_SEATS_MAX; p = strtok(NULL, ","))
        names[np++] = p;
    dh_key_match_snap(key, mid);
    const char *get[] = {"GET", key};
    snap = scripts_cmd(c, 2, get);
    char lkey[DH_KEY_MAX];
    dh_key_match_log(lkey, mid);
    const char *range[] = {"LRANGE", lkey, "0", "-1"};
    lr = scripts_cmd(c, 4, range);
    if (!snap || snap->type != REDIS_REPLY_STRING || !lr || lr->type != REDIS_REPLY_ARRAY) {
        fprintf(stderr, "deckhand scripts show: match %s has no snapshot\n", mid);
        goto out;
    }
    if (dh_snapz_unpack((const uint8_t *)snap->str, snap->len, &raw, &raw_len) < 0) {
        fprintf(stderr, "deckhand scripts show: match %s: its snapshot does not unpack\n", mid);
        goto out;
    }
    nlog = lr->elements;
    log = calloc(nlog ? nlog : 1, sizeof *log);
    ids = calloc((nlog ? nlog : 1) * 64, sizeof *ids);
    if (!log || !ids)
        goto out;
    for (size_t i = 0; i < nlog; i++) {
        const redisReply *e = lr->element[i];
        if (engine_answer_decode((const uint8_t *)e->str, e->len, &log[i], ids + 64 * i, 64)) {
            fprintf(stderr, "deckhand scripts show: bad log entry %zu\n", i);
            goto out;
        }
    }
    engine_match_config cfg = {.match_id = mid,
                               .game = game,
                               .seed = strtoull(seed, NULL, 10),
                               .nplayers = np,
                               .names = names};
    engine_error ee = {0};
    m = engine_match_restore(b, &cfg, raw, raw_len, log, nlog, &ee);
    if (!m) {
        printf("match %s: does not replay on bundle %.12s: %s\n", mid, sha, ee.message);
        goto out;
    }
    printf("match %s game=%s bundle=%s replayed=ok answers=%zu hash=%016llx\n", mid, game, sha,
           nlog, (unsigned long long)engine_match_hash(m));
    engine_result res[SCRIPTS_SEATS_MAX];
    size_t nres = engine_match_results(m, res, SCRIPTS_SEATS_MAX);
    if (nres) { /* finished: the scores by seat, to hold against match:{ID}.result */
        printf("scores=");
        for (size_t i = 0; i < nres; i++)
            printf("%s%d", i ? "," : "", res[i].score);
        printf("\n");
    }
    rc = 0;
    if (card) {
        Deckhand__Catalog *cat = engine_match_catalog(m);
        bool found = false;
        for (size_t i = 0; cat && i < cat->n_cards; i++) {
            if (strcmp(cat->cards[i]->name, card))
                continue;
            printf("card %s cost=%d types=%s text=%s\n", card, cat->cards[i]->cost,
                   cat->cards[i]->types, cat->cards[i]->text);
            found = true;
        }
        if (!found) {
            printf("card %s is not in the match\n", card);
            rc = 1;
        }
        if (cat)
            engine_catalog_free(cat);
    }
out:
    if (m)
        engine_match_free(m);
    engine_bundle_free(b);
    free(raw);
    free(log);
    free(ids);
    if (snap)
        freeReplyObject(snap);
    if (lr)
        freeReplyObject(lr);
    free(game);
    free(sha);
    free(seed);
    free(players);
    dh_redis_close(&rd);
    return rc;
}

int cmd_scripts(int argc, char **argv)
{
    static const cli_command subs[] = {{"push", scripts_push},
                                       {"list", scripts_list},
                                       {"rollback", scripts_rollback},
                                       {"show", scripts_show}};
    return cli_dispatch("deckhand scripts", scripts_usage, subs, sizeof subs / sizeof *subs, false,
                        argc, argv);
}
