/*
 * test_metrics_family.c: labelled families and sampled values (common/dh_metrics.c):
 * a family renders one series per label value learnt (game="dominion"), counters or
 * histograms, values escaped; past DH_FAMILY_MAX values share "_other"; a family clashes
 * with another type of the same name; real-valued series render as doubles; the
 * collector runs before each render; the shared latency bounds ascend.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_clock.h"
#include "dh_metrics.h"
#include "dh_test.h"

static const double bounds[] = {1, 10};

static void test_family_renders_a_series_per_game(void)
{
    dh_metrics reg;
    dh_metrics_init(&reg);
    dh_family started, lengths;
    dh_family_init(&started, "game", DH_METRIC_COUNTER, NULL, 0);
    dh_family_init(&lengths, "game", DH_METRIC_HISTOGRAM, bounds, 2);
    CU_ASSERT_EQUAL(dh_metrics_family(&reg, "m_total", "Matches.", &started), 0);
    CU_ASSERT_EQUAL(dh_metrics_family(&reg, "m_seconds", "Lengths.", &lengths), 0);
    dh_counter_inc(dh_family_counter(&started, "dominion"));
    dh_counter_inc(dh_family_counter(&started, "ascension"));
    dh_counter_inc(dh_family_counter(&started, "dominion"));
    dh_counter_inc(dh_family_counter(&started, "we\"ird\\\n"));
    dh_histogram_observe(dh_family_histogram(&lengths, "dominion"), 5);
    size_t len;
    char *text = dh_metrics_render(&reg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# TYPE m_total counter\n"
                                        "m_total{game=\"dominion\"} 2\n"
                                        "m_total{game=\"ascension\"} 1\n"
                                        "m_total{game=\"we\\\"ird\\\\\\n\"} 1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# TYPE m_seconds histogram\n"
                                        "m_seconds_bucket{game=\"dominion\",le=\"1\"} 0\n"
                                        "m_seconds_bucket{game=\"dominion\",le=\"10\"} 1\n"
                                        "m_seconds_bucket{game=\"dominion\",le=\"+Inf\"} 1\n"
                                        "m_seconds_sum{game=\"dominion\"} 5\n"
                                        "m_seconds_count{game=\"dominion\"} 1\n"));
    free(text);
}

static void test_family_past_its_size_counts_into_other(void)
{
    static dh_family f;
    dh_family_init(&f, "game", DH_METRIC_COUNTER, NULL, 0);
    char name[16];
    for (int i = 0; i < DH_FAMILY_MAX + 5; i++) {
        snprintf(name, sizeof name, "g%d", i);
        dh_counter_inc(dh_family_counter(&f, name));
    }
    CU_ASSERT_EQUAL(f.n, DH_FAMILY_MAX);
    CU_ASSERT_STRING_EQUAL(f.slots[DH_FAMILY_MAX - 1].value, "_other");
    CU_ASSERT_EQUAL(f.slots[DH_FAMILY_MAX - 1].counter, 6);
    CU_ASSERT_EQUAL(f.slots[0].counter, 1);
    dh_counter_inc(dh_family_counter(&f, "g0"));
    CU_ASSERT_EQUAL(f.slots[0].counter, 2);
}

static void test_family_and_counter_of_one_name_clash(void)
{
    dh_metrics reg;
    dh_metrics_init(&reg);
    dh_family f, h;
    dh_family_init(&f, "game", DH_METRIC_COUNTER, NULL, 0);
    dh_family_init(&h, "game", DH_METRIC_HISTOGRAM, bounds, 2);
    dh_counter c = 0;
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "a_total", "", "", &c), 0);
    CU_ASSERT_EQUAL(dh_metrics_family(&reg, "a_total", "", &f), 0); /* both counters */
    CU_ASSERT_EQUAL(dh_metrics_family(&reg, "a_total", "", &h), -1);
    dh_family g;
    dh_family_init(&g, "game", DH_METRIC_GAUGE, NULL, 0);
    CU_ASSERT_EQUAL(dh_metrics_family(&reg, "b", "", &g), -1); /* counters, histograms only */
}

static int collected;

static void collect(void *ctx)
{
    collected++;
    *(_Atomic double *)ctx = 2.5;
}

static void test_real_values_render_after_the_collector_runs(void)
{
    dh_metrics reg;
    dh_metrics_init(&reg);
    _Atomic double cpu = 0, start = 1764064800.25;
    const dh_metric table[] = {
        {"cpu_seconds_total", "", "CPU.", DH_METRIC_COUNTER_REAL, &cpu},
        {"start_seconds", "", "Start.", DH_METRIC_GAUGE_REAL, &start},
    };
    CU_ASSERT_EQUAL(dh_metrics_table(&reg, table, 2), 0);
    dh_metrics_collect(&reg, collect, &cpu);
    size_t len;
    char *text = dh_metrics_render(&reg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(collected, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# TYPE cpu_seconds_total counter\n"
                                        "cpu_seconds_total 2.5\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# TYPE start_seconds gauge\n"
                                        "start_seconds 1764064800.25\n"));
    free(text);
}

static void test_latency_bounds_ascend_and_fit(void)
{
    CU_ASSERT(dh_metrics_latency_n <= DH_HISTOGRAM_BOUNDS_MAX);
    CU_ASSERT(dh_metrics_duration_n <= DH_HISTOGRAM_BOUNDS_MAX);
    for (size_t i = 1; i < dh_metrics_latency_n; i++)
        CU_ASSERT(dh_metrics_latency_bounds[i] > dh_metrics_latency_bounds[i - 1]);
    for (size_t i = 1; i < dh_metrics_duration_n; i++)
        CU_ASSERT(dh_metrics_duration_bounds[i] > dh_metrics_duration_bounds[i - 1]);
    dh_histogram h;
    dh_histogram_init(&h, dh_metrics_latency_bounds, dh_metrics_latency_n);
    dh_histogram_since(&h, dh_now_ns() - 3000000);      /* 3 ms ago */
    CU_ASSERT_EQUAL(dh_histogram_cumulative(&h, 4), 0); /* not within 2.5 ms */
    CU_ASSERT_EQUAL(dh_histogram_count(&h), 1);
    CU_ASSERT(h.sum >= 0.003 && h.sum < 1);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"family_renders_a_series_per_game", test_family_renders_a_series_per_game},
        {"family_past_its_size_counts_into_other", test_family_past_its_size_counts_into_other},
        {"family_and_counter_of_one_name_clash", test_family_and_counter_of_one_name_clash},
        {"real_values_render_after_the_collector_runs",
         test_real_values_render_after_the_collector_runs},
        {"latency_bounds_ascend_and_fit", test_latency_bounds_ascend_and_fit},
        {NULL, NULL},
    };
    return dh_test_main("metrics_family", cases);
}
