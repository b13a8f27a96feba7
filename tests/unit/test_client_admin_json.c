/*
 * test_client_admin_json.c: the JSON reader of `deckhand admin` (client/admin_json.h)
 * reads what the admin API's writer (common/dh_json.h) writes: nested objects and arrays,
 * escapes and UTF-8 back to the same bytes; it refuses truncated, trailing and too deep
 * documents; aj_text prints values for the tables. The reader is built into the
 * `deckhand` program only, so this test compiles its source in.
 */
#include <stdlib.h>
#include <string.h>

#include "../../client/admin_json.c"
#include "dh_json.h"
#include "dh_test.h"

static void test_admin_json_reads_what_the_writer_wrote(void)
{
    const char *reason = "say \"hi\"\\\n\ttab \x01 caf\xC3\xA9 \xF0\x9F\x82\xA1";
    dh_json j;
    dh_json_init(&j);
    dh_json_object(&j);
    dh_json_kstr(&j, "reason", reason);
    dh_json_kint(&j, "n", -42);
    dh_json_kbool(&j, "ok", true);
    dh_json_key(&j, "none");
    dh_json_null(&j);
    dh_json_key(&j, "rows");
    dh_json_array(&j);
    dh_json_object(&j);
    dh_json_kstr(&j, "id", "m-1");
    dh_json_key(&j, "players");
    dh_json_array(&j);
    dh_json_str(&j, "ann");
    dh_json_str(&j, "bob");
    dh_json_end(&j);
    dh_json_end(&j);
    dh_json_end(&j);
    dh_json_end(&j);
    size_t len;
    char *doc = dh_json_finish(&j, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    aj_value *v = aj_parse(doc, len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_STRING_EQUAL(aj_get(v, "reason")->s, reason);
    char text[256];
    CU_ASSERT_STRING_EQUAL(aj_text(aj_get(v, "n"), text, sizeof text), "-42");
    CU_ASSERT_STRING_EQUAL(aj_text(aj_get(v, "ok"), text, sizeof text), "yes");
    CU_ASSERT_STRING_EQUAL(aj_text(aj_get(v, "none"), text, sizeof text), "-");
    CU_ASSERT_STRING_EQUAL(aj_text(aj_get(v, "missing"), text, sizeof text), "-");
    const aj_value *rows = aj_get(v, "rows");
    CU_ASSERT_EQUAL_FATAL(rows->n, 1);
    CU_ASSERT_STRING_EQUAL(aj_text(aj_get(rows->item[0], "players"), text, sizeof text), "ann,bob");
    CU_ASSERT_STRING_EQUAL(aj_text(rows->item[0], text, sizeof text), "{...}");
    aj_free(v);
    free(doc);
}

static void test_admin_json_decodes_unicode_escapes(void)
{
    const char doc[] = "[\"\\u00e9\\u20ac\\ud83c\\udca1\\u0000\\udc00x\"]";
    aj_value *v = aj_parse(doc, sizeof doc - 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    /* é € 🂡, then NUL and a lone surrogate, each U+FFFD */
    CU_ASSERT_STRING_EQUAL(v->item[0]->s, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x82\xA1"
                                          "\xEF\xBF\xBD\xEF\xBF\xBDx");
    aj_free(v);
}

static void test_admin_json_refuses_broken_documents(void)
{
    static const char *const bad[] = {
        "",    "{",           "{\"a\":}",  "{\"a\" 1}",   "[1,]", "[1 2]", "\"open",     "tru",
        "nul", "{\"a\":1} x", "[\"\\q\"]", "[\"\\u12\"]", "-",    "{1:2}", "[\"a\nb\"]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        aj_value *v = aj_parse(bad[i], strlen(bad[i]));
        CU_ASSERT_PTR_NULL(v);
        aj_free(v);
    }
    char deep[2 * ADMIN_JSON_DEPTH + 8];
    memset(deep, '[', ADMIN_JSON_DEPTH + 1);
    memset(deep + ADMIN_JSON_DEPTH + 1, ']', ADMIN_JSON_DEPTH + 1);
    CU_ASSERT_PTR_NULL(aj_parse(deep, 2 * ADMIN_JSON_DEPTH + 2));
    aj_value *ok = aj_parse(deep + 1, 2 * ADMIN_JSON_DEPTH); /* exactly at the limit */
    CU_ASSERT_PTR_NOT_NULL(ok);
    aj_free(ok);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"admin_json_reads_what_the_writer_wrote", test_admin_json_reads_what_the_writer_wrote},
        {"admin_json_decodes_unicode_escapes", test_admin_json_decodes_unicode_escapes},
        {"admin_json_refuses_broken_documents", test_admin_json_refuses_broken_documents},
        {NULL, NULL},
    };
    return dh_test_main("client_admin_json", cases);
}
