/*
 * zsock.h: the gateway's ZeroMQ sockets inside the libuv loop. One DEALER to the
 * matchmaker and one DEALER per worker endpoint, all with ZMQ_ROUTING_ID = the gateway
 * id. Every message received is handed to g->on_internal (backend.c, set by main.c): this
 * module only moves messages and does not read them (a PlayerOutputs is read in place,
 * outwire.h, anything else unpacked).
 */
#ifndef DECKHAND_GW_ZSOCK_H
#define DECKHAND_GW_ZSOCK_H

#include "cmdbatch.h"
#include "gw.h"
#include "outwire.h"
#include "wlink.h"

struct zsock {
    uv_poll_t poll;
    gw *gw;
    void *z;
    bool polling;
    char endpoint[GW_ADDR_MAX];
    wlink link;      /* a worker dealer's liveness (wlink.h); the matchmaker's has no monitor */
    outwire outputs; /* PlayerOutputs read in place (outwire.h) */
    cmdbatch cmds;   /* commands for this worker, sent at the end of the loop turn */
    zsock *cmd_next; /* on g->cmd_list while cmds holds any */
    bool dirty;      /* touched since its last drain: on g->drain_list, drained before
                        the loop waits */
    zsock *drain_next, **drain_pprev; /* on g->drain_list while dirty */
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

/* Send m on s now (not batched). 0, or -1 with errno. Every send on a gateway socket goes
 * through here or zsock_command: a send may take the signal of a message that arrived,
 * so the socket is marked to be drained before the loop waits. */
int zsock_send(zsock *s, const Deckhand__Internal__Internal *m);

/* Periodic work from the gateway tick: a GatewayHello every GW_HELLO_PERIOD; what the
 * worker links' monitors say (wlink.h). */
void zsock_tick(gw *g);

/* Queue m (a PlayerCommand) from player_id (cmd_id 0: the gateway's own) for d's worker:
 * sent with the loop turn's other commands for it, before the loop next waits; a failed
 * send is told to g->command_unsent, for each command. 0, or -1 when out of memory. */
int zsock_command(zsock *d, const Deckhand__Internal__Internal *m, const char *player_id,
                  uint64_t cmd_id);
/* The same for an Internal packed already. */
int zsock_command_packed(zsock *d, const uint8_t *msg, size_t len, const char *player_id,
                         uint64_t cmd_id);

/* The dealer to the worker at endpoint, opened on first use; NULL when it cannot be
 * opened or the gateway is stopping. The dealer lives until zsock_free. */
zsock *zsock_dealer(gw *g, const char *endpoint);

#endif
