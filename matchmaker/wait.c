/*
 * wait.c: one poll over the loop's descriptors, with ZMQ_FD's edge kept (see wait.h).
 */
#include "wait.h"

#include <errno.h>
#include <string.h>
#include <zmq.h>

#include "dh_log.h"
#include "dh_zmq.h"

static int wait_fd(void *sock, struct pollfd *p)
{
    size_t len = sizeof p->fd;
    p->events = POLLIN;
    p->revents = 0;
    return zmq_getsockopt(sock, ZMQ_FD, &p->fd, &len);
}

int mm_wait_open(mm_wait *w, void *router, void *mon, int admin_fd)
{
    memset(w, 0, sizeof *w);
    w->router = router;
    w->at_mon = w->at_admin = -1;
    if (wait_fd(router, &w->fds[w->nfds++]) < 0)
        return -1;
    if (mon) {
        w->at_mon = w->nfds;
        if (wait_fd(mon, &w->fds[w->nfds++]) < 0)
            return -1;
        w->mon_due = true; /* rule 4: read once before the first wait trusts its fd */
    }
    if (admin_fd >= 0) {
        w->at_admin = w->nfds;
        w->fds[w->nfds++] = (struct pollfd){.fd = admin_fd, .events = POLLIN};
    }
    return 0;
}

void mm_wait_drained(mm_wait *w, bool quiet, uint64_t sends_then)
{
    w->quiet = quiet;
    w->quiet_sends = sends_then;
}

int mm_wait_poll(mm_wait *w, long timeout_ms)
{
    /* Rules 2 and 3: a send since the ROUTER was last found empty may have taken the signal
     * of a message that came meanwhile, and a drain that stopped early left some; ZMQ_EVENTS
     * finds them (and, when it finds none, leaves the socket asleep with its fd armed again,
     * as an EAGAIN does). */
    if (!w->quiet || dh_zmq_sends() != w->quiet_sends) {
        uint64_t sends = dh_zmq_sends();
        if (dh_zmq_readable(w->router))
            timeout_ms = 0;
        else
            mm_wait_drained(w, true, sends);
    }
    if (timeout_ms > 0 && w->mon_due)
        timeout_ms = 0; /* rule 4: the monitor's first read comes before any sleep */
    w->admin_due = false;
    for (int i = 0; i < w->nfds; i++)
        w->fds[i].revents = 0;
    if (poll(w->fds, (nfds_t)w->nfds, timeout_ms < 0 ? -1 : (int)timeout_ms) < 0) {
        if (errno == EINTR)
            return 0;
        dh_error("poll: %s", strerror(errno));
        return -1;
    }
    if (w->at_mon >= 0 && w->fds[w->at_mon].revents)
        w->mon_due = true;
    if (w->at_admin >= 0 && w->fds[w->at_admin].revents)
        w->admin_due = true;
    return 0;
}
