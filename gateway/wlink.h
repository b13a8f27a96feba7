/*
 * wlink.h: is the gateway's ZeroMQ link to a worker alive? A worker sends the gateway
 * nothing unasked (its outputs and replies only), so silence alone cannot tell a quiet
 * worker, a slow one and a dead link apart. ZeroMQ's own heartbeat can: every worker
 * dealer PINGs its peer every GW_WORKER_PING_MS, the worker's ZeroMQ I/O thread answers
 * with a PONG whatever its loop is doing, and a link that brings back nothing at all
 * (no message, no PONG) for GW_WORKER_PING_TIMEOUT is closed by ZeroMQ, which the
 * dealer's socket monitor reports here. A worker that is merely slow (a long script call,
 * a Redis wait) keeps its link up; a partition, a dead host or a dead process closes it.
 *
 * strand.c reads the verdict: a link is lost once ZeroMQ has closed it and it
 * has stayed closed for GW_WORKER_LINK_GRACE, and nothing has been heard from the worker
 * for GW_WORKER_TIMEOUT (the time a command waits for its answer), so a link that
 * reconnects at once (a restarted worker) is never lost. zsock.c owns the struct (one per
 * worker dealer) and feeds it: the messages it receives, the monitor events each tick.
 */
#ifndef DECKHAND_GW_WLINK_H
#define DECKHAND_GW_WLINK_H

#include <stdbool.h>
#include <stdint.h>

#define GW_WORKER_PING_MS      1000 /* ZMQ_HEARTBEAT_IVL of a worker dealer */
#define GW_WORKER_PING_TIMEOUT 3000 /* ms without any traffic after a PING: ZeroMQ closes */
#define GW_WORKER_LINK_GRACE   1000 /* ms a closed link must stay closed to be lost */
#define GW_WORKER_CONNECT_MS   2000 /* ZMQ_CONNECT_TIMEOUT: retry a SYN lost in a cut soon */

typedef struct {
    void *mon;           /* PAIR socket reading the dealer's monitor, or NULL (no verdict) */
    bool up;             /* a handshake succeeded and no disconnect since */
    uint64_t down_since; /* when the link went down (or the dealer opened) */
    uint64_t heard;      /* when the worker last sent a message (or the dealer opened) */
    bool reported;       /* this loss was logged and counted (strand.c); cleared when up */
    uint64_t scanned;    /* when strand.c last looked for the connections behind it */
} wlink;

/* Give the worker dealer its heartbeat and connect options and start monitoring it;
 * before its zmq_connect. now: uv_now. 0, or -1 with errno (the dealer stays usable: l
 * then has no monitor and never says lost). */
int wlink_open(wlink *l, void *ctx, void *dealer, uint64_t now);
/* Stop monitoring (before the dealer is closed). */
void wlink_close(wlink *l);
/* A message came from the worker. */
void wlink_heard(wlink *l, uint64_t now);
/* Read the monitor's events: handshakes bring the link up, disconnects take it down. */
void wlink_read(wlink *l, uint64_t now);
/* True when the link is lost (see the top of this file). */
bool wlink_lost(const wlink *l, uint64_t now);

#endif
