/*
 * dh_metrics.c: the registry and the Prometheus text rendering (dh_metrics.h).
 *
 * A registry is small (tens of series) and rendered a few times a minute, so series of
 * one name are grouped by a quadratic scan at render time instead of being kept sorted.
 */
#include "dh_metrics.h"

#include "dh_clock.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dh_metrics_init(dh_metrics *reg)
{
    memset(reg, 0, sizeof *reg);
}

static bool metrics_name_ok(const char *name)
{
    if (!name || !(isalpha((unsigned char)name[0]) || name[0] == '_' || name[0] == ':'))
        return false;
    for (const char *p = name; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == ':'))
            return false;
    return true;
}

/* What a series renders as: a family as the type of its series. */
static dh_metric_type metrics_kind(dh_metric_type type, const void *value)
{
    return type == DH_METRIC_FAMILY ? ((const dh_family *)value)->type : type;
}

static int metrics_add(dh_metrics *reg, const char *name, const char *labels, const char *help,
                       dh_metric_type type, void *value)
{
    if (reg->n == DH_METRICS_MAX || !metrics_name_ok(name) || !value)
        return -1;
    if (type == DH_METRIC_FAMILY && metrics_kind(type, value) != DH_METRIC_COUNTER &&
        metrics_kind(type, value) != DH_METRIC_HISTOGRAM)
        return -1;
    for (size_t i = 0; i < reg->n; i++)
        if (strcmp(reg->m[i].name, name) == 0 &&
            metrics_kind(reg->m[i].type, reg->m[i].value) != metrics_kind(type, value))
            return -1;
    reg->m[reg->n++] = (dh_metric){.name = name,
                                   .labels = labels ? labels : "",
                                   .help = help ? help : "",
                                   .type = type,
                                   .value = value};
    return 0;
}

int dh_metrics_counter(dh_metrics *reg, const char *name, const char *labels, const char *help,
                       dh_counter *c)
{
    return metrics_add(reg, name, labels, help, DH_METRIC_COUNTER, (void *)c);
}

int dh_metrics_gauge(dh_metrics *reg, const char *name, const char *labels, const char *help,
                     dh_gauge *g)
{
    return metrics_add(reg, name, labels, help, DH_METRIC_GAUGE, (void *)g);
}

int dh_metrics_histogram(dh_metrics *reg, const char *name, const char *labels, const char *help,
                         dh_histogram *h)
{
    return metrics_add(reg, name, labels, help, DH_METRIC_HISTOGRAM, (void *)h);
}

int dh_metrics_family(dh_metrics *reg, const char *name, const char *help, dh_family *f)
{
    return metrics_add(reg, name, "", help, DH_METRIC_FAMILY, (void *)f);
}

void dh_metrics_collect(dh_metrics *reg, void (*fn)(void *ctx), void *ctx)
{
    reg->collect = fn;
    reg->collect_ctx = ctx;
}

const double dh_metrics_latency_bounds[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                            0.01,   0.025,   0.05,   0.1,   0.25,   0.5,
                                            1,      2.5,     5,      10};
const size_t dh_metrics_latency_n = sizeof dh_metrics_latency_bounds / sizeof(double);
const double dh_metrics_duration_bounds[] = {10,   30,   60,   120,  300,  600,   900,  1200,
                                             1800, 2700, 3600, 5400, 7200, 10800, 14400};
const size_t dh_metrics_duration_n = sizeof dh_metrics_duration_bounds / sizeof(double);

void dh_histogram_init(dh_histogram *h, const double *bounds, size_t n)
{
    h->bounds = bounds;
    h->n = n < DH_HISTOGRAM_BOUNDS_MAX ? n : DH_HISTOGRAM_BOUNDS_MAX;
    for (size_t i = 0; i <= DH_HISTOGRAM_BOUNDS_MAX; i++)
        atomic_store_explicit(&h->counts[i], 0, memory_order_relaxed);
    atomic_store_explicit(&h->sum, 0.0, memory_order_relaxed);
}

