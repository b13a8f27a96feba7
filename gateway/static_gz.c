/*
 * static_gz.c: see static_gz.h. zlib's deflate with the gzip wrapper (windowBits 15 + 16),
 * the same library the worker's snapshots use (common/dh_snapz.c).
 */
#include "static_gz.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

bool static_gz_worth(const char *type)
{
    return strncmp(type, "text/", 5) == 0 || strncmp(type, "application/json", 16) == 0 ||
           strncmp(type, "application/manifest+json", 25) == 0 ||
           strncmp(type, "image/svg+xml", 13) == 0;
}

int static_gz_deflate(const uint8_t *p, size_t n, uint8_t **out, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    uLong cap = deflateBound(&z, (uLong)n);
    uint8_t *buf = malloc(cap ? cap : 1);
    int rc = -1;
    if (buf) {
        z.next_in = (Bytef *)p;
        z.avail_in = (uInt)n;
        z.next_out = buf;
        z.avail_out = (uInt)cap;
        if (deflate(&z, Z_FINISH) == Z_STREAM_END) {
            *out = buf;
            *out_len = (size_t)z.total_out;
            buf = NULL;
            rc = 0;
        }
    }
    free(buf);
    deflateEnd(&z);
    return rc;
}

/* The q parameter of a coding's parameters [p, e) is zero ("q=0", "q=0.0", "q=0.000"). */
static bool static_gz_q_zero(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || *p == '\t' || *p == ';'))
        p++;
    if (e - p < 2 || (p[0] != 'q' && p[0] != 'Q') || p[1] != '=')
        return false;
    for (p += 2; p < e && *p != ' ' && *p != '\t'; p++)
        if (*p != '0' && *p != '.')
            return false;
    return true;
}

/* What the coding token [s, e) says of gzip: GZ_NAMED_* for "gzip" or "x-gzip", GZ_ANY_*
 * for "*", GZ_OTHER for another coding. */
enum { GZ_OTHER, GZ_NAMED_OK, GZ_NAMED_NO, GZ_ANY_OK, GZ_ANY_NO };

static int static_gz_token(const char *s, const char *e)
{
    const char *semi = memchr(s, ';', (size_t)(e - s));
    const char *ne = semi ? semi : e;
    while (ne > s && (ne[-1] == ' ' || ne[-1] == '\t'))
        ne--;
    size_t len = (size_t)(ne - s);
    bool zero = semi && static_gz_q_zero(semi, e);
    if ((len == 4 && strncasecmp(s, "gzip", 4) == 0) ||
        (len == 6 && strncasecmp(s, "x-gzip", 6) == 0))
        return zero ? GZ_NAMED_NO : GZ_NAMED_OK;
    if (len == 1 && *s == '*')
        return zero ? GZ_ANY_NO : GZ_ANY_OK;
    return GZ_OTHER;
}

/* gzip named decides ("gzip;q=0, *" refuses it); else "*" does; else no. */
bool static_gz_accepted(const char *v, size_t n)
{
    int named = GZ_OTHER, any = GZ_OTHER;
    size_t at = 0;
    while (v && at < n) {
        while (at < n && (v[at] == ' ' || v[at] == '\t' || v[at] == ','))
            at++;
        size_t e = at;
        while (e < n && v[e] != ',')
            e++;
        int t = e > at ? static_gz_token(v + at, v + e) : GZ_OTHER;
        if (t == GZ_NAMED_OK || t == GZ_NAMED_NO)
            named = t;
        else if (t != GZ_OTHER)
            any = t;
        at = e;
    }
    return named != GZ_OTHER ? named == GZ_NAMED_OK : any == GZ_ANY_OK;
}
