/*
 * engine_options.c: the options and bots a game declares, and checking a match's options
 * against them (engine.h, "game options").
 *
 * A game table may hold `options`, an array of {name = "kingdom", values = {...},
 * default = "first_game", help = "..."} (docs/SCRIPTING.md, "Options and bots"). They are
 * read once at load into the engine_game, so that a worker can announce them and the
 * matchmaker can refuse a bad option before a match exists. A match still receives its
 * options as text (engine_match_config.options) and its scripts read them with g:option:
 * a bundle may take more than it declares; what the network accepts is only what is
 * declared. An option with `list = {...}` (and `list_size`) also takes a list of its
 * items (Dominion's kingdom: its cards), checked by the rule the matchmaker applies too
 * (dh_optlist.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_optlist.h"
#include "engine_internal.h"
#include "engine_present.h"

/* A name or a value: 1..max characters of [A-Za-z0-9_-], so that "k=v;k=v" stays
 * unambiguous and nothing strange reaches a log. */
static bool word_ok(const char *s, size_t len, size_t max)
{
    if (len == 0 || len > max)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
            c != '_' && c != '-')
            return false;
    }
    return true;
}

/* A copy of the string at index i of the stack that must be a word; raises otherwise. */
static char *word_dup(lua_State *L, const engine_game *g, int i, size_t max, const char *what)
{
    size_t len = 0;
    const char *s = lua_type(L, i) == LUA_TSTRING ? lua_tolstring(L, i, &len) : NULL;
    if (!s || !word_ok(s, len, max))
        luaL_error(L, "game '%s': option %s must be 1-%d characters of A-Z a-z 0-9 _ -", g->name,
                   what, (int)max);
    char *r = strdup(s);
    if (!r)
        luaL_error(L, "out of memory");
    return r;
}

