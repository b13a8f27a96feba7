/*
 * scripts_compare.c: a balance check before a push (issue 30; see scripts.h):
 *
 *   deckhand scripts compare OLD_DIR NEW_DIR --game G [--games N] [--seed S]
 *                                            [--players P] [--bots A,B] [--options K=V]
 *                                            [--cards NAME,NAME]
 *   deckhand scripts push DIR --game G --simulate N ...   (OLD: the game's current bundle)
 *
 * plays N all-bot games of the game on each bundle, on the same seeds (derived from S as
 * `deckhand sim` derives them) with the same bots rotating through the seats, and prints
 * what moved from the old bundle to the new one: each seat's and each bot's win rate, the
 * game's length, and for every card whose cost, types or text changed (and --cards) how
 * often it is bought and played per game and the win rate of the seats that hold it (that
 * bought or gained one). Each change is the difference of the two means with its 95%
 * interval (normal approximation, mean ± 1.96 standard errors of the difference, the two
 * runs taken as independent samples: conservative, as the shared seeds would only narrow
 * it); an interval that excludes 0 is marked `*`. A push puts the one-line summary of
 * the changes in its audit entry (`simulate`).
 *
 * What is bought, played and gained is read from the matches' public log ("NAME buys
 * CARD", "NAME plays CARD, CARD", "NAME gains CARD"), the lines every player sees: a game
 * whose log says it otherwise reports zeros for its cards, never wrong figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scripts.h"

#define CMP_SEATS 8
#define CMP_CARDS 128
#define CMP_Z     1.96 /* 95%, two-sided */

/* A running mean and variance (sums), of one figure over games (or seats). */
typedef struct {
    double n, sum, sum2;
} cmp_stat;

static void stat_add(cmp_stat *s, double x)
{
    s->n++;
    s->sum += x;
    s->sum2 += x * x;
}

static double stat_mean(const cmp_stat *s)
{
    return s->n ? s->sum / s->n : 0.0;
}

/* The variance of the mean (sample variance over n). */
static double stat_var_mean(const cmp_stat *s)
{
    if (s->n < 2)
        return 0.0;
    double m = stat_mean(s), var = (s->sum2 - s->n * m * m) / (s->n - 1);
    return var > 0 ? var / s->n : 0.0;
}

typedef struct {
    cmp_stat seat[CMP_SEATS]; /* per game: the seat's share of the win (0, 1, or split) */
    cmp_stat bot[CMP_SEATS];  /* per game: the strategy's share of the win */
    cmp_stat length;          /* per game: the longest seat's turns */
    cmp_stat bought[CMP_CARDS], played[CMP_CARDS]; /* per game, all seats */
    cmp_stat held[CMP_CARDS]; /* per seat holding it at the end: its share of the win */
} cmp_run;

typedef struct {
    const scripts_sim *sim;
    const char *bots[CMP_SEATS]; /* per seat of game 0 */
    const char *strategy[CMP_SEATS];
    int nstrategies;
    const char *cards[CMP_CARDS]; /* every card either bundle's catalog names */
    char changed[CMP_CARDS][96];  /* "" or what changed ("cost 4 -> 3"); reported when set */
    bool report[CMP_CARDS];
    int ncards;
    char *owned[2]; /* the catalogs' strings (cmp_catalog) */
} cmp_job;

/* The seats' names: what the log lines of a seat begin with (cmp_on_event). */
static const char *const cmp_names[CMP_SEATS] = {"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"};

/* The card index of the name at the start of s (the longest one that fits), or -1. */
static int cmp_card_at(const cmp_job *j, const char *s)
{
    int best = -1;
    size_t bestlen = 0;
    for (int i = 0; i < j->ncards; i++) {
        size_t n = strlen(j->cards[i]);
        if (n > bestlen && !strncmp(s, j->cards[i], n) &&
            (s[n] == '\0' || s[n] == ',' || s[n] == ' '))
            best = i, bestlen = n;
    }
    return best;
}

/* One game's per-seat counts, from its log. */
typedef struct {
    const cmp_job *j;
    int np;
    int bought[CMP_SEATS][CMP_CARDS], played[CMP_SEATS][CMP_CARDS];
    bool gained[CMP_SEATS][CMP_CARDS];
} cmp_game;

