/*
 * host.h: the matches a worker hosts, the commands that drive them and the outputs they
 * release (docs/ARCHITECTURE.md flows 3-5).
 *
 * The rule this module exists to keep: nothing a command changed is shown to anyone
 * before Redis holds it. A command is applied to the engine at once (so the next
 * command of the same iteration sees its effect on validation) but its Reply, events,
 * views and decision are held as an action until host_flush has pipelined every write of
 * the iteration and Redis acknowledged them. A write that fails is undone in the engine
 * (engine_match_undo, one level) and answered UNAVAILABLE. Because undo is one level
 * deep, a match has at most one write in flight: a second command for a busy match
 * flushes the batch first.
 *
 * Ownership: every write is fenced by (worker id, epoch) in Redis (store.h). A write
 * refused as FENCED means the matchmaker gave the match to another worker: this worker
 * drops it and answers UNKNOWN_MATCH, and the gateway looks the match up again.
 *
 * Timers and absence (per queue, host_settings): a decision unanswered for decision_ms,
 * or any decision once the turn has lasted turn_ms, gets the game's default bot answer; a
 * seat whose gateway reported it away for grace_ms is played by that bot until the player
 * returns, or forfeits the match. Those answers are logged like any other.
 *
 * Players are routed by the gateway identity their last command came from; outputs to
 * a seat with no route, or to a gateway that went away (EHOSTUNREACH), are dropped: the
 * player resyncs on return and gets a full View.
 *
 * Limit: matches are found by a linear scan of an array, fine for the default capacity
 * (1000); a hash table is the next step past that.
 */
#ifndef DECKHAND_WORKER_HOST_H
#define DECKHAND_WORKER_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_ops.h"
#include "dh_zmq.h"
#include "engine.h"
#include "internal.pb-c.h"
#include "store.h"

#define HOST_ID_MAX    128
#define HOST_REPLIES   64 /* remembered replies per seat, for retried cmd_ids */
#define HOST_SEATS_MAX 16
/* A seat whose decision waits this long without any gateway having attached its player
 * (a MatchAssigned or MatchMoved that reached nobody) counts as away: its grace period
 * starts, so the match cannot wait on it forever. */
#define HOST_ATTACH_MS 10000

typedef struct {
    uint64_t cmd_id; /* 0: empty slot */
    int code;
    char text[80];
} host_reply;

typedef struct {
    char player_id[HOST_ID_MAX];
    char name[HOST_ID_MAX];
    char route[DH_ZMQ_ID_MAX + 1]; /* gateway identity; empty until the player attaches */
    host_reply replies[HOST_REPLIES];
    unsigned next_reply;
    uint64_t top_cmd; /* the highest cmd_id taken from the player, through any gateway */
    uint64_t away_ms; /* when its gateway said the connection dropped; 0 while present */
    bool robot;       /* the grace period ran out: a bot plays the seat until it returns */
} host_seat;

/* A queue's settings (internal.proto QueueSettings); 0 turns a timer off. */
typedef struct {
    uint32_t grace_ms, decision_ms, turn_ms;
    bool forfeit; /* after the grace period: forfeit the seat instead of a bot playing it */
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
    uint64_t decision_id;      /* the pending decision the timers below belong to */
    uint64_t decision_ms;      /* when it was first put to its seat */
    uint64_t turn_version;     /* the snapshot version the turn timer belongs to */
    uint64_t turn_ms;          /* when that turn started (or we got the match) */
    int forfeit_seat;          /* -1, or the seat that forfeited (the match is over) */
    bool busy;                 /* a write of the current batch is in flight */
    bool started;              /* MatchStarted ok was sent */
    struct bundles_entry *pin; /* the bundle it runs on, when the host follows bundles */
} host_match;

typedef enum { HOST_ACT_START, HOST_ACT_CHOOSE, HOST_ACT_FORFEIT } host_act_kind;

