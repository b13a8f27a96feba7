/*
 * dh_json.c: the JSON writer (dh_json.h).
 */
#include "dh_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_FIRST_CAP 256

void dh_json_init(dh_json *j)
{
    memset(j, 0, sizeof *j);
}

void dh_json_free(dh_json *j)
{
    free(j->buf);
    dh_json_init(j);
}

char *dh_json_finish(dh_json *j, size_t *len)
{
    char *out = NULL;
    if (!j->err && j->depth == 0 && j->len > 0 && !j->want_value) {
        out = j->buf;
        if (len)
            *len = j->len;
        j->buf = NULL;
    }
    dh_json_free(j);
    return out;
}

static void json_put(dh_json *j, const char *s, size_t n)
{
    if (j->err)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : JSON_FIRST_CAP;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *p = realloc(j->buf, cap);
        if (!p) {
            j->err = true;
            return;
        }
        j->buf = p;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

/* Before a value: the comma inside an array, nothing after a key; a value at the top
 * is allowed once. A value where a key is due is a misuse. */
static bool json_value_ok(dh_json *j)
{
    if (j->err)
        return false;
    if (j->want_value) {
        j->want_value = false;
        return true;
    }
    if (j->depth == 0) {
        if (j->len == 0)
            return true;
        j->err = true; /* a second top-level value */
        return false;
    }
    if (j->open[j->depth - 1] != '[') {
        j->err = true; /* an object member without its key */
        return false;
    }
    if (!j->first[j->depth - 1])
        json_put(j, ",", 1);
    j->first[j->depth - 1] = false;
    return !j->err;
}

static void json_open(dh_json *j, char c)
{
    if (!json_value_ok(j))
        return;
    if (j->depth == DH_JSON_DEPTH) {
        j->err = true;
        return;
    }
    j->open[j->depth] = c;
    j->first[j->depth] = true;
    j->depth++;
    json_put(j, &c, 1);
}

void dh_json_object(dh_json *j)
{
    json_open(j, '{');
}

void dh_json_array(dh_json *j)
{
    json_open(j, '[');
}

void dh_json_end(dh_json *j)
{
    if (j->err)
        return;
    if (j->depth == 0 || j->want_value) {
        j->err = true;
        return;
    }
    j->depth--;
    json_put(j, j->open[j->depth] == '{' ? "}" : "]", 1);
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 when it is not one:
 * overlong forms, surrogates and code points past U+10FFFF are refused. */
static size_t json_utf8_len(const unsigned char *s, size_t n)
{
    size_t len;
    uint32_t cp, min;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xE0) == 0xC0) {
        len = 2, cp = s[0] & 0x1F, min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3, cp = s[0] & 0x0F, min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4, cp = s[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static void json_string(dh_json *j, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    json_put(j, "\"", 1);
    size_t run = 0; /* bytes copied as they are, flushed before each escape */
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        const char *esc = NULL;
        char u[8];
        size_t k = json_utf8_len(p + i, n - i);
        if (c == '"')
            esc = "\\\"";
        else if (c == '\\')
            esc = "\\\\";
        else if (c == '\n')
            esc = "\\n";
        else if (c == '\r')
            esc = "\\r";
        else if (c == '\t')
            esc = "\\t";
        else if (c < 0x20 || c == 0x7F) {
            snprintf(u, sizeof u, "\\u%04x", c);
            esc = u;
        } else if (k == 0) {
            esc = "\xEF\xBF\xBD"; /* U+FFFD for a byte that is not UTF-8 */
            k = 1;
        }
        if (!esc) {
            i += k;
            run += k;
            continue;
        }
        json_put(j, s + i - run, run);
        run = 0;
        json_put(j, esc, strlen(esc));
        i += k ? k : 1;
    }
    json_put(j, s + n - run, run);
    json_put(j, "\"", 1);
}

void dh_json_key(dh_json *j, const char *key)
{
    if (j->err)
        return;
    if (j->depth == 0 || j->open[j->depth - 1] != '{' || j->want_value) {
        j->err = true;
        return;
    }
    if (!j->first[j->depth - 1])
        json_put(j, ",", 1);
    j->first[j->depth - 1] = false;
    json_string(j, key, strlen(key));
    json_put(j, ":", 1);
    j->want_value = true;
}

void dh_json_strn(dh_json *j, const char *s, size_t n)
{
    if (json_value_ok(j))
        json_string(j, s, n);
}

void dh_json_str(dh_json *j, const char *s)
{
    if (!s)
        dh_json_null(j);
    else
        dh_json_strn(j, s, strlen(s));
}

static void json_raw(dh_json *j, const char *text)
{
    if (json_value_ok(j))
        json_put(j, text, strlen(text));
}

void dh_json_int(dh_json *j, int64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    json_raw(j, b);
}

void dh_json_uint(dh_json *j, uint64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    json_raw(j, b);
}

void dh_json_bool(dh_json *j, bool v)
{
    json_raw(j, v ? "true" : "false");
}

void dh_json_null(dh_json *j)
{
    json_raw(j, "null");
}

void dh_json_kstr(dh_json *j, const char *key, const char *s)
{
    dh_json_key(j, key);
    dh_json_str(j, s);
}

void dh_json_kint(dh_json *j, const char *key, int64_t v)
{
    dh_json_key(j, key);
    dh_json_int(j, v);
}

void dh_json_kuint(dh_json *j, const char *key, uint64_t v)
{
    dh_json_key(j, key);
    dh_json_uint(j, v);
}

void dh_json_kbool(dh_json *j, const char *key, bool v)
{
    dh_json_key(j, key);
    dh_json_bool(j, v);
}
