/*
 * test_token_rotation.c: rotating the gateways' token key (common/dh_token.h, the key
 * ring): a token names its key, a token signed with the previous key stays valid for the
 * configured window and is refused after it, a key the ring does not hold is refused, and
 * tokens made before key ids existed still resume.
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>

#include "dh_test.h"
#include "dh_token.h"

static const uint8_t old_key[] = "0123456789abcdef0123456789abcdef";
static const uint8_t new_key[] = "fedcba9876543210fedcba9876543210";
static const uint8_t stray_key[] = "a stray key nobody configured!!!";
#define KEYLEN 32

/* A ring holding cur and, when prev is not NULL, prev until until. */
static void ring_of(dh_token_ring *r, const uint8_t *cur, const uint8_t *prev, int64_t until)
{
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_init(r, cur, KEYLEN), 0);
    if (prev)
        CU_ASSERT_EQUAL_FATAL(dh_token_ring_set_previous(r, prev, KEYLEN, until), 0);
}

/* base64url without padding, as tokens spell it. */
static void b64url(const uint8_t *in, size_t n, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
                     (i + 2 < n ? in[i + 2] : 0);
        out[o++] = a[v >> 18 & 63];
        out[o++] = a[v >> 12 & 63];
        if (i + 1 < n)
            out[o++] = a[v >> 6 & 63];
        if (i + 2 < n)
            out[o++] = a[v & 63];
    }
    out[o] = '\0';
}

/* A token in the first format, "v1|expiry|id|name" with no key id, signed with k: what
 * gateways handed out before key ids existed. */
static void sign_v1(const uint8_t *k, const char *payload, char *out)
{
    uint8_t mac[32];
    unsigned int maclen = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(HMAC(EVP_sha256(), k, KEYLEN, (const unsigned char *)payload,
                                      strlen(payload), mac, &maclen));
    b64url((const uint8_t *)payload, strlen(payload), out);
    strcat(out, ".");
    b64url(mac, sizeof mac, out + strlen(out));
}

static dh_token_status ring_verify(const dh_token_ring *r, const char *tok, int64_t now)
{
    dh_token_claims c;
    return dh_token_ring_verify(r, tok, now, &c);
}

static void test_token_names_its_key(void)
{
    dh_token_ring a, b;
    char tok[DH_TOKEN_MAX], kid[DH_TOKEN_KID_MAX];
    ring_of(&a, old_key, NULL, 0);
    ring_of(&b, new_key, NULL, 0);
    CU_ASSERT_STRING_NOT_EQUAL(a.current.id, b.current.id);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&a, "p-1", "alice", 9000, tok, sizeof tok), 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_key_id_of(tok, kid, sizeof kid), 0);
    CU_ASSERT_STRING_EQUAL(kid, a.current.id);
}

static void test_token_rotation_keeps_old_token_in_window(void)
{
    dh_token_ring before, after;
    char tok[DH_TOKEN_MAX];
    dh_token_claims c;
    ring_of(&before, old_key, NULL, 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&before, "p-1", "alice", 9000, tok, sizeof tok), 0);
    /* rotated at 1000: the old key is accepted until 5000 */
    ring_of(&after, new_key, old_key, 5000);
    CU_ASSERT_EQUAL(dh_token_ring_verify(&after, tok, 1000, &c), DH_TOKEN_OK);
    CU_ASSERT_STRING_EQUAL(c.player_id, "p-1");
    CU_ASSERT_STRING_EQUAL(c.name, "alice");
    CU_ASSERT_EQUAL(ring_verify(&after, tok, 4999), DH_TOKEN_OK);
    /* new tokens are signed with the new key, which the ring of a rotated gateway holds */
    char fresh[DH_TOKEN_MAX];
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&after, "p-1", "alice", 9000, fresh, sizeof fresh), 0);
    CU_ASSERT_EQUAL(ring_verify(&after, fresh, 4999), DH_TOKEN_OK);
    CU_ASSERT_EQUAL(ring_verify(&after, fresh, 8000), DH_TOKEN_OK);
}

