/*
 * dh_log.h: one-line structured logging to stderr, shared by every process.
 *
 * Lines look like "2026-11-22T10:00:00.123Z INFO gateway: listening tcp=127.0.0.1:7000".
 * The level threshold comes from DECKHAND_LOG_LEVEL (debug, info, warn, error).
 *
 * With --log-format json (or DECKHAND_LOG_FORMAT=json) each line is instead one JSON
 * object: {"ts":..., "level":"info", "process":"gateway", "msg":..., "fields":{...}},
 * the fields being the message's key=value words (dh_log_json.c).
 *
 * A line that a client or a load can repeat (an accept failure, a dropped slow consumer, a
 * request timeout) goes through the _every forms: at most one line per interval per call
 * site, and the next printed line says how many were left out, so that a flood costs a
 * line a second instead of gigabytes of log and the CPU that writes them.
 */
#ifndef DECKHAND_DH_LOG_H
#define DECKHAND_DH_LOG_H

#include <stdbool.h>

typedef enum { DH_LOG_DEBUG, DH_LOG_INFO, DH_LOG_WARN, DH_LOG_ERROR } dh_log_level;

/* The component name printed on every line ("gateway", "worker wk-1"...). Copied. Reads
 * DECKHAND_LOG_LEVEL and DECKHAND_LOG_FORMAT. */
void dh_log_init(const char *component);
/* "text" or "json" (a --log-format flag; NULL keeps the current one). 0, or -1 for
 * another name (the format is left as it was). */
int dh_log_set_format(const char *name);
void dh_log(dh_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether a line of this level is printed (DECKHAND_LOG_LEVEL): to skip building the
 * arguments of a line nobody reads. */
bool dh_log_enabled(dh_log_level level);

/* The state of one rate-limited call site (the _every macros keep one per site). */
typedef struct {
    unsigned long long next_ms;    /* monotonic ms before which lines are suppressed */
    unsigned long long suppressed; /* lines left out since the last one printed */
} dh_log_limit;

/* dh_log, unless a line went out through lim less than interval_ms ago: then the line is
 * only counted. A printed line ends with " (N more suppressed)" when N were. Returns 1 if
 * printed, 0 if suppressed (or below the level threshold). Safe from several threads (the
 * state is updated atomically; a race prints at most one extra line). */
int dh_log_every(dh_log_limit *lim, unsigned interval_ms, dh_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* dh_log_every with a state of its own at each call site. */
#define DH_LOG_EVERY(level, interval_ms, ...)                                                      \
    do {                                                                                           \
        static dh_log_limit dh_log_site_;                                                          \
        dh_log_every(&dh_log_site_, (interval_ms), (level), __VA_ARGS__);                          \
    } while (0)
#define dh_info_every(interval_ms, ...)  DH_LOG_EVERY(DH_LOG_INFO, interval_ms, __VA_ARGS__)
#define dh_warn_every(interval_ms, ...)  DH_LOG_EVERY(DH_LOG_WARN, interval_ms, __VA_ARGS__)
#define dh_error_every(interval_ms, ...) DH_LOG_EVERY(DH_LOG_ERROR, interval_ms, __VA_ARGS__)
/* The interval the project uses for repeated lines. */
#define DH_LOG_EVERY_MS 1000

#define dh_debug(...) dh_log(DH_LOG_DEBUG, __VA_ARGS__)
#define dh_info(...)  dh_log(DH_LOG_INFO, __VA_ARGS__)
#define dh_warn(...)  dh_log(DH_LOG_WARN, __VA_ARGS__)
#define dh_error(...) dh_log(DH_LOG_ERROR, __VA_ARGS__)

#endif
