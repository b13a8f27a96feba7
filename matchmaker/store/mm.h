/*
 * mm.h: the matchmaker process state, one struct handed to every module. It holds each
 * module's data; modules reach each other only by calling downwards, wing by wing (root,
 * then admin/, social/ and failover/, then play/, then store/ where this file lives, then
 * data/: matchmaker/CMakeLists.txt and docs/matchmaker.md), never through a call back up.
 * The two calls that must go up (a dropped ticket tells its party, a load after the lease
 * is won brings the stored parties) are the hooks at the end of the struct.
 *
 * Time: every function takes now_ms from the monotonic clock (tests pass their own).
 * What is stored in Redis uses a wall clock derived from it (mm_wall_ms): the real-time
 * clock at start plus the monotonic time since, so a clock step never reorders a line.
 */
#ifndef DECKHAND_MM_MM_H
#define DECKHAND_MM_MM_H

#include <stdbool.h>
#include <stdint.h>

#include "dh_arena.h"
#include "dh_metrics.h"
#include "dh_redis.h"
#include "dh_script.h"
#include "dh_table.h"
#include "dh_zmq.h"
#include "mm_data.h"

/* The data of the modules above (their headers hold their calls). */

/* lease.h: whether this matchmaker may act. */
#define LEASE_ID_MAX 128

typedef struct {
    bool held;           /* Redis granted or renewed it at the last try */
    bool loaded;         /* tickets and placements loaded since it was won */
    uint64_t until_ms;   /* stop acting here unless renewed */
    uint64_t next_ms;    /* next acquire or renew */
    uint64_t since_ms;   /* acting since (loaded at) */
    bool standby_logged; /* the standby state was logged already */
} lease;

/* placement.h: matches formed, waiting for their worker's MatchStarted. */
#define PLACEMENT_ID_LEN 18 /* "m-" + 16 hex digits */

typedef struct {
    char match_id[PLACEMENT_ID_LEN + 1];
    queue_key key;
    queue_ticket *tickets; /* owned; seat order */
    size_t n;
    char worker[DH_ZMQ_ID_MAX + 1];
    uint64_t seed;
    uint64_t deadline_ms;
    settings_values settings;
    bool unsent;         /* resumed, and the worker could not be reached yet */
    bool unrated;        /* bot-filled (tickets with .bot): StartMatch.unrated */
    queue_formed formed; /* its quality, for the log once it is stored */
} placement;

typedef struct {
    placement *items;
    size_t n, cap;
    size_t unsent_from; /* items from here on were formed this pass, not stored yet */
    dh_table players;   /* player id -> the list, for every player of items; lazily made */
    dh_table by_match;  /* match id -> its index in items + 1; made with players */
} placement_list;

/* takeover.h: matches of dead workers being moved. */
typedef struct {
    char match_id[QUEUE_NAME_MAX];
    char worker[DH_ZMQ_ID_MAX + 1]; /* in flight: the adopter; waiting: the one to move from */
    char game[QUEUE_NAME_MAX];
    char *player_ids; /* owned; comma-separated, as in match:{ID}.player_ids */
    uint64_t epoch;
    uint64_t deadline_ms; /* 0: waiting to be moved again */
} takeover_move;

typedef struct {
    takeover_move *v;
    size_t n, cap;
    uint64_t next_sweep_ms;
    size_t nowhere_logged; /* matches that found no worker at the last sweep, as logged */
} takeover;

/* state.h: deletes that wait for the next write (they ride along with it, first). */
typedef struct {
    char op[3];                 /* "t-" or "p-" */
    char field[QUEUE_NAME_MAX]; /* the player or match id */
} state_later;

typedef struct {
    state_later *v;
    size_t n, cap;
    uint64_t since_ms; /* when the oldest of them was deferred (state_flush_due) */
} state_deferred;

/* tickets.h: joins queued in memory whose records go to Redis in one write (the batch);
 * their players hear back once it is written. */
typedef struct {
    char player_id[QUEUE_NAME_MAX];
    char gateway[DH_ZMQ_ID_MAX + 1];
    uint64_t cmd_id;
} tickets_held;

typedef struct {
    tickets_held *v;
    size_t n, cap;
    bool rated; /* their stored ratings were read (tickets_rate_held) */
} tickets_batch;

/* gwout.h: one gateway's messages of the loop turn, packed, in order. */
typedef struct {
    char gateway[DH_ZMQ_ID_MAX + 1];
    ProtobufCBinaryData *v;
    size_t n, cap;
} gwout_batch;

typedef struct {
    gwout_batch *v; /* one per gateway that takes batches and was sent something */
    size_t n, cap;
} gwout;

/* state.h: ticket records packed for the next write (state_stage_tickets). */
typedef struct {
    char **fields;    /* player ids (owned) */
    uint8_t **values; /* packed TicketRecords (owned) */
    size_t *lens;
    size_t n, cap;
} state_staged;

