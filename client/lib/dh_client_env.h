/*
 * dh_client_env.h: where the gateway is. `deckhand` and the end-to-end tests find it the
 * same way: an explicit address, else DECKHAND_GATEWAY_TCP / DECKHAND_GATEWAY_WS from the
 * environment, else the same lines in .run/cluster.env (written by ./scripts/run --detach).
 */
#ifndef DECKHAND_DH_CLIENT_ENV_H
#define DECKHAND_DH_CLIENT_ENV_H

#include <stdbool.h>
#include <stddef.h>

#define DH_CLIENT_ENV_FILE ".run/cluster.env"

/* Look key up in the text of an env file: lines KEY=VALUE, optionally prefixed with
 * "export ", the value optionally in single or double quotes; blank lines and # comments
 * are skipped; the last assignment wins. 0 with out filled, -1 when absent or too long. */
int dh_client_env_parse(const char *text, const char *key, char *out, size_t outlen);

/* The same over a file. -1 when it cannot be read or has no such key. */
int dh_client_env_file(const char *path, const char *key, char *out, size_t outlen);

/* The gateway address to connect to: flag when not NULL, else the environment variable,
 * else envfile (NULL: DH_CLIENT_ENV_FILE); TCP or WebSocket by ws. A WebSocket address
 * given as a bare "host:port" (the gateway's own --ws form) becomes "ws://host:port/ws".
 * 0 with out filled, -1 with err filled. */
int dh_client_gateway_addr(const char *flag, bool ws, const char *envfile, char *out, size_t outlen,
                           char *err, size_t errlen);

#endif
