/*
 * dh_sched.c: a shorter scheduler slice for a process's threads (dh_sched.h).
 *
 * glibc has no wrapper for sched_setattr and sched_getattr: the system calls are made
 * directly with the kernel's struct (its first version, 48 bytes, which every kernel
 * since 3.14 takes). A thread's attributes are read first and written back with only the
 * slice changed, so its nice value and policy (SCHED_BATCH, SCHED_IDLE) stay as they were.
 */
#include "dh_sched.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dh_log.h"

/* The kernel's struct sched_attr (include/uapi/linux/sched/types.h), first version. */
typedef struct {
    uint32_t size;
    uint32_t policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime; /* for SCHED_OTHER, BATCH and IDLE since 6.12: the slice, ns */
    uint64_t deadline;
    uint64_t period;
} sched_attr_v0;

#define SCHED_OTHER_        0
#define SCHED_BATCH_        3
#define SCHED_IDLE_         5
#define SCHED_RESET_ON_FORK 0x01

static int attr_get(pid_t tid, sched_attr_v0 *a)
{
    memset(a, 0, sizeof *a);
    return syscall(SYS_sched_getattr, tid, a, (unsigned)sizeof *a, 0u) == 0 ? 0 : -1;
}

long dh_sched_slice_get(pid_t tid)
{
    sched_attr_v0 a;
    return attr_get(tid, &a) < 0 ? -1 : (long)(a.runtime / 1000);
}

int dh_sched_slice_set(pid_t tid, long us)
{
    if (us < DH_SCHED_SLICE_MIN_US || us > DH_SCHED_SLICE_MAX_US) {
        errno = EINVAL;
        return -1;
    }
    sched_attr_v0 a;
    if (attr_get(tid, &a) < 0)
        return -1;
    if (a.policy != SCHED_OTHER_ && a.policy != SCHED_BATCH_ && a.policy != SCHED_IDLE_) {
        errno = EOPNOTSUPP; /* a real-time thread has no slice of this kind */
        return -1;
    }
    a.size = sizeof a;
    a.flags &= SCHED_RESET_ON_FORK;
    a.runtime = (uint64_t)us * 1000;
    if (syscall(SYS_sched_setattr, tid, &a, 0u) != 0)
        return -1;
    if (dh_sched_slice_get(tid) != us) { /* before 6.12 the field is ignored */
        errno = EOPNOTSUPP;
        return -1;
    }
    return 0;
}

int dh_sched_slice_env(long *us)
{
    const char *s = getenv(DH_SCHED_SLICE_ENV);
    *us = DH_SCHED_SLICE_DEFAULT_US;
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || (v != 0 && (v < DH_SCHED_SLICE_MIN_US || v > DH_SCHED_SLICE_MAX_US)))
        return -1;
    *us = v;
    return 0;
}

int dh_sched_slice_start(void)
{
    long us;
    if (dh_sched_slice_env(&us) < 0) {
        dh_error("bad %s=%s: 0 (the kernel's slice) or %d..%d microseconds", DH_SCHED_SLICE_ENV,
                 getenv(DH_SCHED_SLICE_ENV), DH_SCHED_SLICE_MIN_US, DH_SCHED_SLICE_MAX_US);
        return -1;
    }
    if (us == 0)
        return 0;
    if (dh_sched_slice_set(0, us) < 0) {
        dh_warn("scheduler slice of %ld us not set (%s): the kernel's slice stays (it needs "
                "Linux 6.12 or later; %s=0 to not ask)",
                us, strerror(errno), DH_SCHED_SLICE_ENV);
        return 1;
    }
    return 0;
}
