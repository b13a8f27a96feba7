/*
 * cmd_load.c: `deckhand load`, the cluster's load generator: N simulated players over
 * TCP or WebSocket queue for matches, play them (each decision answered by the game's
 * bot on the server, or with --bot local by the generic bot in the client: see
 * cmd_bots.c) and queue again after each GameOver, for S seconds, at a target rate of
 * answers (Choose commands) per second over all of them (--rate) or flat out. Each player
 * is a `deckhand bots` bot (bots.h): it survives the same refusals and counts the same
 * errors (unsurvivable refusals and LOST commands, see cmd_bots.c).
 *
 * Latency runs from sending a Choose to receiving its Reply{ok}, and every one is counted
 * in a log-linear histogram (dh_client_hist.h), never a sample. Over TCP it is counted
 * twice: to when the generator handled the Reply, and (rx_) to when the Reply's bytes
 * reached its socket (the kernel's receive time, SO_TIMESTAMPNS), so what the generator's
 * own loop adds (its wake-up waiting for a core, the other connections it serves first)
 * can be told from the cluster's part. The players run in
 * worker processes, as many as one process's descriptor limit (RLIMIT_NOFILE, raised to
 * its hard limit, less LOAD_FD_MARGIN) requires, each with its share of the players and
 * of --rate (load_players.c); they send their counts and histograms down a pipe once a
 * second, and this process merges them: one progress line per second on stderr, when
 * every worker has reported that second, and the result on stdout:
 *   cmds_per_sec=X p50_ms=Y p99_ms=Z max_ms=W rx_p50_ms=A rx_p99_ms=B errors=E
 * The exit status is 0 only when E is 0. Before it, the same latency over the whole
 * seconds after the first one with answers, which meet every match's start at once (all N
 * players queue together, so N/P matches start, each with a snapshot, a catalog and full
 * views, within it; no later second repeats that burst): the steady state.
 *   steady answers=N p50_ms=Y p99_ms=Z max_ms=W
 *
 * The pacing of each player stays at `deckhand bots`' 40 messages a second (under the
 * gateway's per-connection limit), so a rate above about 20 answers/s per player needs
 * more players.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "bots.h"
#include "dh_sched.h"
#include "load.h"

#define LOAD_SLOTS 8 /* seconds a worker may run ahead of the slowest one in the progress */

static const char load_who[] = "deckhand load";

static const char load_usage[] =
    "usage: deckhand load --game dominion --players N --seconds S [--rate R] [--ws]\n"
    "                     [--size P] [--gateway ADDR[,ADDR...]] [--bot STRATEGY|local]\n"
    "                     [--join-once]\n"
    "  N players queue for matches of P players (default 2), play them and queue again,\n"
    "  for S seconds, sending R answers per second over all of them (default: flat out;\n"
    "  each player sends at most 40 messages per second). Latency runs from a Choose to\n"
    "  its Reply (rx_: to the Reply's arrival at the socket, TCP). --bot as for deckhand bots: the "
    "server answers as the game's bot\n"
    "  STRATEGY would (default 'default'), or 'local': the generic bot in the client.\n"
    "  A progress line per second on stderr:\n"
    "    load: T s: C cmds/s p50_ms=P p99_ms=Q rx_p99_ms=R errors=E\n"
    "  Last stdout line:\n"
    "    cmds_per_sec=X p50_ms=Y p99_ms=Z max_ms=W rx_p50_ms=A rx_p99_ms=B errors=E\n"
    "  and before it the same over the whole seconds after the first with answers (when\n"
    "  every match starts at once): steady answers=N p50_ms=Y p99_ms=Z max_ms=W\n"
    "  Players spread over worker processes when one process's descriptor limit is not\n"
    "  enough for them.\n"
    "  --cpu NAME=PID|NAME=HOST:PORT[,...], --cpu-pids RUNDIR: also print, before the\n"
    "  last line, the CPU each of those processes (by pid, or by the process_cpu_seconds_total\n"
    "  of its operator port's /metrics; RUNDIR/pids/*.pid of a local cluster) and the load\n"
    "  generator spent per answer accepted after the first second:\n"
    "    cpu_us_per_cmd answers=N NAME=US... [workers=US] load=US total=US\n"
    "  --join-once: a join storm instead: the N players log in, then all join at once and\n"
    "  wait (at most S seconds) for the Reply and MatchFound, playing nothing. Last line:\n"
    "    joins players=N ok=O refused=R unavailable=U found=F found_after_refusal=X\n"
    "    ack_p50_ms=A ack_p99_ms=B ack_max_ms=C all_found_ms=D errors=E\n";

