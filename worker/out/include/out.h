/*
 * out.h: the front door of the worker's out wing (worker/out/): everything a seat or a
 * watcher is sent, and what the worker tells the matchmaker, named out_*.
 *
 * It also holds the worker's process state (host, host_match, host_seat: one struct passed
 * down from main.c), because out is the lowest wing that reads it: a seat's route and
 * player, the host's sockets. What each wing keeps for itself stays private to it: the
 * actions held on a batch (host/host_internal.h), what a seat was last shown (out_view.c),
 * the watchers and their frames (out_watch.c). host.h says what the host does with the
 * state.
 *
 * Files: out_send.c (one ServerMessage to one player, as a PlayerOutput that says whether
 * it carries a Reply or a GameOver; control messages to the matchmaker), out_batch.c (the
 * turn's outputs per gateway), out_pack.c (the answer's messages packed by hand into it),
 * out_seat.c (a seat's Replies, events, decisions, resync, released answers and GameOvers),
 * out_view.c (full Views and ViewDeltas), out_watch.c (watchers and their delayed frames). Nothing
 * here decides when: the host releases outputs only once Redis holds what they show
 * (host.h).
 */
#ifndef DECKHAND_WORKER_OUT_H
#define DECKHAND_WORKER_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_ops.h"
#include "dh_table.h"
#include "dh_zmq.h"
#include "engine.h"
#include "internal.pb-c.h"
#include "store.h"

/* Bytes kept from one packing for a later message (out_pack.c, out_state). */
typedef struct {
    uint8_t *p;
    size_t len, cap;
} out_bytes;

#define HOST_ID_MAX        128
#define HOST_REPLIES       64 /* remembered replies per seat, for retried cmd_ids */
#define HOST_REPLIES_FIRST 4  /* ...in a ring that starts this small and doubles up to it */
#define HOST_SEATS_MAX     16
#define HOST_OPTIONS_MAX   256 /* a match's options as text, "name=value;name=value" */
#define HOST_BOT_MAX       32  /* a bot strategy's name */
/* "admin: " and an operator's reason (host_admin.c) */
#define HOST_ADMIN_REASON_MAX 224

typedef struct host_seen host_seen;

typedef struct {
    uint64_t cmd_id; /* 0: empty slot */
    int code;
    char *text; /* the error's text (owned), NULL when empty: most replies are ok */
} host_reply;

typedef struct {
    char player_id[HOST_ID_MAX];
    char name[HOST_ID_MAX];
    char route[DH_ZMQ_ID_MAX + 1]; /* gateway identity; empty until the player attaches */
    host_reply *replies;           /* the ring (owned), NULL until the first reply */
    unsigned nreplies;             /* its size: HOST_REPLIES_FIRST .. HOST_REPLIES */
    unsigned next_reply;
    uint64_t top_cmd;       /* the highest cmd_id taken from the player, through any gateway */
    uint64_t away_ms;       /* when its gateway said the connection dropped; 0 while present */
    bool robot;             /* the grace period ran out: a bot plays the seat until it returns */
    struct host_seen *seen; /* what its connection was last shown (out_view.c); NULL: nothing */
    uint64_t view_seq;      /* the number of the last View or ViewDelta sent to the seat */
    char bot[HOST_BOT_MAX]; /* a bot seat (bot fill): the engine plays it inline, or the
                               worker for "search" (host_timers.c); "" for a player */
    bool removed;           /* an operator took the player out (host_admin.c): no return */
    bool resigned;          /* the player resigned (host_resign.c): removed too, a bot plays on */
} host_seat;

/* A queue's settings (internal.proto QueueSettings); 0 turns a timer off. */
typedef struct {
    uint32_t grace_ms, decision_ms, turn_ms;
    bool forfeit; /* after the grace period: forfeit the seat instead of a bot playing it */
    char bot[HOST_BOT_MAX]; /* the queue's bot for away seats: "search", else the game's */
} host_settings;