/* admin.h: GET /admin/matches/ID requests waiting for their worker's AdminMatchInfo. */
struct dh_ops_admin;
struct dh_ops_admin_req;

typedef struct {
    struct dh_ops_admin_req *q; /* owned until answered */
    uint64_t deadline_ms;       /* answered without the worker's part then */
} admin_wait;

typedef struct {
    struct dh_ops_admin *door; /* where answers go (admin_serve sets it) */
    admin_wait *v;
    size_t n, cap;
} admin_waits;

/* What /metrics shows (main.c registers them; docs/OPERATIONS.md lists them). Counters
 * are bumped where the event happens; gauges are set by the loop each iteration. */
typedef struct {
    dh_counter matches_formed;  /* StartMatch sent for a new match */
    dh_counter matches_started; /* MatchStarted ok from its worker */
    dh_counter matches_moved;   /* takeovers: a dead worker's match moved to another */
    dh_counter workers_dead;    /* declared dead (connection closed, silent, stuck, stopping) */
    dh_gauge lease_held;        /* 1 while acting */
    dh_gauge players_waiting;
    dh_gauge placements_pending;
    dh_gauge workers_alive;
    dh_gauge workers_slow;      /* alive, but stalled or without Redis (registry_slow) */
    dh_histogram match_spread;  /* per match formed: highest minus lowest mu */
    dh_histogram match_wait;    /* per player matched: seconds from join to formation */
    dh_family game_formed;      /* matches formed, by game */
    dh_family game_spread;      /* match_spread, by game */
    dh_family game_wait;        /* match_wait, by game */
    dh_histogram redis_seconds; /* per Redis pipeline (rconn.c): its round trip */
} mm_stats;

/* The leader's server-side scripts (dh_keys.h), called by hash through rconn. */
typedef struct {
    dh_script takeover, lease_renew, lease_release, state;
} mm_scripts;

typedef struct mm_state {
    void *router; /* bound at --bind; workers and gateways connect DEALERs */
    queue_set *queues;
    registry reg;
    placement_list placements;
    settings_table settings;
    bool redis_on; /* false: --redis none */
    dh_redis redis;
    mm_scripts scripts;
    lease lease;
    takeover takeover;
    seated_list seated;       /* players in running matches, for a join that lost its MatchFound */
    watch_list watching;      /* running matches one may watch (watch.h) */
    uint32_t watch_budget_us; /* a tick's time for its rebuild (watch_load.h); 0: the default */
    tickets_batch joins;      /* joins waiting for their batched write (tickets.h) */
    state_deferred later;     /* deletes waiting for the next write (state.h) */
    state_staged staged;      /* tickets packed to ride the next write (state.h) */
    gwout gwout;              /* this turn's messages to gateways that take batches */
    dh_arena arena;           /* the message loop.c is handling, unpacked (dh_arena.h) */
    char id[LEASE_ID_MAX];    /* this matchmaker's name in mm:lease */
    uint64_t wall_base_ms;    /* wall clock = wall_base_ms + now_ms */
    uint64_t next_seq;        /* the next ticket's seq */
    uint64_t first_tick_ms;   /* the first mm_tick: workers report within REGISTRY_DEAD_MS */
    uint64_t next_pass_ms;    /* the next formation pass over every ticket (placement.c) */
    uint64_t behind_since_ms; /* the loop left messages unread since then; 0: caught up */
    uint64_t heard_ms;        /* the last drain found the socket empty then: silence is judged up to
                               * here, not up to the tick's clock (loop.h); 0: no drain yet */
    uint64_t next_gateway_beat_ms; /* when the next MatchmakerBeat goes out (matchmaker.c) */
    uint64_t incarnation;          /* random per process, in every MatchmakerBeat */
    rating_source ratings;         /* players' ratings for matching (rating.h) */
    admin_waits admin;             /* the admin API's requests waiting for a worker (admin.h) */
    mm_stats stats;
    group_set parties;            /* social/parties.h */
    group_set lobbies;            /* social/lobbies.h */
    struct rematch_list *rematch; /* social/rematch.h: offers to play a match again */
    /* Upward calls, set by social_init (NULL: nobody listens): tickets_expire took an away
     * player off its ticket (its party hears of it); a match started with the player seated
     * (placement.c: its party is no longer queued); mm_load loaded the queues after the
     * lease was won (the stored parties follow). */
    void (*on_dropped)(struct mm_state *mm, const char *player_id, uint64_t now_ms);
    void (*on_seated)(struct mm_state *mm, const char *player_id);
    void (*on_loaded)(struct mm_state *mm, uint64_t now_ms);
} mm_state;

/* The wall clock (what is stored in Redis) at monotonic time now_ms. */
static inline uint64_t mm_wall_ms(const mm_state *mm, uint64_t now_ms)
{
    return mm->wall_base_ms + now_ms;
}

#endif