static void cmp_on_event(void *ud, const engine_event *ev)
{
    cmp_game *g = ud;
    if (ev->to_seat != 0 || !ev->everyone || !ev->text || ev->text[0] != 'p')
        return; /* each public line once; ours begin with the seat's name, "pN" */
    int seat = atoi(ev->text + 1) - 1;
    const char *rest = strchr(ev->text, ' ');
    if (seat < 0 || seat >= g->np || !rest)
        return;
    static const char *const verbs[] = {" buys ", " plays ", " gains "};
    for (int v = 0; v < 3; v++) {
        size_t vl = strlen(verbs[v]);
        if (strncmp(rest, verbs[v], vl))
            continue;
        for (const char *p = rest + vl; p;) {
            int c = cmp_card_at(g->j, p);
            if (c >= 0) {
                if (v == 0)
                    g->bought[seat][c]++;
                if (v == 1)
                    g->played[seat][c]++;
                if (v != 1)
                    g->gained[seat][c] = true;
            }
            p = v == 1 && (p = strstr(p, ", ")) ? p + 2 : NULL; /* plays lists cards */
        }
    }
}

/* Play game index of the run on b into r. 0, or -1 with why in err. */
static int cmp_one(const cmp_job *j, engine_bundle *b, long index, cmp_run *r, engine_error *err)
{
    const scripts_sim *sim = j->sim;
    int np = (int)sim->players;
    char id[32];
    const char *bots[CMP_SEATS];
    for (int i = 0; i < np; i++)
        bots[i] = j->bots[(i + index) % np];
    uint64_t seed = cli_game_seed((uint64_t)sim->seed, (uint64_t)index);
    snprintf(id, sizeof id, "compare-%llu", (unsigned long long)seed);
    engine_match_config cfg = {.match_id = id,
                               .game = sim->game,
                               .seed = seed,
                               .nplayers = np,
                               .names = cmp_names,
                               .bots = bots,
                               .options = sim->options};
    engine_match *m = engine_match_new(b, &cfg, err);
    if (!m)
        return -1;
    engine_result res[CMP_SEATS];
    size_t n = engine_match_results(m, res, CMP_SEATS);
    if (!engine_match_finished(m) || n != (size_t)np) {
        snprintf(err->message, sizeof err->message, "seed %llu: the game stopped at a decision",
                 (unsigned long long)seed);
        engine_match_free(m);
        return -1;
    }
    cmp_game *g = calloc(1, sizeof *g);
    if (!g) {
        engine_match_free(m);
        snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    g->j = j;
    g->np = np;
    engine_match_drain_events(m, cmp_on_event, g);
    int winners = 0, longest = 0;
    for (size_t i = 0; i < n; i++) {
        winners += res[i].rank == 1;
        longest = res[i].turns > longest ? res[i].turns : longest;
    }
    double win[CMP_SEATS] = {0}, bot_win[CMP_SEATS] = {0};
    for (size_t i = 0; i < n; i++) {
        int s = res[i].seat >= 0 && res[i].seat < np ? res[i].seat : (int)i;
        win[s] = res[i].rank == 1 ? 1.0 / winners : 0.0;
    }
    for (int s = 0; s < np; s++) {
        stat_add(&r->seat[s], win[s]);
        for (int k = 0; k < j->nstrategies; k++)
            bot_win[k] += strcmp(j->strategy[k], bots[s]) ? 0.0 : win[s];
    }
    for (int k = 0; k < j->nstrategies; k++)
        stat_add(&r->bot[k], bot_win[k]);
    stat_add(&r->length, longest);
    for (int c = 0; c < j->ncards; c++) {
        int bought = 0, played = 0;
        for (int s = 0; s < np; s++) {
            bought += g->bought[s][c];
            played += g->played[s][c];
            if (g->gained[s][c])
                stat_add(&r->held[c], win[s]);
        }
        stat_add(&r->bought[c], bought);
        stat_add(&r->played[c], played);
    }
    free(g);
    engine_match_free(m);
    return 0;
}

/* Every card of b's catalog for the game, into the job (once by name); from the second
 * bundle, what changed of each. which: 0 old, 1 new. 0, or -1 (printed). */
static int cmp_catalog(cmp_job *j, engine_bundle *b, int which)
{
    engine_match_config cfg = {.match_id = "compare-catalog",
                               .game = j->sim->game,
                               .seed = 1,
                               .nplayers = (int)j->sim->players,
                               .names = cmp_names,
                               .options = j->sim->options};
    engine_error err = {0};
    engine_match *m = engine_match_new(b, &cfg, &err);
    Deckhand__Catalog *cat = m ? engine_match_catalog(m) : NULL;
    if (!cat) {
        fprintf(stderr, "%s compare: no catalog of %s: %s\n", SCRIPTS_WHO, j->sim->game,
                err.message);
        if (m)
            engine_match_free(m);
        return -1;
    }
    size_t cap = 1;
    for (size_t i = 0; i < cat->n_cards; i++)
        cap += strlen(cat->cards[i]->name) + 1;
    char *own = j->owned[which] = malloc(cap), *at = own;
    for (size_t i = 0; own && i < cat->n_cards; i++) {
        const Deckhand__CardInfo *ci = cat->cards[i];
        int k = 0;
        while (k < j->ncards && strcmp(j->cards[k], ci->name))
            k++;
        if (k == j->ncards && j->ncards < CMP_CARDS) {
            strcpy(at, ci->name);
            j->cards[j->ncards++] = at;
            at += strlen(at) + 1;
            if (which == 1)
                snprintf(j->changed[k], sizeof j->changed[k], "new card, cost %d", ci->cost);
        }
        if (which == 0 || k >= CMP_CARDS)
            continue;
        /* the old bundle's facts were kept in changed[k] as "=cost|types|text" */
        char now[96];
        snprintf(now, sizeof now, "=%d|%.30s|%.50s", ci->cost, ci->types, ci->text);
        if (j->changed[k][0] == '=' && strcmp(j->changed[k], now)) {
            int old = atoi(j->changed[k] + 1);
            snprintf(j->changed[k], sizeof j->changed[k],
                     old != ci->cost ? "cost %d -> %d" : "types or text changed", old, ci->cost);
        } else if (j->changed[k][0] == '=') {
            j->changed[k][0] = '\0';
        }
    }
    if (which == 0)
        for (size_t i = 0; i < cat->n_cards; i++)
            for (int k = 0; k < j->ncards; k++)
                if (!strcmp(j->cards[k], cat->cards[i]->name))
                    snprintf(j->changed[k], sizeof j->changed[k], "=%d|%.30s|%.50s",
                             cat->cards[i]->cost, cat->cards[i]->types, cat->cards[i]->text);
    engine_catalog_free(cat);
    engine_match_free(m);
    return own ? 0 : -1;
}

/* A card only the old bundle had, or one named by --cards: reported too. */
static void cmp_pick_cards(cmp_job *j)
{
    for (int k = 0; k < j->ncards; k++) {
        if (j->changed[k][0] == '=')
            snprintf(j->changed[k], sizeof j->changed[k], "gone from the new bundle");
        j->report[k] = j->changed[k][0] != '\0' ||
                       (j->sim->cards && dh_list_find(j->sim->cards, j->cards[k]) >= 0);
    }
}

/* One line: the two means, the change and its 95% interval; appended to the summary. */
static void cmp_line(const char *what, const char *key, const cmp_stat *a, const cmp_stat *b,
                     double scale, char *sum, size_t cap)
{
    double ma = stat_mean(a) * scale, mb = stat_mean(b) * scale, d = mb - ma;
    double h = CMP_Z * sqrt(stat_var_mean(a) + stat_var_mean(b)) * scale;
    bool moved = d - h > 0 || d + h < 0;
    printf("  %-34s %9.2f %9.2f %+9.2f  [%+.2f, %+.2f]%s\n", what, ma, mb, d, d - h, d + h,
           moved ? " *" : "");
    size_t at = strlen(sum);
    if (moved && at + 64 < cap)
        snprintf(sum + at, cap - at, "%s%s=%+.2f[%+.2f,%+.2f]", at ? " " : "", key, d, d - h,
                 d + h);
}

static void cmp_report(const cmp_job *j, const cmp_run *r, char *sum, size_t cap)
{
    const scripts_sim *sim = j->sim;
    printf("compare %s: %ld games per bundle, seed %ld, %ld players, bots %s (rotating)\n",
           sim->game, sim->games, sim->seed, sim->players, sim->bots);
    printf("  %-34s %9s %9s %9s  %s\n", "", "old", "new", "change", "95% interval (* excludes 0)");
    char what[128], key[96];
    sum[0] = '\0';
    for (int s = 0; s < (int)sim->players; s++) {
        snprintf(what, sizeof what, "seat %d win rate (%%)", s + 1);
        snprintf(key, sizeof key, "seat%d.win%%", s + 1);
        cmp_line(what, key, &r[0].seat[s], &r[1].seat[s], 100.0, sum, cap);
    }
    for (int k = 0; j->nstrategies > 1 && k < j->nstrategies; k++) {
        snprintf(what, sizeof what, "bot %s win rate (%%)", j->strategy[k]);
        snprintf(key, sizeof key, "bot.%s.win%%", j->strategy[k]);
        cmp_line(what, key, &r[0].bot[k], &r[1].bot[k], 100.0, sum, cap);
    }
    cmp_line("game length (turns)", "turns", &r[0].length, &r[1].length, 1.0, sum, cap);
    for (int c = 0; c < j->ncards; c++) {
        if (!j->report[c])
            continue;
        printf("  card %s%s%s%s\n", j->cards[c], j->changed[c][0] ? " (" : "", j->changed[c],
               j->changed[c][0] ? ")" : "");
        snprintf(key, sizeof key, "%s.bought", j->cards[c]);
        cmp_line("  bought per game", key, &r[0].bought[c], &r[1].bought[c], 1.0, sum, cap);
        snprintf(key, sizeof key, "%s.played", j->cards[c]);
        cmp_line("  played per game", key, &r[0].played[c], &r[1].played[c], 1.0, sum, cap);
        snprintf(key, sizeof key, "%s.holders.win%%", j->cards[c]);
        cmp_line("  win rate of seats holding it (%)", key, &r[0].held[c], &r[1].held[c], 100.0,
                 sum, cap);
    }
    size_t at = strlen(sum);
    snprintf(sum + at, cap - at, "%sgames=%ld seed=%ld", at ? " " : "", sim->games, sim->seed);
}

/* The seats' bots from sim->bots (a comma list, repeated to fill the seats) into j. */
static int cmp_bots(cmp_job *j, char *list)
{
    const char *v[CMP_SEATS];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t && n < CMP_SEATS;
         t = strtok_r(NULL, ",", &save))
        v[n++] = t;
    if (!n)
        return -1;
    for (int i = 0; i < (int)j->sim->players; i++) {
        j->bots[i] = v[i % n];
        int k = 0;
        while (k < j->nstrategies && strcmp(j->strategy[k], j->bots[i]))
            k++;
        if (k == j->nstrategies)
            j->strategy[j->nstrategies++] = j->bots[i];
    }
    return 0;
}

