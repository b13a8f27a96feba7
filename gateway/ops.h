/*
 * ops.h: what the gateway shows on the operator port (/metrics, /readyz).
 */
#ifndef DECKHAND_GW_OPS_H
#define DECKHAND_GW_OPS_H

#include "gw.h"

/* Register the gateway's metrics (gw_stats) with g->ops. 0 or -1. */
int ops_metrics(gw *g);
/* The gauges and the probes, every tick. */
void ops_publish(gw *g);

#endif
