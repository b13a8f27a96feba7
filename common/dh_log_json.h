/*
 * dh_log_json.h: a log line as one JSON object, for dh_log's --log-format json (the
 * format: dh_log_json.c).
 */
#ifndef DECKHAND_DH_LOG_JSON_H
#define DECKHAND_DH_LOG_JSON_H

#include <stddef.h>

/* One JSON log line with its newline into out (n bytes, at least 128; NUL-terminated; a
 * message too long for it is cut and marked "truncated"): its length. ts is the ISO 8601
 * time, level "debug".."error", process the component, suppressed how many lines like it
 * were left out (0: none, no key). */
size_t dh_log_json_line(char *out, size_t n, const char *ts, const char *level, const char *process,
                        const char *msg, unsigned long long suppressed);

#endif
