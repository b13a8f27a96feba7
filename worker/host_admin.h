/*
 * host_admin.h: what an operator asks of the worker through the matchmaker's admin API
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
 *           refused (UNKNOWN_MATCH) for the rest of the match on this worker.
 *   drain   the worker stops as on SIGTERM (worker/main.c): its stopping beat moves its
 *           matches to the other workers now, then it exits.
 *   query   what the worker knows of a match and Redis does not (for GET
 *           /admin/matches/ID): its turn, answers, whose decision waits and since when,
 *           each seat's connection.
 * An unknown match or player, or a match already over, is logged and ignored: the
 * matchmaker checked Redis before asking, so that only happens in a race with the end.
 */
#ifndef DECKHAND_WORKER_HOST_ADMIN_H
#define DECKHAND_WORKER_HOST_ADMIN_H

#include <stdint.h>

#include "host.h"

void host_admin_end(host *h, const Deckhand__Internal__AdminEndMatch *e, uint64_t now_ms);
void host_admin_remove(host *h, const Deckhand__Internal__AdminRemovePlayer *r, uint64_t now_ms);
void host_admin_drain(host *h, const Deckhand__Internal__AdminDrain *d);
/* Answer an AdminQuery with what this worker knows of the match (AdminMatchInfo). */
void host_admin_query(host *h, const Deckhand__Internal__AdminQuery *q, uint64_t now_ms);
/* End the matches an operator asked to end while their write was in flight. */
void host_admin_tick(host *h, uint64_t now_ms);

#endif
