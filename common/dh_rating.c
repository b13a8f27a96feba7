/*
 * dh_rating.c: see dh_rating.h. Plackett-Luce with every player its own team: the
 * chance that player i beats everyone ranked no better than q is exp(mu_i/c) over the
 * sum of exp(mu_s/c) for those s; the update moves mu_i by its sigma^2/c times (won -
 * expected) summed over the places at or above i's, and shrinks sigma_i^2 by the
 * variance of those same terms (damped by gamma = sigma_i/c). Ties divide each place's
 * term by the number of players sharing it.
 */
#include "dh_rating.h"

#include <math.h>
#include <stdio.h>

dh_rating dh_rating_new(void)
{
    return (dh_rating){.mu = DH_RATING_MU, .sigma = DH_RATING_SIGMA};
}

dh_rating_params dh_rating_defaults(void)
{
    return (dh_rating_params){
        .beta = DH_RATING_BETA, .kappa = DH_RATING_KAPPA, .tau = DH_RATING_TAU};
}

double dh_rating_ordinal(dh_rating r)
{
    return r.mu - 3.0 * r.sigma;
}

static int rating_check(const dh_rating *r, size_t n)
{
    if (n < 2 || n > DH_RATING_SEATS)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(r[i].mu) || !isfinite(r[i].sigma) || r[i].sigma <= 0.0)
            return -1;
    return 0;
}

int dh_rating_update(const dh_rating_params *p, const dh_rating *r, const int *ranks, size_t n,
                     dh_rating *out)
{
    double sigma[DH_RATING_SEATS], e[DH_RATING_SEATS], sum_q[DH_RATING_SEATS], c2 = 0.0;
    int tied[DH_RATING_SEATS];
    if (rating_check(r, n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        sigma[i] = sqrt(r[i].sigma * r[i].sigma + p->tau * p->tau);
        c2 += sigma[i] * sigma[i] + p->beta * p->beta;
    }
    double c = sqrt(c2);
    for (size_t i = 0; i < n; i++)
        e[i] = exp(r[i].mu / c);
    for (size_t q = 0; q < n; q++) { /* over everyone placed no better than q */
        sum_q[q] = 0.0;
        tied[q] = 0;
        for (size_t s = 0; s < n; s++) {
            if (ranks[s] >= ranks[q])
                sum_q[q] += e[s];
            tied[q] += ranks[s] == ranks[q];
        }
    }
    dh_rating next[DH_RATING_SEATS];
    for (size_t i = 0; i < n; i++) {
        double omega = 0.0, delta = 0.0, s2 = sigma[i] * sigma[i];
        for (size_t q = 0; q < n; q++) {
            if (ranks[q] > ranks[i])
                continue;
            double pr = e[i] / sum_q[q];
            delta += pr * (1.0 - pr) / tied[q];
            omega += ((q == i ? 1.0 : 0.0) - pr) / tied[q];
        }
        double gamma = sigma[i] / c;
        omega *= s2 / c;
        delta *= gamma * s2 / c2;
        double shrink = 1.0 - delta > p->kappa ? 1.0 - delta : p->kappa;
        next[i] = (dh_rating){.mu = r[i].mu + omega, .sigma = sigma[i] * sqrt(shrink)};
    }
    for (size_t i = 0; i < n; i++)
        out[i] = next[i];
    return 0;
}

void dh_rating_format(dh_rating r, unsigned matches, char *out, size_t cap)
{
    snprintf(out, cap, "%.17g %.17g %u", r.mu, r.sigma, matches);
}

int dh_rating_parse(const char *s, dh_rating *out, unsigned *matches)
{
    dh_rating r;
    unsigned n;
    if (s && sscanf(s, "%lf %lf %u", &r.mu, &r.sigma, &n) == 3 && isfinite(r.mu) &&
        isfinite(r.sigma) && r.sigma > 0.0) {
        *out = r;
        *matches = n;
        return 0;
    }
    *out = dh_rating_new();
    *matches = 0;
    return 1;
}
