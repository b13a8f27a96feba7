/*
 * backend.h: the messages the gateway receives over ZeroMQ, and what each one means:
 * from the matchmaker QueueReply, MatchAssigned and MatchMoved; from workers
 * PlayerOutput, passed on to the player's connection.
 */
#ifndef DECKHAND_GW_BACKEND_H
#define DECKHAND_GW_BACKEND_H

#include "zsock.h"

/* One message m received on from (g->on_internal: main.c sets it, zsock.c calls it). */
void backend_on_internal(gw *g, zsock *from, Deckhand__Internal__Internal *m);

#endif
