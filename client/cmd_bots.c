/*
 * cmd_bots.c: `deckhand bots`, N bot players in one process, the cluster's smoke, load
 * and chaos test: every bot logs in as a guest, queues, plays every decision put to it
 * and queues again after each GameOver, until M distinct matches have finished.
 *
 * A decision is answered by the game's own bot (--bot STRATEGY, default "default"): the
 * bot sends Choose{decision_id, bot=STRATEGY} and the worker answers for its seat as that
 * strategy of the bundle would (docs/PROTOCOL.md), so every game the cluster serves is
 * played to its end; --bot search asks for the engine's search bot instead, which every
 * game has (tests/e2e/test_search_bot.sh). --bot local answers in the client instead, with the
 * generic bot (dh_client_bot.h), which knows only Dominion's decision conventions: other games
 * played that way may only end at their turn cap. The server bot costs the worker a script call per
 * answer; the local one measures the cluster without it.
 *
 * One poll() over all the bots' sockets drives them; each bot is a small state record
 * updated by whatever message arrives, in any order (a MatchFound may overtake the Reply
 * to the QueueJoin), plus a few timers (pacing, resync, re-join, reconnect) that the loop
 * checks after every wake-up.
 *
 * Failures the cluster is built to survive are not errors; they are counted and worked
 * around, the way a real client must:
 * - an answer or a Resync refused with UNAVAILABLE, UNKNOWN_MATCH or OVERLOADED (the
 *   match moved to another worker, Redis or a worker is out) is `retried`: the bot sends
 *   Resync{match} after a backoff (250 ms doubling to 1 s) and answers again from the View
 *   or decision that comes, the same decision once more if it is still pending;
 * - a QueueJoin refused with UNAVAILABLE (the matchmaker is restarting) is sent again;
 * - a connection the server closes is reconnected (Hello with the saved token, the cmd_id
 *   sequence carried on), with the same backoff, for up to 30 s; then Resync for the
 *   match, or the QueueJoin again;
 * - an Event past event_seq+1 makes the bot resync (docs/PROTOCOL.md).
 * Every other refusal (ILLEGAL_CHOICE, NOT_YOUR_TURN, SCRIPT_ERROR, BAD_REQUEST...) is an
 * error, and so is a LOST command (dh_client_track.h): a decision offered again after its
 * answer got Reply{ok}, or a View older than what the bot already saw.
 *
 * --drop F makes a fraction F of the bots (chosen by --seed) each close its connection
 * once, right after sending an answer (so that answer's fate is unknown), after a random
 * number of answers, and reconnect as above.
 *
 * --gateway takes a comma-separated list: bots log in round-robin over it, and each
 * reconnect attempt goes to the next gateway of the list after the one the bot was on,
 * so with two or more every resume crosses gateways (counted as moved_gateway).
 *
 * Bots pace themselves with a token bucket per connection (--rate, default 40 messages/s,
 * under the gateway's limit of 50/s sustained), because on loopback a bot answers far
 * faster than any human and would otherwise be RATE_LIMITED. An answer waits in its
 * bot's slot until a token is free (only answers spend tokens: a Resync or a join is paced
 * by its backoff); an answer refused with RATE_LIMITED anyway is counted
 * as an error and sent again, so the match does not stall.
 * The last stdout line is `matches_completed=M errors=E`; the exit status is 0 only when
 * all M matches finished without an error.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_client_bot.h"
#include "dh_client_env.h"
#include "dh_client_track.h"
#include "bots.h"

static const char bots_who[] = "deckhand bots";

static const char bots_usage[] =
    "usage: deckhand bots --game GAME --players N --matches M [--ws] [--size S]\n"
    "                     [--timeout SEC] [--rate MSGS_PER_SEC] [--gateway ADDR[,ADDR...]]\n"
    "                     [--drop FRACTION] [--seed N] [--reroute-log] [--bot STRATEGY|local]\n"
    "                     [--account NAME [--register]] [--mode MODE] [--option NAME=VALUE]...\n"
    "                     [--party N | --lobby] [--answer-log FILE] [--burst | --ramp SEC] "
    "[--once]\n"
    "  N bot clients queue for matches of S players (default N when 2..4, else 2) and\n"
    "  play until M matches have finished. Last stdout line: matches_completed=M errors=E\n"
    "  --bot STRATEGY: the server answers each decision as the game's bot STRATEGY would\n"
    "  (default 'default', every game has it; 'search': the engine's search bot, in every\n"
    "  game, at most 50 ms a decision; the difficulties every game has: 'easy', 'normal'\n"
    "  and 'hard', the search); --bot local: the bots answer themselves\n"
    "  with the generic bot, which knows only Dominion's decision conventions.\n"
    "  Each bot sends at most --rate messages per second (default 40; 0 = unpaced; a\n"
    "  decimal below 1 is fine: 0.5 is one every two seconds).\n"
    "  --players is bounded only by the descriptor limit (RLIMIT_NOFILE, raised to its\n"
    "  hard limit): one descriptor per player and 16 more.\n"
    "  --burst: every bot logs in first, then all queue at once (a start burst).\n"
    "  --ramp SEC: the bots log in (and queue) spread evenly over SEC seconds instead of\n"
    "  as fast as they can, so that many matches start without a start burst.\n"
    "  --once: each bot plays one match and does not queue again (with --players N and\n"
    "  --size S, M = N/S matches, each one played to its end or counted unfinished).\n"
    "  --answer-log FILE: one line per event a player feels, WALL_MS KIND MATCH BOT\n"
    "  DECISION (CLOCK_REALTIME ms, bot numbered from 1, decision id or 0); KIND: found\n"
    "  (MatchFound), attached (the first View or decision of the match), decision (one to\n"
    "  answer came), sent (its answer went, paced), ok (an answer got Reply{ok}),\n"
    "  unanswered (an answer without a Reply for 10 s), over (GameOver).\n"
    "  Outages are survived, not errors: a command refused with UNAVAILABLE, UNKNOWN_MATCH\n"
    "  or OVERLOADED is retried (Resync after 250 ms .. 1 s, then the answer again), a\n"
    "  connection the server closes is resumed with the session token for up to 30 s.\n"
    "  Errors include LOST commands: a decision offered again after its answer was\n"
    "  accepted, or a View older than one already seen (printed with 'LOST').\n"
    "  --drop FRACTION: that fraction of the bots (0..1, default 0, chosen by --seed,\n"
    "  default 1) each close their connection once in a match, right after an answer,\n"
    "  and reconnect.\n"
    "  --gateway ADDR,ADDR...: bots log in spread over the gateways (round-robin), and a\n"
    "  bot that reconnects goes to the next gateway of the list, so a resume crosses\n"
    "  gateways (they must share one token key); each is printed to stderr as\n"
    "    bots: NAME: resumed on ADDR (was ADDR)\n"
    "  --reroute-log: print to stderr, for the first View or DecisionRequest a bot gets\n"
    "  after one of its commands was refused with UNAVAILABLE or UNKNOWN_MATCH (a moved\n"
    "  match, an outage):\n"
    "    bots: first_after_move match=ID at_ms=MS   (MS: CLOCK_REALTIME milliseconds)\n"
    "  --account NAME [--register]: the bots log in to accounts (rated) instead of as\n"
    "  guests: NAME for one bot, NAME-1, NAME-2... for several, all with the password in\n"
    "  DECKHAND_PASSWORD; --register creates them first (or logs in when they exist).\n"
    "  --mode MODE: casual (the default) or a mode the cluster's queues file names.\n"
    "  --party N: the bots play in parties of N (bots 1..N, N+1..2N, ...): the first of each\n"
    "  makes the party, the others join it by its code, and the first queues it.\n"
    "  --lobby: every --size bots meet in a private lobby instead of queueing: the first\n"
    "  makes it, the others join by its code, all mark ready, the first starts it.\n"
    "  --option NAME=VALUE (repeatable): a game option on every join, e.g. kingdom=random;\n"
    "  the game's bundle declares which it takes (an undeclared one is BAD_REQUEST).\n"
    "  Last stderr summary line: bots: retried=R lost=L reconnects=C moved_gateway=G\n"
    "  told_reconnect=T (Reconnects from gateways draining or cut off from a worker, each\n"
    "  followed to the next one)\n"
    "  answers_ok=A unanswered=U answers_refused=X unfinished=F: answers accepted,\n"
    "  answers with no Reply for 10 s, answers refused for good (neither an outage nor\n"
    "  the pace), and, when the run stopped short of M, the matches bots were still in.\n";

/* ---- options -------------------------------------------------------------------------- */

