/*
 * cmd_scripts.c: `deckhand scripts`, live-ops for card scripts (docs/OPERATIONS.md): the
 * usage, the dispatch, `list` and `show` (push is scripts_push.c, rollback, promote and
 * abort scripts_rollout.c, audit scripts_audit.c: scripts.h). The cluster is changed only
 * through Redis (dh_bundle.h, dh_liveops.h): push stores a bundle and moves its games'
 * current pointers (or starts a canary), workers follow within their poll interval
 * (worker/bundles.h) and report back in worker:{ID}:bundles.
 *
 * `show` rebuilds a match from Redis on the bundle it is pinned to (snapshot + log,
 * engine_match_restore) and prints what its players see of a card: how an operator (and
 * the e2e test) checks which rules a match runs on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dh_bundle.h"
#include "dh_keys.h"
#include "dh_replay.h"
#include "dh_snapz.h"
#include "dh_trial.h"
#include "scripts.h"

#define SCRIPTS_SEATS_MAX 16

static const char scripts_who[] = SCRIPTS_WHO;

/* ---- list ------------------------------------------------------------------------------- */

/* For each of a bundle's games (comma list) whose trial as a canary has counts (dh_trial.h):
 * the trial against the game's current bundle, what its guard judges by; "(canary ended)"
 * once it is no longer the game's canary (promoted, aborted, or by its guard). canaries is
 * the list's "GAME:PCT%" words for the games it is the canary of now. */
static void scripts_list_trials(dh_redis *rd, const char *sha, const char *games,
                                const char *canaries)
{
    char list[512], line[400], now[80];
    snprintf(list, sizeof list, "%s", games ? games : "");
    for (char *save = NULL, *g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
        dh_trial t;
        snprintf(now, sizeof now, ",%s:", g);
        bool canary =
            canaries && (strstr(canaries, now) || !strncmp(canaries, now + 1, strlen(now + 1)));
        if (dh_trial_read(rd, (uint64_t)cli_now_ms(), sha, g, &t) < 0 ||
            (!canary && !t.n[DH_TRIAL_CANARY][DH_TRIAL_STARTED]))
            continue;
        dh_trial_line(&t, line, sizeof line);
        printf("    %s %s%s\n", g, line, canary ? "" : " (canary ended)");
    }
}

