/*
 * bots_queue.c: how a bot of `deckhand bots` asks for its next match (bots.h, bots_queue):
 * above the ways of doing it, so that none of them calls back up into another.
 */
#include "bots.h"

void bots_queue(bots_run *r, bot *b)
{
    if (bots_party_join(r, b) || bots_lobby_join(r, b))
        return;
    bots_join(r, b);
}
