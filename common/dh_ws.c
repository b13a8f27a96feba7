/*
 * dh_ws.c: see dh_ws.h. Header names compare case-insensitively and Connection/Upgrade
 * are token lists ("keep-alive, Upgrade"), as browsers send them.
 */
#include "dh_ws.h"

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "dh_random.h"

static const char ws_guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/* Length of the head through "\r\n\r\n": >0 found, 0 need more, -1 too long. */
static long ws_head_len(const char *buf, size_t len)
{
    size_t lim = len < DH_WS_HEADER_MAX ? len : DH_WS_HEADER_MAX;
    for (size_t i = 3; i < lim; i++)
        if (buf[i - 3] == '\r' && buf[i - 2] == '\n' && buf[i - 1] == '\r' && buf[i] == '\n')
            return (long)i + 1;
    return len >= DH_WS_HEADER_MAX ? -1 : 0;
}

/* ws_head_len, with **why saying what is wrong when there is no head: too_large, or
 * "incomplete" (more bytes are needed). A caller's why may be NULL (it does not want to
 * know): *why is then pointed somewhere harmless, so the caller can always write it. */
static long ws_head_or_why(const char *buf, size_t len, const char *too_large, const char ***why)
{
    static const char *unread; /* where the why of a caller that passed none goes */
    if (!*why)
        *why = &unread;
    long head = ws_head_len(buf, len);
    if (head <= 0)
        **why = head < 0 ? too_large : "incomplete";
    return head;
}

/* True when the comma-separated list [v, v+n) holds token (case-insensitive). */
static bool ws_list_has(const char *v, size_t n, const char *token)
{
    size_t tl = strlen(token);
    size_t i = 0;
    while (i < n) {
        while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ','))
            i++;
        size_t s = i;
        while (i < n && v[i] != ',')
            i++;
        size_t e = i;
        while (e > s && (v[e - 1] == ' ' || v[e - 1] == '\t'))
            e--;
        if (e - s == tl && strncasecmp(v + s, token, tl) == 0)
            return true;
    }
    return false;
}

/* True when [p, end) holds no control character but tab (the RFC's OWS in values). */
static bool ws_no_controls(const char *p, const char *end)
{
    for (; p < end; p++)
        if (((unsigned char)*p < 0x20 && *p != '\t') || (unsigned char)*p == 0x7f)
            return false;
    return true;
}

/* Walk the header lines of a head (after its first line). For each, calls back with the
 * name and the trimmed value. Returns false on a malformed line (one with a control
 * character in it, a NUL or a bare LF among them). */
typedef void (*ws_header_fn)(const char *name, size_t nlen, const char *val, size_t vlen,
                             void *arg);

static bool ws_headers(const char *p, const char *end, ws_header_fn fn, void *arg)
{
    while (p < end) {
        const char *eol = memchr(p, '\r', (size_t)(end - p));
        if (!eol || eol + 1 >= end || eol[1] != '\n')
            return false;
        if (eol == p)
            return true; /* the blank line */
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon || colon == p || !ws_no_controls(p, eol))
            return false;
        for (const char *q = p; q < colon; q++)
            if (*q <= ' ' || *q >= 0x7f)
                return false;
        const char *v = colon + 1;
        const char *ve = eol;
        while (v < ve && (*v == ' ' || *v == '\t'))
            v++;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
            ve--;
        fn(p, (size_t)(colon - p), v, (size_t)(ve - v), arg);
        p = eol + 2;
    }
    return false;
}

static bool ws_name_is(const char *name, size_t nlen, const char *want)
{
    return strlen(want) == nlen && strncasecmp(name, want, nlen) == 0;
}

typedef struct {
    bool host, upgrade, connection, version, key_ok;
    int keys;
    char key[DH_WS_KEY_LEN + 1];
} ws_req_seen;

static bool ws_key_valid(const char *v, size_t n)
{
    unsigned char raw[20];
    if (n != DH_WS_KEY_LEN || v[n - 1] != '=' || v[n - 2] != '=')
        return false;
    /* EVP_DecodeBlock ignores nothing and rejects bad characters; 24 chars give 18 bytes
     * of which the last two are padding. */
    return EVP_DecodeBlock(raw, (const unsigned char *)v, (int)n) == 18;
}