static int scripts_list(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"redis", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, scripts_who, scripts_usage, 0, 0);
    if (done >= 0)
        return done;
    dh_redis rd;
    if (!cli_redis(f, scripts_who, &rd)) {
        dh_redis_close(&rd);
        return 1;
    }
    char ids[SCRIPTS_WORKERS][128];
    size_t nw = scripts_workers(&rd, ids, SCRIPTS_WORKERS);
    const char *sm[] = {"SMEMBERS", DH_KEY_BUNDLES};
    redisReply *all = scripts_cmd(&rd, 2, sm);
    for (size_t i = 0; all && all->type == REDIS_REPLY_ARRAY && i < all->elements; i++) {
        const char *sha = all->element[i]->str;
        char key[DH_KEY_MAX];
        dh_key_bundle(key, sha);
        char *label = scripts_hget(&rd, key, DH_F_BUNDLE_LABEL),
             *games = scripts_hget(&rd, key, DH_F_BUNDLE_GAMES);
        char current[512] = "", canary[512] = "", gamelist[512];
        size_t at = 0, cat = 0;
        snprintf(gamelist, sizeof gamelist, "%s", games ? games : "");
        for (char *g = games ? strtok(games, ",") : NULL; g; g = strtok(NULL, ",")) {
            dh_liveops_state st;
            redisContext *c = scripts_game_node(&rd, g);
            if (!c || dh_liveops_read(c, g, &st) < 0)
                continue;
            /* no pointer: the default bundle (labelled so by the workers) is current */
            bool is_cur = st.current[0] ? !strcmp(st.current, sha)
                                        : label && !strcmp(label, DH_BUNDLE_DEFAULT);
            if (is_cur && at < sizeof current)
                at += (size_t)snprintf(current + at, sizeof current - at, "%s%s", at ? "," : "", g);
            if (!strcmp(st.canary, sha) && cat < sizeof canary)
                cat += (size_t)snprintf(canary + cat, sizeof canary - cat, "%s%s:%d%%",
                                        cat ? "," : "", g, st.canary_pct);
        }
        printf("%s  label=%s  current=%s", sha, label && *label ? label : "-", at ? current : "-");
        if (cat)
            printf("  canary=%s", canary);
        printf("\n");
        scripts_list_trials(&rd, sha, gamelist, cat ? canary : NULL);
        for (size_t w = 0; w < nw; w++) {
            char wkey[DH_KEY_MAX], field[96];
            dh_key_worker_bundles(wkey, ids[w]);
            snprintf(field, sizeof field, "%s%s", DH_F_WORKER_STARTED_PREFIX, sha);
            char *cnt = scripts_hget(&rd, wkey, sha), *started = scripts_hget(&rd, wkey, field);
            if (cnt)
                printf("    %s: %s live matches, %s started\n", ids[w], cnt,
                       started ? started : "0");
            free(cnt);
            free(started);
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

/* The answers match mid has taken: its history's length, -1 when unknown. */
static long long scripts_answers(dh_redis *rd, const char *mid)
{
    char key[DH_KEY_MAX];
    dh_key_match_history(key, mid);
    const char *argv[] = {"LLEN", key};
    redisReply *r = scripts_cmd(rd, 2, argv);
    long long n = r && r->type == REDIS_REPLY_INTEGER && r->integer > 0 ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return n;
}

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
    bool up = cli_redis(f, scripts_who, &rd) != NULL;
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
    if (!up)
        goto out;
    dh_key_match(key, mid);
    game = scripts_hget(&rd, key, DH_F_GAME);
    sha = scripts_hget(&rd, key, DH_F_BUNDLE);
    seed = scripts_hget(&rd, key, DH_F_SEED);
    players = scripts_hget(&rd, key, DH_F_PLAYERS);
    if (!game || !sha || !seed || !players) {
        fprintf(stderr, "deckhand scripts show: no match %s in Redis\n", mid);
        goto out;
    }
    if (!(b = cli_redis_bundle(&rd, sha, "deckhand scripts show")))
        goto out;
    int np = 0;
    for (char *p = strtok(players, ","); p && np < SCRIPTS_SEATS_MAX; p = strtok(NULL, ","))
        names[np++] = p;
    dh_key_match_snap(key, mid);
    const char *get[] = {"GET", key};
    snap = scripts_cmd(&rd, 2, get);
    char lkey[DH_KEY_MAX], from[24] = "0";
    uint64_t at = 0;
    int tail = dh_replay_log_start(snap, &at);
    if (tail > 0) /* the log is the history's tail (dh_snapz.h) */
        snprintf(from, sizeof from, "%llu", (unsigned long long)at);
    const char *range[] = {"LRANGE",
                           tail > 0 ? dh_key_match_history(lkey, mid) : dh_key_match_log(lkey, mid),
                           from, "-1"};
    lr = scripts_cmd(&rd, 4, range);
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
    /* match:{ID}:log holds only the answers since the last snapshot (a finished match's
       last snapshot is its end: 0), and its label says so; answers= is the whole match's,
       the length of match:{ID}:history (-1 when it is gone) */
    printf("match %s game=%s bundle=%s replayed=ok answers=%lld answers_since_snapshot=%zu "
           "hash=%016llx\n",
           mid, game, sha, scripts_answers(&rd, mid), nlog,
           (unsigned long long)engine_match_hash(m));
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
    static const cli_command subs[] = {
        {"push", scripts_push},       {"list", scripts_list},      {"rollback", scripts_rollback},
        {"promote", scripts_promote}, {"abort", scripts_abort},    {"audit", scripts_audit},
        {"show", scripts_show},       {"compare", scripts_compare}};
    return cli_dispatch("deckhand scripts", scripts_usage, subs, sizeof subs / sizeof *subs, false,
                        argc, argv);
}
