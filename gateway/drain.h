/*
 * drain.h: the gateway's SIGTERM drain. A gateway being stopped (a rollout, a scale-down,
 * a node drain) stops accepting at once, so /readyz fails and the load balancer stops
 * sending players to it, tells every connection to Reconnect (deckhand.proto: resume on
 * another gateway with the session token), and exits when they have gone or --drain-ms
 * has passed, whichever comes first: players move over in a controlled way instead of
 * all losing their connection at the same instant.
 */
#ifndef DECKHAND_GW_DRAIN_H
#define DECKHAND_GW_DRAIN_H

#include <stdbool.h>

#include "gw.h"

/* Begin draining: stop listening, send Reconnect{after_ms, reason} to every open
 * connection, count it (deckhand_gateway_drains_total, ..._reconnects_sent_total), set
 * the deadline g->drain_ms from now. Once only; a gateway already draining is left
 * alone. */
void drain_start(gw *g);
/* True when a drain is over: no connection is left, or its deadline has passed (the
 * caller then stops the gateway, closing whatever is left). */
bool drain_done(gw *g);

#endif
