/*
 * dh_client_arena.h: the load generator's connections decode into one arena of the run
 * (dh_arena.h, dh_client_set_arena); a message is given back with dh_arena_release.
 */
#ifndef DECKHAND_DH_CLIENT_ARENA_H
#define DECKHAND_DH_CLIENT_ARENA_H

#include "deckhand.pb-c.h"
#include "dh_arena.h"

/* Give back a message unpacked with a's allocator (nothing to do until the reset) or,
 * when a is NULL or does not hold it, with malloc (free_unpacked). */
void dh_arena_release(const dh_arena *a, Deckhand__ServerMessage *m);

#endif
