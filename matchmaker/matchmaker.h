/*
 * matchmaker.h: the matchmaker process state, one struct handed to every module, and the
 * periodic work every module gets a turn at (mm_tick).
 *
 * With Redis (the default), Redis holds the waiting tickets and the unanswered
 * placements (state.c), and only the matchmaker holding the lease mm:lease acts
 * (lease.c): it answers joins, forms matches, expires away tickets and moves the matches
 * of dead workers (takeover.c). Any other matchmaker is a standby that only keeps its
 * worker registry warm. With --redis none everything stays in memory and the one
 * matchmaker always acts.
 *
 * Time: every function takes now_ms from the monotonic clock (tests pass their own).
 * What is stored in Redis uses a wall clock derived from it (mm_wall_ms): the real-time
 * clock at start plus the monotonic time since, so a clock step never reorders a line.
 */
#ifndef DECKHAND_MM_MATCHMAKER_H
#define DECKHAND_MM_MATCHMAKER_H

#include <stdbool.h>
#include <stdint.h>

#include "dh_metrics.h"
#include "dh_redis.h"
#include "lease.h"
#include "placement.h"
#include "queue.h"
#include "registry.h"
#include "seated.h"
#include "settings.h"
#include "takeover.h"

/* What /metrics shows (main.c registers them; docs/OPERATIONS.md lists them). Counters
 * are bumped where the event happens; gauges are set by the loop each iteration. */
typedef struct {
    dh_counter matches_formed;  /* StartMatch sent for a new match */
    dh_counter matches_started; /* MatchStarted ok from its worker */
    dh_counter matches_moved;   /* takeovers: a dead worker's match moved to another */
    dh_counter workers_dead;    /* workers declared dead (silent, or stopping) */
    dh_gauge lease_held;        /* 1 while acting */
    dh_gauge players_waiting;
    dh_gauge placements_pending;
    dh_gauge workers_alive;
} mm_stats;

typedef struct mm_state {
    void *router; /* bound at --bind; workers and gateways connect DEALERs */
    queue_set *queues;
    registry reg;
    placement_list placements;
    settings_table settings;
    bool redis_on; /* false: --redis none */
    dh_redis redis;
    lease lease;
    takeover takeover;
    seated_list seated;     /* players in running matches, for a join that lost its MatchFound */
    char id[LEASE_ID_MAX];  /* this matchmaker's name in mm:lease */
    uint64_t wall_base_ms;  /* wall clock = wall_base_ms + now_ms */
    uint64_t next_seq;      /* the next ticket's seq */
    uint64_t first_tick_ms; /* the first mm_tick: workers report within REGISTRY_DEAD_MS */
    mm_stats stats;
} mm_state;

/* Set up everything but the router. redis_url NULL or "none": memory only. 0, or -1 on
 * a malformed URL or an allocation failure (mm_free cleans up either way). */
int mm_init(mm_state *mm, const char *id, const char *redis_url, int redis_timeout_ms);
void mm_free(mm_state *mm);

/* Forget the queues, placements and adoptions held in memory (Redis keeps them): on
 * losing the lease, and before loading them again on winning it. */
void mm_reset(mm_state *mm);

uint64_t mm_wall_ms(const mm_state *mm, uint64_t now_ms);
/* True when this matchmaker may act: it holds the lease and has loaded its state, or it
 * runs without Redis. */
bool mm_acting(const mm_state *mm, uint64_t now_ms);

/* The periodic work: the lease; then, when acting, dead workers and their matches,
 * stalled placements, away tickets past their grace, and formation. */
void mm_tick(mm_state *mm, uint64_t now_ms);

#endif
