/*
 * cmd_sim.c: `deckhand sim`, all-bot games run in-process on the rules engine, no network.
 *
 * It is the engine's throughput benchmark and a quick balance check of a game's bots:
 * it loads the bundle once and plays N games (engine_match_new plays an all-bot match to
 * the end). Game i's seed is derived from (S, i) by a mixing function (cli_game_seed), so runs
 * with different --seed values are independent samples, not shifted copies of each other;
 * and the bots rotate through the seats from one game to the next (game i puts bot
 * (j + i) mod P in seat j), so no strategy keeps the first player's advantage. It prints
 * wins per seat and per bot (with the average of the winner's own turns in the games each
 * bot won: how fast it wins), average scores and turns, then
 * `games=N seconds=X games_per_sec=Y`, and as its last line each strategy's win rate,
 * `winrate BOT=F BOT=F` (a shared win is split between its winners; a strategy in several
 * seats counts once per game, as a team). Wall time covers the games only, not loading
 * the bundle.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dh_clock.h"
#include "dh_grow.h"
#include "engine.h"
#include "sim_departures.h"
#include "sim_positions.h"

#define SIM_MAX_PLAYERS 8
#define SIM_BUDGET_MS   10000

typedef struct {
    int nplayers;
    const char *options;               /* match options ("kingdom=random"), or NULL */
    const char *bots[SIM_MAX_PLAYERS]; /* the list, one per seat of game 0 (rotated after) */
    int nstrategies;                   /* distinct names in bots */
    const char *strategy[SIM_MAX_PLAYERS];
    double share[SIM_MAX_PLAYERS];   /* per strategy: games won, shared wins split */
    long won_turns[SIM_MAX_PLAYERS]; /* per strategy: its own turns in the games it won */
    long won_games[SIM_MAX_PLAYERS]; /* per strategy: games it won (shared wins included) */
    long wins[SIM_MAX_PLAYERS];      /* per seat: rank-1 finishes, shared wins included */
    long long score[SIM_MAX_PLAYERS];
    long long turns; /* sum over games of the longest seat's turn count */
    long games;
    long shared;                  /* games won by more than one seat (equal score and turns) */
    bool each;                    /* print a line per game */
    bool hash;                    /* with each: and the final state hash */
    bool departures;              /* a line per searched answer not the play-out bot's */
    engine_search_config search;  /* seats whose bot is "search" */
    engine_search_config hard;    /* seats whose bot is "hard": the worker's search */
    engine_search_stats searched; /* summed over its decisions */
    long search_decisions;
    uint64_t *decision_ns; /* each search decision's wall time, for its p99 */
    size_t ndecision_ns, decision_ns_cap;
    uint32_t ids[4096];      /* a search answer */
    sim_positions positions; /* --positions: the log, or out = NULL */
} sim_stats;

static const char sim_usage[] =
    "usage: deckhand sim --game dominion --games N [--seed S] [--players P]\n"
    "                    [--bots NAME,NAME...] [--options K=V;K=V] [--scripts DIR] [--each "
    "[--hash]]\n"
    "  Bots are the game's strategies (docs/SCRIPTING.md), one per seat; a shorter list\n"
    "  repeats, and the bots rotate through the seats from game to game. Options are the\n"
    "  game's match options, e.g. --options kingdom=random. --each prints a line per game:\n"
    "  `game I seed S bots A,B ranks R,R turns T,T` (seat order), and with --hash a line\n"
    "  `hash I H`: the final state's hash, the same whenever the same game was played.\n"
    "  The bot `search` is the search\n"
    "  bot (engine_search.c), --search-iterations play-outs per decision (default 200);\n"
    "  in a game with an evaluation hint its play-outs stop after --search-depth turns\n"
    "  (default: the game's search_depth, else 8; 0: play every one to the end) and are\n"
    "  scored by the hint.\n"
    "  The difficulties every game offers: `easy`, `normal` (the game's default bot) and\n"
    "  `hard`: the search as the worker runs it, bounded by time (50 ms a decision), so\n"
    "  a run with `hard` depends on the machine's speed and load, unlike one with `search`.\n"
    "  --search-clock cpu: `hard` counts its 50 ms in the sim thread's CPU time, not wall\n"
    "  time: what a worker with a core of its own gives, on a machine busy with other work\n"
    "  (the default, wall, is what the worker counts).\n"
    "  --positions FILE logs every turn boundary's features (the game's features(g)) with\n"
    "  the game's outcome, one line per player: GAME TURN SEAT OUTCOME F...; `deckhand fit\n"
    "  FILE` fits an evaluation hint's weights to it.\n"
    "  --departures prints a line for every searched decision whose answer is not the\n"
    "  search's play-out bot's, before it is played: `departure I seat S kind K prompt [P]\n"
    "  chose [LABEL|CARD]... policy [LABEL|CARD]...`, then in a deck-builder each seat's\n"
    "  cards, ` | PS CARD=N...` (where the search departs from the policy it models).\n"
    "  Scripts default to DECKHAND_SCRIPTS, else ./scripts.\n";

