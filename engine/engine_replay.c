/*
 * engine_replay.c: a recorded match rebuilt one answer at a time (see engine_replay.h).
 */
#include "engine_replay.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int engine_replay_fail(engine_replay *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof r->err, fmt, ap);
    va_end(ap);
    return -1;
}

engine_match_config engine_replay_config(const dh_replay_record *rec)
{
    return (engine_match_config){.match_id = rec->id,
                                 .game = rec->game,
                                 .seed = strtoull(rec->seed, NULL, 10),
                                 .nplayers = rec->nseats,
                                 .names = rec->names,
                                 .bots = rec->any_bot ? rec->botp : NULL,
                                 .options = rec->options};
}

static void engine_replay_drop(engine_replay *r)
{
    if (r->m)
        engine_match_free(r->m);
    if (r->b && r->src.put)
        r->src.put(r->src.ud, r->b);
    r->m = NULL;
    r->b = NULL;
}

int engine_replay_start(engine_replay *r, const dh_replay_record *rec,
                        const engine_replay_bundles *src)
{
    memset(r, 0, sizeof *r);
    r->rec = rec;
    r->src = *src;
    r->sha = rec->nmoves ? rec->moves[0].from : rec->bundle;
    char why[256] = "";
    if (!(r->b = r->src.get(r->src.ud, r->sha, why, sizeof why)))
        return engine_replay_fail(r, "%s", why);
    engine_match_config cfg = engine_replay_config(rec);
    engine_error ee = {0};
    if (!(r->m = engine_match_new(r->b, &cfg, &ee)))
        return engine_replay_fail(r, "match %s: does not start: %s", rec->id, ee.message);
    return 0;
}

/* Move the match onto mv->to as host_move did: rebuilt from its snapshot, which must be
 * the whole match (a turn boundary, nothing accepted since) at the recorded version.
 * 0, or -1 with r->err (the replay is left as it was). */
static int engine_replay_move(engine_replay *r, const dh_replay_move *mv)
{
    const dh_replay_record *rec = r->rec;
    if (strcmp(mv->from, r->sha))
        return engine_replay_fail(r, "match %s: a move from bundle %s, but the match is on another",
                                  rec->id, mv->from);
    if (engine_match_log_len(r->m) != 0 || engine_match_snapshot_version(r->m) != mv->version)
        return engine_replay_fail(r,
                                  "match %s: after %zu answers the replay is at snapshot %" PRIu64
                                  " with %zu answers since; the move to %.12s was made at "
                                  "snapshot %" PRIu64,
                                  rec->id, r->answers, engine_match_snapshot_version(r->m),
                                  engine_match_log_len(r->m), mv->to, mv->version);
    char why[256] = "";
    engine_bundle *nb = r->src.get(r->src.ud, mv->to, why, sizeof why);
    if (!nb)
        return engine_replay_fail(r, "%s", why);
    /* host_move's config: the seed is in the snapshot */
    engine_match_config cfg = engine_replay_config(rec);
    cfg.seed = 0;
    size_t len = 0;
    const uint8_t *snap = engine_match_snapshot(r->m, &len);
    engine_error ee = {0};
    engine_match *nm = engine_match_restore(nb, &cfg, snap, len, NULL, 0, &ee);
    if (!nm) {
        if (r->src.put)
            r->src.put(r->src.ud, nb);
        return engine_replay_fail(r, "match %s: does not move onto bundle %.12s: %s", rec->id,
                                  mv->to, ee.message);
    }
    engine_replay_drop(r);
    r->m = nm;
    r->b = nb;
    r->sha = mv->to;
    return 0;
}

engine_replay_status engine_replay_step(engine_replay *r, engine_error *ee)
{
    const dh_replay_record *rec = r->rec;
    while (r->next_move < rec->nmoves && rec->moves[r->next_move].at == r->answers) {
        if (engine_replay_move(r, &rec->moves[r->next_move]) < 0)
            return ENGINE_REPLAY_FAILED;
        r->next_move++;
        if (r->src.moved)
            r->src.moved(r->src.ud, r);
    }
    if (r->answers == rec->history->elements)
        return ENGINE_REPLAY_END;
    const redisReply *e = rec->history->element[r->answers];
    if (e->type != REDIS_REPLY_STRING ||
        engine_answer_decode((const uint8_t *)e->str, e->len, &r->last, r->ids,
                             ENGINE_REPLAY_IDS_MAX)) {
        engine_replay_fail(r, "match %s: history entry %zu does not decode", rec->id, r->answers);
        return ENGINE_REPLAY_FAILED;
    }
    engine_code code = engine_match_answer(r->m, r->last.seat, r->last.decision_id,
                                           r->last.option_ids, r->last.n, ee);
    if (code != ENGINE_OK)
        return ENGINE_REPLAY_REFUSED;
    r->answers++;
    return ENGINE_REPLAY_STEP;
}

void engine_replay_free(engine_replay *r)
{
    engine_replay_drop(r);
}
