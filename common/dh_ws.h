/*
 * dh_ws.h: the HTTP/1.1 side of WebSocket (RFC 6455 §4): parsing an Upgrade request,
 * computing Sec-WebSocket-Accept, and the client's half (a fresh key, the request, and
 * the check of the server's 101 answer).
 *
 * Why by hand: wslay codes frames but leaves the handshake to the application, and the
 * handshake is a few header lines. Both the gateway and the client library use this
 * module, so the two halves cannot drift apart. Frames are wslay's job, except for one
 * check before it: the frame guard (dh_ws_guard) reads each frame header of a peer's
 * stream as it arrives and refuses a data message over the size limit at its header,
 * before any payload and before wslay (which only looks once payload arrives, and then
 * closes with 1009 without letting the server say why).
 */
#ifndef DECKHAND_DH_WS_H
#define DECKHAND_DH_WS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DH_WS_HEADER_MAX 8192 /* a request or response head larger than this is refused */
#define DH_WS_PATH_MAX   256
#define DH_WS_KEY_LEN    24 /* base64 of 16 bytes */
#define DH_WS_ACCEPT_LEN 28 /* base64 of a SHA-1 */

typedef struct {
    char path[DH_WS_PATH_MAX]; /* the request target without its query: "/ws" */
    char key[DH_WS_KEY_LEN + 1];
} dh_ws_request;

/* The frame guard's state for one stream: the header being read, the payload still to
 * skip, and the size of the data message so far (across its fragments). Zero it to
 * start. */
typedef struct {
    uint8_t hdr[14]; /* a header is at most 2 + 8 (length) + 4 (mask) bytes */
    size_t have;     /* bytes of hdr read */
    uint64_t skip;   /* payload bytes of the current frame still to come */
    uint64_t msg;    /* bytes of the current data message, its fragments so far */
    bool in_msg;     /* a data message has begun and its final fragment has not */
} dh_ws_guard;

/* Read len more bytes of a peer's frames. Returns len when every frame header in them
 * (and any that completes in them) is acceptable; else the number of bytes before the
 * refused frame's header (0 when it began in an earlier call) and *why says what is
 * wrong: a data message larger than max bytes, or a length with its top bit set (RFC 6455
 * §5.2). Control frames are left to wslay. After a refusal the stream cannot go on. */
size_t dh_ws_guard_scan(dh_ws_guard *g, const uint8_t *p, size_t len, uint64_t max,
                        const char **why);

/* Whether the stream read so far ends between messages: no header or payload half read,
 * no fragmented message going on. A reader may then drop its frame state (the gateway
 * frees an idle connection's wslay context). */
bool dh_ws_guard_idle(const dh_ws_guard *g);

/* Parse an Upgrade request from the len bytes at buf. Returns the length of the request
 * head (through the blank line) when it is complete and valid, 0 when more bytes are
 * needed, -1 when it is not a valid WebSocket upgrade (*why says what; answer 400). A GET
 * with the right headers is valid whatever its path: the caller checks req->path. A
 * control character (below 0x20 or 0x7f) anywhere in the request line or a header (a tab
 * is allowed in header values, RFC 7230 §3.2) makes it invalid: "/ws\0zz" is not "/ws". */
long dh_ws_parse_request(const char *buf, size_t len, dh_ws_request *req, const char **why);

/* Sec-WebSocket-Accept for key: base64(SHA-1(key + the RFC's GUID)). Returns 0, or -1. */
int dh_ws_accept(const char *key, char out[DH_WS_ACCEPT_LEN + 1]);

/* The server's 101 answer for a parsed request. Returns its length, or -1 when out is
 * too small. */
int dh_ws_response(const dh_ws_request *req, char *out, size_t outlen);

/* Client side: a fresh random key (base64 of 16 random bytes). Returns 0, or -1. */
int dh_ws_make_key(char out[DH_WS_KEY_LEN + 1]);

/* Client side: the Upgrade request for host (the Host header, "127.0.0.1:7001") and path.
 * Returns its length, or -1 when out is too small. */
int dh_ws_format_request(char *out, size_t outlen, const char *host, const char *path,
                         const char *key);

/* Client side: check the server's answer to a request made with key. Returns the length of
 * the response head when it is a complete 101 with the right accept value (bytes after it
 * are already WebSocket frames), 0 when more bytes are needed, -1 when the upgrade was
 * refused or the answer is wrong (*why says what). */
long dh_ws_check_response(const char *buf, size_t len, const char *key, const char **why);

#endif