/* The index in st->strategy of a bot name. */
static int sim_strategy(const sim_stats *st, const char *name)
{
    for (int i = 0; i < st->nstrategies; i++)
        if (!strcmp(st->strategy[i], name))
            return i;
    return 0;
}

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
    st->nstrategies = 0;
    for (int i = 0; i < st->nplayers; i++) {
        bool seen = false;
        for (int j = 0; j < st->nstrategies; j++)
            seen = seen || !strcmp(st->strategy[j], st->bots[i]);
        if (!seen)
            st->strategy[st->nstrategies++] = st->bots[i];
    }
    return 0;
}

/* Whether game is in bundle b and every strategy of st one of its bots (or the search's,
 * which no game lists: engine_search_strategy). Otherwise say which and what there is, on
 * stderr, and return -1: a run that could not play one game prints no results. */
static int sim_check_names(const engine_bundle *b, const char *game, const sim_stats *st)
{
    size_t n = engine_bundle_games(b, NULL, 0);
    engine_game_info *info = calloc(n ? n : 1, sizeof *info); /* freed below */
    if (!info) {
        fprintf(stderr, "deckhand sim: out of memory\n");
        return -1;
    }
    engine_bundle_games(b, info, n);
    const engine_game_info *gi = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(info[i].name, game))
            gi = &info[i];
    int rc = 0;
    if (!gi) {
        fprintf(stderr, "deckhand sim: no game '%s' in the scripts (games:", game);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %s", info[i].name);
        fprintf(stderr, ")\n");
        rc = -1;
    }
    for (int i = 0; gi && rc == 0 && i < st->nstrategies; i++) {
        const char *name = st->strategy[i];
        bool known = engine_search_strategy(name) != 0;
        for (size_t j = 0; !known && j < gi->nbots; j++)
            known = !strcmp(gi->bots[j], name);
        if (known)
            continue;
        fprintf(stderr, "deckhand sim: no bot '%s' in %s (bots:", name, game);
        for (size_t j = 0; j < gi->nbots; j++)
            fprintf(stderr, " %s", gi->bots[j]);
        fprintf(stderr, " %s %s)\n", ENGINE_HARD_BOT, ENGINE_SEARCH_BOT);
        rc = -1;
    }
    free(info);
    return rc;
}

/* Answer every decision of the search bot's seats until the match ends (the other seats
 * are Lua bots, played inline). 0, or -1 with err filled. */
static int sim_drive(engine_match *m, const char *const *seat_bot, long index, sim_stats *st,
                     engine_error *err)
{
    const engine_decision *d;
    while ((d = engine_match_decision(m))) {
        if (!engine_search_strategy(seat_bot[d->seat])) {
            err->code = ENGINE_INTERNAL;
            snprintf(err->message, sizeof err->message, "a decision for a Lua bot's seat");
            return -1;
        }
        size_t n = sizeof st->ids / sizeof *st->ids;
        engine_search_stats ss;
        const engine_search_config *cfg =
            strcmp(seat_bot[d->seat], ENGINE_HARD_BOT) ? &st->search : &st->hard;
        if (engine_search_answer(m, cfg, st->ids, &n, &ss, err) != ENGINE_OK)
            return -1;
        if (st->departures && ss.changed)
            sim_departure_print(stdout, m, index, d, st->ids, n, ss.policy);
        if (engine_match_answer(m, d->seat, d->decision_id, st->ids, n, err) != ENGINE_OK)
            return -1;
        st->searched.iterations += ss.iterations;
        st->searched.nodes += ss.nodes;
        st->searched.decisions += ss.decisions;
        st->searched.choices += ss.choices;
        st->searched.evaluated += ss.evaluated;
        st->searched.stopped += ss.stopped;
        st->searched.changed += ss.changed;
        st->searched.ns += ss.ns;
        st->search_decisions++;
        if (dh_grow(&st->decision_ns, &st->decision_ns_cap, st->ndecision_ns + 1,
                    sizeof *st->decision_ns, 1024) == 0)
            st->decision_ns[st->ndecision_ns++] = ss.ns;
    }
    return 0;
}

