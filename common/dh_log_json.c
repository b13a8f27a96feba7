/*
 * dh_log_json.c: a log line as one JSON object (dh_log.h, --log-format json).
 *
 * {"ts":"2026-11-25T10:00:00.123Z","level":"info","process":"gateway",
 *  "msg":"listening tcp=127.0.0.1:7000 id=gw-1","fields":{"tcp":"127.0.0.1:7000","id":"gw-1"}}
 *
 * The project's messages already carry their data as key=value words, so those words are
 * also given as "fields" (first occurrence of a key wins; values are strings), and so are
 * the ids the line speaks of in words (match, player, bundle, command, and the process's
 * own worker or gateway id: dh_log_ids.h), which lets Loki or Elasticsearch filter on a
 * match, a player or a worker without a parsing rule per message.
 * Escaping follows RFC 8259: quote, backslash and every control byte are escaped, and a
 * byte that does not start a valid UTF-8 sequence becomes U+FFFD, so that any argument a
 * client slipped into a message yields one valid object on one line.
 */
#include "dh_log_json.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dh_log_ids.h"

#define JSON_FIELDS_MAX 16

typedef struct {
    char *buf;
    size_t n, len;
    bool full;
} json_out;

static void json_raw(json_out *o, const char *s, size_t k)
{
    if (o->full || o->len + k + 1 > o->n) {
        o->full = true;
        return;
    }
    memcpy(o->buf + o->len, s, k);
    o->len += k;
    o->buf[o->len] = '\0';
}

/* The length of the valid UTF-8 sequence at p (at most end - p bytes), 0 if invalid. */
static size_t json_utf8_len(const unsigned char *p, const unsigned char *end)
{
    size_t k;
    unsigned min;
    unsigned cp;
    if (*p < 0x80)
        return 1;
    if ((*p & 0xe0) == 0xc0)
        k = 2, min = 0x80, cp = *p & 0x1f;
    else if ((*p & 0xf0) == 0xe0)
        k = 3, min = 0x800, cp = *p & 0x0f;
    else if ((*p & 0xf8) == 0xf0)
        k = 4, min = 0x10000, cp = *p & 0x07;
    else
        return 0;
    if ((size_t)(end - p) < k)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

/* s[0..k) as the inside of a JSON string. */
static void json_text(json_out *o, const char *s, size_t k)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + k;
    while (p < end && !o->full) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            json_raw(o, esc, 2);
            p++;
        } else if (*p == '\n' || *p == '\r' || *p == '\t') {
            json_raw(o, *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : "\\t", 2);
            p++;
        } else if (*p < 0x20 || *p == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            json_raw(o, esc, 6);
            p++;
        } else {
            size_t n = json_utf8_len(p, end);
            if (n) {
                json_raw(o, (const char *)p, n);
                p += n;
            } else {
                json_raw(o, "\\ufffd", 6);
                p++;
            }
        }
    }
}

static void json_string(json_out *o, const char *s, size_t k)
{
    json_raw(o, "\"", 1);
    json_text(o, s, k);
    json_raw(o, "\"", 1);
}

/* A key=value word: key [A-Za-z_][A-Za-z0-9_.-]*, then '=', then a value of one byte or
 * more. Sets the key's and the value's lengths. */
static bool json_word_field(const char *w, size_t k, size_t *klen, size_t *vlen)
{
    size_t i = 0;
    if (!k || !((w[0] >= 'a' && w[0] <= 'z') || (w[0] >= 'A' && w[0] <= 'Z') || w[0] == '_'))
        return false;
    while (i < k && w[i] != '=') {
        char c = w[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-'))
            return false;
        i++;
    }
    if (i == k || i + 1 == k)
        return false;
    *klen = i;
    *vlen = k - i - 1;
    return true;
}

/* Whether key (kl bytes) is among the n keys written. */
static bool json_seen(const char *const *keys, const size_t *klens, size_t n, const char *key,
                      size_t kl)
{
    for (size_t i = 0; i < n; i++)
        if (klens[i] == kl && !memcmp(keys[i], key, kl))
            return true;
    return false;
}

/* The ids the line speaks of (dh_log_ids.h) that its own words did not name. */
static size_t json_ids(json_out *o, const char *process, const char *msg, const char **keys,
                       size_t *klens, size_t n)
{
    dh_log_id ids[DH_LOG_IDS_MAX];
    size_t k = dh_log_ids(process, msg, ids);
    for (size_t i = 0; i < k && n < JSON_FIELDS_MAX; i++) {
        size_t kl = strlen(ids[i].key);
        if (json_seen(keys, klens, n, ids[i].key, kl))
            continue;
        json_raw(o, n ? "," : ",\"fields\":{", n ? 1 : 11);
        json_string(o, ids[i].key, kl);
        json_raw(o, ":", 1);
        json_string(o, ids[i].value, ids[i].len);
        keys[n] = ids[i].key;
        klens[n++] = kl;
    }
    return n;
}

static void json_fields(json_out *o, const char *process, const char *msg)
{
    const char *keys[JSON_FIELDS_MAX];
    size_t klens[JSON_FIELDS_MAX], n = 0;
    for (const char *p = msg; *p && n < JSON_FIELDS_MAX;) {
        while (*p == ' ')
            p++;
        size_t k = strcspn(p, " "), kl, vl;
        if (json_word_field(p, k, &kl, &vl)) {
            if (!json_seen(keys, klens, n, p, kl)) {
                json_raw(o, n ? "," : ",\"fields\":{", n ? 1 : 11);
                json_string(o, p, kl);
                json_raw(o, ":", 1);
                json_string(o, p + kl + 1, vl);
                keys[n] = p;
                klens[n++] = kl;
            }
        }
        p += k;
    }
    n = json_ids(o, process, msg, keys, klens, n);
    if (n)
        json_raw(o, "}", 1);
}

/* A line's opening: {"ts":...,"level":...,"process":... */
static void json_head(json_out *o, const char *ts, const char *level, const char *process)
{
    json_raw(o, "{\"ts\":", 6);
    json_string(o, ts, strlen(ts));
    json_raw(o, ",\"level\":", 9);
    json_string(o, level, strlen(level));
    json_raw(o, ",\"process\":", 11);
    json_string(o, process, strlen(process));
}

size_t dh_log_json_line(char *out, size_t n, const char *ts, const char *level, const char *process,
                        const char *msg, unsigned long long suppressed)
{
    json_out o = {.buf = out, .n = n};
    out[0] = '\0';
    json_head(&o, ts, level, process);
    json_raw(&o, ",\"msg\":", 7);
    json_string(&o, msg, strlen(msg));
    if (suppressed) {
        char num[48];
        int k = snprintf(num, sizeof num, ",\"suppressed\":%llu", suppressed);
        json_raw(&o, num, (size_t)k);
    }
    json_fields(&o, process, msg);
    json_raw(&o, "}\n", 2);
    if (o.full) {
        /* Too long even for the generous buffer: the message alone, cut short. */
        o = (json_out){.buf = out, .n = n};
        json_head(&o, ts, level, process);
        json_raw(&o, ",\"truncated\":true,\"msg\":\"", 25);
        size_t keep = o.len + 16 < n ? n - o.len - 16 : 0;
        json_out cut = {.buf = out, .n = o.len + keep, .len = o.len};
        json_text(&cut, msg, strlen(msg));
        o.len = cut.len;
        o.full = false;
        json_raw(&o, "\"}\n", 3);
    }
    return o.len;
}
