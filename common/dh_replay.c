/*
 * dh_replay.c: a match's record for replaying it, read from Redis and parsed (see
 * dh_replay.h).
 */
#include "dh_replay.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_snapz.h"

#define DH_REPLAY_CMDS 7 /* MULTI, HMGET, LRANGE history, LRANGE bundles, GET, LRANGE, EXEC */
#define DH_REPLAY_META 12

static dh_replay_status dh_replay_fail(dh_replay_status st, char *err, size_t errlen,
                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return st;
}

static const char *dh_replay_str(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_STRING ? r->str : NULL;
}

static int dh_replay_split(char *list, const char **out, int max)
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

/* Send the transaction and keep its EXEC reply in rec->tx. */
static dh_replay_status dh_replay_fetch(redisContext *c, dh_replay_record *rec, char *err,
                                        size_t errlen)
{
    const char *id = rec->id;
    char meta[DH_KEY_MAX], hist[DH_KEY_MAX], moves[DH_KEY_MAX], snap[DH_KEY_MAX], log[DH_KEY_MAX];
    dh_key_match(meta, id);
    dh_key_match_history(hist, id);
    dh_key_match_bundles(moves, id);
    dh_key_match_snap(snap, id);
    dh_key_match_log(log, id);
    const char *multi[] = {"MULTI"},
               *hmget[DH_REPLAY_META + 2] = {"HMGET",         meta,        DH_F_GAME,
                                             DH_F_BUNDLE,     DH_F_SEED,   DH_F_PLAYERS,
                                             DH_F_PLAYER_IDS, DH_F_STATUS, DH_F_FINAL_HASH,
                                             DH_F_OPTIONS,    DH_F_BOTS,   DH_F_RESULT,
                                             DH_F_END_REASON, DH_F_UNRATED},
               *lhist[] = {"LRANGE", hist, "0", "-1"}, *lmoves[] = {"LRANGE", moves, "0", "-1"},
               *get[] = {"GET", snap}, *llog[] = {"LRANGE", log, "0", "-1"}, *exec[] = {"EXEC"};
    const char **cmds[DH_REPLAY_CMDS] = {multi, hmget, lhist, lmoves, get, llog, exec};
    const int lens[DH_REPLAY_CMDS] = {1, DH_REPLAY_META + 2, 4, 4, 2, 4, 1};
    int bad = 0;
    for (int i = 0; i < DH_REPLAY_CMDS; i++)
        if (redisAppendCommandArgv(c, lens[i], cmds[i], NULL) != REDIS_OK)
            return dh_replay_fail(DH_REPLAY_DOWN, err, errlen, "match %s: out of memory", id);
    for (int i = 0; i < DH_REPLAY_CMDS; i++) {
        redisReply *r = NULL;
        if (redisGetReply(c, (void **)&r) != REDIS_OK || !r)
            return dh_replay_fail(DH_REPLAY_DOWN, err, errlen, "match %s: redis: %s", id,
                                  c->errstr);
        if (i == DH_REPLAY_CMDS - 1) {
            rec->tx = r; /* the EXEC: every reply, read atomically */
        } else {
            bad += r->type == REDIS_REPLY_ERROR;
            freeReplyObject(r);
        }
    }
    redisReply *tx = rec->tx;
    if (bad || tx->type != REDIS_REPLY_ARRAY || tx->elements != 5)
        return dh_replay_fail(DH_REPLAY_DOWN, err, errlen, "redis refused the read of match %s%s%s",
                              id, tx->type == REDIS_REPLY_ERROR ? ": " : "",
                              tx->type == REDIS_REPLY_ERROR ? tx->str : "");
    for (size_t i = 0; i < 5; i++)
        if (tx->element[i]->type == REDIS_REPLY_ERROR)
            return dh_replay_fail(DH_REPLAY_DOWN, err, errlen, "match %s: redis: %s", id,
                                  tx->element[i]->str);
    return DH_REPLAY_OK;
}

int dh_replay_log_start(const redisReply *snap, uint64_t *at)
{
    size_t body;
    *at = 0;
    if (!snap || snap->type != REDIS_REPLY_STRING)
        return 0;
    return dh_snapz_tail((const uint8_t *)snap->str, snap->len, at, &body);
}

/* With a snapshot behind the tail head (dh_snapz.h), the log is the history's tail. */
static dh_replay_status dh_replay_tail(dh_replay_record *rec, char *err, size_t errlen)
{
    uint64_t at = 0;
    rec->log_from = 0;
    int tail = dh_replay_log_start(rec->snap, &at);
    if (tail < 0 || (tail && at > rec->history->elements))
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                              "match %s: its snapshot names no index of its history", rec->id);
    if (tail) {
        rec->log = rec->history;
        rec->log_from = (size_t)at;
    }
    return DH_REPLAY_OK;
}

