/*
 * host_send.h: sending one ServerMessage to one player through its gateway (host_send.c).
 * Private to the worker's files; host_output.h includes it.
 */
#ifndef DECKHAND_WORKER_HOST_SEND_H
#define DECKHAND_WORKER_HOST_SEND_H

#include <stddef.h>
#include <stdint.h>

#include "worker.h"

/* Send one packed ServerMessage (len bytes at msg) to player_id through the gateway at
 * route, as a PlayerOutput about match_id ("" for none) that says it carries kind. -1 when that
 * gateway is gone (EHOSTUNREACH: not an error, the player resyncs when it comes back), else 0
 * (another failure is logged). */
int host_send_packed(host *h, const char *route, const char *player_id, const char *match_id,
                     Deckhand__Internal__PlayerOutput__Kind kind, const uint8_t *msg, size_t len);
/* Send one ServerMessage to a player through the gateway at route ("" or NULL: dropped).
 * Its packed size (0 when dropped before packing). */
size_t host_send(host *h, const char *route, const char *player_id,
                 const Deckhand__ServerMessage *sm);
/* A Reply to cmd_id: ok when code is 0, else the error code and text. */
void host_send_reply(host *h, const char *route, const char *player_id, uint64_t cmd_id, int code,
                     const char *text);

#endif