/* xorshift64*: the --drop choices, reproducible from --seed. */
static uint64_t bots_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Pick round(drop * n) bots, each to drop after 1..BOTS_DROP_SPAN answers. */
static void bots_plan_drops(bots_run *r, double drop, long seed)
{
    int ndrop = (int)(drop * r->n + 0.5);
    int *order = calloc((size_t)r->n, sizeof *order);
    if (!order || ndrop == 0) {
        free(order);
        return;
    }
    uint64_t s = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < r->n; i++)
        order[i] = i;
    for (int i = r->n - 1; i > 0; i--) {
        int j = (int)(bots_rand(&s) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < ndrop; i++)
        r->bots[order[i]].drop_after = 1 + (long)(bots_rand(&s) % BOTS_DROP_SPAN);
    free(order);
}

static int bots_fraction(const dh_flags *f, const char *flag, double *out)
{
    const char *s = dh_flags_str(f, flag, NULL, NULL);
    char *end;
    *out = 0;
    if (!s)
        return 0;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0 && v <= 1)) {
        fprintf(stderr, "deckhand bots: --%s wants a number in 0..1, not '%s'\n", flag, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* --players n fits the descriptor limit (one socket a player, raised to the hard limit
 * first: cli_nofile_raise); else -1 with a message naming the limit. */
static int bots_players_fit(long n)
{
    long limit = cli_nofile_raise();
    if (limit < 0 || n <= limit - BOTS_FD_MARGIN)
        return 0;
    fprintf(stderr,
            "%s: --players %ld needs %ld descriptors (one per player and %d more), but "
            "RLIMIT_NOFILE, raised to its hard limit, is %ld: raise it (ulimit -n) or run "
            "fewer players (deckhand load spreads them over processes)\n",
            bots_who, n, n + BOTS_FD_MARGIN, BOTS_FD_MARGIN, limit);
    return -1;
}

/* --rate: messages per second per bot, a decimal number (0.5: one every two seconds). */
static int bots_rate(const dh_flags *f, double *out)
{
    const char *s = dh_flags_str(f, "rate", NULL, NULL);
    char *end;
    *out = BOTS_RATE;
    if (!s)
        return 0;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0 && v <= 1000000)) {
        fprintf(stderr, "%s: --rate wants messages per second in 0..1000000, not '%s'\n", bots_who,
                s);
        return -1;
    }
    *out = v;
    return 0;
}

