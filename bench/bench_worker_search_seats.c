/*
 * bench_worker_search_seats.c: what the search bot's seats cost a worker's loop
 * (docs/BENCHMARKS.md, "Worker: the search bot's seats"). MATCHES two-player matches of
 * BENCH_GAME (default caveman) on the unit tests' worker rig, each with seat 2 a
 * bot-filled seat of the `hard` difficulty (the search bot at the worker's budget, as a
 * queue with bot=hard makes them), so the worker answers those seats itself in host_tick; seat 1's
 * decisions are answered with the game's default bot (Choose.bot), which is cheap. Per tick it
 * measures host_tick's wall time and the search answers it made, so the bound (at most
 * HOST_SEARCH_TICK_MS of searching a tick, each search at most ENGINE_SEARCH_BUDGET_MS) shows as
 * the longest tick; the ticks that made one search answer give the time per decision as the worker
 * spends it (search, apply, persist), at p50 and p99, in wall time and in the thread's CPU
 * time: on a shared machine the two differ by the time the process waited for a core, which
 * no budget in the search can bound, while the CPU time is what the search itself spends.
 *
 *   bench_worker_search_seats [MATCHES [TICKS]]      (default 16 200)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dh_clock.h"
#include "rig_worker.h"

static long matches = 16, ticks = 200;
static const char *game = "caveman";

static void start_search_match(rig_worker *r, long i)
{
    char id[32], bot_id[48];
    snprintf(id, sizeof id, "m-%06ld", i);
    snprintf(bot_id, sizeof bot_id, "%s:bot2", id);
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    s0.player_id = (char *)rig_worker_players[0];
    s0.name = (char *)"ann";
    s1.player_id = bot_id;
    s1.name = (char *)"Bot 1";
    s1.bot = (char *)ENGINE_HARD_BOT;
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
    sm.match_id = id;
    sm.game = (char *)game;
    sm.seed = (uint64_t)i + 1;
    sm.n_seats = 2;
    sm.seats = seats;
    sm.unrated = true;
    host_start_match(&r->h, &sm, r->now);
    host_flush(&r->h, r->now);
    rig_worker_command(r, id, rig_worker_players[0], 0, NULL); /* attach */
}

/* Seat 1's pending decisions, answered by the default bot on the server. */
static void answer_players(rig_worker *r, uint64_t *cmd)
{
    for (size_t i = 0; i < host_active(&r->h); i++) {
        host_match *hm = r->h.matches[i];
        const engine_decision *d = engine_match_decision(hm->m);
        if (!d || d->seat != 0)
            continue;
        Deckhand__Choose c = DECKHAND__CHOOSE__INIT;
        c.decision_id = d->decision_id;
        c.bot = (char *)"default";
        rig_worker_command(r, hm->id, rig_worker_players[0], (*cmd)++, &c);
    }
    host_flush(&r->h, r->now);
}

static int bench_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* This thread's CPU time (the search runs on the thread that calls host_tick). */
static uint64_t bench_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The ticks that made one search answer, ns[0..n) (what: "wall" or "CPU"): p50, p99 and
 * the longest. */
static void bench_one_answer_ticks(const char *what, uint64_t *ns, size_t n)
{
    if (!n)
        return;
    qsort(ns, n, sizeof *ns, bench_u64_cmp);
    printf("%s, ticks with one search answer: %zu, %s p50 %.1f ms, p99 %.1f ms, longest %.1f "
           "ms\n",
           game, n, what, (double)ns[n / 2] / 1e6, (double)ns[n - 1 - n / 100] / 1e6,
           (double)ns[n - 1] / 1e6);
}

static void bench_search_seats(void)
{
    rig_worker r;
    engine_limits lim = {.budget_ms = 2000};
    rig_worker_open(&r, "scripts", &lim);
    r.h.capacity = (uint32_t)matches + 1;
    for (long i = 0; i < matches; i++)
        start_search_match(&r, i);
    rig_worker_drop_all(&r);
    uint64_t cmd = 1, made = 0, total_ns = 0, max_ns = 0;
    uint64_t *one = calloc((size_t)ticks, sizeof *one);
    uint64_t *one_cpu = calloc((size_t)ticks, sizeof *one_cpu);
    size_t none = 0;
    long run = 0;
    for (long next = matches; run < ticks; run++) {
        if (!host_active(&r.h)) /* the matches ended: a new one, so every tick counts */
            start_search_match(&r, next++);
        answer_players(&r, &cmd);
        uint64_t t0 = dh_now_ns(), c0 = bench_cpu_ns();
        size_t k = host_tick(&r.h, r.now);
        uint64_t dt = dh_now_ns() - t0, dc = bench_cpu_ns() - c0;
        made += k;
        if (k == 1 && one && one_cpu) {
            one_cpu[none] = dc;
            one[none++] = dt;
        }
        host_flush(&r.h, r.now);
        rig_worker_drop_all(&r);
        total_ns += dt;
        max_ns = dt > max_ns ? dt : max_ns;
        rig_worker_advance(&r, 1);
    }
    double ms = (double)total_ns / 1e6;
    printf("%ld matches, %ld ticks: %llu search answers (%llu counted), %.1f ms a tick on "
           "average, %.1f ms the longest; %.1f ms a search answer, %.0f answers/s of tick "
           "time\n",
           matches, run, (unsigned long long)made, (unsigned long long)r.h.stats.search_answers,
           run ? ms / (double)run : 0.0, (double)max_ns / 1e6, made ? ms / (double)made : 0.0,
           ms > 0 ? (double)made * 1000.0 / ms : 0.0);
    if (one_cpu)
        bench_one_answer_ticks("CPU", one_cpu, none);
    bench_one_answer_ticks("wall", one, none);
    free(one);
    free(one_cpu);
    rig_worker_close(&r);
}

int main(int argc, char **argv)
{
    const char *g = getenv("BENCH_GAME");
    if (g && *g)
        game = g;
    return rig_worker_bench(argc, argv, "bench_worker_search_seats",
                            "bench_worker_search_seats [MATCHES [TICKS]]", &matches, &ticks,
                            bench_search_seats);
}
