/*
 * test_token_account.c: what a session token says about the kind of player it names
 * (common/dh_token.h, v3): an account's token carries its account id and says so, a
 * guest's says guest, a v2 token of before accounts still resumes its guest, and a token
 * whose kind disagrees with its id is refused even when correctly signed.
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "dh_token.h"

static const uint8_t key[] = "0123456789abcdef0123456789abcdef";
#define KEYLEN 32

/* base64url without padding of n bytes into out. */
static void b64url(const uint8_t *in, size_t n, char *out)
{
    char std[512];
    int len = EVP_EncodeBlock((unsigned char *)std, in, (int)n);
    size_t o = 0;
    for (int i = 0; i < len && std[i] != '='; i++)
        out[o++] = std[i] == '+' ? '-' : std[i] == '/' ? '_' : std[i];
    out[o] = '\0';
}

/* A token of any payload, signed with key as the gateway signs (HMAC-SHA256). */
static void sign_payload(const char *payload, char *tok)
{
    uint8_t mac[32];
    unsigned maclen = 0;
    HMAC(EVP_sha256(), key, KEYLEN, (const unsigned char *)payload, strlen(payload), mac, &maclen);
    b64url((const uint8_t *)payload, strlen(payload), tok);
    strcat(tok, ".");
    b64url(mac, maclen, tok + strlen(tok));
}

static const char *key_id(void)
{
    static dh_token_ring r;
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_init(&r, key, KEYLEN), 0);
    return r.current.id;
}

static void test_token_carries_an_account(void)
{
    dh_token_ring r;
    dh_token_claims c;
    char tok[DH_TOKEN_MAX];
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_init(&r, key, KEYLEN), 0);
    CU_ASSERT_EQUAL_FATAL(
        dh_token_ring_sign(&r, "a-00112233445566ff", "Alice", 2000, tok, sizeof tok), 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_verify(&r, tok, 1000, &c), DH_TOKEN_OK);
    CU_ASSERT_TRUE(c.account);
    CU_ASSERT_STRING_EQUAL(c.player_id, "a-00112233445566ff");
    CU_ASSERT_STRING_EQUAL(c.name, "Alice");
}

static void test_token_of_a_guest_says_guest(void)
{
    dh_token_ring r;
    dh_token_claims c;
    char tok[DH_TOKEN_MAX];
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_init(&r, key, KEYLEN), 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_sign(&r, "p-0011", "Bob", 2000, tok, sizeof tok), 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_ring_verify(&r, tok, 1000, &c), DH_TOKEN_OK);
    CU_ASSERT_FALSE(c.account);
    CU_ASSERT_STRING_EQUAL(c.player_id, "p-0011");
}

static void test_token_v2_of_before_accounts_resumes_its_guest(void)
{
    char payload[128], tok[DH_TOKEN_MAX];
    dh_token_claims c;
    snprintf(payload, sizeof payload, "v2|%s|2000|p-77|Carol", key_id());
    sign_payload(payload, tok);
    CU_ASSERT_EQUAL_FATAL(dh_token_verify(key, KEYLEN, tok, 1000, &c), DH_TOKEN_OK);
    CU_ASSERT_FALSE(c.account);
    CU_ASSERT_STRING_EQUAL(c.player_id, "p-77");
    CU_ASSERT_STRING_EQUAL(c.name, "Carol");
}

static void test_token_kind_must_agree_with_the_id(void)
{
    char payload[128], tok[DH_TOKEN_MAX];
    dh_token_claims c;
    snprintf(payload, sizeof payload, "v3|%s|2000|g|a-99|Mallory", key_id());
    sign_payload(payload, tok);
    CU_ASSERT_EQUAL(dh_token_verify(key, KEYLEN, tok, 1000, &c), DH_TOKEN_MALFORMED);
    snprintf(payload, sizeof payload, "v3|%s|2000|a|p-99|Mallory", key_id());
    sign_payload(payload, tok);
    CU_ASSERT_EQUAL(dh_token_verify(key, KEYLEN, tok, 1000, &c), DH_TOKEN_MALFORMED);
    snprintf(payload, sizeof payload, "v3|%s|2000|x|p-99|Mallory", key_id());
    sign_payload(payload, tok);
    CU_ASSERT_EQUAL(dh_token_verify(key, KEYLEN, tok, 1000, &c), DH_TOKEN_MALFORMED);
    /* a v2 token cannot name an account: accounts came with v3 */
    snprintf(payload, sizeof payload, "v2|%s|2000|a-99|Mallory", key_id());
    sign_payload(payload, tok);
    CU_ASSERT_EQUAL(dh_token_verify(key, KEYLEN, tok, 1000, &c), DH_TOKEN_MALFORMED);
}

static void test_token_account_id_prefix(void)
{
    CU_ASSERT_TRUE(dh_token_is_account_id("a-1"));
    CU_ASSERT_FALSE(dh_token_is_account_id("p-1"));
    CU_ASSERT_FALSE(dh_token_is_account_id("a"));
    CU_ASSERT_FALSE(dh_token_is_account_id(""));
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"token_carries_an_account", test_token_carries_an_account},
        {"token_of_a_guest_says_guest", test_token_of_a_guest_says_guest},
        {"token_v2_of_before_accounts_resumes_its_guest",
         test_token_v2_of_before_accounts_resumes_its_guest},
        {"token_kind_must_agree_with_the_id", test_token_kind_must_agree_with_the_id},
        {"token_account_id_prefix", test_token_account_id_prefix},
        {NULL, NULL},
    };
    return dh_test_main("token_account", cases);
}
