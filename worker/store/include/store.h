/*
 * store.h: the front door of the worker's store wing (worker/store/): what the worker
 * keeps in Redis. Two modules: the store (store.c), the persistence of hosted matches, and
 * the rater (rater.c), which moves ratings once per finished match (below).
 *
 * The store: the worker's Redis persistence (docs/redis.md, "Redis keys").
 *
 * Writes are batched: the host opens an op per thing it must know the fate of (a new
 * match, one accepted answer, a finished match), appends that op's commands, and at
 * the end of the loop iteration store_flush sends the whole pipeline in one round trip
 * and reads every reply. An op is ok only when all its commands succeeded; only then
 * does the host release what depends on it. While Redis is down store_op returns -1 at
 * once (the host answers UNAVAILABLE) and the connection is retried with backoff.
 *
 * The keys, their fields and which process writes them are the Redis contract, spelled
 * once in common/dh_keys.h (DH_K_*, DH_F_*); every key of one match carries its hash tag,
 * so they share a Redis Cluster slot.
 *
 * Fencing: every write to a running match is one script that first checks that match:{ID}
 * still names this worker at the epoch it holds; otherwise it writes nothing and fails
 * with FENCED (store_fenced), because the matchmaker moved the match elsewhere. One
 * answer's writes (snapshot, log, history, result) are one script, so they land together.
 * The scripts go by hash (EVALSHA, dh_script.h): a NOSCRIPT reply (a node flushed or
 * restarted, or a Redis Cluster node that never saw them) loads the script on that node
 * and sends the command again (dh_redis_pipeline), in order, so the op lands.
 *
 * A Redis Cluster (dh_redis.h) takes the same batch, split per node. A finish is a fenced
 * script on the match's slot; the indexes in other slots follow once it succeeded
 * (store_finish, dh_keys.h), retried at each flush until they land.
 *
 * The reads (store_read.c) are synchronous: they serve adoption, tests and tools, not the
 * hot path; an adoption round reads its whole batch in one pipeline (store_read_matches).
 */
#ifndef DECKHAND_WORKER_STORE_H
#define DECKHAND_WORKER_STORE_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_keys.h"
#include "dh_rating.h"
#include "dh_metrics.h"
#include "dh_redis.h"
#include "dh_script.h"
#include "dh_snapz.h"
#include "dh_table.h"

#define STORE_ID_MAX 128
/* DH_F_AWAY: up to 16 seats of 20 digits and a comma */
#define STORE_AWAY_MAX (16 * 21)

typedef struct {
    unsigned commands; /* replies to read for this op */
    bool ok;
    bool fenced;      /* a write was refused because another worker owns the match now */
    long finish;      /* index in store.fin of the finish this op commits, or -1 */
    size_t commit_at; /* with finish: the index of its commit in the batch's commands */
} store_op_state;

/* A finished match whose indexes are still to be written (dh_keys.h): stage 0 writes
 * its rating job and its matches:finished entry and sets its retention (dh_script_retire),
 * stage 1 takes it out of matches:running.
 * Stage -1: its commit is in the current batch, not answered yet. */
typedef struct {
    char match_id[STORE_ID_MAX];
    char *job; /* the rating job, or NULL */
    int stage;
} store_finish;

/* RESP bulk strings appended one after another (store_batch.c): count of them, len bytes. */
typedef struct {
    char *p;
    size_t len, cap, count;
} store_resp;

/* A batched commit's match and epoch, to learn from its reply whether it was the
 * worker's (--fence-per-turn, store_batch.c). */
typedef struct {
    char match_id[STORE_ID_MAX];
    uint64_t epoch;
    bool finish;
} store_batched;

/* A token of worker:{W}:moves (dh_keys.h): 16 hex digits and a count. */
#define STORE_TOKEN_MAX 48

