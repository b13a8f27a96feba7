/*
 * cmd_replay.c: `deckhand replay MATCH_ID`, a match rebuilt from Redis one answer at a
 * time, to audit it or to find where a bug came in.
 *
 * A worker keeps every accepted answer of a match in match:{ID}:history (worker/store.h),
 * and every move of the match onto another bundle (live-ops --apply-to-running) in
 * match:{ID}:bundles as "OLD NEW SNAPSHOT_VERSION HISTLEN". The replay does what the
 * workers did: engine_match_new on the match's first bundle with its seed and players,
 * each answer through engine_match_answer, and after HISTLEN answers the rebuild of the
 * match from its snapshot on the next bundle (host_move in worker/host.c). It prints the
 * state hash at each step, then holds the last one against final_hash (a finished match)
 * or against the state Redis holds for a running one (snapshot + log, as an adopting
 * worker rebuilds it). Everything is read in one MULTI, so a running match's keys agree
 * with each other even while its worker writes.
 *
 * Exit status: 0 when every answer was accepted and the hashes agree, 1 when the match is
 * missing, does not decode, refuses an answer or ends on another hash, 2 on bad usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dh_keys.h"
#include "dh_snapz.h"

#define REPLAY_SEATS_MAX 16   /* HOST_SEATS_MAX */
#define REPLAY_IDS_MAX   1024 /* option ids in one answer */
#define REPLAY_SHA_MAX   65

static const char replay_usage[] =
    "usage: deckhand replay MATCH_ID [--redis URL] [--quiet]\n"
    "\n"
    "  Rebuild the match from Redis (its seed, players and every accepted answer, on the\n"
    "  bundles it ran on) and print its state hash at each step; --quiet prints only the\n"
    "  last line, `match ID game=G answers=N hash=H recorded=R result=ok`. R is the\n"
    "  final_hash Redis recorded (none while the match runs; a running match also prints\n"
    "  live=H, the hash of the state its worker holds). Exit 1 when the match is missing,\n"
    "  an answer is refused or a hash differs.\n"
    "Redis is --redis, else DECKHAND_REDIS_URL, else .run/cluster.env, else\n"
    "redis://127.0.0.1:6390.\n";

static const char replay_who[] = "deckhand replay";

/* One move of the match onto another bundle, after `at` answers of the history. */
typedef struct {
    char from[REPLAY_SHA_MAX], to[REPLAY_SHA_MAX];
    uint64_t version; /* the snapshot version the move started from */
    uint64_t at;
} replay_move;

/* What Redis holds about the match; the strings point into tx. */
typedef struct {
    const char *id;
    redisReply *tx; /* the EXEC reply: meta, history, bundles, snap, log */
    const char *game, *bundle, *seed, *players, *player_ids, *status, *final_hash;
    const char *options, *bots; /* game options; bot seats (bot fill), "" or NULL: none */
    const redisReply *history, *bundles, *snap, *log;
    replay_move *moves;
    size_t nmoves;
    char *namebuf, *idbuf;
    const char *names[REPLAY_SEATS_MAX];
    char botbuf[REPLAY_SEATS_MAX][64];
    const char *botp[REPLAY_SEATS_MAX]; /* per seat: its bot strategy, NULL for a player */
    bool any_bot;
    int nseats;
} replay_match;

static int replay_fail(const replay_match *rm, const char *fmt, const char *what)
{
    fprintf(stderr, "%s: match %s: ", replay_who, rm->id);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return -1;
}

static const char *replay_str(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_STRING ? r->str : NULL;
}

static int replay_split(char *list, const char **out, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return -1;
        out[n++] = p;
    }
    return n;
}

