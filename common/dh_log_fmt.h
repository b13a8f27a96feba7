/*
 * dh_log_fmt.h: the log's own printf (issue 27). A log line's text is formatted here rather
 * than by vsnprintf, whose format walk, stdio buffer and multi-precision float conversion
 * were about 5,600 of the 13,600 instructions of the matchmaker's line per match. The
 * output is vsnprintf's, byte for byte: the conversions the project's lines use (%s, %.Ns,
 * %c, %d %i %u %x with no, l, ll or z length, %.Nf up to six places, %%) are written here;
 * anything else (a flag, a width, %p, %g, %m, a float near a rounding tie or out of range,
 * a NULL string) sends the whole line to vsnprintf instead.
 */
#ifndef DECKHAND_DH_LOG_FMT_H
#define DECKHAND_DH_LOG_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Format into out (cap bytes, cap >= 1) as vsnprintf(out, cap, fmt, ap) does, a text that
 * does not fit cut at cap - 1 bytes; always NUL-terminated. Returns the length written
 * (at most cap - 1), not the length the whole text would have had. */
size_t dh_log_vformat(char *out, size_t cap, const char *fmt, va_list ap);

#endif