typedef struct {
    char id[HOST_ID_MAX];
    char game[HOST_ID_MAX];
    engine_match *m;
    host_seat *seats;
    int nseats;
    uint64_t snap_version; /* last snapshot version Redis holds */
    uint64_t snap_writing; /* the version the write in flight carries a snapshot of; 0: none */
    /* a write of it failed without a known outcome (it may have run): its next commit asks
     * Redis to check its answer is not in already (store_commit.recheck) */
    bool commit_unsure;
    /* Redis holds its snapshot behind the tail head (--log-in-history, dh_snapz.h): its
     * answers go on the history alone. Set once such a snapshot landed (or adoption read
     * one); cleared when a snapshot without it is sent, as an answer written on the log
     * too is right in either layout. */
    bool tail;
    bool tail_writing; /* the snapshot in flight has the tail head */
    uint64_t epoch;    /* our ownership epoch (match:{ID}.epoch) for fenced writes */
    uint64_t answers;  /* accepted answers since the start (the history's length) */
    host_settings set;
    char mode[64];
    uint64_t decision_id;  /* the pending decision the timers below belong to */
    uint64_t decision_ms;  /* when it was first put to its seat */
    uint64_t turn_version; /* the snapshot version the turn timer belongs to */
    uint64_t turn_ms;      /* when that turn started (or we got the match) */
    int forfeit_seat;      /* -1, or the seat that forfeited (the match is over) */
    bool resign_end;       /* forfeit_seat resigned (Resign), which ended the match */
    bool quarantined;      /* ended for script failures (the match is over) */
    bool idle;             /* forfeit_seat forfeited at the idle cap (HOST_IDLE_MS) */
    char admin_end[HOST_ADMIN_REASON_MAX]; /* set: an operator ended it (the match is over) */
    char admin_ask[HOST_ADMIN_REASON_MAX]; /* set: an operator asked; done when not busy */
    uint32_t script_failures;  /* the worker's own answers that failed in a row (in Redis) */
    uint64_t retry_ms;         /* no answer of the worker's own before this time */
    bool notes_due;            /* host_persist_notes has news to write (host_tick does) */
    bool counted_ahead;        /* script_failures counts the next default answer already */
    bool stalled;              /* its last worker died stuck in its script (DH_F_STALLED) */
    bool busy;                 /* a write of the current batch is in flight */
    bool started;              /* MatchStarted ok was sent */
    struct bundles_entry *pin; /* the bundle it runs on, when the host follows bundles */
    int trial;                 /* 0, or 1 + its side (dh_trial.h) in its game's canary trial */
    bool trial_erred;          /* its script error counts in the trial already */
    char trial_sha[65];        /* the canary whose trial counts it */
    uint64_t started_ns;       /* dh_now_ns at its start here; 0 when adopted (untimed) */

    char options[HOST_OPTIONS_MAX]; /* its game options (StartMatch.options), "" = defaults */
    bool unrated;                   /* bot-filled: no rating job at the end */
    struct out_watch_match *watch;  /* its watchers and frames (out_watch.c); NULL: none */
    /* an undo asked in rated play (host/host_undo.c): by undo_seat at undo_ms, awaiting
     * the seats of the undo_waiting bits */
    bool undo_asked;
    int undo_seat;
    uint32_t undo_waiting;
    uint64_t undo_ms;
} host_match;

/* What /metrics shows (main.c registers them; docs/OPERATIONS.md lists them). */
typedef struct {
    dh_counter answers;               /* answers accepted and stored (players and timers) */
    dh_counter default_answers;       /* answered by the default bot: timers, away seats */
    dh_counter search_answers;        /* ...of which by the search bot (a queue's bot=search) */
    dh_counter refused[DH_OPS_CODES]; /* Replies with an error, by code */
    dh_counter adoptions;             /* matches adopted from a dead worker */
    dh_counter fenced;                /* writes refused by the epoch fence */
    dh_counter lost;                  /* matches dropped: another worker owns them now */
    dh_counter batches;               /* Redis pipelines flushed with held outputs */
    dh_counter batch_failures;        /* ...of which some write failed (not fenced) */
    dh_counter script_failures;       /* the worker's own answers that failed in a script */
    dh_counter quarantined;           /* matches ended for failing again and again */
    dh_counter rated;                 /* finished matches whose ratings this worker moved */
    dh_histogram command_seconds;     /* a player's command: receipt to answer persisted */
    dh_histogram redis_seconds;       /* a pipeline flushed: its Redis round trip */
    dh_family finished;               /* matches finished here, by game */
    dh_family duration;               /* their length (start to finish), by game */
    dh_gauge capacity;                /* --capacity, for utilisation (active / capacity) */
} host_stats;