/* Read every key of the match in one transaction into rm. 0, or -1 with a message. */
static int replay_read(redisContext *c, replay_match *rm)
{
    char meta[DH_KEY_MAX], hist[DH_KEY_MAX], moves[DH_KEY_MAX], snap[DH_KEY_MAX], log[DH_KEY_MAX];
    dh_key_match(meta, rm->id);
    dh_key_match_history(hist, rm->id);
    dh_key_match_bundles(moves, rm->id);
    dh_key_match_snap(snap, rm->id);
    dh_key_match_log(log, rm->id);
    const char *multi[] = {"MULTI"},
               *hmget[] = {"HMGET",         meta,         DH_F_GAME,       DH_F_BUNDLE,
                           DH_F_SEED,       DH_F_PLAYERS, DH_F_PLAYER_IDS, DH_F_STATUS,
                           DH_F_FINAL_HASH, DH_F_OPTIONS, DH_F_BOTS},
               *lhist[] = {"LRANGE", hist, "0", "-1"}, *lmoves[] = {"LRANGE", moves, "0", "-1"},
               *get[] = {"GET", snap}, *llog[] = {"LRANGE", log, "0", "-1"}, *exec[] = {"EXEC"};
    const char **cmds[] = {multi, hmget, lhist, lmoves, get, llog, exec};
    const int lens[] = {1, 11, 4, 4, 2, 4, 1};
    int bad = 0;
    for (int i = 0; i < 7; i++)
        if (redisAppendCommandArgv(c, lens[i], cmds[i], NULL) != REDIS_OK)
            return replay_fail(rm, "%s", "out of memory");
    for (int i = 0; i < 7; i++) {
        redisReply *r = NULL;
        if (redisGetReply(c, (void **)&r) != REDIS_OK || !r)
            return replay_fail(rm, "redis: %s", c->errstr);
        if (i == 6) {
            rm->tx = r; /* the EXEC: every reply, read atomically */
        } else {
            bad += r->type == REDIS_REPLY_ERROR;
            freeReplyObject(r);
        }
    }
    redisReply *tx = rm->tx;
    if (bad || tx->type != REDIS_REPLY_ARRAY || tx->elements != 5) {
        fprintf(stderr, "%s: redis refused the read of match %s%s%s\n", replay_who, rm->id,
                tx->type == REDIS_REPLY_ERROR ? ": " : "",
                tx->type == REDIS_REPLY_ERROR ? tx->str : "");
        return -1;
    }
    for (size_t i = 0; i < 5; i++)
        if (tx->element[i]->type == REDIS_REPLY_ERROR)
            return replay_fail(rm, "redis: %s", tx->element[i]->str);
    const redisReply *m = tx->element[0];
    if (m->type != REDIS_REPLY_ARRAY || m->elements != 9)
        return replay_fail(rm, "%s", "redis: unexpected reply to HMGET");
    rm->game = replay_str(m->element[0]);
    rm->bundle = replay_str(m->element[1]);
    rm->seed = replay_str(m->element[2]);
    rm->players = replay_str(m->element[3]);
    rm->player_ids = replay_str(m->element[4]);
    rm->status = replay_str(m->element[5]);
    rm->final_hash = replay_str(m->element[6]);
    rm->options = replay_str(m->element[7]);
    rm->bots = replay_str(m->element[8]);
    rm->history = tx->element[1];
    rm->bundles = tx->element[2];
    rm->snap = tx->element[3];
    rm->log = tx->element[4];
    if (!rm->game && !rm->bundle && !rm->seed) {
        fprintf(stderr, "%s: no match %s in Redis\n", replay_who, rm->id);
        return -1;
    }
    if (!rm->game || !rm->bundle || !rm->seed || !rm->players || !rm->player_ids || !rm->status)
        return replay_fail(rm, "%s", "match:{ID} lacks game, bundle, seed, players or status");
    if (rm->history->type != REDIS_REPLY_ARRAY || rm->bundles->type != REDIS_REPLY_ARRAY ||
        rm->log->type != REDIS_REPLY_ARRAY)
        return replay_fail(rm, "%s", "its history, bundles or log is not a list");
    return 0;
}

/* Parse seats and moves, and check that the moves chain from the first bundle to the one
 * the match names now. 0, or -1 with a message. */
