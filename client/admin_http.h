/*
 * admin_http.h: the HTTP/1.1 client `deckhand admin` talks to the admin API with: one
 * request per connection (the server closes after its answer), a bearer token, a bounded
 * wait, the whole answer read into memory (at most ADMIN_HTTP_MAX bytes).
 */
#ifndef DECKHAND_CLIENT_ADMIN_HTTP_H
#define DECKHAND_CLIENT_ADMIN_HTTP_H

#include <stddef.h>

#define ADMIN_HTTP_MAX        (8u << 20)
#define ADMIN_HTTP_TIMEOUT_MS 15000

/* METHOD target (path and query, already encoded) on url ("http://HOST:PORT" or
 * "HOST:PORT") with "Authorization: Bearer token". The HTTP status, with the body
 * (malloc'd, NUL-terminated; the caller frees it) in *body; -1 with err filled when the
 * server cannot be reached or its answer is not HTTP. */
int admin_http(const char *url, const char *method, const char *target, const char *token,
               char **body, size_t *len, char *err, size_t errcap);

/* Append s to out (cap bytes, NUL-terminated) percent-encoded for a query string; -1
 * when it does not fit. */
int admin_http_encode(char *out, size_t cap, const char *s);

#endif
