/*
 * rig_store.h: the worker's store (worker/store/store.h) on the test program's Redis
 * (rig_redis.h), for the store's own tests.
 */
#ifndef DECKHAND_RIG_STORE_H
#define DECKHAND_RIG_STORE_H

#include "store.h"

/* Empty the rig's Redis and open s on it (fatal when it cannot). */
void rig_store_open(store *s);
/* Write the meta of a running match id (dominion on wk-1, players ann and bob) in a flush
 * of its own; it must land. */
void rig_store_new_match(store *s, const char *id);
/* Write meta m in a flush of its own; it must land. */
void rig_store_put_meta(store *s, const store_meta *m);

#endif