static int replay_parse(replay_match *rm)
{
    rm->namebuf = strdup(rm->players);
    rm->idbuf = strdup(rm->player_ids);
    const char *ids[REPLAY_SEATS_MAX];
    if (!rm->namebuf || !rm->idbuf)
        return replay_fail(rm, "%s", "out of memory");
    rm->nseats = replay_split(rm->namebuf, rm->names, REPLAY_SEATS_MAX);
    if (rm->nseats < 1 || replay_split(rm->idbuf, ids, REPLAY_SEATS_MAX) != rm->nseats)
        return replay_fail(rm, "bad player lists '%s'", rm->players);
    const char *b = rm->bots ? rm->bots : "";
    for (int i = 0; i < rm->nseats; i++) { /* "default,," : one entry per seat */
        size_t len = strcspn(b, ",");
        snprintf(rm->botbuf[i], sizeof rm->botbuf[i], "%.*s", (int)len, b);
        /* the search bot's seat is no inline bot: the worker logged its answers, which
           the replay applies like a player's */
        if (!strcmp(rm->botbuf[i], ENGINE_SEARCH_BOT))
            len = 0;
        rm->botp[i] = len ? rm->botbuf[i] : NULL;
        rm->any_bot |= len > 0;
        b += len + (b[len] == ',');
    }
    size_t n = rm->bundles->elements;
    rm->moves = calloc(n ? n : 1, sizeof *rm->moves);
    if (!rm->moves)
        return replay_fail(rm, "%s", "out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *e = replay_str(rm->bundles->element[i]);
        replay_move *mv = &rm->moves[i];
        char rest[8];
        int got = e ? sscanf(e, "%64s %64s %" SCNu64 " %" SCNu64 " %7s", mv->from, mv->to,
                             &mv->version, &mv->at, rest)
                    : 0;
        if (got == 3)
            return replay_fail(rm,
                               "moved between bundles (\"%s\") before moves recorded their "
                               "place in the history: it cannot be replayed",
                               e);
        if (got != 4)
            return replay_fail(rm, "bad entry \"%s\" in match:{ID}:bundles", e ? e : "(nil)");
        if (mv->at > rm->history->elements || (i && mv->at < rm->moves[i - 1].at) ||
            (i && strcmp(mv->from, rm->moves[i - 1].to)))
            return replay_fail(rm, "match:{ID}:bundles entry \"%s\" does not follow the others", e);
    }
    rm->nmoves = n;
    const char *last = n ? rm->moves[n - 1].to : rm->bundle;
    if (strcmp(last, rm->bundle))
        return replay_fail(rm, "its moves end on another bundle than %s", rm->bundle);
    return 0;
}

static engine_match_config replay_config(const replay_match *rm)
{
    return (engine_match_config){.match_id = rm->id,
                                 .game = rm->game,
                                 .seed = strtoull(rm->seed, NULL, 10),
                                 .nplayers = rm->nseats,
                                 .names = rm->names,
                                 .bots = rm->any_bot ? rm->botp : NULL,
                                 .options = rm->options};
}

/* The state the match's worker holds, rebuilt from its snapshot and log on b (the bundle
 * it runs on now), as an adopting worker rebuilds it; its hash into *hash. 0 or -1. */
static int replay_live(const replay_match *rm, engine_bundle *b, uint64_t *hash)
{
    const redisReply *lr = rm->log;
    if (rm->snap->type != REDIS_REPLY_STRING)
        return replay_fail(rm, "%s", "it runs but has no snapshot");
    /* an option id takes at least one byte: the log's bytes bound its ids */
    size_t nids = 0, used = 0;
    for (size_t i = 0; i < lr->elements; i++)
        nids += lr->element[i]->len;
    engine_answer *log = calloc(lr->elements ? lr->elements : 1, sizeof *log);
    uint32_t *ids = calloc(nids ? nids : 1, sizeof *ids);
    engine_match *m = NULL;
    uint8_t *snap = NULL; /* the raw snapshot (Redis holds it deflated: dh_snapz.h) */
    size_t snap_len = 0;
    int rc = -1;
    if (dh_snapz_unpack((const uint8_t *)rm->snap->str, rm->snap->len, &snap, &snap_len) < 0) {
        replay_fail(rm, "%s", "its snapshot does not unpack");
        goto out;
    }
    if (!log || !ids) {
        replay_fail(rm, "%s", "out of memory");
        goto out;
    }
    for (size_t i = 0; i < lr->elements; i++) {
        const redisReply *e = lr->element[i];
        if (e->type != REDIS_REPLY_STRING ||
            engine_answer_decode((const uint8_t *)e->str, e->len, &log[i], ids + used,
                                 nids - used)) {
            replay_fail(rm, "%s", "an entry of its log does not decode");
            goto out;
        }
        used += log[i].n;
    }
    engine_match_config cfg = replay_config(rm);
    engine_error ee = {0};
    m = engine_match_restore(b, &cfg, snap, snap_len, log, lr->elements, &ee);
    if (!m) {
        replay_fail(rm, "its snapshot and log do not rebuild: %s", ee.message);
        goto out;
    }
    *hash = engine_match_hash(m);
    rc = 0;
out:
    if (m)
        engine_match_free(m);
    free(snap);
    free(log);
    free(ids);
    return rc;
}