/* One worker process, as the merging side sees it. */
typedef struct {
    pid_t pid;
    int fd;          /* the read end of its pipe, -1 once closed */
    load_report buf; /* the record being read */
    size_t have;     /* bytes of it read so far */
    uint32_t seq;    /* the last second it reported */
    bool done;       /* its last record came (or it died) */
    uint64_t errors, retried, elapsed_ms;
} load_proc;

/* One second of the progress lines, filled until every worker reported it. */
typedef struct {
    uint64_t cmds;
    dh_hist hist, rx_hist;
} load_slot;

typedef struct {
    load_proc procs[LOAD_PROCS_MAX];
    int nprocs;
    load_slot *slots; /* LOAD_SLOTS of them, slot k % LOAD_SLOTS for second k */
    uint32_t next;    /* the next second to print */
    uint32_t top;     /* the last second any worker reported */
    dh_hist total, rx_total;
    uint64_t cmds;
    dh_hist steady; /* the answers of every whole second after the start's */
    uint64_t steady_cmds;
    bool started;        /* a second with answers printed: every match's start */
    uint64_t lost_procs; /* workers that ended without their last record */
    uint64_t printed;    /* answers of the seconds printed so far */
    load_cpu cpu;        /* --cpu / --cpu-pids, marked when second 1 prints */
} load_merge;

/* ---- the plan: how many worker processes ---------------------------------------------- */

/* Players one process can hold: its descriptor limit, raised to the hard limit
 * (cli_nofile_raise), less a margin; 0 when even that leaves no room. */
static long load_per_proc(long limit)
{
    if (limit < 0)
        return 1000; /* unreadable: the size one process always managed */
    return limit > LOAD_FD_MARGIN ? limit - LOAD_FD_MARGIN : 0;
}

/* Fork worker i of nprocs: it runs its share of the players and exits; the parent keeps
 * the pipe. */
