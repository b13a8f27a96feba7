/*
 * dh_client_gws.h: the gateways a client knows, and which one it uses next.
 *
 * A player may resume on any gateway of a cluster (docs/PROTOCOL.md, "Reconnecting,
 * failover and retries"). A client given several (--gateway A,B) moves on to the next
 * when its gateway goes away: the connection drops, or the gateway (draining, or cut off
 * from a worker) says Reconnect (deckhand.proto), which names no gateway: the client uses
 * one it knows.
 */
#ifndef DECKHAND_DH_CLIENT_GWS_H
#define DECKHAND_DH_CLIENT_GWS_H

#include <stdbool.h>
#include <stddef.h>

#include "deckhand.pb-c.h"

#define DH_CLIENT_GWS_MAX  16
#define DH_CLIENT_ADDR_MAX 512

typedef struct {
    char addrs[DH_CLIENT_GWS_MAX][DH_CLIENT_ADDR_MAX];
    int n;   /* 1..DH_CLIENT_GWS_MAX once parsed */
    int cur; /* the one in use */
} dh_client_gws;

/* list: comma-separated addresses, each as dh_client_gateway_addr takes one (TCP
 * "host:port", or WebSocket with ws); NULL or "": the one gateway the environment names
 * (dh_client_env.h). 0, or -1 with err filled (an empty item, too many, a bad address). */
int dh_client_gws_parse(dh_client_gws *g, const char *list, bool ws, char *err, size_t errlen);
/* The gateway in use. */
const char *dh_client_gws_current(const dh_client_gws *g);
/* Move to the next gateway of the list (round robin; the same one when there is one)
 * and return it. */
const char *dh_client_gws_next(dh_client_gws *g);

/* When s is a Reconnect (the gateway drains): its after_ms, the time within which the
 * client should have left; else -1. */
long dh_client_reconnect_after(const Deckhand__ServerMessage *s);

#endif