int scripts_compare_run(engine_bundle *a, engine_bundle *b, const scripts_sim *sim, char *summary,
                        size_t cap)
{
    cmp_job j = {.sim = sim};
    char bots[256];
    snprintf(bots, sizeof bots, "%s", sim->bots);
    cmp_run *r = calloc(2, sizeof *r);
    int rc = -1;
    if (!r || sim->players < 1 || sim->players > CMP_SEATS || cmp_bots(&j, bots) < 0) {
        fprintf(stderr, "%s compare: bad players or bots\n", SCRIPTS_WHO);
        goto out;
    }
    if (cmp_catalog(&j, a, 0) < 0 || cmp_catalog(&j, b, 1) < 0)
        goto out;
    cmp_pick_cards(&j);
    engine_bundle *both[2] = {a, b};
    for (int w = 0; w < 2; w++)
        for (long i = 0; i < sim->games; i++) {
            engine_error err = {0};
            if (cmp_one(&j, both[w], i, &r[w], &err) < 0) {
                fprintf(stderr, "%s compare: %s bundle, game %ld: %s\n", SCRIPTS_WHO,
                        w ? "new" : "old", i + 1, err.message);
                goto out;
            }
        }
    cmp_report(&j, r, summary, cap);
    rc = 0;
out:
    free(j.owned[0]);
    free(j.owned[1]);
    free(r);
    return rc;
}