static int load_fork(load_merge *m, const load_share *all, int i, int nprocs)
{
    load_share share = *all;
    int base = all->players / nprocs, extra = all->players % nprocs;
    share.players = base + (i < extra);
    share.rate = all->rate * share.players / all->players;
    int p[2];
    if (pipe(p) < 0) {
        fprintf(stderr, "load: pipe: %s\n", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "load: fork: %s\n", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        for (int j = 0; j < i; j++)
            close(m->procs[j].fd);
        _exit(load_players(&share, p[1]));
    }
    close(p[1]);
    m->procs[i].pid = pid;
    m->procs[i].fd = p[0];
    return 0;
}

/* ---- merging ---------------------------------------------------------------------------- */

static double load_ms(uint64_t us)
{
    return (double)us / 1000.0;
}

static uint64_t load_errors(const load_merge *m)
{
    uint64_t e = m->lost_procs;
    for (int i = 0; i < m->nprocs; i++)
        e += m->procs[i].errors;
    return e;
}

/* The CPU window starts: the players' processes and every watched one. */
static void load_mark(load_merge *m)
{
    pid_t kids[LOAD_PROCS_MAX];
    for (int i = 0; i < m->nprocs; i++)
        kids[i] = m->procs[i].pid;
    load_cpu_mark(&m->cpu, kids, m->nprocs, m->printed);
}

/* Print every second that all workers have reported (or that the slowest holds up for
 * more than LOAD_SLOTS seconds, when force). */
static void load_progress(load_merge *m, bool force)
{
    while (m->next <= m->top) {
        bool ready = true;
        for (int i = 0; i < m->nprocs; i++)
            if (!m->procs[i].done && m->procs[i].seq < m->next)
                ready = false;
        if (!ready && !force)
            return;
        load_slot *s = &m->slots[m->next % LOAD_SLOTS];
        fprintf(stderr,
                "load: %u s: %llu cmds/s p50_ms=%.3f p99_ms=%.3f rx_p99_ms=%.3f errors=%llu\n",
                m->next, (unsigned long long)s->cmds, load_ms(dh_hist_percentile(&s->hist, 50)),
                load_ms(dh_hist_percentile(&s->hist, 99)),
                load_ms(dh_hist_percentile(&s->rx_hist, 99)), (unsigned long long)load_errors(m));
        m->printed += s->cmds;
        if (m->next == 1)
            load_mark(m);
        if (m->started) {
            dh_hist_merge(&m->steady, &s->hist);
            m->steady_cmds += s->cmds;
        } else if (s->cmds)
            m->started = true;
        s->cmds = 0;
        dh_hist_reset(&s->hist);
        dh_hist_reset(&s->rx_hist);
        m->next++;
        force = false;
    }
}

/* A whole record from worker p. */
static void load_take(load_merge *m, load_proc *p, const load_report *r)
{
    dh_hist_merge(&m->total, &r->hist);
    dh_hist_merge(&m->rx_total, &r->rx_hist);
    m->cmds += r->cmds;
    p->errors = r->errors;
    p->retried = r->retried;
    if (r->done) {
        p->done = true;
        p->elapsed_ms = r->elapsed_ms;
    } else {
        if (r->seq > m->top)
            m->top = r->seq;
        while (r->seq >= m->next + LOAD_SLOTS)
            load_progress(m, true);
        if (r->seq >= m->next) {
            load_slot *s = &m->slots[r->seq % LOAD_SLOTS];
            s->cmds += r->cmds;
            dh_hist_merge(&s->hist, &r->hist);
            dh_hist_merge(&s->rx_hist, &r->rx_hist);
        }
        p->seq = r->seq;
    }
    load_progress(m, false);
}

/* Read what worker p's pipe holds; at its end, the worker is done (lost when its last
 * record did not come). */
static void load_read(load_merge *m, load_proc *p)
{
    ssize_t n = read(p->fd, (char *)&p->buf + p->have, sizeof p->buf - p->have);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        if (!p->done) {
            fprintf(stderr, "load: worker %d ended without its result\n", (int)p->pid);
            m->lost_procs++;
            p->done = true;
            load_progress(m, false);
        }
        close(p->fd);
        p->fd = -1;
        return;
    }
    p->have += (size_t)n;
    if (p->have == sizeof p->buf) {
        p->have = 0;
        load_take(m, p, &p->buf);
    }
}

