/*
 * dh_token.h: signed session tokens, so a reconnecting client proves which player it is
 * without the gateway keeping any session store.
 *
 * A token is base64url(payload) "." base64url(HMAC-SHA256(key, payload)), where payload
 * is "v1|<expiry unix seconds>|<player_id>|<name>". Whoever holds the key (every gateway
 * of a deployment, via --token-key) can verify tokens signed by any of them. Tokens carry
 * no secrets; they are only unforgeable.
 */
#ifndef DECKHAND_DH_TOKEN_H
#define DECKHAND_DH_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#define DH_TOKEN_MAX        256 /* longest token produced or accepted, with its NUL */
#define DH_TOKEN_ID_MAX     64  /* player id buffer, with its NUL */
#define DH_TOKEN_NAME_MAX   64  /* name buffer, with its NUL */
#define DH_TOKEN_KEY_MIN    16  /* shortest key accepted */
#define DH_TOKEN_RANDOM_KEY 32  /* length of a key made by dh_token_random_key */

typedef enum {
    DH_TOKEN_OK = 0,
    DH_TOKEN_MALFORMED,     /* not a token: bad encoding, fields or lengths */
    DH_TOKEN_BAD_SIGNATURE, /* well-formed but signed with another key, or altered */
    DH_TOKEN_EXPIRED,
} dh_token_status;

typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    char name[DH_TOKEN_NAME_MAX];
    int64_t expiry; /* unix seconds */
} dh_token_claims;

/* Sign a token for player_id (letters, digits, '-', '_') and name (no control
 * characters) expiring at expiry (unix seconds) into out. Returns 0, or -1 when a field
 * is invalid or too long, the key is shorter than DH_TOKEN_KEY_MIN, or out is too small. */
int dh_token_sign(const uint8_t *key, size_t keylen, const char *player_id, const char *name,
                  int64_t expiry, char *out, size_t outlen);

/* Check token's signature (in constant time) and expiry against now (unix seconds).
 * Fills *claims only when the result is DH_TOKEN_OK. */
dh_token_status dh_token_verify(const uint8_t *key, size_t keylen, const char *token, int64_t now,
                                dh_token_claims *claims);

/* A human word for a status ("expired"...), for error messages. */
const char *dh_token_status_str(dh_token_status s);

/* Fill key with n cryptographically random bytes. Returns 0, or -1. */
int dh_token_random_key(uint8_t *key, size_t n);

#endif
