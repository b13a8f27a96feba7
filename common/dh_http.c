/*
 * dh_http.c: the operator port's HTTP server (dh_http.h).
 *
 * One thread, one poll() over a wake-up pipe, the listening socket and every client.
 * A client goes through four states: READ (collect the request up to the blank line),
 * WAIT (a deferred answer: dh_http_answer queues it under the lock and writes a byte on
 * the wake-up pipe), WRITE (send the whole response), LINGER (our side shut down for writing; read
 * and discard until the client closes, so that closing a socket with unread input does not turn
 * into a reset that destroys the response before the client read it). Every state is bounded by the
 * connection's deadline. Known limit: poll() rebuilds its array every turn, which is fine for
 * max_conns in the tens.
 */
#include "dh_http.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dh_clock.h"
#include "dh_log.h"

#define HTTP_LINGER_MS 1000 /* at most this long to wait for the client's close */
#define HTTP_PAUSE_MS  250  /* out of descriptors: accept again after this long */
#define HTTP_AUTH_MAX  512  /* bytes of an Authorization header kept */

typedef enum { HTTP_READ, HTTP_WAIT, HTTP_WRITE, HTTP_LINGER } http_state;

/* A deferred answer on its way to the server's thread. */
typedef struct http_answer {
    uint64_t id;
    dh_http_reply r;
    struct http_answer *next;
} http_answer;

typedef struct {
    int fd;
    http_state state;
    uint64_t deadline_ms;
    char *in; /* max_request bytes */
    size_t inlen;
    char *out;
    size_t outlen, outoff;
    uint64_t id; /* the request's, while WAIT */
} http_conn;

struct dh_http {
    dh_http_limits lim;
    dh_http_handler fn;
    void *ud;
    int lfd, port;
    int wake[2]; /* a byte on wake[1] stops the thread */
    pthread_t thread;
    http_conn *conns; /* max_conns slots, fd -1 when free */
    int nconns;
    struct pollfd *pfds;
    uint64_t paused_until_ms; /* out of descriptors: the listener is not polled until then */
    uint64_t next_id;         /* the next request's id (the thread's alone) */
    atomic_bool stopping;     /* set before the stop's byte on wake[1] */
    pthread_mutex_t lock;     /* guards answers */
    http_answer *answers;     /* deferred answers not taken yet, newest first */
};

void dh_http_reply_text(dh_http_reply *r, int status, const char *fmt, ...)
{
    va_list ap;
    r->status = status;
    free(r->body);
    r->body = NULL;
    r->len = 0;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(r->body = malloc((size_t)n + 1)))
        return;
    va_start(ap, fmt);
    vsnprintf(r->body, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r->len = (size_t)n;
}

static const char *http_reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 409:
        return "Conflict";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Unknown";
    }
}

static void http_close(dh_http *s, http_conn *c)
{
    close(c->fd);
    free(c->in);
    free(c->out);
    *c = (http_conn){.fd = -1};
    s->nconns--;
}

/* Queue the response on c (WRITE state); r's body is consumed. On allocation failure
 * the connection is closed. */
static void http_respond(dh_http *s, http_conn *c, dh_http_reply *r)
{
    char head[320], allow[64] = "";
    if (r->status == 405)
        snprintf(allow, sizeof allow, "Allow: %s\r\n", r->allow ? r->allow : "GET, POST");
    int hn = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                      "Cache-Control: no-store\r\n%s%sConnection: close\r\n\r\n",
                      r->status, http_reason(r->status),
                      r->content_type ? r->content_type : "text/plain; charset=utf-8", r->len,
                      r->status == 401 ? "WWW-Authenticate: Bearer\r\n" : "", allow);
    c->out = malloc((size_t)hn + r->len);
    if (!c->out) {
        free(r->body);
        http_close(s, c);
        return;
    }
    memcpy(c->out, head, (size_t)hn);
    if (r->len)
        memcpy(c->out + hn, r->body, r->len);
    free(r->body);
    c->outlen = (size_t)hn + r->len;
    c->outoff = 0;
    c->state = HTTP_WRITE;
}

static void http_error(dh_http *s, http_conn *c, int status, const char *why)
{
    dh_http_reply r = {0};
    dh_http_reply_text(&r, status, "%s\n", why);
    http_respond(s, c, &r);
}

/* The request line "METHOD SP TARGET SP HTTP/1.x": 0 with method and target cut out
 * (NUL-terminated, in place), or -1. */
