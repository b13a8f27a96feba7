/*
 * test_ws.c: the WebSocket handshake helpers (common/dh_ws.h): RFC 6455 §1.3 example (key
 * "dGhlIHNhbXBsZSBub25jZQ==" gives "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
 * both halves agreeing, and the malformed requests the gateway must refuse (control
 * characters among them: "/ws\0zz" is not "/ws"); and the frame guard, which refuses a
 * message over the limit at its header, however its bytes are split (issue 12, case 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "dh_ws.h"

static const char good[] = "GET /ws?v=1 HTTP/1.1\r\n"
                           "Host: server.example.com\r\n"
                           "upgrade: WebSocket\r\n"
                           "Connection: keep-alive, Upgrade\r\n"
                           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                           "Origin: http://example.com\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n";

static void test_ws_accept_rfc6455_example(void)
{
    char out[DH_WS_ACCEPT_LEN + 1];
    CU_ASSERT_EQUAL_FATAL(dh_ws_accept("dGhlIHNhbXBsZSBub25jZQ==", out), 0);
    CU_ASSERT_STRING_EQUAL(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

static void test_ws_parse_valid_request(void)
{
    dh_ws_request req;
    const char *why = NULL;
    long n = dh_ws_parse_request(good, strlen(good), &req, &why);
    CU_ASSERT_EQUAL(n, (long)strlen(good));
    CU_ASSERT_STRING_EQUAL(req.path, "/ws");
    CU_ASSERT_STRING_EQUAL(req.key, "dGhlIHNhbXBsZSBub25jZQ==");
    char resp[512];
    CU_ASSERT(dh_ws_response(&req, resp, sizeof resp) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(resp, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"));
    CU_ASSERT_EQUAL(strncmp(resp, "HTTP/1.1 101 ", 13), 0);
}

static void test_ws_parse_incomplete_waits(void)
{
    dh_ws_request req;
    for (size_t len = 0; len < strlen(good); len += 7)
        CU_ASSERT_EQUAL(dh_ws_parse_request(good, len, &req, NULL), 0);
}

static void test_ws_parse_keeps_trailing_bytes(void)
{
    char buf[1024];
    dh_ws_request req;
    snprintf(buf, sizeof buf, "%s%s", good, "\x82\x80");
    CU_ASSERT_EQUAL(dh_ws_parse_request(buf, strlen(buf), &req, NULL), (long)strlen(good));
}

static void expect_rejected(const char *req_text)
{
    dh_ws_request req;
    const char *why = NULL;
    CU_ASSERT_EQUAL(dh_ws_parse_request(req_text, strlen(req_text), &req, &why), -1);
    CU_ASSERT_PTR_NOT_NULL(why);
}

static void test_ws_malformed_requests_rejected(void)
{
    expect_rejected("POST /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: "
                    "Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n");
    expect_rejected("GET /ws HTTP/1.0\r\nHost: a\r\nUpgrade: websocket\r\nConnection: "
                    "Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n");
    /* no Upgrade */
    expect_rejected("GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n");
    /* no Connection: Upgrade */
    expect_rejected("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: close\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n");
    /* wrong version */
    expect_rejected("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: "
                    "Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 8\r\n\r\n");
    /* missing and bad keys */
    expect_rejected("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: "
                    "Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n");
    expect_rejected("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: "
                    "Upgrade\r\nSec-WebSocket-Key: short==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    expect_rejected("GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: "
                    "Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n");
    /* no Host */
    expect_rejected("GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n");
    /* a header line without a colon, bare LF line endings */
    expect_rejected("GET /ws HTTP/1.1\r\nHost a\r\n\r\n");
    expect_rejected("GET /ws HTTP/1.1\nHost: a\n\r\n\r\n");
    expect_rejected("GET ws HTTP/1.1\r\nHost: a\r\n\r\n");
}

