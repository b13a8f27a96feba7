/*
 * dh_account.c: see dh_account.h. libsodium does the hashing (crypto_pwhash_str: Argon2id
 * with a random salt, the parameters written into the string so they can change later),
 * the BLAKE2b digest of device ids and the randomness of ids.
 */
#include "dh_account.h"

#include <ctype.h>
#include <pthread.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dh_token.h"
#include "dh_random.h"

int dh_account_init(void)
{
    return sodium_init() < 0 ? -1 : 0;
}

/* What may appear in each text a player sends. */
static bool account_name_char(unsigned char c)
{
    return (isalnum(c) && c < 0x80) || c == '.' || c == '-' || c == '_';
}

static bool account_password_char(unsigned char c)
{
    return c >= 0x20 && c != 0x7f;
}

static bool account_device_char(unsigned char c)
{
    return c >= 0x21 && c <= 0x7e;
}

/* NULL when s is min..max bytes of allowed characters; else why not (bad_len, bad_char). */
static const char *account_text_error(const char *s, size_t min, size_t max,
                                      bool (*allowed)(unsigned char), const char *bad_len,
                                      const char *bad_char)
{
    size_t n = s ? strlen(s) : 0;
    if (n < min || n > max)
        return bad_len;
    for (size_t i = 0; i < n; i++)
        if (!allowed((unsigned char)s[i]))
            return bad_char;
    return NULL;
}

const char *dh_account_name_error(const char *name)
{
    return account_text_error(name, DH_ACCOUNT_NAME_MIN, DH_ACCOUNT_NAME_MAX, account_name_char,
                              "account name must be 3-24 characters",
                              "account name may hold only letters, digits, '.', '-' and '_'");
}

const char *dh_account_password_error(const char *password)
{
    return account_text_error(password, DH_ACCOUNT_PASSWORD_MIN, DH_ACCOUNT_PASSWORD_MAX,
                              account_password_char, "password must be 8-128 bytes",
                              "password must not hold control characters");
}

const char *dh_account_device_error(const char *device_id)
{
    return account_text_error(device_id, DH_ACCOUNT_DEVICE_MIN, DH_ACCOUNT_DEVICE_MAX,
                              account_device_char, "device id must be 16-128 characters",
                              "device id must be printable ASCII without spaces");
}

void dh_account_name_key(const char *name, char *out)
{
    size_t i = 0;
    for (; name[i] && i < DH_ACCOUNT_NAME_MAX; i++)
        out[i] = (char)tolower((unsigned char)name[i]);
    out[i] = '\0';
}

void dh_account_device_shown(const char *name, const char *id, char *out)
{
    size_t n = strlen(id);
    const char *tag = n > DH_ACCOUNT_DEVICE_TAG ? id + n - DH_ACCOUNT_DEVICE_TAG : id;
    snprintf(out, DH_ACCOUNT_SHOWN_MAX, "%.*s#%s", DH_ACCOUNT_NAME_MAX, name, tag);
}

void dh_account_guest_shown(const char *name, char *out)
{
    snprintf(out, DH_ACCOUNT_SHOWN_MAX, "%.*s" DH_ACCOUNT_GUEST_MARK,
             (int)(DH_ACCOUNT_SHOWN_MAX - sizeof DH_ACCOUNT_GUEST_MARK), name);
}

int dh_account_hash(const char *password, char *out)
{
    _Static_assert(DH_ACCOUNT_HASH_MAX >= crypto_pwhash_STRBYTES, "hash buffer too small");
    return crypto_pwhash_str_alg(out, password, strlen(password), DH_ACCOUNT_OPSLIMIT,
                                 DH_ACCOUNT_MEMLIMIT, crypto_pwhash_ALG_ARGON2ID13) == 0
               ? 0
               : -1;
}

bool dh_account_verify(const char *stored, const char *password)
{
    if (!stored || strnlen(stored, DH_ACCOUNT_HASH_MAX) >= DH_ACCOUNT_HASH_MAX)
        return false;
    return crypto_pwhash_str_verify(stored, password, strlen(password)) == 0;
}

static char dummy_hash[DH_ACCOUNT_HASH_MAX];
static pthread_once_t dummy_once = PTHREAD_ONCE_INIT;

static void account_make_dummy(void)
{
    uint8_t r[16];
    char pw[2 * sizeof r + 1];
    if (dh_random_bytes(r, sizeof r) < 0) {
        dummy_hash[0] = '\0';
        return;
    }
    sodium_bin2hex(pw, sizeof pw, r, sizeof r);
    if (dh_account_hash(pw, dummy_hash) < 0)
        dummy_hash[0] = '\0'; /* verify then fails fast: only when memory ran out */
}

const char *dh_account_dummy_hash(void)
{
    pthread_once(&dummy_once, account_make_dummy);
    return dummy_hash;
}

void dh_account_device_digest(const char *device_id, char *out)
{
    static const char label[] = "deckhand device id|";
    uint8_t md[32];
    crypto_generichash_state st;
    crypto_generichash_init(&st, NULL, 0, sizeof md);
    crypto_generichash_update(&st, (const uint8_t *)label, sizeof label - 1);
    crypto_generichash_update(&st, (const uint8_t *)device_id, strlen(device_id));
    crypto_generichash_final(&st, md, sizeof md);
    sodium_bin2hex(out, DH_ACCOUNT_DIGEST_LEN + 1, md, sizeof md);
}

int dh_account_new_id(char *out)
{
    uint8_t r[8];
    if (dh_random_bytes(r, sizeof r) < 0)
        return -1;
    memcpy(out, DH_TOKEN_ACCOUNT_PREFIX, 2);
    sodium_bin2hex(out + 2, DH_ACCOUNT_ID_LEN - 1, r, sizeof r);
    return 0;
}
