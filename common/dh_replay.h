/*
 * dh_replay.h: what Redis records of a match for replaying it, read and parsed in one
 * place for `deckhand replay` (client/cmd_replay.c) and the worker's replays
 * (worker/replay.c): match:{ID}'s fields, every accepted answer (match:{ID}:history),
 * its bundle moves (match:{ID}:bundles, "OLD NEW SNAPSHOT_VERSION HISTLEN"), and the
 * snapshot and log a running match's worker holds. Everything is read in one MULTI on the
 * match's node, so the keys agree with each other even while a worker writes.
 *
 * The engine, which rebuilds the match from this record, stays out of common/: the
 * stepping is engine/include/engine_replay.h.
 */
#ifndef DECKHAND_DH_REPLAY_H
#define DECKHAND_DH_REPLAY_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_redis.h"

#define DH_REPLAY_SEATS_MAX 16 /* HOST_SEATS_MAX */
#define DH_REPLAY_SHA_MAX   65

/* One move of the match onto another bundle, after `at` answers of the history. */
typedef struct {
    char from[DH_REPLAY_SHA_MAX], to[DH_REPLAY_SHA_MAX];
    uint64_t version; /* the snapshot version the move started from */
    uint64_t at;
} dh_replay_move;

/* What Redis holds about the match; the strings point into tx, which the record owns. */
typedef struct {
    const char *id;
    redisReply *tx; /* the EXEC reply: meta, history, bundles, snap, log */
    const char *game, *bundle, *seed, *players, *player_ids, *status, *final_hash;
    const char *options, *bots;      /* game options; bot seats (bot fill), "" or NULL: none */
    const char *result, *end_reason; /* the stored result (JSON) and why it ended, or NULL */
    const char *unrated;             /* "1": against bots or bot-filled, else NULL */
    const redisReply *history, *bundles, *snap, *log;
    /* the log is log's elements from this one on: 0, or with a snapshot behind the tail
     * head (dh_snapz.h) the history's, from the index the head names */
    size_t log_from;
    dh_replay_move *moves; /* nmoves, in order */
    size_t nmoves;
    char *namebuf, *idbuf;
    const char *names[DH_REPLAY_SEATS_MAX];
    const char *ids[DH_REPLAY_SEATS_MAX];
    char botbuf[DH_REPLAY_SEATS_MAX][64];
    const char *botp[DH_REPLAY_SEATS_MAX]; /* per seat: its inline bot, NULL for a player or a
                                              search seat (DH_BOT_SEARCH: logged answers) */
    bool any_bot;
    int nseats;
} dh_replay_record;

typedef enum {
    DH_REPLAY_OK = 0,
    DH_REPLAY_MISSING = 1, /* no match:{ID} (never existed, or past its retention) */
    DH_REPLAY_DOWN = 2,    /* Redis could not be read */
    DH_REPLAY_BAD = 3,     /* the record does not parse or does not hang together */
} dh_replay_status;

/* Read match id's record from its node of rd (now_ms: rd's clock, for its reconnect
 * backoff) into rec (id is borrowed and must outlive rec). DH_REPLAY_OK, or the status with why in
 * err (what `deckhand replay` prints, after "deckhand replay: "). rec is to be freed with
 * dh_replay_record_free whatever happened. */
dh_replay_status dh_replay_read(dh_redis *rd, uint64_t now_ms, const char *id,
                                dh_replay_record *rec, char *err, size_t errlen);
void dh_replay_record_free(dh_replay_record *rec);

/* The record's status is DH_STATUS_FINISHED. */
bool dh_replay_finished(const dh_replay_record *rec);

/* Where a match's log starts, from snap (the reply to a GET of match:{ID}:snap, of any
 * type): 1 with *at when its snapshot has the tail head (the log is the history from index
 * *at, dh_snapz.h), 0 when the log is match:{ID}:log (no snapshot, or one without the
 * head), -1 for a malformed head. The one reading of it for replays, adoption and
 * `deckhand scripts show`. */
int dh_replay_log_start(const redisReply *snap, uint64_t *at);

#endif