static void test_ws_control_characters_rejected(void)
{
    static const char tail[] = "Host: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               "Sec-WebSocket-Version: 13\r\n\r\n";
#define HEAD(s)                                                                                    \
    {                                                                                              \
        s, sizeof s - 1                                                                            \
    }
    static const struct {
        const char *s;
        size_t n;
    } heads[] = {
        HEAD("GET /ws\0zz HTTP/1.1\r\n"),
        HEAD("GET /ws\x01 HTTP/1.1\r\n"),
        HEAD("GET /w\x7fs HTTP/1.1\r\n"),
        HEAD("GET /ws\tx HTTP/1.1\r\n"),
        HEAD("GET /ws HTTP/1.1\r\nX-A: b\0c\r\n"),
        HEAD("GET /ws HTTP/1.1\r\nX-A: b\x1b[2Jc\r\n"),
        HEAD("GET /ws HTTP/1.1\r\nX-A: b\nX-B: c\r\n"),
    };
#undef HEAD
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        char buf[512];
        dh_ws_request req;
        const char *why = NULL;
        memcpy(buf, heads[i].s, heads[i].n);
        memcpy(buf + heads[i].n, tail, sizeof tail);
        CU_ASSERT_EQUAL(dh_ws_parse_request(buf, heads[i].n + sizeof tail - 1, &req, &why), -1);
        CU_ASSERT_PTR_NOT_NULL(why);
    }
    /* A tab in a header value is the RFC's whitespace: still fine. */
    char ok[512];
    snprintf(ok, sizeof ok, "GET /ws HTTP/1.1\r\nX-A: b\tc\r\n%s", tail);
    CU_ASSERT(dh_ws_parse_request(ok, strlen(ok), &(dh_ws_request){0}, NULL) > 0);
}

/* A masked client frame header: first byte b0, payload length len. Its size. */
static size_t ws_header(uint8_t *out, uint8_t b0, uint64_t len)
{
    size_t h = 0;
    out[h++] = b0;
    if (len < 126) {
        out[h++] = (uint8_t)(0x80 | len);
    } else if (len <= 0xffff) {
        out[h++] = 0x80 | 126;
        out[h++] = (uint8_t)(len >> 8);
        out[h++] = (uint8_t)len;
    } else {
        out[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            out[h++] = (uint8_t)(len >> (8 * i));
    }
    memcpy(out + h, "\x01\x02\x03\x04", 4);
    return h + 4;
}

/* Scan n bytes through the guard in pieces of step bytes: the bytes it let through (those
 * of the pieces before the refusal, and of the refusing piece those before the refused
 * header), and the refusal's reason into *why (NULL when none). */
static size_t guard_in_steps(const uint8_t *p, size_t n, size_t step, uint64_t max,
                             const char **why)
{
    dh_ws_guard g = {0};
    size_t done = 0;
    *why = NULL;
    while (done < n) {
        size_t k = n - done < step ? n - done : step;
        size_t ok = dh_ws_guard_scan(&g, p + done, k, max, why);
        if (ok < k)
            return done + ok;
        done += k;
    }
    return done;
}

static void test_ws_guard_refuses_an_oversized_message_at_its_header(void)
{
    static uint8_t buf[4 * 1024]; /* the frames below take 3,200 bytes */
    const char *why;
    size_t n = 0;
    /* fine: 100 bytes, a ping between two fragments of 1000 + 24 = 1024, then 1024 again */
    n += ws_header(buf + n, 0x82, 100);
    n += 100;
    n += ws_header(buf + n, 0x02, 1000);
    n += 1000;
    n += ws_header(buf + n, 0x89, 4);
    n += 4;
    n += ws_header(buf + n, 0x80, 24);
    n += 24;
    n += ws_header(buf + n, 0x82, 1024);
    n += 1024;
    size_t fine = n;
    for (size_t step = 1; step <= fine; step *= 3)
        CU_ASSERT_EQUAL(guard_in_steps(buf, fine, step, 1024, &why), fine);

    /* a continuation taking the message to 1025 is refused at its header: nothing after
     * the header's first byte gets through unless it came in an earlier piece, and the
     * header's last byte never does */
    n += ws_header(buf + n, 0x02, 1000);
    n += 1000;
    size_t bad = n;
    n += ws_header(buf + n, 0x80, 25);
    for (size_t step = 1; step <= n; step *= 2) {
        size_t got = guard_in_steps(buf, n, step, 1024, &why);
        CU_ASSERT(got >= bad && got < n);
        CU_ASSERT(got == bad || got % step == 0); /* or the header began in an earlier piece */
        CU_ASSERT_PTR_NOT_NULL(why);
    }
    CU_ASSERT_EQUAL(guard_in_steps(buf, n, n, 1024, &why), bad);
}

static void test_ws_guard_refuses_huge_lengths_without_payload(void)
{
    const uint64_t lens[] = {1025, 131074, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
                             0xffffffffffffffffULL};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t hdr[14];
        const char *why = NULL;
        size_t h = ws_header(hdr, 0x82, lens[i]);
        CU_ASSERT_EQUAL(guard_in_steps(hdr, h, h, 1024, &why), 0);
        CU_ASSERT_PTR_NOT_NULL(why);
        CU_ASSERT_EQUAL(guard_in_steps(hdr, h, 1, 1024, &why), h - 1);
    }
    /* an unmasked header (a server's) is read by its own size */
    uint8_t plain[] = {0x82, 126, 0x04, 0x01};
    const char *why = NULL;
    CU_ASSERT_EQUAL(guard_in_steps(plain, sizeof plain, 4, 1024, &why), 0);
    CU_ASSERT_EQUAL(guard_in_steps(plain, sizeof plain, 1, 1024, &why), 3);
}

