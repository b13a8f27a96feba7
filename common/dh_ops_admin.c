/*
 * dh_ops_admin.c: the admin API's door on the operator port (dh_ops_admin.h).
 */
#include "dh_ops_admin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_clock.h"
#include "dh_log.h"

#define ADMIN_LOG_EVERY_MS 10000 /* refusals are logged at most this often */

dh_ops_admin *dh_ops_admin_new(const dh_admin_auth *auth)
{
    dh_ops_admin *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->auth = *auth;
    if (pipe2(a->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
        dh_error("admin: cannot make a pipe: %s", strerror(errno));
        free(a);
        return NULL;
    }
    pthread_mutex_init(&a->lock, NULL);
    atomic_init(&a->refused, 0);
    atomic_init(&a->refused_logged_ms, 0);
    return a;
}

void dh_ops_admin_free(dh_ops_admin *a)
{
    if (!a)
        return;
    while (a->head) {
        dh_ops_admin_req *q = a->head;
        a->head = q->next;
        free(q);
    }
    close(a->wake[0]);
    close(a->wake[1]);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

int dh_ops_admin_fd(const dh_ops_admin *a)
{
    return a->wake[0];
}

dh_ops_admin_req *dh_ops_admin_take(dh_ops_admin *a)
{
    char b;
    pthread_mutex_lock(&a->lock);
    dh_ops_admin_req *q = a->head;
    if (q) {
        a->head = q->next;
        if (!a->head)
            a->tail = NULL;
        a->n--;
        q->next = NULL;
    }
    if (!a->head) /* nothing waits: let the descriptor go quiet */
        while (read(a->wake[0], &b, 1) > 0)
            ;
    pthread_mutex_unlock(&a->lock);
    return q;
}

void dh_ops_admin_answer(dh_ops_admin *a, dh_ops_admin_req *q, int status, char *json, size_t len)
{
    dh_http_reply r = {
        .status = status, .content_type = "application/json", .body = json, .len = json ? len : 0};
    if (!json) {
        r.body = strdup("{}\n");
        r.len = r.body ? 3 : 0;
    }
    if (a->http)
        dh_http_answer(a->http, q->id, &r);
    else
        free(r.body);
    free(q);
}

/* A JSON error body {"error": why} (why holds no character JSON must escape). */
static void admin_error(dh_http_reply *r, int status, const char *why)
{
    dh_http_reply_text(r, status, "{\"error\":\"%s\"}\n", why);
    r->content_type = "application/json";
}

static void admin_refused(dh_ops_admin *a, const dh_http_request *req)
{
    dh_counter_inc(&a->refused);
    uint64_t now = dh_now_ms();
    uint64_t last = atomic_load(&a->refused_logged_ms);
    if (last && now - last < ADMIN_LOG_EVERY_MS)
        return;
    if (!atomic_compare_exchange_strong(&a->refused_logged_ms, &last, now))
        return;
    dh_warn("admin: refused %s %.64s: %s token (%llu refused so far)", req->method, req->path,
            req->authorization[0] ? "a wrong" : "no", (unsigned long long)atomic_load(&a->refused));
}

void dh_ops_admin_handle(dh_ops_admin *a, const dh_http_request *req, dh_http_reply *r)
{
    if (!a) {
        dh_http_reply_text(r, 404, "no admin API on this process (the matchmaker serves it)\n");
        return;
    }
    if (a->auth.n == 0) {
        admin_error(r, 403, "the admin API is off: the matchmaker has no DECKHAND_ADMIN_TOKEN");
        return;
    }
    const char *who = dh_admin_auth_check(&a->auth, req->authorization);
    if (!who) {
        admin_refused(a, req);
        admin_error(r, 401, "a valid bearer token is required (Authorization: Bearer TOKEN)");
        return;
    }
    if (strlen(req->path) >= DH_OPS_ADMIN_PATH || strlen(req->query) >= DH_OPS_ADMIN_QUERY) {
        admin_error(r, 400, "path or query too long");
        return;
    }
    dh_ops_admin_req *q = calloc(1, sizeof *q);
    if (!q) {
        admin_error(r, 503, "out of memory");
        return;
    }
    q->id = req->id;
    snprintf(q->method, sizeof q->method, "%s", req->method);
    snprintf(q->path, sizeof q->path, "%s", req->path);
    snprintf(q->query, sizeof q->query, "%s", req->query);
    snprintf(q->who, sizeof q->who, "%s", who);
    pthread_mutex_lock(&a->lock);
    bool full = a->n >= DH_OPS_ADMIN_QUEUE;
    if (!full) {
        if (a->tail)
            a->tail->next = q;
        else
            a->head = q;
        a->tail = q;
        a->n++;
        ssize_t w;
        do
            w = write(a->wake[1], "r", 1);
        while (w < 0 && errno == EINTR);
    }
    pthread_mutex_unlock(&a->lock);
    if (full) {
        free(q);
        admin_error(r, 503, "too many admin requests waiting; retry");
        return;
    }
    r->status = DH_HTTP_DEFER;
}

static int admin_hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long dh_ops_url_decode(const char *in, size_t n, bool plus, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = in[i];
        if (c == '+' && plus) {
            c = ' ';
        } else if (c == '%') {
            int hi = i + 2 < n ? admin_hex(in[i + 1]) : -1;
            int lo = i + 2 < n ? admin_hex(in[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return -2;
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (c == '\0' || o + 1 >= cap)
            return -2;
        out[o++] = c;
    }
    if (cap)
        out[o] = '\0';
    return (long)o;
}

long dh_ops_query(const char *query, const char *key, char *out, size_t cap)
{
    size_t kl = strlen(key);
    for (const char *p = query; p && *p;) {
        const char *end = strchr(p, '&');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=')
            return dh_ops_url_decode(p + kl + 1, n - kl - 1, true, out, cap);
        if (n == kl && strncmp(p, key, kl) == 0) { /* "key" alone: empty */
            if (cap)
                out[0] = '\0';
            return 0;
        }
        p = end ? end + 1 : NULL;
    }
    return -1;
}
