/*
 * dh_config.h: process configuration from flags with environment-variable equivalents.
 *
 * Every setting has a flag ("--redis URL" or "--redis=URL"), an environment variable
 * (DECKHAND_REDIS_URL) and a default, looked up in that order.
 */
#ifndef DECKHAND_DH_CONFIG_H
#define DECKHAND_DH_CONFIG_H

#include <stdbool.h>

/* The flag's value, else the variable's, else def. The result points into argv, environ
 * or def: do not free it. */
const char *dh_config_str(int argc, char **argv, const char *flag, const char *env,
                          const char *def);
/* Same, parsed as an integer; a value that does not parse yields def. */
long dh_config_int(int argc, char **argv, const char *flag, const char *env, long def);
/* True when the bare flag ("--detach") is present. */
bool dh_config_has(int argc, char **argv, const char *flag);

/* Split "host:port" into its parts; returns 0 on success. */
int dh_config_hostport(const char *s, char *host, int hostlen, int *port);

#endif
