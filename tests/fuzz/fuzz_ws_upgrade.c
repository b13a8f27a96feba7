/*
 * fuzz_ws_upgrade.c: fuzz target `ws_upgrade`, the HTTP side of WebSocket (common/dh_ws.c):
 * the gateway parsing a client's Upgrade request, and the client library checking the
 * gateway's 101 answer.
 *
 * Input: byte 0 picks the side (even: server, odd: client) and where to cut the input once
 * more; the rest is the request or response head. Server properties: a request accepted is
 * at most the input and the header limit, has a path starting with "/" and a key of the
 * right length; every prefix of it asks for more bytes (so a request split across reads
 * is never refused); and the 101 built for it passes the client's own check with that key.
 * Client property: an accepted response is at most the input.
 */
#include <string.h>

#include "dh_ws.h"
#include "fuzz.h"

#define CLIENT_KEY "dGhlIHNhbXBsZSBub25jZQ==" /* the RFC 6455 example key */

/* Parse buf[0..len) in an allocation of exactly len bytes, so a read past it is caught. */
static long ws_parse(const uint8_t *buf, size_t len, dh_ws_request *req)
{
    char *copy = malloc(len ? len : 1);
    FUZZ_CHECK(copy);
    memcpy(copy, buf, len);
    const char *why = NULL;
    long n = dh_ws_parse_request(copy, len, req, &why);
    FUZZ_CHECK(n != -1 || why);
    free(copy);
    return n;
}

static void ws_server(const uint8_t *buf, size_t len, size_t cut)
{
    dh_ws_request req;
    long n = ws_parse(buf, len, &req);
    if (n <= 0)
        return;
    FUZZ_CHECK((size_t)n <= len && n <= DH_WS_HEADER_MAX);
    FUZZ_CHECK(req.path[0] == '/' && memchr(req.path, '\0', sizeof req.path));
    FUZZ_CHECK(strlen(req.key) == DH_WS_KEY_LEN);
    dh_ws_request part;
    FUZZ_CHECK(ws_parse(buf, (size_t)n - 1, &part) == 0);
    FUZZ_CHECK(ws_parse(buf, cut % (size_t)n, &part) == 0);
    char out[512];
    int rn = dh_ws_response(&req, out, sizeof out);
    FUZZ_CHECK(rn > 0);
    const char *why = NULL;
    FUZZ_CHECK(dh_ws_check_response(out, (size_t)rn, req.key, &why) == rn);
}

static void ws_client(const uint8_t *buf, size_t len)
{
    char *copy = malloc(len ? len : 1);
    FUZZ_CHECK(copy);
    memcpy(copy, buf, len);
    const char *why = NULL;
    long n = dh_ws_check_response(copy, len, CLIENT_KEY, &why);
    FUZZ_CHECK(n <= (long)len && (n != -1 || why));
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1)
        ws_client(data + 1, size - 1);
    else
        ws_server(data + 1, size - 1, data[0] >> 1);
    return 0;
}
