/*
 * engine_present.c: a game's presentation hints (the `presentation` table of its game
 * table, docs/SCRIPTING.md "Presentation hints"): how a client may lay out its zones and
 * colour its cards, read and checked once as the bundle loads, and copied into the
 * Catalog (engine_present_catalog, called by engine_match_catalog).
 *
 * Why the engine checks them although they are only hints: they go to every player's
 * client as they are, so a colour must be a colour (a browser puts it into a style: a
 * free string could carry anything), a label must be short printable text, and a hint for
 * a zone the game does not have is a typo the author wants to hear about at load, like a
 * bad `zones` entry, rather than a board that silently draws in the default way. A
 * refused table names the field (`presentation.zones.hand.kind`).
 *
 * Hints are kept sorted (zones by order then name, colours by type), so the Catalog of a
 * bundle is the same bytes however Lua happened to order the tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "engine_present.h"

#define PRESENT_MAX       64 /* zone hints, and type colours, per game */
#define PRESENT_LABEL_MAX 64
#define PRESENT_COLOR_MAX 32
#define PRESENT_ORDER_MAX 1000
#define PRESENT_COLUMNS   64
#define PRESENT_DESC_MAX  200

static const char *const present_kinds[] = {"hand",  "supply",  "row",  "play",
                                            "board", "discard", "deck", "hidden"};

static char *present_dup(lua_State *L, const char *s)
{
    char *r = strdup(s);
    if (!r)
        luaL_error(L, "out of memory");
    return r;
}

/* A CSS colour a client may put into a style as it is: #rgb, #rgba, #rrggbb, #rrggbbaa,
 * or a colour name (1..31 lowercase letters, "teal"). */
static bool present_color_ok(const char *s)
{
    size_t n = strlen(s);
    if (s[0] == '#') {
        if (n != 4 && n != 5 && n != 7 && n != 9)
            return false;
        for (size_t i = 1; i < n; i++)
            if (!strchr("0123456789abcdefABCDEF", s[i]))
                return false;
        return true;
    }
    if (n == 0 || n >= PRESENT_COLOR_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 'a' || s[i] > 'z')
            return false;
    return true;
}

/* A label: UTF-8 text of at most PRESENT_LABEL_MAX bytes, no control characters. */
static bool present_label_ok(const char *s)
{
    return engine_present_text_ok(s, PRESENT_LABEL_MAX, false);
}

static bool present_kind_ok(const char *s)
{
    for (size_t i = 0; i < sizeof present_kinds / sizeof *present_kinds; i++)
        if (!strcmp(s, present_kinds[i]))
            return true;
    return false;
}

static bool present_zone_known(const engine_game *g, const char *name)
{
    for (size_t i = 0; i < g->nzones; i++)
        if (!strcmp(g->zones[i].name, name))
            return true;
    return false;
}

/* The colour at the top of the stack, for field (path names it in the error). */
static char *present_color(lua_State *L, const engine_game *g, const char *path)
{
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!s || !present_color_ok(s))
        luaL_error(L,
                   "game '%s': %s must be a CSS colour (#rgb, #rrggbb, #rrggbbaa or a "
                   "lowercase colour name)",
                   g->name, path);
    return present_dup(L, s);
}

/* An integer field of the hint table at t in lo..hi, or dflt when absent. */
static lua_Integer present_int(lua_State *L, const engine_game *g, int t, const char *zone,
                               const char *k, lua_Integer lo, lua_Integer hi, lua_Integer dflt)
{
    lua_getfield(L, t, k);
    lua_Integer v = dflt;
    if (!lua_isnil(L, -1)) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < lo || lua_tointeger(L, -1) > hi)
            luaL_error(L, "game '%s': presentation.zones.%s.%s must be an integer in %d..%d",
                       g->name, zone, k, (int)lo, (int)hi);
        v = lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

