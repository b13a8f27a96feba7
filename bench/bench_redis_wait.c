/*
 * bench_redis_wait.c: what WAIT 1 costs a worker's batch (docs/BENCHMARKS.md, "Redis
 * Cluster"). bench_redis_wait URL [BATCHES]: through the worker's own store (store.h), on
 * the Redis (or Redis Cluster) at URL, 50 matches are started, then BATCHES batches of
 * one fenced commit each (one answer on the history) are flushed one at a time, first
 * without WAIT (DECKHAND_REDIS_WAIT=0), then with WAIT 1; the time of each flush (the
 * round trip a player's answer waits for) in microseconds: mean, p50, p99, max.
 * Run by bench/redis_cluster.sh, which starts the local cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_store.h"
#include "dh_clock.h"

#define MATCHES 50

static uint64_t bench_us(void)
{
    return dh_now_ns() / 1000;
}

static int bench_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* BATCHES flushes of one commit each on store s; their durations into us. 0, or -1. */
static int bench_run(store *s, const char *tag, int batches, uint64_t *us)
{
    char ids[MATCHES][32], entry[64], prefix[32];
    snprintf(prefix, sizeof prefix, "bench-%s", tag);
    if (bench_store_start(s, ids, MATCHES, prefix) < 0)
        return -1;
    for (int i = 0; i < batches; i++) {
        snprintf(entry, sizeof entry, "answer-%d", i);
        store_commit c = {.match_id = ids[i % MATCHES],
                          .worker = "wk-bench",
                          .epoch = 1,
                          .hist = (const uint8_t *)entry,
                          .hist_len = strlen(entry)};
        uint64_t t0 = bench_us();
        int op = store_op(s, t0 / 1000);
        if (op < 0 || store_put_commit(s, &c) < 0)
            return -1;
        store_flush(s, t0 / 1000);
        us[i] = bench_us() - t0;
        if (!store_ok(s, op))
            return -1;
        store_next(s);
    }
    return 0;
}

static void bench_report(const char *what, uint64_t *us, int n)
{
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += us[i];
    qsort(us, (size_t)n, sizeof *us, bench_cmp);
    printf("%-10s batches=%d mean_us=%llu p50_us=%llu p99_us=%llu max_us=%llu\n", what, n,
           (unsigned long long)(sum / (uint64_t)n), (unsigned long long)us[n / 2],
           (unsigned long long)us[n * 99 / 100], (unsigned long long)us[n - 1]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_redis_wait URL [BATCHES]\n");
        return 2;
    }
    int batches = argc > 2 ? atoi(argv[2]) : 2000;
    uint64_t *us = calloc((size_t)batches, sizeof *us);
    const char *modes[] = {"0", "1"}, *names[] = {"no_wait", "wait_1"};
    for (int k = 0; k < 2 && us; k++) {
        store s;
        setenv("DECKHAND_REDIS_WAIT", modes[k], 1);
        if (store_init(&s, argv[1], 1000) < 0) {
            fprintf(stderr, "bench_redis_wait: the store failed (%s)\n", names[k]);
            free(us);
            return 1;
        }
        if (bench_run(&s, names[k], batches, us) < 0) {
            fprintf(stderr, "bench_redis_wait: the store failed (%s)\n", names[k]);
            store_close(&s);
            free(us);
            return 1;
        }
        bench_report(names[k], us, batches);
        store_close(&s);
    }
    free(us);
    return 0;
}
