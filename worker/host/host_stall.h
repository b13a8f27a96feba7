/*
 * host_stall.h: the calls into a match's scripts that the stall watcher (host_stall.c)
 * watches. host.c and host_timers.c wrap each answer they make the engine run (a player's,
 * a bot's, a timer's) in host_stall_enter / host_stall_leave. Below host.c; a host
 * without a watcher (host_stall_start not called) makes both no-ops.
 */
#ifndef DECKHAND_WORKER_HOST_STALL_H
#define DECKHAND_WORKER_HOST_STALL_H

#include "host_internal.h"

/* A call into hm's scripts starts now. */
void host_stall_enter(host *h, const host_match *hm);
/* It returned: when the watcher had marked it (it ran past h->stall_ms), take the mark
 * back with a fenced write on the batch (refused when the match moved meanwhile: then
 * its adopter ends it). */
void host_stall_leave(host *h, const host_match *hm, uint64_t now_ms);

#endif
