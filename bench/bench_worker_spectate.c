/*
 * bench_worker_spectate.c: what spectators cost a worker (docs/BENCHMARKS.md,
 * "Spectators"). On the unit tests' worker rig (tests/unit/rig_worker.h: the real host, a
 * redis-server of its own, inproc sockets) with N two-player Dominion matches:
 *
 *   1. the cost of one frame: out_watch_changed on a watched mid-game match (the public
 *      View, its pack, the queue), and of releasing it to 32 watchers (out_watch_tick);
 *   2. the cost of a match's commands with 32 watchers each against none: the same
 *      commands answered round after round (bench_worker_command's loop, flushed every 16
 *      commands), the frames released at once (delay 0) after every flush; rounds of each
 *      kind alternate, and the figure is the median of the rounds' ratios of CPU time.
 *
 *   bench_worker_spectate [MATCHES [COMMANDS]]      (default 16 2000: per kind and round)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rig_worker.h"
#include "out_watch.h"

#define WATCHERS 32
#define ROUNDS   5
/* commands per flush: the frames of a flush to every watcher must fit the inproc pipe's
 * high-water mark (1,000 messages) */
#define FLUSH_EVERY 16

static long matches = 16, commands = 2000;

/* This process's CPU time (the host's work; Redis is another process), in us: on a machine
 * shared with other work, wall time says more about the neighbours than about the host. */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* WATCHERS watchers of every hosted match, through gw-t. */
static void watch_all(rig_worker *r)
{
    for (size_t m = 0; m < r->h.nmatches; m++) {
        for (int w = 0; w < WATCHERS; w++) {
            char pid[32];
            snprintf(pid, sizeof pid, "p-watch-%d", w);
            Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
            Deckhand__Spectate sp = DECKHAND__SPECTATE__INIT;
            sp.match_id = r->h.matches[m]->id;
            pc.match_id = r->h.matches[m]->id;
            pc.player_id = pid;
            pc.cmd_id = 1;
            pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_SPECTATE;
            pc.spectate = &sp;
            host_command(&r->h, "gw-t", &pc, r->now);
        }
        CU_ASSERT_EQUAL(out_watch_count(r->h.matches[m]), WATCHERS);
    }
    out_watch_tick(&r->h, r->now);
    rig_worker_drop_all(r);
}

/* The pending decision of every match answered once, flushed, frames released: how many. */
static long round_of(rig_worker *r, uint64_t *cmd, long left)
{
    long n = 0;
    for (size_t i = 0; i < r->h.nmatches && n < left; i++) {
        if (!rig_worker_answer(r, r->h.matches[i], *cmd))
            continue;
        ++*cmd;
        if (++n % FLUSH_EVERY == 0) {
            host_flush(&r->h, r->now);
            out_watch_tick(&r->h, r->now);
            rig_worker_drop_all(r);
        }
    }
    host_flush(&r->h, r->now);
    out_watch_tick(&r->h, r->now);
    rig_worker_drop_all(r);
    return n;
}

/* us per command over `commands` commands on a fresh set of matches, watched or not. */
static double commands_us(bool watched)
{
    rig_worker r;
    rig_worker_open_bench(&r, matches);
    CU_ASSERT_EQUAL_FATAL(out_watch_init(&r.h, WATCHERS, 0), 0);
    if (watched)
        watch_all(&r);
    uint64_t cmd = 1;
    long done = 0;
    double t0 = now_us();
    while (done < commands) {
        long n = round_of(&r, &cmd, commands - done);
        if (!n)
            break;
        done += n;
    }
    double us = (now_us() - t0) / (double)(done ? done : 1);
    CU_ASSERT_EQUAL(done, commands);
    rig_worker_close(&r);
    out_watch_free(&r.h);
    return us;
}

static void bench_frame(void)
{
    rig_worker r;
    rig_worker_open_bench(&r, 1);
    CU_ASSERT_EQUAL_FATAL(out_watch_init(&r.h, WATCHERS, 0), 0);
    host_match *hm = r.h.matches[0];
    uint64_t cmd = 1;
    for (int i = 0; i < 40; i++) { /* mid-game: hands, discards and play zones in use */
        CU_ASSERT_TRUE_FATAL(rig_worker_answer(&r, hm, cmd++));
        host_flush(&r.h, r.now);
    }
    rig_worker_drop_all(&r);
    watch_all(&r);
    enum { N = 2000 };
    double t0 = now_us();
    for (int i = 0; i < N; i++) {
        out_watch_changed(&r.h, hm, r.now);
        out_watch_tick(&r.h, r.now - 1); /* nothing due: the frame stays queued */
        if (i % 20 == 19) {
            out_watch_tick(&r.h, r.now);
            rig_worker_drop_all(&r);
        }
    }
    double build = (now_us() - t0) / N;
    out_watch_tick(&r.h, r.now);
    rig_worker_drop_all(&r);
    size_t bytes = 0;
    t0 = now_us();
    for (int i = 0; i < N / 10; i++) {
        out_watch_changed(&r.h, hm, r.now);
        bytes = hm->watch->qbytes; /* the one frame queued */
        out_watch_tick(&r.h, r.now);
        rig_worker_drop_all(&r);
    }
    double both = (now_us() - t0) / (N / 10);
    printf("one frame (CPU): %.1f us to build and queue; %.1f us built and sent to %d watchers; "
           "%zu bytes\n",
           build, both, WATCHERS, bytes);
    CU_ASSERT_EQUAL(out_watch_stats_of(&r.h)->spectators, WATCHERS);
    printf("frames sent: %llu\n", (unsigned long long)out_watch_stats_of(&r.h)->frames);
    rig_worker_close(&r);
    out_watch_free(&r.h);
}

static void bench_spectate(void)
{
    bench_frame();
    double ratio[ROUNDS], none[ROUNDS], watched[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
        none[i] = commands_us(false);
        watched[i] = commands_us(true);
        ratio[i] = watched[i] / none[i];
        printf("round %d: %.1f us CPU/command unwatched, %.1f with %d watchers a match "
               "(ratio %.2f)\n",
               i + 1, none[i], watched[i], WATCHERS, ratio[i]);
    }
    qsort(ratio, ROUNDS, sizeof *ratio, cmp_double);
    qsort(none, ROUNDS, sizeof *none, cmp_double);
    qsort(watched, ROUNDS, sizeof *watched, cmp_double);
    printf("%ld matches, %ld commands a kind and round, medians: %.1f us unwatched, %.1f us "
           "watched, ratio %.2f (range %.2f-%.2f)\n",
           matches, commands, none[ROUNDS / 2], watched[ROUNDS / 2], ratio[ROUNDS / 2], ratio[0],
           ratio[ROUNDS - 1]);
}

int main(int argc, char **argv)
{
    return rig_worker_bench(argc, argv, "bench_worker_spectate",
                            "bench_worker_spectate [MATCHES [COMMANDS]]", &matches, &commands,
                            bench_spectate);
}
