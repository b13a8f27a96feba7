/*
 * cmd_replay.c: `deckhand replay MATCH_ID`, a match rebuilt from Redis one answer at a
 * time, to audit it or to find where a bug came in.
 *
 * A worker keeps every accepted answer of a match in match:{ID}:history (worker/store.h),
 * and every move of the match onto another bundle (live-ops --apply-to-running) in
 * match:{ID}:bundles as "OLD NEW SNAPSHOT_VERSION HISTLEN". The replay does what the
 * workers did: engine_match_new on the match's first bundle with its seed and players,
 * each answer through engine_match_answer, and after HISTLEN answers the rebuild of the
 * match from its snapshot on the next bundle (host_move in worker/host_rebundle.c). It prints the
 * state hash at each step, then holds the last one against final_hash (a finished match)
 * or against the state Redis holds for a running one (snapshot + log, as an adopting
 * worker rebuilds it). Everything is read in one MULTI, so a running match's keys agree
 * with each other even while its worker writes. The reading (common/dh_replay.h) and the
 * stepping (engine/include/engine_replay.h) are the ones the worker serves replays to players with.
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
#include "dh_replay.h"
#include "dh_snapz.h"
#include "engine_replay.h"

static const char replay_usage[] =
    "usage: deckhand replay MATCH_ID [--redis URL] [--quiet | --frames]\n"
    "\n"
    "  Rebuild the match from Redis (its seed, players and every accepted answer, on the\n"
    "  bundles it ran on) and print its state hash at each step; --quiet prints only the\n"
    "  last line, `match ID game=G answers=N hash=H recorded=R result=ok`. R is the\n"
    "  final_hash Redis recorded (none while the match runs; a running match also prints\n"
    "  live=H, the hash of the state its worker holds). Exit 1 when the match is missing,\n"
    "  an answer is refused or a hash differs. --frames also prints, after the start and\n"
    "  each step, what a replay shows a player (the worker's ReplayFrames): the public\n"
    "  events of the step and the public view (zones with their count and visible cards,\n"
    "  counters).\n"
    "Redis is --redis, else DECKHAND_REDIS_URL, else .run/cluster.env, else\n"
    "redis://127.0.0.1:6390.\n";

static const char replay_who[] = "deckhand replay";

/* Print a failure of match rm's replay. */
static int replay_fail(const dh_replay_record *rm, const char *fmt, const char *what)
{
    fprintf(stderr, "%s: match %s: ", replay_who, rm->id);
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return -1;
}

/* The state the match's worker holds, rebuilt from its snapshot and log on b (the bundle
 * it runs on now), as an adopting worker rebuilds it; its hash into *hash. 0 or -1. */
