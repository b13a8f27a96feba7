/*
 * static.c: see static.h. The web client's files, loaded once, answered from memory.
 *
 * Caching: the bundle's files under /assets/ carry a hash of their contents in their
 * names (the build makes them so), so they may be kept for a year ("immutable"); every
 * other file (index.html, which names the current assets) is revalidated on each load
 * with its ETag, a 304 costing no body. Every answer closes its connection: a page load
 * is a handful of requests, and keeping the WebSocket port's connections one-shot keeps
 * conn.c's life cycle as it is.
 *
 * Compression: text files are also kept gzip-compressed (static_gz.h) and sent so to a
 * client that accepts it; the two copies have their own ETags, and a file with a gzip
 * copy says Vary: Accept-Encoding, so a shared cache keeps them apart.
 */
#include "static.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dh_grow.h"
#include "dh_log.h"
#include "static_gz.h"

/* Headers every answer carries: the page loads only its own scripts and styles and talks
 * only to its own origin's WebSocket ('self' covers ws: and wss: on the page's own host
 * and port in CSP level 3, which current browsers implement; a browser older than that
 * refuses the page's own WebSocket rather than allowing any other). */
#define STATIC_SECURITY                                                                            \
    "X-Content-Type-Options: nosniff\r\n"                                                          \
    "Referrer-Policy: no-referrer\r\n"                                                             \
    "Content-Security-Policy: default-src 'self'; connect-src 'self'; "                            \
    "img-src 'self' data:; style-src 'self'; frame-ancestors 'none'\r\n"

static const struct {
    const char *ext;
    const char *type;
} static_types[] = {
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json"},
    {".map", "application/json"},
    {".webmanifest", "application/manifest+json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".ico", "image/x-icon"},
    {".woff2", "font/woff2"},
    {".txt", "text/plain; charset=utf-8"},
};

const char *static_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof static_types / sizeof static_types[0]; i++)
            if (strcasecmp(dot, static_types[i].ext) == 0)
                return static_types[i].type;
    return "application/octet-stream";
}

/* FNV-1a, 64 bits: an ETag needs only to change when the bytes do. */
static uint64_t static_hash(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Names a client may ask for: letters, digits, '.', '-', '_' (and '/' between parts). */
static bool static_name_ok(const char *part)
{
    if (!part[0] || part[0] == '.')
        return false;
    for (const char *p = part; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '-' || *p == '_'))
            return false;
    return true;
}

/* Keep f's gzip copy when it is worth it and smaller; without one (zlib failed) the file
 * is served plain. */
static void static_add_gz(static_file *f, uint64_t hash)
{
    if (!static_gz_worth(f->type) || static_gz_deflate(f->body, f->len, &f->gz, &f->gz_len) < 0)
        return;
    if (f->gz_len >= f->len) {
        free(f->gz);
        f->gz = NULL;
        f->gz_len = 0;
        return;
    }
    snprintf(f->etag_gz, sizeof f->etag_gz, "\"%016llx-gz\"", (unsigned long long)hash);
}

/* Read the regular file at path (already lstat'ed as st) into a new entry named name. */
static int static_add(gw_static *s, size_t *cap, const char *path, const char *name,
                      const struct stat *st)
{
    if ((size_t)st->st_size > STATIC_FILE_MAX ||
        s->total + (size_t)st->st_size > STATIC_TOTAL_MAX || s->nfiles >= STATIC_FILES_MAX ||
        strlen(name) >= STATIC_NAME_MAX) {
        dh_warn("web: %s skipped (over %u bytes a file, %u in all, or %d files)", path,
                STATIC_FILE_MAX, STATIC_TOTAL_MAX, STATIC_FILES_MAX);
        return 0;
    }
    if (dh_grow(&s->files, cap, s->nfiles + 1, sizeof *s->files, 16) < 0)
        return -1;
    static_file *f = &s->files[s->nfiles];
    memset(f, 0, sizeof *f);
    size_t len = (size_t)st->st_size;
    if (!(f->body = malloc(len ? len : 1)))
        return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    size_t got = 0;
    while (fd >= 0 && got < len) {
        ssize_t r = read(fd, f->body + got, len - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (fd >= 0)
        close(fd);
    if (got != len) {
        dh_warn("web: cannot read %s", path);
        free(f->body);
        return 0;
    }
    memcpy(f->name, name, strlen(name) + 1); /* shorter than STATIC_NAME_MAX: checked above */
    f->type = static_type(name);
    f->len = len;
    uint64_t hash = static_hash(f->body, len);
    snprintf(f->etag, sizeof f->etag, "\"%016llx\"", (unsigned long long)hash);
    static_add_gz(f, hash);
    s->nfiles++;
    s->total += len;
    return 0;
}

/* Load the folder dir, whose files are served as prefix + "/" + their name. */
static int static_walk(gw_static *s, size_t *cap, const char *dir, const char *prefix, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        char path[1024], name[STATIC_NAME_MAX * 2];
        struct stat st;
        if (!static_name_ok(e->d_name))
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
            (size_t)snprintf(name, sizeof name, "%s/%s", prefix, e->d_name) >= STATIC_NAME_MAX ||
            lstat(path, &st) < 0)
            continue;
        if (S_ISREG(st.st_mode))
            rc = static_add(s, cap, path, name, &st);
        else if (S_ISDIR(st.st_mode) && depth < STATIC_DEPTH_MAX)
            rc = static_walk(s, cap, path, name, depth + 1);
    }
    closedir(d);
    return rc;
}

