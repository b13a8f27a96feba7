/*
 * test_gateway_static.c: the web client's files on the WebSocket port (gateway/static.h).
 * The module on a folder made here (types, caching headers, ETag revalidation, HEAD, no
 * way out of the folder, bounded sizes, the WebSocket upgrade left alone, a CSP that lets
 * the page connect only to its own origin, gzip to a client that accepts it), then the real
 * gateway (rig_gateway.h) answering a browser's plain GET on its WebSocket port while
 * the upgrade on /ws still works.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "rig_gateway.h"
#include "static.h"
#include "static_gz.h"

#define WEB_FILES 4 /* the files static_load takes of make_web_dir's */
#define LIB_LEN   6000

static char web_dir[64];

static void put_file(const char *rel, const char *text, size_t len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", web_dir, rel);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* The folder: index.html, an asset, a hidden file, a symlink out, a file too large. Made
 * before CUnit starts, so a failure here exits. */
static void make_web_dir(void)
{
    char path[256];
    snprintf(web_dir, sizeof web_dir, "/tmp/dh-test-web-XXXXXX");
    snprintf(path, sizeof path, "%s/assets", web_dir);
    if (!mkdtemp(web_dir) || snprintf(path, sizeof path, "%s/assets", web_dir) < 0 ||
        mkdir(path, 0700) < 0) {
        perror(web_dir);
        exit(1);
    }
    put_file("index.html", "<!doctype html><title>deckhand</title>", 38);
    put_file("assets/app-12ab.js", "console.log(1)", 14);
    put_file("assets/app-12ab.css", "body{}", 6);
    char *lib = malloc(LIB_LEN);
    for (size_t i = 0; lib && i < LIB_LEN; i++)
        lib[i] = "function card(name) { return name; }\n"[i % 37];
    if (!lib) {
        perror("malloc");
        exit(1);
    }
    put_file("assets/lib-34cd.js", lib, LIB_LEN);
    free(lib);
    put_file(".secret", "no", 2);
    snprintf(path, sizeof path, "%s/passwd", web_dir);
    size_t big = STATIC_FILE_MAX + 1;
    char *blob = calloc(1, big);
    if (symlink("/etc/passwd", path) < 0 || !blob) {
        perror(path);
        exit(1);
    }
    put_file("big.js", blob, big);
    free(blob);
}

static void ask(const gw_static *s, const char *req, static_answer *a)
{
    static_answer_request(s, req, strlen(req), a);
}

static bool has(const static_answer *a, const char *text)
{
    return strstr(a->head, text) != NULL;
}

static void test_static_serves_index_and_assets_with_types_and_caching(void)
{
    gw_static s;
    static_answer a;
    CU_ASSERT_EQUAL_FATAL(static_load(&s, web_dir), WEB_FILES);
    ask(&s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 200);
    CU_ASSERT(has(&a, "Content-Type: text/html; charset=utf-8\r\n"));
    CU_ASSERT(has(&a, "Content-Length: 38\r\n"));
    CU_ASSERT(has(&a, "Cache-Control: no-cache\r\n"));
    CU_ASSERT(has(&a, "Content-Security-Policy: default-src 'self'"));
    /* the page's WebSocket is its own origin's: 'self' covers ws and wss there (CSP 3) */
    CU_ASSERT(has(&a, "connect-src 'self';"));
    CU_ASSERT(!has(&a, " ws:") && !has(&a, " wss:"));
    CU_ASSERT(has(&a, "X-Content-Type-Options: nosniff\r\n"));
    CU_ASSERT_EQUAL(a.body_len, 38);
    CU_ASSERT_EQUAL(memcmp(a.body, "<!doctype html>", 15), 0);
    ask(&s, "GET /assets/app-12ab.js?v=2 HTTP/1.1\r\nHost: x\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 200);
    CU_ASSERT(has(&a, "Content-Type: text/javascript; charset=utf-8\r\n"));
    CU_ASSERT(has(&a, "Cache-Control: public, max-age=31536000, immutable\r\n"));
    ask(&s, "GET /assets/app-12ab.css HTTP/1.1\r\nHost: x\r\n\r\n", &a);
    CU_ASSERT(has(&a, "Content-Type: text/css; charset=utf-8\r\n"));
    CU_ASSERT_STRING_EQUAL(static_type("/x.svg"), "image/svg+xml");
    CU_ASSERT_STRING_EQUAL(static_type("/x.bin"), "application/octet-stream");
    CU_ASSERT_STRING_EQUAL(static_type("/a.b/noext"), "application/octet-stream");
    static_free(&s);
}

static void test_static_etag_revalidates_and_head_has_no_body(void)
{
    gw_static s;
    static_answer a;
    char req[256];
    CU_ASSERT_EQUAL_FATAL(static_load(&s, web_dir), WEB_FILES);
    ask(&s, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n", &a);
    const char *etag = strstr(a.head, "ETag: ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(etag);
    char tag[32];
    CU_ASSERT_EQUAL_FATAL(sscanf(etag, "ETag: %31s", tag), 1);
    snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match:  %s \r\n\r\n", tag);
    ask(&s, req, &a);
    CU_ASSERT_EQUAL(a.status, 304);
    CU_ASSERT_EQUAL(a.body_len, 0);
    ask(&s, "GET / HTTP/1.1\r\nIf-None-Match: \"0000000000000000\"\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 200);
    ask(&s, "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 200);
    CU_ASSERT_EQUAL(a.body_len, 0);
    CU_ASSERT(has(&a, "Content-Length: 38\r\n"));
    static_free(&s);
}

static void test_static_serves_nothing_outside_its_files(void)
{
    static const char *const reqs[] = {
        "GET /../../etc/passwd HTTP/1.1\r\n\r\n",
        "GET /assets/../index.html HTTP/1.1\r\n\r\n",
        "GET /%2e%2e/etc/passwd HTTP/1.1\r\n\r\n",
        "GET /passwd HTTP/1.1\r\n\r\n",
        "GET /.secret HTTP/1.1\r\n\r\n",
        "GET /big.js HTTP/1.1\r\n\r\n",
        "GET /assets HTTP/1.1\r\n\r\n",
        "GET /assets/ HTTP/1.1\r\n\r\n",
        "GET //index.html HTTP/1.1\r\n\r\n",
        "GET /ws HTTP/1.1\r\n\r\n",
    };
    gw_static s;
    static_answer a;
    CU_ASSERT_EQUAL_FATAL(static_load(&s, web_dir), WEB_FILES);
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        ask(&s, reqs[i], &a);
        CU_ASSERT_EQUAL(a.status, 404);
        if (a.status != 404)
            fprintf(stderr, "served: %s", reqs[i]);
    }
    ask(&s, "GET nope HTTP/1.1\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 400);
    CU_ASSERT(s.total <= STATIC_TOTAL_MAX);
    static_free(&s);
    CU_ASSERT_EQUAL(static_load(&s, "/nonexistent/dh-web"), 0);
    ask(&s, "GET / HTTP/1.1\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 404);
    CU_ASSERT_PTR_NOT_NULL(strstr((const char *)a.body, "not built"));
    static_free(&s);
}

/* body[0..n) inflated (gzip wrapper) into out; its length, or -1 when it is not gzip. */
static long gunzip(const uint8_t *body, size_t n, uint8_t *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return -1;
    z.next_in = (Bytef *)body;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = inflate(&z, Z_FINISH);
    long got = rc == Z_STREAM_END ? (long)z.total_out : -1;
    inflateEnd(&z);
    return got;
}

static void test_static_gzip_to_a_client_that_accepts_it(void)
{
    gw_static s;
    static_answer a;
    static uint8_t out[LIB_LEN + 16];
    char want[48];
    CU_ASSERT_EQUAL_FATAL(static_load(&s, web_dir), WEB_FILES);
    ask(&s, "GET /assets/lib-34cd.js HTTP/1.1\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n", &a);
    CU_ASSERT_EQUAL(a.status, 200);
    CU_ASSERT(has(&a, "Content-Encoding: gzip\r\n"));
    CU_ASSERT(has(&a, "Vary: Accept-Encoding\r\n"));
    CU_ASSERT(has(&a, "Cache-Control: public, max-age=31536000, immutable\r\n"));
    CU_ASSERT(a.body_len > 0 && a.body_len < LIB_LEN / 3);
    snprintf(want, sizeof want, "Content-Length: %zu\r\n", a.body_len);
    CU_ASSERT(has(&a, want));
    CU_ASSERT_EQUAL(gunzip(a.body, a.body_len, out, sizeof out), LIB_LEN);
    CU_ASSERT_EQUAL(memcmp(out, "function card(name)", 19), 0);
    static_free(&s);
}

static void test_static_plain_when_gzip_not_accepted(void)
{
    static const char *const refusals[] = {
        "",
        "Accept-Encoding: identity\r\n",
        "Accept-Encoding: gzip;q=0\r\n",
        "Accept-Encoding: br, gzip; q=0.0, *\r\n",
        "Accept-Encoding: gzipx\r\n",
    };
    gw_static s;
    static_answer a;
    char req[256];
    CU_ASSERT_EQUAL_FATAL(static_load(&s, web_dir), WEB_FILES);
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        snprintf(req, sizeof req, "GET /assets/lib-34cd.js HTTP/1.1\r\n%s\r\n", refusals[i]);
        ask(&s, req, &a);
        CU_ASSERT(!has(&a, "Content-Encoding"));
        CU_ASSERT(has(&a, "Vary: Accept-Encoding\r\n"));
        CU_ASSERT_EQUAL(a.body_len, LIB_LEN);
        CU_ASSERT(has(&a, "Content-Length: 6000\r\n"));
    }
    CU_ASSERT_TRUE(static_gz_accepted("x-gzip", 6));
    CU_ASSERT_TRUE(static_gz_accepted("*;q=0.5", 7));
    CU_ASSERT_TRUE(static_gz_accepted("GZIP;q=1", 8));
    CU_ASSERT_FALSE(static_gz_accepted(NULL, 0));
    /* a file that does not shrink has no gzip copy, so it does not vary */
    ask(&s, "GET /assets/app-12ab.js HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n", &a);
    CU_ASSERT(!has(&a, "Content-Encoding") && !has(&a, "Vary:"));
    CU_ASSERT_EQUAL(a.body_len, 14);
    static_free(&s);
}

static void test_static_gzip_copy_has_its_own_etag(void)
{
    gw_static s;
    static_answer a;
    char req[256], plain[32], gz[32];
    CU_ASSERT_EQUAL_FATAL(static_load(&s, web_dir), WEB_FILES);
    ask(&s, "GET /assets/lib-34cd.js HTTP/1.1\r\n\r\n", &a);
    CU_ASSERT_EQUAL_FATAL(sscanf(strstr(a.head, "ETag: "), "ETag: %31s", plain), 1);
    ask(&s, "GET /assets/lib-34cd.js HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n", &a);
    CU_ASSERT_EQUAL_FATAL(sscanf(strstr(a.head, "ETag: "), "ETag: %31s", gz), 1);
    CU_ASSERT_STRING_NOT_EQUAL(plain, gz);
    snprintf(
        req, sizeof req,
        "GET /assets/lib-34cd.js HTTP/1.1\r\nAccept-Encoding: gzip\r\nIf-None-Match: %s\r\n\r\n",
        gz);
    ask(&s, req, &a);
    CU_ASSERT_EQUAL(a.status, 304);
    snprintf(req, sizeof req, "GET /assets/lib-34cd.js HTTP/1.1\r\nIf-None-Match: %s\r\n\r\n", gz);
    ask(&s, req, &a); /* the plain copy is another representation: sent whole */
    CU_ASSERT_EQUAL(a.status, 200);
    CU_ASSERT_EQUAL(a.body_len, LIB_LEN);
    static_free(&s);
}

static void test_static_leaves_websocket_upgrades_alone(void)
{
    CU_ASSERT_TRUE(static_is_plain("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27));
    const char *up = "GET /ws HTTP/1.1\r\nHost: x\r\nupgrade: websocket\r\n\r\n";
    CU_ASSERT_FALSE(static_is_plain(up, strlen(up)));
    const char *post = "POST / HTTP/1.1\r\nHost: x\r\n\r\n";
    CU_ASSERT_FALSE(static_is_plain(post, strlen(post)));
    const char *half = "GET / HTTP/1.1\r\nHost: x\r\n";
    CU_ASSERT_FALSE(static_is_plain(half, strlen(half)));
}

/* Send req to the gateway's WebSocket port; the whole answer (the gateway closes). */
static size_t fetch(const char *req, char *buf, size_t cap)
{
    int fd = rg_tcp_connect(rg.ws_port);
    size_t got = 0;
    CU_ASSERT_FATAL(fd >= 0);
    rg_send_all(fd, req, strlen(req));
    for (;;) {
        ssize_t n = rg_read_some(fd, buf + got, cap - 1 - got, 3000);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    buf[got] = '\0';
    close(fd);
    return got;
}

static void test_gateway_answers_a_page_load_on_its_websocket_port(void)
{
    char buf[4096];
    fetch("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 200 OK\r\n", 17), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\r\n<!doctype html><title>deckhand</title>"));
    fetch("GET /assets/app-12ab.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\r\n\r\nconsole.log(1)"));
    fetch("GET /../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 404", 12), 0);
    fetch("DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", buf, sizeof buf);
    CU_ASSERT_EQUAL(strncmp(buf, "HTTP/1.1 400", 12), 0);
    rg_client *c = rg_ws_open(); /* the WebSocket on /ws is as it was */
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rg_login(c, "web", NULL, NULL);
    rg_send_ping(c, 2, 7);
    rg_expect_pong(c, 2, 7);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"static_serves_index_and_assets_with_types_and_caching",
         test_static_serves_index_and_assets_with_types_and_caching},
        {"static_etag_revalidates_and_head_has_no_body",
         test_static_etag_revalidates_and_head_has_no_body},
        {"static_serves_nothing_outside_its_files", test_static_serves_nothing_outside_its_files},
        {"static_gzip_to_a_client_that_accepts_it", test_static_gzip_to_a_client_that_accepts_it},
        {"static_plain_when_gzip_not_accepted", test_static_plain_when_gzip_not_accepted},
        {"static_gzip_copy_has_its_own_etag", test_static_gzip_copy_has_its_own_etag},
        {"static_leaves_websocket_upgrades_alone", test_static_leaves_websocket_upgrades_alone},
        {"gateway_answers_a_page_load_on_its_websocket_port",
         test_gateway_answers_a_page_load_on_its_websocket_port},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    make_web_dir();
    setenv("DECKHAND_GATEWAY_WEB_DIR", web_dir, 1);
    int rc = rg_main("gateway_static", cases);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", web_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", web_dir);
    return rc;
}
