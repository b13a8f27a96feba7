/*
 * cli_account.c: how the deckhand subcommands log in (cli.h, cli_login, cli_connect): as a
 * guest, or to an account whose password comes from the environment, never from the
 * command line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "dh_client.h"
#include "dh_client_account.h"

int cli_login(struct dh_client *c, const char *who, const char *account, bool register_first,
              const char *guest_name, char *token, size_t toklen)
{
    char err[256];
    if (!account) {
        if (dh_client_login(c, guest_name, NULL, 0, token, toklen) == 0)
            return 0;
        fprintf(stderr, "%s: login failed\n", who);
        return -1;
    }
    const char *password = getenv(DH_CLIENT_PASSWORD_ENV);
    if (!password || !*password) {
        fprintf(stderr, "%s: --account needs the password in %s\n", who, DH_CLIENT_PASSWORD_ENV);
        return -1;
    }
    if (dh_client_account_login(c, account, password, register_first, NULL, 0, token, toklen, err,
                                sizeof err) == 0)
        return 0;
    fprintf(stderr, "%s: account %s: %s\n", who, account, err);
    return -1;
}

struct dh_client *cli_connect(const char *who, const char *addr, const char *account,
                              bool register_first, const char *guest_name, char *token,
                              size_t toklen)
{
    char err[256];
    dh_client *c = dh_client_connect(addr, err, sizeof err);
    if (!c) {
        fprintf(stderr, "%s: %s\n", who, err);
        return NULL;
    }
    if (cli_login(c, who, account, register_first, guest_name, token, toklen) < 0) {
        dh_client_close(c);
        return NULL;
    }
    return c;
}