/* A replay in progress: the match and the bundle it is on now. */
typedef struct {
    dh_redis *c;
    const replay_match *rm;
    bool quiet;
    engine_bundle *b;
    engine_match *m;
    const char *sha; /* b's id */
    size_t answers;  /* applied so far */
} replay_run;

static void replay_stop(replay_run *r)
{
    if (r->m)
        engine_match_free(r->m);
    engine_bundle_free(r->b);
    r->m = NULL;
    r->b = NULL;
}

/* Move the match onto mv->to as host_move did: rebuilt from its snapshot, which must be
 * the whole match (a turn boundary, nothing accepted since) at the recorded version.
 * 0, or -1 with a message (the run is left as it was). */
static int replay_move_to(replay_run *r, const replay_move *mv)
{
    const replay_match *rm = r->rm;
    char why[320];
    if (strcmp(mv->from, r->sha))
        return replay_fail(rm, "a move from bundle %s, but the match is on another", mv->from);
    if (engine_match_log_len(r->m) != 0 || engine_match_snapshot_version(r->m) != mv->version) {
        snprintf(why, sizeof why,
                 "after %zu answers the replay is at snapshot %" PRIu64
                 " with %zu answers since; the move to %.12s was made at snapshot %" PRIu64,
                 r->answers, engine_match_snapshot_version(r->m), engine_match_log_len(r->m),
                 mv->to, mv->version);
        return replay_fail(rm, "%s", why);
    }
    engine_bundle *nb = cli_redis_bundle(r->c, mv->to, replay_who);
    if (!nb)
        return -1;
    /* host_move's config: the seed is in the snapshot */
    engine_match_config cfg = {.match_id = rm->id,
                               .game = rm->game,
                               .nplayers = rm->nseats,
                               .names = rm->names,
                               .bots = rm->any_bot ? rm->botp : NULL,
                               .options = rm->options};
    size_t len = 0;
    const uint8_t *snap = engine_match_snapshot(r->m, &len);
    engine_error ee = {0};
    engine_match *nm = engine_match_restore(nb, &cfg, snap, len, NULL, 0, &ee);
    if (!nm) {
        engine_bundle_free(nb);
        snprintf(why, sizeof why, "does not move onto bundle %.12s: %s", mv->to, ee.message);
        return replay_fail(rm, "%s", why);
    }
    replay_stop(r);
    r->m = nm;
    r->b = nb;
    r->sha = mv->to;
    if (!r->quiet)
        printf("move after %zu answers bundle %s hash %016" PRIx64 "\n", r->answers, r->sha,
               engine_match_hash(r->m));
    return 0;
}

/* Apply the history entry r->answers. 0; 1 when the engine refused it (printed); -1 when
 * it does not decode. */
static int replay_step(replay_run *r, uint32_t *ids)
{
    const redisReply *e = r->rm->history->element[r->answers];
    engine_answer a;
    if (e->type != REDIS_REPLY_STRING ||
        engine_answer_decode((const uint8_t *)e->str, e->len, &a, ids, REPLAY_IDS_MAX)) {
        fprintf(stderr, "%s: match %s: history entry %zu does not decode\n", replay_who, r->rm->id,
                r->answers);
        return -1;
    }
    engine_error ee = {0};
    engine_code code = engine_match_answer(r->m, a.seat, a.decision_id, a.option_ids, a.n, &ee);
    size_t step = r->answers + 1;
    if (code != ENGINE_OK) {
        printf("step %zu seat %d decision %" PRIu64 " refused: %s (code %d)\n", step, a.seat,
               a.decision_id, ee.message, (int)code);
        return 1;
    }
    r->answers = step;
    if (!r->quiet)
        printf("step %zu seat %d decision %" PRIu64 " hash %016" PRIx64 "\n", step, a.seat,
               a.decision_id, engine_match_hash(r->m));
    return 0;
}

