/*
 * dh_rating.h: skill ratings by OpenSkill's Weng-Lin Bayesian approximation with the
 * Plackett-Luce model (Weng & Lin 2011, algorithm 4), which rates a free-for-all of any
 * size from one ranking: 2-4 player matches, ties included.
 *
 * A rating is a belief about a player's skill: a normal distribution of mean mu and
 * standard deviation sigma. Every player starts at mu 25, sigma 25/3; a match moves mu
 * toward what the ranking says and shrinks sigma (more is known). The ordinal mu - 3 sigma
 * (0 for a new player) orders leaderboards: a player climbs by being good and known.
 *
 * The math is here, pure (no Redis): the worker reads the seats' ratings, calls
 * dh_rating_update, and writes the result back in one step (worker/rater.c).
 */
#ifndef DECKHAND_DH_RATING_H
#define DECKHAND_DH_RATING_H

#include <stddef.h>

#define DH_RATING_MU    25.0
#define DH_RATING_SIGMA (25.0 / 3.0)
#define DH_RATING_BETA  (25.0 / 6.0)  /* skill gap that gives ~76% odds of winning */
#define DH_RATING_KAPPA 0.0001        /* sigma never shrinks below sqrt(kappa) of itself */
#define DH_RATING_TAU   (25.0 / 300.) /* sigma added before each match: skill drifts */
#define DH_RATING_SEATS 16            /* most players one update rates */

typedef struct {
    double mu, sigma;
} dh_rating;

/* The constants of the model; dh_rating_defaults gives the ones above. Tests set tau 0 to
 * compare with hand-computed values of the bare update. */
typedef struct {
    double beta, kappa, tau;
} dh_rating_params;

dh_rating dh_rating_new(void);
dh_rating_params dh_rating_defaults(void);

/* Rate one finished free-for-all of n players (2..DH_RATING_SEATS): ranks[i] is player
 * i's place (1 is first; equal ranks tie). Writes the new ratings into out (which may be
 * r). 0, or -1 when n is out of range or a rating is not finite with sigma > 0. */
int dh_rating_update(const dh_rating_params *p, const dh_rating *r, const int *ranks, size_t n,
                     dh_rating *out);

/* mu - 3 sigma: what leaderboards sort by. */
double dh_rating_ordinal(dh_rating r);

/* A rating as Redis stores it (rating:{GAME}:{MODE}, dh_keys.h): "MU SIGMA MATCHES". */
#define DH_RATING_TEXT_MAX 80
void dh_rating_format(dh_rating r, unsigned matches, char *out, size_t cap);
/* Parse one; NULL (absent) or unreadable text is a new player's (mu 25, sigma 25/3, 0
 * matches). 0 when parsed, 1 when it fell back to a new player. */
int dh_rating_parse(const char *s, dh_rating *out, unsigned *matches);

#endif
