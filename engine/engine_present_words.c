/*
 * engine_present_words.c: the words a game's presentation gives its players (docs/
 * SCRIPTING.md, "Presentation hints"): its title, a short rules summary, whether its
 * seats build decks, and a hint per counter (a player's label and a line of help, or
 * hidden: an internal such as "active"), read and checked once as the bundle loads and
 * copied into the Catalog and the game list (engine_bundle_games).
 *
 * Why a file of its own: engine_present.c reads the layout (zones, colours); these are
 * texts, checked as texts (valid UTF-8, no control characters but a summary's line
 * breaks, bounded lengths), since every client shows them as they are. A counter hint
 * covers the counter of its name whatever its owner, and a card's counters `NAME:ID`
 * (the board games' statuses), so "attack" labels every piece's attack.
 *
 * Hints are kept sorted (by order, then counter name) so the Catalog is the same bytes
 * however Lua ordered the table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "engine_present.h"

#define WORDS_TITLE_MAX    64
#define WORDS_LABEL_MAX    64
#define WORDS_SUMMARY_MAX  2000
#define WORDS_DESC_MAX     200
#define WORDS_COUNTERS_MAX 64
#define WORDS_ORDER_MAX    1000

/* s is valid UTF-8 of at most max bytes without control characters ('\n' allowed when
 * lines is true). */
bool engine_present_text_ok(const char *s, size_t max, bool lines)
{
    size_t n = strlen(s);
    if (n > max)
        return false;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if ((c < ' ' && !(lines && c == '\n')) || c == 0x7f)
                return false;
            i++;
            continue;
        }
        size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
        if (!len || c >= 0xf5 || i + len > n)
            return false;
        for (size_t k = 1; k < len; k++)
            if (((unsigned char)s[i + k] & 0xc0) != 0x80)
                return false;
        i += len;
    }
    return true;
}

static char *words_dup(lua_State *L, const char *s)
{
    char *r = strdup(s);
    if (!r)
        luaL_error(L, "out of memory");
    return r;
}

/* The text field k of the table at t: "" when absent; raises naming path.k when it is not
 * text engine_present_text_ok accepts. */
static char *words_text(lua_State *L, const engine_game *g, int t, const char *path, const char *k,
                        size_t max, bool lines)
{
    lua_getfield(L, t, k);
    const char *s = lua_isnil(L, -1) ? "" : NULL;
    if (lua_type(L, -1) == LUA_TSTRING && engine_present_text_ok(lua_tostring(L, -1), max, lines))
        s = lua_tostring(L, -1);
    if (!s)
        luaL_error(L, "game '%s': %s.%s must be text of at most %d bytes%s", g->name, path, k,
                   (int)max, lines ? "" : " on one line");
    char *r = words_dup(L, s);
    lua_pop(L, 1);
    return r;
}

/* A counter's name: 1..64 bytes of A-Z a-z 0-9 _ and space. */
static bool words_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ", s[i]))
            return false;
    return true;
}

void engine_present_keys(lua_State *L, const engine_game *g, int t, const char *path,
                         const char *const *names)
{
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1)) {
        bool ok = false;
        for (size_t i = 0; lua_type(L, -2) == LUA_TSTRING && names[i]; i++)
            ok = ok || !strcmp(lua_tostring(L, -2), names[i]);
        if (!ok)
            luaL_error(L, "game '%s': %s has an unknown field '%s'", g->name, path,
                       lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "(not a name)");
    }
}

/* One entry of presentation.counters: the name at -2, its table at -1. A shown counter
 * needs a label; a hidden one needs nothing more. */
