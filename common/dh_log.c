/*
 * dh_log.c: see dh_log.h. Kept deliberately small: one process, one thread, stderr.
 *
 * Every line's formatted text is escaped before it is written (log_escape): a newline,
 * carriage return, ESC or any other control byte a client slipped into an argument (a
 * queue mode, a game, a match id) comes out as \n, \r or \xHH, so no caller can start a
 * forged line or drive an operator's terminal. Bytes from 0x80 up pass unchanged (UTF-8).
 */
#include "dh_log.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

#include "dh_clock.h"
#include "dh_log_json.h"

static char log_component[64] = "deckhand";
static dh_log_level log_threshold = DH_LOG_INFO;
static bool log_json;

int dh_log_set_format(const char *name)
{
    if (!name)
        return 0;
    if (strcasecmp(name, "json") && strcasecmp(name, "text"))
        return -1;
    log_json = !strcasecmp(name, "json");
    return 0;
}

void dh_log_init(const char *component)
{
    snprintf(log_component, sizeof log_component, "%s", component);
    if (dh_log_set_format(getenv("DECKHAND_LOG_FORMAT")) < 0)
        fprintf(stderr, "%s: DECKHAND_LOG_FORMAT must be text or json; logging text\n",
                log_component);
    const char *lvl = getenv("DECKHAND_LOG_LEVEL");
    if (!lvl)
        return;
    if (!strcasecmp(lvl, "debug"))
        log_threshold = DH_LOG_DEBUG;
    else if (!strcasecmp(lvl, "warn"))
        log_threshold = DH_LOG_WARN;
    else if (!strcasecmp(lvl, "error"))
        log_threshold = DH_LOG_ERROR;
}

/* Copy the NUL-terminated in to out (n bytes), control bytes escaped; a text that does not
 * fit ends in "...". */
static void log_escape(const char *in, char *out, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char esc[5];
        size_t k = 0;
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            esc[k++] = '\\';
            esc[k++] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
        } else if (*p < 0x20 || *p == 0x7f) {
            esc[k++] = '\\';
            esc[k++] = 'x';
            esc[k++] = hex[*p >> 4];
            esc[k++] = hex[*p & 15];
        } else {
            esc[k++] = (char)*p;
        }
        if (o + k + 4 > n) { /* room for "..." and the NUL */
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        memcpy(out + o, esc, k);
        o += k;
    }
    out[o] = '\0';
}

static void log_line(dh_log_level level, const char *fmt, va_list ap, unsigned long long suppressed)
{
    static const char *names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    char raw[2048], line[2048 + 64];
    vsnprintf(raw, sizeof raw, fmt, ap);
    if (log_json) {
        static const char *lower[] = {"debug", "info", "warn", "error"};
        char ts[80], json[8192];
        snprintf(ts, sizeof ts, "%s.%03ldZ", stamp, (long)(tv.tv_usec / 1000));
        size_t n =
            dh_log_json_line(json, sizeof json, ts, lower[level], log_component, raw, suppressed);
        fwrite(json, 1, n, stderr);
        return;
    }
    log_escape(raw, line, sizeof line);
    if (suppressed)
        fprintf(stderr, "%s.%03ldZ %s %s: %s (%llu more suppressed)\n", stamp,
                (long)(tv.tv_usec / 1000), names[level], log_component, line, suppressed);
    else
        fprintf(stderr, "%s.%03ldZ %s %s: %s\n", stamp, (long)(tv.tv_usec / 1000), names[level],
                log_component, line);
}

bool dh_log_enabled(dh_log_level level)
{
    return level >= log_threshold;
}

void dh_log(dh_log_level level, const char *fmt, ...)
{
    if (level < log_threshold)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_line(level, fmt, ap, 0);
    va_end(ap);
}

int dh_log_every(dh_log_limit *lim, unsigned interval_ms, dh_log_level level, const char *fmt, ...)
{
    if (level < log_threshold)
        return 0;
    unsigned long long now = dh_now_ms();
    unsigned long long next = __atomic_load_n(&lim->next_ms, __ATOMIC_RELAXED);
    /* The first caller past next_ms takes the slot; the others count themselves out. */
    if (now < next || !__atomic_compare_exchange_n(&lim->next_ms, &next, now + interval_ms, false,
                                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        __atomic_fetch_add(&lim->suppressed, 1, __ATOMIC_RELAXED);
        return 0;
    }
    unsigned long long left_out = __atomic_exchange_n(&lim->suppressed, 0, __ATOMIC_RELAXED);
    va_list ap;
    va_start(ap, fmt);
    log_line(level, fmt, ap, left_out);
    va_end(ap);
    return 1;
}
