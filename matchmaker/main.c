/*
 * main.c: deckhand-matchmaker, the control-path hub.
 *
 * One ROUTER socket, one zmq_poll loop. Gateways bring queue joins and leaves; workers
 * bring hellos, beats and match starts/ends (control.c handles each). Every TICK_MS (and right
 * after a join) the loop expires silent workers and stalled placements and forms what the queues
 * allow. State lives in memory only: a restarted matchmaker relearns workers from their periodic
 * WorkerHello, and players re-queue (queues in Redis are a later issue).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>

#include "control.h"
#include "dh_config.h"
#include "dh_log.h"
#include "dh_zmq.h"
#include "matchmaker.h"

#define TICK_MS   50
#define HWM       10000
#define DRAIN_MAX 1000 /* messages handled per wake-up before the tick gets its turn */

static volatile sig_atomic_t mm_stop; /* set by SIGINT/SIGTERM; the only global */

static void mm_on_signal(int sig)
{
    (void)sig;
    mm_stop = 1;
}

static uint64_t mm_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int mm_run(mm_state *mm)
{
    uint64_t next_tick = mm_now_ms();
    while (!mm_stop) {
        uint64_t now = mm_now_ms();
        long timeout = next_tick > now ? (long)(next_tick - now) : 0;
        zmq_pollitem_t item = {.socket = mm->router, .events = ZMQ_POLLIN};
        if (zmq_poll(&item, 1, timeout) < 0) {
            if (errno == EINTR)
                continue;
            dh_error("zmq_poll: %s", zmq_strerror(errno));
            return -1;
        }
        bool form = false;
        char identity[DH_ZMQ_ID_MAX + 1];
        for (int i = 0; i < DRAIN_MAX; i++) {
            Deckhand__Internal__Internal *msg = NULL;
            int rc = dh_zmq_recv(mm->router, identity, &msg);
            if (rc == 0)
                break;
            if (rc < 0)
                continue;
            form |= control_handle(mm, identity, msg, mm_now_ms());
            deckhand__internal__internal__free_unpacked(msg, NULL);
        }
        now = mm_now_ms();
        if (form || now >= next_tick) {
            registry_expire(&mm->reg, now);
            placement_expire(mm, now);
            placement_form(mm, now);
            if (now >= next_tick)
                next_tick = now + TICK_MS;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *bind =
        dh_config_str(argc, argv, "--bind", "DECKHAND_MATCHMAKER_BIND", "tcp://127.0.0.1:5560");
    dh_log_init("matchmaker");
    int rc = 1;
    mm_state mm;
    memset(&mm, 0, sizeof mm);
    registry_init(&mm.reg);
    placement_list_init(&mm.placements);
    void *ctx = zmq_ctx_new();
    if (!ctx)
        goto err;
    mm.queues = queue_set_new();
    if (!mm.queues)
        goto err;
    mm.router = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, HWM);
    if (!mm.router)
        goto err;
    /* A worker or gateway that restarts under its id takes its route over at once, even
     * while the dead connection has not been noticed yet (else ZeroMQ refuses it). */
    int one = 1;
    zmq_setsockopt(mm.router, ZMQ_ROUTER_HANDOVER, &one, sizeof one);
    if (zmq_bind(mm.router, bind) < 0) {
        dh_error("cannot bind %s: %s", bind, zmq_strerror(errno));
        goto err;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = mm_on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    dh_info("listening %s", bind);
    if (mm_run(&mm) == 0) {
        dh_info("stopping: %zu players waiting, %zu placements pending", queue_total(mm.queues),
                mm.placements.n);
        rc = 0;
    }
err:
    if (rc)
        dh_error("matchmaker failed to start or crashed out of its loop");
    if (mm.router)
        zmq_close(mm.router);
    if (ctx)
        zmq_ctx_term(ctx);
    queue_set_free(mm.queues);
    placement_list_free(&mm.placements);
    registry_free(&mm.reg);
    return rc;
}