static void words_counter_read(lua_State *L, const engine_game *g, engine_counter_hint *h)
{
    static const char *const fields[] = {"label", "description", "hidden", "order", NULL};
    const char *name = lua_tostring(L, -2);
    int t = lua_gettop(L);
    if (!words_name_ok(name))
        luaL_error(L, "game '%s': presentation.counters.%s is not a counter name", g->name, name);
    char path[128];
    snprintf(path, sizeof path, "presentation.counters.%s", name);
    if (!lua_istable(L, t))
        luaL_error(L, "game '%s': %s must be a table", g->name, path);
    engine_present_keys(L, g, t, path, fields);
    h->counter = words_dup(L, name);
    lua_getfield(L, t, "hidden");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
        luaL_error(L, "game '%s': %s.hidden must be true or false", g->name, path);
    h->hidden = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, t, "order");
    if (!lua_isnil(L, -1) && (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < -WORDS_ORDER_MAX ||
                              lua_tointeger(L, -1) > WORDS_ORDER_MAX))
        luaL_error(L, "game '%s': %s.order must be an integer in %d..%d", g->name, path,
                   -WORDS_ORDER_MAX, WORDS_ORDER_MAX);
    h->order = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    h->label = words_text(L, g, t, path, "label", WORDS_LABEL_MAX, false);
    h->description = words_text(L, g, t, path, "description", WORDS_DESC_MAX, false);
    if (!h->hidden && !*h->label)
        luaL_error(L, "game '%s': %s needs a label (or hidden = true)", g->name, path);
}

static int words_counter_cmp(const void *a, const void *b)
{
    const engine_counter_hint *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->counter, y->counter);
}

/* presentation.counters, the table at the top of the stack (nil: none). */
static void words_counters_read(lua_State *L, engine_game *g)
{
    if (lua_isnil(L, -1))
        return;
    if (!lua_istable(L, -1))
        luaL_error(L, "game '%s': presentation.counters must map counter names to hints", g->name);
    size_t n = 0;
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
        n++;
    if (n > WORDS_COUNTERS_MAX)
        luaL_error(L, "game '%s': presentation.counters has more than %d entries", g->name,
                   WORDS_COUNTERS_MAX);
    g->counter_hints = calloc(n ? n : 1, sizeof *g->counter_hints);
    if (!g->counter_hints)
        luaL_error(L, "out of memory");
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "game '%s': presentation.counters must map counter names to hints",
                       g->name);
        words_counter_read(L, g, &g->counter_hints[g->ncounter_hints++]);
    }
    qsort(g->counter_hints, g->ncounter_hints, sizeof *g->counter_hints, words_counter_cmp);
}

void engine_present_words_read(lua_State *L, int p, engine_game *g)
{
    g->title = words_text(L, g, p, "presentation", "title", WORDS_TITLE_MAX, false);
    g->summary = words_text(L, g, p, "presentation", "summary", WORDS_SUMMARY_MAX, true);
    lua_getfield(L, p, "deck_builder");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
        luaL_error(L, "game '%s': presentation.deck_builder must be true or false", g->name);
    g->deck_builder = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, p, "counters");
    words_counters_read(L, g);
    lua_pop(L, 1);
}

void engine_present_words_free(engine_game *g)
{
    free(g->title);
    free(g->summary);
    for (size_t i = 0; i < g->ncounter_hints; i++) {
        free(g->counter_hints[i].counter);
        free(g->counter_hints[i].label);
        free(g->counter_hints[i].description);
    }
    free(g->counter_hints);
}

int engine_present_words_catalog(const engine_game *g, Deckhand__Presentation *p)
{
    p->title = strdup(g->title ? g->title : "");
    p->summary = strdup(g->summary ? g->summary : "");
    p->counters = calloc(g->ncounter_hints ? g->ncounter_hints : 1, sizeof *p->counters);
    if (!p->title || !p->summary || !p->counters)
        return -1;
    for (size_t i = 0; i < g->ncounter_hints; i++) {
        const engine_counter_hint *h = &g->counter_hints[i];
        Deckhand__CounterHint *c = calloc(1, sizeof *c);
        if (!c)
            return -1;
        deckhand__counter_hint__init(c);
        p->counters[p->n_counters++] = c;
        c->hidden = h->hidden;
        c->order = h->order;
        c->counter = strdup(h->counter);
        c->label = strdup(h->label);
        c->description = strdup(h->description);
        if (!c->counter || !c->label || !c->description)
            return -1;
    }
    return 0;
}
