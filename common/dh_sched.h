/*
 * dh_sched.h: a shorter scheduler slice for a process's threads (Linux 6.12 and later,
 * the EEVDF scheduler's custom slices), so that a thread woken by a message gets a core
 * sooner.
 *
 * An answer crosses about eleven thread wake-ups (the player's connection, the gateway's
 * loop and its ZeroMQ thread, the worker's ZeroMQ thread and loop, Redis, and back). When
 * a woken thread finds its core running another one, it waits for that one's slice to
 * end: the kernel's base slice (0.7 ms times 1 + log2 of the cores, at most 8; 1.4 ms on
 * two cores), and where the tick is 4 ms (HZ=250) until the next tick. A SCHED_OTHER
 * thread may ask for a shorter slice, unprivileged, with sched_setattr's sched_runtime
 * (the kernel clamps it to 0.1-100 ms): its virtual deadline comes sooner, and when it
 * wakes it preempts a running thread with a longer slice (the kernel's PREEMPT_SHORT)
 * instead of waiting. Its share of the CPU does not change. Threads (and processes)
 * created afterwards inherit it.
 *
 * Each deckhand process calls dh_sched_slice_start at its start, before it starts any
 * thread (ZeroMQ's I/O threads, the operator port's), so every thread has the slice:
 * DECKHAND_SCHED_SLICE_US microseconds (DH_SCHED_SLICE_DEFAULT_US when unset; 0 leaves
 * the kernel's). An older kernel refuses the call or ignores it: that is logged once and
 * the process goes on. docs/OPERATIONS.md, "Scheduler slice"; the measurements in
 * docs/BENCHMARKS.md (issue 27).
 */
#ifndef DECKHAND_DH_SCHED_H
#define DECKHAND_DH_SCHED_H

#include <sys/types.h>

#define DH_SCHED_SLICE_ENV        "DECKHAND_SCHED_SLICE_US"
#define DH_SCHED_SLICE_DEFAULT_US 200
#define DH_SCHED_SLICE_MIN_US     100 /* the kernel's bounds */
#define DH_SCHED_SLICE_MAX_US     100000

/* Ask for a slice of us microseconds (DH_SCHED_SLICE_MIN_US..MAX_US) for thread tid (0:
 * the calling one). 0; or -1 with errno: EINVAL for us out of bounds, the kernel's when it
 * refuses, EOPNOTSUPP when it took the call but kept its own slice (before 6.12). */
int dh_sched_slice_set(pid_t tid, long us);
/* Thread tid's slice in microseconds as the kernel reports it (0: the calling thread), or
 * -1. Before 6.12 the kernel reports 0 for a SCHED_OTHER thread. */
long dh_sched_slice_get(pid_t tid);
/* The slice DECKHAND_SCHED_SLICE_US asks for into *us: DH_SCHED_SLICE_DEFAULT_US when unset
 * or empty, 0 for the kernel's. 0, or -1 when it is not an integer in 0 or MIN..MAX. */
int dh_sched_slice_env(long *us);

/* At a process's start, before it starts a thread: the slice from DECKHAND_SCHED_SLICE_US
 * for this thread and every thread it starts. 0 when set or when the variable is 0; 1
 * when the kernel refused or ignored it (one warning logged: the process goes on with the
 * kernel's slice); -1 when the variable is not an integer in 0 or MIN..MAX (an error
 * logged: the caller exits 2). */
int dh_sched_slice_start(void);

#endif