/* --answer-log FILE, opened for the whole run (fully buffered: one line per event). */
static int bots_open_log(const dh_flags *f, bots_run *r)
{
    const char *path = dh_flags_str(f, "answer-log", NULL, NULL);
    if (!path)
        return 0;
    if (!(r->answer_log = fopen(path, "w"))) {
        fprintf(stderr, "%s: --answer-log %s: %s\n", bots_who, path, strerror(errno));
        return -1;
    }
    return 0;
}

int cmd_bots(int argc, char **argv)
{
    static const dh_flag_spec spec[] = {{"game", DH_FLAG_VALUE},
                                        {"players", DH_FLAG_INT},
                                        {"matches", DH_FLAG_INT},
                                        {"size", DH_FLAG_INT},
                                        {"timeout", DH_FLAG_INT},
                                        {"rate", DH_FLAG_VALUE},
                                        {"answer-log", DH_FLAG_VALUE},
                                        {"burst", DH_FLAG_SWITCH},
                                        {"once", DH_FLAG_SWITCH},
                                        {"ramp", DH_FLAG_INT},
                                        {"drop", DH_FLAG_VALUE},
                                        {"seed", DH_FLAG_INT},
                                        {"reroute-log", DH_FLAG_SWITCH},
                                        {"bot", DH_FLAG_VALUE},
                                        {"party", DH_FLAG_INT},
                                        {"lobby", DH_FLAG_SWITCH},
                                        CLI_FLAGS_GATEWAY,
                                        CLI_FLAGS_ACCOUNT,
                                        CLI_OPTIONS_FLAGS,
                                        {NULL, 0}};
    dh_flags fl, *f = &fl;
    cli_options options;
    if (cli_options_collect(argc, argv, bots_who, &options) < 0)
        return 2;
    int done = dh_flags_parse_main(f, spec, argc, argv, bots_who, bots_usage, 0, 0);
    if (done >= 0)
        return done;
    long players, matches, size, timeout, seed;
    double drop, rate;
    if (cli_int(f, bots_who, "players", 2, 1, 100000000, &players) < 0 ||
        bots_players_fit(players) < 0 || bots_rate(f, &rate) < 0 ||
        cli_int(f, bots_who, "matches", 1, 1, 100000000, &matches) < 0 ||
        cli_int(f, bots_who, "timeout", 60, 1, 86400, &timeout) < 0 ||
        cli_int(f, bots_who, "seed", 1, 0, 2147483647, &seed) < 0 ||
        bots_fraction(f, "drop", &drop) < 0)
        return 2;
    if (cli_int(f, bots_who, "size", players >= 2 && players <= 4 ? players : 2, 1, 64, &size) < 0)
        return 2;
    long party, ramp;
    if (cli_int(f, bots_who, "party", 1, 1, 8, &party) < 0 ||
        cli_int(f, bots_who, "ramp", 0, 0, 3600, &ramp) < 0)
        return 2;
    if (ramp && dh_flags_has(f, "burst")) {
        fprintf(stderr, "%s: --ramp and --burst exclude each other\n", bots_who);
        return 2;
    }
    bool lobby = dh_flags_has(f, "lobby");
    if (lobby && (party > 1 || players % size != 0)) {
        fprintf(stderr, "%s: --lobby wants --players a multiple of --size, and no --party\n",
                bots_who);
        return 2;
    }
    if (party > 1 && (party > size || players % party != 0)) {
        fprintf(stderr, "%s: --party %ld wants --players a multiple of it and --size at least it\n",
                bots_who, party);
        return 2;
    }
    options.mode = dh_flags_str(f, "mode", NULL, NULL);
    bots_run r = {.n = (int)players,
                  .game = dh_flags_str(f, "game", NULL, "dominion"),
                  .size = (uint32_t)size,
                  .target = matches,
                  .reroute_log = dh_flags_has(f, "reroute-log"),
                  .account = dh_flags_str(f, "account", NULL, NULL),
                  .register_first = dh_flags_has(f, "register"),
                  .rate = rate,
                  .burst = dh_flags_has(f, "burst"),
                  .once = dh_flags_has(f, "once"),
                  .ramp_ms = ramp * 1000,
                  .options = options,
                  .party = (int)party,
                  .lobby = lobby};
    if (bots_gateways(f, bots_who, &r) < 0 || bots_bot_flag(f, bots_who, &r) < 0 ||
        bots_open_log(f, &r) < 0)
        return 2;
    r.bots = calloc((size_t)r.n, sizeof *r.bots);
    if (!r.bots) {
        fprintf(stderr, "bots: out of memory\n");
        r.errors++;
        goto out;
    }
    bots_plan_drops(&r, drop, seed);
    if (bots_start(&r) < 0) {
        r.errors++;
        goto out;
    }
    bots_loop(&r, timeout);
    bots_leave(&r);
    fprintf(stderr, "bots: %ld decisions answered\n", r.decisions);
out:;
    /* Short of the target, the matches bots are still in are unfinished; at the target,
     * they are later matches of bots that queued again, cut off by the end of the run. */
    long unfinished = r.bots && r.ndone < r.target ? bots_unfinished(&r) : 0;
    fprintf(stderr,
            "bots: retried=%ld lost=%ld reconnects=%ld moved_gateway=%ld told_reconnect=%ld "
            "answers_ok=%ld unanswered=%ld answers_refused=%ld unfinished=%ld\n",
            r.retried, r.lost, r.reconnects, r.moved, r.told_reconnect, r.answers_ok, r.unanswered,
            r.answers_refused, unfinished);
    printf("matches_completed=%ld errors=%ld\n", r.ndone, r.errors);
    long completed = r.ndone;
    if (r.answer_log && fclose(r.answer_log) != 0) {
        fprintf(stderr, "%s: --answer-log: %s\n", bots_who, strerror(errno));
        completed = 0;
    }
    bots_run_free(&r);
    return completed >= r.target && r.errors == 0 ? 0 : 1;
}
