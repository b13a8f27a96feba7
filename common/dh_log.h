/*
 * dh_log.h: one-line structured logging to stderr, shared by every process.
 *
 * Lines look like "2026-11-22T10:00:00.123Z INFO gateway: listening tcp=127.0.0.1:7000".
 * The level threshold comes from DECKHAND_LOG_LEVEL (debug, info, warn, error).
 */
#ifndef DECKHAND_DH_LOG_H
#define DECKHAND_DH_LOG_H

typedef enum { DH_LOG_DEBUG, DH_LOG_INFO, DH_LOG_WARN, DH_LOG_ERROR } dh_log_level;

/* The component name printed on every line ("gateway", "worker wk-1"...). Copied. */
void dh_log_init(const char *component);
void dh_log(dh_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define dh_debug(...) dh_log(DH_LOG_DEBUG, __VA_ARGS__)
#define dh_info(...)  dh_log(DH_LOG_INFO, __VA_ARGS__)
#define dh_warn(...)  dh_log(DH_LOG_WARN, __VA_ARGS__)
#define dh_error(...) dh_log(DH_LOG_ERROR, __VA_ARGS__)

#endif
