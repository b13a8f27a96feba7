/*
 * bench_worker_command.c: the worker's CPU and allocations per answered command
 * (docs/BENCHMARKS.md, "Worker: CPU and allocations per command"). Starts N two-player
 * Dominion matches through the host (worker/host.h, on the rig of tests/unit/rig_worker.h:
 * a redis-server of its own, inproc sockets), attaches both players, then answers each
 * match's pending decision round after round until C commands were accepted, flushing
 * every 64 commands as the worker loop does. Prints the wall time per command.
 *
 *   bench_worker_command [MATCHES [COMMANDS]]      (default 64 4000)
 *
 * The commands run inside bench_round, so a profiler can count only them:
 *   valgrind --tool=callgrind --toggle-collect=bench_round bench_worker_command
 * gives instructions (Ir) per command, and malloc's call count in that profile
 * (callgrind_annotate --tree=caller) mallocs per command.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dh_clock.h"
#include "rig_worker.h"

static long matches = 64, commands = 4000;

static double now_s(void)
{
    return (double)dh_now_ns() / 1e9;
}

/* Answer the pending decision of every match once (at most left of them), flushing every
 * 64 and at the end. The number answered. */
__attribute__((noinline)) long bench_round(rig_worker *r, uint64_t *cmd, long left)
{
    long n = 0;
    for (long i = 0; i < matches && n < left; i++) {
        if (!rig_worker_answer(r, r->h.matches[i], *cmd))
            continue;
        ++*cmd;
        if (++n % 64 == 0)
            host_flush(&r->h, r->now);
    }
    host_flush(&r->h, r->now);
    return n;
}

static void bench_command(void)
{
    rig_worker r;
    rig_worker_open_bench(&r, matches);
    uint64_t cmd = 1;
    long done = 0;
    double t0 = now_s();
    while (done < commands) {
        long n = bench_round(&r, &cmd, commands - done);
        rig_worker_drop_all(&r);
        if (!n)
            break; /* every match is over */
        done += n;
    }
    double dt = now_s() - t0;
    CU_ASSERT_EQUAL(done, commands);
    printf("%ld commands over %ld matches: %.1f us/command (wall, host and Redis round trips)\n",
           done, matches, dt * 1e6 / (double)(done ? done : 1));
    rig_worker_close(&r);
}

int main(int argc, char **argv)
{
    return rig_worker_bench(argc, argv, "bench_worker_command",
                            "bench_worker_command [MATCHES [COMMANDS]]", &matches, &commands,
                            bench_command);
}
