/*
 * dh_optlist.c: list-valued game options, checked the same way by the engine (the match's
 * own bundle) and the matchmaker (the bundle the workers announced): see dh_optlist.h.
 */
#include "dh_optlist.h"

#include <stdio.h>
#include <string.h>

bool dh_optlist_item_ok(const char *s, size_t len)
{
    if (len == 0 || len > DH_OPTLIST_ITEM_MAX)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
            c != '_' && c != '-' && c != ' ')
            return false;
    }
    return true;
}

static bool optlist_has(const char *const *items, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(items[i]) == len && !memcmp(items[i], s, len))
            return true;
    return false;
}

/* The piece of v starting at p: its length up to the next comma. */
static size_t optlist_piece(const char *p, const char *end)
{
    const char *c = memchr(p, ',', (size_t)(end - p));
    return (size_t)((c ? c : end) - p);
}

bool dh_optlist_check(const char *v, size_t len, const char *const *items, size_t nitems,
                      size_t size, char *why, size_t whylen)
{
    char scratch[8];
    if (!why)
        why = scratch, whylen = sizeof scratch;
    if (!nitems || len == 0 || len > DH_OPTLIST_VALUE_MAX) {
        snprintf(why, whylen, "a list must be 1-%d characters", DH_OPTLIST_VALUE_MAX);
        return false;
    }
    const char *end = v + len, *seen[DH_OPTLIST_ITEMS_MAX];
    size_t count = 0, seenlen[DH_OPTLIST_ITEMS_MAX];
    for (const char *p = v;; p++) {
        size_t n = optlist_piece(p, end);
        if (!dh_optlist_item_ok(p, n)) {
            snprintf(why, whylen,
                     "item %zu of the list must be 1-%d characters of A-Z a-z 0-9 _ - and space",
                     count + 1, DH_OPTLIST_ITEM_MAX);
            return false;
        }
        if (!optlist_has(items, nitems, p, n)) {
            snprintf(why, whylen, "'%.*s' is not one of its items", (int)n, p);
            return false;
        }
        for (size_t i = 0; i < count; i++)
            if (seenlen[i] == n && !memcmp(seen[i], p, n)) {
                snprintf(why, whylen, "'%.*s' is listed twice", (int)n, p);
                return false;
            }
        if (count == DH_OPTLIST_ITEMS_MAX) {
            snprintf(why, whylen, "more than %d items", DH_OPTLIST_ITEMS_MAX);
            return false;
        }
        seen[count] = p;
        seenlen[count++] = n;
        p += n;
        if (p >= end)
            break;
    }
    if (size && count != size) {
        snprintf(why, whylen, "a list of %zu items, not %zu", size, count);
        return false;
    }
    return true;
}