static void test_token_rotation_refuses_old_token_after_window(void)
{
    dh_token_ring before, after;
    char tok[DH_TOKEN_MAX];
    ring_of(&before, old_key, NULL, 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&before, "p-1", "alice", 9000, tok, sizeof tok), 0);
    ring_of(&after, new_key, old_key, 5000);
    CU_ASSERT_EQUAL(ring_verify(&after, tok, 5000), DH_TOKEN_KEY_RETIRED);
    CU_ASSERT_EQUAL(ring_verify(&after, tok, 8000), DH_TOKEN_KEY_RETIRED);
    /* a ring without the previous key at all refuses it as a foreign signature */
    dh_token_ring only_new;
    ring_of(&only_new, new_key, NULL, 0);
    CU_ASSERT_EQUAL(ring_verify(&only_new, tok, 1000), DH_TOKEN_BAD_SIGNATURE);
}

static void test_token_rotation_refuses_unknown_key(void)
{
    dh_token_ring stray, ring;
    char tok[DH_TOKEN_MAX];
    ring_of(&stray, stray_key, NULL, 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&stray, "p-1", "alice", 9000, tok, sizeof tok), 0);
    ring_of(&ring, new_key, old_key, 5000);
    CU_ASSERT_EQUAL(ring_verify(&ring, tok, 1000), DH_TOKEN_BAD_SIGNATURE);
}

/* A token that names the current key's id but was signed by another key (a forged id) is
 * still refused: the id only picks the key, the signature decides. */
static void test_token_forged_key_id_refused(void)
{
    dh_token_ring ring;
    char tok[DH_TOKEN_MAX];
    ring_of(&ring, new_key, NULL, 0);
    dh_token_ring forger = ring;
    memcpy(forger.current.key, stray_key, KEYLEN); /* same id, other key */
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&forger, "p-1", "alice", 9000, tok, sizeof tok), 0);
    CU_ASSERT_EQUAL(ring_verify(&ring, tok, 1000), DH_TOKEN_BAD_SIGNATURE);
}

/* A v1 token (no key id, made before rotation existed) resumes under the key that signed
 * it, current or previous within the window. */
static void test_token_unnamed_v1_token_still_resumes(void)
{
    char v1[DH_TOKEN_MAX];
    sign_v1(old_key, "v1|9000|p-1|alice", v1);
    dh_token_ring same, rotated;
    ring_of(&same, old_key, NULL, 0);
    ring_of(&rotated, new_key, old_key, 5000);
    CU_ASSERT_EQUAL(ring_verify(&same, v1, 1000), DH_TOKEN_OK);
    CU_ASSERT_EQUAL(ring_verify(&rotated, v1, 1000), DH_TOKEN_OK);
    CU_ASSERT_EQUAL(ring_verify(&rotated, v1, 6000), DH_TOKEN_KEY_RETIRED);
}

static void test_token_ring_refuses_short_keys(void)
{
    dh_token_ring r;
    CU_ASSERT_EQUAL(dh_token_ring_init(&r, old_key, 8), -1);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_init(&r, old_key, KEYLEN), 0);
    CU_ASSERT_EQUAL(dh_token_ring_set_previous(&r, new_key, 8, 100), -1);
    CU_ASSERT_EQUAL(dh_token_ring_set_previous(&r, old_key, KEYLEN, 100), -1); /* same key */
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"token_names_its_key", test_token_names_its_key},
        {"token_rotation_keeps_old_token_in_window", test_token_rotation_keeps_old_token_in_window},
        {"token_rotation_refuses_old_token_after_window",
         test_token_rotation_refuses_old_token_after_window},
        {"token_rotation_refuses_unknown_key", test_token_rotation_refuses_unknown_key},
        {"token_forged_key_id_refused", test_token_forged_key_id_refused},
        {"token_unnamed_v1_token_still_resumes", test_token_unnamed_v1_token_still_resumes},
        {"token_ring_refuses_short_keys", test_token_ring_refuses_short_keys},
        {NULL, NULL},
    };
    return dh_test_main("token_rotation", cases);
}
