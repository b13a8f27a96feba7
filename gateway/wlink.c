/*
 * wlink.c: worker links, their heartbeat and their monitor (see wlink.h).
 *
 * The monitor's events are read with dh_zmq_monitor_event (dh_zmq.h). A monitor that
 * cannot be made leaves the link without a verdict: the
 * gateway then behaves as before it had one (commands time out, nobody is moved).
 */
#include "wlink.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "dh_zmq.h"
#include "gw.h"

#define WLINK_EVENTS (ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED)

static int wlink_options(void *dealer)
{
    int ivl = GW_WORKER_PING_MS, timeout = GW_WORKER_PING_TIMEOUT;
    int connect = GW_WORKER_CONNECT_MS;
    if (zmq_setsockopt(dealer, ZMQ_HEARTBEAT_IVL, &ivl, sizeof ivl) < 0 ||
        zmq_setsockopt(dealer, ZMQ_HEARTBEAT_TIMEOUT, &timeout, sizeof timeout) < 0 ||
        zmq_setsockopt(dealer, ZMQ_CONNECT_TIMEOUT, &connect, sizeof connect) < 0)
        return -1;
    return 0;
}

int wlink_open(wlink *l, void *ctx, void *dealer, uint64_t now)
{
    char ep[64];
    memset(l, 0, sizeof *l);
    l->down_since = now;
    l->heard = now;
    snprintf(ep, sizeof ep, "inproc://gw-wlink-%p", dealer);
    if (wlink_options(dealer) == 0 && (l->mon = dh_zmq_monitor_open(ctx, dealer, ep, WLINK_EVENTS)))
        return 0;
    dh_warn("worker link without a monitor (%s): its players are never moved for it",
            zmq_strerror(errno));
    return -1;
}

void wlink_close(wlink *l)
{
    if (l->mon)
        zmq_close(l->mon);
    l->mon = NULL;
}

void wlink_heard(wlink *l, uint64_t now)
{
    l->heard = now;
}

void wlink_read(wlink *l, uint64_t now)
{
    unsigned e;
    while (l->mon && (e = dh_zmq_monitor_event(l->mon)) != 0) {
        if (e == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
            l->up = true;
            l->reported = false;
        } else if (e == ZMQ_EVENT_DISCONNECTED && l->up) {
            l->up = false;
            l->down_since = now;
        }
    }
}

bool wlink_lost(const wlink *l, uint64_t now)
{
    return l->mon && !l->up && now - l->down_since >= GW_WORKER_LINK_GRACE &&
           now - l->heard >= GW_WORKER_TIMEOUT;
}
