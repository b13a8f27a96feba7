/*
 * bench_metrics.c: what the observability costs (docs/BENCHMARKS.md, "Metrics and logs").
 * Four figures, each the median of 5 runs:
 *   observe      dh_histogram_observe on the main thread: ns per observation
 *   family       dh_family_histogram (a lookup among 5 games) + observe: ns per observation
 *   render       /metrics for a registry shaped like a worker's (30 counters and gauges,
 *                4 histograms, 2 game families of 5 games, the process metrics sampled
 *                from /proc): microseconds and bytes per scrape
 *   log_json     one --log-format json line of a typical message: ns per line formatted
 *                (dh_log_json_line, not written)
 * Usage: bench_metrics [N]   (default 10,000,000 observations)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_log_json.h"
#include "dh_ops.h"

#define RUNS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v)
{
    qsort(v, RUNS, sizeof *v, cmp_double);
    return v[RUNS / 2];
}

static const char *const games[] = {"dominion", "ascension", "accession", "caveman", "deckbuilder"};

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    if (n <= 0)
        return 2;
    static dh_ops o;
    static dh_histogram h[4];
    static dh_family fam[2];
    static dh_counter counters[30];
    dh_ops_init(&o);
    for (int i = 0; i < 4; i++)
        dh_histogram_init(&h[i], dh_metrics_latency_bounds, dh_metrics_latency_n);
    dh_family_init(&fam[0], "game", DH_METRIC_COUNTER, NULL, 0);
    dh_family_init(&fam[1], "game", DH_METRIC_HISTOGRAM, dh_metrics_duration_bounds,
                   dh_metrics_duration_n);
    static char names[30][48];
    for (int i = 0; i < 30; i++) {
        snprintf(names[i], sizeof names[i], "deckhand_bench_counter_%d_total", i);
        dh_metrics_counter(&o.metrics, names[i], "", "A counter.", &counters[i]);
    }
    static const char *const hn[] = {"deckhand_bench_a_seconds", "deckhand_bench_b_seconds",
                                     "deckhand_bench_c_seconds", "deckhand_bench_d_seconds"};
    for (int i = 0; i < 4; i++)
        dh_metrics_histogram(&o.metrics, hn[i], "", "A histogram.", &h[i]);
    dh_metrics_family(&o.metrics, "deckhand_bench_games_total", "By game.", &fam[0]);
    dh_metrics_family(&o.metrics, "deckhand_bench_game_seconds", "By game.", &fam[1]);
    for (int g = 0; g < 5; g++) {
        dh_counter_inc(dh_family_counter(&fam[0], games[g]));
        dh_histogram_observe(dh_family_histogram(&fam[1], games[g]), 600);
    }

    double obs[RUNS], famv[RUNS], render[RUNS], logv[RUNS];
    size_t bytes = 0;
    for (int r = 0; r < RUNS; r++) {
        uint64_t t0 = dh_now_ns();
        for (long i = 0; i < n; i++)
            dh_histogram_observe(&h[i & 3], (double)(i & 1023) * 1e-5);
        uint64_t t1 = dh_now_ns();
        for (long i = 0; i < n; i++)
            dh_histogram_observe(dh_family_histogram(&fam[1], games[i % 5]), (double)(i & 4095));
        uint64_t t2 = dh_now_ns();
        int scrapes = 2000;
        for (int i = 0; i < scrapes; i++) {
            size_t len;
            char *text = dh_metrics_render(&o.metrics, &len);
            bytes = len;
            free(text);
        }
        uint64_t t3 = dh_now_ns();
        char line[8192];
        long lines = n / 10;
        for (long i = 0; i < lines; i++)
            dh_log_json_line(line, sizeof line, "2026-11-25T10:00:00.123Z", "info", "worker wk-1",
                             "match m-123 finished id=wk-1 game=dominion turns=31", 0);
        uint64_t t4 = dh_now_ns();
        obs[r] = (double)(t1 - t0) / (double)n;
        famv[r] = (double)(t2 - t1) / (double)n;
        render[r] = (double)(t3 - t2) / scrapes / 1000.0;
        logv[r] = (double)(t4 - t3) / (double)lines;
    }
    printf("observe  %.1f ns/observation\n", median(obs));
    printf("family   %.1f ns/observation (lookup among 5 games + observe)\n", median(famv));
    printf("render   %.1f us/scrape, %zu bytes (%zu series registered)\n", median(render), bytes,
           o.metrics.n);
    printf("log_json %.0f ns/line\n", median(logv));
    return 0;
}
