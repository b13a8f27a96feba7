/*
 * mmreq.h: what the gateway tells the matchmaker about its players: queue requests
 * (QueueJoin, QueueLeave) and client requests (parties, lobbies, the game list: a
 * ClientRequest), tracked in g->pending until the QueueReply, and the player
 * notices nobody answers (PlayerAway while queued, PlayerBack on a resume).
 */
#ifndef DECKHAND_GW_MMREQ_H
#define DECKHAND_GW_MMREQ_H

#include "conn.h"
#include "deckhand.pb-c.h"

/* Forward a queue request for the player logged in on c. OK when sent (the Reply comes
 * with the matchmaker's answer, or UNAVAILABLE after GW_MM_TIMEOUT); otherwise the error
 * to reply now. */
Deckhand__ErrorCode mmreq_join(gw *g, gw_conn *c, uint64_t cmd_id, const Deckhand__QueueJoin *q);
Deckhand__ErrorCode mmreq_leave(gw *g, gw_conn *c, uint64_t cmd_id, const Deckhand__QueueLeave *q);
/* Forward a party, lobby or game-list message whole (ClientRequest), tracked like a queue
 * request under the mark MMREQ_CLIENT (the inflight's match_id), so that its answer, a
 * refusal included, leaves c->queued as it was. Same returns as mmreq_join.
 *
 * A code join (PartyJoin, LobbyJoin) first asks guess_try (guess.h): while its address or
 * player waits after wrong codes it is answered RATE_LIMITED here (through g->answer,
 * returning OK), never forwarded; else its mark is MMREQ_CODE followed by the address, so
 * that its answer, whenever it comes, settles the try (mmreq_answered). */
#define MMREQ_CLIENT "*client"
#define MMREQ_CODE   "*code:"
Deckhand__ErrorCode mmreq_request(gw *g, gw_conn *c, uint64_t cmd_id,
                                  const Deckhand__ClientMessage *m);
/* Whether the inflight mark is a ClientRequest's (MMREQ_CLIENT or MMREQ_CODE). */
bool mmreq_is_client(const char *mark);
/* The matchmaker's answer r to the request tracked under mark (answered in time or
 * not): a code join's try is settled with guess_answered. */
void mmreq_answered(gw *g, const char *mark, const Deckhand__Internal__QueueReply *r);

/* The player of c disconnected while queued (c->queued) or in a party or lobby:
 * PlayerAway to the matchmaker, whose ticket keeps its place for the queue's grace period
 * and whose party and lobby mark the player gone; c->queued is cleared. */
void mmreq_player_away(gw *g, gw_conn *c);

/* The player of c resumed a session here (Hello with a token): PlayerBack to the
 * matchmaker, so that a waiting ticket follows the player to this gateway. */
void mmreq_player_back(gw *g, gw_conn *c);

#endif