/* Idle only between whole messages: not inside a header, a payload, or a fragmented
 * message (a ping between its fragments included). */
static void test_ws_guard_is_idle_only_between_messages(void)
{
    uint8_t buf[256];
    const char *why = NULL;
    dh_ws_guard g = {0};
    CU_ASSERT_TRUE(dh_ws_guard_idle(&g));
    size_t h = ws_header(buf, 0x82, 10); /* one whole message, fed a byte at a time */
    for (size_t i = 0; i < h + 10; i++) {
        CU_ASSERT_EQUAL(dh_ws_guard_scan(&g, buf + i, 1, 1024, &why), 1);
        CU_ASSERT_EQUAL(dh_ws_guard_idle(&g), i == h + 9);
    }
    size_t n = ws_header(buf, 0x02, 5); /* a first fragment, no FIN */
    n += 5;
    CU_ASSERT_EQUAL(dh_ws_guard_scan(&g, buf, n, 1024, &why), n);
    CU_ASSERT_FALSE(dh_ws_guard_idle(&g));
    n = ws_header(buf, 0x89, 2); /* a ping in between */
    n += 2;
    CU_ASSERT_EQUAL(dh_ws_guard_scan(&g, buf, n, 1024, &why), n);
    CU_ASSERT_FALSE(dh_ws_guard_idle(&g));
    n = ws_header(buf, 0x80, 3); /* the last fragment */
    n += 3;
    CU_ASSERT_EQUAL(dh_ws_guard_scan(&g, buf, n, 1024, &why), n);
    CU_ASSERT_TRUE(dh_ws_guard_idle(&g));
}

static void test_ws_oversized_head_rejected(void)
{
    static char big[DH_WS_HEADER_MAX + 100];
    dh_ws_request req;
    memset(big, 'a', sizeof big);
    memcpy(big, "GET /ws HTTP/1.1\r\nX: ", 21);
    CU_ASSERT_EQUAL(dh_ws_parse_request(big, sizeof big, &req, NULL), -1);
}

