/*
 * cli.h: what the `deckhand` command's files share: one entry point per subcommand
 * (cmd_*.c) and the few option helpers they all use (cli.c).
 *
 * Subcommands get argv with argv[0] = the subcommand's name, so dh_config's flag lookup
 * works on them unchanged. Each returns the process exit status.
 */
#ifndef DECKHAND_CLI_H
#define DECKHAND_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "dh_redis.h"
#include "engine.h"

int cmd_bots(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_scripts(int argc, char **argv);
int cmd_replay(int argc, char **argv);

/* Reject flags a subcommand does not know. known lists flags that take a value, switches
 * lists bare flags; both NULL-terminated. Prints the offender and returns -1. */
int cli_check_flags(int argc, char **argv, const char *const *known, const char *const *switches);

/* A flag's integer value within [lo, hi], else def when absent; -1 with a message on stderr
 * when present but invalid (the caller exits 2). */
int cli_int(int argc, char **argv, const char *flag, long def, long lo, long hi, long *out);

/* The gateway address for --gateway / --ws (dh_client_gateway_addr), message on stderr. */
int cli_gateway(int argc, char **argv, char *out, size_t outlen);

/* Connect r to the cluster's Redis: --redis, else DECKHAND_REDIS_URL, else
 * .run/cluster.env, else redis://127.0.0.1:6390 (cli_redis.c). The context, owned by r
 * (the caller closes r either way), or NULL with a message on stderr prefixed by who. */
redisContext *cli_redis(int argc, char **argv, const char *who, dh_redis *r);

/* Load bundle:{sha} from Redis into a new sandboxed VM, as a worker does; the caller
 * frees it (engine_bundle_free). NULL with a message on stderr prefixed by who. */
engine_bundle *cli_redis_bundle(redisContext *c, const char *sha, const char *who);

/* Monotonic milliseconds. */
long long cli_now_ms(void);

#endif
