/*
 * dh_metrics.h: a process's counters and gauges, rendered for Prometheus.
 *
 * The values live where the code that moves them lives (a struct field of the process
 * state, zero-initialised with it), as C11 atomics: the main loop bumps them with relaxed
 * increments and never takes a lock, and the HTTP thread (dh_http.h) reads them when
 * /metrics is scraped. A registry only names them: at start-up, before the HTTP thread
 * runs, each value is registered once with its name, its HELP text and its labels, which
 * never change afterwards. So unit tests that build a process's state without a registry
 * count into fields nobody reads, and nothing else changes.
 *
 * A histogram (dh_histogram) counts observations into fixed buckets (upper bounds given
 * at init) and keeps their sum; it is rendered as Prometheus wants: cumulative
 * NAME_bucket{le="..."} series, then NAME_sum and NAME_count. Observing is lock-free too
 * (relaxed adds; the sum by compare-and-swap), so a scrape may see a count before its
 * sum, never a torn value.
 *
 * A family (dh_family) is one name with one label whose values are learnt as the process
 * runs: game="dominion", game="ascension". Its series live in fixed slots inside the
 * family (DH_FAMILY_MAX; past it, values share the slot "_other"), claimed by the main
 * thread on first use and published to the HTTP thread by an atomic flag (release /
 * acquire), so a new game costs no registration after start-up and no lock.
 *
 * A collector (dh_metrics_collect) is a function the render calls first, on the HTTP
 * thread, to refresh values that are sampled rather than counted (process metrics,
 * dh_proc.h); the _REAL types hold doubles for them (seconds).
 *
 * Rendering follows the Prometheus text exposition format 0.0.4: one "# HELP" and one
 * "# TYPE" line per name, then every series of that name (in registration order).
 * Relaxed loads mean a scrape may see one counter's increment before another's; each
 * value is exact on its own, which is all Prometheus needs.
 */
#ifndef DECKHAND_DH_METRICS_H
#define DECKHAND_DH_METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define DH_METRICS_MAX 128 /* series per process; registration past it fails */

typedef _Atomic uint64_t dh_counter; /* only goes up */
typedef _Atomic int64_t dh_gauge;    /* goes up and down, or is set */

static inline void dh_counter_inc(dh_counter *c)
{
    atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}
static inline void dh_counter_add(dh_counter *c, uint64_t n)
{
    atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}
static inline void dh_gauge_set(dh_gauge *g, int64_t v)
{
    atomic_store_explicit(g, v, memory_order_relaxed);
}
static inline void dh_gauge_add(dh_gauge *g, int64_t d)
{
    atomic_fetch_add_explicit(g, d, memory_order_relaxed);
}

#define DH_HISTOGRAM_BOUNDS_MAX 16

typedef struct {
    const double *bounds; /* ascending upper bounds, borrowed; +Inf is implied */
    size_t n;             /* bounds (at most DH_HISTOGRAM_BOUNDS_MAX) */
    _Atomic uint64_t counts[DH_HISTOGRAM_BOUNDS_MAX + 1]; /* per bucket, not cumulative */
    _Atomic double sum;
} dh_histogram;

/* Set the bounds (n above the maximum are cut) and zero the counts. Call before the
 * histogram is registered or observed. */
void dh_histogram_init(dh_histogram *h, const double *bounds, size_t n);
/* Count v in the first bucket whose bound is >= v (else +Inf) and add it to the sum. */
void dh_histogram_observe(dh_histogram *h, double v);
/* Observations so far, and in the buckets up to bound i (i = n: all). */
uint64_t dh_histogram_count(const dh_histogram *h);
uint64_t dh_histogram_cumulative(const dh_histogram *h, size_t i);

/* Common histogram bounds, in seconds: latencies from 100 us to 10 s (a command, a Redis
 * round trip), and durations from 10 s to 4 h (a match). */
extern const double dh_metrics_latency_bounds[];
extern const size_t dh_metrics_latency_n;
extern const double dh_metrics_duration_bounds[];
extern const size_t dh_metrics_duration_n;