/* One entry of presentation.zones: name at -2, its table at -1. */
static void present_zone_read(lua_State *L, engine_game *g, engine_zone_hint *h)
{
    static const char *const fields[] = {"kind",  "order",       "label", "columns",
                                         "color", "description", NULL};
    const char *zone = lua_tostring(L, -2);
    int t = lua_gettop(L);
    if (strlen(zone) > PRESENT_LABEL_MAX || !present_zone_known(g, zone))
        luaL_error(L, "game '%s': presentation.zones.%s names no zone of the game's zones table",
                   g->name, zone);
    if (!lua_istable(L, t))
        luaL_error(L, "game '%s': presentation.zones.%s must be a table", g->name, zone);
    char path[128];
    snprintf(path, sizeof path, "presentation.zones.%s", zone);
    engine_present_keys(L, g, t, path, fields);
    h->zone = present_dup(L, zone);
    lua_getfield(L, t, "kind");
    const char *kind = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!kind || !present_kind_ok(kind))
        luaL_error(L,
                   "game '%s': presentation.zones.%s.kind must be one of hand, supply, row, play, "
                   "board, discard, deck, hidden",
                   g->name, zone);
    h->kind = present_dup(L, kind);
    lua_pop(L, 1);
    h->order = (int)present_int(L, g, t, zone, "order", -PRESENT_ORDER_MAX, PRESENT_ORDER_MAX, 0);
    h->columns = (unsigned)present_int(L, g, t, zone, "columns", 0, PRESENT_COLUMNS, 0);
    lua_getfield(L, t, "label");
    const char *label = lua_isnil(L, -1) ? "" : NULL;
    if (lua_type(L, -1) == LUA_TSTRING && present_label_ok(lua_tostring(L, -1)))
        label = lua_tostring(L, -1);
    if (!label)
        luaL_error(L, "game '%s': presentation.zones.%s.label must be text of at most %d bytes",
                   g->name, zone, PRESENT_LABEL_MAX);
    h->label = present_dup(L, label);
    lua_pop(L, 1);
    lua_getfield(L, t, "description");
    const char *desc = lua_isnil(L, -1) ? "" : NULL;
    if (lua_type(L, -1) == LUA_TSTRING &&
        engine_present_text_ok(lua_tostring(L, -1), PRESENT_DESC_MAX, false))
        desc = lua_tostring(L, -1);
    if (!desc)
        luaL_error(L,
                   "game '%s': presentation.zones.%s.description must be text of at most %d "
                   "bytes on one line",
                   g->name, zone, PRESENT_DESC_MAX);
    h->description = present_dup(L, desc);
    lua_pop(L, 1);
    lua_getfield(L, t, "color");
    snprintf(path, sizeof path, "presentation.zones.%s.color", zone);
    h->color = lua_isnil(L, -1) ? present_dup(L, "") : present_color(L, g, path);
    lua_pop(L, 1);
}

static int present_zone_cmp(const void *a, const void *b)
{
    const engine_zone_hint *x = a, *y = b;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->zone, y->zone);
}

static int present_type_cmp(const void *a, const void *b)
{
    return strcmp(((const engine_type_color *)a)->type, ((const engine_type_color *)b)->type);
}

/* A zeroed array for the entries of the table at the top of the stack (1..PRESENT_MAX). */
static void *present_slots(lua_State *L, const engine_game *g, const char *path, size_t size)
{
    size_t n = 0;
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
        n++;
    if (n > PRESENT_MAX)
        luaL_error(L, "game '%s': %s has more than %d entries", g->name, path, PRESENT_MAX);
    void *v = calloc(n ? n : 1, size);
    if (!v)
        luaL_error(L, "out of memory");
    return v;
}

static void present_zones_read(lua_State *L, engine_game *g)
{
    if (lua_isnil(L, -1))
        return;
    if (!lua_istable(L, -1))
        luaL_error(L, "game '%s': presentation.zones must map zone names to hints", g->name);
    g->hints = present_slots(L, g, "presentation.zones", sizeof *g->hints);
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "game '%s': presentation.zones must map zone names to hints", g->name);
        present_zone_read(L, g, &g->hints[g->nhints++]);
    }
    qsort(g->hints, g->nhints, sizeof *g->hints, present_zone_cmp);
}

