/*
 * takeover.h: moving the running matches of a dead worker to live ones.
 *
 * At once when a worker has just been declared dead, then every TAKEOVER_SWEEP_MS while
 * matches are waiting to move (or in the first TAKEOVER_UNKNOWN_DEAD_MS of acting), and
 * every TAKEOVER_IDLE_SWEEP_MS otherwise, the acting matchmaker reads matches:running
 * (match id -> worker). A match whose worker is
 * dead in the registry, or is a worker not heard of since this matchmaker began acting
 * and it has acted for TAKEOVER_UNKNOWN_DEAD_MS (time for every live worker to say hello
 * again), is moved to the least loaded live worker serving its game by one script
 * (takeover_move_script): only if match:{ID} is still running on the dead worker, it
 * bumps the epoch (fencing the old worker's writes) and names the new worker in
 * match:{ID}, on the match's slot alone (Redis Cluster: dh_keys.h); then the indexes in
 * other slots follow: the id into worker:{NEW}:adopt and matches:running names NEW.
 * Then AdoptMatch{id, epoch} goes to the new worker, which counts it as pending load
 * there. The lease (another slot) is checked just before the scripts, not inside them: of
 * two matchmakers racing, the first bumps the epoch and the second finds the match on
 * another worker. When the script finds the match
 * finished (its worker died after the finishing commit, before the indexes) or on another
 * worker (a matchmaker died between the script and the indexes), the sweep writes the
 * indexes that are missing instead (each write idempotent).
 *
 * An adoption is in flight until the worker's MatchAdopted: ok broadcasts MatchMoved to
 * every registered gateway, which re-route the match and re-attach their players; a no,
 * or no answer in TAKEOVER_ADOPT_TIMEOUT_MS, avoids that worker for a while and moves
 * the match again, with that worker as the one to move from. A match that finds no
 * worker to go to waits for the next sweep. A MatchAdopted for a match not in flight (a
 * worker that found it in its adopt set after a matchmaker restart) is broadcast too.
 * A moved match that is still a placement (its worker died between creating it and
 * answering StartMatch) is completed on the adopter instead (placement_adopted): its
 * players get MatchAssigned, not MatchMoved.
 *
 * Every match found to move moves in that one sweep, however many: the candidates are
 * sized to what matches:running holds (heap), and the sweep costs a few round trips per
 * TAKEOVER_CHUNK matches: the running list and the metadata of the new candidates (one
 * pipeline) once, the lease once, then per chunk the move scripts (one pipeline) and the
 * index writes (one pipeline; Redis Cluster: rconn routes each command to its slot's
 * node, dh_redis_pipeline), then the chunk's AdoptMatch messages, so the first adopters
 * start while the rest still move (1,000 move scripts in one pipeline took 85 ms). The
 * adopters are picked one match at a time by
 * load (registry_pick_adopter: an adoption counts on its adopter at once, so 900 matches
 * spread evenly over the live workers; REGISTRY_PENDING_MAX, meant for StartMatch bursts,
 * does not cap them); a worker adopts its AdoptMatches in bounded batches (worker side).
 * Limit: matches:running is read whole at every sweep (rarely when nothing is dead:
 * TAKEOVER_IDLE_SWEEP_MS); past some hundred thousand running matches an HSCAN cursor, or
 * a set of matches per worker, should spread that read.
 */
#ifndef DECKHAND_MM_TAKEOVER_H
#define DECKHAND_MM_TAKEOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_zmq.h"
#include "internal.pb-c.h"
#include "mm_data.h"
#include "mm_store.h"

#define TAKEOVER_SWEEP_MS         500
#define TAKEOVER_IDLE_SWEEP_MS    10000
#define TAKEOVER_UNKNOWN_DEAD_MS  2500
#define TAKEOVER_ADOPT_TIMEOUT_MS 3000
#define TAKEOVER_CHUNK            128 /* matches moved per pipeline of a sweep */

struct mm_state;

void takeover_init(takeover *t);
void takeover_free(takeover *t);

/* True while the match is being moved (in flight or waiting to be moved again). */
bool takeover_has(const takeover *t, const char *match_id);
/* Sweep when due (or now, when force), and give up on adoptions past their deadline. */
void takeover_tick(struct mm_state *mm, uint64_t now_ms, bool force);
/* A worker's MatchAdopted. */
void takeover_adopted(struct mm_state *mm, const char *identity,
                      const Deckhand__Internal__MatchAdopted *ma, uint64_t now_ms);

/* The move script on its own: move match_id from worker `from` to worker `to`. The new
 * epoch; 0 when the match is not running on `from` (finished, moved already, unknown:
 * the indexes are put right); -1 when Redis did not answer or the lease is not ours
 * (lease_lost is called). */
long long takeover_move_script(struct mm_state *mm, uint64_t now_ms, const char *match_id,
                               const char *from, const char *to);

#endif