static void ws_req_header(const char *name, size_t nlen, const char *val, size_t vlen, void *arg)
{
    ws_req_seen *s = arg;
    if (ws_name_is(name, nlen, "Host"))
        s->host = vlen > 0;
    else if (ws_name_is(name, nlen, "Upgrade"))
        s->upgrade = s->upgrade || ws_list_has(val, vlen, "websocket");
    else if (ws_name_is(name, nlen, "Connection"))
        s->connection = s->connection || ws_list_has(val, vlen, "upgrade");
    else if (ws_name_is(name, nlen, "Sec-WebSocket-Version"))
        s->version = vlen == 2 && memcmp(val, "13", 2) == 0;
    else if (ws_name_is(name, nlen, "Sec-WebSocket-Key")) {
        s->keys++;
        s->key_ok = ws_key_valid(val, vlen);
        if (s->key_ok) {
            memcpy(s->key, val, vlen);
            s->key[vlen] = '\0';
        }
    }
}

long dh_ws_parse_request(const char *buf, size_t len, dh_ws_request *req, const char **why)
{
    ws_req_seen seen;
    long head = ws_head_or_why(buf, len, "request head too large", &why);
    if (head <= 0)
        return head;
    const char *end = buf + head;
    const char *eol = memchr(buf, '\r', (size_t)head);
    if (strncmp(buf, "GET ", 4) != 0) {
        *why = "not a GET request";
        return -1;
    }
    const char *target = buf + 4;
    const char *sp = memchr(target, ' ', (size_t)(eol - target));
    if (!sp || *target != '/' || eol - sp != 9 || memcmp(sp, " HTTP/1.1", 9) != 0) {
        *why = "bad request line";
        return -1;
    }
    size_t tlen = (size_t)(sp - target);
    for (size_t i = 0; i < tlen; i++) {
        if ((unsigned char)target[i] <= 0x20 || (unsigned char)target[i] >= 0x7f) {
            *why = "control character in the request target";
            return -1;
        }
    }
    const char *q = memchr(target, '?', tlen);
    if (q)
        tlen = (size_t)(q - target);
    if (tlen >= sizeof req->path) {
        *why = "path too long";
        return -1;
    }
    memset(&seen, 0, sizeof seen);
    if (!ws_headers(eol + 2, end, ws_req_header, &seen)) {
        *why = "malformed header";
        return -1;
    }
    if (!seen.host)
        *why = "missing Host";
    else if (!seen.upgrade)
        *why = "missing Upgrade: websocket";
    else if (!seen.connection)
        *why = "missing Connection: Upgrade";
    else if (!seen.version)
        *why = "unsupported Sec-WebSocket-Version (want 13)";
    else if (seen.keys != 1 || !seen.key_ok)
        *why = "bad Sec-WebSocket-Key";
    else {
        memcpy(req->path, target, tlen);
        req->path[tlen] = '\0';
        memcpy(req->key, seen.key, sizeof req->key);
        *why = NULL;
        return head;
    }
    return -1;
}

/* The size of a frame header from its first two bytes: 2, plus 2 or 8 for an extended
 * length, plus 4 for a mask. */
static size_t ws_header_size(const uint8_t *h)
{
    size_t n = 2;
    if ((h[1] & 0x7f) == 126)
        n += 2;
    else if ((h[1] & 0x7f) == 127)
        n += 8;
    return n + ((h[1] & 0x80) ? 4 : 0);
}

/* Judge a whole header: NULL when acceptable (g->skip set to its payload), else why. */
static const char *ws_guard_header(dh_ws_guard *g, uint64_t max)
{
    const uint8_t *h = g->hdr;
    uint64_t len = h[1] & 0x7f;
    if (len == 126)
        len = (uint64_t)h[2] << 8 | h[3];
    else if (len == 127) {
        len = 0;
        for (int i = 2; i < 10; i++)
            len = len << 8 | h[i];
        if (len >> 63)
            return "frame length with its top bit set";
    }
    g->skip = len;
    if (h[0] & 0x08)
        return NULL; /* a control frame: small by the RFC, and wslay checks it */
    if ((h[0] & 0x0f) != 0)
        g->msg = 0;             /* a new message; a continuation adds to the one going on */
    g->in_msg = !(h[0] & 0x80); /* FIN ends the message */
    if (len > max || g->msg > max - len)
        return "message larger than the frame limit";
    g->msg += len;
    return NULL;
}

size_t dh_ws_guard_scan(dh_ws_guard *g, const uint8_t *p, size_t len, uint64_t max,
                        const char **why)
{
    size_t i = 0, start = 0; /* start: where the header being read began in p */
    while (i < len) {
        if (g->skip) {
            uint64_t n = len - i < g->skip ? len - i : g->skip;
            i += (size_t)n;
            g->skip -= n;
            continue;
        }
        if (g->have == 0)
            start = i;
        g->hdr[g->have++] = p[i++];
        if (g->have < 2 || g->have < ws_header_size(g->hdr))
            continue;
        g->have = 0;
        const char *bad = ws_guard_header(g, max);
        if (bad) {
            if (why)
                *why = bad;
            return start;
        }
    }
    return len;
}