static int http_parse_line(char *line, char **method, char **target)
{
    char *sp1 = strchr(line, ' ');
    if (!sp1 || sp1 == line || sp1 - line > 16)
        return -1;
    for (char *p = line; p < sp1; p++)
        if (*p < 'A' || *p > 'Z')
            return -1;
    char *t = sp1 + 1;
    char *sp2 = strchr(t, ' ');
    if (!sp2 || t[0] != '/')
        return -1;
    for (char *p = t; p < sp2; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 127)
            return -1;
    if (strncmp(sp2 + 1, "HTTP/1.", 7) != 0 || sp2[8] < '0' || sp2[8] > '9' || sp2[9])
        return -1;
    *sp1 = *sp2 = '\0';
    *method = line;
    *target = t;
    return 0;
}

/* The value of the header name (lowercase, with its colon: "authorization:") among the
 * n bytes of headers at h, cut to cap-1 bytes, into out ("" when absent, or when the value
 * holds a control character other than a tab). */
static void http_header(const char *h, size_t n, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    out[0] = '\0';
    for (const char *p = h, *end = h + n; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        if ((size_t)(eol - p) > nl && strncasecmp(p, name, nl) == 0) {
            const char *v = p + nl, *ve = eol;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            for (const char *q = v; q < ve; q++)
                if ((unsigned char)*q < 0x20 ? *q != '\t' : (unsigned char)*q == 0x7f)
                    return; /* a control character (a bare CR...): no such header */
            size_t len = (size_t)(ve - v) < cap - 1 ? (size_t)(ve - v) : cap - 1;
            memcpy(out, v, len);
            out[len] = '\0';
            return;
        }
        p = eol + 1;
    }
}

/* Hand a complete request to the handler; answer it now or wait (DH_HTTP_DEFER). */
static void http_dispatch(dh_http *s, http_conn *c, const char *method, char *target,
                          size_t linelen)
{
    char auth[HTTP_AUTH_MAX];
    http_header(c->in + linelen + 1, c->inlen - linelen - 1, "authorization:", auth, sizeof auth);
    char *q = strchr(target, '?');
    if (q)
        *q++ = '\0';
    target[strcspn(target, "#")] = '\0';
    if (q)
        q[strcspn(q, "#")] = '\0';
    dh_http_request req = {.method = method,
                           .path = target,
                           .query = q ? q : "",
                           .authorization = auth,
                           .id = ++s->next_id};
    dh_http_reply r = {.status = 200};
    s->fn(s->ud, &req, &r);
    if (r.status == DH_HTTP_DEFER) {
        free(r.body);
        c->id = req.id;
        c->state = HTTP_WAIT;
        return;
    }
    http_respond(s, c, &r);
}

/* What was read so far: answer once the request line is bad, the headers are complete,
 * or the request is too long. */
static void http_process(dh_http *s, http_conn *c)
{
    char *eol = memchr(c->in, '\n', c->inlen);
    if (eol) {
        size_t linelen = (size_t)(eol - c->in);
        if (linelen == 0 || c->in[linelen - 1] != '\r' || memchr(c->in, '\0', linelen)) {
            http_error(s, c, 400, "bad request line");
            return;
        }
        char line[1024];
        char *method, *target;
        if (linelen - 1 >= sizeof line) {
            http_error(s, c, 431, "request line too long");
            return;
        }
        memcpy(line, c->in, linelen - 1);
        line[linelen - 1] = '\0';
        if (http_parse_line(line, &method, &target) < 0) {
            http_error(s, c, 400, "bad request line");
            return;
        }
        bool done = false;
        for (size_t i = 3; i < c->inlen && !done; i++)
            done = memcmp(c->in + i - 3, "\r\n\r\n", 4) == 0;
        if (done) {
            if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0) {
                http_error(s, c, 405, "only GET and POST");
                return;
            }
            http_dispatch(s, c, method, target, linelen);
            return;
        }
    }
    if (c->inlen >= s->lim.max_request)
        http_error(s, c, 431, "request too large");
}

static void http_read(dh_http *s, http_conn *c)
{
    char sink[1024];
    for (;;) {
        ssize_t n;
        if (c->state == HTTP_READ)
            n = read(c->fd, c->in + c->inlen, s->lim.max_request - c->inlen);
        else
            n = read(c->fd, sink, sizeof sink);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) { /* the client closed (or failed) before or after its answer */
            http_close(s, c);
            return;
        }
        if (c->state != HTTP_READ)
            continue;
        c->inlen += (size_t)n;
        http_process(s, c);
        if (c->fd < 0 || c->state != HTTP_READ)
            return;
    }
}

