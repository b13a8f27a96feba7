/*
 * dh_metrics.c: the registry and the Prometheus text rendering (dh_metrics.h).
 *
 * A registry is small (tens of series) and rendered a few times a minute, so series of
 * one name are grouped by a quadratic scan at render time instead of being kept sorted.
 */
#include "dh_metrics.h"

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

static int metrics_add(dh_metrics *reg, const char *name, const char *labels, const char *help,
                       dh_metric_type type, void *value)
{
    if (reg->n == DH_METRICS_MAX || !metrics_name_ok(name) || !value)
        return -1;
    for (size_t i = 0; i < reg->n; i++)
        if (strcmp(reg->m[i].name, name) == 0 && reg->m[i].type != type)
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

static void metrics_series(metrics_out *o, const dh_metric *m)
{
    metrics_printf(o, "%s", m->name);
    if (m->labels[0])
        metrics_printf(o, "{%s}", m->labels);
    if (m->type == DH_METRIC_COUNTER)
        metrics_printf(o, " %" PRIu64 "\n",
                       atomic_load_explicit((dh_counter *)m->value, memory_order_relaxed));
    else
        metrics_printf(o, " %" PRId64 "\n",
                       atomic_load_explicit((dh_gauge *)m->value, memory_order_relaxed));
}

char *dh_metrics_render(const dh_metrics *reg, size_t *len)
{
    metrics_out o = {.cap = 4096};
    o.buf = malloc(o.cap);
    if (!o.buf)
        return NULL;
    o.buf[0] = '\0';
    for (size_t i = 0; i < reg->n; i++) {
        const dh_metric *m = &reg->m[i];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(reg->m[j].name, m->name) == 0;
        if (seen)
            continue;
        metrics_printf(&o, "# HELP %s ", m->name);
        metrics_help(&o, m->help);
        metrics_printf(&o, "\n# TYPE %s %s\n", m->name,
                       m->type == DH_METRIC_COUNTER ? "counter" : "gauge");
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
