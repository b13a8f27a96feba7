/*
 * dh_keys.h: the Redis contract, in one place. Every key, hash field, status value and
 * server-side script any process or `deckhand` reads or writes is named here; no other
 * file spells a key. docs/redis.md ("Redis keys") tables the same layout.
 *
 *   match:{ID}               hash   the match: DH_F_* fields below (worker + epoch fence it)
 *   match:{ID}:snap          string engine snapshot at the last turn boundary; behind
 *                                   the tail head (dh_snapz.h: --log-in-history) it names
 *                                   the history's index its log starts at
 *   match:{ID}:log           list   encoded answers accepted since that snapshot; not read
 *                                   when the snapshot has the tail head
 *   match:{ID}:history       list   every accepted answer since the start (replays)
 *   match:{ID}:bundles       list   bundle moves, "OLD NEW SNAPVERSION HISTLEN"
 *   match:{ID}:result        string a finished match's compact result (DH_RESULT_FIELDS),
 *                                   kept DECKHAND_RESULT_RETENTION_S after the rest expired
 *   matches:running          hash   match id -> the worker that owns it (an index: see below)
 *   matches:finished         list   ids of finished matches, newest first (an index)
 *   worker:{ID}              string the worker's data endpoint, with a TTL (its liveness)
 *   worker:{ID}:adopt        set    match ids the worker must adopt (takeover)
 *   worker:{ID}:moves        string a token the worker's commit batch writes when it is
 *                                   missing (fresh each time, TTL DH_MOVES_TTL_S) and the
 *                                   takeover deletes with each move of one of its matches: a
 *                                   worker with --fence-per-turn skips a match's fence while
 *                                   the token it last saw the match owned under is there
 *   worker:{ID}:bundles      hash   SHA -> live matches, for every bundle it has loaded
 *   bundle:{SHA}             hash   one field per *.lua file, plus DH_F_BUNDLE_* meta
 *   bundle:{SHA}:errors      hash   worker id -> why it could not load the bundle
 *   bundle:{SHA}:trial       hash   a canary's trial against the current bundle (dh_trial.h)
 *   bundles                  set    every stored SHA
 *   bundle:current:{GAME}    string the SHA new matches of GAME start on
 *   bundle:history:{GAME}    list   the SHAs current has pointed at, newest first: "SHA"
 *                                   (a push or promote), "SHA rollback" or "default
 *                                   rollback" (a rollback returned to it); never popped
 *   bundle:canary:{GAME}     string "PCT SHA": SHA takes PCT% of GAME's new matches
 *   bundle:audit:{GAME}      stream every push, apply, canary, promote, abort and rollback
 *                                   of GAME: DH_AUDIT_* fields; never trimmed
 *   mm:{mm}:lease            string the id of the matchmaker allowed to act (PX)
 *   mm:{mm}:tickets          hash   player id -> TicketRecord (the waiting queue)
 *   mm:{mm}:placements       hash   match id -> PlacementRecord (StartMatch in flight)
 *   mm:{mm}:parties          hash   party code -> PartyRecord (the parties of the acting
 *                                   matchmaker, reloaded with the lease)
 *   mm:{mm}:lobbies          hash   lobby code -> LobbyRecord (the same for lobbies)
 *   matches:unrated          hash   match id -> rating job (written after the finishing
 *                                   commit; rater.h applies it once and deletes it)
 *   account:{NAME}           hash   a password account, NAME lowercased: DH_F_ACCOUNT_*
 *   account:fails:{NAME}     string login attempts in the current window (with a TTL)
 *   device:{DIGEST}          hash   a device account, by the hex BLAKE2b of its secret
 *   accounts:names           hash   account id -> display name (leaderboards, history)
 *   rating:{GAME}:{MODE}     hash   account id -> "MU SIGMA MATCHES" (dh_rating.h)
 *   leaderboard:{GAME}:{MODE} zset  account id scored by its ordinal mu - 3 sigma
 *   rated:{GAME}:{MATCH}     string "1" once MATCH moved GAME's ratings (TTL DH_RATED_TTL_S)
 *   history:{ACCOUNT}        list   the account's rated matches, newest first, capped at
 *                                   DH_HISTORY_MAX: DH_HISTORY_* fields, tab-separated
 *   audit:{admin}            stream every admin API action: DH_F_AUDIT_* fields (append
 *                                   only, never trimmed: docs/OPERATIONS.md, "Admin API")
 *
 * The braces are Redis Cluster hash tags (dh_slot.h): every script and transaction below
 * touches keys of one tag only, so it runs on one slot of a Redis Cluster. A match's keys
 * share {ID}; an account's {NAME}; a game's ratings, leaderboards and rated markers share
 * {GAME}; the matchmaker's state shares {mm} (one leader writes it). The keys without a tag
 * (matches:running, matches:finished, matches:unrated, accounts:names, bundles) are
 * indexes, each in its own slot, written by single-key commands after the script that
 * made their truth, and idempotent so that a step retried after a crash is harmless:
 *   a finish: dh_script_commit_batch marks match:{ID} finished (and keeps its rating job in it);
 *     then HSET matches:unrated, dh_script_finished_push, HDEL matches:running (the
 *     worker retries them until they land; a worker that died first leaves its matches in
 *     matches:running, where the matchmaker's takeover finds them finished and does the
 *     same steps: dh_script_takeover answers "finished" with the job);
 *   a rating: dh_script_rate moves a game's ratings once per match (rated:{GAME}:{ID}),
 *     dh_script_history_push adds each seat's entry once, then match.rated and HDEL job.
 * Data of the earlier single-slot layout (mm:lease, mm:tickets, mm:placements) is not
 * migrated: a deployment upgrading loses its waiting queue once (players queue again).
 */
