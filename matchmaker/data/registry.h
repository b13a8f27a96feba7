/*
 * registry.h: the matchmaker's table of workers and gateways.
 *
 * Workers announce themselves with WorkerHello (games, endpoint, capacity) and keep
 * alive with WorkerBeat every 500 ms; one silent for REGISTRY_DEAD_MS is taken off
 * placement until it speaks again. Placement asks registry_pick for the live worker with
 * the fewest matches, counting the placements still waiting for the worker's answer, so
 * a burst of formations in one tick spreads instead of piling on the same worker; a
 * worker with REGISTRY_PENDING_MAX of them unanswered is not picked at all.
 *
 * Workers and gateways are keyed by their ZeroMQ routing identity, which is how the
 * matchmaker's ROUTER reaches them. Entries are never removed: a restarted worker comes
 * back under the same id, the takeover asks whether a match's worker is dead by its row,
 * and the table holds at most a few hundred rows. A worker that said it stops (drained,
 * or SIGTERM) is marked stopped instead, which the admin listing leaves out, until it
 * says hello again. A dead worker hosts nothing: its matches move (takeover.c), so its
 * match count drops to 0 when it dies rather than keep its last beat's.
 */
#ifndef DECKHAND_MM_REGISTRY_H
#define DECKHAND_MM_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.pb-c.h"
#include "queue.h"

#define REGISTRY_DEAD_MS   1500
#define REGISTRY_GAMES_MAX 32
/* A worker that refused or ignored a StartMatch is skipped this long, so the retry goes
 * elsewhere, or (with no other worker) comes back once a second instead of every tick. */
#define REGISTRY_AVOID_MS 1000
/* StartMatches (and AdoptMatches) a worker may have unanswered at once; past it the
 * worker is not picked and the tickets wait in line (already acknowledged). A worker
 * starts a match in about 1 ms (up to 10 under ASan on a loaded machine), so this is
 * within PLACEMENT_TIMEOUT_MS of work; the worker reads them for at most 50 ms a turn
 * (worker_control.c), so its beats go on meanwhile. A join storm used to send one worker
 * 7,000 StartMatches in one pass: those it had not started after 3 s were formed again
 * elsewhere while it still started them (matches nobody attached to), and the pass
 * itself kept the loop from reading beats for seconds. Above TAKEOVER_MAX_MOVES, so a
 * takeover sweep's moves fit on one worker. */
#define REGISTRY_PENDING_MAX 256

typedef struct {
    char name[QUEUE_NAME_MAX];
    uint32_t min_players, max_players;
    /* The worker's GameInfo as announced (owned; NULL when memory ran out): the options
     * the game's bundle declares and its bots (options.c, games.c read them). Replaced by
     * the worker's next hello: hold it only within one call. */
    Deckhand__Internal__GameInfo *info;
} registry_game;

typedef struct {
    char id[DH_ZMQ_ID_MAX + 1];
    char endpoint[256];
    char bundle[80];
    registry_game games[REGISTRY_GAMES_MAX];
    size_t ngames;
    uint32_t capacity;
    uint32_t active;  /* matches it hosts: from its last beat, adjusted by our own events */
    uint32_t pending; /* StartMatch sent, no MatchStarted yet */
    bool draining;
    bool alive;
    bool stopped; /* it said it stops (registry_gone): out of the admin listing */
    uint64_t last_seen_ms;
    uint64_t avoid_until_ms;
} registry_worker;

typedef struct {
    char id[DH_ZMQ_ID_MAX + 1];
    uint64_t last_seen_ms;
    uint32_t connections, players; /* its load, from its last hello (the admin API) */
} registry_gateway;

typedef struct {
    registry_worker *workers;
    size_t nworkers, capworkers;
    registry_gateway *gateways;
    size_t ngateways, capgateways;
    size_t gone; /* workers that said they stop, not yet counted by registry_expire */
} registry;

void registry_init(registry *r);
void registry_free(registry *r);

/* Register or refresh the worker reachable at identity. NULL on allocation failure. */
registry_worker *registry_hello(registry *r, const char *identity,
                                const Deckhand__Internal__WorkerHello *h, uint64_t now_ms);
/* Record a beat. NULL when the worker never said hello (it will: workers repeat it). */
registry_worker *registry_beat(registry *r, const char *identity, uint32_t active, bool draining,
                               uint64_t now_ms);
registry_worker *registry_find(registry *r, const char *identity);
/* The worker at identity stops (its last beat said so): dead and stopped at once, without
 * waiting for REGISTRY_DEAD_MS of silence, so that its matches move now. Unknown: no-op. */
void registry_gone(registry *r, const char *identity);
/* The workers that said they are stopping since the last call (registry_expire counts
 * them too): what a tick that must not judge silence still takes. */
size_t registry_take_gone(registry *r);
/* Mark workers silent for REGISTRY_DEAD_MS dead (logged once). Returns how many died
 * just now, counting those registry_gone marked since the last call. */
size_t registry_expire(registry *r, uint64_t now_ms);

/* The limits of game as served by a live worker; NULL when no live worker serves it. */
const registry_game *registry_game_info(const registry *r, const char *game);
/* The live, non-draining worker with room that serves game at this size, not avoided
 * after a failure, with the fewest active + pending matches; NULL when none fits. */
registry_worker *registry_pick(registry *r, const char *game, uint32_t players, uint64_t now_ms);

/* Register or refresh a gateway; -1 on allocation failure. */
int registry_gateway_hello(registry *r, const char *identity, uint64_t now_ms);
/* The gateway at identity, or NULL. */
registry_gateway *registry_gateway_find(registry *r, const char *identity);

#endif
