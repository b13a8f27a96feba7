/*
 * main.c: the `deckhand` command, a front door to its subcommands (one cmd_*.c each):
 * play a match in the terminal, run bot players or a load test against a cluster,
 * simulate games in-process on the rules engine, push card scripts, or replay a recorded
 * match, or make a cluster's keys, or watch a running match.
 */

#include "cli.h"

static const char usage[] =
    "usage: deckhand COMMAND [options]\n"
    "\n"
    "  play  --game dominion [--ws] [--name NAME] [--size N] [--gateway ADDR]\n"
    "        play a match in this terminal\n"
    "  bots  --game dominion --players N --matches M [--ws] [--size S] [--timeout SEC]\n"
    "        [--rate MSGS_PER_SEC] [--gateway ADDR]\n"
    "        N bot clients play until M matches have finished\n"
    "  load  --game dominion --players N --seconds S [--rate R] [--gateway ADDR,...]\n"
    "        N players play for S seconds and report the answers' latency percentiles\n"
    "  sim   --game dominion --games N [--seed S] [--players P] [--bots a,b] [--scripts DIR]\n"
    "        play N all-bot games in-process and report games per second\n"
    "  fit   FILE\n"
    "        fit an evaluation hint's weights to a position log of `sim --positions`\n"
    "  scripts push DIR | list | rollback --game G | show --match ID [--card NAME]\n"
    "        live-ops: push card scripts into the running cluster (docs/OPERATIONS.md)\n"
    "  replay MATCH_ID [--redis URL] [--quiet]\n"
    "        rebuild a match from Redis, answer by answer, and check its state hash\n"
    "  leaderboard --game G [--mode M] | --history --account NAME\n"
    "        the best rated accounts of a game, or an account's rated matches\n"
    "  keygen DIR\n"
    "        write a cluster's CURVE keys and Redis passwords and ACL file into DIR\n"
    "  admin matches | show ID | end ID | remove ID | workers | gateways | drain ID | audit\n"
    "        the admin API of a running cluster (docs/OPERATIONS.md, \"Admin API\")\n"
    "  watch MATCH_ID | --list [--game G] [--gateway ADDR]\n"
    "        spectate a running match (public information, delayed), or list them\n"
    "\n"
    "The gateway is --gateway (host:port, or ws://host:port/path), else DECKHAND_GATEWAY_TCP\n"
    "(DECKHAND_GATEWAY_WS with --ws), else .run/cluster.env from ./scripts/run --detach.\n";

int main(int argc, char **argv)
{
    static const cli_command cmds[] = {
        {"play", cmd_play},     {"bots", cmd_bots},     {"load", cmd_load},
        {"sim", cmd_sim},       {"fit", cmd_fit},       {"scripts", cmd_scripts},
        {"replay", cmd_replay}, {"keygen", cmd_keygen}, {"leaderboard", cmd_leaderboard},
        {"admin", cmd_admin},   {"watch", cmd_watch}};
    return cli_dispatch("deckhand", usage, cmds, sizeof cmds / sizeof *cmds, true, argc, argv);
}