#ifndef DECKHAND_DH_KEYS_H
#define DECKHAND_DH_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* Every key fits in a buffer this long (ids are bounded far below it). */
#define DH_KEY_MAX 320

/* The shape of every key with an id, spelled once: the key builders below fill them with
 * "%s" (dh_keys.c), the Redis ACL of each role with "*" (dh_acl.c), so a user's key
 * patterns cannot drift from the keys the processes write. */
#define DH_KEY_MATCH_(id)             "match:{" id "}"
#define DH_KEY_MATCH_SNAP_(id)        DH_KEY_MATCH_(id) ":snap"
#define DH_KEY_MATCH_LOG_(id)         DH_KEY_MATCH_(id) ":log"
#define DH_KEY_MATCH_HISTORY_(id)     DH_KEY_MATCH_(id) ":history"
#define DH_KEY_MATCH_BUNDLES_(id)     DH_KEY_MATCH_(id) ":bundles"
#define DH_KEY_MATCH_RESULT_(id)      DH_KEY_MATCH_(id) ":result"
#define DH_KEY_WORKER_(id)            "worker:{" id "}"
#define DH_KEY_WORKER_ADOPT_(id)      DH_KEY_WORKER_(id) ":adopt"
#define DH_KEY_WORKER_MOVES_(id)      DH_KEY_WORKER_(id) ":moves"
#define DH_KEY_WORKER_BUNDLES_(id)    DH_KEY_WORKER_(id) ":bundles"
#define DH_KEY_BUNDLE_(sha)           "bundle:{" sha "}"
#define DH_KEY_BUNDLE_ERRORS_(sha)    DH_KEY_BUNDLE_(sha) ":errors"
#define DH_KEY_BUNDLE_TRIAL_(sha)     DH_KEY_BUNDLE_(sha) ":trial"
#define DH_KEY_BUNDLE_CURRENT_(game)  "bundle:current:{" game "}"
#define DH_KEY_BUNDLE_HISTORY_(game)  "bundle:history:{" game "}"
#define DH_KEY_BUNDLE_CANARY_(game)   "bundle:canary:{" game "}"
#define DH_KEY_BUNDLE_AUDIT_(game)    "bundle:audit:{" game "}"
#define DH_KEY_ACCOUNT_(name)         "account:{" name "}"
#define DH_KEY_ACCOUNT_FAILS_(name)   "account:fails:{" name "}"
#define DH_KEY_DEVICE_(digest)        "device:{" digest "}"
#define DH_KEY_HISTORY_(account)      "history:{" account "}"
#define DH_KEY_RATING_(game, mode)    "rating:{" game "}:" mode
#define DH_KEY_LEADERBOARD_(game, md) "leaderboard:{" game "}:" md
#define DH_KEY_RATED_(game, match)    "rated:{" game "}:" match
#define DH_KEY_MM_(what)              "mm:{mm}:" what