typedef struct {
    const char *worker_id;
    const char *endpoint;
    void *router; /* data path: gateways */
    void *dealer; /* control path: the matchmaker */
    engine_bundle *bundle;
    struct bundles *bs; /* NULL: every match runs on bundle */
    struct replays *rp; /* replays served to players (worker.h); NULL: refused UNAVAILABLE */
    store *st;
    uint32_t capacity;
    uint32_t quarantine_after; /* failures in a row that end a match (HOST_QUARANTINE_AFTER) */
    uint32_t snap_every;      /* turn boundaries between snapshots in Redis (HOST_SNAPSHOT_EVERY) */
    bool log_in_history;      /* snapshots with the tail head (--log-in-history, dh_snapz.h) */
    uint64_t idle_ms;         /* a decision unanswered this long forfeits its seat (HOST_IDLE_MS) */
    uint32_t stall_ms;        /* a script call running this long is marked (HOST_STALL_MS) */
    struct host_stall *stall; /* the stall watcher (host/host_stall.c); NULL: none */
    host_match **matches;
    size_t nmatches, capmatches;
    dh_table by_id;           /* match id -> one of matches (host/host_index.c) */
    bool by_id_partial;       /* an insert failed (out of memory): matches is searched instead */
    struct host_action *acts; /* held on the batch (host/host_internal.h) */
    size_t nacts, capacts;
    host_stats stats;
    uint64_t cmd_recv_ns; /* the command being handled: its receipt (worker_control.c) */
    size_t search_next;   /* host_tick starts at this match: the one after its last search */
    uint64_t now_ms;      /* the clock of the host call being worked (its now_ms): what a
                             decision's time_left_ms counts from (out_time_left_ms) */
    bool drain_asked;     /* the admin API asked this worker to drain: it stops as on SIGTERM */
    /* How far this host's wall clock (host_wall_ms) runs ahead of the machine's: 0, but in a
     * unit test, which moves it to let wall time pass between workers without sleeping. */
    uint64_t wall_ahead_ms;
    struct out_watch_set *spect; /* watchers of its matches (out_watch.c); NULL: none */
    struct out_batch *batch;     /* this turn's outputs by gateway (out_batch.c); NULL: none */
    /* out_state: the decider's DecisionRequest as its View or ViewDelta carried it, kept
     * while keep_decision is set (out_pack.c) so the DecisionRequest sent on its own is
     * not packed again */
    out_bytes kept_decision;
    bool keep_decision;
} host;

/* ---- outputs gathered per gateway (out_batch.c) ------------------------------------- */

/* Append to the batch of the gateway at route a PlayerOutput to player_id about
 * match_id ("" for none) carrying kind: sm packed there (out_pack.c), or when sm is NULL
 * the len bytes of an already packed ServerMessage at msg. -1 when that gateway was found
 * gone (dropped), else the ServerMessage's packed size (0 when out of memory, logged). */
ptrdiff_t out_batch_put(host *h, const char *route, const char *player_id, const char *match_id,
                        Deckhand__Internal__PlayerOutput__Kind kind,
                        const Deckhand__ServerMessage *sm, const uint8_t *msg, size_t len);
/* Send every gateway's batch, one message each: at the end of every release of outputs
 * and of every loop turn. */
void out_flush(host *h);
/* A message came from route: a gateway found gone is there again. */
void out_batch_heard(host *h, const char *route);
void out_batch_free(host *h);

/* ---- the answer's messages packed by hand (out_pack.c) ----------------------------- */

/* Where out_pack_* write: from p up to end. A write that does not fit sets full and
 * stops; the caller then makes room and packs again. */
