/*
 * dh_log.c: see dh_log.h. Kept deliberately small: a line is built in one buffer and goes
 * to stderr in one write (issue 27: a line cost about 13,600 instructions through strftime,
 * vsnprintf and fprintf, about 3,000 now: dh_log_fmt.c, the stamp once a second).
 *
 * Every line's formatted text is escaped before it is written (log_escape): a newline,
 * carriage return, ESC or any other control byte a client slipped into an argument (a
 * queue mode, a game, a match id) comes out as \n, \r or \xHH, so no caller can start a
 * forged line or drive an operator's terminal. Bytes from 0x80 up pass unchanged (UTF-8).
 */
#include "dh_log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "dh_clock.h"
#include "dh_log_fmt.h"
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

/* Append the NUL-terminated in at out + o (n bytes in all), control bytes escaped; a text
 * that does not fit ends in "..." (room for it and a NUL always kept). Returns the new end.
 * The runs of plain bytes between escapes go in one copy each. */
static size_t log_escape(const char *in, char *out, size_t o, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)in;
    for (;;) {
        const unsigned char *run = p;
        while (*p >= 0x20 && *p != 0x7f)
            p++;
        size_t len = (size_t)(p - run), room = o + 4 < n ? n - 4 - o : 0;
        if (len > room) {
            memcpy(out + o, run, room);
            memcpy(out + o + room, "...", 3);
            return o + room + 3;
        }
        memcpy(out + o, run, len);
        o += len;
        if (!*p)
            return o;
        char esc[4];
        size_t k = 0;
        esc[k++] = '\\';
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            esc[k++] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
        } else {
            esc[k++] = 'x';
            esc[k++] = hex[*p >> 4];
            esc[k++] = hex[*p & 15];
        }
        if (o + k + 4 > n) {
            memcpy(out + o, "...", 3);
            return o + 3;
        }
        memcpy(out + o, esc, k);
        o += k;
        p++;
    }
}

/* "2026-11-22T10:00:00.123Z" (24 bytes, no NUL) for now into out. The date and time of
 * day are formatted once a second per thread (gmtime_r and strftime were about 1,300
 * instructions a line), the milliseconds every line. */
static void log_stamp(char out[24])
{
    static _Thread_local time_t cached_sec = -1;
    static _Thread_local char cached[20];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (ts.tv_sec != cached_sec) {
        struct tm tm;
        gmtime_r(&ts.tv_sec, &tm);
        strftime(cached, sizeof cached, "%Y-%m-%dT%H:%M:%S", &tm);
        cached_sec = ts.tv_sec;
    }
    unsigned ms = (unsigned)(ts.tv_nsec / 1000000);
    memcpy(out, cached, 19);
    out[19] = '.';
    out[20] = (char)('0' + ms / 100);
    out[21] = (char)('0' + ms / 10 % 10);
    out[22] = (char)('0' + ms % 10);
    out[23] = 'Z';
}

/* The whole line to stderr in one write(2), without stdio: no formatting pass of its own,
 * and no lock (stderr is unbuffered, so nothing of stdio's is left waiting before it). */
static void log_write(const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        buf += w;
        n -= (size_t)w;
    }
}

static size_t log_add(char *out, size_t o, const char *s, size_t len)
{
    memcpy(out + o, s, len);
    return o + len;
}

static void log_line(dh_log_level level, const char *fmt, va_list ap, unsigned long long suppressed)
{
    static const char *names[] = {"DEBUG ", "INFO ", "WARN ", "ERROR "};
    int saved_errno = errno;
    char stamp[24];
    log_stamp(stamp);
    char raw[2048];
    dh_log_vformat(raw, sizeof raw, fmt, ap);
    if (log_json) {
        static const char *lower[] = {"debug", "info", "warn", "error"};
        char ts[25], json[8192];
        memcpy(ts, stamp, 24);
        ts[24] = '\0';
        size_t n =
            dh_log_json_line(json, sizeof json, ts, lower[level], log_component, raw, suppressed);
        log_write(json, n);
        errno = saved_errno;
        return;
    }
    /* the stamp, level and component (at most 24 + 7 + 64 + 2), the text escaped (at most
     * LOG_TEXT_MAX with its "..."), the count of lines left out, the newline */
    enum { LOG_TEXT_MAX = 2048 + 64 };
    char line[128 + LOG_TEXT_MAX + 64];
    size_t o = log_add(line, 0, stamp, 24);
    line[o++] = ' ';
    o = log_add(line, o, names[level], strlen(names[level]));
    o = log_add(line, o, log_component, strlen(log_component));
    o = log_add(line, o, ": ", 2);
    o = log_escape(raw, line, o, o + LOG_TEXT_MAX);
    if (suppressed)
        o += (size_t)snprintf(line + o, 64, " (%llu more suppressed)", suppressed);
    line[o++] = '\n';
    log_write(line, o);
    errno = saved_errno;
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
