/*
 * static_gz.h: the gzip side of the web client's files (static.c). Each compressible
 * file (text, JSON, SVG) is deflated once, when the gateway loads the folder, and the
 * gzip copy is kept beside the plain one when it is smaller; a request whose
 * Accept-Encoding allows gzip gets that copy (Content-Encoding: gzip), every other one
 * the plain bytes. Compressing at load instead of at build time keeps the build's output
 * one set of files and costs a few milliseconds once per start; compressing per request
 * would cost that on every page load.
 */
#ifndef DECKHAND_GW_STATIC_GZ_H
#define DECKHAND_GW_STATIC_GZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether a file of this Content-Type is worth compressing (text, JSON, SVG: not the
 * already compressed PNG, icon or WOFF2). */
bool static_gz_worth(const char *type);

/* The gzip encoding of p[0..n) at the best compression into a new buffer *out (the
 * caller frees it), *out_len its size. 0, or -1 when zlib fails or runs out of memory
 * (the file is then served plain only). */
int static_gz_deflate(const uint8_t *p, size_t n, uint8_t **out, size_t *out_len);

/* Whether an Accept-Encoding value v[0..n) allows gzip: a "gzip", "x-gzip" or "*" coding
 * without q=0. NULL (no header) does not. */
bool static_gz_accepted(const char *v, size_t n);

#endif