/* Point the record's fields into tx and check that the match is there and whole. */
static dh_replay_status dh_replay_fields(dh_replay_record *rec, char *err, size_t errlen)
{
    const redisReply *tx = rec->tx, *m = tx->element[0];
    if (m->type != REDIS_REPLY_ARRAY || m->elements != DH_REPLAY_META)
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                              "match %s: redis: unexpected reply to HMGET", rec->id);
    const char **fields[DH_REPLAY_META] = {&rec->game,       &rec->bundle,     &rec->seed,
                                           &rec->players,    &rec->player_ids, &rec->status,
                                           &rec->final_hash, &rec->options,    &rec->bots,
                                           &rec->result,     &rec->end_reason, &rec->unrated};
    for (size_t i = 0; i < DH_REPLAY_META; i++)
        *fields[i] = dh_replay_str(m->element[i]);
    rec->history = tx->element[1];
    rec->bundles = tx->element[2];
    rec->snap = tx->element[3];
    rec->log = tx->element[4];
    if (!rec->game && !rec->bundle && !rec->seed)
        return dh_replay_fail(DH_REPLAY_MISSING, err, errlen, "no match %s in Redis", rec->id);
    if (!rec->game || !rec->bundle || !rec->seed || !rec->players || !rec->player_ids ||
        !rec->status)
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                              "match %s: match:{ID} lacks game, bundle, seed, players or status",
                              rec->id);
    if (rec->history->type != REDIS_REPLY_ARRAY || rec->bundles->type != REDIS_REPLY_ARRAY ||
        rec->log->type != REDIS_REPLY_ARRAY)
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                              "match %s: its history, bundles or log is not a list", rec->id);
    return dh_replay_tail(rec, err, errlen);
}

/* Seats, their bots and the bundle moves; the moves must chain from the first bundle to
 * the one the match names now. */
static dh_replay_status dh_replay_parse(dh_replay_record *rec, char *err, size_t errlen)
{
    rec->namebuf = strdup(rec->players);
    rec->idbuf = strdup(rec->player_ids);
    if (!rec->namebuf || !rec->idbuf)
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen, "match %s: out of memory", rec->id);
    rec->nseats = dh_replay_split(rec->namebuf, rec->names, DH_REPLAY_SEATS_MAX);
    if (rec->nseats < 1 ||
        dh_replay_split(rec->idbuf, rec->ids, DH_REPLAY_SEATS_MAX) != rec->nseats)
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen, "match %s: bad player lists '%s'",
                              rec->id, rec->players);
    const char *cur = rec->bots;
    for (int i = 0; i < rec->nseats; i++) { /* "default,," : one entry per seat */
        const char *b = "";
        size_t len = 0;
        dh_list_next(&cur, &b, &len); /* a short list leaves the last seats human */
        snprintf(rec->botbuf[i], sizeof rec->botbuf[i], "%.*s", (int)len, b);
        if (!strcmp(rec->botbuf[i], DH_BOT_SEARCH) ||
            !strcmp(rec->botbuf[i], DH_BOT_HARD)) /* logged answers, not an inline bot */
            len = 0;
        rec->botp[i] = len ? rec->botbuf[i] : NULL;
        rec->any_bot |= len > 0;
    }
    size_t n = rec->bundles->elements;
    rec->moves = calloc(n ? n : 1, sizeof *rec->moves);
    if (!rec->moves)
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen, "match %s: out of memory", rec->id);
    for (size_t i = 0; i < n; i++) {
        const char *e = dh_replay_str(rec->bundles->element[i]);
        dh_replay_move *mv = &rec->moves[i];
        char rest[8];
        int got = e ? sscanf(e, "%64s %64s %" SCNu64 " %" SCNu64 " %7s", mv->from, mv->to,
                             &mv->version, &mv->at, rest)
                    : 0;
        if (got == 3)
            return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                                  "match %s: moved between bundles (\"%s\") before moves "
                                  "recorded their place in the history: it cannot be replayed",
                                  rec->id, e);
        if (got != 4)
            return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                                  "match %s: bad entry \"%s\" in match:{ID}:bundles", rec->id,
                                  e ? e : "(nil)");
        if (mv->at > rec->history->elements || (i && mv->at < rec->moves[i - 1].at) ||
            (i && strcmp(mv->from, rec->moves[i - 1].to)))
            return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                                  "match %s: match:{ID}:bundles entry \"%s\" does not follow "
                                  "the others",
                                  rec->id, e);
    }
    rec->nmoves = n;
    const char *last = n ? rec->moves[n - 1].to : rec->bundle;
    if (strcmp(last, rec->bundle))
        return dh_replay_fail(DH_REPLAY_BAD, err, errlen,
                              "match %s: its moves end on another bundle than %s", rec->id,
                              rec->bundle);
    return DH_REPLAY_OK;
}

dh_replay_status dh_replay_read(dh_redis *rd, uint64_t now_ms, const char *id,
                                dh_replay_record *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    rec->id = id;
    char key[DH_KEY_MAX];
    /* the match's keys share one slot: read them on its node */
    redisContext *c = dh_redis_for_key(rd, dh_key_match(key, id), now_ms);
    if (!c)
        return dh_replay_fail(DH_REPLAY_DOWN, err, errlen, "match %s: redis unreachable", id);
    dh_replay_status st = dh_replay_fetch(c, rec, err, errlen);
    if (st == DH_REPLAY_DOWN && c->err)
        dh_redis_fail(rd, now_ms); /* a broken connection: the next call reconnects */
    if (st == DH_REPLAY_OK)
        st = dh_replay_fields(rec, err, errlen);
    if (st == DH_REPLAY_OK)
        st = dh_replay_parse(rec, err, errlen);
    return st;
}

void dh_replay_record_free(dh_replay_record *rec)
{
    if (rec->tx)
        freeReplyObject(rec->tx);
    free(rec->moves);
    free(rec->namebuf);
    free(rec->idbuf);
    memset(rec, 0, sizeof *rec);
}

bool dh_replay_finished(const dh_replay_record *rec)
{
    return rec->status && !strcmp(rec->status, DH_STATUS_FINISHED);
}