/* `deckhand scripts compare OLD_DIR NEW_DIR --game G ...` */
int scripts_compare(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},  {"games", DH_FLAG_INT},
                                        {"seed", DH_FLAG_INT},    {"players", DH_FLAG_INT},
                                        {"bots", DH_FLAG_VALUE},  {"options", DH_FLAG_VALUE},
                                        {"cards", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, SCRIPTS_WHO, scripts_usage, 2, 2);
    if (done >= 0)
        return done;
    scripts_sim sim = {0};
    if (scripts_sim_flags(f, &sim, 0) < 0)
        return 2;
    engine_error ee = {0};
    engine_bundle *b[2] = {NULL, NULL};
    int rc = 1;
    char summary[1024];
    for (int i = 0; i < 2; i++)
        if (!(b[i] = engine_bundle_load(f->pos[i], NULL, &ee))) {
            fprintf(stderr, "%s compare: %s does not load: %s\n", SCRIPTS_WHO, f->pos[i],
                    ee.message);
            goto out;
        }
    rc = scripts_compare_run(b[0], b[1], &sim, summary, sizeof summary) < 0 ? 1 : 0;
    if (rc == 0)
        printf("moved: %s\n", summary);
out:
    engine_bundle_free(b[0]);
    engine_bundle_free(b[1]);
    return rc;
}

int scripts_sim_flags(const dh_flags *f, scripts_sim *sim, long games)
{
    sim->game = dh_flags_str(f, "game", NULL, NULL);
    sim->bots = dh_flags_str(f, "bots", NULL, "default");
    sim->options = dh_flags_str(f, "options", NULL, NULL);
    sim->cards = dh_flags_str(f, "cards", NULL, NULL);
    if (!sim->game) {
        fprintf(stderr, "%s: --game is required for a comparison\n", SCRIPTS_WHO);
        return -1;
    }
    sim->games = games;
    if ((!games && cli_int(f, SCRIPTS_WHO, "games", 200, 2, 1000000, &sim->games) < 0) ||
        cli_int(f, SCRIPTS_WHO, "seed", 1, 0, 0x7fffffffffffffffL, &sim->seed) < 0 ||
        cli_int(f, SCRIPTS_WHO, "players", 2, 1, CMP_SEATS, &sim->players) < 0)
        return -1;
    return 0;
}
