/*
 * bench_worker_memory.c: the worker's memory per active Dominion match (docs/BENCHMARKS.md,
 * "Worker: memory per match"). Starts N two-player matches through the host (worker/host.h,
 * on the rig of tests/unit/rig_worker.h: a redis-server of its own, inproc sockets),
 * attaches both players, plays each match M decisions into the game, and prints the heap
 * in use (mallinfo2) and the resident set per match, fresh and mid-game.
 *
 *   bench_worker_memory [MATCHES [DECISIONS]]      (default 1000 20)
 *
 * Build it without sanitizers (a Release build): their shadow memory and quarantine
 * would be counted too.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dh_zmq.h"
#include "rig_worker.h"

static long matches = 1000, decisions = 20;

/* Resident set size in bytes (/proc/self/statm). */
static size_t rss_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

static size_t heap_bytes(void)
{
    malloc_trim(0);
    return mallinfo2().uordblks;
}

static void report(const char *what, size_t heap, size_t rss)
{
    printf("%-28s heap %8.1f KB/match   rss %8.1f KB/match\n", what,
           (double)heap / (double)matches / 1024.0, (double)rss / (double)matches / 1024.0);
}

static void bench_memory_per_match(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    host_free(&r.h);
    host_init(&r.h, "wk-t", "inproc://worker", r.router, r.dealer, r.bundle, &r.st,
              (uint32_t)matches);
    char(*ids)[32] = calloc((size_t)matches, sizeof *ids);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ids);
    size_t heap0 = heap_bytes(), rss0 = rss_bytes();
    for (long i = 0; i < matches; i++) {
        snprintf(ids[i], sizeof ids[i], "m-%06ld", i);
        rig_worker_start(&r, ids[i], "dominion", NULL);
        if (i % 64 == 63 || i == matches - 1) {
            host_flush(&r.h, r.now);
            rig_worker_drop_all(&r);
        }
    }
    for (long i = 0; i < matches; i++)
        for (int p = 0; p < 2; p++)
            rig_worker_command(&r, ids[i], rig_worker_players[p], 0, NULL);
    rig_worker_drop_all(&r);
    CU_ASSERT_EQUAL(host_active(&r.h), (size_t)matches);
    report("fresh (started, attached)", heap_bytes() - heap0, rss_bytes() - rss0);
    uint64_t cmd = 1;
    for (long d = 0; d < decisions; d++) {
        for (long i = 0; i < matches; i++) {
            if (rig_worker_answer(&r, r.h.matches[i], cmd))
                cmd++;
            if (i % 64 == 63)
                host_flush(&r.h, r.now);
        }
        host_flush(&r.h, r.now);
        rig_worker_drop_all(&r);
    }
    char what[64];
    snprintf(what, sizeof what, "mid-game (%ld decisions)", decisions);
    report(what, heap_bytes() - heap0, rss_bytes() - rss0);
    free(ids);
    rig_worker_close(&r);
}

int main(int argc, char **argv)
{
    return rig_worker_bench(argc, argv, "bench_worker_memory",
                            "bench_worker_memory [MATCHES [DECISIONS]]", &matches, &decisions,
                            bench_memory_per_match);
}