/* The game's positions into the log, each player's with its share of the win. */
static int sim_log_outcome(sim_stats *st, const engine_result *res, size_t n, long index,
                           engine_error *err)
{
    double share[SIM_MAX_PLAYERS] = {0};
    int winners = 0;
    for (size_t i = 0; i < n; i++)
        winners += res[i].rank == 1;
    for (size_t i = 0; i < n; i++)
        if (res[i].rank == 1 && res[i].seat >= 0 && res[i].seat < st->nplayers)
            share[res[i].seat] = 1.0 / winners;
    if (sim_positions_flush(&st->positions, index, share) == 0)
        return 0;
    err->code = ENGINE_INTERNAL;
    snprintf(err->message, sizeof err->message, "the position log could not be written");
    return -1;
}

/* Play game number index (seed seed, bots rotated by index) to the end and add it to the
 * stats. 0, or -1 with err filled. */
static int sim_one(engine_bundle *b, const char *game, uint64_t seed, long index, sim_stats *st,
                   engine_error *err)
{
    char id[32];
    char namebuf[SIM_MAX_PLAYERS][32];
    const char *names[SIM_MAX_PLAYERS];
    const char *seat_bot[SIM_MAX_PLAYERS], *inline_bot[SIM_MAX_PLAYERS];
    for (int i = 0; i < st->nplayers; i++) {
        seat_bot[i] = st->bots[(i + index) % st->nplayers];
        inline_bot[i] = engine_search_strategy(seat_bot[i]) ? NULL : seat_bot[i];
        snprintf(namebuf[i], sizeof namebuf[i], "%s-%d", seat_bot[i], i + 1);
        names[i] = namebuf[i];
    }
    snprintf(id, sizeof id, "sim-%llu", (unsigned long long)seed);
    engine_match_config cfg = {.match_id = id,
                               .game = game,
                               .seed = seed,
                               .nplayers = st->nplayers,
                               .names = names,
                               .bots = inline_bot,
                               .options = st->options,
                               .quiet = true};
    engine_match *m = st->positions.out ? engine_match_new_logged(b, &cfg, sim_positions_note,
                                                                  &st->positions, err)
                                        : engine_match_new(b, &cfg, err);
    if (!m)
        return -1;
    if (sim_drive(m, seat_bot, index, st, err) < 0) {
        engine_match_free(m);
        return -1;
    }
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
    bool won[SIM_MAX_PLAYERS] = {false}; /* per strategy, in this game */
    for (size_t i = 0; i < n; i++)
        winners += res[i].rank == 1;
    for (size_t i = 0; i < n; i++) {
        int s = res[i].seat >= 0 && res[i].seat < st->nplayers ? res[i].seat : (int)i;
        if (res[i].rank == 1) {
            int k = sim_strategy(st, seat_bot[s]);
            st->wins[s]++;
            if (!won[k]) {
                st->won_turns[k] += res[i].turns;
                st->won_games[k]++;
            }
            won[k] = true;
        }
        st->score[s] += res[i].score;
        if (res[i].turns > longest)
            longest = res[i].turns;
    }
    int teams = 0; /* strategies among the winners: a shared win is split between them */
    for (int i = 0; i < st->nstrategies; i++)
        teams += won[i];
    for (int i = 0; i < st->nstrategies; i++)
        if (won[i])
            st->share[i] += 1.0 / teams;
    if (st->each) {
        printf("game %ld seed %llu bots", index, (unsigned long long)seed);
        for (int i = 0; i < st->nplayers; i++)
            printf("%c%s", i ? ',' : ' ', seat_bot[i]);
        printf(" ranks");
        for (int i = 0; i < st->nplayers; i++) {
            unsigned rank = 0;
            for (size_t j = 0; j < n; j++)
                if (res[j].seat == i)
                    rank = (unsigned)res[j].rank;
            printf("%c%u", i ? ',' : ' ', rank);
        }
        printf(" turns");
        for (int i = 0; i < st->nplayers; i++) {
            int turns = 0;
            for (size_t j = 0; j < n; j++)
                if (res[j].seat == i)
                    turns = res[j].turns;
            printf("%c%d", i ? ',' : ' ', turns);
        }
        printf("\n");
        if (st->hash)
            printf("hash %ld %016llx\n", index, (unsigned long long)engine_match_hash(m));
    }
    if (st->positions.out && sim_log_outcome(st, res, n, index, err) < 0) {
        engine_match_free(m);
        return -1;
    }
    st->turns += longest;
    st->shared += winners > 1;
    st->games++;
    engine_match_free(m);
    return 0;
}

