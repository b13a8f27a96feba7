/*
 * load.h: what the files of `deckhand load` share (see cmd_load.c for what the command
 * does). cmd_load.c (flags, the worker processes, the progress lines and the result)
 * forks one process per share of the players, each running load_players.c over
 * `deckhand bots`' machinery (bots.h), and reads load_report records from its pipe.
 */
#ifndef DECKHAND_LOAD_H
#define DECKHAND_LOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dh_client_hist.h"
#include "dh_flags.h"

#define LOAD_FD_MARGIN 64 /* descriptors a worker process keeps for other uses than players */
#define LOAD_STALL_S   30 /* a worker whose players make no progress this long gives up */
#define LOAD_PROCS_MAX 64 /* worker processes at most */

/* One worker process's share of the run. */
typedef struct {
    const dh_flags *flags; /* --game, --gateway, --ws, --bot */
    int players;
    uint32_t size; /* players per match */
    double rate;   /* its share of --rate, answers per second; 0: flat out */
    long seconds;
} load_share;

/* What a worker process writes down its pipe once a second (seq 1, 2, ...) and once at
 * the end (done, seq counting on): the answers that got Reply{ok} since its last record,
 * their latencies, and its errors so far. Fixed size: written and read whole. */
typedef struct {
    uint32_t seq;
    uint32_t done;       /* the last record of this process */
    uint64_t cmds;       /* answers accepted in this interval */
    uint64_t errors;     /* errors so far (bots_run.errors) */
    uint64_t retried;    /* refusals survived so far */
    uint64_t elapsed_ms; /* with done: how long its players played */
    dh_hist hist;        /* the latencies of this interval's accepted answers */
    dh_hist rx_hist;     /* the same, to the Reply's arrival at the socket (rx_stamps) */
} load_report;

#define LOAD_CPU_MAX 32 /* processes --cpu / --cpu-pids can watch */

/* One watched process of the cluster: by pid (this machine) or by its operator HTTP port
 * (url "HOST:PORT": process_cpu_seconds_total in its /metrics). CPU in seconds. */
typedef struct {
    char name[48];
    long pid; /* 0: watched by url */
    char url[128];
    double mark, end; /* CPU seconds at the window's start and end; -1 when unreadable */
} load_cpu_proc;

/* load_cpu.c: the CPU per accepted answer of every watched process and of the load
 * generator itself, over the window from the first progress line to the end. */
typedef struct {
    load_cpu_proc p[LOAD_CPU_MAX];
    int n;
    bool marked;
    uint64_t cmds_mark; /* answers accepted before the window */
    double load_mark;   /* the load generator's own CPU seconds at the mark */
} load_cpu;

/* --cpu NAME=PID|NAME=HOST:PORT[,...] and --cpu-pids RUNDIR into c (message on stderr,
 * -1, on a bad value). */
int load_cpu_parse(load_cpu *c, const dh_flags *f, const char *who);
/* The window starts: cmds answers so far; children: the player processes. */
void load_cpu_mark(load_cpu *c, const pid_t *children, int nchildren, uint64_t cmds);
/* The window ends (the players are done; call before the cluster may stop). */
void load_cpu_end(load_cpu *c);
/* After the players were reaped: one stdout line,
 *   cpu_us_per_cmd answers=N NAME=US... [workers=US] load=US total=US */
void load_cpu_report(const load_cpu *c, uint64_t cmds_total);

/* load_players.c: log in share->players players, play for share->seconds, writing a
 * load_report to fd every second and at the end. The process's exit status. */
int load_players(const load_share *share, int fd);

/* load_joins.c: --join-once, the join storm, over nprocs processes (see there). The exit
 * status: 0 when every player got Reply{ok} and MatchFound, 2 on bad flags, else 1. */
int load_joins(const load_share *all, int nprocs);

#endif
