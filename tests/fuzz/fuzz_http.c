/*
 * fuzz_http.c: fuzz target `http`, the request parser of the operator port
 * (common/dh_http.c): what its server thread does with the bytes of one connection,
 * without the thread or a socket.
 *
 * The parser is static in dh_http.c (its only caller is the server loop), so this file
 * includes dh_http.c and drives http_process on a connection whose descriptor is -1, the
 * way http_read does after each read. Input: byte 0 picks the request limit (16..4096
 * bytes), byte 1 the size of each read (1..256); the rest is what the client sends.
 * Properties: the handler sees only a well-formed GET or POST, with a path that starts
 * with "/" and has no query, no fragment and no control character, a query without a
 * fragment, and an Authorization value without a line break; an answer is a whole
 * HTTP/1.1 response; input past the limit is never read.
 */
#include "dh_http.c"

#include "fuzz.h"

static void fuzz_handler(void *ud, const dh_http_request *req, dh_http_reply *r)
{
    const char *path = req->path;
    FUZZ_CHECK(!strcmp(req->method, "GET") || !strcmp(req->method, "POST"));
    FUZZ_CHECK(path[0] == '/' && strcspn(path, "?#") == strlen(path));
    FUZZ_CHECK(strchr(req->query, '#') == NULL);
    FUZZ_CHECK(strcspn(req->authorization, "\r\n") == strlen(req->authorization));
    for (const char *p = path; *p; p++)
        FUZZ_CHECK((unsigned char)*p > ' ' && (unsigned char)*p < 127);
    (*(int *)ud)++;
    dh_http_reply_text(r, 200, "%s\n", path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int handled = 0;
    dh_http s = {
        .lim = {.max_request = ((size_t)data[0] + 1) * 16, .timeout_ms = 1000, .max_conns = 1},
        .fn = fuzz_handler,
        .ud = &handled,
        .nconns = 1,
    };
    size_t chunk = (size_t)data[1] + 1;
    http_conn c = {.fd = -1, .state = HTTP_READ, .in = malloc(s.lim.max_request)};
    FUZZ_CHECK(c.in);
    for (size_t off = 2; off < size && c.state == HTTP_READ && c.in; off += chunk) {
        size_t n = size - off < chunk ? size - off : chunk;
        if (n > s.lim.max_request - c.inlen)
            n = s.lim.max_request - c.inlen;
        memcpy(c.in + c.inlen, data + off, n);
        c.inlen += n;
        http_process(&s, &c);
    }
    if (c.state == HTTP_WRITE) {
        FUZZ_CHECK(c.outlen > 12 && memcmp(c.out, "HTTP/1.1 ", 9) == 0);
        FUZZ_CHECK(handled <= 1 && (handled == 0) == (memcmp(c.out + 9, "200", 3) != 0));
    } else {
        FUZZ_CHECK(handled == 0);
    }
    free(c.in);
    free(c.out);
    return 0;
}
