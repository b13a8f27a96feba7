/*
 * dh_log_ids.c: the ids a log line speaks of (see dh_log_ids.h).
 */
#include "dh_log_ids.h"

#include <stdbool.h>
#include <string.h>

static bool ids_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return n > 0;
}

static bool ids_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return n > 0;
}

/* Add key = s[0..n) to out unless key is there already. */
static void ids_add(dh_log_id *out, size_t *k, const char *key, const char *s, size_t n)
{
    for (size_t i = 0; i < *k; i++)
        if (!strcmp(out[i].key, key))
            return;
    if (*k < DH_LOG_IDS_MAX)
        out[(*k)++] = (dh_log_id){key, s, n};
}

/* The word at p (up to a space), its length without trailing punctuation. */
static size_t ids_word(const char *p, size_t *full)
{
    size_t n = strcspn(p, " ");
    *full = n;
    while (n && strchr(":,).;", p[n - 1]))
        n--;
    return n;
}

/* The word w (n bytes), after the word prev (pn bytes): what it names, if anything. */
static void ids_classify(const char *prev, size_t pn, const char *w, size_t n, dh_log_id *out,
                         size_t *k)
{
    if (n == 18 && !strncmp(w, "m-", 2) && ids_hex(w + 2, 16))
        ids_add(out, k, "match", w, n);
    else if (n >= 10 && !strncmp(w, "p-", 2) && ids_hex(w + 2, n - 2))
        ids_add(out, k, "player", w, n);
    else if (n >= 12 && n <= 64 && ids_hex(w, n) &&
             ((pn == 6 && !strncmp(prev, "bundle", 6)) || (pn == 6 && !strncmp(prev, "canary", 6))))
        ids_add(out, k, "bundle", w, n);
    else if (pn == 7 && !strncmp(prev, "command", 7) && ids_digits(w, n))
        ids_add(out, k, "command", w, n);
}

/* "worker wk-1" -> worker = wk-1 (and gateway, matchmaker likewise). */
static void ids_process(const char *process, dh_log_id *out, size_t *k)
{
    static const char *const roles[] = {"worker", "gateway", "matchmaker"};
    for (size_t i = 0; process && i < sizeof roles / sizeof *roles; i++) {
        size_t rl = strlen(roles[i]);
        if (!strncmp(process, roles[i], rl) && process[rl] == ' ' && process[rl + 1])
            ids_add(out, k, roles[i], process + rl + 1, strcspn(process + rl + 1, " "));
    }
}

size_t dh_log_ids(const char *process, const char *msg, dh_log_id *out)
{
    size_t k = 0, pn = 0;
    const char *prev = "";
    ids_process(process, out, &k);
    for (const char *p = msg; p && *p;) {
        while (*p == ' ')
            p++;
        size_t full, n = ids_word(p, &full);
        ids_classify(prev, pn, p, n, out, &k);
        prev = p;
        pn = n;
        p += full;
    }
    return k;
}
