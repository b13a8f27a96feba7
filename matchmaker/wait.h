/*
 * wait.h: the matchmaker's loop waits on its sockets' file descriptors itself (issue 27).
 *
 * zmq_poll, at every wait, makes a first pass with no timeout, then the wait, each pass
 * asking every ZeroMQ socket's ZMQ_EVENTS; and every such question, like every receive that
 * finds nothing, makes libzmq look at the socket's command mailbox: a getpid (its fork check)
 * and a poll of the mailbox's eventfd, three more calls (a read, a getpid, a poll) when a
 * command waits. With the ROUTER and the socket monitor that was 10 to 15 system calls a
 * wait. Here the loop polls the descriptors once, with the turn's timeout: the ROUTER's and
 * the monitor's ZMQ_FD and the admin queue's pipe.
 *
 * ZMQ_FD is edge-triggered, and that is the pitfall. It is not readable while a message
 * waits; it is the mailbox's eventfd, readable while a command (a pipe's "readable again")
 * waits that nobody has processed. Every libzmq call that processes the socket's commands
 * takes that signal: a receive that finds nothing, a ZMQ_EVENTS question, and a send (libzmq
 * processes commands in a send too, at most about once a millisecond). After that the fd
 * stays quiet while the message waits in the socket. So waiting on it is safe only while the
 * socket is known to be empty since the last call that could take a signal:
 *
 *  1. after every wake the loop drains the ROUTER until a receive says EAGAIN (loop_drain,
 *     every turn, as before); that EAGAIN leaves every pipe and the mailbox asleep, so the
 *     next message signals the fd (mm_wait_drained, with dh_zmq_sends at that moment);
 *  2. any send on the ROUTER after that EAGAIN (a beat's answer, a StartMatch, a turn's batch
 *     to a gateway, a probe) may have taken a message's signal: before the next wait the loop
 *     asks ZMQ_EVENTS once (dh_zmq_sends counts the thread's sends, dh_zmq.h), and does not
 *     sleep when it says POLLIN. Whoever adds a send on the ROUTER that does not go through
 *     dh_zmq_send, or any other libzmq call on it between the drain and the wait, must count
 *     it the same way (or the loop may sleep up to its timeout with a message unread);
 *  3. a drain that stopped at its budget (loop_turn.full) left messages, and the ROUTER is
 *     not known empty: ZMQ_EVENTS is asked as in 2, says POLLIN, and the loop does not sleep;
 *  4. the monitor's PAIR is never sent on: it is read until empty (probe_read) whenever its
 *     fd is readable, and on the first turn.
 *
 * Pinned by test_matchmaker_wait.
 */
#ifndef DECKHAND_MM_WAIT_H
#define DECKHAND_MM_WAIT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
    void *router;
    struct pollfd fds[3]; /* the ROUTER's ZMQ_FD, then the monitor's and the admin pipe */
    int nfds;
    int at_mon, at_admin; /* their index in fds, -1: not polled */
    uint64_t quiet_sends; /* dh_zmq_sends() when the ROUTER was last known empty */
    bool quiet;           /* ...and whether it is known at all (not on the first turn) */
    bool mon_due;         /* the monitor may hold events: read it this turn */
    bool admin_due;       /* the admin pipe is readable */
} mm_wait;

/* Wait on router, mon (NULL: none) and admin_fd (-1: none). 0, or -1 when libzmq gives no
 * ZMQ_FD (errno set). */
int mm_wait_open(mm_wait *w, void *router, void *mon, int admin_fd);
/* After a drain of the ROUTER: quiet when its last receive said EAGAIN (loop_turn.quiet),
 * which left it empty with its fd armed as of sends_then (dh_zmq_sends() at that receive);
 * not quiet when the drain stopped with messages left. */
void mm_wait_drained(mm_wait *w, bool quiet, uint64_t sends_then);
/* Wait up to timeout_ms (0: only look) for any of the descriptors, or not at all when a send
 * since the ROUTER was last quiet may have taken its signal and ZMQ_EVENTS says a message
 * waits. Sets mon_due and admin_due. 0 (also on EINTR: nothing woken), -1 on another poll
 * error (logged). */
int mm_wait_poll(mm_wait *w, long timeout_ms);

#endif
