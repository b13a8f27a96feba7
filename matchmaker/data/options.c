/*
 * options.c: checking game options against what the game's bundle declares, and their
 * canonical text (see options.h).
 */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_str.h"
#include "dh_optlist.h"
#include "registry.h"

/* 1..max characters of [A-Za-z0-9_-]. */
static bool options_word(const char *s, size_t max)
{
    size_t len = s ? strlen(s) : 0;
    if (len == 0 || len > max)
        return false;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
            c != '_' && c != '-')
            return false;
    }
    return true;
}

static const Deckhand__OptionSpec *options_spec(const registry_game *g, const char *name)
{
    for (size_t i = 0; g->info && i < g->info->n_options; i++)
        if (g->info->options[i]->name && !strcmp(g->info->options[i]->name, name))
            return g->info->options[i];
    return NULL;
}

/* One of o's words (any word when it declares none). */
static bool options_value_ok(const Deckhand__OptionSpec *o, const char *v)
{
    if (!options_word(v, OPTIONS_VALUE_MAX))
        return false;
    if (o->n_values == 0)
        return true;
    for (size_t i = 0; i < o->n_values; i++)
        if (o->values[i] && !strcmp(o->values[i], v))
            return true;
    return false;
}

/* A value that is none of o's words: a list of its items (dh_optlist.h) when it declares
 * them. True when it is; else false with why in err. */
static bool options_list_ok(const Deckhand__OptionSpec *o, const char *v, char *err, size_t errlen)
{
    char why[160];
    if (!o->n_items || !strchr(v, ',')) { /* a single word: a value, not a list */
        if (options_word(v, OPTIONS_VALUE_MAX))
            snprintf(err, errlen, "option '%s' takes no value '%s'", o->name, v);
        else
            snprintf(err, errlen, "option '%s': a value must be 1-%d characters of A-Z a-z 0-9 _ -",
                     o->name, OPTIONS_VALUE_MAX);
        return false;
    }
    if (dh_optlist_check(v, strlen(v), (const char *const *)o->items, o->n_items, o->list_size, why,
                         sizeof why))
        return true;
    snprintf(err, errlen, "option '%s': %s", o->name, why);
    return false;
}

bool options_check(const registry *reg, const char *game, Deckhand__GameOption *const *opts,
                   size_t n, char *err, size_t errlen)
{
    const registry_game *g = registry_game_info(reg, game ? game : "");
    if (!g) {
        snprintf(err, errlen, "no worker serves that game");
        return false;
    }
    if (n > OPTIONS_MAX) {
        snprintf(err, errlen, "too many options: at most %d", OPTIONS_MAX);
        return false;
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        const Deckhand__GameOption *o = opts[i];
        if (!o || !options_word(o->name, OPTIONS_NAME_MAX)) {
            snprintf(err, errlen,
                     "an option name must be 1-%d characters of A-Z a-z 0-9 _ - (option %zu)",
                     OPTIONS_NAME_MAX, i + 1);
            return false;
        }
        const Deckhand__OptionSpec *spec = options_spec(g, o->name);
        if (!spec) {
            snprintf(err, errlen, "%s has no option '%s'", g->name, o->name);
            return false;
        }
        if (!o->value ||
            (!options_value_ok(spec, o->value) && !options_list_ok(spec, o->value, err, errlen)))
            return false;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(opts[j]->name, o->name)) {
                snprintf(err, errlen, "option '%s' given twice", o->name);
                return false;
            }
        total += strlen(o->name) + strlen(o->value) + 2;
    }
    if (total >= QUEUE_OPTIONS_MAX) {
        snprintf(err, errlen, "the options are too long together");
        return false;
    }
    return true;
}

static int options_cmp(const void *a, const void *b)
{
    const Deckhand__GameOption *x = *(Deckhand__GameOption *const *)a;
    const Deckhand__GameOption *y = *(Deckhand__GameOption *const *)b;
    return strcmp(x->name, y->name);
}

/* The text of opts sorted by name, leaving out empty values and, with g, defaults. */
static size_t options_text(const registry_game *g, Deckhand__GameOption *const *opts, size_t n,
                           char *out, size_t cap)
{
    Deckhand__GameOption *sorted[OPTIONS_MAX];
    size_t m = 0, at = 0;
    for (size_t i = 0; i < n && m < OPTIONS_MAX; i++)
        if (opts[i] && opts[i]->name && opts[i]->value && *opts[i]->value)
            sorted[m++] = opts[i];
    qsort(sorted, m, sizeof *sorted, options_cmp);
    if (cap)
        out[0] = '\0';
    for (size_t i = 0; i < m; i++) {
        const Deckhand__OptionSpec *spec = g ? options_spec(g, sorted[i]->name) : NULL;
        if (spec && spec->default_value && !strcmp(spec->default_value, sorted[i]->value))
            continue;
        int k = snprintf(out + at, at < cap ? cap - at : 0, "%s%s=%s", at ? ";" : "",
                         sorted[i]->name, sorted[i]->value);
        at += k > 0 ? (size_t)k : 0;
    }
    if (at >= cap && cap)
        out[0] = '\0';
    return at;
}

size_t options_canon(Deckhand__GameOption *const *opts, size_t n, char *out, size_t cap)
{
    return options_text(NULL, opts, n, out, cap);
}

size_t options_canon_for(const registry *reg, const char *game, Deckhand__GameOption *const *opts,
                         size_t n, char *out, size_t cap)
{
    return options_text(registry_game_info(reg, game ? game : ""), opts, n, out, cap);
}

void options_list_of(options_list *l, const char *canon)
{
    dh_str_copy(l->text, sizeof l->text, canon);
    l->n = 0;
    for (char *p = l->text; *p && l->n < OPTIONS_MAX;) {
        char *end = p + strcspn(p, ";");
        char *next = *end ? end + 1 : end;
        *end = '\0';
        char *eq = strchr(p, '=');
        if (eq) {
            *eq = '\0';
            Deckhand__GameOption *o = &l->v[l->n];
            deckhand__game_option__init(o);
            o->name = p;
            o->value = eq + 1;
            l->p[l->n++] = o;
        }
        p = next;
    }
}

/* A value from storage: a word, or a list of items (checked when it was asked for). */
static bool options_record_value(const char *v)
{
    if (options_word(v, OPTIONS_VALUE_MAX))
        return true;
    size_t len = v ? strlen(v) : 0;
    if (len == 0 || len > DH_OPTLIST_VALUE_MAX)
        return false;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        if (!dh_optlist_item_ok(p, n))
            return false;
        p += n + (p[n] == ',');
    }
    return v[len - 1] != ',';
}

int options_from_records(Deckhand__GameOption *const *opts, size_t n, char *out, size_t cap)
{
    if (n > OPTIONS_MAX)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!opts[i] || !options_word(opts[i]->name, OPTIONS_NAME_MAX) ||
            !options_record_value(opts[i]->value))
            return -1;
    return options_canon(opts, n, out, cap) < cap ? 0 : -1;
}