/* Until every pipe is closed. */
static void load_collect(load_merge *m)
{
    struct pollfd pfds[LOAD_PROCS_MAX];
    for (;;) {
        int n = 0;
        for (int i = 0; i < m->nprocs; i++)
            if (m->procs[i].fd >= 0)
                pfds[n++] = (struct pollfd){.fd = m->procs[i].fd, .events = POLLIN};
        if (n == 0)
            return;
        if (poll(pfds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        for (int k = 0; k < n; k++)
            for (int i = 0; i < m->nprocs; i++)
                if (pfds[k].revents && m->procs[i].fd == pfds[k].fd)
                    load_read(m, &m->procs[i]);
    }
}

/* Reap the workers (one killed before its last record is counted by load_read). */
static void load_reap(const load_merge *m)
{
    for (int i = 0; i < m->nprocs; i++) {
        int st;
        if (waitpid(m->procs[i].pid, &st, 0) == m->procs[i].pid && WIFSIGNALED(st))
            fprintf(stderr, "load: worker %d killed by signal %d\n", (int)m->procs[i].pid,
                    WTERMSIG(st));
    }
}

static void load_result(const load_merge *m, long players)
{
    uint64_t elapsed = 0, retried = 0;
    for (int i = 0; i < m->nprocs; i++) {
        if (m->procs[i].elapsed_ms > elapsed)
            elapsed = m->procs[i].elapsed_ms;
        retried += m->procs[i].retried;
    }
    double rate = elapsed ? (double)m->cmds * 1000.0 / (double)elapsed : 0;
    fprintf(stderr, "load: %ld players in %d processes, %llu answers in %.3f s, retried=%llu\n",
            players, m->nprocs, (unsigned long long)m->cmds, (double)elapsed / 1000.0,
            (unsigned long long)retried);
    printf("steady answers=%llu p50_ms=%.3f p99_ms=%.3f max_ms=%.3f\n",
           (unsigned long long)m->steady_cmds, load_ms(dh_hist_percentile(&m->steady, 50)),
           load_ms(dh_hist_percentile(&m->steady, 99)), load_ms(m->steady.max_us));
    printf("cmds_per_sec=%.1f p50_ms=%.3f p99_ms=%.3f max_ms=%.3f rx_p50_ms=%.3f rx_p99_ms=%.3f "
           "errors=%llu\n",
           rate, load_ms(dh_hist_percentile(&m->total, 50)),
           load_ms(dh_hist_percentile(&m->total, 99)), load_ms(m->total.max_us),
           load_ms(dh_hist_percentile(&m->rx_total, 50)),
           load_ms(dh_hist_percentile(&m->rx_total, 99)), (unsigned long long)load_errors(m));
}

/* ---- the command ------------------------------------------------------------------------ */

int cmd_load(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"players", DH_FLAG_INT},
                                        {"seconds", DH_FLAG_INT},
                                        {"rate", DH_FLAG_INT},
                                        {"size", DH_FLAG_INT},
                                        {"bot", DH_FLAG_VALUE},
                                        {"join-once", DH_FLAG_SWITCH},
                                        {"cpu", DH_FLAG_VALUE},
                                        {"cpu-pids", DH_FLAG_VALUE},
                                        CLI_FLAGS_GATEWAY,
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, load_who, load_usage, 0, 0);
    if (done >= 0)
        return done;
    long players, seconds, rate, size;
    if (cli_int(f, load_who, "players", 2, 1, 100000000, &players) < 0 ||
        cli_int(f, load_who, "seconds", 10, 1, 86400, &seconds) < 0 ||
        cli_int(f, load_who, "rate", 0, 0, 10000000, &rate) < 0 ||
        cli_int(f, load_who, "size", 2, 1, 64, &size) < 0)
        return 2;
    bots_run check = {0}; /* the gateway flags, checked before any process starts */
    if (bots_gateways(f, load_who, &check) < 0 || bots_bot_flag(f, load_who, &check) < 0)
        return 2;
    if (dh_sched_slice_start() < 0) /* its worker processes inherit it */
        return 2;
    long limit = cli_nofile_raise(), per = load_per_proc(limit);
    if (per < 1 || (players + per - 1) / per > LOAD_PROCS_MAX) {
        fprintf(stderr,
                "%s: --players %ld is more than %d processes can hold: each holds %ld players "
                "(RLIMIT_NOFILE %ld, raised to its hard limit, less %d); raise the limit "
                "(ulimit -n) or ask for fewer\n",
                load_who, players, LOAD_PROCS_MAX, per, limit, LOAD_FD_MARGIN);
        return 2;
    }
    load_merge *m = calloc(1, sizeof *m);
    int status = 1;
    if (!m || !(m->slots = calloc(LOAD_SLOTS, sizeof *m->slots))) {
        fprintf(stderr, "load: out of memory\n");
        goto out;
    }
    if (load_cpu_parse(&m->cpu, f, load_who) < 0) {
        status = 2;
        goto out;
    }
    m->nprocs = (int)((players + per - 1) / per);
    m->next = 1;
    load_share all = {.flags = f,
                      .players = (int)players,
                      .size = (uint32_t)size,
                      .rate = (double)rate,
                      .seconds = seconds};
    signal(SIGPIPE, SIG_IGN);
    if (dh_flags_has(f, "join-once")) {
        status = load_joins(&all, m->nprocs);
        goto out;
    }
    int planned = m->nprocs;
    for (m->nprocs = 0; m->nprocs < planned; m->nprocs++)
        if (load_fork(m, &all, m->nprocs, planned) < 0)
            break;
    m->lost_procs += (uint64_t)(planned - m->nprocs); /* their players never played */
    load_collect(m);
    load_cpu_end(&m->cpu);
    load_reap(m);
    if (m->cpu.n || dh_flags_has(f, "cpu") || dh_flags_has(f, "cpu-pids"))
        load_cpu_report(&m->cpu, m->cmds);
    load_result(m, players);
    status = load_errors(m) == 0 ? 0 : 1;
out:
    if (m)
        free(m->slots);
    free(m);
    return status;
}
