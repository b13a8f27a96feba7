/*
 * test_client_env.c: finding the gateway: .run/cluster.env parsing and the lookup order
 * flag > environment > file, with the WebSocket address forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_client_env.h"
#include "dh_test.h"

static const char cluster_env[] = "# written by scripts/run\n"
                                  "DECKHAND_GATEWAY_TCP=127.0.0.1:17000\n"
                                  "DECKHAND_GATEWAY_WS=ws://127.0.0.1:17001/ws\n"
                                  "DECKHAND_REDIS_URL=redis://127.0.0.1:16390\n";

/* text sets key to want. */
static void expect_value(const char *text, const char *key, const char *want)
{
    char v[128];
    CU_ASSERT_EQUAL(dh_client_env_parse(text, key, v, sizeof v), 0);
    CU_ASSERT_STRING_EQUAL(v, want);
}

static void test_env_parse_finds_each_key(void)
{
    expect_value(cluster_env, "DECKHAND_GATEWAY_TCP", "127.0.0.1:17000");
    expect_value(cluster_env, "DECKHAND_GATEWAY_WS", "ws://127.0.0.1:17001/ws");
}

static void test_env_parse_ignores_prefixes_and_comments(void)
{
    char v[128];
    const char *text = "#DECKHAND_GATEWAY_TCP=commented\nDECKHAND_GATEWAY_TCPX=1:2\n";
    CU_ASSERT_EQUAL(dh_client_env_parse(text, "DECKHAND_GATEWAY_TCP", v, sizeof v), -1);
    CU_ASSERT_EQUAL(dh_client_env_parse("", "DECKHAND_GATEWAY_TCP", v, sizeof v), -1);
}

static void test_env_parse_accepts_export_quotes_and_crlf(void)
{
    const char *text = "export DECKHAND_GATEWAY_TCP=\"10.0.0.1:7000\"\r\n"
                       "  DECKHAND_GATEWAY_WS='ws://h:1/ws'  \r\n";
    expect_value(text, "DECKHAND_GATEWAY_TCP", "10.0.0.1:7000");
    expect_value(text, "DECKHAND_GATEWAY_WS", "ws://h:1/ws");
}

static void test_env_parse_last_assignment_wins_and_no_trailing_newline(void)
{
    const char *text = "K=first\nK=second";
    expect_value(text, "K", "second");
}

static void test_env_parse_refuses_value_too_long_for_buffer(void)
{
    char v[8];
    CU_ASSERT_EQUAL(dh_client_env_parse("K=0123456789\n", "K", v, sizeof v), -1);
}

/* A temporary cluster.env; returns its path (static). */
static const char *write_env(const char *text)
{
    static char path[] = "/tmp/dh_client_env_XXXXXX";
    strcpy(path, "/tmp/dh_client_env_XXXXXX");
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void test_gateway_from_file_when_no_flag_or_env(void)
{
    unsetenv("DECKHAND_GATEWAY_TCP");
    unsetenv("DECKHAND_GATEWAY_WS");
    const char *path = write_env(cluster_env);
    char out[256], err[256];
    CU_ASSERT_EQUAL(dh_client_gateway_addr(NULL, false, path, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "127.0.0.1:17000");
    CU_ASSERT_EQUAL(dh_client_gateway_addr(NULL, true, path, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "ws://127.0.0.1:17001/ws");
    unlink(path);
}

static void test_gateway_env_beats_file_and_flag_beats_env(void)
{
    const char *path = write_env(cluster_env);
    char out[256], err[256];
    setenv("DECKHAND_GATEWAY_TCP", "127.0.0.1:19000", 1);
    CU_ASSERT_EQUAL(dh_client_gateway_addr(NULL, false, path, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "127.0.0.1:19000");
    CU_ASSERT_EQUAL(
        dh_client_gateway_addr("10.1.1.1:9", false, path, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "10.1.1.1:9");
    unsetenv("DECKHAND_GATEWAY_TCP");
    unlink(path);
}

static void test_gateway_bare_ws_address_gets_scheme_and_path(void)
{
    char out[256], err[256];
    /* The gateway's own DECKHAND_GATEWAY_WS is a bind address without ws://. */
    setenv("DECKHAND_GATEWAY_WS", "127.0.0.1:7001", 1);
    CU_ASSERT_EQUAL(
        dh_client_gateway_addr(NULL, true, "/nonexistent", out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "ws://127.0.0.1:7001/ws");
    unsetenv("DECKHAND_GATEWAY_WS");
    CU_ASSERT_EQUAL(
        dh_client_gateway_addr("ws://h:2/x", true, NULL, out, sizeof out, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(out, "ws://h:2/x");
}

static void test_gateway_missing_everywhere_explains(void)
{
    unsetenv("DECKHAND_GATEWAY_TCP");
    char out[256], err[256];
    CU_ASSERT_EQUAL(dh_client_gateway_addr(NULL, false, "/nonexistent/cluster.env", out, sizeof out,
                                           err, sizeof err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--gateway"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "DECKHAND_GATEWAY_TCP"));
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"env_parse_finds_each_key", test_env_parse_finds_each_key},
        {"env_parse_ignores_prefixes_and_comments", test_env_parse_ignores_prefixes_and_comments},
        {"env_parse_accepts_export_quotes_and_crlf", test_env_parse_accepts_export_quotes_and_crlf},
        {"env_parse_last_assignment_wins_and_no_trailing_newline",
         test_env_parse_last_assignment_wins_and_no_trailing_newline},
        {"env_parse_refuses_value_too_long_for_buffer",
         test_env_parse_refuses_value_too_long_for_buffer},
        {"gateway_from_file_when_no_flag_or_env", test_gateway_from_file_when_no_flag_or_env},
        {"gateway_env_beats_file_and_flag_beats_env",
         test_gateway_env_beats_file_and_flag_beats_env},
        {"gateway_bare_ws_address_gets_scheme_and_path",
         test_gateway_bare_ws_address_gets_scheme_and_path},
        {"gateway_missing_everywhere_explains", test_gateway_missing_everywhere_explains},
        {NULL, NULL},
    };
    return dh_test_main("client_env", cases);
}