typedef struct {
    uint8_t *p, *end;
    bool full;
    size_t msg_len;  /* the packed ServerMessage's size, set by out_pack_output */
    out_bytes *keep; /* when set: a View's or ViewDelta's DecisionRequest is copied there */
} out_writer;

/* sm's bytes, the same as deckhand__server_message__pack's: a Reply, Event,
 * DecisionRequest, View or ViewDelta written by hand, any other body by protobuf-c. */
void out_pack_server(out_writer *w, const Deckhand__ServerMessage *sm);
/* A PlayerOutput's fields carrying sm packed (or, sm NULL, the len bytes at msg). */
void out_pack_output(out_writer *w, const char *player_id, const char *match_id,
                     Deckhand__Internal__PlayerOutput__Kind kind, const Deckhand__ServerMessage *sm,
                     const uint8_t *msg, size_t len);
/* The same as a length-delimited field of the message around it (PlayerOutputs.outputs). */
void out_pack_item(out_writer *w, unsigned field, const char *player_id, const char *match_id,
                   Deckhand__Internal__PlayerOutput__Kind kind, const Deckhand__ServerMessage *sm,
                   const uint8_t *msg, size_t len);

/* ---- to one player, to the matchmaker (out_send.c) --------------------------------- */

/* Send one packed ServerMessage (len bytes at msg) to player_id through the gateway at
 * route, as a PlayerOutput about match_id ("" for none) that says it carries kind. -1 when that
 * gateway is gone (EHOSTUNREACH: not an error, the player resyncs when it comes back), else 0
 * (another failure is logged). */
int out_send_packed(host *h, const char *route, const char *player_id, const char *match_id,
                    Deckhand__Internal__PlayerOutput__Kind kind, const uint8_t *msg, size_t len);
/* Send one ServerMessage to a player through the gateway at route ("" or NULL: dropped).
 * Its packed size (0 when dropped before packing). */
size_t out_send(host *h, const char *route, const char *player_id,
                const Deckhand__ServerMessage *sm);
/* A Reply to cmd_id: ok when code is 0, else the error code and text. */
void out_reply(host *h, const char *route, const char *player_id, uint64_t cmd_id, int code,
               const char *text);

/* One control message to the matchmaker: msg, the message of oneof case body, wrapped as an
 * Internal. 0, or -1 (errno) when it could not be sent. */
int out_control_send(host *h, Deckhand__Internal__Internal__BodyCase body, void *msg);
/* The same, a failure logged (at most once per DH_LOG_EVERY_MS). */
void out_control(host *h, Deckhand__Internal__Internal__BodyCase body, void *msg);
/* MatchStarted: the match is set up (ok) or refused (error). */
void out_match_started(host *h, const char *match_id, bool ok, const char *error);

/* ---- a seat's outputs (out_seat.c) -------------------------------------------------- */

/* A seat's memory of its last HOST_REPLIES outcomes, for retried cmd_ids. An error's text
 * is copied (its first 79 bytes). */
void out_remember(host_seat *s, uint64_t cmd_id, int code, const char *text);
const host_reply *out_recall(const host_seat *s, uint64_t cmd_id);
/* Free the seat's memory of replies. */
void out_forget(host_seat *s);
/* Every event the engine made since the last drain, to the seats attached now (and the
 * public ones to the watchers' next frame). */
void out_events(host *h, host_match *hm);
/* The pending decision, to its seat only (nothing when another seat decides). */
void out_decision(host *h, host_match *hm, int seat);
/* The same from h->kept_decision when the seat's View or ViewDelta just carried it
 * (out_state), else built as out_decision does. */
void out_decision_kept(host *h, host_match *hm, int seat);
/* The Catalog of hm's bundle to a player (before its first View, or a watcher's frames). */
void out_catalog(host *h, host_match *hm, const char *route, const char *player_id);
/* A Resync of seat: its Reply (cmd_id 0: none), then events, a full View and the
 * decision. */