static int sim_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The search decisions' wall time at p50, p99 and the longest, in ms. */
static void sim_report_times(sim_stats *st)
{
    size_t n = st->ndecision_ns;
    if (!n)
        return;
    qsort(st->decision_ns, n, sizeof *st->decision_ns, sim_u64_cmp);
    printf("search ms per decision: p50 %.1f p99 %.1f max %.1f\n",
           (double)st->decision_ns[n / 2] / 1e6, (double)st->decision_ns[n - 1 - n / 100] / 1e6,
           (double)st->decision_ns[n - 1] / 1e6);
}

static void sim_report(sim_stats *st, double seconds)
{
    double g = st->games ? (double)st->games : 1.0;
    printf("seat  wins    win%%   avg score   (bots rotate through the seats)\n");
    for (int i = 0; i < st->nplayers; i++)
        printf("%-5d %-7ld %5.1f%%  %8.2f\n", i, st->wins[i], 100.0 * (double)st->wins[i] / g,
               (double)st->score[i] / g);
    for (int i = 0; i < st->nstrategies; i++)
        printf("bot %s: %.1f wins (shared wins split), won in %.2f of its own turns on average\n",
               st->strategy[i], st->share[i],
               st->won_games[i] ? (double)st->won_turns[i] / (double)st->won_games[i] : 0.0);
    printf("shared wins: %ld games\n", st->shared);
    printf("average turns per game: %.2f\n", (double)st->turns / g);
    printf("games=%ld seconds=%.3f games_per_sec=%.1f\n", st->games, seconds,
           seconds > 0 ? (double)st->games / seconds : 0.0);
    if (st->search_decisions) {
        double sec = (double)st->searched.ns / 1e9;
        printf("search: %ld decisions, %.0f play-outs (%.0f cut short by the game's evaluation) "
               "and %.0f nodes each, %.0f play-outs/s, "
               "%.0f branches/s (g:choose calls in copies), %.1f ms per decision, "
               "%.1f%% stopped early (one answer clearly ahead), %.1f%% not the play-out "
               "bot's answer\n",
               st->search_decisions, (double)st->searched.iterations / (double)st->search_decisions,
               (double)st->searched.evaluated / (double)st->search_decisions,
               (double)st->searched.nodes / (double)st->search_decisions,
               sec > 0 ? (double)st->searched.iterations / sec : 0.0,
               sec > 0 ? (double)st->searched.choices / sec : 0.0,
               1e3 * sec / (double)st->search_decisions,
               100.0 * (double)st->searched.stopped / (double)st->search_decisions,
               100.0 * (double)st->searched.changed / (double)st->search_decisions);
        /* The total, for a bench that divides a run's instructions by it (bench/engine_cost.sh). */
        printf("search branches: %llu\n", (unsigned long long)st->searched.choices);
        sim_report_times(st);
    }
    printf("winrate");
    for (int i = 0; i < st->nstrategies; i++)
        printf(" %s=%.4f", st->strategy[i], st->share[i] / g);
    printf("\n");
}

