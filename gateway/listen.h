/*
 * listen.h: the gateway's listening sockets (--tcp, --ws): accepting connections up to
 * --max-conns, refusing the ones past it cleanly, and pausing (not spinning) while the
 * process is out of file descriptors.
 */
#ifndef DECKHAND_GW_LISTEN_H
#define DECKHAND_GW_LISTEN_H

#include "gw.h"

/* --max-conns's default for a descriptor limit: the limit less GW_FD_RESERVE and a
 * sixteenth of it, at least 1. */
size_t listen_default_max_conns(unsigned long fd_limit);

/* Start the listeners configured in g (tcp_addr, ws_addr; an empty address is skipped).
 * Returns 0, or -1 with the reason logged. */
int listen_start(gw *g);
/* Resume accepting where it paused for lack of descriptors (every tick). */
void listen_tick(gw *g);
/* Stop accepting and close the listening sockets. */
void listen_stop(gw *g);

#endif