void out_resync(host *h, host_match *hm, int seat, uint64_t cmd_id);
/* An answer of seat Redis now holds: the Reply to the command that gave it (cmd_id 0: a
 * timer or a bot, nobody to reply to; else remembered for retries of cmd_id) through
 * route, then what the match shows now (out_state). */
void out_answer(host *h, host_match *hm, int seat, uint64_t cmd_id, const char *route);
/* hm is over and Redis has its result (res: n rows, reason "" when by the rules): every
 * seat's GameOver, the watchers' last frame, and MatchEnded to the matchmaker. */
void out_finish(host *h, host_match *hm, const engine_result *res, size_t n, const char *reason,
                uint64_t now_ms);
/* ---- the end screen's data in a GameOver (out_end.c) ----------------------------------
 * Shared by the seats' GameOver (out_finish) and a replay's last frame (worker/replay.c),
 * so both say the same. */
#define OUT_END_SUMMARY_MAX 320
#define OUT_END_DECK_MAX    96 /* distinct cards on one seat's end-screen deck */
typedef struct {
    const char *const *names; /* display names by seat */
    int nseats;
    int forfeit_seat;   /* the seat whose forfeit or resignation ended it, -1 none */
    const char *reason; /* GameOver.reason: "" the rules ended it, else a DH_END_* */
    const char *rules;  /* the rules' words for their end (engine_match_end_summary) */
} out_end_why;
/* Why the match ended and who won, in words a player reads, into buf: the reason's words
 * (a resignation, a forfeit, a quarantine, an operator, the turn cap) or the rules' own,
 * then the winners ("Ann wins.", "Ann and Bob share the win.", "It's a draw."). */
void out_end_summary(const out_end_why *w, const engine_result *res, size_t n, char *buf,
                     size_t cap);
/* Seat's deck for the end screen (a deck-builder's; none for the board games) into dc and
 * dcp (room for OUT_END_DECK_MAX): how many. Strings borrowed from m's bundle. */
size_t out_end_deck(const engine_match *m, int seat, Deckhand__DeckCount *dc,
                    Deckhand__DeckCount **dcp);
/* GameOver.unrated: no rating moves (unrated: against bots or bot-filled; the reason a
 * quarantine or an operator's end; or not every seat of ids[0..n) a distinct account, as
 * the rater's rule, rater_job, has it). */
bool out_end_unrated(bool unrated, const char *reason, const char *const *ids, int n);

/* An operator removed the player of s (admin: reason): its GameOver, without results. */
void out_removed(host *h, host_match *hm, const host_seat *s, const char *reason);
/* How long, from now_ms, until the worker answers hm's pending decision for its seat or
 * forfeits it (DecisionRequest.time_left_ms): the decision timer, the rest of the turn
 * timer or the idle cap, whichever ends first, by the rules host_tick (host_timers.c)
 * applies; at least 1 once due; 0 when nothing is pending or no limit applies. */
uint32_t out_time_left_ms(const host *h, const host_match *hm, uint64_t now_ms);

/* ---- views (out_view.c) ------------------------------------------------------------- */

/* A full View of the match to seat (attach, Resync, a new bundle). */
void out_view(host *h, host_match *hm, int seat);
/* What changed for seat since its last View: a ViewDelta, or a full View when the seat has
 * none to build on or the match changed shape (zones or counters came or went). */
void out_update(host *h, host_match *hm, int seat);
/* Events, every attached seat's update, then the decider's request. */
void out_state(host *h, host_match *hm);
/* Forget what seat was shown (its connection changed): its next update is a full View,
 * with the Catalog before it. */
void out_view_forget(host_seat *s);

