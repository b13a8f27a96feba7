/*
 * dh_json.h: a small JSON writer for the operator's answers (the admin API, dh_admin.h).
 *
 * A growing buffer and a nesting stack: the caller opens objects and arrays, adds keys and
 * values, and closes them; commas and quotes are placed by the writer, so no caller builds
 * JSON by hand. Strings are escaped (quote, backslash, every control character as \uXXXX
 * or its short form); bytes that are not valid UTF-8 become U+FFFD, so a player's name or
 * an operator's reason can never break the document. A failed allocation or a misuse
 * (a value where a key is due, a close with nothing open, nesting past DH_JSON_DEPTH)
 * sets err and later calls do nothing: dh_json_finish then returns NULL, so callers check
 * once at the end.
 */
#ifndef DECKHAND_DH_JSON_H
#define DECKHAND_DH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DH_JSON_DEPTH 16

typedef struct {
    char *buf; /* owned until dh_json_finish hands it over */
    size_t len, cap;
    int depth;
    char open[DH_JSON_DEPTH]; /* '{' or '[' per level */
    bool first[DH_JSON_DEPTH];
    bool want_value; /* a key was written: its value comes next */
    bool err;
} dh_json;

void dh_json_init(dh_json *j);
/* The document (malloc'd, NUL-terminated, the caller frees it) and its length, or NULL on
 * error or while something is still open. j is empty afterwards either way. */
char *dh_json_finish(dh_json *j, size_t *len);
/* Free what was written without handing it over. */
void dh_json_free(dh_json *j);

void dh_json_object(dh_json *j);
void dh_json_array(dh_json *j);
void dh_json_end(dh_json *j); /* closes the innermost object or array */

/* Inside an object: the next member's key (its value follows). */
void dh_json_key(dh_json *j, const char *key);

void dh_json_str(dh_json *j, const char *s); /* NULL: null */
void dh_json_strn(dh_json *j, const char *s, size_t n);
void dh_json_int(dh_json *j, int64_t v);
void dh_json_uint(dh_json *j, uint64_t v);
void dh_json_bool(dh_json *j, bool v);
void dh_json_null(dh_json *j);

/* Key and value in one call, for objects. */
void dh_json_kstr(dh_json *j, const char *key, const char *s);
void dh_json_kint(dh_json *j, const char *key, int64_t v);
void dh_json_kuint(dh_json *j, const char *key, uint64_t v);
void dh_json_kbool(dh_json *j, const char *key, bool v);

#endif
