/*
 * test_account.c: what an account is made of (common/dh_account.h): a password hashed
 * with Argon2id verifies only itself, an unknown name costs as long as a wrong password,
 * names, passwords and device ids with control characters or bad lengths are refused with
 * a clear text, device ids are stored by a stable digest, account ids are accounts', and
 * no device account or guest shows a name a password account could hold.
 */
#include "dh_account.h"

#include <string.h>

#include "dh_test.h"
#include "dh_token.h"

static void test_account_password_hash_verifies_only_itself(void)
{
    char h[DH_ACCOUNT_HASH_MAX], h2[DH_ACCOUNT_HASH_MAX];
    CU_ASSERT_EQUAL_FATAL(dh_account_init(), 0);
    CU_ASSERT_EQUAL_FATAL(dh_account_hash("correct horse", h), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(h, "$argon2id$"));
    CU_ASSERT_PTR_NULL(strstr(h, "correct horse"));
    CU_ASSERT_TRUE(dh_account_verify(h, "correct horse"));
    CU_ASSERT_FALSE(dh_account_verify(h, "correct horsE"));
    CU_ASSERT_FALSE(dh_account_verify(h, ""));
    CU_ASSERT_FALSE(dh_account_verify("not a hash", "correct horse"));
    CU_ASSERT_FALSE(dh_account_verify(NULL, "correct horse"));
    CU_ASSERT_EQUAL_FATAL(dh_account_hash("correct horse", h2), 0);
    CU_ASSERT_STRING_NOT_EQUAL(h, h2); /* salted */
}

static void test_account_unknown_name_costs_as_much_as_a_wrong_password(void)
{
    char h[DH_ACCOUNT_HASH_MAX];
    CU_ASSERT_EQUAL_FATAL(dh_account_init(), 0);
    CU_ASSERT_EQUAL_FATAL(dh_account_hash("the real one", h), 0);
    const char *dummy = dh_account_dummy_hash();
    CU_ASSERT_FATAL(dummy[0] != '\0');
    CU_ASSERT_FALSE(dh_account_verify(dummy, "the real one"));
    uint64_t wrong = 0, unknown = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t t0 = dh_test_now_ms();
        CU_ASSERT_FALSE(dh_account_verify(h, "a wrong one"));
        uint64_t t1 = dh_test_now_ms();
        CU_ASSERT_FALSE(dh_account_verify(dummy, "a wrong one"));
        uint64_t t2 = dh_test_now_ms();
        wrong += t1 - t0;
        unknown += t2 - t1;
    }
    /* Same parameters, so the same work: within a factor of 2 either way (the machine is
     * shared), and both far from the microseconds of a lookup miss. */
    CU_ASSERT(wrong >= 3 && unknown >= 3);
    CU_ASSERT(unknown * 2 >= wrong && wrong * 2 >= unknown);
}