void dh_histogram_observe(dh_histogram *h, double v)
{
    size_t i = 0;
    while (i < h->n && v > h->bounds[i])
        i++;
    atomic_fetch_add_explicit(&h->counts[i], 1, memory_order_relaxed);
    double old = atomic_load_explicit(&h->sum, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&h->sum, &old, old + v, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

void dh_histogram_since(dh_histogram *h, uint64_t start_ns)
{
    uint64_t now = dh_now_ns();
    dh_histogram_observe(h, now > start_ns ? (double)(now - start_ns) / 1e9 : 0.0);
}

void dh_family_init(dh_family *f, const char *label, dh_metric_type type, const double *bounds,
                    size_t nbounds)
{
    memset(f, 0, sizeof *f);
    f->label = label;
    f->type = type;
    f->bounds = bounds;
    f->nbounds = nbounds;
}

/* The slot of value: found, else claimed (its value written before it is published),
 * else the last slot, "_other". */
static dh_family_slot *family_slot(dh_family *f, const char *value)
{
    for (size_t i = 0; i < f->n; i++)
        if (strncmp(f->slots[i].value, value, DH_FAMILY_VALUE_MAX - 1) == 0)
            return &f->slots[i];
    if (f->n == DH_FAMILY_MAX)
        return &f->slots[DH_FAMILY_MAX - 1];
    dh_family_slot *s = &f->slots[f->n++];
    snprintf(s->value, sizeof s->value, "%s", f->n == DH_FAMILY_MAX ? "_other" : value);
    dh_histogram_init(&s->histogram, f->bounds, f->nbounds);
    atomic_store_explicit(&s->counter, 0, memory_order_relaxed);
    atomic_store_explicit(&s->ready, 1, memory_order_release);
    return s;
}

dh_counter *dh_family_counter(dh_family *f, const char *value)
{
    return &family_slot(f, value)->counter;
}

dh_histogram *dh_family_histogram(dh_family *f, const char *value)
{
    return &family_slot(f, value)->histogram;
}

uint64_t dh_histogram_cumulative(const dh_histogram *h, size_t i)
{
    uint64_t n = 0;
    for (size_t j = 0; j <= i && j <= h->n; j++)
        n += atomic_load_explicit(&h->counts[j], memory_order_relaxed);
    return n;
}

uint64_t dh_histogram_count(const dh_histogram *h)
{
    return dh_histogram_cumulative(h, h->n);
}

int dh_metrics_table(dh_metrics *reg, const dh_metric *table, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        rc |= metrics_add(reg, table[i].name, table[i].labels, table[i].help, table[i].type,
                          table[i].value);
    return rc;
}

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} metrics_out;

static void metrics_printf(metrics_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void metrics_printf(metrics_out *o, const char *fmt, ...)
{
    if (o->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            o->failed = true;
            return;
        }
        if ((size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        size_t cap = o->cap * 2 + (size_t)n;
        char *nb = realloc(o->buf, cap);
        if (!nb) {
            o->failed = true;
            return;
        }
        o->buf = nb;
        o->cap = cap;
    }
}

/* HELP text escapes backslash and newline (the format's only rules for it). */
static void metrics_help(metrics_out *o, const char *help)
{
    for (const char *p = help; *p; p++) {
        if (*p == '\\')
            metrics_printf(o, "\\\\");
        else if (*p == '\n')
            metrics_printf(o, "\\n");
        else
            metrics_printf(o, "%c", *p);
    }
}

/* NAME_bucket{LABELS,le="B"} per bound and +Inf, then NAME_sum and NAME_count. */
static void metrics_histogram(metrics_out *o, const char *name, const char *labels,
                              const dh_histogram *h)
{
    const char *sep = labels[0] ? "," : "";
    for (size_t i = 0; i <= h->n; i++) {
        char le[32];
        if (i < h->n)
            snprintf(le, sizeof le, "%g", h->bounds[i]);
        else
            snprintf(le, sizeof le, "+Inf");
        metrics_printf(o, "%s_bucket{%s%sle=\"%s\"} %" PRIu64 "\n", name, labels, sep, le,
                       dh_histogram_cumulative(h, i));
    }
    const char *open = labels[0] ? "{" : "", *close = labels[0] ? "}" : "";
    metrics_printf(o, "%s_sum%s%s%s %.17g\n", name, open, labels, close,
                   atomic_load_explicit(&h->sum, memory_order_relaxed));
    metrics_printf(o, "%s_count%s%s%s %" PRIu64 "\n", name, open, labels, close,
                   dh_histogram_count(h));
}

/* label="value" into out, the value escaped as the format wants (backslash, quote,
 * newline). */
static void metrics_label(char *out, size_t n, const char *label, const char *value)
{
    size_t o = (size_t)snprintf(out, n, "%s=\"", label ? label : "label");
    for (const char *p = value; *p && o + 4 < n; p++) {
        if (*p == '\\' || *p == '"' || *p == '\n')
            out[o++] = '\\';
        out[o++] = *p == '\n' ? 'n' : *p;
    }
    snprintf(out + o, n - o, "\"");
}

static void metrics_family(metrics_out *o, const char *name, const dh_family *f)
{
    for (size_t i = 0; i < DH_FAMILY_MAX; i++) {
        const dh_family_slot *s = &f->slots[i];
        if (!atomic_load_explicit(&s->ready, memory_order_acquire))
            break;
        char labels[2 * DH_FAMILY_VALUE_MAX + 64];
        metrics_label(labels, sizeof labels, f->label, s->value);
        if (f->type == DH_METRIC_HISTOGRAM)
            metrics_histogram(o, name, labels, &s->histogram);
        else
            metrics_printf(o, "%s{%s} %" PRIu64 "\n", name, labels,
                           atomic_load_explicit(&s->counter, memory_order_relaxed));
    }
}

static void metrics_series(metrics_out *o, const dh_metric *m)
{
    if (m->type == DH_METRIC_HISTOGRAM) {
        metrics_histogram(o, m->name, m->labels, m->value);
        return;
    }
    if (m->type == DH_METRIC_FAMILY) {
        metrics_family(o, m->name, m->value);
        return;
    }
    metrics_printf(o, "%s", m->name);
    if (m->labels[0])
        metrics_printf(o, "{%s}", m->labels);
    if (m->type == DH_METRIC_COUNTER)
        metrics_printf(o, " %" PRIu64 "\n",
                       atomic_load_explicit((dh_counter *)m->value, memory_order_relaxed));
    else if (m->type == DH_METRIC_GAUGE)
        metrics_printf(o, " %" PRId64 "\n",
                       atomic_load_explicit((dh_gauge *)m->value, memory_order_relaxed));
    else
        metrics_printf(o, " %.17g\n",
                       atomic_load_explicit((_Atomic double *)m->value, memory_order_relaxed));
}

char *dh_metrics_render(const dh_metrics *reg, size_t *len)
{
    metrics_out o = {.cap = 4096};
    o.buf = malloc(o.cap);
    if (!o.buf)
        return NULL;
    o.buf[0] = '\0';
    if (reg->collect)
        reg->collect(reg->collect_ctx);
    for (size_t i = 0; i < reg->n; i++) {
        const dh_metric *m = &reg->m[i];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(reg->m[j].name, m->name) == 0;
        if (seen)
            continue;
        metrics_printf(&o, "# HELP %s ", m->name);
        metrics_help(&o, m->help);
        static const char *const types[] = {"counter", "gauge", "histogram", "counter", "gauge"};
        metrics_printf(&o, "\n# TYPE %s %s\n", m->name, types[metrics_kind(m->type, m->value)]);
        for (size_t j = i; j < reg->n; j++)
            if (strcmp(reg->m[j].name, m->name) == 0)
                metrics_series(&o, &reg->m[j]);
    }
    if (o.failed) {
        free(o.buf);
        return NULL;
    }
    *len = o.len;
    return o.buf;
}
