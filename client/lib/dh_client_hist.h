/*
 * dh_client_hist.h: a latency histogram that keeps every value, not a sample, in
 * log-linear buckets (the HDR histogram's layout): `deckhand load` records each command's
 * latency in one, merges the histograms of its worker processes, and reads p50/p99 off
 * the result.
 *
 * Values are microseconds from 1 µs to 10 s (DH_HIST_MAX_US; smaller ones count as 1 µs,
 * larger ones in the last bucket). Below 2 * DH_HIST_HALF every microsecond has its own
 * bucket; above, each power of two is cut into DH_HIST_HALF equal buckets, so a bucket is
 * never wider than 1/DH_HIST_HALF (0.78%) of the values it holds, and the value reported
 * for it (its middle) is within 0.4% of any of them. The exact maximum is kept aside.
 *
 * Fixed size and free of pointers, so a worker process can write one whole down a pipe.
 */
#ifndef DECKHAND_DH_CLIENT_HIST_H
#define DECKHAND_DH_CLIENT_HIST_H

#include <stddef.h>
#include <stdint.h>

#define DH_HIST_HALF    128      /* buckets per power of two above the linear range */
#define DH_HIST_MAX_US  10000000 /* 10 s */
#define DH_HIST_SHIFTS  16       /* powers of two from 2 * DH_HIST_HALF (2^8) up to 2^24 > 10 s */
#define DH_HIST_BUCKETS (2 * DH_HIST_HALF + DH_HIST_SHIFTS * DH_HIST_HALF)

typedef struct {
    uint64_t counts[DH_HIST_BUCKETS];
    uint64_t total;  /* values recorded */
    uint64_t max_us; /* the largest, exactly (clamped to 1..DH_HIST_MAX_US) */
} dh_hist;

/* Empty h. */
void dh_hist_reset(dh_hist *h);
/* Count one value. */
void dh_hist_record(dh_hist *h, uint64_t us);
/* Add every count of from to into. */
void dh_hist_merge(dh_hist *into, const dh_hist *from);
/* The value at percentile p (0..100]: the middle of the bucket that holds the value of
 * rank ceil(p% of total), never above max_us, and max_us itself for the last rank; 0 when
 * h is empty. */
uint64_t dh_hist_percentile(const dh_hist *h, double p);

/* The bucket of a value, and the lowest and highest value of a bucket (tests). */
size_t dh_hist_bucket(uint64_t us);
uint64_t dh_hist_low(size_t bucket);
uint64_t dh_hist_high(size_t bucket);

#endif
