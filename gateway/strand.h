/*
 * strand.h: players stranded behind a lost worker link. A gateway cut off from a worker
 * (a partition between their hosts, or this gateway's host isolated) can neither send its
 * players' commands to their match nor pass on what the worker says, while another
 * gateway may reach that worker well: the players should move. When a worker link is
 * lost (wlink.h: ZeroMQ closed it for silence, it stayed closed, and the worker has said
 * nothing for GW_WORKER_TIMEOUT), every player whose match routes through it (the matches
 * its connection is seated in, and those of its commands still waiting for an answer) is
 * sent Reconnect{after_ms, reason} (deckhand.proto, as a drain does) and its connection
 * is closed once that is written: a client that knows other gateways resumes there with
 * its token, and one that knows a single load-balanced address connects again through it.
 *
 * A slow worker is never taken for a lost link (its ZeroMQ I/O thread still answers the
 * heartbeat); a dead worker's matches are moved by the matchmaker long before the link is
 * lost, and their routes with them. What is left is a link this gateway cannot use, which
 * is also what a gateway cut off from everything but its players sees: it lets its match
 * players go rather than keep them for as long as the cut lasts.
 */
#ifndef DECKHAND_GW_STRAND_H
#define DECKHAND_GW_STRAND_H

#include <stddef.h>

#include "gw.h"

#define STRAND_AFTER_MS  1000               /* the Reconnect's after_ms: leave within it */
#define STRAND_REASON    "worker link lost" /* the Reconnect's reason, and the log's words */
#define STRAND_RESCAN_MS 5000 /* how often the connections behind a lost link are looked for */

/* Periodic work from the gateway tick: tell the players behind every lost worker link to
 * reconnect elsewhere and close their connections (counted: ..._worker_links_lost_total
 * once per link and loss, ..._reconnects_sent_total per player). How many were told. */
size_t strand_tick(gw *g);

#endif
