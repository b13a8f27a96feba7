/*
 * dh_account.h: what an account is made of, apart from where it is stored (dh_keys.h):
 * the rules for names, passwords and device ids, password hashing with libsodium's
 * crypto_pwhash (Argon2id), the digest a device id is stored under, and new account ids.
 *
 * Names are 3..24 letters, digits, '.', '-' or '_'; two names that differ only in case
 * are the same account (the key holds the lowercased name; the display keeps the case it
 * was registered with). Passwords are 8..128 bytes without control characters. A device
 * id is an opaque secret the client made (16..128 printable ASCII characters); it is
 * stored only as its BLAKE2b digest, enough for a secret that is not a human's password.
 *
 * Only a password account shows its name bare: names are reserved by registering. A
 * device account shows the name it asked for with '#' and the last DH_ACCOUNT_DEVICE_TAG
 * characters of its account id ("Carol#3f9a"), a guest its name with
 * DH_ACCOUNT_GUEST_MARK ("Carol (guest)"). No account name holds '#', so neither can be
 * taken for a password account's, whatever was registered before or after; and the
 * rule needs no lookup, so a device id (free to make) reserves nothing.
 *
 * Hashing costs DH_ACCOUNT_OPSLIMIT passes over DH_ACCOUNT_MEMLIMIT bytes (14 ms on one
 * core of the 2-core build machine, -O2): the gateway runs it on libuv's thread pool (4
 * threads: at most 4 x 19 MiB at once), never on its loop. An unknown
 * name is verified against dh_account_dummy_hash, so it costs as long as a wrong password.
 */
#ifndef DECKHAND_DH_ACCOUNT_H
#define DECKHAND_DH_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#define DH_ACCOUNT_NAME_MIN     3
#define DH_ACCOUNT_NAME_MAX     24
#define DH_ACCOUNT_PASSWORD_MIN 8
#define DH_ACCOUNT_PASSWORD_MAX 128
#define DH_ACCOUNT_DEVICE_MIN   16
#define DH_ACCOUNT_DEVICE_MAX   128
#define DH_ACCOUNT_HASH_MAX     128 /* crypto_pwhash_STRBYTES */
#define DH_ACCOUNT_DIGEST_LEN   64  /* hex characters of a device digest */
#define DH_ACCOUNT_ID_LEN       18  /* "a-" and 16 hex digits */
/* Argon2id cost: 2 passes over 19 MiB (OWASP's minimum for Argon2id). */
#define DH_ACCOUNT_OPSLIMIT 2ULL
#define DH_ACCOUNT_MEMLIMIT (19u << 20)

#define DH_ACCOUNT_DEVICE_TAG 4
#define DH_ACCOUNT_GUEST_MARK " (guest)"
/* A shown name's buffer, with its NUL: a guest's 32 characters and the mark fit. */
#define DH_ACCOUNT_SHOWN_MAX 48

/* libsodium's sodium_init; 0, or -1. Safe to call more than once. */
int dh_account_init(void);

/* Each returns NULL when s is acceptable, or the error text a client is shown. */
const char *dh_account_name_error(const char *name);
const char *dh_account_password_error(const char *password);
const char *dh_account_device_error(const char *device_id);

/* name lowercased into out (DH_ACCOUNT_NAME_MAX + 1 bytes): the account's key. */
void dh_account_name_key(const char *name, char *out);

/* What a device account (id) that asked for name shows, into out (DH_ACCOUNT_SHOWN_MAX). */
void dh_account_device_shown(const char *name, const char *id, char *out);
/* What a guest who asked for name shows, into out (DH_ACCOUNT_SHOWN_MAX). */
void dh_account_guest_shown(const char *name, char *out);

/* Hash password into out (DH_ACCOUNT_HASH_MAX bytes, a NUL-terminated string that holds
 * its salt and parameters). 0, or -1 (out of memory). Slow on purpose. */
int dh_account_hash(const char *password, char *out);
/* Whether password matches stored (a dh_account_hash string). Slow on purpose; false for
 * a malformed stored hash. */
bool dh_account_verify(const char *stored, const char *password);
/* A hash of no one's password, to verify an unknown name against (made once). */
const char *dh_account_dummy_hash(void);

/* The hex digest a device id is stored under into out (DH_ACCOUNT_DIGEST_LEN + 1). */
void dh_account_device_digest(const char *device_id, char *out);

/* A new account id into out (DH_ACCOUNT_ID_LEN + 1): DH_TOKEN_ACCOUNT_PREFIX and 16
 * random hex digits. 0, or -1 when the kernel gives no random bytes. */
int dh_account_new_id(char *out);

#endif