int cmd_sim(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"games", DH_FLAG_INT},
                                        {"seed", DH_FLAG_INT},
                                        {"players", DH_FLAG_INT},
                                        {"bots", DH_FLAG_VALUE},
                                        {"scripts", DH_FLAG_VALUE},
                                        {"options", DH_FLAG_VALUE},
                                        {"each", DH_FLAG_SWITCH},
                                        {"hash", DH_FLAG_SWITCH},
                                        {"search-iterations", DH_FLAG_INT},
                                        {"search-depth", DH_FLAG_INT},
                                        {"positions", DH_FLAG_VALUE},
                                        {"search-clock", DH_FLAG_VALUE},
                                        {"departures", DH_FLAG_SWITCH},
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    int done = dh_flags_parse_main(f, spec, argc, argv, "deckhand sim", sim_usage, 0, 0);
    if (done >= 0)
        return done;
    long games, seed, players, iterations, depth;
    if (cli_int(f, "deckhand sim", "games", 100, 1, 100000000, &games) < 0 ||
        cli_int(f, "deckhand sim", "seed", 1, 0, 0x7fffffffffffffffL, &seed) < 0 ||
        cli_int(f, "deckhand sim", "players", 2, 1, SIM_MAX_PLAYERS, &players) < 0 ||
        cli_int(f, "deckhand sim", "search-iterations", ENGINE_SEARCH_ITERATIONS, 1, 1000000,
                &iterations) < 0 ||
        cli_int(f, "deckhand sim", "search-depth", ENGINE_SEARCH_DEPTH, -1, 100000, &depth) < 0)
        return 2;
    const char *game = dh_flags_str(f, "game", NULL, "dominion");
    const char *dir = dh_flags_str(f, "scripts", "DECKHAND_SCRIPTS", "./scripts");
    char bots[512];
    snprintf(bots, sizeof bots, "%s", dh_flags_str(f, "bots", NULL, "default"));
    sim_stats st = {.nplayers = (int)players,
                    .options = dh_flags_str(f, "options", NULL, NULL),
                    .each = dh_flags_has(f, "each"),
                    .hash = dh_flags_has(f, "hash"),
                    .departures = dh_flags_has(f, "departures"),
                    .search = {.iterations = (uint32_t)iterations,
                               .depth = !dh_flags_has(f, "search-depth") ? 0
                                        : depth                          ? (int32_t)depth
                                                                         : -1}};
    engine_search_host_config(&st.hard);
    const char *clock = dh_flags_str(f, "search-clock", NULL, "wall");
    if (strcmp(clock, "wall") && strcmp(clock, "cpu")) {
        fprintf(stderr, "deckhand sim: --search-clock wants wall or cpu, not %s\n", clock);
        return 2;
    }
    st.hard.cpu_clock = !strcmp(clock, "cpu");
    if (sim_parse_bots(bots, &st) < 0) {
        fprintf(stderr, "deckhand sim: --bots wants 1..%d comma-separated names\n",
                SIM_MAX_PLAYERS);
        return 2;
    }

    engine_error err = {0};
    /* A script call's deadline: 10 s, not the servers' 250 ms. A sim plays no one live,
       and on a loaded machine a reniced sim's call (a search's copy replaying a turn)
       can be descheduled past 250 ms and would end the run; a runaway script still stops. */
    engine_limits lim = {.budget_ms = SIM_BUDGET_MS};
    engine_bundle *b = engine_bundle_load(dir, &lim, &err);
    if (!b) {
        fprintf(stderr, "deckhand sim: cannot load %s: %s\n", dir, err.message);
        return 1;
    }
    if (sim_check_names(b, game, &st) < 0) {
        engine_bundle_free(b);
        return 2;
    }
    const char *positions = dh_flags_str(f, "positions", NULL, NULL);
    st.positions.np = st.nplayers;
    if (positions && !(st.positions.out = fopen(positions, "w"))) {
        fprintf(stderr, "deckhand sim: cannot write %s\n", positions);
        engine_bundle_free(b);
        return 1;
    }
    int rc = 0;
    double t0 = (double)dh_now_ns() / 1e9;
    for (long i = 0; i < games; i++) {
        uint64_t game_seed = cli_game_seed((uint64_t)seed, (uint64_t)i);
        if (sim_one(b, game, game_seed, i, &st, &err) < 0) {
            fprintf(stderr, "deckhand sim: game %ld (seed %llu): error %d: %s\n", i + 1,
                    (unsigned long long)game_seed, (int)err.code, err.message);
            rc = 1;
            break;
        }
    }
    sim_report(&st, (double)dh_now_ns() / 1e9 - t0);
    if (st.positions.out) {
        printf("positions logged: %ld\n", st.positions.logged);
        if (fclose(st.positions.out) != 0 && rc == 0) {
            fprintf(stderr, "deckhand sim: cannot write %s\n", positions);
            rc = 1;
        }
    }
    sim_positions_free(&st.positions);
    free(st.decision_ns);
    engine_bundle_free(b);
    return rc;
}
