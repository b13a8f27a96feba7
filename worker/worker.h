/*
 * worker.h: the worker's process state, one struct passed down from main.c: the host
 * (its sockets, the Redis store, the bundles, the table of hosted matches, the outputs
 * held on the current batch, the counters /metrics shows) and what a hosted match holds.
 * Only types live here; host.h says what the host does with them, and every module of the
 * worker stands on this file.
 */
#ifndef DECKHAND_WORKER_WORKER_H
#define DECKHAND_WORKER_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_ops.h"
#include "dh_zmq.h"
#include "engine.h"
#include "internal.pb-c.h"
#include "store.h"

#define HOST_ID_MAX        128
#define HOST_REPLIES       64 /* remembered replies per seat, for retried cmd_ids */
#define HOST_REPLIES_FIRST 4  /* ...in a ring that starts this small and doubles up to it */
#define HOST_SEATS_MAX     16
#define HOST_OPTIONS_MAX   256 /* a match's options as text, "name=value;name=value" */
#define HOST_BOT_MAX       32  /* a bot strategy's name */
/* A seat whose decision waits this long without any gateway having attached its player
 * (a MatchAssigned or MatchMoved that reached nobody) counts as away: its grace period
 * starts, so the match cannot wait on it forever. */
#define HOST_ATTACH_MS 10000
/* Quarantine (host_timers.c): the worker's own answer (a timer's, or the bot's for an
 * absent seat) that fails in a card script is tried again after HOST_RETRY_MS; after
 * host.quarantine_after failures in a row the match ends with DH_END_SCRIPT_ERROR. */
#define HOST_RETRY_MS         1000
#define HOST_QUARANTINE_AFTER 3
/* The idle cap: a decision nobody answered for this long (30 min) forfeits its seat, whatever
 * the queue's timers and abandon setting, so that no match runs for good (issue 15): a
 * connected client that never answers, in a queue without timers, would hold it open. */
#define HOST_IDLE_MS (30ULL * 60 * 1000)
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
    struct host_seen *seen; /* what its connection was last shown (host_view.c); NULL: nothing */
    uint64_t view_seq;      /* the number of the last View or ViewDelta sent to the seat */
    char bot[HOST_BOT_MAX]; /* a bot seat (bot fill): the engine plays it inline, or the
                               worker for "search" (host_timers.c); "" for a player */
    bool removed;           /* an operator took the player out (host_admin.c): no return */
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
    uint64_t epoch;        /* our ownership epoch (match:{ID}.epoch) for fenced writes */
    uint64_t answers;      /* accepted answers since the start (the history's length) */
    host_settings set;
    char mode[64];
    uint64_t decision_id;  /* the pending decision the timers below belong to */
    uint64_t decision_ms;  /* when it was first put to its seat */
    uint64_t turn_version; /* the snapshot version the turn timer belongs to */
    uint64_t turn_ms;      /* when that turn started (or we got the match) */
    int forfeit_seat;      /* -1, or the seat that forfeited (the match is over) */
    bool quarantined;      /* ended for script failures (the match is over) */
    bool idle;             /* forfeit_seat forfeited at the idle cap (HOST_IDLE_MS) */
    char admin_end[HOST_ADMIN_REASON_MAX]; /* set: an operator ended it (the match is over) */
    char admin_ask[HOST_ADMIN_REASON_MAX]; /* set: an operator asked; done when not busy */
    uint32_t script_failures;  /* the worker's own answers that failed in a row (in Redis) */
    uint64_t retry_ms;         /* no answer of the worker's own before this time */
    bool notes_due;            /* host_persist_notes has news to write (host_tick does) */
    bool counted_ahead;        /* script_failures counts the next default answer already */
    bool busy;                 /* a write of the current batch is in flight */
    bool started;              /* MatchStarted ok was sent */
    struct bundles_entry *pin; /* the bundle it runs on, when the host follows bundles */
    uint64_t started_ns;       /* dh_now_ns at its start here; 0 when adopted (untimed) */

    char options[HOST_OPTIONS_MAX]; /* its game options (StartMatch.options), "" = defaults */
    bool unrated;                   /* bot-filled: no rating job at the end */
    struct spectate_match *watch;   /* its watchers and frames (spectate.h); NULL: none */
} host_match;

/* HOST_ACT_END: the match ends without an answer (a forfeit, a quarantine). */
typedef enum { HOST_ACT_START, HOST_ACT_CHOOSE, HOST_ACT_END } host_act_kind;

/* Outputs held until the batch's writes are acknowledged. */
typedef struct {
    host_act_kind kind;
    host_match *hm;
    int op; /* store op, -1 when it could not even start */
    int seat;
    uint64_t cmd_id;
    char route[DH_ZMQ_ID_MAX + 1];
    uint64_t recv_ns; /* a player's command: when the worker received it (0: not timed) */
} host_action;

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
    struct replays *rp; /* replays served to players (replay.h); NULL: refused UNAVAILABLE */
    store *st;
    uint32_t capacity;
    uint32_t quarantine_after; /* failures in a row that end a match (HOST_QUARANTINE_AFTER) */
    uint64_t idle_ms; /* a decision unanswered this long forfeits its seat (HOST_IDLE_MS) */
    host_match **matches;
    size_t nmatches, capmatches;
    host_action *acts;
    size_t nacts, capacts;
    host_stats stats;
    uint64_t cmd_recv_ns; /* the command being handled: its receipt (worker_control.c) */
    size_t search_next;   /* host_tick starts at this match: the one after its last search */
    uint64_t now_ms;      /* the clock of the host call being worked (its now_ms): what a
                             decision's time_left_ms counts from (host_time_left_ms) */
    bool drain_asked;     /* the admin API asked this worker to drain: it stops as on SIGTERM */
    struct spectate_set *spect; /* watchers of its matches (spectate.h); NULL: none taken */
} host;

#endif
