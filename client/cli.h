/*
 * cli.h: what the `deckhand` command's files share: one entry point per subcommand
 * (cmd_*.c) and the few option helpers they all use (cli.c).
 *
 * Subcommands get argv with argv[0] = the subcommand's name and parse it with dh_flags
 * (getopt_long): an unknown flag or a missing value prints the usage and exits 2. Each
 * returns the process exit status.
 */
#ifndef DECKHAND_CLI_H
#define DECKHAND_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "dh_flags.h"
#include "dh_redis.h"
#include "engine.h"

int cmd_bots(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_scripts(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_leaderboard(int argc, char **argv);
int cmd_admin(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* A flag's integer value within [lo, hi], else def when absent; -1 with a message on stderr
 * when present but out of range (the caller exits 2). */
int cli_int(const dh_flags *f, const char *who, const char *name, long def, long lo, long hi,
            long *out);

/* Raise this process's descriptor limit (RLIMIT_NOFILE) to its hard limit (cli_nofile.c)
 * and return the limit now in force: LONG_MAX when unlimited, -1 when it cannot be read. */
long cli_nofile_raise(void);

/* A subcommand: its name and what runs it (argv[0] is the name). */
typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} cli_command;

/* Run the command argv[1] names from cmds[0..n): its exit status. Without one, the usage
 * on stderr and 2; --help or -h (and the word "help" when help_word), the usage on stdout
 * and 0; an unknown one, "WHO: unknown command" and the usage on stderr, and 2. */
int cli_dispatch(const char *who, const char *usage, const cli_command *cmds, size_t n,
                 bool help_word, int argc, char **argv);

/* A flag the subcommand cannot do without: its value, or NULL with "WHO: --NAME is
 * required" on stderr (the caller exits 2). */
const char *cli_required(const dh_flags *f, const char *who, const char *name);

/* The flags cli_gateway (and dh_client_gws_parse) read, for a command's flag table. */
#define CLI_FLAGS_GATEWAY                                                                          \
    {"gateway", DH_FLAG_VALUE},                                                                    \
    {                                                                                              \
        "ws", DH_FLAG_SWITCH                                                                       \
    }
/* The flags of an account login (cli_login's account and register_first). */
#define CLI_FLAGS_ACCOUNT                                                                          \
    {"account", DH_FLAG_VALUE},                                                                    \
    {                                                                                              \
        "register", DH_FLAG_SWITCH                                                                 \
    }

/* The gateway address for --gateway / --ws (dh_client_gateway_addr), message on stderr. */
int cli_gateway(const dh_flags *f, const char *who, char *out, size_t outlen);

/* Connect r to the cluster's Redis: --redis, else DECKHAND_REDIS_URL, else
 * .run/cluster.env, else redis://127.0.0.1:6390 (cli_redis.c); one Redis or a Redis
 * Cluster alike (dh_redis.h). A live context, owned by r, that says Redis is up (commands
 * go through r, routed by key), or NULL with a message on stderr prefixed by who; the
 * caller closes r either way. */
redisContext *cli_redis(const dh_flags *f, const char *who, dh_redis *r);

/* Load bundle:{sha} from Redis into a new sandboxed VM, as a worker does; the caller
 * frees it (engine_bundle_free). NULL with a message on stderr prefixed by who. */
engine_bundle *cli_redis_bundle(dh_redis *c, const char *sha, const char *who);

/* dh_now_ms, signed for the client's deadline arithmetic. */
long long cli_now_ms(void);

/* Log c in (cli_account.c): to account (the --account flag), with the password from
 * DECKHAND_PASSWORD (registering it first when register_first: --register), else (account
 * NULL) as the guest guest_name. The session token into token. 0, or -1 with a message on
 * stderr prefixed by who. */
struct dh_client;
int cli_login(struct dh_client *c, const char *who, const char *account, bool register_first,
              const char *guest_name, char *token, size_t toklen);
/* Connect to the gateway at addr and log in there as cli_login does. The connection (the
 * caller closes it with dh_client_close), or NULL with a message on stderr prefixed by
 * who. */
struct dh_client *cli_connect(const char *who, const char *addr, const char *account,
                              bool register_first, const char *guest_name, char *token,
                              size_t toklen);

/* Game i's seed in a run of seed s, for `deckhand sim` and `scripts compare` (which plays the
 * same games as sim): splitmix64's finaliser over s and i, so two runs with different s
 * share no games (s, s+1, ... would share all but one). Never 0. */
uint64_t cli_game_seed(uint64_t s, uint64_t i);

#endif