/* Outputs held until the batch's writes are acknowledged. */
typedef struct {
    host_act_kind kind;
    host_match *hm;
    int op; /* store op, -1 when it could not even start */
    int seat;
    uint64_t cmd_id;
    char route[DH_ZMQ_ID_MAX + 1];
} host_action;

/* What /metrics shows (main.c registers them; docs/OPERATIONS.md lists them). */
typedef struct {
    dh_counter answers;               /* answers accepted and stored (players and timers) */
    dh_counter default_answers;       /* answered by the default bot: timers, away seats */
    dh_counter refused[DH_OPS_CODES]; /* Replies with an error, by code */
    dh_counter adoptions;             /* matches adopted from a dead worker */
    dh_counter fenced;                /* writes refused by the epoch fence */
    dh_counter lost;                  /* matches dropped: another worker owns them now */
    dh_counter batches;               /* Redis pipelines flushed with held outputs */
    dh_counter batch_failures;        /* ...of which some write failed (not fenced) */
} host_stats;

typedef struct {
    const char *worker_id;
    const char *endpoint;
    void *router; /* data path: gateways */
    void *dealer; /* control path: the matchmaker */
    engine_bundle *bundle;
    struct bundles *bs; /* NULL: every match runs on bundle */
    store *st;
    uint32_t capacity;
    host_match **matches;
    size_t nmatches, capmatches;
    host_action *acts;
    size_t nacts, capacts;
    host_stats stats;
} host;

/* Everything is borrowed; the host owns only its matches and actions. */
void host_init(host *h, const char *worker_id, const char *endpoint, void *router, void *dealer,
               engine_bundle *bundle, store *st, uint32_t capacity);
void host_free(host *h);
/* Start new matches on the current bundle of their game (bundles.h) instead of bundle;
 * bs is borrowed and must outlive every match. */
void host_set_bundles(host *h, struct bundles *bs);

/* A StartMatch from the matchmaker. */
void host_start_match(host *h, const Deckhand__Internal__StartMatch *sm, uint64_t now_ms);
/* A PlayerCommand from the gateway at identity. */
void host_command(host *h, const char *identity, const Deckhand__Internal__PlayerCommand *pc,
                  uint64_t now_ms);
/* Take over a match the matchmaker moved onto this worker (match:{ID}.worker is us):
 * restore it from meta + snapshot + log on the bundle it is pinned to, and answer
 * MatchAdopted. Call between batches. 1 adopted (or already here), 0 refused for good
 * (not ours, finished, unrestorable), -1 Redis down (try again later). */
int host_adopt(host *h, const char *match_id, uint64_t now_ms);
/* Timers: decision and turn deadlines, away seats past their grace period. Answers what
 * is due with the game's default bot (or forfeits the seat). Call between batches. */
size_t host_tick(host *h, uint64_t now_ms); /* default answers made */

/* Drop every hosted match whose match:{ID} no longer names this worker at the epoch it
 * holds: the matchmaker moved it while this worker was frozen or cut off. Such a match
 * could never write anyway (the fence); this stops it from holding memory, counting as
 * load and running timers. Call between batches. Matches dropped, or -1 (Redis down). */
long host_check_owned(host *h, uint64_t now_ms);

/* Send the batch's writes, wait for Redis, then release or undo every held action. */
void host_flush(host *h, uint64_t now_ms);

size_t host_active(const host *h);
/* The hosted match with this id, or NULL. */
host_match *host_find(host *h, const char *match_id);

/* Live-ops --apply-to-running: every match whose game's current bundle applies to running
 * matches moves onto it at its next quiescent point (a turn boundary with no answer since:
 * the snapshot alone is the match), rebuilt from that snapshot on the new bundle. Redis
 * learns it (match:{ID}.bundle, match:{ID}:bundles) before the match moves; the seats get
 * fresh views. Call between batches. */
void host_apply_bundles(host *h, uint64_t now_ms);

#endif
