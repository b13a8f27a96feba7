/*
 * dh_client_hist.c: see dh_client_hist.h.
 *
 * Bucket b < 2 * HALF holds the value b. Above, a value v with its highest bit at
 * position p (v >= 2 * HALF, so p >= 8) is shifted right by s = p - 7, which leaves
 * HALF <= v >> s < 2 * HALF: its bucket is 2 * HALF + (s - 1) * HALF + (v >> s) - HALF,
 * and the bucket spans 2^s values of at least HALF * 2^s each.
 */
#include "dh_client_hist.h"

#include <string.h>

static unsigned dh_hist_top_bit(uint64_t v)
{
    return 63u - (unsigned)__builtin_clzll(v);
}

static uint64_t dh_hist_clamp(uint64_t us)
{
    if (us < 1)
        return 1;
    return us > DH_HIST_MAX_US ? DH_HIST_MAX_US : us;
}

size_t dh_hist_bucket(uint64_t us)
{
    us = dh_hist_clamp(us);
    if (us < 2 * DH_HIST_HALF)
        return (size_t)us;
    unsigned s = dh_hist_top_bit(us) - 7;
    return 2 * DH_HIST_HALF + (size_t)(s - 1) * DH_HIST_HALF + (size_t)(us >> s) - DH_HIST_HALF;
}

uint64_t dh_hist_low(size_t bucket)
{
    if (bucket < 2 * DH_HIST_HALF)
        return bucket;
    size_t above = bucket - 2 * DH_HIST_HALF;
    unsigned s = (unsigned)(above / DH_HIST_HALF) + 1;
    return (uint64_t)(DH_HIST_HALF + above % DH_HIST_HALF) << s;
}

uint64_t dh_hist_high(size_t bucket)
{
    if (bucket < 2 * DH_HIST_HALF)
        return bucket;
    unsigned s = (unsigned)((bucket - 2 * DH_HIST_HALF) / DH_HIST_HALF) + 1;
    return dh_hist_low(bucket) + ((uint64_t)1 << s) - 1;
}

void dh_hist_reset(dh_hist *h)
{
    memset(h, 0, sizeof *h);
}

void dh_hist_record(dh_hist *h, uint64_t us)
{
    us = dh_hist_clamp(us);
    h->counts[dh_hist_bucket(us)]++;
    h->total++;
    if (us > h->max_us)
        h->max_us = us;
}

void dh_hist_merge(dh_hist *into, const dh_hist *from)
{
    for (size_t i = 0; i < DH_HIST_BUCKETS; i++)
        into->counts[i] += from->counts[i];
    into->total += from->total;
    if (from->max_us > into->max_us)
        into->max_us = from->max_us;
}

uint64_t dh_hist_percentile(const dh_hist *h, double p)
{
    if (h->total == 0)
        return 0;
    double want = p / 100.0 * (double)h->total;
    uint64_t rank = (uint64_t)want;
    if ((double)rank < want || rank < 1)
        rank++; /* ceil, at least 1 */
    if (rank >= h->total)
        return h->max_us; /* the largest value is known exactly */
    uint64_t seen = 0;
    for (size_t i = 0; i < DH_HIST_BUCKETS; i++) {
        seen += h->counts[i];
        if (seen >= rank) {
            uint64_t mid = dh_hist_low(i) + (dh_hist_high(i) - dh_hist_low(i)) / 2;
            return mid > h->max_us ? h->max_us : mid;
        }
    }
    return h->max_us;
}
