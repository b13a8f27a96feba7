/*
 * load_cpu.c: the CPU each process of the driven cluster spends per accepted answer, for
 * `deckhand load --cpu` / `--cpu-pids` (see load.h), so that every change to the data
 * path can be judged process by process from the load generator's own output.
 *
 * A process is watched either by its pid (this machine: /proc/PID/stat's utime+stime) or
 * by its operator HTTP port (any machine: process_cpu_seconds_total in /metrics, which
 * every deckhand process serves; Redis has no such port and is watched by pid). The load
 * generator's own processes are always counted: this one and its forked players.
 *
 * The window runs from the first progress line (second 1, when the players have logged
 * in and started playing) to the end, and the answers are those accepted in it, as
 * bench/load_curve.sh always measured.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "admin_http.h"
#include "dh_proc.h"
#include "load.h"

/* A process's CPU seconds so far, from /proc/PID/stat (dh_proc_parse_stat); -1 when it is
 * gone. */
static double load_cpu_of_pid(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    dh_proc_stat st;
    if (dh_proc_parse_stat(buf, &st) < 0)
        return -1;
    return (double)(st.utime + st.stime) / (double)sysconf(_SC_CLK_TCK);
}

/* A process's CPU seconds so far, from its /metrics; -1 when unreachable. */
static double load_cpu_of_url(const char *url)
{
    char *body = NULL, err[256];
    size_t len = 0;
    double v = -1;
    if (admin_http(url, "GET", "/metrics", "", &body, &len, err, sizeof err) == 200) {
        const char *p = strstr(body, "\nprocess_cpu_seconds_total ");
        if (p)
            v = strtod(p + strlen("\nprocess_cpu_seconds_total "), NULL);
    }
    free(body);
    return v;
}

static double load_cpu_now(const load_cpu_proc *p)
{
    return p->pid > 0 ? load_cpu_of_pid(p->pid) : load_cpu_of_url(p->url);
}

static int load_cpu_add(load_cpu *c, const char *who, const char *name, size_t nlen,
                        const char *spec)
{
    if (c->n == LOAD_CPU_MAX) {
        fprintf(stderr, "%s: at most %d processes can be watched\n", who, LOAD_CPU_MAX);
        return -1;
    }
    load_cpu_proc *p = &c->p[c->n];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%.*s", (int)nlen, name);
    char *end = NULL;
    long pid = strtol(spec, &end, 10);
    if (end != spec && !*end && pid > 0)
        p->pid = pid;
    else if (strchr(spec, ':'))
        snprintf(p->url, sizeof p->url, "%s", spec);
    else {
        fprintf(stderr, "%s: --cpu %.*s=%s: give a pid or the process's HOST:PORT (its /metrics)\n",
                who, (int)nlen, name, spec);
        return -1;
    }
    c->n++;
    return 0;
}

/* --cpu NAME=SPEC[,NAME=SPEC...] */
static int load_cpu_list(load_cpu *c, const char *who, const char *list)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        const char *eq = strchr(tok, '=');
        if (!eq || eq == tok || !eq[1]) {
            fprintf(stderr, "%s: --cpu wants NAME=PID or NAME=HOST:PORT, not '%s'\n", who, tok);
            return -1;
        }
        if (load_cpu_add(c, who, tok, (size_t)(eq - tok), eq + 1) < 0)
            return -1;
    }
    return 0;
}

/* --cpu-pids RUNDIR: every RUNDIR/pids/NAME.pid ("PID PROGRAM") of a local cluster. */
static int load_cpu_dir(load_cpu *c, const char *who, const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pids", dir);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr,
                "%s: --cpu-pids %s: no pids/ directory there (a run directory of "
                "scripts/run holds one)\n",
                who, dir);
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".pid"))
            continue;
        char file[1400], pid[32] = "";
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *fp = fopen(file, "r");
        if (fp && fscanf(fp, "%31s", pid) == 1 && isdigit((unsigned char)pid[0]))
            rc = load_cpu_add(c, who, e->d_name, n - 4, pid);
        if (fp)
            fclose(fp);
    }
    closedir(d);
    return rc;
}

static int load_cpu_cmp(const void *a, const void *b)
{
    return strcmp(((const load_cpu_proc *)a)->name, ((const load_cpu_proc *)b)->name);
}

int load_cpu_parse(load_cpu *c, const dh_flags *f, const char *who)
{
    memset(c, 0, sizeof *c);
    const char *list = dh_flags_str(f, "cpu", NULL, NULL);
    const char *dir = dh_flags_str(f, "cpu-pids", NULL, NULL);
    if (list && load_cpu_list(c, who, list) < 0)
        return -1;
    if (dir && load_cpu_dir(c, who, dir) < 0)
        return -1;
    qsort(c->p, (size_t)c->n, sizeof *c->p, load_cpu_cmp); /* the same order every run */
    return 0;
}

static double load_cpu_self(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void load_cpu_mark(load_cpu *c, const pid_t *children, int nchildren, uint64_t cmds)
{
    c->marked = true;
    c->cmds_mark = cmds;
    for (int i = 0; i < c->n; i++)
        c->p[i].mark = load_cpu_now(&c->p[i]);
    c->load_mark = load_cpu_self(RUSAGE_SELF);
    for (int i = 0; i < nchildren; i++) {
        double v = load_cpu_of_pid(children[i]);
        c->load_mark += v > 0 ? v : 0;
    }
}

void load_cpu_end(load_cpu *c)
{
    for (int i = 0; i < c->n; i++)
        c->p[i].end = load_cpu_now(&c->p[i]);
}

/* One process's share, in µs per answer, appended to line; -1 when unknown. */
static double load_cpu_share(double from, double to, uint64_t cmds)
{
    if (from < 0 || to < 0 || to < from || !cmds)
        return -1;
    return (to - from) * 1e6 / (double)cmds;
}

void load_cpu_report(const load_cpu *c, uint64_t cmds_total)
{
    if (!c->marked || cmds_total <= c->cmds_mark) {
        printf("cpu_us_per_cmd unknown (no answers after the first second)\n");
        return;
    }
    uint64_t cmds = cmds_total - c->cmds_mark;
    double load_end = load_cpu_self(RUSAGE_SELF) + load_cpu_self(RUSAGE_CHILDREN);
    double workers = 0, all = 0;
    bool have_workers = false;
    printf("cpu_us_per_cmd answers=%llu", (unsigned long long)cmds);
    for (int i = 0; i < c->n; i++) {
        double v = load_cpu_share(c->p[i].mark, c->p[i].end, cmds);
        if (v < 0) {
            printf(" %s=?", c->p[i].name);
            continue;
        }
        printf(" %s=%.1f", c->p[i].name, v);
        all += v;
        if (!strncmp(c->p[i].name, "worker", 6)) {
            workers += v;
            have_workers = true;
        }
    }
    double load = load_cpu_share(c->load_mark, load_end, cmds);
    if (have_workers)
        printf(" workers=%.1f", workers);
    printf(" load=%.1f total=%.1f\n", load, all + (load > 0 ? load : 0));
}
