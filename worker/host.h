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
 *
 * Files: host.c (the table, StartMatch, commands, the batch), host_output.c, host_persist.c,
 * host_adopt.c, host_timers.c, host_rebundle.c; their layers: host_internal.h.
 */
#ifndef DECKHAND_WORKER_HOST_H
#define DECKHAND_WORKER_HOST_H

#include "worker.h"

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
/* One adoption round: adopt what the matchmaker moved onto us (worker:{ID}:adopt); an id
 * whose adoption hit a Redis failure goes back into the set for the next round. */
void host_adopt_pending(host *h, uint64_t now_ms);
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