static void http_write(dh_http *s, http_conn *c, uint64_t now)
{
    while (c->outoff < c->outlen) {
        ssize_t n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0) {
            http_close(s, c);
            return;
        }
        c->outoff += (size_t)n;
    }
    shutdown(c->fd, SHUT_WR);
    c->state = HTTP_LINGER;
    if (c->deadline_ms > now + HTTP_LINGER_MS)
        c->deadline_ms = now + HTTP_LINGER_MS;
}

static void http_accept(dh_http *s, uint64_t now)
{
    static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 5\r\n"
                               "Connection: close\r\n\r\nbusy\n";
    for (;;) {
        int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            /* Out of descriptors the pending connection stays readable: polling it again
             * at once would spin, so the listener rests for a while. */
            if (errno == EMFILE || errno == ENFILE)
                s->paused_until_ms = now + HTTP_PAUSE_MS;
            return;
        }
        if (s->nconns == s->lim.max_conns) {
            ssize_t n = send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL);
            (void)n; /* best effort: the client is dropped either way */
            close(fd);
            continue;
        }
        int i = 0;
        while (s->conns[i].fd >= 0)
            i++;
        http_conn *c = &s->conns[i];
        *c = (http_conn){
            .fd = fd, .state = HTTP_READ, .deadline_ms = now + (uint64_t)s->lim.timeout_ms};
        c->in = malloc(s->lim.max_request);
        s->nconns++;
        if (!c->in)
            http_close(s, c);
    }
}

/* The wake-up pipe spoke: true when it is the stop; else the deferred answers queued
 * since are matched to their waiting connections (one gone drops its answer). */
static bool http_wake(dh_http *s)
{
    char sink[64];
    while (read(s->wake[0], sink, sizeof sink) > 0)
        ;
    if (atomic_load(&s->stopping))
        return true;
    pthread_mutex_lock(&s->lock);
    http_answer *a = s->answers;
    s->answers = NULL;
    pthread_mutex_unlock(&s->lock);
    while (a) {
        http_answer *next = a->next;
        http_conn *c = NULL;
        for (int i = 0; i < s->lim.max_conns && !c; i++)
            if (s->conns[i].fd >= 0 && s->conns[i].state == HTTP_WAIT && s->conns[i].id == a->id)
                c = &s->conns[i];
        if (c)
            http_respond(s, c, &a->r);
        else
            free(a->r.body);
        free(a);
        a = next;
    }
    return false;
}

void dh_http_answer(dh_http *s, uint64_t id, dh_http_reply *r)
{
    http_answer *a = malloc(sizeof *a);
    if (!a) { /* the client gets its 504 at the deadline */
        free(r->body);
        r->body = NULL;
        return;
    }
    a->id = id;
    a->r = *r;
    r->body = NULL;
    pthread_mutex_lock(&s->lock);
    a->next = s->answers;
    s->answers = a;
    pthread_mutex_unlock(&s->lock);
    ssize_t n;
    do
        n = write(s->wake[1], "a", 1);
    while (n < 0 && errno == EINTR);
    /* a full pipe (EAGAIN) already holds a wake-up the thread has not read yet */
}

static void *http_main(void *arg)
{
    dh_http *s = arg;
    int *slot = malloc(sizeof *slot * (size_t)s->lim.max_conns);
    if (!slot)
        return NULL;
    for (;;) {
        uint64_t now = dh_now_ms();
        int np = 0, timeout = -1;
        bool paused = now < s->paused_until_ms;
        s->pfds[np++] = (struct pollfd){.fd = s->wake[0], .events = POLLIN};
        /* a negative fd is skipped by poll(): the listener while paused */
        s->pfds[np++] = (struct pollfd){.fd = paused ? -1 : s->lfd, .events = POLLIN};
        if (paused)
            timeout = (int)(s->paused_until_ms - now);
        for (int i = 0; i < s->lim.max_conns; i++) {
            http_conn *c = &s->conns[i];
            if (c->fd < 0)
                continue;
            int left = c->deadline_ms > now ? (int)(c->deadline_ms - now) : 0;
            if (timeout < 0 || left < timeout)
                timeout = left;
            slot[np - 2] = i;
            s->pfds[np++] =
                (struct pollfd){.fd = c->fd, .events = c->state == HTTP_WRITE ? POLLOUT : POLLIN};
        }
        if (poll(s->pfds, (nfds_t)np, timeout) < 0 && errno != EINTR)
            break;
        if (s->pfds[0].revents && http_wake(s))
            break;
        now = dh_now_ms();
        for (int k = 2; k < np; k++) {
            http_conn *c = &s->conns[slot[k - 2]];
            short ev = s->pfds[k].revents;
            if (ev & (POLLIN | POLLHUP | POLLERR))
                http_read(s, c);
            if (c->fd >= 0 && c->state == HTTP_WAIT && now >= c->deadline_ms) {
                c->deadline_ms = now + HTTP_LINGER_MS; /* time to send what follows */
                http_error(s, c, 504, "no answer in time: the process's main loop is busy");
            }
            if (c->fd >= 0 && c->state == HTTP_WRITE)
                http_write(s, c, now);
            if (c->fd >= 0 && now >= c->deadline_ms)
                http_close(s, c);
        }
        if (s->pfds[1].revents)
            http_accept(s, now);
    }
    free(slot);
    return NULL;
}

