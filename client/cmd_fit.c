/*
 * cmd_fit.c: `deckhand fit FILE`, the weights of an evaluation hint fitted to self-play.
 *
 * FILE is a position log of `deckhand sim --positions` (sim_positions.c): at each turn
 * boundary, every player's features and its share of the game's win. The model is the one
 * the games' hints compute (docs/SCRIPTING.md, "Evaluation hints"): player p's chance of
 * winning is softmax_p(w . f_p), with two players the logistic of w . (f_1 - f_2); fitted
 * by maximum likelihood with a small ridge (Newton's method; the features are few), on the
 * games whose index is not 4 mod 5. The rest are held out: the log-loss there, next to
 * the one of a coin toss, says whether the fit predicts outcomes or only memorises games.
 * It prints the weights as a Lua array, ready for a game's evaluation hint.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dh_grow.h"

#define FIT_MAX_FEATURES 32
#define FIT_MAX_PLAYERS  8
#define FIT_RIDGE        1.0 /* added to the Hessian's diagonal: keeps unused features at 0 */
#define FIT_STEPS        50

typedef struct {
    double *f;   /* np * nf features */
    double *y;   /* np outcomes */
    size_t np;   /* players: rows pos[i] .. */
    int heldout; /* its game's index is 4 mod 5 */
} fit_pos;

typedef struct {
    fit_pos *pos;
    size_t npos, pos_cap;
    size_t nf;
} fit_data;

static const char fit_usage[] = "usage: deckhand fit FILE\n"
                                "  FILE: a position log of `deckhand sim --positions FILE`.\n"
                                "  Prints the fitted weights of the softmax of w . features by "
                                "player, and the\n"
                                "  log-loss on the held-out games (index 4 mod 5).\n";

/* Parses one line "GAME TURN SEAT OUTCOME F..." into its parts; the feature count, or -1. */
static int fit_line(char *line, long *game, long *turn, double *y, double *f)
{
    char *p = line, *end;
    *game = strtol(p, &end, 10);
    if (end == p)
        return -1;
    *turn = strtol(p = end, &end, 10);
    if (end == p)
        return -1;
    (void)strtol(p = end, &end, 10);
    if (end == p)
        return -1;
    *y = strtod(p = end, &end);
    if (end == p)
        return -1;
    int n = 0;
    for (p = end;; p = end) {
        double x = strtod(p, &end);
        if (end == p)
            break;
        if (n == FIT_MAX_FEATURES)
            return -1;
        f[n++] = x;
    }
    return n;
}

/* Appends a player's row to the last position, or starts a new one. */
static int fit_add(fit_data *d, int fresh, long game, const double *f, double y)
{
    if (fresh) {
        if (dh_grow(&d->pos, &d->pos_cap, d->npos + 1, sizeof *d->pos, 1024) < 0)
            return -1;
        d->pos[d->npos++] = (fit_pos){.heldout = game % 5 == 4};
    }
    fit_pos *q = &d->pos[d->npos - 1];
    if (q->np == FIT_MAX_PLAYERS)
        return -1;
    if (!q->f && (!(q->f = malloc(FIT_MAX_PLAYERS * d->nf * sizeof *q->f)) ||
                  !(q->y = malloc(FIT_MAX_PLAYERS * sizeof *q->y))))
        return -1;
    memcpy(q->f + q->np * d->nf, f, d->nf * sizeof *f);
    q->y[q->np++] = y;
    return 0;
}

static int fit_read(FILE *in, fit_data *d)
{
    char line[4096];
    long last_game = -1, last_turn = -1, lineno = 0;
    double f[FIT_MAX_FEATURES];
    while (fgets(line, sizeof line, in)) {
        lineno++;
        long game, turn;
        double y;
        int n = fit_line(line, &game, &turn, &y, f);
        if (n < 1 || (d->nf && (size_t)n != d->nf)) {
            fprintf(stderr,
                    "deckhand fit: line %ld: want GAME TURN SEAT OUTCOME and the same "
                    "number of features on every line\n",
                    lineno);
            return -1;
        }
        d->nf = (size_t)n;
        int fresh = game != last_game || turn != last_turn;
        if (fit_add(d, fresh, game, f, y) < 0) {
            fprintf(stderr, "deckhand fit: out of memory or too many players\n");
            return -1;
        }
        last_game = game;
        last_turn = turn;
    }
    return 0;
}

/* The softmax of w . f_p over q's players into pi; the log-likelihood of its outcomes. */
static double fit_probs(const fit_pos *q, size_t nf, const double *w, double *pi)
{
    double best = -INFINITY, sum = 0, ll = 0;
    for (size_t p = 0; p < q->np; p++) {
        double z = 0;
        for (size_t i = 0; i < nf; i++)
            z += w[i] * q->f[p * nf + i];
        pi[p] = z;
        best = z > best ? z : best;
    }
    for (size_t p = 0; p < q->np; p++)
        sum += (pi[p] = exp(pi[p] - best));
    for (size_t p = 0; p < q->np; p++) {
        pi[p] /= sum;
        ll += q->y[p] * log(pi[p] > 1e-300 ? pi[p] : 1e-300);
    }
    return ll;
}

