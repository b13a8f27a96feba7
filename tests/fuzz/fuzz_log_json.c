/*
 * fuzz_log_json.c: fuzz target `log_json`, a log line as one JSON object
 * (common/dh_log_json.c, --log-format json): whatever bytes a client slips into a logged
 * message (a queue mode, a name, a match id).
 *
 * Input: the first byte picks the output buffer's size (128..8192, so truncation is
 * reached), the rest is the message. Properties: the line is exactly one JSON value
 * (checked by the strict validator below: RFC 8259 objects, strings with valid escapes
 * and valid UTF-8, numbers, true) that is an object, followed by one newline and nothing
 * else; no raw control byte anywhere; its length as returned.
 */
#include <string.h>

#include "dh_log_json.h"
#include "fuzz.h"

typedef struct {
    const unsigned char *p, *end;
} json_in;

static int js_value(json_in *j, int depth);

static void js_ws(json_in *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t'))
        j->p++;
}

/* Valid UTF-8 sequence length at p, 0 if invalid (no overlongs, surrogates, > U+10FFFF). */
static size_t js_utf8(const unsigned char *p, const unsigned char *end)
{
    size_t k;
    unsigned cp, min;
    if (*p < 0x80)
        return 1;
    if ((*p & 0xe0) == 0xc0)
        k = 2, cp = *p & 0x1f, min = 0x80;
    else if ((*p & 0xf0) == 0xe0)
        k = 3, cp = *p & 0x0f, min = 0x800;
    else if ((*p & 0xf8) == 0xf0)
        k = 4, cp = *p & 0x07, min = 0x10000;
    else
        return 0;
    if ((size_t)(end - p) < k)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : k;
}

static int js_string(json_in *j)
{
    if (j->p == j->end || *j->p++ != '"')
        return -1;
    while (j->p < j->end && *j->p != '"') {
        if (*j->p < 0x20)
            return -1;
        if (*j->p == '\\') {
            j->p++;
            if (j->p == j->end)
                return -1;
            if (*j->p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (j->p + i >= j->end || !strchr("0123456789abcdefABCDEF", j->p[i]) ||
                        !j->p[i])
                        return -1;
                j->p += 5;
            } else if (strchr("\"\\/bfnrt", *j->p) && *j->p) {
                j->p++;
            } else {
                return -1;
            }
            continue;
        }
        size_t k = js_utf8(j->p, j->end);
        if (!k)
            return -1;
        j->p += k;
    }
    if (j->p == j->end)
        return -1;
    j->p++;
    return 0;
}

static int js_object(json_in *j, int depth)
{
    j->p++; /* '{' */
    js_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        return 0;
    }
    for (;;) {
        js_ws(j);
        if (js_string(j) < 0)
            return -1;
        js_ws(j);
        if (j->p == j->end || *j->p++ != ':')
            return -1;
        if (js_value(j, depth + 1) < 0)
            return -1;
        js_ws(j);
        if (j->p == j->end)
            return -1;
        if (*j->p == '}') {
            j->p++;
            return 0;
        }
        if (*j->p++ != ',')
            return -1;
    }
}

static int js_value(json_in *j, int depth)
{
    js_ws(j);
    if (j->p == j->end || depth > 8)
        return -1;
    if (*j->p == '{')
        return js_object(j, depth);
    if (*j->p == '"')
        return js_string(j);
    if ((size_t)(j->end - j->p) >= 4 && !memcmp(j->p, "true", 4)) {
        j->p += 4;
        return 0;
    }
    const unsigned char *start = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > start && (*start != '0' || j->p - start == 1) ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char out[8192 + 1], msg[4096];
    if (size < 1)
        return 0;
    size_t cap = 128 + (size_t)data[0] * 31; /* 128..8033 */
    size_t n = size - 1 < sizeof msg - 1 ? size - 1 : sizeof msg - 1;
    memcpy(msg, data + 1, n);
    msg[n] = '\0'; /* a message is a C string: it ends at its first NUL */
    size_t len = dh_log_json_line(out, cap, "2026-11-25T10:00:00.000Z", "warn", "fuzz", msg,
                                  data[0] & 1 ? 7 : 0);
    FUZZ_CHECK(len < cap && len == strlen(out) && len >= 3);
    FUZZ_CHECK(out[0] == '{' && out[len - 1] == '\n');
    json_in j = {(const unsigned char *)out, (const unsigned char *)out + len - 1};
    FUZZ_CHECK(*j.p == '{' && js_value(&j, 0) == 0);
    FUZZ_CHECK(j.p == j.end); /* one object, then only the newline */
    return 0;
}