/* A listening, non-blocking socket on addr; -1 (logged) on failure. */
static int http_listen(const char *addr, int *port)
{
    char host[256], portstr[16];
    const char *colon = strrchr(addr, ':');
    char *end;
    long p = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || !colon[1] || *end || p < 0 || p > 65535 ||
        (size_t)(colon - addr) >= sizeof host) {
        dh_error("http: bad address '%s' (want HOST:PORT)", addr);
        return -1;
    }
    /* "[::1]:9100": the brackets are not part of the host */
    size_t hl = (size_t)(colon - addr);
    const char *h = addr;
    if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') {
        h++;
        hl -= 2;
    }
    memcpy(host, h, hl);
    host[hl] = '\0';
    snprintf(portstr, sizeof portstr, "%ld", p);
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    int rc = getaddrinfo(host[0] ? host : NULL, portstr, &hints, &res);
    if (rc != 0) {
        dh_error("http: cannot resolve '%s': %s", addr, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 64) < 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        dh_error("http: cannot listen on %s: %s", addr, strerror(err));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &sl);
    char pbuf[16];
    if (getnameinfo((struct sockaddr *)&ss, sl, NULL, 0, pbuf, sizeof pbuf, NI_NUMERICSERV) == 0)
        *port = atoi(pbuf);
    return fd;
}

dh_http *dh_http_start(const char *addr, const dh_http_limits *lim, dh_http_handler fn, void *ud)
{
    dh_http *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->lim = lim ? *lim : DH_HTTP_LIMITS_DEFAULT;
    s->fn = fn;
    s->ud = ud;
    s->lfd = s->wake[0] = s->wake[1] = -1;
    if (s->lim.max_request < 64 || s->lim.timeout_ms < 1 || s->lim.max_conns < 1)
        goto err;
    s->conns = malloc(sizeof *s->conns * (size_t)s->lim.max_conns);
    s->pfds = malloc(sizeof *s->pfds * ((size_t)s->lim.max_conns + 2));
    if (!s->conns || !s->pfds)
        goto err;
    for (int i = 0; i < s->lim.max_conns; i++)
        s->conns[i] = (http_conn){.fd = -1};
    if ((s->lfd = http_listen(addr, &s->port)) < 0)
        goto err;
    if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) < 0)
        goto err;
    atomic_init(&s->stopping, false);
    pthread_mutex_init(&s->lock, NULL);
    if (pthread_create(&s->thread, NULL, http_main, s) != 0) {
        dh_error("http: cannot start the thread");
        pthread_mutex_destroy(&s->lock);
        goto err;
    }
    return s;
err:
    if (s->wake[0] >= 0) {
        close(s->wake[0]);
        close(s->wake[1]);
    }
    if (s->lfd >= 0)
        close(s->lfd);
    free(s->conns);
    free(s->pfds);
    free(s);
    return NULL;
}

int dh_http_port(const dh_http *s)
{
    return s->port;
}

void dh_http_stop(dh_http *s)
{
    if (!s)
        return;
    atomic_store(&s->stopping, true);
    ssize_t n;
    do
        n = write(s->wake[1], "x", 1);
    while (n < 0 && errno == EINTR);
    pthread_join(s->thread, NULL);
    while (s->answers) {
        http_answer *a = s->answers;
        s->answers = a->next;
        free(a->r.body);
        free(a);
    }
    pthread_mutex_destroy(&s->lock);
    for (int i = 0; i < s->lim.max_conns; i++)
        if (s->conns[i].fd >= 0)
            http_close(s, &s->conns[i]);
    close(s->wake[0]);
    close(s->wake[1]);
    close(s->lfd);
    free(s->conns);
    free(s->pfds);
    free(s);
}
