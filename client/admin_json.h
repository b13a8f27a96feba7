/*
 * admin_json.h: a small JSON reader for `deckhand admin`, which prints the admin API's
 * answers (common/dh_json.h writes them) as tables. The whole document becomes a tree of
 * values; numbers stay as their text (the tables print them as they came). Bounded:
 * nesting past ADMIN_JSON_DEPTH is refused, so a hostile answer cannot exhaust the stack.
 */
#ifndef DECKHAND_CLIENT_ADMIN_JSON_H
#define DECKHAND_CLIENT_ADMIN_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define ADMIN_JSON_DEPTH 32

typedef enum { AJ_NULL, AJ_BOOL, AJ_NUMBER, AJ_STRING, AJ_ARRAY, AJ_OBJECT } aj_type;

typedef struct aj_value {
    aj_type type;
    bool b;
    char *s;                /* AJ_STRING (decoded) and AJ_NUMBER (as written) */
    struct aj_value **item; /* AJ_ARRAY and AJ_OBJECT: n values */
    char **key;             /* AJ_OBJECT: n keys */
    size_t n;
} aj_value;

/* Parse len bytes of text; the tree (free with aj_free), or NULL when it is not one whole
 * JSON value. */
aj_value *aj_parse(const char *text, size_t len);
void aj_free(aj_value *v);

/* Member key of an object (NULL when absent or v is not an object). */
const aj_value *aj_get(const aj_value *v, const char *key);
/* A value as printable text into out: strings as they are, numbers as written, booleans
 * yes/no, null "-", arrays joined with ",", objects "{...}". Returns out. */
char *aj_text(const aj_value *v, char *out, size_t cap);

#endif
