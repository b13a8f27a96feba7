/*
 * dh_token.c: see dh_token.h. OpenSSL does the HMAC, the key ids' SHA-256 and the
 * constant-time comparison;
 * the base64url codec is local because OpenSSL only offers the padded standard alphabet.
 */
#include "dh_token.h"

#include <inttypes.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dh_random.h"

#define TOKEN_MAC_LEN      32
#define TOKEN_PAYLOAD_MAX  168
#define TOKEN_KIND_GUEST   "g"
#define TOKEN_KIND_ACCOUNT "a"

static const char b64url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* Encode n bytes without padding; returns the length written, or 0 when out is short. */
static size_t b64url_encode(const uint8_t *in, size_t n, char *out, size_t outlen)
{
    size_t need = (n / 3) * 4 + (n % 3 ? n % 3 + 1 : 0);
    if (need + 1 > outlen)
        return 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[o++] = b64url[v >> 18 & 63];
        out[o++] = b64url[v >> 12 & 63];
        if (i + 1 < n)
            out[o++] = b64url[v >> 6 & 63];
        if (i + 2 < n)
            out[o++] = b64url[v & 63];
    }
    out[o] = '\0';
    return o;
}

static int b64url_value(char c)
{
    const char *p = c ? strchr(b64url, c) : NULL;
    return p ? (int)(p - b64url) : -1;
}

/* Decode n characters; returns the bytes written or -1 on a bad character, a bad length
 * or a short buffer. */
static long b64url_decode(const char *in, size_t n, uint8_t *out, size_t outlen)
{
    if (n % 4 == 1)
        return -1;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64url_value(in[i]);
        if (v < 0)
            return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (o >= outlen)
                return -1;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (acc != 0) /* non-canonical trailing bits: one token, one spelling */
        return -1;
    return (long)o;
}

static bool token_id_valid(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n >= DH_TOKEN_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return false;
    }
    return true;
}

static bool token_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= DH_TOKEN_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            return false;
    return true;
}

static int token_mac(const uint8_t *key, size_t keylen, const char *payload, size_t n,
                     uint8_t mac[TOKEN_MAC_LEN])
{
    unsigned int maclen = 0;
    if (!HMAC(EVP_sha256(), key, (int)keylen, (const unsigned char *)payload, n, mac, &maclen) ||
        maclen != TOKEN_MAC_LEN)
        return -1;
    return 0;
}

/* The id of a key: 6 bytes of SHA-256("deckhand token key id|" key), 8 characters. */
static void token_key_id(const uint8_t *key, size_t keylen, char out[DH_TOKEN_KID_MAX])
{
    static const char label[] = "deckhand token key id|";
    uint8_t md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
        EVP_DigestUpdate(ctx, label, sizeof label - 1) != 1 ||
        EVP_DigestUpdate(ctx, key, keylen) != 1 || EVP_DigestFinal_ex(ctx, md, &mdlen) != 1)
        memset(md, 0, sizeof md); /* only on allocation failure: a fixed, harmless id */
    EVP_MD_CTX_free(ctx);
    b64url_encode(md, 6, out, DH_TOKEN_KID_MAX);
}

/* An account's id starts with DH_TOKEN_ACCOUNT_PREFIX and a guest's never does: the kind a
 * token names must agree with its id. */
static bool token_kind_valid(const char *player_id, bool account)
{
    return dh_token_is_account_id(player_id) == account;
}

static int token_sign_as(const uint8_t *key, size_t keylen, const char *kid, const char *player_id,
                         const char *name, bool account, int64_t expiry, char *out, size_t outlen)
{
    char payload[TOKEN_PAYLOAD_MAX];
    uint8_t mac[TOKEN_MAC_LEN];
    if (keylen < DH_TOKEN_KEY_MIN || !token_id_valid(player_id) || !token_name_valid(name) ||
        !token_kind_valid(player_id, account))
        return -1;
    int n = snprintf(payload, sizeof payload, "v3|%s|%" PRId64 "|%s|%s|%s", kid, expiry,
                     account ? TOKEN_KIND_ACCOUNT : TOKEN_KIND_GUEST, player_id, name);
    if (n < 0 || (size_t)n >= sizeof payload)
        return -1;
    if (token_mac(key, keylen, payload, (size_t)n, mac) < 0)
        return -1;
    size_t a = b64url_encode((const uint8_t *)payload, (size_t)n, out, outlen);
    if (a == 0 || a + 2 > outlen)
        return -1;
    out[a] = '.';
    if (b64url_encode(mac, sizeof mac, out + a + 1, outlen - a - 1) == 0)
        return -1;
    return 0;
}

