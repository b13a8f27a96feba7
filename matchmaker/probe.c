/*
 * probe.c: closed connections seen by a socket monitor, and the probes that find whose
 * (see probe.h).
 */
#include "probe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "dh_zmq.h"

int probe_open(probe *p, void *ctx, void *router)
{
    char ep[64];
    memset(p, 0, sizeof *p);
    snprintf(ep, sizeof ep, "inproc://mm-probe-%p", router);
    p->mon = dh_zmq_monitor_open(ctx, router, ep, ZMQ_EVENT_DISCONNECTED);
    if (p->mon)
        return 0;
    dh_warn("no socket monitor (%s): a dead worker is seen by its silence alone",
            zmq_strerror(errno));
    return -1;
}

void probe_close(probe *p)
{
    if (p->mon)
        zmq_close(p->mon);
    p->mon = NULL;
}

void probe_read(probe *p, uint64_t now_ms)
{
    unsigned e;
    while (p->mon && (e = dh_zmq_monitor_event(p->mon)) != 0) {
        if (e != ZMQ_EVENT_DISCONNECTED)
            continue;
        p->closed_ms = now_ms;
        p->until_ms = now_ms + PROBE_WINDOW_MS;
    }
}

size_t probe_run(probe *p, mm_state *mm, uint64_t now_ms)
{
    if (!p->until_ms)
        return 0;
    if (now_ms > p->until_ms) {
        p->until_ms = 0;
        return 0;
    }
    Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    Deckhand__Internal__Internal msg = DECKHAND__INTERNAL__INTERNAL__INIT;
    msg.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
    msg.worker_probe = &wp;
    size_t died = 0;
    char why[64];
    for (size_t i = 0; i < mm->reg.nworkers; i++) {
        registry_worker *w = &mm->reg.workers[i];
        if (!w->alive || dh_zmq_send(mm->router, w->id, &msg) == 0 || errno != EHOSTUNREACH)
            continue;
        snprintf(why, sizeof why, "connection closed (route gone %llu ms after)",
                 (unsigned long long)(now_ms - p->closed_ms));
        died += registry_lost(&mm->reg, w->id, why);
    }
    return died;
}

long probe_timeout(const probe *p, uint64_t now_ms, long timeout_ms)
{
    if (!p->until_ms || now_ms > p->until_ms)
        return timeout_ms;
    return timeout_ms < PROBE_EVERY_MS ? timeout_ms : PROBE_EVERY_MS;
}
