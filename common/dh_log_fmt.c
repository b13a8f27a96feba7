/*
 * dh_log_fmt.c: see dh_log_fmt.h. One pass over the format; a conversion it does not write
 * itself stops the pass, and vsnprintf formats the line from the start (the caller's
 * va_list is only read through a copy here, so it is still whole for vsnprintf).
 */
#include "dh_log_fmt.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char *out;
    size_t cap; /* bytes of out, the NUL's included */
    size_t n;
} fmt_out;

static void fmt_put(fmt_out *o, const char *s, size_t len)
{
    size_t room = o->cap - 1 - o->n;
    if (len > room)
        len = room;
    memcpy(o->out + o->n, s, len);
    o->n += len;
}

/* v's digits in base (10 or 16), at the end of buf (24 bytes); returns the first. */
static char *fmt_digits(char *end, unsigned long long v, unsigned base)
{
    static const char hex[] = "0123456789abcdef";
    char *p = end;
    do {
        *--p = hex[v % base];
        v /= base;
    } while (v);
    return p;
}

static void fmt_uint(fmt_out *o, unsigned long long v, unsigned base)
{
    char buf[24];
    char *p = fmt_digits(buf + sizeof buf, v, base);
    fmt_put(o, p, (size_t)(buf + sizeof buf - p));
}

static void fmt_int(fmt_out *o, long long v)
{
    if (v < 0) {
        fmt_put(o, "-", 1);
        fmt_uint(o, (unsigned long long)(-(v + 1)) + 1, 10);
    } else {
        fmt_uint(o, (unsigned long long)v, 10);
    }
}

/* %.{places}f, as printf rounds it; false when this cannot be sure of the digits (not
 * finite, too large, or within 1e-4 of a rounding tie, where printf rounds the double's
 * exact value: the multiplication's error below 1e9 is under 1e-7). */
static bool fmt_fixed(fmt_out *o, double x, unsigned places)
{
    static const double scale[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
    if (!isfinite(x) || places >= sizeof scale / sizeof scale[0])
        return false;
    double y = fabs(x) * scale[places];
    if (y >= 1e9)
        return false;
    double whole = floor(y), frac = y - whole;
    if (fabs(frac - 0.5) < 1e-4)
        return false;
    unsigned long long r = (unsigned long long)whole + (frac > 0.5);
    unsigned long long unit = (unsigned long long)scale[places];
    if (signbit(x))
        fmt_put(o, "-", 1);
    fmt_uint(o, r / unit, 10);
    if (places == 0)
        return true;
    char buf[8];
    unsigned long long f = r % unit;
    buf[0] = '.';
    for (unsigned i = places; i > 0; i--, f /= 10)
        buf[i] = (char)('0' + f % 10);
    fmt_put(o, buf, places + 1);
    return true;
}

/* One conversion at *pf (just past the '%'), which it moves past; false: not one of ours. */
static bool fmt_conv(fmt_out *o, const char **pf, va_list *ap)
{
    const char *f = *pf;
    int prec = -1;
    if (*f == '.') {
        prec = 0;
        for (f++; *f >= '0' && *f <= '9'; f++)
            if ((prec = prec * 10 + (*f - '0')) > 4096)
                return false;
    }
    int len = 0; /* 0 none, 1 l, 2 ll, 3 z */
    if (*f == 'l')
        len = f[1] == 'l' ? (f += 2, 2) : (f++, 1);
    else if (*f == 'z')
        len = (f++, 3);
    char c = *f++;
    *pf = f;
    if (c == 'f' && len == 0)
        return fmt_fixed(o, va_arg(*ap, double), prec < 0 ? 6 : (unsigned)prec);
    if (prec >= 0 && c != 's')
        return false;
    switch (c) {
    case 's': {
        if (len)
            return false;
        const char *s = va_arg(*ap, const char *);
        if (!s)
            return false; /* "(null)", or nothing under a precision: vsnprintf's to say */
        fmt_put(o, s, prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
        return true;
    }
    case 'c':
        if (len)
            return false;
        fmt_put(o, &(char){(char)va_arg(*ap, int)}, 1);
        return true;
    case 'd':
    case 'i':
        fmt_int(o, len == 0   ? va_arg(*ap, int)
                   : len == 1 ? va_arg(*ap, long)
                   : len == 2 ? va_arg(*ap, long long)
                              : va_arg(*ap, ptrdiff_t));
        return true;
    case 'u':
    case 'x':
        fmt_uint(o,
                 len == 0   ? va_arg(*ap, unsigned)
                 : len == 1 ? va_arg(*ap, unsigned long)
                 : len == 2 ? va_arg(*ap, unsigned long long)
                            : va_arg(*ap, size_t),
                 c == 'x' ? 16 : 10);
        return true;
    default:
        return false;
    }
}

size_t dh_log_vformat(char *out, size_t cap, const char *fmt, va_list ap)
{
    fmt_out o = {out, cap, 0};
    va_list mine;
    va_copy(mine, ap);
    bool ok = true;
    for (const char *f = fmt; *f && o.n < cap - 1;) {
        const char *pct = strchr(f, '%');
        size_t lit = pct ? (size_t)(pct - f) : strlen(f);
        fmt_put(&o, f, lit);
        if (!pct)
            break;
        f = pct + 1;
        if (*f == '%') {
            fmt_put(&o, "%", 1);
            f++;
        } else if (!(ok = fmt_conv(&o, &f, &mine))) {
            break;
        }
    }
    va_end(mine);
    if (ok) {
        out[o.n] = '\0';
        return o.n;
    }
    int n = vsnprintf(out, cap, fmt, ap);
    return n < 0 ? (out[0] = '\0', 0) : (size_t)n < cap ? (size_t)n : cap - 1;
}
