/*
 * dh_ops_admin.h: the admin API's door on the operator port (docs/OPERATIONS.md, "Admin
 * API"): the HTTP thread checks the bearer token (dh_admin_auth.h) and hands each
 * admitted request to the main loop, which owns the sockets and the Redis connection
 * the work needs; the loop's answer goes back through dh_http_answer.
 *
 *   a process that serves no admin API (workers, gateways)   -> 404
 *   a matchmaker with no DECKHAND_ADMIN_TOKEN                  -> 403, the API is off
 *   a missing or wrong token                                   -> 401 (logged; nothing
 *                                                                 reaches the loop)
 *   more than DH_OPS_ADMIN_QUEUE requests waiting              -> 503
 *   the loop does not answer within the port's timeout         -> 504 (dh_http.h)
 *
 * The main loop polls dh_ops_admin_fd (readable while requests wait), takes each with
 * dh_ops_admin_take and answers it once with dh_ops_admin_answer.
 */
#ifndef DECKHAND_DH_OPS_ADMIN_H
#define DECKHAND_DH_OPS_ADMIN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "dh_admin_auth.h"
#include "dh_http.h"
#include "dh_metrics.h"

#define DH_OPS_ADMIN_QUEUE 64
#define DH_OPS_ADMIN_QUERY 1024 /* bytes of a query string kept */
#define DH_OPS_ADMIN_PATH  256

/* One admitted request, owned by the main loop from dh_ops_admin_take to its answer. */
typedef struct dh_ops_admin_req {
    uint64_t id; /* the HTTP request's (dh_http_answer) */
    char method[8];
    char path[DH_OPS_ADMIN_PATH];
    char query[DH_OPS_ADMIN_QUERY];
    char who[DH_ADMIN_NAME_MAX]; /* the token's name */
    struct dh_ops_admin_req *next;
} dh_ops_admin_req;

typedef struct dh_ops_admin {
    dh_admin_auth auth;
    dh_http *http; /* set by dh_ops_start */
    pthread_mutex_t lock;
    dh_ops_admin_req *head, *tail; /* under lock */
    size_t n;                      /* under lock */
    int wake[2];                   /* a byte per request handed over; the loop polls wake[0] */
    dh_counter refused;            /* 401s */
    _Atomic uint64_t refused_logged_ms;
} dh_ops_admin;

/* The admin API with auth's tokens (copied; none: off, 403). NULL (logged) on failure. */
dh_ops_admin *dh_ops_admin_new(const dh_admin_auth *auth);
/* Free a (after the HTTP thread stopped) and every request still queued. NULL: no-op. */
void dh_ops_admin_free(dh_ops_admin *a);

/* The descriptor the main loop polls for POLLIN. */
int dh_ops_admin_fd(const dh_ops_admin *a);
/* The next waiting request (the caller owns it until dh_ops_admin_answer), or NULL. */
dh_ops_admin_req *dh_ops_admin_take(dh_ops_admin *a);
/* Answer q with status and a JSON body (malloc'd, taken over; NULL: "{}") and free q. */
void dh_ops_admin_answer(dh_ops_admin *a, dh_ops_admin_req *q, int status, char *json, size_t len);

/* On the HTTP thread: a request for /admin or below (a NULL: the process serves none). */
void dh_ops_admin_handle(dh_ops_admin *a, const dh_http_request *req, dh_http_reply *r);

/* URL-decode the n bytes at in ('+' is a space only when plus is true, as in a query)
 * into out: its length, or -2 when it does not fit cap-1 bytes, is badly encoded or holds
 * a NUL. */
long dh_ops_url_decode(const char *in, size_t n, bool plus, char *out, size_t cap);
/* The value of key in a query string ("a=1&b=x%20y"), URL-decoded ('+' is a space) into
 * out: its length, -1 when absent, or -2 when too long for cap-1 bytes, badly encoded or
 * holding a NUL. */
long dh_ops_query(const char *query, const char *key, char *out, size_t cap);

#endif
