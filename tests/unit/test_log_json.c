/*
 * test_log_json.c: --log-format json (common/dh_log_json.c, dh_log_set_format): one JSON
 * object per line with ts, level, process and msg; the message's key=value words as
 * fields; quotes, backslashes, control bytes and invalid UTF-8 escaped so that every line
 * stays one valid object; an over-long message cut and marked; and dh_log itself writing
 * such lines once the format is json. Validity is checked with python3's json module
 * where it is installed (it is in the test image), else by the exact text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_log.h"
#include "dh_log_json.h"
#include "dh_test.h"

static void test_log_json_has_the_standard_keys_and_fields(void)
{
    char out[1024];
    size_t n = dh_log_json_line(out, sizeof out, "2026-11-25T10:00:00.123Z", "info", "gateway",
                                "listening tcp=127.0.0.1:7000 id=gw-1 id=again =x y=", 0);
    CU_ASSERT_EQUAL(n, strlen(out));
    CU_ASSERT_STRING_EQUAL(out, "{\"ts\":\"2026-11-25T10:00:00.123Z\",\"level\":\"info\","
                                "\"process\":\"gateway\",\"msg\":\"listening tcp=127.0.0.1:7000 "
                                "id=gw-1 id=again =x y=\",\"fields\":{\"tcp\":\"127.0.0.1:7000\","
                                "\"id\":\"gw-1\"}}\n");
}

static void test_log_json_says_how_many_were_suppressed(void)
{
    char out[1024];
    dh_log_json_line(out, sizeof out, "T", "warn", "worker wk-1", "accept failed", 999);
    CU_ASSERT_STRING_EQUAL(out, "{\"ts\":\"T\",\"level\":\"warn\",\"process\":\"worker wk-1\","
                                "\"msg\":\"accept failed\",\"suppressed\":999,"
                                "\"fields\":{\"worker\":\"wk-1\"}}\n");
}

/* A worker's lines name the match, the player, the bundle and the command in words; each
 * becomes a field, with the worker's id from the process name (issue 30: fields were
 * empty on every worker line, so logs could not be filtered by match). */
static void test_log_json_fields_name_the_match_player_worker_bundle_and_command(void)
{
    char out[1024];
    dh_log_json_line(out, sizeof out, "T", "warn", "worker wk-2",
                     "match m-0123456789abcdef: seat 2: command 17 of p-44977efc84a22fc4 on "
                     "bundle 04e6d9a9107e: E1a2b3c4d: boom",
                     0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, ",\"fields\":{\"worker\":\"wk-2\",\"match\":"
                                       "\"m-0123456789abcdef\",\"command\":\"17\",\"player\":"
                                       "\"p-44977efc84a22fc4\",\"bundle\":\"04e6d9a9107e\"}}\n"));
    /* a key=value word of the message wins over a word it names */
    dh_log_json_line(out, sizeof out, "T", "info", "gateway gw-1",
                     "match=m-1111111111111111 moved from match m-2222222222222222", 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"fields\":{\"match\":\"m-1111111111111111\","
                                       "\"gateway\":\"gw-1\"}"));
    /* words that only look like ids are left alone */
    dh_log_json_line(out, sizeof out, "T", "info", "matchmaker", "m-12 p-zz bundle xyz", 0);
    CU_ASSERT_PTR_NULL(strstr(out, "\"fields\""));
}

static void test_log_json_escapes_quotes_controls_and_bad_utf8(void)
{
    char out[1024];
    dh_log_json_line(out, sizeof out, "T", "info", "mm",
                     "mode=\"a\\b\"\n{\"level\":\"error\"}\r\x1b\x01\x7f\t caf\xc3\xa9 \xff\xc3 "
                     "\xed\xa0\x80 \xf0\x9f\x83\x8f",
                     0);
    CU_ASSERT_PTR_NULL(strchr(out, '\r'));
    CU_ASSERT_PTR_NULL(strchr(out, 0x1b));
    CU_ASSERT_EQUAL(strchr(out, '\n'), out + strlen(out) - 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"msg\":\"mode=\\\"a\\\\b\\\"\\n{\\\"level\\\":\\\"error"
                                       "\\\"}\\r\\u001b\\u0001\\u007f\\t caf\xc3\xa9 "
                                       "\\ufffd\\ufffd \\ufffd\\ufffd\\ufffd \xf0\x9f\x83\x8f\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"fields\":{\"mode\":\"\\\"a\\\\b\\\"\\n{\\\"level"));
}

