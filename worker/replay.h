/*
 * replay.h: replays served to players (deckhand.proto, "Watching": ReplayRequest). Any
 * worker serves any finished match: it reads the match's record from Redis
 * (common/dh_replay.h), loads the exact bundles the match ran on (bundles.h: from Redis
 * when not loaded here), rebuilds it answer by answer (engine/engine_replay.h) and after
 * each step sends the public view (ENGINE_SEAT_PUBLIC: no hand, no deck order, no
 * decision) with the public events (g:log, never g:log_to) that step produced: a Catalog,
 * then ReplayFrames 0..total-1 (the last with the match's GameOver), then the Reply.
 *
 * Bounds, so that replays never stall the live matches of the worker:
 *   - at most REPLAY_ACTIVE_MAX replays at once per worker: more are refused OVERLOADED;
 *   - a match of more than REPLAY_FRAMES_MAX - 1 answers is refused (BAD_REQUEST);
 *   - replay_work rebuilds at most REPLAY_STEPS_TURN answers per loop turn over every
 *     replay, and stops past REPLAY_TURN_MS, between batches (the live matches' commands
 *     are worked first, each turn);
 *   - one replay sends at most REPLAY_BURST_BYTES, then waits REPLAY_BURST_MS, so a long
 *     replay does not fill a gateway's write queue for a slow client (GW_WRITE_CAP).
 * The record is read on the store's connection between batches (nothing pending), like
 * the rating sweep. A replay's bundle is pinned while it runs (it counts in
 * worker:{ID}:bundles as a match on it).
 */
#ifndef DECKHAND_WORKER_REPLAY_H
#define DECKHAND_WORKER_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_metrics.h"
#include "out.h"

#define REPLAY_ACTIVE_MAX  4
#define REPLAY_FRAMES_MAX  5000 /* a Dominion match has a few hundred answers */
#define REPLAY_STEPS_TURN  200
#define REPLAY_TURN_MS     10
#define REPLAY_BURST_BYTES (64 * 1024)
#define REPLAY_BURST_MS    10

typedef struct replay_job replay_job;

typedef struct replays {
    replay_job *jobs[REPLAY_ACTIVE_MAX];
    size_t n;
    size_t next;        /* the job the next turn starts with (round robin) */
    dh_counter served;  /* replays sent whole (Reply ok) */
    dh_counter failed;  /* replays answered with an error (not overloaded) */
    dh_counter refused; /* replays refused OVERLOADED */
    dh_counter frames;  /* ReplayFrames sent */
    dh_counter bytes;   /* bytes of Catalogs and ReplayFrames sent */
} replays;

void replays_init(replays *rp);
/* Drop every replay in progress, each answered UNAVAILABLE (its player asks again, and
 * another worker serves it); before the sockets and the bundles go. */
void replays_free(host *h, replays *rp);

/* A PlayerCommand{replay} from the gateway at route: taken (its outputs follow from
 * replay_work), or answered now (BAD_REQUEST, OVERLOADED, UNAVAILABLE without h->rp). */
void replay_request(host *h, const char *route, const Deckhand__Internal__PlayerCommand *pc,
                    uint64_t now_ms);
/* Work the replays in progress within the bounds above; call between batches. True while
 * some replay has work left (the loop should come back soon). */
bool replay_work(host *h, uint64_t now_ms);

#endif
