/*
 * bench_mm_wait.c: what one wake-up of the matchmaker's loop costs its thread, zmq_poll
 * against its own poll of the sockets' ZMQ_FD (matchmaker/wait.h; docs/BENCHMARKS.md,
 * issue 27). A ROUTER (the matchmaker) and a DEALER (a worker, in a thread of its own) over
 * TCP on 127.0.0.1, with the project's socket defaults; beside the ROUTER, as in the
 * matchmaker, a socket monitor's PAIR and a pipe (the admin queue), both quiet. The DEALER
 * sends a small message and waits for the answer, N times; the loop waits, drains the
 * ROUTER to EAGAIN, answers each message (so every turn has a send, as under load), and
 * waits again. Rounds of N alternate between the two waits, so the machine's other work
 * falls on both. Per round: the loop thread's CPU time (CLOCK_THREAD_CPUTIME_ID, user and
 * kernel) per message, in microseconds.
 * Usage: bench_mm_wait [N] [ROUNDS]   (default 20000 messages, 6 rounds: 3 each)
 * Its system calls: perf stat --per-thread -e raw_syscalls:sys_enter bench_mm_wait ...
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#include "dh_zmq.h"
#include "wait.h"

typedef struct {
    void *ctx;
    char ep[64];
    char id[16]; /* a routing id of its own per round: a ROUTER refuses one still known */
    int n;
} peer_arg;

static void *peer(void *p)
{
    peer_arg *a = p;
    void *d = dh_zmq_socket(a->ctx, ZMQ_DEALER, a->id, 1000);
    zmq_connect(d, a->ep);
    char buf[256], msg[100];
    memset(msg, 'x', sizeof msg);
    for (int i = 0; i < a->n; i++) {
        zmq_send(d, msg, sizeof msg, 0);
        if (zmq_recv(d, buf, sizeof buf, 0) < 0)
            break;
    }
    zmq_close(d);
    return NULL;
}

static double thread_cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* Drain the ROUTER to EAGAIN, answering each message. How many were read. */
static int drain(void *router, mm_wait *w)
{
    char from[DH_ZMQ_ID_MAX + 1];
    Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
    m.worker_probe = &wp;
    int n = 0;
    for (;;) {
        zmq_msg_t body;
        int rc = dh_zmq_recv_frame(router, from, &body);
        if (rc == 0)
            break;
        if (rc == 1) {
            zmq_msg_close(&body);
            dh_zmq_send(router, from, &m);
            n++;
        }
    }
    if (w)
        mm_wait_drained(w, true, dh_zmq_sends());
    return n;
}

/* One round of n messages through the loop with zmq_poll (fd false) or mm_wait (true). */
static double round_us(void *ctx, void *router, void *mon, int admin_fd, const char *ep, int n,
                       int r, bool fd)
{
    peer_arg a = {ctx, "", "", n};
    snprintf(a.ep, sizeof a.ep, "%s", ep);
    snprintf(a.id, sizeof a.id, "wk-%d", r);
    mm_wait w;
    mm_wait_open(&w, router, mon, admin_fd);
    w.mon_due = false;
    pthread_t t;
    pthread_create(&t, NULL, peer, &a);
    double t0 = thread_cpu_us();
    for (int got = 0; got < n;) {
        if (fd) {
            mm_wait_poll(&w, 1000);
            got += drain(router, &w);
            for (; w.mon_due; w.mon_due = false) /* the last round's peer's close */
                while (dh_zmq_monitor_event(mon))
                    ;
        } else {
            zmq_pollitem_t items[3] = {{.socket = router, .events = ZMQ_POLLIN},
                                       {.socket = mon, .events = ZMQ_POLLIN},
                                       {.fd = admin_fd, .events = ZMQ_POLLIN}};
            zmq_poll(items, 3, 1000);
            got += drain(router, NULL);
            if (items[1].revents)
                while (dh_zmq_monitor_event(mon))
                    ;
        }
    }
    double us = thread_cpu_us() - t0;
    pthread_join(t, NULL);
    return us / n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    int rounds = argc > 2 ? atoi(argv[2]) : 6;
    if (n <= 0 || rounds <= 0)
        return 2;
    void *ctx = zmq_ctx_new();
    void *router = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, 1000);
    char ep[64];
    size_t len = sizeof ep;
    if (zmq_bind(router, "tcp://127.0.0.1:*") < 0 ||
        zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, ep, &len) < 0)
        return 1;
    void *mon =
        dh_zmq_monitor_open(ctx, router, "inproc://bench-mm-wait-mon", ZMQ_EVENT_DISCONNECTED);
    int pfd[2];
    if (!mon || pipe(pfd) < 0)
        return 1;
    while (dh_zmq_monitor_event(mon))
        ;
    for (int r = 0; r < rounds; r++) {
        bool fd = r % 2;
        double us = round_us(ctx, router, mon, pfd[0], ep, n, r, fd);
        printf("round=%d wait=%s messages=%d loop_cpu_us_per_message=%.2f\n", r,
               fd ? "fd" : "zmq_poll", n, us);
        fflush(stdout);
    }
    zmq_close(mon);
    zmq_close(router);
    zmq_ctx_term(ctx);
    return 0;
}
