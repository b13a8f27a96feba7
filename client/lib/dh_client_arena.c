/*
 * dh_client_arena.c: see dh_client_arena.h.
 */
#include "dh_client_arena.h"

void dh_arena_release(const dh_arena *a, Deckhand__ServerMessage *m)
{
    if (m && !(a && dh_arena_owns(a, m)))
        deckhand__server_message__free_unpacked(m, NULL);
}