bool dh_ws_guard_idle(const dh_ws_guard *g)
{
    return g->have == 0 && g->skip == 0 && !g->in_msg;
}

int dh_ws_accept(const char *key, char out[DH_WS_ACCEPT_LEN + 1])
{
    unsigned char digest[SHA_DIGEST_LENGTH];
    char cat[DH_WS_KEY_LEN + sizeof ws_guid];
    size_t kl = strlen(key);
    if (kl > DH_WS_KEY_LEN)
        return -1;
    memcpy(cat, key, kl);
    memcpy(cat + kl, ws_guid, sizeof ws_guid - 1);
    if (!SHA1((const unsigned char *)cat, kl + sizeof ws_guid - 1, digest))
        return -1;
    return EVP_EncodeBlock((unsigned char *)out, digest, sizeof digest) == DH_WS_ACCEPT_LEN ? 0
                                                                                            : -1;
}

int dh_ws_response(const dh_ws_request *req, char *out, size_t outlen)
{
    char accept[DH_WS_ACCEPT_LEN + 1];
    if (dh_ws_accept(req->key, accept) < 0)
        return -1;
    int n = snprintf(out, outlen,
                     "HTTP/1.1 101 Switching Protocols\r\n"
                     "Upgrade: websocket\r\n"
                     "Connection: Upgrade\r\n"
                     "Sec-WebSocket-Accept: %s\r\n\r\n",
                     accept);
    return n < 0 || (size_t)n >= outlen ? -1 : n;
}

int dh_ws_make_key(char out[DH_WS_KEY_LEN + 1])
{
    unsigned char raw[16];
    if (dh_random_bytes(raw, sizeof raw) < 0)
        return -1;
    return EVP_EncodeBlock((unsigned char *)out, raw, sizeof raw) == DH_WS_KEY_LEN ? 0 : -1;
}

int dh_ws_format_request(char *out, size_t outlen, const char *host, const char *path,
                         const char *key)
{
    int n = snprintf(out, outlen,
                     "GET %s HTTP/1.1\r\n"
                     "Host: %s\r\n"
                     "Upgrade: websocket\r\n"
                     "Connection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n",
                     path, host, key);
    return n < 0 || (size_t)n >= outlen ? -1 : n;
}

typedef struct {
    bool upgrade, connection, accept_ok;
    const char *want;
} ws_resp_seen;

static void ws_resp_header(const char *name, size_t nlen, const char *val, size_t vlen, void *arg)
{
    ws_resp_seen *s = arg;
    if (ws_name_is(name, nlen, "Upgrade"))
        s->upgrade = s->upgrade || ws_list_has(val, vlen, "websocket");
    else if (ws_name_is(name, nlen, "Connection"))
        s->connection = s->connection || ws_list_has(val, vlen, "upgrade");
    else if (ws_name_is(name, nlen, "Sec-WebSocket-Accept"))
        s->accept_ok = vlen == DH_WS_ACCEPT_LEN && memcmp(val, s->want, vlen) == 0;
}

long dh_ws_check_response(const char *buf, size_t len, const char *key, const char **why)
{
    char want[DH_WS_ACCEPT_LEN + 1];
    ws_resp_seen seen;
    long head = ws_head_or_why(buf, len, "response head too large", &why);
    if (head <= 0)
        return head;
    if (dh_ws_accept(key, want) < 0) {
        *why = "bad key";
        return -1;
    }
    if (strncmp(buf, "HTTP/1.1 101", 12) != 0 || (buf[12] != ' ' && buf[12] != '\r')) {
        *why = "upgrade refused";
        return -1;
    }
    memset(&seen, 0, sizeof seen);
    seen.want = want;
    const char *eol = memchr(buf, '\r', (size_t)head);
    if (!ws_headers(eol + 2, buf + head, ws_resp_header, &seen)) {
        *why = "malformed header";
        return -1;
    }
    if (!seen.upgrade || !seen.connection) {
        *why = "missing Upgrade/Connection";
        return -1;
    }
    if (!seen.accept_ok) {
        *why = "wrong Sec-WebSocket-Accept";
        return -1;
    }
    *why = NULL;
    return head;
}
