/*
 * worker_metrics.h: what the worker's operator port shows (dh_ops.h; docs/OPERATIONS.md lists
 * every metric): the host's and the bundles' counters registered once at start-up, and
 * once per loop iteration the active-matches gauge, readiness and the heartbeat.
 */
#ifndef DECKHAND_WORKER_WORKER_METRICS_H
#define DECKHAND_WORKER_WORKER_METRICS_H

#include <stdbool.h>

#include "bundles.h"
#include "dh_ops.h"
#include "host.h"

/* Register every metric; h, bs and active are borrowed and must outlive ops. <0 on failure. */
int worker_metrics_register(host *h, bundles *bs, dh_ops *ops, dh_gauge *active);
/* The gauge and the probes, once per iteration; beaten: the matchmaker has had a beat. */
void worker_metrics_publish(host *h, dh_ops *ops, dh_gauge *active, bool beaten);

#endif
