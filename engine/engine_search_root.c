/*
 * engine_search_root.c: how the search bot spends its play-outs on the root's candidate
 * answers and which one it answers with (engine_search.c grows the tree below each).
 *
 * Why not UCB1 at the root: the candidates of one decision differ by a few percent of
 * win chance, and UCB1 spreads the play-outs over all of them until the end, so no pair
 * ever had enough common worlds to be told apart (docs/BENCHMARKS.md, issue 17). Here:
 *   - sequential halving: rounds of play-outs, every surviving candidate the same number
 *     of tries in a round, the worse half dropped after each round (ranked by their mean
 *     over the same worlds), so the last two candidates get most of the budget;
 *   - common random numbers: a candidate's n-th try is played in world n (the same deal
 *     of the hidden cards and the same seed for the copy's generator), so two survivors
 *     are compared on the same worlds, world by world (a paired difference), and the
 *     noise of the deal cancels out of the comparison;
 *   - a stopping rule: once one survivor is ahead of every other by more than
 *     SEARCH_STOP_Z standard errors of the paired difference (looked at after each round
 *     and every SEARCH_STOP_MIN tries within one), the rest of the budget is not spent (a
 *     near-forced decision costs a few play-outs, not the budget);
 *   - with a time budget, each round is sized from the time the play-outs so far took,
 *     so the last round happens before the time is up, and no play-out starts that would
 *     likely end past it (search_out_of_time).
 * The play-out bot's own answer always survives: it is what the others are measured
 * against, and the answer unless another beat it in the same worlds by enough
 * (search_final).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "dh_clock.h"
#include "engine_search_impl.h"

#define SEARCH_PAIRED_MIN 6 /* worlds two root answers share before they are compared */
#define SEARCH_PAIRED_P                                                                            \
    0.067                     /* a no-better answer's chance to be chosen, unless the game         \
                                 says (`search_bar`): search_final */
#define SEARCH_STOP_Z     3.0 /* a lead this many standard errors ends the search early */
#define SEARCH_STOP_MIN   12  /* worlds the stopping rule needs, at least */
#define SEARCH_ROUND_MIN  2   /* tries a survivor gets in the first round, at least */
#define SEARCH_LAST_SLACK 2   /* no play-out starts unless twice the mean one still fits */

/* ---- comparisons --------------------------------------------------------------------- */

static const double *search_row(const search *s, uint32_t node)
{
    return s->world_r + (size_t)s->nodes[node].slot * s->nworlds;
}

/* The paired difference of root children a and b over the worlds both were played in:
 * its mean into *mean, its standard error into *se; the number of such worlds. */
static uint32_t search_paired(const search *s, uint32_t a, uint32_t b, double *mean, double *se)
{
    const double *ra = search_row(s, a), *rb = search_row(s, b);
    double sum = 0, sq = 0;
    uint32_t n = 0;
    for (uint32_t w = 0; w < s->nworlds; w++)
        if (!isnan(ra[w]) && !isnan(rb[w])) {
            double d = ra[w] - rb[w];
            sum += d;
            sq += d * d;
            n++;
        }
    *mean = n ? sum / n : 0;
    double var = n > 1 ? (sq - sum * *mean) / (n - 1) : 0;
    *se = n > 1 ? sqrt((var > 0 ? var : 0) / n) : INFINITY;
    return n;
}

/* A root child's mean result over the worlds it was played in (0 if none). */
static double search_mean(const search *s, uint32_t node)
{
    const double *r = search_row(s, node);
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t w = 0; w < s->nworlds; w++)
        if (!isnan(r[w])) {
            sum += r[w];
            n++;
        }
    return n ? sum / n : 0;
}