/* Keys with no id in them. */
#define DH_KEY_MATCHES_RUNNING  "matches:running"
#define DH_KEY_MATCHES_FINISHED "matches:finished"
#define DH_KEY_BUNDLES          "bundles"
#define DH_KEY_MM_LEASE         DH_KEY_MM_("lease")
#define DH_KEY_MM_TICKETS       DH_KEY_MM_("tickets")
#define DH_KEY_MM_PLACEMENTS    DH_KEY_MM_("placements")
#define DH_KEY_MM_PARTIES       DH_KEY_MM_("parties")
#define DH_KEY_MM_LOBBIES       DH_KEY_MM_("lobbies")
#define DH_KEY_WORKER_PATTERN   DH_KEY_WORKER_("*") /* SCAN MATCH: every worker:{ID} family key */
#define DH_KEY_MATCHES_UNRATED  "matches:unrated"
#define DH_KEY_ACCOUNT_NAMES    "accounts:names"

/* The pub/sub channel a change of a game's bundle pointers is announced on (the game's
 * name as the message), in the same transaction as the change (dh_liveops_commit); the
 * workers subscribe (worker/bundles: they read the pointers at once instead of at their
 * next poll). Not a key: no slot, and a Cluster's PUBLISH reaches every node. */
#define DH_CHANNEL_BUNDLES "bundles:announce"
#define DH_KEY_AUDIT_ADMIN "audit:{admin}"

/* Keys with an id: each writes the key into buf (DH_KEY_MAX bytes) and returns buf. */
char *dh_key_match(char *buf, const char *match_id);
char *dh_key_match_snap(char *buf, const char *match_id);
char *dh_key_match_log(char *buf, const char *match_id);
char *dh_key_match_history(char *buf, const char *match_id);
char *dh_key_match_bundles(char *buf, const char *match_id);
char *dh_key_match_result(char *buf, const char *match_id);
char *dh_key_worker(char *buf, const char *worker_id);
char *dh_key_worker_adopt(char *buf, const char *worker_id);
char *dh_key_worker_moves(char *buf, const char *worker_id);
char *dh_key_worker_bundles(char *buf, const char *worker_id);
char *dh_key_bundle(char *buf, const char *sha);
char *dh_key_bundle_errors(char *buf, const char *sha);
char *dh_key_bundle_trial(char *buf, const char *sha);
char *dh_key_bundle_current(char *buf, const char *game);
char *dh_key_bundle_history(char *buf, const char *game);
char *dh_key_bundle_canary(char *buf, const char *game);
char *dh_key_bundle_audit(char *buf, const char *game);
char *dh_key_account(char *buf, const char *lowercase_name);
char *dh_key_account_fails(char *buf, const char *lowercase_name);
char *dh_key_device(char *buf, const char *digest);
char *dh_key_history(char *buf, const char *account_id);
/* Keys of a (game, mode) pair. */
char *dh_key_rating(char *buf, const char *game, const char *mode);
char *dh_key_leaderboard(char *buf, const char *game, const char *mode);
/* rated:{GAME}:{MATCH}: the marker that MATCH moved GAME's ratings. */
char *dh_key_rated(char *buf, const char *game, const char *match_id);
/* How long a rated marker outlives its rating: a job retried later than this (no worker
 * swept for a week) would be applied twice. */
