/*
 * bench_redis_commit.c: what a worker's commits cost Redis (docs/BENCHMARKS.md, "Redis
 * per answer, fifth step"). bench_redis_commit URL BATCHES [PER]: through the worker's own
 * store (store.h), on the Redis at URL, 200 matches are started, then BATCHES flushes of
 * PER commits each (default 20: a loaded worker's loop turn) are sent one after another,
 * each commit one answer of 5 bytes (its log entry the same bytes, as host_persist passes
 * them) and every seventh a snapshot of 1,320 random bytes with the 3 answers since its
 * boundary. Prints Redis's own CPU (INFO cpu) and its command calls (INFO commandstats)
 * per commit over the flushes. bench/redis_commit_cost.sh runs it against a redis-server
 * under callgrind for a count of instructions, which the machine's load does not move.
 * DECKHAND_WORKER_FENCE_PER_TURN=1: the store fences once per flush (--fence-per-turn).
 * DECKHAND_WORKER_LOG_IN_HISTORY=1: the log is the history's tail (--log-in-history): each
 * answer on the history alone, each snapshot behind the tail head.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_store.h"
#include "dh_clock.h"

#define MATCHES   200
#define SNAP_LEN  1320
#define SNAP_LOGS 3

/* Redis's CPU seconds so far (used_cpu_user + used_cpu_sys of INFO cpu); -1 when unknown. */
static double bench_redis_cpu(redisContext *c)
{
    redisReply *r = redisCommand(c, "INFO cpu");
    double s = -1;
    if (r && r->type == REDIS_REPLY_STRING) {
        const char *u = strstr(r->str, "used_cpu_user:"), *y = strstr(r->str, "used_cpu_sys:");
        if (u && y)
            s = strtod(u + strlen("used_cpu_user:"), NULL) +
                strtod(y + strlen("used_cpu_sys:"), NULL);
    }
    freeReplyObject(r);
    return s;
}

/* Print each command's calls per commit (INFO commandstats since CONFIG RESETSTAT). */
static void bench_print_calls(redisContext *c, double commits)
{
    redisReply *r = redisCommand(c, "INFO commandstats");
    if (!r || r->type != REDIS_REPLY_STRING) {
        freeReplyObject(r);
        return;
    }
    for (const char *p = strstr(r->str, "cmdstat_"); p; p = strstr(p + 1, "cmdstat_")) {
        char name[32];
        long long calls = 0;
        if (sscanf(p, "cmdstat_%31[^:]:calls=%lld", name, &calls) == 2 && strcmp(name, "info") &&
            strcmp(name, "config|resetstat"))
            printf(" %s=%.3f", name, (double)calls / commits);
    }
    freeReplyObject(r);
}

/* One flush of per commits, the k-th commit of the run first; -1 when one failed. */
static bool bench_tail;

static int bench_flush(store *s, char ids[][32], long *k, int per, const uint8_t *snap)
{
    static const uint8_t answer[] = {1, 1, '?', 1, 1};
    store_blob one = {(uint8_t *)answer, sizeof answer}, logs[SNAP_LOGS];
    for (int i = 0; i < SNAP_LOGS; i++)
        logs[i] = one;
    int first = -1;
    for (int i = 0; i < per; i++, (*k)++) {
        bool snapshot = *k % 7 == 6;
        store_commit c = {.match_id = ids[*k % MATCHES],
                          .worker = "wk-bench",
                          .epoch = 1,
                          .snap = snapshot ? snap : NULL,
                          .snap_len = snapshot ? SNAP_LEN : 0,
                          .log = snapshot ? logs : &one,
                          .nlog = snapshot ? SNAP_LOGS : 1,
                          .hist = answer,
                          .hist_len = sizeof answer,
                          .tail = bench_tail};
        int op = store_op(s, dh_now_ms());
        if (op < 0 || store_put_commit(s, &c) < 0)
            return -1;
        first = first < 0 ? op : first;
    }
    store_flush(s, dh_now_ms());
    bool ok = true;
    for (int op = first; op < first + per; op++)
        ok = ok && store_ok(s, op);
    store_next(s);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_redis_commit URL BATCHES [PER]\n");
        return 2;
    }
    int batches = atoi(argv[2]), per = argc > 3 ? atoi(argv[3]) : 20;
    static char ids[MATCHES][32];
    static uint8_t snap[SNAP_LEN];
    for (size_t i = 0; i < sizeof snap; i++)
        snap[i] = (uint8_t)rand();
    store s;
    if (batches < 1 || per < 1 || store_init(&s, argv[1], 2000) < 0 ||
        bench_store_start(&s, ids, MATCHES, "m-bench") < 0) {
        fprintf(stderr, "bench_redis_commit: cannot start the matches on %s\n", argv[1]);
        return 1;
    }
    /* the worker's --fence-per-turn, as its environment variable sets it */
    const char *fence = getenv("DECKHAND_WORKER_FENCE_PER_TURN");
    s.fence_per_turn = fence && !strcmp(fence, "1");
    const char *tail = getenv("DECKHAND_WORKER_LOG_IN_HISTORY");
    bench_tail = tail && !strcmp(tail, "1");
    redisContext *c = dh_redis_get(&s.redis, dh_now_ms());
    long k = 0;
    redisReply *r = redisCommand(c, "CONFIG RESETSTAT");
    freeReplyObject(r);
    double cpu0 = bench_redis_cpu(c);
    for (int b = 0; b < batches; b++)
        if (bench_flush(&s, ids, &k, per, snap) < 0) {
            fprintf(stderr, "bench_redis_commit: a commit failed\n");
            store_close(&s);
            return 1;
        }
    double cpu1 = bench_redis_cpu(c);
    printf("commits=%ld redis_cpu_us_per_commit=%.2f calls_per_commit:", k,
           (cpu1 - cpu0) * 1e6 / (double)k);
    bench_print_calls(c, (double)k);
    printf("\n");
    store_close(&s);
    return 0;
}
