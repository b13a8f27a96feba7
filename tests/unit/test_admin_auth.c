/*
 * test_admin_auth.c: the admin API's bearer tokens (common/dh_admin_auth.h): named and
 * bare tokens parse, a request's header is matched to its token's name, and a wrong,
 * partial, longer, missing or malformed one names nobody; bad secrets are refused whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_admin_auth.h"
#include "dh_test.h"

#define ALICE "alice:0123456789abcdef0123"
#define BARE  "ffffffffffffffffffff"

static void test_admin_auth_names_the_token_presented(void)
{
    dh_admin_auth a;
    CU_ASSERT_EQUAL_FATAL(dh_admin_auth_parse(&a, "# operators\n" ALICE "\r\n\n" BARE "\n"), 0);
    CU_ASSERT_EQUAL(a.n, 2);
    const char *who = dh_admin_auth_check(&a, "Bearer 0123456789abcdef0123");
    CU_ASSERT_PTR_NOT_NULL_FATAL(who);
    CU_ASSERT_STRING_EQUAL(who, "alice");
    who = dh_admin_auth_check(&a, "bearer  " BARE " ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(who);
    CU_ASSERT_STRING_EQUAL(who, "admin");
    /* the secret itself is not kept, only its digest */
    CU_ASSERT_PTR_NULL(memmem(&a, sizeof a, "0123456789abcdef0123", 20));
}

static void test_admin_auth_refuses_wrong_tokens(void)
{
    dh_admin_auth a;
    CU_ASSERT_EQUAL_FATAL(dh_admin_auth_parse(&a, ALICE), 0);
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, NULL));
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, ""));
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Bearer "));
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "0123456789abcdef0123"));         /* no scheme */
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Basic 0123456789abcdef0123"));   /* wrong one */
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Bearer 0123456789abcdef012"));   /* a prefix */
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Bearer 0123456789abcdef01234")); /* longer */
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Bearer 0123456789ABCDEF0123"));  /* case */
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Bearer alice:0123456789abcdef0123"));
}

static void test_admin_auth_off_without_tokens(void)
{
    dh_admin_auth a;
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, ""), 0);
    CU_ASSERT_EQUAL(a.n, 0);
    CU_ASSERT_PTR_NULL(dh_admin_auth_check(&a, "Bearer anything-at-all-here"));
    unsetenv("DECKHAND_ADMIN_TOKEN");
    unsetenv("DECKHAND_ADMIN_TOKEN_FILE");
    CU_ASSERT_EQUAL(dh_admin_auth_load(&a), 0);
    CU_ASSERT_EQUAL(a.n, 0);
    setenv("DECKHAND_ADMIN_TOKEN", "ci:" BARE, 1);
    CU_ASSERT_EQUAL(dh_admin_auth_load(&a), 0);
    CU_ASSERT_EQUAL(a.n, 1);
    CU_ASSERT_STRING_EQUAL(dh_admin_auth_check(&a, "Bearer " BARE), "ci");
    unsetenv("DECKHAND_ADMIN_TOKEN");
}

static void test_admin_auth_refuses_bad_secrets(void)
{
    dh_admin_auth a;
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, "bob:short"), -1);
    CU_ASSERT_EQUAL(a.n, 0);
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, "b b:0123456789abcdef0123"), -1);
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, ":0123456789abcdef0123"), -1);
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, "bob:0123456789 abcdef0123"), -1);
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, ALICE "\nalice:zzzzzzzzzzzzzzzzzzzzz"), -1);
    CU_ASSERT_EQUAL(a.n, 0); /* nothing half-loaded */
    char many[2048] = "";
    for (int i = 0; i <= DH_ADMIN_TOKENS_MAX; i++) {
        char line[64];
        snprintf(line, sizeof line, "op%d:token-number-%02d-xyz\n", i, i);
        strcat(many, line);
    }
    CU_ASSERT_EQUAL(dh_admin_auth_parse(&a, many), -1);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"admin_auth_names_the_token_presented", test_admin_auth_names_the_token_presented},
        {"admin_auth_refuses_wrong_tokens", test_admin_auth_refuses_wrong_tokens},
        {"admin_auth_off_without_tokens", test_admin_auth_off_without_tokens},
        {"admin_auth_refuses_bad_secrets", test_admin_auth_refuses_bad_secrets},
        {NULL, NULL},
    };
    return dh_test_main("admin_auth", cases);
}