/* Solves a x = b (a symmetric positive definite, n x n) by Cholesky, in place; -1 if not. */
static int fit_solve(double *a, double *b, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        for (size_t k = 0; k < j; k++)
            a[j * n + j] -= a[j * n + k] * a[j * n + k];
        if (a[j * n + j] <= 0)
            return -1;
        a[j * n + j] = sqrt(a[j * n + j]);
        for (size_t i = j + 1; i < n; i++) {
            for (size_t k = 0; k < j; k++)
                a[i * n + j] -= a[i * n + k] * a[j * n + k];
            a[i * n + j] /= a[j * n + j];
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < i; k++)
            b[i] -= a[i * n + k] * b[k];
        b[i] /= a[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {
        for (size_t k = i + 1; k < n; k++)
            b[i] -= a[k * n + i] * b[k];
        b[i] /= a[i * n + i];
    }
    return 0;
}

/* One Newton step on the training positions; 0, or -1 when the system is singular. */
static int fit_step(const fit_data *d, double *w)
{
    size_t nf = d->nf;
    double g[FIT_MAX_FEATURES] = {0}, h[FIT_MAX_FEATURES * FIT_MAX_FEATURES] = {0};
    double pi[FIT_MAX_PLAYERS], mean[FIT_MAX_FEATURES];
    for (size_t i = 0; i < nf; i++) {
        g[i] = -FIT_RIDGE * w[i];
        h[i * nf + i] = FIT_RIDGE;
    }
    for (size_t k = 0; k < d->npos; k++) {
        const fit_pos *q = &d->pos[k];
        if (q->heldout)
            continue;
        fit_probs(q, nf, w, pi);
        for (size_t i = 0; i < nf; i++) {
            mean[i] = 0;
            for (size_t p = 0; p < q->np; p++)
                mean[i] += pi[p] * q->f[p * nf + i];
        }
        for (size_t p = 0; p < q->np; p++) {
            const double *f = q->f + p * nf;
            for (size_t i = 0; i < nf; i++) {
                g[i] += (q->y[p] - pi[p]) * f[i];
                for (size_t j = 0; j < nf; j++)
                    h[i * nf + j] += pi[p] * (f[i] - mean[i]) * (f[j] - mean[j]);
            }
        }
    }
    if (fit_solve(h, g, nf) < 0)
        return -1;
    for (size_t i = 0; i < nf; i++)
        w[i] += g[i];
    return 0;
}

/* The mean log-loss of the training or the held-out positions, and of a coin toss. */
static void fit_loss(const fit_data *d, const double *w, int heldout, double *loss, double *coin,
                     size_t *n)
{
    double pi[FIT_MAX_PLAYERS], sum = 0, base = 0;
    *n = 0;
    for (size_t k = 0; k < d->npos; k++) {
        const fit_pos *q = &d->pos[k];
        if (q->heldout != heldout)
            continue;
        sum -= fit_probs(q, d->nf, w, pi);
        base += log((double)q->np);
        (*n)++;
    }
    *loss = *n ? sum / (double)*n : 0;
    *coin = *n ? base / (double)*n : 0;
}

static void fit_free(fit_data *d)
{
    for (size_t k = 0; k < d->npos; k++) {
        free(d->pos[k].f);
        free(d->pos[k].y);
    }
    free(d->pos);
}

int cmd_fit(int argc, char **argv)
{
    if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(fit_usage, argc == 2 ? stdout : stderr);
        return argc == 2 ? 0 : 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        fprintf(stderr, "deckhand fit: cannot read %s\n", argv[1]);
        return 1;
    }
    fit_data d = {0};
    int rc = fit_read(in, &d);
    fclose(in);
    double w[FIT_MAX_FEATURES] = {0};
    for (int s = 0; rc == 0 && s < FIT_STEPS; s++)
        if (fit_step(&d, w) < 0) {
            fprintf(stderr, "deckhand fit: the fit did not converge\n");
            rc = -1;
        }
    if (rc == 0 && d.npos) {
        double train, held, coin_t, coin_h;
        size_t nt, nh;
        fit_loss(&d, w, 0, &train, &coin_t, &nt);
        fit_loss(&d, w, 1, &held, &coin_h, &nh);
        printf("positions %zu (fitted on %zu, held out %zu), features %zu\n", d.npos, nt, nh, d.nf);
        printf("log-loss fitted %.4f held out %.4f (a coin toss %.4f)\n", train, held, coin_h);
        printf("weights = {");
        for (size_t i = 0; i < d.nf; i++)
            printf("%s %.4g", i ? "," : "", w[i]);
        printf(" }\n");
    } else if (rc == 0) {
        fprintf(stderr, "deckhand fit: %s holds no positions\n", argv[1]);
        rc = -1;
    }
    fit_free(&d);
    return rc == 0 ? 0 : 1;
}
