/*
 * dh_admin_auth.h: who may use the admin API (docs/OPERATIONS.md, "Admin API").
 *
 * The tokens come from the secret DECKHAND_ADMIN_TOKEN (or the file named by
 * DECKHAND_ADMIN_TOKEN_FILE: dh_secret.h), never from a flag. It holds one token per line,
 * each "NAME:TOKEN" or a bare "TOKEN" (named "admin"); the name is who the audit trail
 * says acted, so each operator or tool can get its own token and lose it alone. A token is
 * at least DH_ADMIN_TOKEN_MIN characters (`deckhand keygen` writes 43). No secret: no
 * token, and the API is off (dh_ops answers 403).
 *
 * Only SHA-256 digests of the tokens are kept. A request's "Authorization: Bearer X" is
 * digested and compared with every stored digest by CRYPTO_memcmp, whatever matched
 * before: neither the time nor the path taken tells how much of a token was right, and
 * digests of equal length hide the tokens' lengths.
 */
#ifndef DECKHAND_DH_ADMIN_AUTH_H
#define DECKHAND_DH_ADMIN_AUTH_H

#include <stddef.h>

#define DH_ADMIN_TOKENS_MAX 16
#define DH_ADMIN_NAME_MAX   64
#define DH_ADMIN_TOKEN_MIN  16
#define DH_ADMIN_SECRET_MAX 4096
#define DH_ADMIN_TOKEN_ENV  "DECKHAND_ADMIN_TOKEN"

typedef struct {
    char name[DH_ADMIN_NAME_MAX];
    unsigned char digest[32];
} dh_admin_token;

typedef struct {
    dh_admin_token tokens[DH_ADMIN_TOKENS_MAX];
    size_t n; /* 0: the admin API is off */
} dh_admin_auth;

/* Parse the secret's text (lines as above) into a. 0, or -1 (logged, a left empty) when a
 * line is malformed, a name repeats, a token is short, or there are too many. */
int dh_admin_auth_parse(dh_admin_auth *a, const char *text);
/* Read DECKHAND_ADMIN_TOKEN(_FILE) into a: 0 (a->n 0 when it is not set), or -1 (logged). */
int dh_admin_auth_load(dh_admin_auth *a);
/* The name of the token an Authorization header value carries ("Bearer TOKEN"), or NULL
 * when the header is missing, malformed or names no token. */
const char *dh_admin_auth_check(const dh_admin_auth *a, const char *authorization);

#endif
