/*
 * admin_http.c: the admin API's HTTP client (admin_http.h).
 */
#include "admin_http.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dh_flags.h"

static long long http_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A connected socket to host:port of url, or -1 with err. */
static int http_dial(const char *url, char *hostport, size_t hpcap, char *err, size_t errcap)
{
    if (!strncmp(url, "http://", 7))
        url += 7;
    snprintf(hostport, hpcap, "%.*s", (int)strcspn(url, "/"), url);
    char host[256], portstr[16];
    int port;
    if (dh_flags_hostport(hostport, host, sizeof host, &port) != 0) {
        snprintf(err, errcap, "bad admin address '%s' (want http://HOST:PORT)", hostport);
        return -1;
    }
    snprintf(portstr, sizeof portstr, "%d", port);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    int rc = getaddrinfo(host, portstr, &hints, &res);
    if (rc != 0) {
        snprintf(err, errcap, "cannot resolve %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
            snprintf(err, errcap, "cannot connect to %s: %s", hostport, strerror(errno));
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

/* Read until the server closes, the deadline, or the cap. */
static char *http_read_all(int fd, size_t *n, long long deadline, char *err, size_t errcap)
{
    size_t cap = 4096;
    char *buf = malloc(cap);
    *n = 0;
    while (buf) {
        int left = (int)(deadline - http_now_ms());
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, left) <= 0) {
            snprintf(err, errcap, "no answer within %d s", ADMIN_HTTP_TIMEOUT_MS / 1000);
            break;
        }
        if (*n + 1 >= cap) {
            char *more = cap < ADMIN_HTTP_MAX ? realloc(buf, cap * 2) : NULL;
            if (!more) {
                snprintf(err, errcap, "answer too large");
                break;
            }
            buf = more;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + *n, cap - 1 - *n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            buf[*n] = '\0';
            return buf;
        }
        *n += (size_t)r;
    }
    free(buf);
    return NULL;
}

int admin_http(const char *url, const char *method, const char *target, const char *token,
               char **body, size_t *len, char *err, size_t errcap)
{
    char hostport[300];
    *body = NULL;
    int fd = http_dial(url, hostport, sizeof hostport, err, errcap);
    if (fd < 0)
        return -1;
    char *req = NULL;
    int rn = asprintf(&req,
                      "%s %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"
                      "Content-Length: 0\r\nConnection: close\r\n\r\n",
                      method, target, hostport, token);
    long long deadline = http_now_ms() + ADMIN_HTTP_TIMEOUT_MS;
    size_t off = 0;
    while (rn > 0 && off < (size_t)rn) {
        ssize_t w = send(fd, req + off, (size_t)rn - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    free(req);
    size_t n = 0;
    char *all = rn > 0 && off == (size_t)rn ? http_read_all(fd, &n, deadline, err, errcap) : NULL;
    close(fd);
    if (!all) {
        if (rn <= 0 || off != (size_t)rn)
            snprintf(err, errcap, "cannot send the request to %s", hostport);
        return -1;
    }
    int status = 0;
    char *sep = strstr(all, "\r\n\r\n");
    if (sscanf(all, "HTTP/1.%*d %d", &status) != 1 || !sep) {
        snprintf(err, errcap, "%s did not answer HTTP", hostport);
        free(all);
        return -1;
    }
    sep += 4;
    *len = n - (size_t)(sep - all);
    memmove(all, sep, *len + 1);
    *body = all;
    return status;
}

int admin_http_encode(char *out, size_t cap, const char *s)
{
    size_t at = strlen(out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                     (*p >= '0' && *p <= '9') || strchr("-_.~", *p);
        if (at + (plain ? 1 : 3) + 1 > cap)
            return -1;
        if (plain)
            out[at++] = (char)*p;
        else
            at += (size_t)snprintf(out + at, cap - at, "%%%02X", *p);
    }
    out[at] = '\0';
    return 0;
}