int dh_token_sign(const uint8_t *key, size_t keylen, const char *player_id, const char *name,
                  int64_t expiry, char *out, size_t outlen)
{
    char kid[DH_TOKEN_KID_MAX];
    if (keylen < DH_TOKEN_KEY_MIN)
        return -1;
    token_key_id(key, keylen, kid);
    return token_sign_as(key, keylen, kid, player_id, name, dh_token_is_account_id(player_id),
                         expiry, out, outlen);
}

/* Split "v3|kid|expiry|kind|id|name", "v2|kid|expiry|id|name" or "v1|expiry|id|name" (kid
 * "") into claims; v1 and v2 tokens are guests'. */
static bool token_parse_payload(const char *p, char kid[DH_TOKEN_KID_MAX], dh_token_claims *c)
{
    kid[0] = '\0';
    bool v3 = strncmp(p, "v3|", 3) == 0;
    if (v3 || strncmp(p, "v2|", 3) == 0) {
        const char *bar = strchr(p + 3, '|');
        if (!bar || bar == p + 3 || (size_t)(bar - (p + 3)) >= DH_TOKEN_KID_MAX)
            return false;
        memcpy(kid, p + 3, (size_t)(bar - (p + 3)));
        kid[bar - (p + 3)] = '\0';
        p = bar + 1;
    } else if (strncmp(p, "v1|", 3) == 0) {
        p += 3;
    } else {
        return false;
    }
    char *end = NULL;
    long long exp = strtoll(p, &end, 10);
    if (end == p || *end != '|')
        return false;
    const char *id = end + 1;
    c->account = false;
    if (v3) {
        if (strncmp(id, TOKEN_KIND_ACCOUNT "|", 2) == 0)
            c->account = true;
        else if (strncmp(id, TOKEN_KIND_GUEST "|", 2) != 0)
            return false;
        id += 2;
    }
    const char *bar = strchr(id, '|');
    if (!bar || (size_t)(bar - id) >= sizeof c->player_id)
        return false;
    memcpy(c->player_id, id, (size_t)(bar - id));
    c->player_id[bar - id] = '\0';
    if (strlen(bar + 1) >= sizeof c->name)
        return false;
    strcpy(c->name, bar + 1);
    c->expiry = exp;
    return token_id_valid(c->player_id) && token_name_valid(c->name) &&
           token_kind_valid(c->player_id, c->account);
}

/* Decode token into its payload (a C string, TOKEN_PAYLOAD_MAX bytes) and MAC. */
static dh_token_status token_decode(const char *token, char *payload, uint8_t mac[TOKEN_MAC_LEN])
{
    if (!token || strnlen(token, DH_TOKEN_MAX) >= DH_TOKEN_MAX)
        return DH_TOKEN_MALFORMED;
    const char *dot = strchr(token, '.');
    if (!dot)
        return DH_TOKEN_MALFORMED;
    long plen =
        b64url_decode(token, (size_t)(dot - token), (uint8_t *)payload, TOKEN_PAYLOAD_MAX - 1);
    long mlen = b64url_decode(dot + 1, strlen(dot + 1), mac, TOKEN_MAC_LEN);
    if (plen <= 0 || mlen != TOKEN_MAC_LEN)
        return DH_TOKEN_MALFORMED;
    payload[plen] = '\0';
    if (memchr(payload, '\0', (size_t)plen))
        return DH_TOKEN_MALFORMED;
    return DH_TOKEN_OK;
}

/* The key id a decoded, not yet trusted payload names ("" for v1); only picks a key. */
static void token_peek_kid(const char *payload, char kid[DH_TOKEN_KID_MAX])
{
    kid[0] = '\0';
    if (strncmp(payload, "v2|", 3) != 0 && strncmp(payload, "v3|", 3) != 0)
        return;
    size_t n = strcspn(payload + 3, "|");
    if (n < DH_TOKEN_KID_MAX) {
        memcpy(kid, payload + 3, n);
        kid[n] = '\0';
    }
}

/* Check a decoded token against one key (whose id is kid). */
static dh_token_status token_check(const dh_token_key *k, const char *payload,
                                   const uint8_t mac[TOKEN_MAC_LEN], int64_t now,
                                   dh_token_claims *claims)
{
    uint8_t want[TOKEN_MAC_LEN];
    char named[DH_TOKEN_KID_MAX];
    dh_token_claims c;
    /* The signature is checked before the payload is trusted for anything. */
    if (k->len < DH_TOKEN_KEY_MIN ||
        token_mac(k->key, k->len, payload, strlen(payload), want) < 0 ||
        CRYPTO_memcmp(mac, want, TOKEN_MAC_LEN) != 0)
        return DH_TOKEN_BAD_SIGNATURE;
    if (!token_parse_payload(payload, named, &c))
        return DH_TOKEN_MALFORMED;
    if (named[0] && strcmp(named, k->id) != 0)
        return DH_TOKEN_BAD_SIGNATURE;
    if (c.expiry <= now)
        return DH_TOKEN_EXPIRED;
    *claims = c;
    return DH_TOKEN_OK;
}