#define DH_RATED_TTL_S 604800

/* The comma-separated lists the contract keeps (match:{ID}'s DH_F_PLAYERS, DH_F_PLAYER_IDS,
 * DH_F_BOTS and DH_F_AWAY, a worker's match list), walked in place: nothing is copied.
 * dh_list_next gives the item at *cursor (its start and length, 0 for an empty item between
 * two commas) and moves *cursor past it and its comma; false at the end of the list. */
bool dh_list_next(const char **cursor, const char **item, size_t *len);
/* How many items csv holds: 0 for NULL or "". */
size_t dh_list_count(const char *csv);
/* The index of the item equal to name in csv, or -1. */
int dh_list_find(const char *csv, const char *name);

/* match:{ID}'s fields. */
#define DH_F_GAME        "game"
#define DH_F_BUNDLE      "bundle" /* the SHA (or embedded id) it runs on */
#define DH_F_WORKER      "worker" /* owner; with epoch, the fence */
#define DH_F_EPOCH       "epoch"  /* 1 at start, +1 per takeover */
#define DH_F_STATUS      "status" /* DH_STATUS_RUNNING or DH_STATUS_FINISHED */
#define DH_F_SEED        "seed"
#define DH_F_PLAYERS     "players"    /* names, comma-separated */
#define DH_F_PLAYER_IDS  "player_ids" /* ids, comma-separated, seat order */
#define DH_F_CREATED_MS  "created_ms"
#define DH_F_MODE        "mode" /* the queue's settings, from here ... */
#define DH_F_GRACE_MS    "grace_ms"
#define DH_F_DECISION_MS "decision_ms"
#define DH_F_TURN_MS     "turn_ms"
#define DH_F_ABANDON     "abandon"   /* ... to here */
#define DH_F_QUEUE_BOT   "queue_bot" /* the queue's bot: plays away seats ("" = the game's) */
#define DH_F_OPTIONS     "options"   /* game options "name=value;..." ("" = defaults) */
#define DH_F_BOTS        "bots"      /* per seat, comma-separated: a bot strategy, "" human */
/* The bot strategy of DH_F_BOTS whose seat the worker answers and logs (the engine's search
 * bot, ENGINE_SEARCH_BOT): a replay applies its answers like a player's. */
#define DH_BOT_SEARCH   "search"
#define DH_BOT_HARD     "hard"       /* the search bot as a difficulty (ENGINE_HARD_BOT) */
#define DH_F_UNRATED    "unrated"    /* "1": bot-filled, moves no rating */
#define DH_F_ENDED_MS   "ended_ms"   /* when finished */
#define DH_F_RESULT     "result"     /* JSON [{"seat","name","score","rank","turns"}] */
#define DH_F_FINAL_HASH "final_hash" /* 16 hex digits: the state hash at the end */
#define DH_F_END_REASON "end_reason" /* set when not the rules ended it: DH_END_* */
/* Kept across adoptions (the worker writes them as they change, fenced): */
#define DH_F_AWAY            "away" /* per seat, comma-separated: wall ms it left, 0 present */
#define DH_F_SCRIPT_FAILURES "script_failures" /* the worker's own answers failed in a row */
/* per seat, comma-separated: "1" an operator removed its player (admin API), "2" its
 * player resigned (a bot plays on, and it ranks last), "0" or missing neither; the
 * adopter keeps refusing the player and applies the abandon policy (a bot, for "2") */
#define DH_F_REMOVED "removed"
/* the epoch at which the owner's stall watcher saw one of the match's script calls run
 * past HOST_STALL_MS ("0" or missing: none, or the call returned): the worker that adopts
 * it ends it as DH_END_SCRIPT_ERROR without running it (worker/host/host_stall.c) */
