/*
 * route.h: the gateway's ZeroMQ side. One DEALER to the matchmaker (queue requests,
 * match assignments) and one DEALER per worker endpoint (player commands out, player
 * outputs in), all with ZMQ_ROUTING_ID = the gateway id, all inside the libuv loop.
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

/* Periodic work from the gateway tick: GatewayHello, expired queue requests. */
void route_tick(gw *g);

/* Forward a queue request for the player logged in on c. OK when sent (the Reply comes
 * with the matchmaker's answer, or UNAVAILABLE after GW_MM_TIMEOUT); otherwise the error
 * to reply now. */
Deckhand__ErrorCode route_queue_join(gw *g, gw_conn *c, uint64_t cmd_id,
                                     const Deckhand__QueueJoin *q);
Deckhand__ErrorCode route_queue_leave(gw *g, gw_conn *c, uint64_t cmd_id,
                                      const Deckhand__QueueLeave *q);

/* The player of c disconnected while queued for c->queued: take them out of the queue so
 * that no match is formed around an absent player. Nobody is answered. */
void route_queue_abandon(gw *g, gw_conn *c);

/* Forward a Choose or Resync (exactly one non-NULL) to the worker hosting match_id. OK
 * when sent (the worker replies); otherwise the error to reply now. */
Deckhand__ErrorCode route_player_command(gw *g, gw_conn *c, uint64_t cmd_id, const char *match_id,
                                         Deckhand__Choose *choose, Deckhand__Resync *resync);

#endif
