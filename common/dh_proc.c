/*
 * dh_proc.c: process metrics from /proc (dh_proc.h).
 *
 * The start time is boot time (btime in /proc/stat) plus the process's starttime ticks;
 * CPU seconds are ticks over sysconf(_SC_CLK_TCK). Open descriptors are counted by
 * listing /proc/self/fd, which costs one directory read per scrape: cheap at the
 * thousands of sockets a gateway holds, and only when Prometheus asks.
 */
#include "dh_proc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int dh_proc_parse_stat(const char *line, dh_proc_stat *out)
{
    /* The command name (field 2) may hold spaces and parentheses: the fields after it
     * start past its last ')'. */
    const char *p = strrchr(line, ')');
    if (!p)
        return -1;
    p++;
    unsigned long long v[24];
    size_t n = 0;
    /* Field 3 is the state letter; fields 4.. are numbers. We need up to field 24. */
    while (*p == ' ')
        p++;
    if (!*p)
        return -1;
    p++; /* the state */
    while (n < 22) {
        char *end;
        while (*p == ' ')
            p++;
        long long x = strtoll(p, &end, 10);
        if (end == p)
            return -1;
        v[n++] = (unsigned long long)x;
        p = end;
    }
    /* v[0] is field 4 (ppid): field k is v[k - 4]. */
    out->utime = v[14 - 4];
    out->stime = v[15 - 4];
    out->starttime = v[22 - 4];
    out->vsize = v[23 - 4];
    out->rss = (long long)v[24 - 4];
    return 0;
}

static int proc_read(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, n - 1, f);
    fclose(f);
    buf[got] = '\0';
    return got ? 0 : -1;
}

/* btime from /proc/stat: the boot time, unix seconds; 0 when unknown. */
static unsigned long long proc_boot_time(void)
{
    static char buf[16384];
    char *line = NULL;
    if (proc_read("/proc/stat", buf, sizeof buf) < 0 || !(line = strstr(buf, "\nbtime ")))
        return 0;
    return strtoull(line + 7, NULL, 10);
}

static double proc_count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 0;
    double n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own descriptor */
}

int dh_proc_sample(dh_proc *p)
{
    char buf[1024];
    dh_proc_stat st;
    if (proc_read("/proc/self/stat", buf, sizeof buf) < 0 || dh_proc_parse_stat(buf, &st) < 0)
        return -1;
    double tick = (double)sysconf(_SC_CLK_TCK);
    double page = (double)sysconf(_SC_PAGESIZE);
    if (tick <= 0)
        tick = 100;
    atomic_store(&p->cpu_seconds, (double)(st.utime + st.stime) / tick);
    atomic_store(&p->resident_bytes, (double)st.rss * page);
    atomic_store(&p->virtual_bytes, (double)st.vsize);
    unsigned long long boot = proc_boot_time();
    if (boot)
        atomic_store(&p->start_time, (double)boot + (double)st.starttime / tick);
    atomic_store(&p->open_fds, proc_count_fds());
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        atomic_store(&p->max_fds, rl.rlim_cur == RLIM_INFINITY ? -1.0 : (double)rl.rlim_cur);
    return 0;
}

static void proc_collect(void *ctx)
{
    dh_proc_sample(ctx);
}

int dh_proc_register(dh_proc *p, dh_metrics *reg)
{
    const dh_metric table[] = {
        {"process_cpu_seconds_total", "", "Total user and system CPU time spent in seconds.",
         DH_METRIC_COUNTER_REAL, &p->cpu_seconds},
        {"process_resident_memory_bytes", "", "Resident memory size in bytes.",
         DH_METRIC_GAUGE_REAL, &p->resident_bytes},
        {"process_virtual_memory_bytes", "", "Virtual memory size in bytes.", DH_METRIC_GAUGE_REAL,
         &p->virtual_bytes},
        {"process_open_fds", "", "Number of open file descriptors.", DH_METRIC_GAUGE_REAL,
         &p->open_fds},
        {"process_max_fds", "", "Maximum number of open file descriptors.", DH_METRIC_GAUGE_REAL,
         &p->max_fds},
        {"process_start_time_seconds", "", "Start time of the process since unix epoch in seconds.",
         DH_METRIC_GAUGE_REAL, &p->start_time},
    };
    if (dh_metrics_table(reg, table, sizeof table / sizeof table[0]) < 0)
        return -1;
    dh_metrics_collect(reg, proc_collect, p);
    return 0;
}