static void test_log_json_cuts_a_message_too_long(void)
{
    static char msg[4000], out[512];
    memset(msg, '"', sizeof msg - 1);
    size_t n = dh_log_json_line(out, sizeof out, "T", "info", "p", msg, 0);
    CU_ASSERT(n < sizeof out);
    CU_ASSERT_EQUAL(n, strlen(out));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"truncated\":true,\"msg\":\"\\\"\\\""));
    CU_ASSERT(n >= 3 && !strcmp(out + n - 3, "\"}\n"));
    CU_ASSERT_PTR_NULL(strstr(out, "\\\"}\n")); /* no escape cut in half */
}

static void json_log_two(void)
{
    dh_info("queue join p-1 game=%s mode=%s", "dominion", "casual\n\"forged\"");
    dh_log_limit lim = {0};
    dh_log_every(&lim, 1000, DH_LOG_WARN, "slow consumer conn=%d", 7);
}

/* Each line parses as JSON (python3 -c json.loads per line) when python3 is here. */
static int json_valid_lines(const char *text)
{
    char path[] = "/tmp/dh_log_jsonXXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    size_t len = strlen(text);
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import json,sys\nfor l in open(sys.argv[1]): json.loads(l)' %s", path);
    int rc = ok && system("command -v python3 >/dev/null") == 0 ? system(cmd) : 0;
    unlink(path);
    return ok ? rc : -1;
}

static void test_log_format_json_writes_one_object_per_line(void)
{
    static char out[4096];
    CU_ASSERT_EQUAL(dh_log_set_format("yaml"), -1);
    CU_ASSERT_EQUAL(dh_log_set_format("json"), 0);
    dh_test_capture_stderr(json_log_two, out, sizeof out);
    CU_ASSERT_EQUAL(dh_log_set_format("text"), 0);
    char *second = strchr(out, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(second);
    CU_ASSERT_EQUAL(strchr(second + 1, '\n'), out + strlen(out) - 1);
    CU_ASSERT_EQUAL(strncmp(out, "{\"ts\":\"20", 9), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"level\":\"info\",\"process\":\"test\",\"msg\":\"queue "
                                       "join p-1 game=dominion mode=casual\\n\\\"forged\\\"\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"fields\":{\"game\":\"dominion\",\"mode\":\"casual\\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(second, "\"level\":\"warn\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(second, "\"fields\":{\"conn\":\"7\"}}\n"));
    CU_ASSERT_EQUAL(json_valid_lines(out), 0);
}

int main(void)
{
    dh_log_init("test");
    static const dh_test_case cases[] = {
        {"log_json_has_the_standard_keys_and_fields",
         test_log_json_has_the_standard_keys_and_fields},
        {"log_json_says_how_many_were_suppressed", test_log_json_says_how_many_were_suppressed},
        {"log_json_fields_name_the_match_player_worker_bundle_and_command",
         test_log_json_fields_name_the_match_player_worker_bundle_and_command},
        {"log_json_escapes_quotes_controls_and_bad_utf8",
         test_log_json_escapes_quotes_controls_and_bad_utf8},
        {"log_json_cuts_a_message_too_long", test_log_json_cuts_a_message_too_long},
        {"log_format_json_writes_one_object_per_line",
         test_log_format_json_writes_one_object_per_line},
        {NULL, NULL},
    };
    return dh_test_main("log_json", cases);
}