/* The z whose one-sided normal tail is p (bisection: once per decision). */
static double search_z_for(double p)
{
    double lo = 0, hi = 10;
    for (int i = 0; i < 50; i++) {
        double mid = (lo + hi) / 2;
        if (0.5 * erfc(mid / sqrt(2.0)) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* ---- sequential halving ---------------------------------------------------------------- */

static int search_mean_cmp(const void *a, const void *b, void *ud)
{
    const search *s = ud;
    double x = search_mean(s, *(const uint32_t *)a), y = search_mean(s, *(const uint32_t *)b);
    if (x != y)
        return x > y ? -1 : 1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1; /* a fixed order on ties */
}

/* Keeps the better half of alive[0..*n) (and the bot's answer): ranked by mean result,
 * which compares them fairly since every survivor was tried in the same worlds. */
static void search_halve(search *s, uint32_t *alive, size_t *n)
{
    qsort_r(alive, *n, sizeof *alive, search_mean_cmp, s);
    size_t keep = (*n + 1) / 2, k = keep;
    for (size_t i = keep; i < *n; i++)
        if (alive[i] == s->root_bot)
            alive[k++] = alive[i];
    *n = k;
}

/* 1 when the best survivor leads every other by SEARCH_STOP_Z standard errors of the
 * paired difference: the rest of the budget would not change the answer. */
static int search_decided(const search *s, const uint32_t *alive, size_t n)
{
    uint32_t lead = alive[0];
    for (size_t i = 1; i < n; i++)
        if (search_mean(s, alive[i]) > search_mean(s, lead))
            lead = alive[i];
    for (size_t i = 0; i < n; i++) {
        double mean, se;
        if (alive[i] == lead)
            continue;
        if (search_paired(s, lead, alive[i], &mean, &se) < SEARCH_STOP_MIN ||
            mean <= SEARCH_STOP_Z * se)
            return 0;
    }
    return 1;
}

/* The play-outs the rest of the search may run: what is left of the count, and with a
 * time budget no more than the time left affords at the rate seen so far. */
static uint64_t search_affordable(const search *s, uint64_t t0, uint64_t stop)
{
    uint64_t left = s->iterations > s->stats->iterations ? s->iterations - s->stats->iterations : 0;
    uint64_t now = search_now(s);
    if (!stop || !s->stats->iterations)
        return left;
    if (now >= stop)
        return 0;
    uint64_t per = (now - t0) / s->stats->iterations + 1;
    uint64_t fits = (stop - now) / per;
    return fits < left ? fits : left;
}

/* Tries each of n survivors gets this round: the play-outs affordable, shared evenly by
 * the rounds left and the survivors (the last round takes what is left, its last try
 * cut short by the count). With a time budget the first round is a probe of
 * SEARCH_ROUND_MIN tries (the rate is not known yet); without, at least one try each. */
static uint64_t search_round_tries(const search *s, uint64_t t0, uint64_t stop, size_t round,
                                   size_t rounds, size_t n)
{
    uint64_t afford = search_affordable(s, t0, stop);
    if (stop && round == 0)
        return SEARCH_ROUND_MIN;
    if (round + 1 >= rounds)
        return (afford + n - 1) / n;
    uint64_t each = afford / (rounds - round) / n;
    return each || round || !afford ? each : 1;
}

/* 1 when the next play-out would likely end past stop: less time is left than
 * SEARCH_LAST_SLACK mean play-outs so far (a search ends before its budget, not one
 * play-out after it: a worker's loop waits for it). */
static int search_out_of_time(const search *s, uint64_t t0, uint64_t stop)
{
    if (!stop)
        return 0;
    uint64_t now = search_now(s);
    uint64_t mean = s->stats->iterations ? (now - t0) / s->stats->iterations : 0;
    return now + SEARCH_LAST_SLACK * mean >= stop;
}

int search_spend(search *s, uint64_t t0, uint64_t stop, engine_error *err)
{
    uint32_t alive[SEARCH_CANDIDATES];
    size_t n = 0;
    for (uint32_t k = s->nodes[0].child; k && n < SEARCH_CANDIDATES; k = s->nodes[k].sibling)
        alive[n++] = k;
    size_t rounds = 1;
    while (((size_t)1 << rounds) < n)
        rounds++;
    uint32_t tries = 0; /* each survivor's, so far: worlds 0..tries-1 */
    for (size_t round = 0; n > 1; round++) {
        uint64_t each = search_round_tries(s, t0, stop, round, rounds, n);
        if (!each || tries + each > s->nworlds)
            break;
        for (uint32_t t = 0; t < each; t++) {
            for (size_t i = 0; i < n; i++) {
                if (s->stats->iterations >= s->iterations || search_out_of_time(s, t0, stop))
                    return 0;
                if (search_iterate(s, alive[i], err) < 0)
                    return -1;
                s->stats->iterations++;
            }
            tries++;
            if ((t + 1 == each || tries % SEARCH_STOP_MIN == 0) && search_decided(s, alive, n)) {
                s->stats->stopped = 1;
                return 0;
            }
        }
        if (round + 1 < rounds)
            search_halve(s, alive, &n);
    }
    return 0;
}

/* ---- the answer ------------------------------------------------------------------------ */

/* The play-out bot's own, unless another beat it in the same worlds by more than z
 * standard errors of the paired difference, z such that with m other answers no better
 * than the bot's one is chosen with chance SEARCH_PAIRED_P at most (1.5 for one other
 * answer, 2.4 for eight, 2.6 for sixteen: with z = 1.5 for all, a search widened to every
 * Dominion buy lost to Big Money more often than its own bot, 64.5% against 81.5% on the
 * same seeds). A game may ask for a stricter bar (`search_bar`, a smaller chance): one
 * whose policy is close to the best play, where the search's departures cost more games
 * than they win (Elemental against a passive opponent, docs/BENCHMARKS.md, issue 28).
 * Without the bot's answer, the best mean. */
uint32_t search_final(const search *s)
{
    uint32_t best = s->root_bot;
    if (!best) {
        for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling)
            if (!best || search_mean(s, k) > search_mean(s, best))
                best = k;
        return best;
    }
    uint32_t others = 0;
    for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling)
        others += k != s->root_bot;
    double p = s->m->game->search_bar > 0 ? s->m->game->search_bar : SEARCH_PAIRED_P;
    double z = search_z_for(p / (others ? others : 1));
    double best_gain = 0;
    for (uint32_t k = s->nodes[0].child; k; k = s->nodes[k].sibling) {
        double mean, se;
        if (k == s->root_bot || search_paired(s, k, s->root_bot, &mean, &se) < SEARCH_PAIRED_MIN)
            continue;
        if (mean > best_gain && mean > z * se) {
            best_gain = mean;
            best = k;
        }
    }
    return best;
}