typedef struct {
    dh_redis redis;
    store_op_state *ops; /* ops of the current batch */
    size_t nops, capops;
    dh_redis_cmd *cmds; /* the batch's commands, formatted (owned), in op order */
    size_t ncmds, capcmds;
    /* per command: its commit's place in the batch call (store_batch.c), -1 a command that
     * is not a commit, STORE_BATCH_ALONE a commit that goes alone as a batch of one; a
     * batched commit's command is an unformatted placeholder */
    long *cmd_batch;
    size_t capcmd_batch;
    store_resp bkeys, bargs; /* the batched commits' keys and arguments */
    size_t nbatched;         /* commits in the batch call */
    int batch_slot;          /* its hash slot (its first key's) */
    char bworker[64];        /* the worker its commits are fenced on (the first's) */
    /* --fence-per-turn (store_batch.c): the batch call reads worker:{W}:moves, which the
     * matchmaker's takeover deletes with each move of one of W's matches, and skips the
     * fence of each match the worker saw owned at its epoch under the token it holds. Off
     * unless set (every matchmaker must delete the key when it moves a match). */
    bool fence_per_turn;
    char trust[STORE_TOKEN_MAX];    /* the token the key held at the last batch ("" none) */
    dh_table owned;                 /* match id -> epoch (as a pointer) seen owned under it */
    uint64_t token_base, token_seq; /* a fresh token each batch: base-seq */
    store_batched *bmeta;           /* per batched commit (nbatched of them) */
    size_t capbmeta;
    store_finish *fin; /* finishes whose indexes are not all written yet */
    size_t nfin, capfin;
    bool broken; /* a command could not be formatted: the batch fails */
    bool up;     /* the last round trip succeeded (the beat's redis_ok) */
    dh_script move_bundle, fields, finished_push, retire; /* called by hash */
    dh_script undo;                                       /* dh_script_undo */
    dh_script commit_batch; /* dh_script_commit_batch: every commit (a batch of one alone) */
    dh_retention retention; /* how long a finished match stays (dh_keys.h) */
    unsigned scripts_at;    /* redis.connects when they were last loaded on every master */
    const char **argv;      /* a commit's arguments, kept from one commit to the next */
    size_t *lens;
    size_t capargv, caplens;
    /* each flushed batch and each read: its wait for Redis (NULL: not timed) */
    dh_histogram *round_trips;
    dh_snapz_codec snap_codec; /* how snapshots are written (zstd unless set) */
} store;

typedef struct {
    const char *match_id, *game, *bundle, *worker;
    uint64_t seed;
    const char *players;    /* display names, comma-separated */
    const char *player_ids; /* comma-separated */
    uint64_t created_ms;
    const char *mode, *abandon; /* the queue and its settings, for an adopting worker */
    uint32_t grace_ms, decision_ms, turn_ms;
    const char *options;   /* game options, "" = the defaults */
    const char *bots;      /* per seat, comma-separated: a bot strategy or "" */
    const char *queue_bot; /* the queue's bot strategy (QueueSettings.bot), "" = the game's */
    bool unrated;
} store_meta;

typedef struct {
    uint8_t *data;
    size_t len;
} store_blob;

/* Everything one accepted answer (or a new match) changes, written as one fenced script. */
typedef struct {
    const char *match_id, *worker;
    uint64_t epoch;
    const uint8_t *snap; /* a new snapshot (resets the log), or NULL */
    size_t snap_len;
    const store_blob *log; /* entries to append to the log (after the snapshot, if any) */
    size_t nlog;
    const uint8_t *hist; /* the accepted answer, appended to the history, or NULL */
    size_t hist_len;
    /* an earlier commit of the match failed without a known outcome (it may have run):
     * Redis checks that hist is not already the history's last entry before writing */
    bool recheck;
    bool finish; /* the match ended: status, ended_ms, result, final_hash */
    uint64_t ended_ms;
    const char *result, *final_hash;
    const char *end_reason; /* with finish: DH_END_* when not the rules ended it, or NULL */
    const char
        *rating_job; /* with finish: its job for matches:unrated (the rater, below), or NULL */
    /* the log is the history's tail (--log-in-history; docs/redis.md, "The log as the
     * history's tail"): an answer goes on the history only, a snapshot is stored behind
     * dh_snapz.h's tail head (its log entries not sent: the history holds them), the log
     * key untouched. Only where Redis holds the match's snapshot with that head already,
     * or with a snapshot (which puts it there); without one, log must be the answer or
     * nothing (store_tail_ok). For store_put_undo: the snapshot behind the head. */
    bool tail;
} store_commit;

/* Parse url (nothing connects yet); -1 on a malformed URL. */
int store_init(store *s, const char *url, int timeout_ms);
void store_close(store *s);

/* Start an op in the current batch; its id, or -1 when Redis is down (or out of
 * memory): the caller treats that as a failed write right away. */