static void present_types_read(lua_State *L, engine_game *g)
{
    if (lua_isnil(L, -1))
        return;
    if (!lua_istable(L, -1))
        luaL_error(L, "game '%s': presentation.type_colors must map card types to colours",
                   g->name);
    g->type_colors = present_slots(L, g, "presentation.type_colors", sizeof *g->type_colors);
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING || !present_label_ok(lua_tostring(L, -2)))
            luaL_error(L, "game '%s': presentation.type_colors must map card types to colours",
                       g->name);
        char path[128];
        snprintf(path, sizeof path, "presentation.type_colors.%s", lua_tostring(L, -2));
        engine_type_color *tc = &g->type_colors[g->ntype_colors];
        tc->type = present_dup(L, lua_tostring(L, -2));
        g->ntype_colors++;
        tc->color = present_color(L, g, path);
    }
    qsort(g->type_colors, g->ntype_colors, sizeof *g->type_colors, present_type_cmp);
}

void engine_present_read(lua_State *L, int t, engine_game *g)
{
    static const char *const fields[] = {"zones",   "type_colors",  "counters", "title",
                                         "summary", "deck_builder", NULL};
    lua_getfield(L, t, "presentation");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "game '%s': presentation must be a table", g->name);
    int p = lua_gettop(L);
    engine_present_keys(L, g, p, "presentation", fields);
    g->has_presentation = true;
    lua_getfield(L, p, "zones");
    present_zones_read(L, g);
    lua_settop(L, p);
    lua_getfield(L, p, "type_colors");
    present_types_read(L, g);
    lua_settop(L, p);
    engine_present_words_read(L, p, g);
    lua_settop(L, p - 1);
}

void engine_present_free(engine_game *g)
{
    for (size_t i = 0; i < g->nhints; i++) {
        free(g->hints[i].zone);
        free(g->hints[i].kind);
        free(g->hints[i].label);
        free(g->hints[i].color);
        free(g->hints[i].description);
    }
    free(g->hints);
    for (size_t i = 0; i < g->ntype_colors; i++) {
        free(g->type_colors[i].type);
        free(g->type_colors[i].color);
    }
    free(g->type_colors);
    engine_present_words_free(g);
}

int engine_present_catalog(const engine_game *g, Deckhand__Catalog *c)
{
    if (!g->has_presentation)
        return 0;
    Deckhand__Presentation *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    deckhand__presentation__init(p);
    c->presentation = p; /* freed with c from here on */
    p->zones = calloc(g->nhints ? g->nhints : 1, sizeof *p->zones);
    p->type_colors = calloc(g->ntype_colors ? g->ntype_colors : 1, sizeof *p->type_colors);
    if (!p->zones || !p->type_colors)
        return -1;
    for (size_t i = 0; i < g->nhints; i++) {
        const engine_zone_hint *h = &g->hints[i];
        Deckhand__ZoneHint *z = calloc(1, sizeof *z);
        if (!z)
            return -1;
        deckhand__zone_hint__init(z);
        p->zones[p->n_zones++] = z;
        z->order = h->order;
        z->columns = h->columns;
        z->zone = strdup(h->zone);
        z->kind = strdup(h->kind);
        z->label = strdup(h->label);
        z->color = strdup(h->color);
        z->description = strdup(h->description);
        if (!z->zone || !z->kind || !z->label || !z->color || !z->description)
            return -1;
    }
    for (size_t i = 0; i < g->ntype_colors; i++) {
        Deckhand__TypeColor *tc = calloc(1, sizeof *tc);
        if (!tc)
            return -1;
        deckhand__type_color__init(tc);
        p->type_colors[p->n_type_colors++] = tc;
        tc->type = strdup(g->type_colors[i].type);
        tc->color = strdup(g->type_colors[i].color);
        if (!tc->type || !tc->color)
            return -1;
    }
    return engine_present_words_catalog(g, p);
}
