/*
 * loop.h: what one wake-up of the matchmaker's loop does with its socket (main.c polls,
 * then calls loop_drain, then ticks).
 *
 * Control traffic before bulk joins. Workers' beats, MatchStarted, MatchEnded and
 * MatchAdopted share the one ROUTER with the gateways' joins, and the ROUTER reads its
 * peers fairly: one message from each connected peer in turn. So however many joins two
 * gateways have queued, a worker's beat is read among the first few messages of the next
 * drain, and a drain is bounded (LOOP_DRAIN_MAX messages, LOOP_DRAIN_MS of work), so the
 * next drain comes soon: a beat waits at most about one turn, never behind the backlog.
 * A drain that stops with messages left marks the loop behind (mm.h, behind_since_ms),
 * and while it is behind a silent worker is not declared dead (its beats may be unread),
 * for at most REGISTRY_DEAD_MS more.
 *
 * Silence is judged only against time the matchmaker listened. A drain that empties the
 * socket notes when (mm.heard_ms); the tick declares a worker silent by that time, not by
 * its own clock; and each message is handled at the time it was read, not at the drain's
 * start. The finding: with Redis stopped for 5 s, the drain's handlers and writes
 * (a join's lookups, the held joins, deferred deletes) each waited out their 1 s timeout;
 * the tick that followed judged the workers against a clock seconds past the drain while
 * their beats of those seconds waited unread in the socket, and beats read late in a long
 * drain were stamped with its start: both live workers were declared dead ("silent for
 * 2137 ms") and their matches moved needlessly (tests/e2e/test_redis_stall.sh).
 *
 * What the turn's tick then does is bounded too: a
 * pass forms at most REGISTRY_PENDING_MAX matches per worker (registry.h); a drain that
 * brings a MatchStarted from a worker at that bound asks for a full pass at once, so the
 * bound costs a round trip per worker, not a 50 ms wait for the next pass. A second
 * socket for workers would make the order explicit but needs a second endpoint in every
 * worker's configuration; fair queuing gives the same bound without it.
 */
#ifndef DECKHAND_MM_LOOP_H
#define DECKHAND_MM_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm_store.h"

#define LOOP_DRAIN_MAX 1000 /* messages handled per drain before the tick gets its turn */
#define LOOP_DRAIN_MS  50   /* ...or this long, whichever comes first */

typedef struct {
    size_t handled;       /* messages read */
    bool full;            /* it stopped with messages perhaps left unread: the loop is behind */
    bool form;            /* a formation pass should run now */
    bool quiet;           /* its last receive found the socket empty (wait.h, rule 1)... */
    uint64_t quiet_sends; /* ...when dh_zmq_sends() was this */
} loop_turn;

/* Read and handle what waits at mm->router (at most LOOP_DRAIN_MAX messages or
 * LOOP_DRAIN_MS), each at the time it was read (now_ms plus the drain's time so far); read
 * the held joins' stored ratings (they stay held: the tick's formation pass may place them,
 * and its write carries them with their matches), and note whether the loop is behind
 * (mm->behind_since_ms) or when it found the socket empty (mm->heard_ms). With joins held,
 * t.form is set: the turn's tick must run, then loop_finish. */
loop_turn loop_drain(mm_state *mm, uint64_t now_ms);
/* The end of a turn, after its tick: the held joins no pass wrote are written and answered
 * (tickets_flush), the deferred deletes go alone once due (state_flush_due), and each
 * gateway that takes batches gets the turn's messages to it in one send (gwout_flush). So
 * a turn that takes joins and forms matches from them costs one Redis write (issue 27). */
void loop_finish(mm_state *mm, uint64_t now_ms);

#endif
