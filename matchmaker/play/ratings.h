/*
 * ratings.h: what the matchmaker may learn of a player's skill: the OpenSkill rating the
 * workers keep per (account, game, mode) in rating:{GAME}:{MODE} (dh_keys.h; written only
 * by worker/rater.c). Read-only: one pipeline of HMGETs for a whole batch of players.
 *
 * Guests (ids that are not accounts, dh_token_is_account_id) and accounts never rated get
 * a new player's rating (mu 25, sigma 25/3) without a lookup. To sort or window by skill,
 * use dh_rating_ordinal (mu - 3 sigma); to judge a match's balance, mu and sigma both.
 */
#ifndef DECKHAND_MM_RATINGS_H
#define DECKHAND_MM_RATINGS_H

#include <stddef.h>
#include <stdint.h>

struct mm_state;

/* Set the stored ratings of the waiting players player_ids[0..n) on their tickets
 * (queue_rate): the account players' ratings in their ticket's (game, mode), read on the
 * matchmaker's Redis connection in one pipeline (one round trip, an HMGET each), so a
 * batch of joins, or the tickets reloaded at a lease's start, costs one round trip.
 * Guests, accounts never rated, players not waiting and a Redis that does not answer
 * keep the default rating: matching goes on without skill. */
void ratings_refresh(struct mm_state *mm, uint64_t now_ms, const char *const *player_ids, size_t n);

#endif
