/*
 * bench_store.c: matches started through the worker's own store, for the Redis benches
 * (bench_store.h).
 */
#include "bench_store.h"

#include <stdio.h>

#include "dh_clock.h"

int bench_store_start(store *s, char ids[][32], int n, const char *prefix)
{
    for (int m = 0; m < n; m++) {
        snprintf(ids[m], 32, "%s-%d", prefix, m);
        store_meta meta = {.match_id = ids[m],
                           .game = "dominion",
                           .bundle = "b",
                           .worker = "wk-bench",
                           .players = "a,b",
                           .player_ids = "p1,p2"};
        if (store_op(s, dh_now_ms()) < 0 || store_put_meta(s, &meta) < 0)
            return -1;
    }
    store_flush(s, dh_now_ms());
    store_next(s);
    return 0;
}