/* The option's `list` and `list_size` (the option's table at t) into o. */
static void spec_read_list(lua_State *L, engine_game *g, engine_option_spec *o, int t)
{
    lua_getfield(L, t, "list");
    if (lua_istable(L, -1)) {
        lua_Integer n = luaL_len(L, -1);
        if (n < 1 || n > DH_OPTLIST_ITEMS_MAX)
            luaL_error(L, "game '%s': option '%s' lists 1-%d items", g->name, o->name,
                       DH_OPTLIST_ITEMS_MAX);
        char **v = calloc((size_t)n, sizeof *v);
        if (!v)
            luaL_error(L, "out of memory");
        o->items = (const char *const *)v;
        for (lua_Integer i = 1; i <= n; i++) {
            size_t len = 0;
            lua_geti(L, -1, i);
            const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
            if (!s || !dh_optlist_item_ok(s, len))
                luaL_error(L,
                           "game '%s': option '%s': a list item must be 1-%d characters of "
                           "A-Z a-z 0-9 _ - and space",
                           g->name, o->name, DH_OPTLIST_ITEM_MAX);
            if (!(v[i - 1] = strdup(s)))
                luaL_error(L, "out of memory");
            o->nitems++;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "list_size");
    lua_Integer size = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    if (size < 0 || (size_t)size > o->nitems)
        luaL_error(L, "game '%s': option '%s': list_size must be 1-%d (its list's items)", g->name,
                   o->name, (int)o->nitems);
    o->list_size = (size_t)size;
    lua_pop(L, 1);
}

static bool option_word_ok(const engine_option_spec *o, const char *v, size_t len);

/* A copy of the text field k of the table at t ("" when absent), checked as a label: at
 * most 64 bytes of UTF-8 on one line; path names it in the error. */
static char *label_dup(lua_State *L, const engine_game *g, int t, const char *k, const char *path)
{
    lua_getfield(L, t, k);
    const char *s = lua_isnil(L, -1) ? "" : NULL;
    if (lua_type(L, -1) == LUA_TSTRING && engine_present_text_ok(lua_tostring(L, -1), 64, false))
        s = lua_tostring(L, -1);
    if (!s)
        luaL_error(L, "game '%s': %s must be text of at most 64 bytes on one line", g->name, path);
    char *r = strdup(s);
    if (!r)
        luaL_error(L, "out of memory");
    lua_pop(L, 1);
    return r;
}

/* The option's words for players (the option's table at t) into o: `label`, and
 * `value_labels`, a map from its values to their words (a key that is no value of it is
 * an error: a typo the author wants to hear about). */
static void spec_read_words(lua_State *L, engine_game *g, engine_option_spec *o, int t)
{
    char path[96];
    snprintf(path, sizeof path, "option '%s'.label", o->name);
    o->label = label_dup(L, g, t, "label", path);
    char **v = calloc(o->nvalues ? o->nvalues : 1, sizeof *v);
    if (!v)
        luaL_error(L, "out of memory");
    o->value_labels = (const char *const *)v;
    lua_getfield(L, t, "value_labels");
    int lt = lua_gettop(L);
    if (!lua_isnil(L, lt) && !lua_istable(L, lt))
        luaL_error(L, "game '%s': option '%s'.value_labels must map values to words", g->name,
                   o->name);
    for (size_t i = 0; i < o->nvalues; i++) {
        snprintf(path, sizeof path, "option '%s'.value_labels.%s", o->name, o->values[i]);
        v[i] = lua_istable(L, lt) ? label_dup(L, g, lt, o->values[i], path) : strdup("");
        if (!v[i])
            luaL_error(L, "out of memory");
    }
    for (lua_pushnil(L); lua_istable(L, lt) && lua_next(L, lt); lua_pop(L, 1))
        if (lua_type(L, -2) != LUA_TSTRING ||
            !option_word_ok(o, lua_tostring(L, -2), strlen(lua_tostring(L, -2))) || !o->nvalues)
            luaL_error(L, "game '%s': option '%s'.value_labels names a value it does not have",
                       g->name, o->name);
    lua_settop(L, lt - 1);
}

/* One entry of the options array (at the top of the stack) into o. */
static void spec_read(lua_State *L, engine_game *g, engine_option_spec *o)
{
    int t = lua_gettop(L);
    if (!lua_istable(L, t))
        luaL_error(L, "game '%s': each option is a table", g->name);
    lua_getfield(L, t, "name");
    o->name = word_dup(L, g, -1, ENGINE_OPTION_NAME_MAX, "names");
    lua_pop(L, 1);
    lua_getfield(L, t, "values");
    if (lua_istable(L, -1)) {
        lua_Integer n = luaL_len(L, -1);
        if (n > ENGINE_OPTION_VALUES_MAX)
            luaL_error(L, "game '%s': option '%s' has more than %d values", g->name, o->name,
                       ENGINE_OPTION_VALUES_MAX);
        char **v = calloc(n ? (size_t)n : 1, sizeof *v);
        if (!v)
            luaL_error(L, "out of memory");
        o->values = (const char *const *)v;
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            v[i - 1] = word_dup(L, g, -1, ENGINE_OPTION_VALUE_MAX, "values");
            o->nvalues++;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    spec_read_list(L, g, o, t);
    lua_getfield(L, t, "default");
    o->default_value = word_dup(L, g, -1, ENGINE_OPTION_VALUE_MAX, "defaults");
    lua_pop(L, 1);
    if (o->nvalues && !engine_option_value_ok(o, o->default_value, strlen(o->default_value)))
        luaL_error(L, "game '%s': option '%s' has a default outside its values", g->name, o->name);
    lua_getfield(L, t, "help");
    char *help = strdup(lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "");
    if (!help)
        luaL_error(L, "out of memory");
    o->help = help;
    lua_pop(L, 1);
    spec_read_words(L, g, o, t);
}

static int bot_cmp(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int dx = !strcmp(x, "default"), dy = !strcmp(y, "default");
    if (dx != dy)
        return dy - dx;
    return strcmp(x, y);
}

void engine_options_read(lua_State *L, int t, engine_game *g)
{
    lua_getfield(L, t, "options");
    if (lua_istable(L, -1)) {
        lua_Integer n = luaL_len(L, -1);
        if (n > ENGINE_OPTIONS_MAX)
            luaL_error(L, "game '%s': more than %d options", g->name, ENGINE_OPTIONS_MAX);
        g->specs = calloc(n ? (size_t)n : 1, sizeof *g->specs);
        if (!g->specs)
            luaL_error(L, "out of memory");
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            spec_read(L, g, &g->specs[g->nspecs++]);
            for (size_t j = 0; j + 1 < g->nspecs; j++)
                if (!strcmp(g->specs[j].name, g->specs[g->nspecs - 1].name))
                    luaL_error(L, "game '%s': option '%s' declared twice", g->name,
                               g->specs[j].name);
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        luaL_error(L, "game '%s': options must be an array", g->name);
    }
    lua_pop(L, 1);
    g->bot_names = calloc(g->nbots ? g->nbots : 1, sizeof *g->bot_names);
    if (!g->bot_names)
        luaL_error(L, "out of memory");
    for (size_t i = 0; i < g->nbots; i++)
        g->bot_names[i] = g->bots[i].name;
    qsort(g->bot_names, g->nbots, sizeof *g->bot_names, bot_cmp);
}

void engine_options_free(engine_game *g)
{
    for (size_t i = 0; i < g->nspecs; i++) {
        engine_option_spec *o = &g->specs[i];
        free((char *)o->name);
        for (size_t j = 0; j < o->nvalues; j++)
            free((char *)o->values[j]);
        free((char **)o->values);
        for (size_t j = 0; j < o->nitems; j++)
            free((char *)o->items[j]);
        free((char **)o->items);
        free((char *)o->default_value);
        free((char *)o->help);
        free((char *)o->label);
        for (size_t j = 0; o->value_labels && j < o->nvalues; j++)
            free((char *)o->value_labels[j]);
        free((char **)o->value_labels);
    }
    free(g->specs);
    free(g->bot_names);
}

/* One of o's words (any word when it declares none). */
static bool option_word_ok(const engine_option_spec *o, const char *v, size_t len)
{
    if (!word_ok(v, len, ENGINE_OPTION_VALUE_MAX))
        return false;
    if (o->nvalues == 0)
        return true;
    for (size_t i = 0; i < o->nvalues; i++)
        if (strlen(o->values[i]) == len && !memcmp(o->values[i], v, len))
            return true;
    return false;
}

bool engine_option_value_ok(const engine_option_spec *o, const char *v, size_t len)
{
    return option_word_ok(o, v, len) ||
           (o->nitems && dh_optlist_check(v, len, o->items, o->nitems, o->list_size, NULL, 0));
}

static const engine_option_spec *spec_find(const engine_game *g, const char *name, size_t len)
{
    for (size_t i = 0; i < g->nspecs; i++)
        if (strlen(g->specs[i].name) == len && !memcmp(g->specs[i].name, name, len))
            return &g->specs[i];
    return NULL;
}

engine_code engine_bundle_check_options(const engine_bundle *b, const char *game,
                                        const char *options, engine_error *err)
{
    const engine_game *g = NULL; /* not engine_bundle_game: engine_bundle.c is above */
    for (size_t i = 0; b && game && i < b->ngames && !g; i++)
        if (!strcmp(b->games[i].name, game))
            g = &b->games[i];
    if (!g) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "no such game in the bundle");
        return ENGINE_BAD_REQUEST;
    }
    const engine_option_spec *seen[ENGINE_OPTIONS_MAX];
    size_t nseen = 0;
    for (const char *p = options ? options : ""; *p;) {
        size_t len = strcspn(p, ";");
        const char *eq = memchr(p, '=', len);
        size_t nlen = eq ? (size_t)(eq - p) : len;
        const engine_option_spec *o = eq ? spec_find(g, p, nlen) : NULL;
        if (!eq || !o) {
            engine_error_set(err, ENGINE_BAD_REQUEST, "%s has no option '%.*s'", g->name,
                             (int)(nlen > ENGINE_OPTION_NAME_MAX ? ENGINE_OPTION_NAME_MAX : nlen),
                             p);
            return ENGINE_BAD_REQUEST;
        }
        for (size_t i = 0; i < nseen; i++)
            if (seen[i] == o) {
                engine_error_set(err, ENGINE_BAD_REQUEST, "option '%s' given twice", o->name);
                return ENGINE_BAD_REQUEST;
            }
        seen[nseen++] = o;
        size_t vlen = len - nlen - 1;
        char why[160];
        if (o->nitems && memchr(eq + 1, ',', vlen) && !option_word_ok(o, eq + 1, vlen) &&
            !dh_optlist_check(eq + 1, vlen, o->items, o->nitems, o->list_size, why, sizeof why)) {
            engine_error_set(err, ENGINE_BAD_REQUEST, "option '%s': %s", o->name, why);
            return ENGINE_BAD_REQUEST;
        }
        if (!engine_option_value_ok(o, eq + 1, vlen)) {
            engine_error_set(err, ENGINE_BAD_REQUEST, "option '%s' takes no value '%.*s'", o->name,
                             (int)(vlen > ENGINE_OPTION_VALUE_MAX ? ENGINE_OPTION_VALUE_MAX : vlen),
                             eq + 1);
            return ENGINE_BAD_REQUEST;
        }
        p += len + (p[len] == ';');
    }
    engine_error_ok(err);
    return ENGINE_OK;
}
