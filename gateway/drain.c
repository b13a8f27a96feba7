/*
 * drain.c: see drain.h.
 *
 * after_ms in the Reconnect is half the grace period (at most DRAIN_AFTER_MAX): a client
 * that spreads its reconnect over it (randomly, as the protocol asks) leaves the gateway
 * in time, and the gateways taking the players over do not see them all in the same
 * millisecond. Connections still there at the deadline are closed by the shutdown that
 * follows, exactly as without a drain: their players resume as after any dropped
 * connection. A connection still in its WebSocket handshake cannot be sent a message; it
 * is closed by the same shutdown, or by its client.
 */
#include "drain.h"

#include "conn.h"
#include "dh_log.h"
#include "listen.h"
#include "session.h"

#define DRAIN_AFTER_MAX 10000
#define DRAIN_REASON    "gateway draining"

void drain_start(gw *g)
{
    if (g->draining || g->stopping)
        return;
    g->draining = true;
    g->drain_deadline = uv_now(g->loop) + g->drain_ms;
    dh_counter_inc(&g->stats.drains);
    listen_stop(g);
    uint64_t after = g->drain_ms / 2 < DRAIN_AFTER_MAX ? g->drain_ms / 2 : DRAIN_AFTER_MAX;
    Deckhand__Reconnect rc = DECKHAND__RECONNECT__INIT;
    rc.after_ms = (uint32_t)after;
    rc.reason = DRAIN_REASON;
    Deckhand__ServerMessage m = DECKHAND__SERVER_MESSAGE__INIT;
    m.body_case = DECKHAND__SERVER_MESSAGE__BODY_RECONNECT;
    m.reconnect = &rc;
    size_t told = 0;
    for (gw_conn *c = g->conns; c; c = c->next)
        if (c->state == CONN_OPEN && session_send(c, &m) == 0)
            told++;
    dh_counter_add(&g->stats.reconnects_sent, told);
    dh_info("draining: not accepting; %zu of %zu connections told to reconnect elsewhere "
            "within %llu ms; stopping within drain_ms=%llu",
            told, g->nconns, (unsigned long long)after, (unsigned long long)g->drain_ms);
}

bool drain_done(gw *g)
{
    if (!g->draining || g->stopping)
        return false;
    if (g->nconns == 0) {
        dh_info("drained: every connection has gone");
        return true;
    }
    if (uv_now(g->loop) >= g->drain_deadline) {
        dh_info("drain grace over: closing the %zu connections left", g->nconns);
        return true;
    }
    return false;
}