#define DH_F_STALLED "stalled"
/* Set once the match's ratings, leaderboards and histories moved: never twice. */
#define DH_F_RATED "rated"
/* The finished match's rating job (rater.h), kept until it is rated. */
#define DH_F_RATING_JOB "rating_job"

/* account:{NAME} and device:{DIGEST} fields. */
#define DH_F_ACCOUNT_ID      "id"
#define DH_F_ACCOUNT_NAME    "name"   /* as registered (the key is lowercased) */
#define DH_F_ACCOUNT_PWHASH  "pwhash" /* crypto_pwhash_str: Argon2id with its parameters */
#define DH_F_ACCOUNT_CREATED "created_ms"

/* history:{ACCOUNT} entries: these fields in this order, tab-separated. */
#define DH_HISTORY_MAX 50
#define DH_HISTORY_FIELDS                                                                          \
    "match_id game mode bundle ended_ms place players ordinal_before ordinal_after opponents"

/* audit:{admin} entries' fields (XADD, in this order). */
#define DH_F_AUDIT_AT     "at_ms"  /* wall clock ms */
#define DH_F_AUDIT_WHO    "who"    /* the token's name */
#define DH_F_AUDIT_ACTION "action" /* end, remove, drain */
#define DH_F_AUDIT_TARGET "target" /* the match (and player) or worker */
#define DH_F_AUDIT_REASON "reason"
#define DH_F_AUDIT_STATUS "status" /* the HTTP status the API answered */
#define DH_F_AUDIT_DETAIL "detail" /* what it did, or why not */

#define DH_STATUS_RUNNING  "running"
#define DH_STATUS_FINISHED "finished"

/* match:{ID}.end_reason: the worker stopped the match after its own answers failed in a
 * card script DH_F_SCRIPT_FAILURES times in a row, or after one of its script calls
 * stalled its last worker to death (DH_F_STALLED) (quarantine; every rank is 0). */
#define DH_END_SCRIPT_ERROR "script_error"
/* ...or the match reached its game's turn cap (engine_match_turn_capped; scored by the
 * game's rules). */
#define DH_END_TURN_CAP "turn_cap"
/* ...or the seat that owed a decision left it unanswered past the worker's idle cap
 * (HOST_IDLE_MS), connected or not: that seat forfeits. */
#define DH_END_IDLE "idle"
/* ...or an operator ended it through the admin API (AdminEndMatch; every rank 0). */
#define DH_END_ADMIN "admin"
/* ...or a seat resigned (deckhand.Resign) where too few seats would play on: it ranks
 * last, the others share first place (worker/host/host_resign.c). */
#define DH_END_RESIGNED "resigned"

/* bundle:{SHA}'s meta fields (every other field is a *.lua file). */
#define DH_F_BUNDLE_LABEL            "label"
#define DH_F_BUNDLE_GAMES            "games"      /* comma-separated */
#define DH_F_BUNDLE_COMPATIBLE       "compatible" /* 0/1 */
#define DH_F_BUNDLE_CREATED_MS       "created_ms"
#define DH_F_BUNDLE_APPLY_TO_RUNNING "apply_to_running" /* 1 when pushed so */
#define DH_F_BUNDLE_TESTS_PREFIX     "tests:"           /* tests:GAME: the rules tests GAME runs */
/* worker:{ID}:bundles: beside SHA -> live matches, "started:SHA" -> matches started on it
 * since the worker loaded it. */
#define DH_F_WORKER_STARTED_PREFIX "started:"