int store_op(store *s, uint64_t now_ms);
/* Append commands to the newest op. Return 0, or -1 (the op will fail). */
/* A new match: its meta at epoch 1 (unfenced) and its row in matches:running. */
int store_put_meta(store *s, const store_meta *m);
/* One fenced script: snapshot (SET snap, DEL log), log entries, history entry, and when
 * finished HSET status/ended_ms/result/final_hash (and the rating job); once it succeeded,
 * the rating job into matches:unrated and the id onto matches:finished, then HDEL
 * matches:running (store_flush). */
int store_put_commit(store *s, const store_commit *c);
/* Whether c's log fits the tail layout when c->tail (see store_commit). */
bool store_tail_ok(const store_commit *c);
/* One fenced script (dh_script_undo): a seat's answer taken back. c->hist is the answer
 * (popped from the history when last), c->snap the turn's snapshot and c->log the answers
 * since it without the answer (the log is replaced); finish and the rest are unused. */
int store_put_undo(store *s, const store_commit *c);
int store_lease(store *s, const char *worker_id, const char *endpoint, unsigned ttl_ms);
/* Fenced: HSET bundle; RPUSH match:{ID}:bundles note: a running match moved onto another
 * bundle (live-ops --apply-to-running), recorded with the match. */
int store_move_bundle(store *s, const char *worker, const char *match_id, uint64_t epoch,
                      const char *bundle, const char *note);

/* Fenced: the worker's notes on a running match that are not its state but must survive
 * an adoption: the away list (DH_F_AWAY), the seats an operator removed (DH_F_REMOVED)
 * and its failures in a row (DH_F_SCRIPT_FAILURES). */
int store_put_notes(store *s, const char *worker, const char *match_id, uint64_t epoch,
                    const char *away, const char *removed, unsigned script_failures);
/* Fenced: one field of match:{ID} set to value (the stall mark, DH_F_STALLED). */
int store_put_field(store *s, const char *worker, const char *match_id, uint64_t epoch,
                    const char *field, const char *value);

/* Send the batch and read every reply; then store_ok tells each op's fate until the
 * next store_op after the flush starts a new batch. An I/O error fails every op whose
 * replies were not all read, and drops the connection. */
void store_flush(store *s, uint64_t now_ms);
bool store_ok(const store *s, int op);
/* The op failed because the match belongs to another worker now. */
bool store_fenced(const store *s, int op);
/* Finishes whose indexes are not all written yet. */
size_t store_finishing(const store *s);
/* Forget the flushed batch; the next store_op starts a new one. */
void store_next(store *s);
/* Ops in the current (unflushed) batch. */
size_t store_pending(const store *s);

/* ---- reads ------------------------------------------------------------------------ */

/* Whether each of n matches still names worker at epochs[i] in match:{ID} (its owner
 * and epoch): owned[i] 1 yes, 0 no (moved to another worker, or gone). One pipelined
 * round trip. 0, or -1 when Redis is unreachable (owned untouched). Only between
 * batches: it shares the connection with the write pipeline. */
int store_owned(store *s, const char *worker, const char *const *ids, const uint64_t *epochs,
                size_t n, int *owned, uint64_t now_ms);
/* A field of match:{ID} (caller frees), NULL when missing or Redis is down. */
char *store_get_field(store *s, const char *match_id, const char *field, uint64_t now_ms);
/* The snapshot (caller frees *out); 1 found, 0 missing, -1 Redis down. */
int store_get_snapshot(store *s, const char *match_id, uint8_t **out, size_t *len, uint64_t now_ms);

/* Every log entry in order (caller frees with store_blobs_free); count, or -1. */
long store_get_log(store *s, const char *match_id, store_blob **out, uint64_t now_ms);
void store_blobs_free(store_blob *b, size_t n);

/* match:{ID} as an adopting worker needs it, plus the history's length. */
typedef struct {
    char game[STORE_ID_MAX], bundle[80], worker[STORE_ID_MAX], status[16], mode[64], abandon[16];
    char players[STORE_ID_MAX * 8], player_ids[STORE_ID_MAX * 8];
    uint64_t epoch, seed, history;
    uint32_t grace_ms, decision_ms, turn_ms;
    char away[STORE_AWAY_MAX];    /* DH_F_AWAY, "" when never written */
    char options[256];            /* DH_F_OPTIONS */
    char bots[16 * 33];           /* DH_F_BOTS */
    char queue_bot[32];           /* DH_F_QUEUE_BOT, "" when never written */
    bool unrated;                 /* DH_F_UNRATED */
    uint32_t script_failures;     /* DH_F_SCRIPT_FAILURES */
    char removed[STORE_AWAY_MAX]; /* DH_F_REMOVED, "" when never written */
    uint64_t stalled;             /* DH_F_STALLED, 0 when none */
} store_match;

