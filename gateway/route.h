/*
 * route.h: the gateway's ZeroMQ side. One DEALER to the matchmaker (queue requests,
 * match assignments) and one DEALER per worker endpoint (player commands out, player
 * outputs in), all with ZMQ_ROUTING_ID = the gateway id, all inside the libuv loop.
 *
 * Failover (docs/ARCHITECTURE.md, "Durable matches"): the matchmaker's MatchMoved
 * re-routes a match; the commands in flight for its players get UNAVAILABLE at once and
 * the players connected here are re-attached to the new worker.
 */
#ifndef DECKHAND_GW_ROUTE_H
#define DECKHAND_GW_ROUTE_H

#include "deckhand.pb-c.h"
#include "gw.h"

/* Create the context and the matchmaker dealer, hook them into g->loop. 0 or -1. */
int route_init(gw *g);
/* Stop the loop handles (shutdown, before uv_run returns). */
void route_stop(gw *g);
/* Close the sockets and the context (after the loop ended). */
void route_free(gw *g);

/* True while the matchmaker dealer has a live connection (ZMQ_IMMEDIATE: it can send). */
bool route_mm_linked(gw *g);

/* Periodic work from the gateway tick: GatewayHello, expired queue requests. */
void route_tick(gw *g);

/* Forward a queue request for the player logged in on c. OK when sent (the Reply comes
 * with the matchmaker's answer, or UNAVAILABLE after GW_MM_TIMEOUT); otherwise the error
 * to reply now. */
Deckhand__ErrorCode route_queue_join(gw *g, gw_conn *c, uint64_t cmd_id,
                                     const Deckhand__QueueJoin *q);
Deckhand__ErrorCode route_queue_leave(gw *g, gw_conn *c, uint64_t cmd_id,
                                      const Deckhand__QueueLeave *q);

/* The player of c disconnected. Queued (c->queued): PlayerAway to the matchmaker, whose
 * ticket keeps its place for the queue's grace period. In a match (c->match): a
 * PlayerCommand{away, cmd_id 0} to the match's worker, which starts the seat's grace
 * period. Nobody is answered; both fields are cleared. */
void route_player_away(gw *g, gw_conn *c);

/* The player of c resumed a session here (Hello with a token): PlayerBack to the
 * matchmaker, so that a waiting ticket follows the player to this gateway. */
void route_player_back(gw *g, gw_conn *c);

/* Forward a Choose or Resync (exactly one non-NULL) to the worker hosting match_id. OK
 * when sent (the worker replies, or the gateway answers UNAVAILABLE when the worker is
 * silent or the match moves meanwhile); otherwise the error to reply now. A worker's
 * UNKNOWN_MATCH makes the gateway forget its route for the match, so that the next
 * command looks it up in Redis again. */
Deckhand__ErrorCode route_player_command(gw *g, gw_conn *c, uint64_t cmd_id, const char *match_id,
                                         Deckhand__Choose *choose, Deckhand__Resync *resync);

#endif
