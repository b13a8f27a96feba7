/*
 * test_metrics_histogram.c: dh_histogram (common/dh_metrics.c): observations land in the
 * first bucket whose bound holds them, +Inf takes the rest, and /metrics renders the
 * cumulative buckets, the sum and the count as Prometheus expects, labels included.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_metrics.h"
#include "dh_test.h"

static const double bounds[] = {1, 5, 10};

static void test_histogram_counts_into_the_first_bucket_that_holds_the_value(void)
{
    dh_histogram h;
    dh_histogram_init(&h, bounds, 3);
    dh_histogram_observe(&h, 0.5);
    dh_histogram_observe(&h, 1);
    dh_histogram_observe(&h, 4);
    dh_histogram_observe(&h, 10);
    dh_histogram_observe(&h, 11);
    CU_ASSERT_EQUAL(dh_histogram_cumulative(&h, 0), 2);
    CU_ASSERT_EQUAL(dh_histogram_cumulative(&h, 1), 3);
    CU_ASSERT_EQUAL(dh_histogram_cumulative(&h, 2), 4);
    CU_ASSERT_EQUAL(dh_histogram_count(&h), 5);
    CU_ASSERT_DOUBLE_EQUAL(h.sum, 26.5, 1e-9);
}

static void test_histogram_renders_cumulative_buckets_sum_and_count(void)
{
    dh_metrics reg;
    dh_metrics_init(&reg);
    dh_histogram h, l;
    dh_histogram_init(&h, bounds, 3);
    dh_histogram_init(&l, bounds, 2);
    dh_histogram_observe(&h, 0.25);
    dh_histogram_observe(&h, 7);
    dh_histogram_observe(&l, 100);
    CU_ASSERT_EQUAL(dh_metrics_histogram(&reg, "x_seconds", "", "Waits.", &h), 0);
    CU_ASSERT_EQUAL(dh_metrics_histogram(&reg, "x_seconds", "q=\"b\"", "Waits.", &l), 0);
    dh_counter c = 0;
    CU_ASSERT_EQUAL(dh_metrics_counter(&reg, "x_seconds", "", "no", &c), -1); /* one type */
    size_t len;
    char *text = dh_metrics_render(&reg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "# TYPE x_seconds histogram\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "x_seconds_bucket{le=\"1\"} 1\n"
                                        "x_seconds_bucket{le=\"5\"} 1\n"
                                        "x_seconds_bucket{le=\"10\"} 2\n"
                                        "x_seconds_bucket{le=\"+Inf\"} 2\n"
                                        "x_seconds_sum 7.25\n"
                                        "x_seconds_count 2\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "x_seconds_bucket{q=\"b\",le=\"5\"} 0\n"
                                        "x_seconds_bucket{q=\"b\",le=\"+Inf\"} 1\n"
                                        "x_seconds_sum{q=\"b\"} 100\n"
                                        "x_seconds_count{q=\"b\"} 1\n"));
    free(text);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"histogram_counts_into_the_first_bucket_that_holds_the_value",
         test_histogram_counts_into_the_first_bucket_that_holds_the_value},
        {"histogram_renders_cumulative_buckets_sum_and_count",
         test_histogram_renders_cumulative_buckets_sum_and_count},
        {NULL, NULL},
    };
    return dh_test_main("histogram", cases);
}