/* bundle:audit:{GAME} entries' fields (`deckhand scripts audit`, common/dh_liveops.h). */
#define DH_AUDIT_ACTION   "action" /* push apply canary promote abort rollback */
#define DH_AUDIT_GAME     "game"
#define DH_AUDIT_BUNDLE   "bundle" /* the SHA the action is about, or "default" */
#define DH_AUDIT_LABEL    "label"
#define DH_AUDIT_GAMES    "games"  /* the bundle's games, comma-separated */
#define DH_AUDIT_TESTS    "tests"  /* rules tests the bundle runs for the game (-1 unknown) */
#define DH_AUDIT_FROM     "from"   /* the current bundle before the action, or "default" */
#define DH_AUDIT_PCT      "pct"    /* canary: its share of new matches */
#define DH_AUDIT_FORCED   "forced" /* 1: pushed with --force past the test-count guard */
#define DH_AUDIT_BY       "by"
#define DH_AUDIT_HOST     "host"
#define DH_AUDIT_REASON   "reason"
#define DH_AUDIT_SIMULATE "simulate" /* push --simulate N: what moved (scripts_compare.c) */
/* The bundle-name "default": the workers' embedded bundle (no pointer set). */
#define DH_BUNDLE_DEFAULT "default"

/* Server-side scripts (called by hash, EVALSHA: dh_script.h) and the error replies they
 * raise. */
#define DH_REPLY_FENCED    "FENCED"    /* the match has another owner or epoch */
#define DH_REPLY_NOTLEADER "NOTLEADER" /* mm:lease names another matchmaker */
#define DH_REPLY_STALE     "STALE"     /* a rating changed since it was read: read again */
#define DH_REPLY_TAKEN     "TAKEN"     /* the account name or device is registered already */

/* A worker's writes to running matches, one or many matches' commits of one worker in one
 * call (a single commit, on a Redis Cluster or of another worker than a loop turn's batch,
 * goes as a batch of one). Each commit is fenced on (worker, its epoch), then snapshot,
 * log, history and finish in one step. A finish with a rating job (worker/rater.h) keeps it
 * in the match (DH_F_RATING_JOB) unless the match was rated already (a retried finish) and
 * answers 2 (else 1); the indexes follow (see the top of this file). A commit flagged as
 * one that may repeat (kind 4) whose history entry is already the last one (a retry of one
 * that ran) writes nothing again; a first try is not checked. The format: its comment in
 * dh_keys.c (store_batch.c writes it).
 * KEYS: (--fence-per-turn) worker:{W}:moves, then match snap log history per commit (a
 * commit flagged as seen owned: [snap] log history, or in the tail layout [snap] history);
 * ARGV: worker, (with the moves key) the
 * trusted token and a fresh one, then per commit N and N arguments. The reply: an array,
 * per commit 1, 2 or its error, then (with the moves key) the token it holds and whether
 * it held the trusted one (1/0); a batch that fenced a match writes a fresh token. A commit
 * flagged as seen owned under the trusted token skips its fence while the key still holds
 * that token (the takeover deletes it). */
extern const char dh_script_commit_batch[];
/* How long worker:{ID}:moves lives once written (seconds): a worker's next batch after it
 * expired writes a fresh token and fences each match once again, so a worker gone leaves
 * nothing behind for long. */
#define DH_MOVES_TTL_S "86400"
/* A seat's answer taken back (worker/host/host_undo.c): fenced; the history's last entry
 * popped when it is the answer (a retry finds it gone and pops nothing more), then a new
 * snapshot (the turn's) and the log replaced by the answers since it, without the answer;
 * with a last argument "tail" the snapshot is stored behind the tail head instead
 * (dh_snapz.h: the log is the history's tail, from its length less nlog) and the log key
 * is not written. KEYS: match snap log history; ARGV: worker epoch entry snap nlog log...
 * [tail] */
extern const char dh_script_undo[];
/* LPUSH id onto matches:finished unless it is among the newest DH_FINISHED_DEDUP ids
 * already (a retried finish); the list is trimmed to max ids (0: not trimmed).
 * KEYS: matches:finished; ARGV: id max */
extern const char dh_script_finished_push[];
#define DH_FINISHED_DEDUP "256"
/* Retention of a finished match: its keys (state, log, history, bundle moves, the hash)
 * expire after retention_s, and match:{ID}:result keeps the compact result, expiring
 * after result_s (0: kept). Replays and reading a match work within the retention.
 * KEYS: match snap log history bundles result; ARGV: retention_s result_s */