static void test_ws_client_half_agrees_with_server_half(void)
{
    char key[DH_WS_KEY_LEN + 1], other[DH_WS_KEY_LEN + 1], reqbuf[512], resp[512];
    dh_ws_request req;
    CU_ASSERT_EQUAL_FATAL(dh_ws_make_key(key), 0);
    CU_ASSERT_EQUAL_FATAL(dh_ws_make_key(other), 0);
    CU_ASSERT_STRING_NOT_EQUAL(key, other);
    int n = dh_ws_format_request(reqbuf, sizeof reqbuf, "127.0.0.1:7001", "/ws", key);
    CU_ASSERT_FATAL(n > 0);
    CU_ASSERT_EQUAL_FATAL(dh_ws_parse_request(reqbuf, (size_t)n, &req, NULL), n);
    CU_ASSERT_STRING_EQUAL(req.path, "/ws");
    int m = dh_ws_response(&req, resp, sizeof resp);
    CU_ASSERT_FATAL(m > 0);
    const char *why = NULL;
    CU_ASSERT_EQUAL(dh_ws_check_response(resp, (size_t)m, key, &why), m);
    CU_ASSERT_EQUAL(dh_ws_check_response(resp, (size_t)m - 1, key, &why), 0);
    CU_ASSERT_EQUAL(dh_ws_check_response(resp, (size_t)m, other, &why), -1);
    const char *refused = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
    CU_ASSERT_EQUAL(dh_ws_check_response(refused, strlen(refused), key, &why), -1);
}

/* Mutations of a valid request (AddressSanitizer watches): every answer is "incomplete",
 * "refused", or a head no longer than the input with a NUL-terminated path and key. */
static void test_ws_mutated_requests_are_safe(void)
{
    char buf[sizeof good];
    unsigned seed = 777;
    const char alphabet[] = "\r\n: GETws/=\tAa1";
    for (int round = 0; round < 20000; round++) {
        memcpy(buf, good, sizeof good);
        int edits = 1 + rand_r(&seed) % 4;
        for (int e = 0; e < edits; e++)
            buf[rand_r(&seed) % (sizeof good - 1)] =
                alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
        size_t len = (size_t)(rand_r(&seed) % sizeof good);
        dh_ws_request req;
        const char *why = NULL;
        long n = dh_ws_parse_request(buf, len, &req, &why);
        CU_ASSERT_FATAL(n <= (long)len);
        if (n > 0) {
            CU_ASSERT_FATAL(strlen(req.path) < sizeof req.path);
            CU_ASSERT_FATAL(strlen(req.key) == DH_WS_KEY_LEN);
        }
        char key[DH_WS_KEY_LEN + 1];
        CU_ASSERT_FATAL(dh_ws_check_response(buf, len, "dGhlIHNhbXBsZSBub25jZQ==", &why) <= 0 ||
                        dh_ws_make_key(key) == 0);
    }
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"ws_accept_rfc6455_example", test_ws_accept_rfc6455_example},
        {"ws_parse_valid_request", test_ws_parse_valid_request},
        {"ws_parse_incomplete_waits", test_ws_parse_incomplete_waits},
        {"ws_parse_keeps_trailing_bytes", test_ws_parse_keeps_trailing_bytes},
        {"ws_malformed_requests_rejected", test_ws_malformed_requests_rejected},
        {"ws_control_characters_rejected", test_ws_control_characters_rejected},
        {"ws_guard_refuses_an_oversized_message_at_its_header",
         test_ws_guard_refuses_an_oversized_message_at_its_header},
        {"ws_guard_refuses_huge_lengths_without_payload",
         test_ws_guard_refuses_huge_lengths_without_payload},
        {"ws_guard_is_idle_only_between_messages", test_ws_guard_is_idle_only_between_messages},
        {"ws_oversized_head_rejected", test_ws_oversized_head_rejected},
        {"ws_client_half_agrees_with_server_half", test_ws_client_half_agrees_with_server_half},
        {"ws_mutated_requests_are_safe", test_ws_mutated_requests_are_safe},
        {NULL, NULL},
    };
    return dh_test_main("ws", cases);
}