int static_load(gw_static *s, const char *dir)
{
    size_t cap = 0;
    memset(s, 0, sizeof *s);
    if (static_walk(s, &cap, dir, "", 0) < 0) {
        static_free(s);
        return -1;
    }
    return (int)s->nfiles;
}

void static_free(gw_static *s)
{
    for (size_t i = 0; i < s->nfiles; i++) {
        free(s->files[i].body);
        free(s->files[i].gz);
    }
    free(s->files);
    memset(s, 0, sizeof *s);
}

/* The value of header name in the head [p, end) (after the request line), or NULL; *vlen
 * its length without the surrounding blanks. */
static const char *static_header(const char *p, const char *end, const char *name, size_t *vlen)
{
    size_t nl = strlen(name);
    while (p < end) {
        const char *eol = memchr(p, '\r', (size_t)(end - p));
        if (!eol || eol == p)
            return NULL;
        if ((size_t)(eol - p) > nl && p[nl] == ':' && strncasecmp(p, name, nl) == 0) {
            const char *v = p + nl + 1;
            while (v < eol && (*v == ' ' || *v == '\t'))
                v++;
            const char *ve = eol;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            *vlen = (size_t)(ve - v);
            return v;
        }
        p = eol + 2;
    }
    return NULL;
}

/* The head's end (after "\r\n\r\n"), or NULL when buf holds no complete head. */
static const char *static_head_end(const char *buf, size_t len)
{
    for (size_t i = 3; i < len; i++)
        if (buf[i - 3] == '\r' && buf[i - 2] == '\n' && buf[i - 1] == '\r' && buf[i] == '\n')
            return buf + i + 1;
    return NULL;
}

/* The request's method length (3 for GET, 4 for HEAD), or 0 for another. */
static size_t static_method(const char *buf, size_t len)
{
    if (len > 4 && memcmp(buf, "GET ", 4) == 0)
        return 3;
    if (len > 5 && memcmp(buf, "HEAD ", 5) == 0)
        return 4;
    return 0;
}

bool static_is_plain(const char *buf, size_t len)
{
    const char *end = static_head_end(buf, len);
    const char *eol = end ? memchr(buf, '\r', (size_t)(end - buf)) : NULL;
    size_t vlen;
    return eol && static_method(buf, len) && !static_header(eol + 2, end, "Upgrade", &vlen);
}

static const static_file *static_find(const gw_static *s, const char *path, size_t n)
{
    if (n == 1 && path[0] == '/') {
        path = "/index.html";
        n = strlen(path);
    }
    for (size_t i = 0; i < s->nfiles; i++)
        if (strlen(s->files[i].name) == n && memcmp(s->files[i].name, path, n) == 0)
            return &s->files[i];
    return NULL;
}

static void static_text(static_answer *a, int status, const char *reason, const char *text)
{
    a->status = status;
    a->body = (const uint8_t *)text;
    a->body_len = strlen(text);
    a->head_len =
        (size_t)snprintf(a->head, sizeof a->head,
                         "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
                         "Content-Length: %zu\r\nCache-Control: no-store\r\n" STATIC_SECURITY
                         "Connection: close\r\n\r\n",
                         status, reason, a->body_len);
}

void static_answer_request(const gw_static *s, const char *buf, size_t len, static_answer *a)
{
    memset(a, 0, sizeof *a);
    const char *end = static_head_end(buf, len);
    size_t m = static_method(buf, len);
    const char *eol = end ? memchr(buf, '\r', (size_t)(end - buf)) : NULL;
    const char *target = buf + m + 1;
    const char *sp = eol ? memchr(target, ' ', (size_t)(eol - target)) : NULL;
    if (!m || !sp || *target != '/') {
        static_text(a, 400, "Bad Request", "bad request\n");
        return;
    }
    const char *q = memchr(target, '?', (size_t)(sp - target));
    size_t n = (size_t)((q ? q : sp) - target);
    const static_file *f = static_find(s, target, n);
    if (!f) {
        static_text(a, 404, "Not Found",
                    s->nfiles ? "not found\n"
                              : "the web client is not built here (see --web-dir)\n");
        return;
    }
    size_t vlen = 0;
    const char *ae = static_header(eol + 2, end, "Accept-Encoding", &vlen);
    bool gz = f->gz && static_gz_accepted(ae, ae ? vlen : 0);
    const char *etag = gz ? f->etag_gz : f->etag;
    size_t body_len = gz ? f->gz_len : f->len;
    const char *inm = static_header(eol + 2, end, "If-None-Match", &vlen);
    bool fresh = inm && vlen == strlen(etag) && memcmp(inm, etag, vlen) == 0;
    bool head_only = m == 4 || fresh;
    a->status = fresh ? 304 : 200;
    a->body = head_only ? NULL : gz ? f->gz : f->body;
    a->body_len = head_only ? 0 : body_len;
    a->head_len = (size_t)snprintf(
        a->head, sizeof a->head,
        "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s%sETag: %s\r\n"
        "Cache-Control: %s\r\n" STATIC_SECURITY "Connection: close\r\n\r\n",
        fresh ? "304 Not Modified" : "200 OK", f->type, body_len,
        gz ? "Content-Encoding: gzip\r\n" : "", f->gz ? "Vary: Accept-Encoding\r\n" : "", etag,
        strncmp(f->name, "/assets/", 8) == 0 ? "public, max-age=31536000, immutable" : "no-cache");
}
