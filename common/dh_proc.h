/*
 * dh_proc.h: the standard process metrics every Prometheus client exports, read from
 * /proc when /metrics is scraped (a collector, dh_metrics.h), so the main loop does
 * nothing for them:
 *   process_cpu_seconds_total      user + system CPU time (counter)
 *   process_resident_memory_bytes  resident set size
 *   process_virtual_memory_bytes   virtual memory size
 *   process_open_fds               open file descriptors
 *   process_max_fds                the descriptor limit (RLIMIT_NOFILE)
 *   process_start_time_seconds     start time, unix seconds
 * Names and meanings follow the Prometheus client libraries', so stock dashboards and
 * alerts (descriptors near the limit) work unchanged. Linux only; elsewhere, or when
 * /proc cannot be read, the values stay 0.
 */
#ifndef DECKHAND_DH_PROC_H
#define DECKHAND_DH_PROC_H

#include <stdatomic.h>

#include "dh_metrics.h"

typedef struct {
    _Atomic double cpu_seconds;
    _Atomic double resident_bytes;
    _Atomic double virtual_bytes;
    _Atomic double open_fds;
    _Atomic double max_fds;
    _Atomic double start_time;
} dh_proc;

/* Register the six series in reg and its collector (the registry's one). p must outlive
 * the registry. 0, or -1 when the registry is full. */
int dh_proc_register(dh_proc *p, dh_metrics *reg);
/* Read the values now (what the collector does). 0, or -1 when /proc is unreadable. */
int dh_proc_sample(dh_proc *p);

/* Parse the fields of a /proc/PID/stat line that matter here: utime, stime (clock ticks),
 * starttime (ticks after boot), vsize (bytes), rss (pages). 0, or -1 when malformed. */
typedef struct {
    unsigned long long utime, stime, starttime, vsize;
    long long rss;
} dh_proc_stat;
int dh_proc_parse_stat(const char *line, dh_proc_stat *out);

#endif