static void test_account_names_refuse_bad_strings(void)
{
    CU_ASSERT_PTR_NULL(dh_account_name_error("Alice_01"));
    CU_ASSERT_PTR_NULL(dh_account_name_error("a.b-c"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error("al"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error("a23456789012345678901234x"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error("ali\nce"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error("ali ce"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error("ali|ce"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error("\xc3\xa9lise"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error(""));
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error(NULL));
    CU_ASSERT_PTR_NOT_NULL(strstr(dh_account_name_error("ab"), "3-24"));
}

static void test_account_passwords_refuse_bad_strings(void)
{
    char longpw[DH_ACCOUNT_PASSWORD_MAX + 2];
    memset(longpw, 'x', sizeof longpw - 1);
    longpw[sizeof longpw - 1] = '\0';
    CU_ASSERT_PTR_NULL(dh_account_password_error("correct horse battery"));
    CU_ASSERT_PTR_NULL(dh_account_password_error("p\xc3\xa4sswort!"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_password_error("short"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_password_error(longpw));
    CU_ASSERT_PTR_NOT_NULL(dh_account_password_error("password\n123"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_password_error("password\x7f"
                                                     "123"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_password_error(NULL));
}

static void test_account_device_ids_refuse_bad_strings(void)
{
    CU_ASSERT_PTR_NULL(dh_account_device_error("0123456789abcdef"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_device_error("0123456789abcde"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_device_error("0123456789abcdef\n"));
    CU_ASSERT_PTR_NOT_NULL(dh_account_device_error("0123456789 abcdef"));
}

static void test_account_device_digest_is_stable_and_hides_the_id(void)
{
    char a[DH_ACCOUNT_DIGEST_LEN + 1], b[DH_ACCOUNT_DIGEST_LEN + 1], c[DH_ACCOUNT_DIGEST_LEN + 1];
    CU_ASSERT_EQUAL_FATAL(dh_account_init(), 0);
    dh_account_device_digest("device-secret-0001", a);
    dh_account_device_digest("device-secret-0001", b);
    dh_account_device_digest("device-secret-0002", c);
    CU_ASSERT_EQUAL(strlen(a), DH_ACCOUNT_DIGEST_LEN);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    CU_ASSERT_PTR_NULL(strstr(a, "secret"));
}

static void test_account_names_are_one_account_whatever_the_case(void)
{
    char k1[DH_ACCOUNT_NAME_MAX + 1], k2[DH_ACCOUNT_NAME_MAX + 1];
    dh_account_name_key("Alice", k1);
    dh_account_name_key("aLICE", k2);
    CU_ASSERT_STRING_EQUAL(k1, "alice");
    CU_ASSERT_STRING_EQUAL(k1, k2);
}

static void test_account_device_and_guest_names_are_marked(void)
{
    char out[DH_ACCOUNT_SHOWN_MAX];
    dh_account_device_shown("Carol", "a-0123456789ab3f9a", out);
    CU_ASSERT_STRING_EQUAL(out, "Carol#3f9a");
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error(out)); /* no password account's name */
    dh_account_device_shown("abcdefghijklmnopqrstuvwx", "a-0123456789abcdef", out);
    CU_ASSERT_STRING_EQUAL(out, "abcdefghijklmnopqrstuvwx#cdef");
    dh_account_guest_shown("Carol", out);
    CU_ASSERT_STRING_EQUAL(out, "Carol (guest)");
    CU_ASSERT_PTR_NOT_NULL(dh_account_name_error(out));
    dh_account_guest_shown("a guest name of 32 characters ok", out);
    CU_ASSERT_STRING_EQUAL(out, "a guest name of 32 characters ok (guest)");
}

static void test_account_ids_are_accounts(void)
{
    char a[DH_ACCOUNT_ID_LEN + 1], b[DH_ACCOUNT_ID_LEN + 1];
    CU_ASSERT_EQUAL_FATAL(dh_account_init(), 0);
    CU_ASSERT_EQUAL(dh_account_new_id(a), 0);
    CU_ASSERT_EQUAL(dh_account_new_id(b), 0);
    CU_ASSERT_EQUAL(strlen(a), DH_ACCOUNT_ID_LEN);
    CU_ASSERT_TRUE(dh_token_is_account_id(a));
    CU_ASSERT_STRING_NOT_EQUAL(a, b);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"account_password_hash_verifies_only_itself",
         test_account_password_hash_verifies_only_itself},
        {"account_unknown_name_costs_as_much_as_a_wrong_password",
         test_account_unknown_name_costs_as_much_as_a_wrong_password},
        {"account_names_refuse_bad_strings", test_account_names_refuse_bad_strings},
        {"account_passwords_refuse_bad_strings", test_account_passwords_refuse_bad_strings},
        {"account_device_ids_refuse_bad_strings", test_account_device_ids_refuse_bad_strings},
        {"account_device_digest_is_stable_and_hides_the_id",
         test_account_device_digest_is_stable_and_hides_the_id},
        {"account_names_are_one_account_whatever_the_case",
         test_account_names_are_one_account_whatever_the_case},
        {"account_device_and_guest_names_are_marked",
         test_account_device_and_guest_names_are_marked},
        {"account_ids_are_accounts", test_account_ids_are_accounts},
        {NULL, NULL},
    };
    return dh_test_main("account", cases);
}
