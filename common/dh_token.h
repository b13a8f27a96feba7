/*
 * dh_token.h: signed session tokens, so a reconnecting client proves which player it is
 * without the gateway keeping any session store.
 *
 * A token is base64url(payload) "." base64url(HMAC-SHA256(key, payload)), where payload
 * is "v3|<key id>|<expiry unix seconds>|<kind>|<player_id>|<name>", kind "g" for a guest
 * or "a" for an account (whose player_id is its account id, DH_TOKEN_ACCOUNT_PREFIX...;
 * no guest's id starts so, and a token whose kind and id disagree is malformed). v2
 * tokens ("v2|<key id>|<expiry>|<player_id>|<name>") are still accepted, as guests'.
 * Whoever holds the key (every
 * gateway of a deployment, via --token-key) can verify tokens signed by any of them.
 * Tokens carry no secrets; they are only unforgeable.
 *
 * Rotation: the key id (8 base64url characters of a SHA-256 of the key, so no one has to
 * name keys) says which key signed a token. A gateway holds a ring: the current key, which
 * signs, and optionally the previous one, still accepted until a configured time, so a
 * rotation logs nobody out (a player resuming inside the window gets a token signed with
 * the new key). Tokens of the first format ("v1|expiry|id|name", no key id) are checked
 * against both keys of the ring.
 */
#ifndef DECKHAND_DH_TOKEN_H
#define DECKHAND_DH_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DH_TOKEN_MAX            256  /* longest token produced or accepted, with its NUL */
#define DH_TOKEN_ID_MAX         64   /* player id buffer, with its NUL */
#define DH_TOKEN_NAME_MAX       64   /* name buffer, with its NUL */
#define DH_TOKEN_KEY_MIN        16   /* shortest key accepted */
#define DH_TOKEN_RANDOM_KEY     32   /* length of a key made by dh_token_random_key */
#define DH_TOKEN_KEY_MAX        256  /* longest key accepted */
#define DH_TOKEN_KID_MAX        9    /* key id buffer (8 characters), with its NUL */
#define DH_TOKEN_ACCOUNT_PREFIX "a-" /* every account id starts so; guests' ids ("p-...") never */

typedef enum {
    DH_TOKEN_OK = 0,
    DH_TOKEN_MALFORMED,     /* not a token: bad encoding, fields or lengths */
    DH_TOKEN_BAD_SIGNATURE, /* well-formed but signed with another key, or altered */
    DH_TOKEN_EXPIRED,
    DH_TOKEN_KEY_RETIRED, /* signed with the previous key, after its window closed */
} dh_token_status;

typedef struct {
    char player_id[DH_TOKEN_ID_MAX];
    char name[DH_TOKEN_NAME_MAX];
    int64_t expiry; /* unix seconds */
    bool account;   /* player_id is an account's (dh_token_is_account_id), not a guest's */
} dh_token_claims;

/* One signing key and its id. */
typedef struct {
    uint8_t key[DH_TOKEN_KEY_MAX];
    size_t len; /* 0: no key */
    char id[DH_TOKEN_KID_MAX];
} dh_token_key;

/* The keys a gateway accepts: current signs and verifies; previous (len 0 when none)
 * only verifies, while now < previous_until (unix seconds). */
typedef struct {
    dh_token_key current;
    dh_token_key previous;
    int64_t previous_until;
} dh_token_ring;

/* Sign a token for player_id (letters, digits, '-', '_'; an account's when it starts with
 * DH_TOKEN_ACCOUNT_PREFIX, a guest's otherwise) and name (no control characters) expiring at expiry
 * (unix seconds) into out. Returns 0, or -1 when a field is invalid or too long, the key is shorter
 * than DH_TOKEN_KEY_MIN, or out is too small. */
int dh_token_sign(const uint8_t *key, size_t keylen, const char *player_id, const char *name,
                  int64_t expiry, char *out, size_t outlen);

/* Check token's signature (in constant time) and expiry against now (unix seconds).
 * Fills *claims only when the result is DH_TOKEN_OK. */
dh_token_status dh_token_verify(const uint8_t *key, size_t keylen, const char *token, int64_t now,
                                dh_token_claims *claims);

/* A ring whose current key is key (DH_TOKEN_KEY_MIN..DH_TOKEN_KEY_MAX bytes) and no
 * previous key. 0, or -1 when the key's length is out of bounds. */
int dh_token_ring_init(dh_token_ring *r, const uint8_t *key, size_t keylen);
/* Also accept tokens signed with key until until (unix seconds). -1 when the key's length
 * is out of bounds or it is the current key. */
int dh_token_ring_set_previous(dh_token_ring *r, const uint8_t *key, size_t keylen, int64_t until);
/* Sign with the ring's current key (as dh_token_sign). */
int dh_token_ring_sign(const dh_token_ring *r, const char *player_id, const char *name,
                       int64_t expiry, char *out, size_t outlen);
/* Check token against the key it names (a v1 token: against each key of the ring). A
 * token of the previous key after previous_until is DH_TOKEN_KEY_RETIRED; of a key the
 * ring does not hold, DH_TOKEN_BAD_SIGNATURE. */
dh_token_status dh_token_ring_verify(const dh_token_ring *r, const char *token, int64_t now,
                                     dh_token_claims *claims);
/* The key id a token names (not checked: for logs and tests). 0, or -1 when it names none
 * (malformed, or a v1 token). */
int dh_token_key_id_of(const char *token, char *out, size_t outlen);

/* A human word for a status ("expired"...), for error messages. */
const char *dh_token_status_str(dh_token_status s);

/* Whether player_id names an account (starts with DH_TOKEN_ACCOUNT_PREFIX): accounts are
 * rated and keep a history; guests are not. */
bool dh_token_is_account_id(const char *player_id);

/* Fill key with n cryptographically random bytes. Returns 0, or -1. */
int dh_token_random_key(uint8_t *key, size_t n);

#endif
