/*
 * static.h: the web client's files, served on the WebSocket port (docs/client.md,
 * "The web client in detail").
 *
 * A plain GET or HEAD (one that is not a WebSocket upgrade) on the WebSocket port gets a
 * file of the built client: "/" is index.html, "/assets/..." the bundle. Every file is
 * read into memory once, at start-up, from the directory given by --web-dir; a request is
 * looked up by its exact path among those names, so nothing a client sends reaches the
 * file system (no traversal, no symlink games, no blocking read on the loop). The bounds
 * (STATIC_FILE_MAX a file, STATIC_TOTAL_MAX in all) keep one answer under the gateway's
 * write cap.
 *
 * A leaf module: it parses a request head and builds the answer's bytes; conn.c writes
 * them and closes the connection.
 */
#ifndef DECKHAND_GW_STATIC_H
#define DECKHAND_GW_STATIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATIC_FILE_MAX  (768u << 10) /* a larger file is skipped (warned) at load */
#define STATIC_TOTAL_MAX (16u << 20)  /* loading stops past this many bytes */
#define STATIC_FILES_MAX 256
#define STATIC_NAME_MAX  128 /* "/assets/app-3f2a.js", with its NUL */
#define STATIC_DEPTH_MAX 4   /* folders below the web directory that are read */

typedef struct {
    char name[STATIC_NAME_MAX]; /* the request path: "/index.html", "/assets/app.js" */
    const char *type;           /* Content-Type */
    uint8_t *body;              /* owned */
    size_t len;
    char etag[20]; /* "\"" + 16 hex digits of the contents' hash + "\"" */
    uint8_t *gz;   /* owned: the gzip copy (static_gz.h), or NULL when not worth it */
    size_t gz_len;
    char etag_gz[24]; /* the gzip copy's own ETag: the plain one's with "-gz" */
} static_file;

typedef struct {
    static_file *files; /* owned, nfiles of them */
    size_t nfiles;
    size_t total;
} gw_static;

/* An answer: the head (status line and headers) and the body to send after it (points into
 * a loaded file, or to a static text; empty for HEAD and 304). */
typedef struct {
    char head[768];
    size_t head_len;
    const uint8_t *body;
    size_t body_len;
    int status;
} static_answer;

/* Read every regular file under dir (not following symlinks, skipping names that begin
 * with '.', within the bounds above) into s. Returns the number of files (0 when dir does
 * not exist: the gateway then answers 404 and says the client is not built), or -1 on an
 * allocation failure. */
int static_load(gw_static *s, const char *dir);
void static_free(gw_static *s);

/* True when the complete request head buf[0..len) is a GET or HEAD with no Upgrade header:
 * a page load, not a WebSocket. */
bool static_is_plain(const char *buf, size_t len);

/* The answer to the plain request head buf[0..len): 200 with the file (its gzip copy when
 * Accept-Encoding allows it, with Content-Encoding: gzip; a file that has one says
 * Vary: Accept-Encoding either way), 304 when its If-None-Match names the ETag of the
 * copy it would get, 404 for any other path, 400 for a malformed one. */
void static_answer_request(const gw_static *s, const char *buf, size_t len, static_answer *a);

/* The Content-Type for a file name, by its extension. */
const char *static_type(const char *name);

#endif
