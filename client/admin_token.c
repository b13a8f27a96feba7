/*
 * admin_token.c: finding this operator's admin token and its name (admin_token.h).
 */
#include "admin_token.h"

#include <stdio.h>
#include <string.h>

#include "dh_client_env.h"
#include "dh_secret.h"

int admin_token_parse(const char *text, admin_token *t)
{
    memset(t, 0, sizeof *t);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n"), m = n;
        while (m > 0 && strchr("\r \t", p[m - 1]))
            m--;
        if (m > 0 && p[0] != '#') {
            const char *colon = memchr(p, ':', m);
            size_t nlen = colon ? (size_t)(colon - p) : 0, tlen = colon ? m - nlen - 1 : m;
            if ((colon && nlen == 0) || nlen >= sizeof t->name || tlen >= sizeof t->token)
                return -1;
            snprintf(t->name, sizeof t->name, "%.*s", colon ? (int)nlen : 5, colon ? p : "admin");
            snprintf(t->token, sizeof t->token, "%.*s", (int)tlen, colon ? colon + 1 : p);
            return 1;
        }
        p += n + (p[n] == '\n');
    }
    return 0;
}

int admin_token_find(const char *file, admin_token *t)
{
    char text[4096], local[512];
    long n = file ? dh_secret_file(file, text, sizeof text, true)
                  : dh_secret_get("DECKHAND_ADMIN_TOKEN", text, sizeof text);
    if (n == 0 && !file &&
        dh_client_env_file(DH_CLIENT_ENV_FILE, "DECKHAND_ADMIN_TOKEN_FILE", local, sizeof local) ==
            0)
        n = dh_secret_file(local, text, sizeof text, true);
    int rc = n > 0 ? admin_token_parse(text, t) : (int)n;
    memset(text, 0, sizeof text);
    if (n > 0 && rc <= 0) {
        fprintf(stderr, "deckhand: the admin token secret holds no \"NAME:TOKEN\" line\n");
        return -1;
    }
    return rc;
}
