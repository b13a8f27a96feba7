/*
 * scripts_usage.c: the usage of `deckhand scripts`, printed by every one of its
 * subcommands on bad flags and --help (scripts.h), so it lives below all of them.
 */
#include "scripts.h"

const char scripts_usage[] =
    "usage: deckhand scripts push DIR [--game G] [--label L] [--wait SEC] [--apply-to-running]\n"
    "                             [--canary PCT] [--force] [--by NAME] [--reason TEXT]\n"
    "                             [--redis URL]\n"
    "       deckhand scripts list [--redis URL]\n"
    "       deckhand scripts rollback --game G --reason TEXT [--by NAME] [--redis URL]\n"
    "       deckhand scripts promote --game G [--reason TEXT] [--by NAME] [--redis URL]\n"
    "       deckhand scripts abort --game G [--reason TEXT] [--by NAME] [--redis URL]\n"
    "       deckhand scripts audit [--game G] [--admin] [--redis URL]\n"
    "       deckhand scripts show --match ID [--card NAME] [--redis URL]\n"
    "\n"
    "  push      validate DIR (sandbox load, its rules tests, at least as many rules tests\n"
    "            per game as the current bundle unless --force with --reason, seeded bot\n"
    "            games; a game a live worker serves), store it in Redis and make it current\n"
    "            for its games (or G); waits\n"
    "            up to --wait seconds (default 10, 0 = no wait) for every live worker to\n"
    "            serve it; --apply-to-running (manifest.lua must say compatible = true)\n"
    "            also moves running matches onto it at their next turn boundary;\n"
    "            --canary PCT (1..99) starts PCT% of new matches on it instead\n"
    "  list      bundles, which is current (or a canary) for each game, live and started\n"
    "            matches per worker\n"
    "  rollback  make the bundle before G's current one current again (refused while G\n"
    "            has a canary: abort it first)\n"
    "  promote   make G's canary current for every new match\n"
    "  abort     drop G's canary (matches already on it finish on it)\n"
    "  audit     every push, apply, canary, promote, abort and rollback: who (--by, else\n"
    "            the admin token's name, else $USER, and the host), when, why (--reason)\n"
    "            and which bundle; --admin merges in the admin API's trail\n"
    "  show      rebuild match ID from Redis on its pinned bundle; print its bundle and\n"
    "            the card NAME as players see it (answers_since_snapshot: the answers\n"
    "            replayed after its last snapshot, 0 once it finished)\n"
    "Redis is --redis, else DECKHAND_REDIS_URL, else .run/cluster.env, else\n"
    "redis://127.0.0.1:6390.\n";
