/*
 * dh_log.c: see dh_log.h. Kept deliberately small: one process, one thread, stderr.
 */
#include "dh_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

static char log_component[64] = "deckhand";
static dh_log_level log_threshold = DH_LOG_INFO;

void dh_log_init(const char *component)
{
    snprintf(log_component, sizeof log_component, "%s", component);
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

void dh_log(dh_log_level level, const char *fmt, ...)
{
    static const char *names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    if (level < log_threshold)
        return;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s.%03ldZ %s %s: %s\n", stamp, (long)(tv.tv_usec / 1000), names[level],
            log_component, line);
}
