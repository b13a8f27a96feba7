/*
 * host_resign.h: a player's Resign (host_resign.c): below host.c, which hands it the
 * command; it ends the match or lets a bot play the seat on, through host_persist.h.
 */
#ifndef DECKHAND_WORKER_HOST_RESIGN_H
#define DECKHAND_WORKER_HOST_RESIGN_H

#include "host_internal.h"

/* Seat's player resigns (a Resign with cmd_id, through the gateway route); hm not busy. */
void host_resign(host *h, host_match *hm, int seat, uint64_t cmd_id, const char *route,
                 uint64_t now_ms);

#endif
