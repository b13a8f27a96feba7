/*
 * probe.h: a worker's death seen when its connection closes, not waited for.
 *
 * A worker killed with -9 (or whose machine's kernel drops it) closes its sockets at once,
 * but its beats only stop: waiting for REGISTRY_DEAD_MS of silence cost 1.3-1.5 s of every
 * failover. ZeroMQ tells the ROUTER's owner when a connection closes (a socket monitor,
 * ZMQ_EVENT_DISCONNECTED, the stable API), but not whose: the event names the endpoint,
 * not the routing identity. So on each closed connection the matchmaker sends WorkerProbe
 * (empty; the worker ignores it) to every live worker on its main routing identity: the
 * ROUTER is ZMQ_ROUTER_MANDATORY (dh_zmq_socket), so a send to a route that is gone is
 * refused with EHOSTUNREACH, and that worker is declared dead now ("connection closed",
 * registry_lost), counted in workers_dead; the tick that follows sweeps its matches. A full
 * pipe (EAGAIN) is a live route.
 *
 * libzmq drops the route lazily: the pipe's termination is a command the ROUTER processes
 * when it next looks at its commands (throttled), so for a few milliseconds after the
 * event the route may still stand. Hence the window: the loop probes again on every turn
 * for PROBE_WINDOW_MS after the last closed connection, with its poll timeout cut to
 * PROBE_EVERY_MS meanwhile. A worker's beat thread connects a second DEALER ("<id>/beat"):
 * its route is not probed, only the registry row's id, the one StartMatch and AdoptMatch
 * go to. A gateway's or a CLI's closed connection costs one probe per live worker per turn
 * of the window (a few dozen small messages).
 *
 * The silence timeout stays for what closes no connection: a live process that went quiet
 * (SIGSTOP, a partition that drops packets). ZMQ_ROUTER_NOTIFY would name the peer, but it
 * is a draft option that Debian's libzmq refuses. Fencing keeps a fast verdict safe: a
 * worker falsely taken for dead (its connection cut, not its process) cannot write to the
 * matches moved off it (tests/e2e/test_cut_connection.sh).
 */
#ifndef DECKHAND_MM_PROBE_H
#define DECKHAND_MM_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "mm_store.h"

#define PROBE_WINDOW_MS 100 /* probe on every turn this long after the last closed connection */
#define PROBE_EVERY_MS  5   /* the loop's poll timeout while the window is open */

typedef struct {
    void *mon;          /* PAIR on the ROUTER's monitor; NULL: not watching */
    uint64_t closed_ms; /* the last closed connection */
    uint64_t until_ms;  /* probe until then; 0: no connection closed lately */
} probe;

/* Watch router's closed connections (ctx is its context). 0, or -1 (logged: the loop then
 * goes on with the silence timeout alone). */
int probe_open(probe *p, void *ctx, void *router);
void probe_close(probe *p);
/* Read the monitor's waiting events, until none is left (wait.h, rule 4): a closed
 * connection opens the window. */
void probe_read(probe *p, uint64_t now_ms);
/* While the window is open, probe every live worker: those whose route is gone are
 * declared dead now. How many. */
size_t probe_run(probe *p, mm_state *mm, uint64_t now_ms);
/* The loop's poll timeout: timeout_ms, or PROBE_EVERY_MS while the window is open. */
long probe_timeout(const probe *p, uint64_t now_ms, long timeout_ms);

#endif
