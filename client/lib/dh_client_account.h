/*
 * dh_client_account.h: accounts and their boards from the client side (docs/PROTOCOL.md):
 * log in to a password account (registering it first when asked), read a leaderboard or
 * the account's own history. Blocking, like the rest of dh_client.h.
 *
 * The CLI takes the account's password from the environment (DH_CLIENT_PASSWORD_ENV), so it
 * never appears on a command line or in `ps`.
 */
#ifndef DECKHAND_DH_CLIENT_ACCOUNT_H
#define DECKHAND_DH_CLIENT_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "dh_client.h"

#define DH_CLIENT_PASSWORD_ENV "DECKHAND_PASSWORD"

/* Log c in to the account name with password: with register_first, Register it (an account
 * that exists already, NAME_TAKEN, is then logged in to instead). Waits for Welcome and
 * Reply. Copies the player id and token when the buffers are not NULL. 0, or -1 with the
 * gateway's error (or the connection's) in err. */
int dh_client_account_login(dh_client *c, const char *name, const char *password,
                            bool register_first, char *player_id, size_t idlen, char *token,
                            size_t toklen, char *err, size_t errlen);

/* Ask for a leaderboard (mode NULL or "" = casual; limit 0 = 10) and wait for it and its
 * Reply: 0 with *out (free with deckhand__server_message__free_unpacked), or -1 with err. */
int dh_client_leaderboard(dh_client *c, const char *game, const char *mode, unsigned limit,
                          Deckhand__ServerMessage **out, char *err, size_t errlen);
/* The logged-in account's history, the same way. */
int dh_client_history(dh_client *c, unsigned limit, Deckhand__ServerMessage **out, char *err,
                      size_t errlen);

#endif
