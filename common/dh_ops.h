/*
 * dh_ops.h: a process's operator port: /healthz, /readyz and /metrics (DESIGN.md §8),
 * served by dh_http on its own thread from what the main loop publishes through atomics.
 *
 *   /healthz  200 "ok" while the main loop turns: the loop calls dh_ops_beat every
 *             iteration; a beat older than DH_OPS_STALL_MS gives 503 (a liveness probe
 *             restarts a process whose loop hangs).
 *   /readyz   200 "ready" when the process can do its job, else 503 and a one-line
 *             reason: what the loop last passed to dh_ops_ready ("starting" until it
 *             does), or the stalled loop.
 *   /metrics  the registry (dh_metrics.h) in the Prometheus text format, the process
 *             metrics (dh_proc.h: CPU, memory, descriptors) first.
 *   /admin/... the admin API, where the process serves it (dh_ops_admin.h: the
 *             matchmaker); 404 elsewhere.
 *   anything else: 404; a POST to the probes: 405.
 *
 * The main thread touches only atomics (relaxed: a probe needs no ordering with the
 * loop's other memory); the registry is complete before dh_ops_start and read-only
 * after it.
 */
#ifndef DECKHAND_DH_OPS_H
#define DECKHAND_DH_OPS_H

#include <stdatomic.h>
#include <stdint.h>

#include "dh_http.h"
#include "dh_metrics.h"
#include "dh_proc.h"
#include "dh_ops_admin.h"

#define DH_OPS_STALL_MS 5000

typedef struct {
    dh_metrics metrics;
    _Atomic uint64_t beat_ms;        /* CLOCK_MONOTONIC ms of the loop's last turn */
    _Atomic(const char *) not_ready; /* NULL: ready; else why not (a string literal) */
    dh_http *http;                   /* NULL while off */
    dh_proc proc;                    /* process metrics, sampled at each scrape */
    dh_ops_admin *admin;             /* NULL: this process serves no admin API */
} dh_ops;

/* A registry holding the process metrics, not ready ("starting"), no beat yet. */
void dh_ops_init(dh_ops *o);
/* Serve on addr ("HOST:PORT"). addr NULL or "" leaves the port off. 0, or -1 (logged). */
int dh_ops_start(dh_ops *o, const char *addr);
/* Stop serving and join the thread; safe when never started. Frees the admin API. */
void dh_ops_stop(dh_ops *o);
/* Serve the admin API with auth's tokens (before dh_ops_start). 0, or -1 (logged). */
int dh_ops_admin_on(dh_ops *o, const dh_admin_auth *auth);

/* The main loop turned (call once per iteration). */
void dh_ops_beat(dh_ops *o);
/* NULL: ready; else a string literal saying why not. */
static inline void dh_ops_ready(dh_ops *o, const char *why_not)
{
    atomic_store_explicit(&o->not_ready, why_not, memory_order_relaxed);
}

/* Counters per client-protocol error code (deckhand.proto ErrorCode), indexed by code:
 * every code up to ALREADY_PLACED (16). */
#define DH_OPS_CODES 17
/* Where a code this build does not know is counted: INTERNAL. */
#define DH_OPS_CODE_OTHER 12
/* Register counters[1..DH_OPS_CODES-1] as name{code="NAME"} (OK, 0, is not an error and
 * is left out). 0, or -1 when the registry is full. */
int dh_ops_codes(dh_ops *o, const char *name, const char *help, dh_counter *counters);
/* counters[code], or INTERNAL's for a code out of range: a helper for the loops. */
static inline void dh_ops_count_code(dh_counter *counters, int code)
{
    dh_counter_inc(&counters[code > 0 && code < DH_OPS_CODES ? code : DH_OPS_CODE_OTHER]);
}

/* The probes and /metrics for a GET of path (exposed for the unit tests). */
void dh_ops_handle(void *o, const char *path, dh_http_reply *r);
/* Every request, as dh_http calls it: the admin API, or the probes. */
void dh_ops_serve(void *o, const dh_http_request *req, dh_http_reply *r);

#endif
