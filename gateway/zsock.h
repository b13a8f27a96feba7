/*
 * zsock.h: the gateway's ZeroMQ sockets inside the libuv loop. One DEALER to the
 * matchmaker and one DEALER per worker endpoint, all with ZMQ_ROUTING_ID = the gateway
 * id. Every message received is handed to g->on_internal (backend.c, set by main.c): this
 * module only moves messages and does not read them.
 */
#ifndef DECKHAND_GW_ZSOCK_H
#define DECKHAND_GW_ZSOCK_H

#include "gw.h"
#include "wlink.h"

struct zsock {
    uv_poll_t poll;
    gw *gw;
    void *z;
    bool polling;
    char endpoint[GW_ADDR_MAX];
    wlink link; /* a worker dealer's liveness (wlink.h); the matchmaker's has no monitor */
};

/* Create the context and the matchmaker dealer, hook them into g->loop, and say
 * GatewayHello. 0 or -1. */
int zsock_init(gw *g);
/* Stop the loop handles (shutdown, before uv_run returns). */
void zsock_stop(gw *g);
/* Close the sockets and the context (after the loop ended). */
void zsock_free(gw *g);

/* True while the matchmaker dealer has a live connection (ZMQ_IMMEDIATE: it can send). */
bool zsock_mm_linked(gw *g);
/* Send m to the matchmaker. 0, or -1 with errno (EAGAIN: nobody to take it now). */
int zsock_mm_send(gw *g, const Deckhand__Internal__Internal *m);

/* Periodic work from the gateway tick: a GatewayHello every GW_HELLO_PERIOD; what the
 * worker links' monitors say (wlink.h). */
void zsock_tick(gw *g);

/* The dealer to the worker at endpoint, opened on first use; NULL when it cannot be
 * opened or the gateway is stopping. The dealer lives until zsock_free. */
zsock *zsock_dealer(gw *g, const char *endpoint);

#endif
