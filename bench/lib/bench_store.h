/*
 * bench_store.h: matches started through the worker's own store (store.h), for the benches
 * that measure what a worker's commits cost Redis (bench_redis_commit, bench_redis_wait).
 */
#ifndef DECKHAND_BENCH_STORE_H
#define DECKHAND_BENCH_STORE_H

#include "store.h"

/* Starts n two-player Dominion matches owned by worker "wk-bench" at epoch 1 on s, their
 * ids "PREFIX-0", "PREFIX-1"... into ids, in one flush. 0, or -1 when one failed. */
int bench_store_start(store *s, char ids[][32], int n, const char *prefix);

#endif