extern const char dh_script_retire[];
/* The retention settings, from the environment: DECKHAND_RETENTION_S (a finished match's
 * keys; default 7 days, 0 keeps them), DECKHAND_RESULT_RETENTION_S (its compact result;
 * default 90 days, 0 keeps it), DECKHAND_FINISHED_MAX (ids in matches:finished; default
 * 100000, 0 unbounded). */
typedef struct {
    long retention_s, result_s, finished_max;
} dh_retention;
void dh_retention_env(dh_retention *out);
/* The compact result: these fields of match:{ID}, tab-separated. */
#define DH_RESULT_FIELDS "game mode players player_ids ended_ms final_hash end_reason result"
/* A worker records fields of a running match that are not its state (fenced): HSET of
 * each pair. KEYS: match; ARGV: worker epoch field value [field value...] */
extern const char dh_script_match_fields[];
/* A worker moves a running match to another bundle (fenced).
 * KEYS: match match_bundles; ARGV: worker epoch bundle note */
extern const char dh_script_move_bundle[];
/* The matchmaker moves a match from a dead worker to a live one: bumps the epoch (which
 * fences the old owner out) and names the new owner. Returns the new epoch; else
 * {"finished", rating_job or ""} when the match has finished, {"owner", worker} when it
 * runs on another worker than FROM, nil when it is gone. The caller then updates
 * matches:running and worker:{TO}:adopt (one slot per script: no lease check here; two
 * matchmakers racing cannot both move a match, the first bumps the epoch). With a second
 * key, worker:{FROM}:moves (a single Redis: another slot), it deletes that too, in the
 * same step, so that a worker fencing once per loop turn (--fence-per-turn) sees the move.
 * KEYS: match [worker:{FROM}:moves]; ARGV: from to */
extern const char dh_script_takeover[];
/* Renew mm:lease when it is ours; else return who holds it ("" when nobody).
 * KEYS: mm:lease; ARGV: id ttl_ms */
extern const char dh_script_lease_renew[];
/* Delete mm:lease when it is ours. KEYS: mm:lease; ARGV: id */
extern const char dh_script_lease_release[];
/* The leader's queue writes: ARGV holds triples (op, field, value), op "t+"/"t-" on
 * mm:tickets and "p+"/"p-" on mm:placements; refused unless mm:lease names the leader.
 * KEYS: mm:lease mm:tickets mm:placements; ARGV: leader triples... */
extern const char dh_script_mm_state[];
/* Apply one match's new ratings to a game's ratings and leaderboard, exactly once: nothing
 * (0) when the rated marker exists, else refused with STALE when any seat's rating is not
 * the one the new value was computed from; else every seat's rating and leaderboard
 * score, then the marker with its TTL (1).
 * KEYS: rating leaderboard rated; ARGV: n ttl_s, then per seat: id old_value new_value ordinal */
extern const char dh_script_rate[];
/* Add a history entry (it starts with the match id and a tab) unless the newest ones
 * hold it already, capped at max. KEYS: history; ARGV: match_id entry max */
extern const char dh_script_history_push[];
/* Create a password account unless the name is taken (TAKEN); the caller then records
 * the name in accounts:names. KEYS: account:{NAME}; ARGV: id name pwhash created_ms */
extern const char dh_script_account_create[];
/* The device's account: the existing one's "id\nname", or a new one made from the
 * arguments (the caller records the name in accounts:names).
 * KEYS: device:{DIGEST}; ARGV: id name created_ms */
extern const char dh_script_device_login[];
/* One password login attempt on NAME: counts it in a window of window_ms and returns
 * {attempts, id, name, pwhash} (false fields when there is no such account).
 * KEYS: account:{NAME} account:fails:{NAME}; ARGV: window_ms */
extern const char dh_script_login_attempt[];

#endif