/* Add the seconds since start_ns (dh_now_ns) to h. */
void dh_histogram_since(dh_histogram *h, uint64_t start_ns);

typedef enum {
    DH_METRIC_COUNTER,
    DH_METRIC_GAUGE,
    DH_METRIC_HISTOGRAM,
    DH_METRIC_COUNTER_REAL, /* value: _Atomic double *, only goes up */
    DH_METRIC_GAUGE_REAL,   /* value: _Atomic double * */
    DH_METRIC_FAMILY,       /* value: dh_family *; its type is the family's */
} dh_metric_type;

#define DH_FAMILY_MAX       24 /* label values per family; the last slot is "_other" */
#define DH_FAMILY_VALUE_MAX 48 /* a label value's bytes; longer values are cut */

typedef struct {
    char value[DH_FAMILY_VALUE_MAX];
    _Atomic int ready; /* 1 once value is set and the series may be rendered */
    dh_counter counter;
    dh_histogram histogram;
} dh_family_slot;

typedef struct {
    const char *label;   /* the label's name ("game"), borrowed */
    dh_metric_type type; /* DH_METRIC_COUNTER or DH_METRIC_HISTOGRAM */
    size_t n;            /* slots claimed (main thread only) */
    dh_family_slot slots[DH_FAMILY_MAX];
    const double *bounds; /* histograms: as dh_histogram_init */
    size_t nbounds;
} dh_family;

/* A family of counters or histograms (bounds borrowed) under the label named label. */
void dh_family_init(dh_family *f, const char *label, dh_metric_type type, const double *bounds,
                    size_t nbounds);
/* The series of one label value, claimed on first use (main thread only). Never NULL: a
 * full family gives its "_other" series. */
dh_counter *dh_family_counter(dh_family *f, const char *value);
dh_histogram *dh_family_histogram(dh_family *f, const char *value);

typedef struct {
    const char *name;   /* [a-zA-Z_:][a-zA-Z0-9_:]* */
    const char *labels; /* "" or the inside of the braces: code="UNAVAILABLE",kind="tcp" */
    const char *help;
    dh_metric_type type;
    void *value; /* dh_counter *, dh_gauge *, dh_histogram *, _Atomic double *, dh_family * */
} dh_metric;

/* Every string is borrowed (string literals in practice) and must outlive the registry. */
typedef struct {
    dh_metric m[DH_METRICS_MAX];
    size_t n;
    void (*collect)(void *ctx); /* dh_metrics_collect; NULL: none */
    void *collect_ctx;
} dh_metrics;

void dh_metrics_init(dh_metrics *reg);
/* Register a series. 0, or -1 when the registry is full, the name is not a valid metric
 * name, or the name was registered before with another type. Call before the registry
 * is shared with another thread. */
int dh_metrics_counter(dh_metrics *reg, const char *name, const char *labels, const char *help,
                       dh_counter *c);
int dh_metrics_gauge(dh_metrics *reg, const char *name, const char *labels, const char *help,
                     dh_gauge *g);
int dh_metrics_histogram(dh_metrics *reg, const char *name, const char *labels, const char *help,
                         dh_histogram *h);
int dh_metrics_family(dh_metrics *reg, const char *name, const char *help, dh_family *f);
/* fn(ctx) runs at the start of every render, on the rendering thread. One per registry. */
void dh_metrics_collect(dh_metrics *reg, void (*fn)(void *ctx), void *ctx);
/* Register every series of a table, in its order (each entry as dh_metrics_counter,
 * dh_metrics_gauge... would): 0, or -1 when any of them fails. The entries are copied. */
int dh_metrics_table(dh_metrics *reg, const dh_metric *table, size_t n);

/* The exposition text, NUL-terminated, in a malloc'd buffer the caller frees; *len is
 * its length. NULL when out of memory. */
char *dh_metrics_render(const dh_metrics *reg, size_t *len);

#endif
