/*
 * bench_worker_adopt.c: what adopting a dead worker's matches costs the worker that takes
 * them (docs/BENCHMARKS.md, "Worker: adoption"). MATCHES two-player Dominion matches are
 * played ANSWERS answers each on the unit tests' worker rig (its own Redis), so each has a
 * snapshot and a log since it; then all of them move to a second host "wk-u" the way the
 * matchmaker's takeover moves them (owner, next epoch, the adopt set), and it adopts them
 * as its loop does: host_adopt_pending rounds of HOST_ADOPT_TURN_MS until the set is
 * empty, each match's MatchAdopted sent as it is adopted. Prints the worker time per
 * match and per hundred matches, the rounds and the longest one.
 *
 *   bench_worker_adopt [MATCHES [ANSWERS]]    (default 500 and 30)
 */
#include <stdio.h>
#include <stdlib.h>

#include "dh_clock.h"
#include "host.h"
#include "rig_worker.h"

static long matches_n = 500, answers_n = 30;

/* Play answers_n answers of every match, then move them all onto wk-u. */
static void bench_move(rig_worker *r)
{
    uint64_t cmd = 1;
    for (long i = 0; i < matches_n; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-%06ld", i);
        host_match *hm = host_find(&r->h, id);
        rig_worker_play(r, hm, (int)answers_n, &cmd);
        rig_worker_drop_all(r);
        rig_worker_redis_do("HSET match:{%s} worker wk-u epoch %s", id, "2");
        rig_worker_redis_do("SADD worker:{wk-u}:adopt %s%s", id, "");
    }
}

static void bench_adopt(void)
{
    rig_worker r;
    rig_worker_open_bench(&r, matches_n);
    bench_move(&r);
    store st;
    if (store_init(&st, rig_worker_redis_url(), 1000) < 0)
        abort();
    host h;
    host_init(&h, "wk-u", "inproc://worker", r.router, r.dealer, r.bundle, &st,
              (uint32_t)matches_n);
    long rounds = 0;
    uint64_t longest = 0, t0 = dh_now_ns();
    for (bool more = true; more; rounds++) {
        uint64_t now = dh_now_ms(), r0 = dh_now_ns();
        more = host_adopt_pending(&h, now, now + HOST_ADOPT_TURN_MS);
        if (dh_now_ns() - r0 > longest)
            longest = dh_now_ns() - r0;
        rig_worker_drop_all(&r);
    }
    double ms = (double)(dh_now_ns() - t0) / 1e6;
    printf("%zu of %ld dominion matches (%ld answers each) adopted in %.1f ms of worker time: "
           "%.3f ms/match, %.1f ms per 100; %ld rounds of at most %d ms, the longest %.1f ms\n",
           host_active(&h), matches_n, answers_n, ms, ms / (double)matches_n,
           100.0 * ms / (double)matches_n, rounds, HOST_ADOPT_TURN_MS, (double)longest / 1e6);
    host_free(&h);
    store_close(&st);
    rig_worker_close(&r);
}

int main(int argc, char **argv)
{
    return rig_worker_bench(argc, argv, "bench_worker_adopt",
                            "bench_worker_adopt [MATCHES [ANSWERS]]", &matches_n, &answers_n,
                            bench_adopt);
}
