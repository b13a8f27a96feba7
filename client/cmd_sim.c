/*
 * cmd_sim.c: `deckhand sim`, all-bot games run in-process on the rules engine, no network.
 *
 * It is the engine's throughput benchmark and a quick balance check of a game's bots:
 * it loads the bundle once, plays N games with seeds S, S+1, ... (engine_match_new plays
 * an all-bot match to the end), and prints wins per seat and per bot, average scores and
 * turns, then as its last line `games=N seconds=X games_per_sec=Y`. Wall time covers the
 * games only, not loading the bundle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dh_clock.h"
#include "engine.h"

#define SIM_MAX_PLAYERS 8

typedef struct {
    int nplayers;
    const char *options;               /* match options ("kingdom=random"), or NULL */
    const char *bots[SIM_MAX_PLAYERS]; /* per seat: a bot strategy of the game */
    long wins[SIM_MAX_PLAYERS];        /* rank-1 finishes, shared wins included */
    long long score[SIM_MAX_PLAYERS];
    long long turns; /* sum over games of the longest seat's turn count */
    long games;
    long shared; /* games won by more than one seat (equal score and turns) */
} sim_stats;

static const char sim_usage[] =
    "usage: deckhand sim --game dominion --games N [--seed S] [--players P]\n"
    "                    [--bots NAME,NAME...] [--options K=V;K=V] [--scripts DIR]\n"
    "  Bots are the game's strategies (docs/SCRIPTING.md), one per seat; a shorter list\n"
    "  repeats. Options are the game's match options, e.g. --options kingdom=random.\n"
    "  Scripts default to DECKHAND_SCRIPTS, else ./scripts.\n";

/* Split the comma list into per-seat names, repeating it to fill nplayers seats.
 * names is modified in place and must outlive st. */
static int sim_parse_bots(char *names, sim_stats *st)
{
    const char *list[SIM_MAX_PLAYERS];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == SIM_MAX_PLAYERS)
            return -1;
        list[n++] = t;
    }
    if (n == 0)
        return -1;
    for (int i = 0; i < st->nplayers; i++)
        st->bots[i] = list[i % n];
    return 0;
}

/* Play one game to the end and add it to the stats. 0, or -1 with err filled. */
static int sim_one(engine_bundle *b, const char *game, uint64_t seed, sim_stats *st,
                   engine_error *err)
{
    char id[32];
    char namebuf[SIM_MAX_PLAYERS][32];
    const char *names[SIM_MAX_PLAYERS];
    for (int i = 0; i < st->nplayers; i++) {
        snprintf(namebuf[i], sizeof namebuf[i], "%s-%d", st->bots[i], i + 1);
        names[i] = namebuf[i];
    }
    snprintf(id, sizeof id, "sim-%llu", (unsigned long long)seed);
    engine_match_config cfg = {.match_id = id,
                               .game = game,
                               .seed = seed,
                               .nplayers = st->nplayers,
                               .names = names,
                               .bots = st->bots,
                               .options = st->options};
    engine_match *m = engine_match_new(b, &cfg, err);
    if (!m)
        return -1;
    engine_result res[SIM_MAX_PLAYERS];
    size_t n = engine_match_results(m, res, SIM_MAX_PLAYERS);
    if (!engine_match_finished(m) || n != (size_t)st->nplayers) {
        err->code = ENGINE_INTERNAL;
        snprintf(err->message, sizeof err->message,
                 "seed %llu: the game stopped at a decision although every seat is a bot",
                 (unsigned long long)seed);
        engine_match_free(m);
        return -1;
    }
    int longest = 0, winners = 0;
    for (size_t i = 0; i < n; i++) {
        winners += res[i].rank == 1;
        int s = res[i].seat >= 0 && res[i].seat < st->nplayers ? res[i].seat : (int)i;
        if (res[i].rank == 1)
            st->wins[s]++;
        st->score[s] += res[i].score;
        if (res[i].turns > longest)
            longest = res[i].turns;
    }
    st->turns += longest;
    st->shared += winners > 1;
    st->games++;
    engine_match_free(m);
    return 0;
}

static void sim_report(const sim_stats *st, double seconds)
{
    double g = st->games ? (double)st->games : 1.0;
    printf("seat  bot              wins    win%%   avg score\n");
    for (int i = 0; i < st->nplayers; i++)
        printf("%-5d %-16s %-7ld %5.1f%%  %8.2f\n", i, st->bots[i], st->wins[i],
               100.0 * (double)st->wins[i] / g, (double)st->score[i] / g);
    /* Wins per strategy, when several seats share one. */
    for (int i = 0; i < st->nplayers; i++) {
        bool first = true;
        for (int j = 0; j < i; j++)
            first = first && strcmp(st->bots[i], st->bots[j]) != 0;
        if (!first)
            continue;
        long w = 0;
        for (int j = i; j < st->nplayers; j++)
            if (!strcmp(st->bots[i], st->bots[j]))
                w += st->wins[j];
        printf("bot %s: %ld wins\n", st->bots[i], w);
    }
    printf("shared wins (counted for every winner): %ld games\n", st->shared);
    printf("average turns per game: %.2f\n", (double)st->turns / g);
    printf("games=%ld seconds=%.3f games_per_sec=%.1f\n", st->games, seconds,
           seconds > 0 ? (double)st->games / seconds : 0.0);
}

int cmd_sim(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},    {"games", DH_FLAG_INT},
                                        {"seed", DH_FLAG_INT},      {"players", DH_FLAG_INT},
                                        {"bots", DH_FLAG_VALUE},    {"scripts", DH_FLAG_VALUE},
                                        {"options", DH_FLAG_VALUE}, {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, "deckhand sim", sim_usage, 0, 0);
    if (done >= 0)
        return done;
    long games, seed, players;
    if (cli_int(f, "deckhand sim", "games", 100, 1, 100000000, &games) < 0 ||
        cli_int(f, "deckhand sim", "seed", 1, 0, 0x7fffffffffffffffL, &seed) < 0 ||
        cli_int(f, "deckhand sim", "players", 2, 1, SIM_MAX_PLAYERS, &players) < 0)
        return 2;
    const char *game = dh_flags_str(f, "game", NULL, "dominion");
    const char *dir = dh_flags_str(f, "scripts", "DECKHAND_SCRIPTS", "./scripts");
    char bots[512];
    snprintf(bots, sizeof bots, "%s", dh_flags_str(f, "bots", NULL, "default"));
    sim_stats st = {.nplayers = (int)players, .options = dh_flags_str(f, "options", NULL, NULL)};
    if (sim_parse_bots(bots, &st) < 0) {
        fprintf(stderr, "deckhand sim: --bots wants 1..%d comma-separated names\n",
                SIM_MAX_PLAYERS);
        return 2;
    }

    engine_error err = {0};
    engine_limits lim = {0};
    engine_bundle *b = engine_bundle_load(dir, &lim, &err);
    if (!b) {
        fprintf(stderr, "deckhand sim: cannot load %s: %s\n", dir, err.message);
        return 1;
    }
    int rc = 0;
    double t0 = (double)dh_now_ns() / 1e9;
    for (long i = 0; i < games; i++) {
        if (sim_one(b, game, (uint64_t)seed + (uint64_t)i, &st, &err) < 0) {
            fprintf(stderr, "deckhand sim: game %ld (seed %llu): error %d: %s\n", i + 1,
                    (unsigned long long)seed + (unsigned long long)i, (int)err.code, err.message);
            rc = 1;
            break;
        }
    }
    sim_report(&st, (double)dh_now_ns() / 1e9 - t0);
    engine_bundle_free(b);
    return rc;
}
