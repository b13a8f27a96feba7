/*
 * host.h: the front door of the worker's host wing (worker/host/): the matches a worker hosts, the
 * commands that drive them and the outputs they release (docs/ARCHITECTURE.md,
 * "The three main flows").
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
 * Files: host.c (the table, StartMatch, commands, the batch), host_persist.c (writes to
 * Redis), host_bot.c, host_options.c, host_admin.c, host_adopt.c, host_timers.c,
 * host_rebundle.c, host_stall.c (the stall watcher); their layers: host_internal.h.
 * Everything sent goes out through the out wing (out.h), every write through the store
 * wing (store.h).
 */
#ifndef DECKHAND_WORKER_HOST_H
#define DECKHAND_WORKER_HOST_H

#include "out.h"

/* A seat whose decision waits this long without any gateway having attached its player
 * (a MatchAssigned or MatchMoved that reached nobody) counts as away: its grace period
 * starts, so the match cannot wait on it forever. */
#define HOST_ATTACH_MS 10000
/* Quarantine (host_timers.c): the worker's own answer (a timer's, or the bot's for an
 * absent seat) that fails in a card script is tried again after HOST_RETRY_MS; after
 * host.quarantine_after failures in a row the match ends with DH_END_SCRIPT_ERROR. */
#define HOST_RETRY_MS         1000
#define HOST_QUARANTINE_AFTER 3
/* A running match's snapshot goes to Redis every host.snap_every turn boundaries (and at
 * its start, its end and a bundle move); the answers between are appended to its log, which
 * an adopter replays on top of it. A snapshot costs its compression and the largest write
 * of a commit; replaying a few turns' answers on adoption costs far less (docs/worker.md).
 * 8, not 4: a twelfth of the worker's instructions per answer for about 300 bytes more per
 * running match in Redis (docs/BENCHMARKS.md, issue 27, the worker's sixth step). */
#define HOST_SNAPSHOT_EVERY 8
/* The idle cap: a decision nobody answered for this long (5 min) forfeits its seat, whatever
 * the queue's timers and abandon setting, so that no match runs for good (issue 15): a
 * connected client that never answers, in a queue without timers (the default, casual
 * too), would hold it open. Five minutes, not the half hour it was (issue 24): the
 * opponents of a silent seat wait at most that long, while a human still has far more
 * time for one decision than any card game asks. A forfeit, not the bot, since a bot
 * playing every decision of a silent seat five minutes late would keep them waiting for
 * hours. */
#define HOST_IDLE_MS (5ULL * 60 * 1000)
/* The stall watcher (host_stall.c): a call into a match's scripts still running after this
 * long is marked in Redis (match:{ID}.stalled), so that if the worker is declared dead in
 * it (after 1.5 s without a beat; beats go every 500 ms) the adopter ends the match instead
 * of running it again. Twice the default script budget (250 ms): no call that returns on
 * its own comes near it. */
#define HOST_STALL_MS 500

/* Everything is borrowed; the host owns only its matches and actions. */
void host_init(host *h, const char *worker_id, const char *endpoint, void *router, void *dealer,
               engine_bundle *bundle, store *st, uint32_t capacity);
void host_free(host *h);
/* Start the stall watcher (HOST_STALL_MS above, h->stall_ms), a thread with its own
 * connection to the Redis at redis_url; host_free stops it. -1 when it cannot start. */
int host_stall_start(host *h, const char *redis_url, int timeout_ms);
void host_stall_stop(host *h);
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
/* One adoption round: adopt what the matchmaker moved onto us (worker:{ID}:adopt), in
 * batches of HOST_ADOPT_BATCH ids whose Redis reads go in one pipeline, each match's
 * MatchAdopted sent as it is adopted, until the set is empty or the clock passes until_ms
 * (at least one is adopted): the ids a batch had no time for go back into the set, and
 * so does an id whose adoption hit a Redis failure. True when the set may hold more (the
 * caller comes back at once, after its other work). */
bool host_adopt_pending(host *h, uint64_t now_ms, uint64_t until_ms);
#define HOST_ADOPT_BATCH   32 /* ids taken from worker:{ID}:adopt and read at once */
#define HOST_ADOPT_TURN_MS 20 /* an adoption round's time, so commands and timers go on */
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
/* The hosted match with this id, or NULL (host_index.c: through the index by id). */
host_match *host_find(host *h, const char *match_id);
/* Put hm in h->matches and the index by id (room made by host_reserve beforehand). */
void host_index_add(host *h, host_match *hm);
/* Take hm out of h->matches and the index by id. */
void host_index_del(host *h, host_match *hm);
/* Free the index by id. */
void host_index_free(host *h);

/* Live-ops --apply-to-running: every match whose game's current bundle applies to running
 * matches moves onto it at its next quiescent point (a turn boundary with no answer since:
 * the snapshot alone is the match), rebuilt from that snapshot on the new bundle. Redis
 * learns it (match:{ID}.bundle, match:{ID}:bundles) before the match moves; the seats get
 * fresh views. Call between batches. */
void host_apply_bundles(host *h, uint64_t now_ms);

/* ---- what an operator asks (host_admin.c) --------------------------------------------
 *
 * What an operator asks of the worker through the matchmaker's admin API
 * (AdminEndMatch, AdminRemovePlayer, AdminDrain in internal.proto; docs/OPERATIONS.md,
 * "Admin API").
 *
 *   end     the match ends with the result every rank 0 (nobody won, nothing is rated),
 *           end_reason and every seat's GameOver.reason "admin: REASON", once Redis has
 *           it; a match with a write in flight ends at the next loop turn (host_admin_tick).
 *   remove  the player's seat is abandoned at once: under the queue's "forfeit" policy it
 *           forfeits (the match ends, the others share first place; a seat whose write
 *           is in flight forfeits at the next loop turn); under "bot" a bot
 *           plays it from now on. The player gets GameOver (no results) with reason
 *           "admin: removed: REASON", its connection is detached, and its commands are
 *           refused (UNKNOWN_MATCH) for the rest of the match, here and on any worker
 *           that adopts it (match:{ID}.removed).
 *   drain   the worker stops as on SIGTERM (worker/main.c): its stopping beat moves its
 *           matches to the other workers now, then it exits.
 *   query   what the worker knows of a match and Redis does not (for GET
 *           /admin/matches/ID): its turn, answers, whose decision waits and since when,
 *           each seat's connection.
 * An unknown match or player, or a match already over, is logged and ignored: the
 * matchmaker checked Redis before asking, so that only happens in a race with the end.
 */
void host_admin_end(host *h, const Deckhand__Internal__AdminEndMatch *e, uint64_t now_ms);
void host_admin_remove(host *h, const Deckhand__Internal__AdminRemovePlayer *r, uint64_t now_ms);
void host_admin_drain(host *h, const Deckhand__Internal__AdminDrain *d);
/* Answer an AdminQuery with what this worker knows of the match (AdminMatchInfo). */
void host_admin_query(host *h, const Deckhand__Internal__AdminQuery *q, uint64_t now_ms);
/* End the matches an operator asked to end while their write was in flight. */
void host_admin_tick(host *h, uint64_t now_ms);

#endif
