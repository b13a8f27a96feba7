/*
 * test_client_histogram.c: the latency histogram of `deckhand load` (dh_client_hist.h):
 * its buckets tile 1 µs .. 10 s with no bucket wider than 1% of its values, percentiles of
 * known distributions come out within 1%, and merging two histograms is the same as
 * recording both streams into one.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_client_hist.h"
#include "dh_test.h"

/* |got - want| <= 1% of want. */
static void assert_within_1pct(uint64_t got, uint64_t want)
{
    double err = (double)got > (double)want ? (double)(got - want) : (double)(want - got);
    CU_ASSERT(err <= (double)want / 100.0);
}

static dh_hist *hist_new(void)
{
    dh_hist *h = malloc(sizeof *h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    dh_hist_reset(h);
    return h;
}

static void test_hist_buckets_tile_the_range_within_1pct(void)
{
    CU_ASSERT_EQUAL(dh_hist_low(dh_hist_bucket(1)), 1);
    CU_ASSERT_TRUE(dh_hist_bucket(DH_HIST_MAX_US) < DH_HIST_BUCKETS);
    for (size_t b = 1; b <= dh_hist_bucket(DH_HIST_MAX_US); b++) {
        uint64_t lo = dh_hist_low(b), hi = dh_hist_high(b);
        CU_ASSERT_TRUE(lo <= hi);
        CU_ASSERT_EQUAL(dh_hist_bucket(lo), b);
        CU_ASSERT_EQUAL(dh_hist_bucket(hi), b);
        CU_ASSERT_EQUAL(dh_hist_bucket(hi + 1),
                        b + 1 <= dh_hist_bucket(DH_HIST_MAX_US) ? b + 1 : b);
        /* The relative width: what the middle is off from any value of the bucket, twice. */
        CU_ASSERT_TRUE((double)(hi - lo) <= (double)lo / 100.0);
    }
}

static void test_hist_out_of_range_values_are_clamped(void)
{
    dh_hist *h = hist_new();
    dh_hist_record(h, 0);
    dh_hist_record(h, 60ull * 1000 * 1000);
    CU_ASSERT_EQUAL(h->total, 2);
    CU_ASSERT_EQUAL(dh_hist_percentile(h, 50), 1);
    CU_ASSERT_EQUAL(h->max_us, DH_HIST_MAX_US);
    CU_ASSERT_EQUAL(dh_hist_percentile(h, 100), DH_HIST_MAX_US);
    free(h);
}

static void test_hist_percentiles_of_a_uniform_distribution(void)
{
    dh_hist *h = hist_new();
    CU_ASSERT_EQUAL(dh_hist_percentile(h, 50), 0); /* empty */
    for (uint64_t v = 1; v <= 100000; v++)
        dh_hist_record(h, v);
    CU_ASSERT_EQUAL(h->total, 100000);
    assert_within_1pct(dh_hist_percentile(h, 50), 50000);
    assert_within_1pct(dh_hist_percentile(h, 99), 99000);
    assert_within_1pct(dh_hist_percentile(h, 99.9), 99900);
    CU_ASSERT_EQUAL(dh_hist_percentile(h, 100), 100000);
    CU_ASSERT_EQUAL(h->max_us, 100000);
    free(h);
}

/* 90% of the values at 500 µs, 9% at 20 ms, 1% at 3 s: the percentiles land on each. */
static void test_hist_percentiles_of_a_three_mode_distribution(void)
{
    dh_hist *h = hist_new();
    for (int i = 0; i < 9000; i++)
        dh_hist_record(h, 500);
    for (int i = 0; i < 900; i++)
        dh_hist_record(h, 20000);
    for (int i = 0; i < 100; i++)
        dh_hist_record(h, 3000000);
    assert_within_1pct(dh_hist_percentile(h, 50), 500);
    assert_within_1pct(dh_hist_percentile(h, 90), 500);
    assert_within_1pct(dh_hist_percentile(h, 90.01), 20000);
    assert_within_1pct(dh_hist_percentile(h, 99), 20000);
    assert_within_1pct(dh_hist_percentile(h, 99.5), 3000000);
    CU_ASSERT_EQUAL(h->max_us, 3000000);
    free(h);
}

/* Small values are exact: below 256 µs every microsecond is its own bucket. */
static void test_hist_small_values_are_exact(void)
{
    dh_hist *h = hist_new();
    for (uint64_t v = 1; v <= 200; v++)
        dh_hist_record(h, v);
    CU_ASSERT_EQUAL(dh_hist_percentile(h, 50), 100);
    CU_ASSERT_EQUAL(dh_hist_percentile(h, 99), 198);
    free(h);
}

static void test_hist_merge_equals_recording_both(void)
{
    dh_hist *a = hist_new(), *b = hist_new(), *both = hist_new();
    for (uint64_t v = 1; v <= 5000; v++) {
        dh_hist_record(a, v * 3);
        dh_hist_record(both, v * 3);
    }
    for (uint64_t v = 1; v <= 3000; v++) {
        dh_hist_record(b, v * 1000);
        dh_hist_record(both, v * 1000);
    }
    dh_hist_merge(a, b);
    CU_ASSERT_EQUAL(a->total, 8000);
    CU_ASSERT_EQUAL(a->max_us, 3000000);
    CU_ASSERT_EQUAL(memcmp(a->counts, both->counts, sizeof a->counts), 0);
    CU_ASSERT_EQUAL(dh_hist_percentile(a, 50), dh_hist_percentile(both, 50));
    /* Rank 7920 of 8000: the 2920th of b's values, 2,920,000 µs. */
    assert_within_1pct(dh_hist_percentile(a, 99), 2920000);
    free(a);
    free(b);
    free(both);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"hist_buckets_tile_the_range_within_1pct", test_hist_buckets_tile_the_range_within_1pct},
        {"hist_out_of_range_values_are_clamped", test_hist_out_of_range_values_are_clamped},
        {"hist_percentiles_of_a_uniform_distribution",
         test_hist_percentiles_of_a_uniform_distribution},
        {"hist_percentiles_of_a_three_mode_distribution",
         test_hist_percentiles_of_a_three_mode_distribution},
        {"hist_small_values_are_exact", test_hist_small_values_are_exact},
        {"hist_merge_equals_recording_both", test_hist_merge_equals_recording_both},
        {NULL, NULL},
    };
    return dh_test_main("client_histogram", cases);
}
