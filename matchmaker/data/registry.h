/*
 * registry.h: the matchmaker's table of workers and gateways.
 *
 * Workers announce themselves with WorkerHello (games, endpoint, capacity) and keep
 * alive with WorkerBeat every 500 ms; one silent for REGISTRY_DEAD_MS is taken off
 * placement until it speaks again. Placement asks registry_pick for the live worker with
 * the fewest matches, counting the placements still waiting for the worker's answer, so
 * a burst of formations in one tick spreads instead of piling on the same worker; a
 * worker with REGISTRY_PENDING_MAX of them unanswered is not picked at all. A takeover
 * asks registry_pick_adopter instead: adoptions count as load but are not capped by
 * REGISTRY_PENDING_MAX, so that a dead worker's matches all move in one sweep.
 *
 * Slow is not dead. A worker's beats come from its own beat thread (routing identity
 * "<id>/beat", the body's worker_id naming the worker), so they go on while its loop waits
 * on Redis or inside a script call, and they say so: stalled_ms (how long the loop has been
 * in its current turn) and redis_ok. A worker stalled for REGISTRY_SLOW_MS or without Redis
 * gets no new placements or adoptions while so, but keeps its matches; it is declared dead
 * only when its beats stop (REGISTRY_DEAD_MS of silence) or its loop has been stuck for
 * REGISTRY_STUCK_MS. Health is read only from the beat thread's beats: a beat on the main
 * identity (a worker without a beat thread, or the last "stopping" one) cannot tell an
 * unset redis_ok from false, and keeps the worker healthy as before. A worker whose control
 * connection closed is declared dead at once by the matchmaker's probe (registry_lost).
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

#define REGISTRY_DEAD_MS     1500
#define REGISTRY_SLOW_MS     500     /* stalled this long: no new placements or adoptions */
#define REGISTRY_STUCK_MS    15000   /* stalled this long: dead ("stuck"), its matches move */
#define REGISTRY_BEAT_SUFFIX "/beat" /* the beat thread's routing identity: "<id>/beat" */
#define REGISTRY_GAMES_MAX   32
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
 * itself kept the loop from reading beats for seconds. Adoptions are counted apart
 * (registry_worker.adopting) and not capped by it. */
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
    uint32_t active;     /* matches it hosts: from its last beat, adjusted by our own events */
    uint32_t pending;    /* StartMatch sent, no MatchStarted yet */
    uint32_t adopting;   /* AdoptMatch sent, no MatchAdopted yet (takeover.c) */
    uint32_t stalled_ms; /* its beat thread's last word: its loop's time in its current turn */
    bool redis_ok;       /* ...and whether its last Redis round trip succeeded */
    bool draining;
    bool alive;
    bool stopped; /* it said it stops (registry_gone): out of the admin listing */
    bool lost;    /* its control connection closed (registry_lost): only a message on that
                   * route (its hello, every 500 ms) brings it back, not a beat thread's
                   * beat, which may have waited unread */
    uint64_t last_seen_ms;
    uint64_t avoid_until_ms;
    /* its last hello as packed (owned; NULL before one, or when memory ran out): a hello
     * that repeats it byte for byte (every 500 ms) is not unpacked again (registry_hello_again) */
    uint8_t *hello;
    size_t hello_len;
    uint64_t hello_version; /* its last hello's WorkerHello.version (0: an earlier release) */
} registry_worker;

typedef struct {
    char id[DH_ZMQ_ID_MAX + 1];
    uint64_t last_seen_ms;
    uint32_t connections, players; /* its load, from its last hello (the admin API) */
    bool batches;                  /* its last hello: it takes MatchmakerOutputs (gwout.h) */
} registry_gateway;

typedef struct {
    registry_worker *workers;
    size_t nworkers, capworkers;
    registry_gateway *gateways;
    size_t ngateways, capgateways;
    size_t gone; /* workers declared dead without silence (stopping, connection closed,
                  * stuck), not yet counted by registry_expire or registry_take_gone */
} registry;

void registry_init(registry *r);
void registry_free(registry *r);

/* Register or refresh the worker reachable at identity. NULL on allocation failure. */
registry_worker *registry_hello(registry *r, const char *identity,
                                const Deckhand__Internal__WorkerHello *h, uint64_t now_ms);
/* Keep the packed bytes of the hello identity just sent (registry_hello took it), so that
 * registry_hello_again knows a repeat. Best effort: out of memory, the next hello is
 * unpacked again. */