/* ---- watchers (out_watch.c) ----------------------------------------------------------
 *
 * Watchers of the matches a worker hosts (docs/worker.md, "Spectators").
 *
 * A watcher is a player who is not seated in a match and asked its gateway to watch it
 * (PlayerCommand.spectate). Per watched match the worker keeps its watchers (player id and
 * the gateway identity to send through, at most --max-spectators) and a queue of
 * SpectatorFrames. After each batch that changed the match (and when a watcher attaches
 * while no frame is queued) ONE frame is built: the public View (engine_match_view with
 * ENGINE_SEAT_PUBLIC: no hand, no deck order, no decision) and the public events since the
 * last frame (engine_event.everyone, never a g:log_to). It is queued, packed, with a
 * release time of now + --spectator-delay-ms; out_watch_tick sends the frames that are due
 * to every watcher of the match, the same bytes to each. The last frame carries GameOver;
 * once it is out the match's watchers are forgotten.
 *
 * Costs: a match nobody watches pays one NULL test per batch and per event
 * (host_match.watch); a watched one pays one public View and one pack per batch, whatever
 * its number of watchers, and one send per watcher per frame. The queued bytes of one
 * match are bounded (OUT_WATCH_QUEUE_BYTES): past it the oldest queued frames go (each
 * frame is a whole View, so a watcher only skips ahead; their events are lost).
 *
 * A watcher whose gateway is gone (EHOSTUNREACH) is dropped. Its watchers, frames and queue
 * are out_watch.c's own; the rest of the worker sees only hm->watch (NULL: nobody watches)
 * and the counters below.
 */

#define OUT_WATCH_MAX_DEFAULT   32    /* --max-spectators */
#define OUT_WATCH_DELAY_DEFAULT 10000 /* --spectator-delay-ms */
#define OUT_WATCH_MAX_LIMIT     10000
#define OUT_WATCH_DELAY_LIMIT   3600000
#define OUT_WATCH_QUEUE_BYTES   (1u << 20) /* queued frame bytes per match */

/* The watchers' counters (/metrics). */
typedef struct {
    dh_gauge spectators; /* watchers now, over every match */
    dh_counter frames;   /* SpectatorFrames sent (one per watcher per frame) */
    dh_counter dropped;  /* frames dropped unsent past the queue's bound */
} out_watch_stats;

/* Watchers for h: at most max per match, frames delay_ms behind. h->spect is the set;
 * without one (tests of other parts) every hook is a no-op and Spectate is UNAVAILABLE.
 * 0, or -1 out of memory. */
int out_watch_init(host *h, uint32_t max, uint64_t delay_ms);
/* Forget every watcher and frame (after host_free). */
void out_watch_free(host *h);

/* PlayerCommand.spectate or .spectate_stop from the gateway at identity; hm is the match
 * of that id hosted here, or NULL. Spectate: Catalog then Reply ok and a frame of now
 * queued (unless one is queued already); UNKNOWN_MATCH (not here, not started), BAD_REQUEST (seated
 * in it), FULL. A repeated Spectate of a watcher moves it to identity. SpectateStop: the watcher
 * goes when it came through identity; no Reply for cmd_id 0. */
void out_watch_command(host *h, host_match *hm, const char *identity,
                       const Deckhand__Internal__PlayerCommand *pc, uint64_t now_ms);
/* One drained event of hm (call only when hm->watch): kept when public. */
void out_watch_event(host_match *hm, const engine_event *ev);
/* A batch changed hm (call only when hm->watch): one frame queued. */
void out_watch_changed(host *h, host_match *hm, uint64_t now_ms);
/* hm is over (call only when hm->watch): its last frame, with go, queued. */
void out_watch_over(host *h, host_match *hm, const Deckhand__GameOver *go, uint64_t now_ms);
/* hm leaves this worker (call only when hm->watch): after out_watch_over its frames still
 * go out; otherwise (another worker has it) its watchers and frames are forgotten. */
void out_watch_gone(host *h, host_match *hm);
/* Send every frame that is due; forget matches with no watchers left or all sent. */
void out_watch_tick(host *h, uint64_t now_ms);
/* One ServerMessage to every watcher of hm now, at once (not a frame: a chat line, which
 * watchers only read); a watcher whose gateway is gone goes. */
void out_watch_send(host *h, host_match *hm, const Deckhand__ServerMessage *sm);
/* Watchers of hm now. */
size_t out_watch_count(const host_match *hm);
/* The watchers' counters; NULL without watchers (out_watch_init not called). */
out_watch_stats *out_watch_stats_of(host *h);

#endif
