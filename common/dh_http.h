/*
 * dh_http.h: a tiny HTTP/1.1 server for a process's operator port (/healthz, /readyz,
 * /metrics: dh_ops.h).
 *
 * It runs on a thread of its own, so a scrape or a probe never costs the main loop a
 * system call, and a main loop that hangs is still reported (by /healthz) instead of
 * hanging the probe with it. The thread polls the listening socket and its clients.
 * GET and POST; one request per connection, answered with "Connection: close"; bounded in
 * every direction, since anyone who reaches the port can send anything:
 *   a request (line and headers) longer than max_request bytes   -> 431
 *   a request line that is not "METHOD /target HTTP/1.x"          -> 400
 *   any method but GET and POST                                   -> 405 (Allow: GET, POST)
 *   a connection still open timeout_ms after it was accepted      -> closed
 *   a deferred answer still missing then                          -> 504
 *   a connection past max_conns                                   -> 503 and closed
 * A request body is never read: parameters travel in the query string (the admin API's
 * POSTs too). The handler decides the status for each path and method (404 for the paths
 * it does not know). It is hand-written because the need is this small: a library would
 * be a dependency for a hundred lines of parsing.
 *
 * Deferred answers: a handler that cannot answer on this thread (the admin API, whose
 * work belongs to the main loop) sets the status DH_HTTP_DEFER and keeps the request's
 * id; whoever does the work later calls dh_http_answer(id) from any thread. The
 * connection waits, still bounded by timeout_ms, and other clients are served meanwhile.
 */
#ifndef DECKHAND_DH_HTTP_H
#define DECKHAND_DH_HTTP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t max_request; /* bytes of request line and headers */
    int timeout_ms;     /* from accept to the last byte of the response */
    int max_conns;      /* open connections at once */
} dh_http_limits;

#define DH_HTTP_LIMITS_DEFAULT ((dh_http_limits){8192, 5000, 64})

/* What a handler answers. status 200 and text/plain unless it says otherwise; body is
 * malloc'd (dh_http_reply_text) and freed by the server. */
typedef struct {
    int status;
    const char *content_type; /* a string literal */
    char *body;
    size_t len;
    const char *allow; /* with 405: the methods the path takes (a literal; "GET, POST") */
} dh_http_reply;

/* A handler's status: the answer comes later, through dh_http_answer. */
#define DH_HTTP_DEFER 0

/* One well-formed request, as the handler sees it (valid during the call only). */
typedef struct {
    const char *method;        /* "GET" or "POST" */
    const char *path;          /* the target, query string cut off */
    const char *query;         /* after '?', not decoded; "" when none */
    const char *authorization; /* the Authorization header's value; "" when none */
    uint64_t id;               /* names the request to dh_http_answer */
} dh_http_request;

/* Called on the server's thread for every well-formed GET or POST. It must only read what
 * other threads write through atomics or under a lock. */
typedef void (*dh_http_handler)(void *ud, const dh_http_request *req, dh_http_reply *r);

/* Set status and a printf-formatted body (on allocation failure: an empty body). */
void dh_http_reply_text(dh_http_reply *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

typedef struct dh_http dh_http;

/* Bind addr ("HOST:PORT"; port 0 picks a free one) and start the thread. NULL (logged)
 * when the address does not parse or bind, or the thread cannot start. */
dh_http *dh_http_start(const char *addr, const dh_http_limits *lim, dh_http_handler fn, void *ud);
/* The port actually bound. */
int dh_http_port(const dh_http *s);
/* Answer the deferred request id, from any thread; r's body is taken over. An id whose
 * connection is gone (closed at its deadline) drops the answer. */
void dh_http_answer(dh_http *s, uint64_t id, dh_http_reply *r);
/* Stop the thread, join it, close every socket and free s. NULL is a no-op. */
void dh_http_stop(dh_http *s);

#endif
