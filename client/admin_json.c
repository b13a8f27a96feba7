/*
 * admin_json.c: the JSON reader of `deckhand admin` (admin_json.h): recursive descent
 * over a cursor, every step checked against the end of the text.
 */
#include "admin_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p, *end;
    int depth;
} aj_cursor;

static aj_value *aj_value_at(aj_cursor *c);

static void aj_space(aj_cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool aj_lit(aj_cursor *c, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return false;
    c->p += n;
    return true;
}

static int aj_hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Append code point cp as UTF-8 to out at *o. */
static void aj_utf8(char *out, size_t *o, unsigned cp)
{
    if (cp < 0x80) {
        out[(*o)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*o)++] = (char)(0xC0 | cp >> 6);
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xE0 | cp >> 12);
        out[(*o)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*o)++] = (char)(0xF0 | cp >> 18);
        out[(*o)++] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* A string at c->p (on its opening quote), decoded; NULL when malformed. A decoded string
 * is never longer than its escaped form, so one allocation of that size holds it. */
static char *aj_string(aj_cursor *c)
{
    const char *start = ++c->p;
    while (c->p < c->end && *c->p != '"')
        c->p += *c->p == '\\' && c->p + 1 < c->end ? 2 : 1;
    if (c->p >= c->end)
        return NULL;
    char *out = malloc((size_t)(c->p - start) + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (const char *q = start; q < c->p; q++) {
        if ((unsigned char)*q < 0x20)
            goto bad;
        if (*q != '\\') {
            out[o++] = *q;
            continue;
        }
        q++;
        static const char named[] = "\"\\/bfnrt", meant[] = "\"\\/\b\f\n\r\t";
        const char *esc = *q ? strchr(named, *q) : NULL;
        if (esc) {
            out[o++] = meant[esc - named];
            continue;
        }
        if (*q != 'u' || c->p - q < 5)
            goto bad;
        int cp = aj_hex4(q + 1);
        q += 4;
        if (cp < 0)
            goto bad;
        if (cp >= 0xD800 && cp <= 0xDBFF && c->p - q >= 7 && q[1] == '\\' && q[2] == 'u') {
            int lo = aj_hex4(q + 3);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                q += 6;
            }
        }
        if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
            cp = 0xFFFD; /* no NUL inside a C string, no lone surrogate */
        aj_utf8(out, &o, (unsigned)cp);
    }
    out[o] = '\0';
    c->p++;
    return out;
bad:
    free(out);
    return NULL;
}

static aj_value *aj_new(aj_type t)
{
    aj_value *v = calloc(1, sizeof *v);
    if (v)
        v->type = t;
    return v;
}

/* Add item (and key, for objects) to v; false on allocation failure (item freed). */
static bool aj_push(aj_value *v, char *key, aj_value *item)
{
    aj_value **items = realloc(v->item, (v->n + 1) * sizeof *items);
    if (items)
        v->item = items;
    char **keys = v->type == AJ_OBJECT ? realloc(v->key, (v->n + 1) * sizeof *keys) : NULL;
    if (keys)
        v->key = keys;
    if (!items || (v->type == AJ_OBJECT && !keys)) {
        free(key);
        aj_free(item);
        return false;
    }
    v->item[v->n] = item;
    if (keys)
        v->key[v->n] = key;
    v->n++;
    return true;
}

/* An array or object at c->p (on its bracket). */
static aj_value *aj_container(aj_cursor *c, bool object)
{
    char close = object ? '}' : ']';
    aj_value *v = aj_new(object ? AJ_OBJECT : AJ_ARRAY);
    if (!v || ++c->depth > ADMIN_JSON_DEPTH)
        goto bad;
    c->p++;
    aj_space(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        c->depth--;
        return v;
    }
    for (;;) {
        char *key = NULL;
        aj_space(c);
        if (object) {
            if (c->p >= c->end || *c->p != '"' || !(key = aj_string(c)))
                goto bad;
            aj_space(c);
            if (c->p >= c->end || *c->p != ':') {
                free(key);
                goto bad;
            }
            c->p++;
        }
        aj_value *item = aj_value_at(c);
        if (!item) {
            free(key);
            goto bad;
        }
        if (!aj_push(v, key, item))
            goto bad;
        aj_space(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == close) {
            c->p++;
            c->depth--;
            return v;
        }
        goto bad;
    }
bad:
    aj_free(v);
    return NULL;
}

static aj_value *aj_number(aj_cursor *c)
{
    const char *start = c->p;
    if (c->p < c->end && *c->p == '-')
        c->p++;
    while (c->p < c->end && strchr("0123456789.eE+-", *c->p))
        c->p++;
    if (c->p == start || (c->p - start == 1 && *start == '-'))
        return NULL;
    aj_value *v = aj_new(AJ_NUMBER);
    if (v && !(v->s = strndup(start, (size_t)(c->p - start)))) {
        free(v);
        v = NULL;
    }
    return v;
}

static aj_value *aj_value_at(aj_cursor *c)
{
    aj_space(c);
    if (c->p >= c->end)
        return NULL;
    aj_value *v = NULL;
    switch (*c->p) {
    case '{':
    case '[':
        return aj_container(c, *c->p == '{');
    case '"':
        if ((v = aj_new(AJ_STRING)) && !(v->s = aj_string(c))) {
            free(v);
            v = NULL;
        }
        return v;
    case 't':
    case 'f':
        if ((v = aj_new(AJ_BOOL)))
            v->b = *c->p == 't';
        if (v && !aj_lit(c, v->b ? "true" : "false")) {
            free(v);
            v = NULL;
        }
        return v;
    case 'n':
        return aj_lit(c, "null") ? aj_new(AJ_NULL) : NULL;
    default:
        return aj_number(c);
    }
}

aj_value *aj_parse(const char *text, size_t len)
{
    aj_cursor c = {text, text + len, 0};
    aj_value *v = aj_value_at(&c);
    aj_space(&c);
    if (v && c.p != c.end) {
        aj_free(v);
        return NULL;
    }
    return v;
}

void aj_free(aj_value *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        aj_free(v->item[i]);
        if (v->key)
            free(v->key[i]);
    }
    free(v->item);
    free(v->key);
    free(v->s);
    free(v);
}

const aj_value *aj_get(const aj_value *v, const char *key)
{
    if (!v || v->type != AJ_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->key[i], key))
            return v->item[i];
    return NULL;
}

char *aj_text(const aj_value *v, char *out, size_t cap)
{
    out[0] = '\0';
    if (!v || v->type == AJ_NULL) {
        snprintf(out, cap, "-");
    } else if (v->type == AJ_BOOL) {
        snprintf(out, cap, "%s", v->b ? "yes" : "no");
    } else if (v->type == AJ_STRING || v->type == AJ_NUMBER) {
        snprintf(out, cap, "%s", v->s);
    } else if (v->type == AJ_OBJECT) {
        snprintf(out, cap, "{...}");
    } else {
        size_t at = 0;
        for (size_t i = 0; i < v->n && at + 1 < cap; i++) {
            char item[256];
            aj_text(v->item[i], item, sizeof item);
            int n = snprintf(out + at, cap - at, "%s%s", i ? "," : "", item);
            if (n < 0)
                break;
            at = at + (size_t)n < cap ? at + (size_t)n : cap - 1;
        }
    }
    return out;
}