/* 1 found, 0 no such match, -1 Redis down. */
int store_get_match(store *s, const char *match_id, store_match *out, uint64_t now_ms);
/* SPOP up to max ids from worker:{ID}:adopt; their count, or -1 when Redis is down. */
long store_adopt_pop(store *s, const char *worker_id, char ids[][STORE_ID_MAX], size_t max,
                     uint64_t now_ms);
/* Put an id back (its adoption failed for a reason that may pass). */
int store_adopt_return(store *s, const char *worker_id, const char *match_id, uint64_t now_ms);
/* Put n ids back in one command (a round that ran out of time). 0, or -1. */
int store_adopt_return_all(store *s, const char *worker_id, const char (*ids)[STORE_ID_MAX],
                           size_t n, uint64_t now_ms);

/* All an adopting worker reads of one match (store_read_matches). */
typedef struct {
    int found; /* store_get_match's 1 or 0; -1: a reply was unreadable */
    store_match meta;
    int snap_found; /* with found: store_get_snapshot's 1, 0 or -1 */
    uint8_t *snap;
    size_t snap_len;
    store_blob *log; /* with found: the log, nlog entries (-1: unreadable) */
    long nlog;
    bool tail; /* the snapshot has the tail head: the log was read from the history */
} store_match_read;

/* The meta, history length, snapshot and log of n matches in one pipelined round trip
 * (four commands a match; in a Redis Cluster each match's on its node), where reading
 * them match by match cost four round trips each; a second one reads the log from the
 * history of each match whose snapshot has the tail head (dh_snapz.h). 0, or -1 when Redis is
 * unreachable (each out found = -1). Free each with store_match_read_free, in both cases. Between
 * batches only, like every read. */
int store_read_matches(store *s, const char *const *ids, size_t n, store_match_read *out,
                       uint64_t now_ms);
void store_match_read_free(store_match_read *m);

/* ---- the rater ------------------------------------------------------------------
 *
 * The rater (rater.c): ratings, leaderboards and match history move once per finished
 * match between accounts (docs/redis.md, "Ratings").
 *
 * Exactly once, across retries, failovers and a Redis Cluster (where a match, a game's
 * ratings and each account's history live in different slots), in steps that are each
 * atomic in Redis and idempotent:
 * 1. The finishing commit (dh_script_commit_batch, host_persist.c) keeps the match's rating job
 *    (rater_job: game, mode, bundle, each seat's account and place) in match:{ID}; once it
 *    landed the worker copies it into matches:unrated (or, when the worker died first, the
 *    matchmaker's takeover does: dh_keys.h).
 * 2. Any worker's sweep (rater_sweep, from the worker loop) takes jobs from
 *    matches:unrated; a job whose match is rated already is just deleted. Otherwise it
 *    reads the seats' ratings, computes the new ones (dh_rating.h) and writes them with
 *    dh_script_rate on the game's slot, which does nothing when the match's marker
 *    rated:{GAME}:{ID} exists and refuses (STALE) when a rating changed since it was read;
 *    otherwise it writes every rating and leaderboard score and the marker at once.
 * 3. Each seat's history entry (dh_script_history_push, which skips an entry the list
 *    holds already), then match:{ID}.rated = 1, then the job leaves matches:unrated.
 * A worker that dies between steps leaves the job for another, which redoes the steps:
 * the marker and the history check make each happen once. Two workers racing on one job
 * both compute, one writes, the other finds the marker; two jobs sharing a player never
 * lose an update (the loser of the race reads again).
 *
 * Who is rated: every seat must be an account (dh_token_is_account_id) and there must be
 * at least two distinct accounts; guests are not rated (a match with a guest seat moves
 * nobody's rating). A seat a bot played for an absent player still counts as that player.
 * A quarantined match (end_reason script_error) is not rated.
 */

#define RATER_JOB_MAX   2048
#define RATER_ID_MAX    64
#define RATER_ENTRY_MAX 2304 /* fits every field at its longest (doubles in %.2f) */
#define RATER_TEXT_MAX  128

typedef struct {
    dh_rating_params params;
    dh_script rate, history; /* by hash; loaded again on a NOSCRIPT reply */
} rater;

