/*
 * replay.h: a player's ReplayRequest sent to a worker that can answer it (deckhand.proto,
 * "Watching"). Any live worker can: it reads the finished match from Redis and rebuilds it
 * with its own engine. The gateway prefers the match's last worker (match:{ID}.worker,
 * alive while worker:{ID} holds its endpoint); when that one is gone, another live worker
 * it can find: the workers of the matches it routes now, then the workers of the newest
 * finished matches (matches:finished), each checked alive in Redis. A match Redis does not
 * hold (never, or past its retention), or one still running, is answered UNKNOWN_MATCH here
 * at once; no live worker found, or Redis down, UNAVAILABLE.
 *
 * The worker's Catalog, ReplayFrames and Reply come back as PlayerOutputs for the player
 * with no match id (backend.c delivers them to the player's connection whatever it is
 * seated in); the request is tracked like a worker command (inflight.h) with no match, so
 * a silent worker still yields one Reply, UNAVAILABLE after REPLAY_TIMEOUT_MS.
 */
#ifndef DECKHAND_GW_REPLAY_H
#define DECKHAND_GW_REPLAY_H

#include "conn.h"
#include "deckhand.pb-c.h"

#define REPLAY_TIMEOUT_MS   30000 /* a replay is answered after its frames: a few hundred ms */
#define REPLAY_CANDIDATES   24    /* workers tried at most per request */
#define REPLAY_FINISHED_IDS 16    /* newest finished matches whose workers are candidates */

/* Find a worker for c's ReplayRequest and send it there. OK when it is on its way (or
 * answered already: a bad request, BAD_REQUEST with why); otherwise the error to reply
 * now. */
Deckhand__ErrorCode replay_request(gw_conn *c, uint64_t cmd_id, const Deckhand__ReplayRequest *r);

#endif