/* Replay rm on the bundles it ran on; prints the steps and the summary line. The exit
 * status. */
static int replay_match_run(dh_redis *c, const replay_match *rm, bool quiet)
{
    replay_run r = {.c = c, .rm = rm, .quiet = quiet};
    uint32_t *ids = calloc(REPLAY_IDS_MAX, sizeof *ids);
    const char *result = "ok";
    char recorded[32] = "none", live[48] = "";
    int rc = 1;
    if (!ids) {
        replay_fail(rm, "%s", "out of memory");
        goto out;
    }
    r.sha = rm->nmoves ? rm->moves[0].from : rm->bundle;
    if (!(r.b = cli_redis_bundle(c, r.sha, replay_who)))
        goto out;
    engine_match_config cfg = replay_config(rm);
    engine_error ee = {0};
    if (!(r.m = engine_match_new(r.b, &cfg, &ee))) {
        replay_fail(rm, "does not start: %s", ee.message);
        goto out;
    }
    if (!quiet)
        printf("start bundle %s seed %s players %s hash %016" PRIx64 "\n", r.sha, rm->seed,
               rm->players, engine_match_hash(r.m));
    size_t next = 0;
    for (;;) {
        while (next < rm->nmoves && rm->moves[next].at == r.answers)
            if (replay_move_to(&r, &rm->moves[next++]) < 0)
                goto out;
        if (r.answers == rm->history->elements)
            break;
        int st = replay_step(&r, ids);
        if (st < 0)
            goto out;
        if (st > 0) {
            result = "REFUSED";
            break;
        }
    }
    uint64_t hash = engine_match_hash(r.m);
    if (rm->final_hash && *rm->final_hash) {
        snprintf(recorded, sizeof recorded, "%s", rm->final_hash);
        char mine[24];
        snprintf(mine, sizeof mine, "%016" PRIx64, hash);
        if (!strcmp(result, "ok") && strcmp(mine, rm->final_hash))
            result = "MISMATCH";
    } else if (!strcmp(rm->status, DH_STATUS_RUNNING) && !strcmp(result, "ok")) {
        uint64_t lh = 0;
        if (replay_live(rm, r.b, &lh) < 0)
            goto out;
        snprintf(live, sizeof live, " live=%016" PRIx64, lh);
        if (lh != hash)
            result = "MISMATCH";
    }
    printf("match %s game=%s answers=%zu hash=%016" PRIx64 " recorded=%s%s result=%s\n", rm->id,
           rm->game, r.answers, hash, recorded, live, result);
    rc = strcmp(result, "ok") ? 1 : 0;
out:
    replay_stop(&r);
    free(ids);
    return rc;
}

static void replay_match_free(replay_match *rm)
{
    if (rm->tx)
        freeReplyObject(rm->tx);
    free(rm->moves);
    free(rm->namebuf);
    free(rm->idbuf);
}

int cmd_replay(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {
        {"redis", DH_FLAG_VALUE}, {"quiet", DH_FLAG_SWITCH}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, replay_who, replay_usage, 1, 1);
    if (done >= 0)
        return done;
    const char *id = f->pos[0];
    if (!*id || strlen(id) > 200 || strpbrk(id, "{}")) {
        fprintf(stderr, "%s: '%s' is not a match id\n", replay_who, id);
        return 2;
    }
    bool quiet = dh_flags_has(f, "quiet");
    dh_redis rd;
    replay_match rm = {.id = id};
    int rc = 1;
    char key[DH_KEY_MAX];
    redisContext *c = cli_redis(f, replay_who, &rd);
    if (c) /* the match's keys share one slot: read them on its node */
        c = dh_redis_for_key(&rd, dh_key_match(key, id), 0);
    if (c && replay_read(c, &rm) == 0 && replay_parse(&rm) == 0)
        rc = replay_match_run(&rd, &rm, quiet);
    replay_match_free(&rm);
    dh_redis_close(&rd);
    return rc;
}