static int token_key_set(dh_token_key *k, const uint8_t *key, size_t keylen)
{
    if (keylen < DH_TOKEN_KEY_MIN || keylen > sizeof k->key)
        return -1;
    memcpy(k->key, key, keylen);
    k->len = keylen;
    token_key_id(key, keylen, k->id);
    return 0;
}

dh_token_status dh_token_verify(const uint8_t *key, size_t keylen, const char *token, int64_t now,
                                dh_token_claims *claims)
{
    char payload[TOKEN_PAYLOAD_MAX];
    uint8_t mac[TOKEN_MAC_LEN];
    dh_token_key k;
    dh_token_status st = token_decode(token, payload, mac);
    if (st != DH_TOKEN_OK)
        return st;
    if (token_key_set(&k, key, keylen) < 0)
        return DH_TOKEN_BAD_SIGNATURE;
    return token_check(&k, payload, mac, now, claims);
}

int dh_token_ring_init(dh_token_ring *r, const uint8_t *key, size_t keylen)
{
    memset(r, 0, sizeof *r);
    return token_key_set(&r->current, key, keylen);
}

int dh_token_ring_set_previous(dh_token_ring *r, const uint8_t *key, size_t keylen, int64_t until)
{
    if (keylen == r->current.len && memcmp(key, r->current.key, keylen) == 0)
        return -1;
    if (token_key_set(&r->previous, key, keylen) < 0)
        return -1;
    r->previous_until = until;
    return 0;
}

int dh_token_ring_sign(const dh_token_ring *r, const char *player_id, const char *name,
                       int64_t expiry, char *out, size_t outlen)
{
    return token_sign_as(r->current.key, r->current.len, r->current.id, player_id, name,
                         dh_token_is_account_id(player_id), expiry, out, outlen);
}

/* Check against the previous key: valid only inside its window. */
static dh_token_status token_check_previous(const dh_token_ring *r, const char *payload,
                                            const uint8_t mac[TOKEN_MAC_LEN], int64_t now,
                                            dh_token_claims *claims)
{
    dh_token_claims c;
    if (!r->previous.len)
        return DH_TOKEN_BAD_SIGNATURE;
    dh_token_status st = token_check(&r->previous, payload, mac, now, &c);
    if (st == DH_TOKEN_OK && now >= r->previous_until)
        return DH_TOKEN_KEY_RETIRED;
    if (st == DH_TOKEN_OK)
        *claims = c;
    return st;
}

dh_token_status dh_token_ring_verify(const dh_token_ring *r, const char *token, int64_t now,
                                     dh_token_claims *claims)
{
    char payload[TOKEN_PAYLOAD_MAX], kid[DH_TOKEN_KID_MAX];
    uint8_t mac[TOKEN_MAC_LEN];
    dh_token_status st = token_decode(token, payload, mac);
    if (st != DH_TOKEN_OK)
        return st;
    token_peek_kid(payload, kid);
    if (kid[0] && r->previous.len && strcmp(kid, r->previous.id) == 0)
        return token_check_previous(r, payload, mac, now, claims);
    st = token_check(&r->current, payload, mac, now, claims);
    if (st == DH_TOKEN_BAD_SIGNATURE && !kid[0]) /* v1: whichever key signed it */
        st = token_check_previous(r, payload, mac, now, claims);
    return st;
}

int dh_token_key_id_of(const char *token, char *out, size_t outlen)
{
    char payload[TOKEN_PAYLOAD_MAX], kid[DH_TOKEN_KID_MAX];
    uint8_t mac[TOKEN_MAC_LEN];
    if (token_decode(token, payload, mac) != DH_TOKEN_OK)
        return -1;
    token_peek_kid(payload, kid);
    if (!kid[0] || strlen(kid) >= outlen)
        return -1;
    strcpy(out, kid);
    return 0;
}

const char *dh_token_status_str(dh_token_status s)
{
    switch (s) {
    case DH_TOKEN_OK:
        return "ok";
    case DH_TOKEN_MALFORMED:
        return "malformed token";
    case DH_TOKEN_BAD_SIGNATURE:
        return "bad token signature";
    case DH_TOKEN_EXPIRED:
        return "token expired";
    case DH_TOKEN_KEY_RETIRED:
        return "token key retired";
    }
    return "bad token";
}

bool dh_token_is_account_id(const char *player_id)
{
    return strncmp(player_id, DH_TOKEN_ACCOUNT_PREFIX, sizeof DH_TOKEN_ACCOUNT_PREFIX - 1) == 0;
}

int dh_token_random_key(uint8_t *key, size_t n)
{
    return dh_random_bytes(key, n);
}