/* What one job will write, computed from the ratings read (rater_prepare). */
typedef struct {
    char match_id[RATER_ID_MAX];
    char game[RATER_TEXT_MAX], mode[RATER_TEXT_MAX], bundle[RATER_TEXT_MAX];
    uint64_t ended_ms;
    bool skip; /* a malformed job: dropped, never rated */
    size_t n;
    char ids[DH_RATING_SEATS][RATER_ID_MAX];
    int ranks[DH_RATING_SEATS];
    char old_value[DH_RATING_SEATS][80], new_value[DH_RATING_SEATS][80];
    char ordinal[DH_RATING_SEATS][32];
    char entry[DH_RATING_SEATS][RATER_ENTRY_MAX];
} rater_plan;

void rater_init(rater *r);

/* The rating job of a finished match into out (RATER_JOB_MAX bytes): 0, or -1 when the
 * match is not rated (a guest seat, fewer than two distinct accounts, more than
 * DH_RATING_SEATS seats, or a field that does not fit). ranks: 1 first, equal ranks tie. */
int rater_job(const char *game, const char *mode, const char *bundle, uint64_t ended_ms,
              const char *const *player_ids, const int *ranks, size_t n, char *out, size_t cap);

/* Read the seats' ratings and names and compute the plan. 0, or -1 when Redis failed. */
int rater_prepare(rater *r, dh_redis *rd, const char *match_id, const char *job, rater_plan *plan);
/* Write a plan: 1 applied, 0 the match was rated already (or the job dropped), 2 STALE
 * (prepare again), -1 Redis failed. */
int rater_commit(rater *r, dh_redis *rd, const rater_plan *plan);
/* prepare + commit, reading again after STALE (a few times). 1, 0 or -1 as commit. */
int rater_apply(rater *r, dh_redis *rd, const char *match_id, const char *job);
/* Apply up to max jobs of matches:unrated (picked at random, so that workers sweeping at
 * once spread out). The number applied, or -1 when Redis failed (dh_redis retries
 * it); a job Redis refuses otherwise (an error reply) is logged and stays. */
long rater_sweep(rater *r, dh_redis *rd, size_t max);

/* ---- one call for a loop turn's commits (store_batch.c) --------------------------------- */

/* Whether commits are batched: on a single Redis (a Cluster's keys of one call must share a
 * slot, so there each commit is its own EVALSHA, a batch of one). */
bool store_batching(const store *s);
/* cmd_batch's mark of a commit that goes alone: a call of dh_script_commit_batch with that
 * commit only, whose reply is an array of one. */
#define STORE_BATCH_ALONE (-2)
/* Commit c alone (on a Cluster, or another worker's than the batch's), as a batch of one
 * formatted into cmd (owned by the caller: dh_redis_format_free). -1 when out of memory. */
int store_batch_alone(store *s, const store_commit *c, const char *const keys[4], const char *epoch,
                      const uint8_t *z, size_t zlen, dh_redis_cmd *cmd);
/* Copy commit c (its four keys, its epoch in decimal, its snapshot as stored z, zlen) into
 * the batch call in dh_script_commit_batch's format: its place in the batch; -2 when the
 * call cannot take it (another worker's: it goes alone), -1 when out of memory. */
int store_batch_commit(store *s, const store_commit *c, const char *const keys[4],
                       const char *epoch, const uint8_t *z, size_t zlen);
/* The commands to send (into sent, *nsent of them; s->ncmds room): every command as it is,
 * and the batch call, formatted (owned by the caller: dh_redis_format_free), where the last
 * batched commit stood (sent[*batch_at]; SIZE_MAX when none); where[k]: the index in sent
 * of command k's reply. -1 when out of memory. */
int store_batch_plan(store *s, dh_redis_cmd *sent, size_t *where, size_t *nsent, size_t *batch_at);
/* Command k's reply, from r, the reply its sent command got: element batch of it, when k
 * was batched (batch >= 0), the first when it went alone (STORE_BATCH_ALONE), else r
 * itself. Borrowed from r. */
redisReply *store_batch_reply(redisReply *r, long batch);
/* --fence-per-turn: learn from the batch call's reply r (NULL: none) the token
 * worker:{W}:moves holds and which matches were the worker's under it. */
void store_batch_learn(store *s, const redisReply *r);
void store_batch_reset(store *s);
void store_batch_free(store *s);

#endif
