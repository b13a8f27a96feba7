/*
 * test_json.c: the JSON writer (common/dh_json.h) the admin API answers with: commas and
 * nesting placed by the writer, every string escaped (quotes, backslashes, control
 * characters, bytes that are not UTF-8), misuse and unclosed documents refused.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_json.h"
#include "dh_test.h"

/* The finished document, compared with want; frees it. */
static void check_doc(dh_json *j, const char *want)
{
    size_t len = 0;
    char *doc = dh_json_finish(j, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_STRING_EQUAL(doc, want);
    CU_ASSERT_EQUAL(len, strlen(want));
    free(doc);
}

static void test_json_writes_nested_objects_and_arrays(void)
{
    dh_json j;
    dh_json_init(&j);
    dh_json_object(&j);
    dh_json_kstr(&j, "id", "m-1");
    dh_json_kint(&j, "delta", -3);
    dh_json_kuint(&j, "age_ms", 18446744073709551615ull);
    dh_json_kbool(&j, "ok", true);
    dh_json_key(&j, "none");
    dh_json_null(&j);
    dh_json_key(&j, "seats");
    dh_json_array(&j);
    for (int i = 0; i < 2; i++) {
        dh_json_object(&j);
        dh_json_kint(&j, "seat", i);
        dh_json_kbool(&j, "connected", i == 0);
        dh_json_end(&j);
    }
    dh_json_end(&j);
    dh_json_key(&j, "empty");
    dh_json_array(&j);
    dh_json_end(&j);
    dh_json_key(&j, "nums");
    dh_json_array(&j);
    dh_json_int(&j, 1);
    dh_json_str(&j, NULL);
    dh_json_bool(&j, false);
    dh_json_end(&j);
    dh_json_end(&j);
    check_doc(&j, "{\"id\":\"m-1\",\"delta\":-3,\"age_ms\":18446744073709551615,\"ok\":true,"
                  "\"none\":null,\"seats\":[{\"seat\":0,\"connected\":true},"
                  "{\"seat\":1,\"connected\":false}],\"empty\":[],\"nums\":[1,null,false]}");
}

static void test_json_escapes_strings_and_keys(void)
{
    dh_json j;
    dh_json_init(&j);
    dh_json_object(&j);
    dh_json_kstr(&j, "q\"k", "say \"hi\"\\ now\n\r\t\x01\x1f\x7f");
    dh_json_kstr(&j, "utf8", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x82\xA1");
    dh_json_end(&j);
    check_doc(&j, "{\"q\\\"k\":\"say \\\"hi\\\"\\\\ now\\n\\r\\t\\u0001\\u001f\\u007f\","
                  "\"utf8\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x82\xA1\"}");
}

static void test_json_replaces_bytes_that_are_not_utf8(void)
{
    dh_json j;
    dh_json_init(&j);
    dh_json_array(&j);
    dh_json_str(&j, "a\xFF"
                    "b");            /* a stray byte */
    dh_json_str(&j, "\xC0\xAF");     /* an overlong '/' */
    dh_json_str(&j, "\xED\xA0\x80"); /* a surrogate */
    dh_json_str(&j, "end\xE2\x82");  /* cut short */
    dh_json_strn(&j, "n\0ul", 4);    /* an embedded NUL is escaped, not a terminator */
    dh_json_end(&j);
    check_doc(&j, "[\"a\xEF\xBF\xBD"
                  "b\",\"\xEF\xBF\xBD\xEF\xBF\xBD\",\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\","
                  "\"end\xEF\xBF\xBD\xEF\xBF\xBD\",\"n\\u0000ul\"]");
}

static void test_json_refuses_misuse(void)
{
    dh_json j;
    dh_json_init(&j);
    dh_json_object(&j);
    dh_json_str(&j, "a value where a key is due");
    dh_json_end(&j);
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL));

    dh_json_init(&j);
    dh_json_array(&j);
    dh_json_key(&j, "a key in an array");
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL));

    dh_json_init(&j);
    dh_json_end(&j); /* nothing open */
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL));

    dh_json_init(&j);
    dh_json_object(&j);
    dh_json_key(&j, "k"); /* the value never came */
    dh_json_end(&j);
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL));

    dh_json_init(&j);
    dh_json_object(&j); /* never closed */
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL));

    dh_json_init(&j);
    dh_json_int(&j, 1);
    dh_json_int(&j, 2); /* two documents */
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL));

    dh_json_init(&j);
    for (int i = 0; i <= DH_JSON_DEPTH; i++)
        dh_json_array(&j);
    CU_ASSERT(j.err);
    dh_json_free(&j);
    CU_ASSERT_PTR_NULL(dh_json_finish(&j, NULL)); /* nothing written */
}

static void test_json_grows_for_long_documents(void)
{
    dh_json j;
    dh_json_init(&j);
    dh_json_array(&j);
    for (int i = 0; i < 10000; i++)
        dh_json_str(&j, "0123456789");
    dh_json_end(&j);
    size_t len = 0;
    char *doc = dh_json_finish(&j, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    CU_ASSERT_EQUAL(len, 2 + 10000 * 12 + 9999);
    CU_ASSERT_EQUAL(strlen(doc), len);
    free(doc);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"json_writes_nested_objects_and_arrays", test_json_writes_nested_objects_and_arrays},
        {"json_escapes_strings_and_keys", test_json_escapes_strings_and_keys},
        {"json_replaces_bytes_that_are_not_utf8", test_json_replaces_bytes_that_are_not_utf8},
        {"json_refuses_misuse", test_json_refuses_misuse},
        {"json_grows_for_long_documents", test_json_grows_for_long_documents},
        {NULL, NULL},
    };
    return dh_test_main("json", cases);
}