static int replay_live(const dh_replay_record *rm, engine_bundle *b, uint64_t *hash)
{
    const redisReply *lr = rm->log;
    if (rm->snap->type != REDIS_REPLY_STRING)
        return replay_fail(rm, "%s", "it runs but has no snapshot");
    /* an option id takes at least one byte: the log's bytes bound its ids */
    size_t nids = 0, used = 0, from = rm->log_from, nlog = lr->elements - from;
    for (size_t i = from; i < lr->elements; i++)
        nids += lr->element[i]->len;
    engine_answer *log = calloc(nlog ? nlog : 1, sizeof *log);
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
    for (size_t i = 0; i < nlog; i++) {
        const redisReply *e = lr->element[from + i];
        if (e->type != REDIS_REPLY_STRING ||
            engine_answer_decode((const uint8_t *)e->str, e->len, &log[i], ids + used,
                                 nids - used)) {
            replay_fail(rm, "%s", "an entry of its log does not decode");
            goto out;
        }
        used += log[i].n;
    }
    engine_match_config cfg = engine_replay_config(rm);
    engine_error ee = {0};
    m = engine_match_restore(b, &cfg, snap, snap_len, log, nlog, &ee);
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

/* The bundles of a replay come from Redis (engine_replay_bundles). */
typedef struct {
    dh_redis *c;
    bool quiet;
    bool frames; /* --frames */
} replay_src;

static engine_bundle *replay_get(void *ud, const char *sha, char *err, size_t errlen)
{
    replay_src *s = ud;
    return cli_redis_bundle(s->c, sha, replay_who); /* which printed why not (err stays "") */
}

static void replay_put(void *ud, engine_bundle *b)
{
    engine_bundle_free(b);
}

static void replay_moved(void *ud, const engine_replay *r)
{
    const replay_src *s = ud;
    if (!s->quiet)
        printf("move after %zu answers bundle %s hash %016" PRIx64 "\n", r->answers, r->sha,
               engine_match_hash(r->m));
}

static void replay_print_event(void *ud, const engine_event *ev)
{
    if (ev->everyone && ev->to_seat == 0) /* a g:log, once (every seat got it) */
        printf("  log: %s\n", ev->text);
}

/* Frame index as a replay shows it: the public events since the last frame, then the
 * public view. */
static void replay_print_frame(engine_match *m, size_t index)
{
    printf("frame %zu\n", index);
    engine_match_drain_events(m, replay_print_event, NULL);
    Deckhand__View *v = engine_match_view(m, ENGINE_SEAT_PUBLIC);
    if (!v) {
        printf("  (out of memory)\n");
        return;
    }
    for (size_t i = 0; i < v->n_zones; i++) {
        const Deckhand__Zone *z = v->zones[i];
        printf("  zone %s owner=%d count=%u%s", z->name, z->owner, z->count, z->n_cards ? ":" : "");
        for (size_t k = 0; k < z->n_cards; k++)
            printf("%s %s", k ? "," : "", z->cards[k]->name);
        printf("\n");
    }
    for (size_t i = 0; i < v->n_counters; i++)
        printf("  counter %s owner=%d = %" PRId64 "\n", v->counters[i]->name, v->counters[i]->owner,
               v->counters[i]->value);
    engine_view_free(v);
}

/* Replay rm on the bundles it ran on; prints the steps and the summary line. The exit
 * status. */
static int replay_match_run(dh_redis *c, const dh_replay_record *rm, bool quiet, bool frames)
{
    replay_src src = {c, quiet, frames};
    engine_replay_bundles bs = {replay_get, replay_put, replay_moved, &src};
    engine_replay *r = malloc(sizeof *r);
    const char *result = "ok";
    char recorded[32] = "none", live[48] = "";
    int rc = 1;
    if (!r) {
        replay_fail(rm, "%s", "out of memory");
        return 1;
    }
    if (engine_replay_start(r, rm, &bs) < 0) {
        if (r->err[0]) /* else cli_redis_bundle said why */
            fprintf(stderr, "%s: %s\n", replay_who, r->err);
        goto out;
    }
    if (!quiet)
        printf("start bundle %s seed %s players %s hash %016" PRIx64 "\n", r->sha, rm->seed,
               rm->players, engine_match_hash(r->m));
    if (frames)
        replay_print_frame(r->m, 0);
    for (;;) {
        engine_error ee = {0};
        engine_replay_status st = engine_replay_step(r, &ee);
        if (st == ENGINE_REPLAY_END)
            break;
        if (st == ENGINE_REPLAY_FAILED) {
            if (r->err[0])
                fprintf(stderr, "%s: %s\n", replay_who, r->err);
            goto out;
        }
        if (st == ENGINE_REPLAY_REFUSED) {
            printf("step %zu seat %d decision %" PRIu64 " refused: %s (code %d)\n", r->answers + 1,
                   r->last.seat, r->last.decision_id, ee.message, (int)ee.code);
            result = "REFUSED";
            break;
        }
        if (!quiet)
            printf("step %zu seat %d decision %" PRIu64 " hash %016" PRIx64 "\n", r->answers,
                   r->last.seat, r->last.decision_id, engine_match_hash(r->m));
        if (frames)
            replay_print_frame(r->m, r->answers);
    }
    uint64_t hash = engine_match_hash(r->m);
    if (rm->final_hash && *rm->final_hash) {
        snprintf(recorded, sizeof recorded, "%s", rm->final_hash);
        char mine[24];
        snprintf(mine, sizeof mine, "%016" PRIx64, hash);
        if (!strcmp(result, "ok") && strcmp(mine, rm->final_hash))
            result = "MISMATCH";
    } else if (!strcmp(rm->status, DH_STATUS_RUNNING) && !strcmp(result, "ok")) {
        uint64_t lh = 0;
        if (replay_live(rm, r->b, &lh) < 0)
            goto out;
        snprintf(live, sizeof live, " live=%016" PRIx64, lh);
        if (lh != hash)
            result = "MISMATCH";
    }
    printf("match %s game=%s answers=%zu hash=%016" PRIx64 " recorded=%s%s result=%s\n", rm->id,
           rm->game, r->answers, hash, recorded, live, result);
    rc = strcmp(result, "ok") ? 1 : 0;
out:
    engine_replay_free(r);
    free(r);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {
        {"redis", DH_FLAG_VALUE}, {"quiet", DH_FLAG_SWITCH}, {"frames", DH_FLAG_SWITCH}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, replay_who, replay_usage, 1, 1);
    if (done >= 0)
        return done;
    const char *id = f->pos[0];
    if (!*id || strlen(id) > 200 || strpbrk(id, "{}")) {
        fprintf(stderr, "%s: '%s' is not a match id\n", replay_who, id);
        return 2;
    }
    bool quiet = dh_flags_has(f, "quiet"), frames = dh_flags_has(f, "frames");
    if (quiet && frames) {
        fprintf(stderr, "%s: --quiet and --frames do not go together\n%s", replay_who,
                replay_usage);
        return 2;
    }
    dh_redis rd;
    dh_replay_record rm;
    char err[512];
    int rc = 1;
    if (!cli_redis(f, replay_who, &rd)) {
        dh_redis_close(&rd);
        return 1;
    }
    if (dh_replay_read(&rd, 0, id, &rm, err, sizeof err) == DH_REPLAY_OK)
        rc = replay_match_run(&rd, &rm, quiet, frames);
    else
        fprintf(stderr, "%s: %s\n", replay_who, err);
    dh_replay_record_free(&rm);
    dh_redis_close(&rd);
    return rc;
}