void registry_hello_keep(registry *r, const char *identity, const void *packed, size_t len);
/* A hello from identity whose packed bytes are its last hello's (registry_hello_keep) and
 * whose worker is alive: refreshed as registry_hello would (same endpoint, games, bundle and
 * capacity), without unpacking it. NULL, changing nothing, for any other: the caller
 * unpacks it and calls registry_hello. */
registry_worker *registry_hello_again(registry *r, const char *identity, const void *packed,
                                      size_t len, uint64_t now_ms);
/* What a beat naming the hello version `version` is answered (WorkerProbe), w being the
 * row it speaks for (NULL: a worker not known yet). */
typedef enum {
    REGISTRY_HELLO_SILENT, /* version 0: a worker of an earlier release, which repeats its
                            * hello every 500 ms unasked */
    REGISTRY_HELLO_HELD,   /* w is alive on its control route and its hello is that version:
                            * the worker need not repeat it */
    REGISTRY_HELLO_WANTED, /* anything else (unknown, another version, dead, its control
                            * route lost): send it now */
} registry_hello_answer;
registry_hello_answer registry_hello_check(const registry_worker *w, uint64_t version);
/* Record a beat. NULL when the worker never said hello (it will: workers repeat it). */
registry_worker *registry_beat(registry *r, const char *identity, uint32_t active, bool draining,
                               uint64_t now_ms);
/* The row a WorkerBeat received from identity speaks for: its worker_id's, when identity is
 * that id or "<id>/beat" (a beat without worker_id: identity's). NULL, with a warning at
 * most once a DH_LOG_EVERY_MS, for a beat from any other route; NULL without a word for a
 * worker that has not said hello yet. */
registry_worker *registry_beat_row(registry *r, const char *identity,
                                   const Deckhand__Internal__WorkerBeat *b);
/* The worker id a WorkerBeat from identity speaks for (see registry_beat_row), known or
 * not; NULL when identity is not one of its routes. */
const char *registry_beat_id(const char *identity, const Deckhand__Internal__WorkerBeat *b);
/* Record the beat b that identity sent for w (registry_beat_row): its load, and its health
 * when it came from the beat thread. A worker stuck for REGISTRY_STUCK_MS is declared dead
 * ("stuck", counted as registry_gone does) and stays so while its beats say stuck. */
void registry_beat_health(registry *r, registry_worker *w, const char *identity,
                          const Deckhand__Internal__WorkerBeat *b, uint64_t now_ms);
/* True when w is alive but slow (stalled, or without Redis): nothing new goes to it. */
bool registry_slow(const registry_worker *w);
registry_worker *registry_find(registry *r, const char *identity);
/* The worker at identity stops (its last beat said so): dead and stopped at once, without
 * waiting for REGISTRY_DEAD_MS of silence, so that its matches move now. Unknown: no-op. */
void registry_gone(registry *r, const char *identity);
/* The live worker at identity is dead at once, for why ("connection closed"), counted
 * as registry_gone does, but not stopped: it may come back with a hello or a beat. True
 * when it was alive. */
bool registry_lost(registry *r, const char *identity, const char *why);
/* The workers that said they are stopping since the last call (registry_expire counts
 * them too): what a tick that must not judge silence still takes. */
size_t registry_take_gone(registry *r);
/* Mark workers silent for REGISTRY_DEAD_MS dead (logged once). Returns how many died
 * just now, counting those registry_gone marked since the last call. */
size_t registry_expire(registry *r, uint64_t now_ms);

/* The limits of game as served by a live worker; NULL when no live worker serves it. */
const registry_game *registry_game_info(const registry *r, const char *game);
/* The live, non-draining, not slow worker with room that serves game at this size, not
 * avoided after a failure, with the fewest active + pending + adopting matches, fewer
 * than REGISTRY_PENDING_MAX StartMatches unanswered; NULL when none fits. */
registry_worker *registry_pick(registry *r, const char *game, uint32_t players, uint64_t now_ms);
/* The same for an adoption: adoptions and placements in flight count as load, but the
 * REGISTRY_PENDING_MAX cap (meant for StartMatch bursts) does not apply. */
registry_worker *registry_pick_adopter(registry *r, const char *game, uint32_t players,
                                       uint64_t now_ms);

/* Register or refresh a gateway; -1 on allocation failure. */
int registry_gateway_hello(registry *r, const char *identity, uint64_t now_ms);
/* The gateway at identity, or NULL. */
registry_gateway *registry_gateway_find(registry *r, const char *identity);

#endif
