/*
 * test_token.c: signed session tokens (common/dh_token.h): what a valid token resumes and
 * every way a token must be refused.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "dh_token.h"

static const uint8_t key[] = "0123456789abcdef0123456789abcdef";
static const uint8_t other[] = "fedcba9876543210fedcba9876543210";
#define KEYLEN 32

/* A token of player "p-1" called "alice", expiring at 2000, signed with key into tok
 * (DH_TOKEN_MAX bytes). */
static void sign_alice(char *tok)
{
    CU_ASSERT_EQUAL_FATAL(dh_token_sign(key, KEYLEN, "p-1", "alice", 2000, tok, DH_TOKEN_MAX), 0);
}

/* tok checked with k at now; the claims are not looked at. */
static dh_token_status verify(const uint8_t *k, const char *tok, int64_t now)
{
    dh_token_claims c;
    return dh_token_verify(k, KEYLEN, tok, now, &c);
}

static void test_token_round_trip(void)
{
    char tok[DH_TOKEN_MAX];
    dh_token_claims c;
    CU_ASSERT_EQUAL_FATAL(
        dh_token_sign(key, KEYLEN, "p-0123456789abcdef", "Alice | Bob", 2000, tok, sizeof tok), 0);
    CU_ASSERT_EQUAL_FATAL(dh_token_verify(key, KEYLEN, tok, 1000, &c), DH_TOKEN_OK);
    CU_ASSERT_STRING_EQUAL(c.player_id, "p-0123456789abcdef");
    CU_ASSERT_STRING_EQUAL(c.name, "Alice | Bob");
    CU_ASSERT_EQUAL(c.expiry, 2000);
}

static void test_token_tampered_payload_rejected(void)
{
    char tok[DH_TOKEN_MAX];
    sign_alice(tok);
    for (size_t i = 0; tok[i] && tok[i] != '.'; i++) {
        char saved = tok[i];
        tok[i] = saved == 'A' ? 'B' : 'A';
        CU_ASSERT_NOT_EQUAL(verify(key, tok, 1000), DH_TOKEN_OK);
        tok[i] = saved;
    }
    CU_ASSERT_EQUAL(verify(key, tok, 1000), DH_TOKEN_OK);
}

static void test_token_tampered_signature_rejected(void)
{
    char tok[DH_TOKEN_MAX];
    sign_alice(tok);
    char *sig = strchr(tok, '.') + 1;
    sig[3] = sig[3] == 'x' ? 'y' : 'x';
    CU_ASSERT_EQUAL(verify(key, tok, 1000), DH_TOKEN_BAD_SIGNATURE);
}

static void test_token_expired_rejected(void)
{
    char tok[DH_TOKEN_MAX];
    sign_alice(tok);
    CU_ASSERT_EQUAL(verify(key, tok, 1999), DH_TOKEN_OK);
    CU_ASSERT_EQUAL(verify(key, tok, 2000), DH_TOKEN_EXPIRED);
    CU_ASSERT_EQUAL(verify(key, tok, 5000), DH_TOKEN_EXPIRED);
}

static void test_token_wrong_key_rejected(void)
{
    char tok[DH_TOKEN_MAX];
    sign_alice(tok);
    CU_ASSERT_EQUAL(verify(other, tok, 1000), DH_TOKEN_BAD_SIGNATURE);
}

static void test_token_garbage_rejected(void)
{
    const char *bad[] = {"", ".", "abc", "abc.", ".abc", "a.b.c", "!!!.???", "dGVzdA.dGVzdA"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_NOT_EQUAL(verify(key, bad[i], 1000), DH_TOKEN_OK);
    char longtok[DH_TOKEN_MAX + 10];
    memset(longtok, 'A', sizeof longtok - 1);
    longtok[sizeof longtok - 1] = '\0';
    CU_ASSERT_EQUAL(verify(key, longtok, 1000), DH_TOKEN_MALFORMED);
}

static void test_token_sign_refuses_bad_fields(void)
{
    char tok[DH_TOKEN_MAX];
    CU_ASSERT_EQUAL(dh_token_sign(key, KEYLEN, "", "alice", 2000, tok, sizeof tok), -1);
    CU_ASSERT_EQUAL(dh_token_sign(key, KEYLEN, "p|1", "alice", 2000, tok, sizeof tok), -1);
    CU_ASSERT_EQUAL(dh_token_sign(key, KEYLEN, "p-1", "", 2000, tok, sizeof tok), -1);
    CU_ASSERT_EQUAL(dh_token_sign(key, KEYLEN, "p-1", "a\nb", 2000, tok, sizeof tok), -1);
    CU_ASSERT_EQUAL(dh_token_sign(key, 8, "p-1", "alice", 2000, tok, sizeof tok), -1);
    CU_ASSERT_EQUAL(dh_token_sign(key, KEYLEN, "p-1", "alice", 2000, tok, 10), -1);
}

static void test_token_random_keys_differ(void)
{
    uint8_t a[DH_TOKEN_RANDOM_KEY], b[DH_TOKEN_RANDOM_KEY];
    CU_ASSERT_EQUAL(dh_token_random_key(a, sizeof a), 0);
    CU_ASSERT_EQUAL(dh_token_random_key(b, sizeof b), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a, b, sizeof a), 0);
}

/* Random single-byte edits of a valid token are all refused (AddressSanitizer watches). */
static void test_token_random_edits_refused(void)
{
    char tok[DH_TOKEN_MAX], t2[DH_TOKEN_MAX];
    unsigned seed = 99;
    sign_alice(tok);
    size_t n = strlen(tok);
    for (int round = 0; round < 5000; round++) {
        memcpy(t2, tok, n + 1);
        size_t i = (size_t)rand_r(&seed) % n;
        char ch = (char)(1 + rand_r(&seed) % 255);
        if (ch == t2[i])
            continue;
        t2[i] = ch;
        CU_ASSERT_NOT_EQUAL_FATAL(verify(key, t2, 1000), DH_TOKEN_OK);
    }
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"token_round_trip", test_token_round_trip},
        {"token_tampered_payload_rejected", test_token_tampered_payload_rejected},
        {"token_tampered_signature_rejected", test_token_tampered_signature_rejected},
        {"token_expired_rejected", test_token_expired_rejected},
        {"token_wrong_key_rejected", test_token_wrong_key_rejected},
        {"token_garbage_rejected", test_token_garbage_rejected},
        {"token_sign_refuses_bad_fields", test_token_sign_refuses_bad_fields},
        {"token_random_keys_differ", test_token_random_keys_differ},
        {"token_random_edits_refused", test_token_random_edits_refused},
        {NULL, NULL},
    };
    return dh_test_main("token", cases);
}
