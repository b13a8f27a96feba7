/*
 * rig_http.h: a loopback HTTP client for the operator port's tests (test_http.c,
 * test_ops_admin.c): raw requests in, whole responses out.
 */
#ifndef DECKHAND_RIG_HTTP_H
#define DECKHAND_RIG_HTTP_H

#include <stddef.h>

/* A TCP connection to 127.0.0.1:port, or -1. */
int http_connect(int port);
/* Send all n bytes (stops quietly when the server closes first). */
void send_all(int fd, const char *p, size_t n);
/* Everything the server sends until it closes (at most cap-1 bytes, 3 s), in buf. */
char *read_all(int fd, char *buf, size_t cap);
/* Send req (len bytes) on a new connection; the whole response in buf. */
char *roundtrip(int port, const char *req, size_t len, char *buf, size_t cap);

#endif
