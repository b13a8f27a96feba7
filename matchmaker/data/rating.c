/*
 * rating.c: a player's rating for matching, or the default (see rating.h).
 */
#include "rating.h"

#include <math.h>

void rating_fill(const rating_source *src, const queue_key *k, queue_ticket *t)
{
    double mu = QUEUE_MU_DEFAULT, sigma = QUEUE_SIGMA_DEFAULT;
    if (src && src->lookup && src->lookup(src->ctx, t->player_id, k->game, k->mode, &mu, &sigma) &&
        isfinite(mu) && isfinite(sigma) && sigma >= 0) {
        t->mu = mu;
        t->sigma = sigma;
        return;
    }
    t->mu = QUEUE_MU_DEFAULT;
    t->sigma = QUEUE_SIGMA_DEFAULT;
}
