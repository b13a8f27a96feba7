/*
 * rating.h: where the matchmaker gets a player's rating from, for matching.
 *
 * The rating store (ratings per account, game and mode, updated after each match) is
 * its own piece; the matchmaker only asks it through this small interface, set in the
 * process state (mm.h) once at start. Without a source, and for any player the source
 * does not know (guests, new accounts), the rating is the OpenSkill default: mu 25,
 * sigma 25/3. The lookup is called on every join, so it must answer from memory (a
 * cache the store keeps warm), never block on the network.
 */
#ifndef DECKHAND_MM_RATING_H
#define DECKHAND_MM_RATING_H

#include <stdbool.h>

#include "queue.h"

/* True with *mu and *sigma set when the player has a stored rating for (game, mode). */
typedef bool (*rating_lookup_fn)(void *ctx, const char *player_id, const char *game,
                                 const char *mode, double *mu, double *sigma);

typedef struct {
    rating_lookup_fn lookup; /* NULL: everyone has the default */
    void *ctx;
} rating_source;

/* Set t's mu and sigma: the source's answer for t's player in k's game and mode, else the
 * default. */
void rating_fill(const rating_source *src, const queue_key *k, queue_ticket *t);

#endif
