/*
 * test_matchmaker_wait.c: the matchmaker's loop waits on its sockets' descriptors itself
 * (matchmaker/wait.h), and ZMQ_FD's edge does not make it sleep with a message unread:
 * not after a send took the message's signal, not after a drain that stopped early. It
 * sleeps while nothing comes, wakes for a message, reads a monitor once before trusting its
 * fd, and says when the admin pipe is readable.
 */
#include "dh_clock.h"
#include "dh_test.h"
#include "dh_zmq.h"
#include "loop.h"
#include "wait.h"

#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

typedef struct {
    void *ctx, *router, *peer;
    mm_wait w;
} rig;

static void rig_open(rig *r, const char *ep)
{
    memset(r, 0, sizeof *r);
    r->ctx = zmq_ctx_new();
    r->router = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 100);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->router, ep), 0);
    r->peer = dh_zmq_socket(r->ctx, ZMQ_DEALER, "wk-1", 100);
    CU_ASSERT_EQUAL_FATAL(zmq_connect(r->peer, ep), 0);
    CU_ASSERT_EQUAL_FATAL(mm_wait_open(&r->w, r->router, NULL, -1), 0);
}

static void rig_close(rig *r)
{
    zmq_close(r->peer);
    zmq_close(r->router);
    zmq_ctx_term(r->ctx);
}

/* Read at most max messages from the ROUTER as loop_drain does, and tell the wait what the
 * drain found (quiet: its last receive said EAGAIN). How many were read. */
static int drain(rig *r, int max)
{
    char from[DH_ZMQ_ID_MAX + 1];
    int n = 0;
    for (;;) {
        if (n == max) {
            mm_wait_drained(&r->w, false, dh_zmq_sends());
            return n;
        }
        zmq_msg_t body;
        int rc = dh_zmq_recv_frame(r->router, from, &body);
        if (rc == 0) {
            mm_wait_drained(&r->w, true, dh_zmq_sends());
            return n;
        }
        if (rc == 1) {
            CU_ASSERT_STRING_EQUAL(from, "wk-1");
            zmq_msg_close(&body);
        }
        n++;
    }
}

static void peer_says(rig *r, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(zmq_send(r->peer, text, strlen(text), 0), (int)strlen(text));
}

/* How long mm_wait_poll(timeout_ms) took, in ms. */
static uint64_t waited(rig *r, long timeout_ms)
{
    uint64_t t0 = dh_now_ms();
    CU_ASSERT_EQUAL(mm_wait_poll(&r->w, timeout_ms), 0);
    return dh_now_ms() - t0;
}

static bool fd_readable(rig *r)
{
    struct pollfd p = r->w.fds[0];
    return poll(&p, 1, 0) == 1;
}

static void test_wait_sleeps_until_a_message_comes(void)
{
    rig r;
    rig_open(&r, "inproc://wait-sleeps");
    peer_says(&r, "hello");
    CU_ASSERT(waited(&r, 2000) < 1000); /* the first wait asks ZMQ_EVENTS: it waits */
    CU_ASSERT_EQUAL(drain(&r, 100), 1);
    CU_ASSERT(waited(&r, 100) >= 90); /* nothing comes: it sleeps its timeout */
    CU_ASSERT_EQUAL(drain(&r, 100), 0);
    peer_says(&r, "again");
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_EQUAL(drain(&r, 100), 1);
    rig_close(&r);
}

static void test_wait_does_not_sleep_on_a_message_whose_signal_a_send_took(void)
{
    rig r;
    rig_open(&r, "inproc://wait-after-send");
    peer_says(&r, "hello"); /* the ROUTER learns wk-1's route */
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_EQUAL(drain(&r, 100), 1);
    peer_says(&r, "a beat"); /* arrives while the loop works: the fd says so... */
    CU_ASSERT_TRUE(fd_readable(&r));
    usleep(5000); /* past libzmq's throttle (about 1 ms) of a send's look at commands */
    Deckhand__Internal__WorkerProbe wp = DECKHAND__INTERNAL__WORKER_PROBE__INIT;
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_PROBE;
    m.worker_probe = &wp;
    CU_ASSERT_EQUAL(dh_zmq_send(r.router, "wk-1", &m), 0);
    /* ...until the send processed the ROUTER's commands: the fd alone would sleep now */
    CU_ASSERT_FALSE(fd_readable(&r));
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_EQUAL(drain(&r, 100), 1);
    rig_close(&r);
}

static void test_wait_does_not_sleep_after_a_drain_that_stopped_early(void)
{
    rig r;
    rig_open(&r, "inproc://wait-stopped");
    for (int i = 0; i < 5; i++)
        peer_says(&r, "join");
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_EQUAL(drain(&r, 2), 2); /* a drain at its budget: three left */
    CU_ASSERT_FALSE(fd_readable(&r));
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_EQUAL(drain(&r, 100), 3);
    CU_ASSERT(waited(&r, 50) >= 40);
    rig_close(&r);
}

static void test_wait_reads_a_monitor_first_and_says_when_the_admin_pipe_is_readable(void)
{
    rig r;
    rig_open(&r, "inproc://wait-fds");
    int pfd[2];
    CU_ASSERT_EQUAL_FATAL(pipe(pfd), 0);
    void *mon = zmq_socket(r.ctx, ZMQ_PAIR);
    CU_ASSERT_EQUAL_FATAL(mm_wait_open(&r.w, r.router, mon, pfd[0]), 0);
    CU_ASSERT_EQUAL(r.w.nfds, 3);
    CU_ASSERT_TRUE(r.w.mon_due); /* read before its fd is trusted */
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_FALSE(r.w.admin_due);
    r.w.mon_due = false; /* the loop read it */
    CU_ASSERT_EQUAL(drain(&r, 100), 0);
    CU_ASSERT(waited(&r, 50) >= 40);
    CU_ASSERT_FALSE(r.w.mon_due);
    CU_ASSERT_FALSE(r.w.admin_due);
    CU_ASSERT_EQUAL(write(pfd[1], "x", 1), 1);
    CU_ASSERT(waited(&r, 2000) < 1000);
    CU_ASSERT_TRUE(r.w.admin_due);
    zmq_close(mon);
    close(pfd[0]);
    close(pfd[1]);
    rig_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"wait_sleeps_until_a_message_comes", test_wait_sleeps_until_a_message_comes},
        {"wait_does_not_sleep_on_a_message_whose_signal_a_send_took",
         test_wait_does_not_sleep_on_a_message_whose_signal_a_send_took},
        {"wait_does_not_sleep_after_a_drain_that_stopped_early",
         test_wait_does_not_sleep_after_a_drain_that_stopped_early},
        {"wait_reads_a_monitor_first_and_says_when_the_admin_pipe_is_readable",
         test_wait_reads_a_monitor_first_and_says_when_the_admin_pipe_is_readable},
        {NULL, NULL},
    };
    return dh_test_main("matchmaker_wait", cases);
}
