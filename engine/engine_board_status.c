/*
 * engine_board_status.c: g:status_enter, a piece's printed statuses set in one g call as
 * it enters the board.
 *
 * A board game's piece enters with its card's numbers and keywords as statuses
 * (boardkit/status.lua): per status, two attributes (its value and the turn it ends,
 * `NAME~`) and a published counter `NAME:ID`, which in Lua is a status:set each, five g
 * calls and a string built per status. A card with no text beyond its numbers runs no
 * Lua rule when it enters: the game's kernel lists, once at load, which statuses each
 * card enters with (from the bundle's card data), and this sets them. g:status_clear is
 * the way out: every status a leaving piece holds removed in one call.
 */
#include <stdio.h>

#include "engine_internal.h"

/* The name at i (from 1) of the array at idx, interned; its text into *text. */
static uint32_t name_at(lua_State *L, engine_bundle *b, int idx, lua_Integer i, const char **text)
{
    lua_rawgeti(L, idx, i);
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "status: entry %d is not a name", (int)i);
    uint32_t id = engine_intern_lua(b, L, -1);
    if (text)
        *text = lua_tostring(L, -1); /* kept alive by the array */
    lua_pop(L, 1);
    return id;
}

static int64_t *put(lua_State *L, engine_map *map, uint64_t key)
{
    int64_t *v = engine_map_put(map, key);
    if (!v)
        luaL_error(L, "too many attributes or counters");
    return v;
}

/* The arguments both calls share: the piece (an entity of the match, into *id) and the
 * three arrays at 3..5, of the same length (returned); op and third name the call and
 * its third array in the errors. */
static lua_Integer status_args(lua_State *L, engine_match *m, const char *op, const char *third,
                               uint32_t *id)
{
    lua_Integer ent = luaL_checkinteger(L, 2);
    if (ent < 1 || ent > m->st.nents)
        return luaL_error(L, "no entity %d", (int)ent);
    *id = (uint32_t)ent;
    for (int i = 3; i <= 5; i++)
        luaL_checktype(L, i, LUA_TTABLE);
    lua_settop(L, 5);
    for (int i = 3; i <= 5; i++)
        engine_freeze_see(L, i);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 3);
    if ((lua_Integer)lua_rawlen(L, 4) != n || (lua_Integer)lua_rawlen(L, 5) != n)
        return luaL_error(L, "%s: names, untils and %s differ in length", op, third);
    return n;
}

/* g:status_enter(id, names, untils, values): for each i, piece id's status names[i] set to
 * values[i], permanent (its end attribute untils[i] set to 0), and published as counter
 * `NAMES[i]:ID` of owner 0: what boardkit/status.lua's set does for a public status on a
 * piece that holds none of them (one that does is an error: its duration would count). */
int engine_board_status_enter(lua_State *L, engine_match *m)
{
    uint32_t id;
    lua_Integer n = status_args(L, m, "status_enter", "values", &id);
    for (lua_Integer i = 1; i <= n; i++) {
        const char *text;
        uint32_t name = name_at(L, m->b, 3, i, &text);
        uint32_t until = name_at(L, m->b, 4, i, NULL);
        lua_rawgeti(L, 5, i);
        int ok;
        lua_Integer v = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok)
            return luaL_error(L, "status_enter: value %d is not an integer", (int)i);
        int64_t *slot = put(L, &m->st.attrs, (uint64_t)id << 32 | name);
        if (*slot != 0)
            return luaL_error(L, "status_enter: entity %d already holds %s", (int)id, text);
        *slot = v;
        *put(L, &m->st.attrs, (uint64_t)id << 32 | until) = 0;
        char counter[96];
        int len = snprintf(counter, sizeof counter, "%s:%u", text, (unsigned)id);
        if (len < 0 || (size_t)len >= sizeof counter)
            return luaL_error(L, "status_enter: status name too long");
        uint32_t c = engine_intern_c(m->b, L, counter, (size_t)len);
        *put(L, &m->st.counters, (uint64_t)c << 32) = v;
    }
    return 0;
}

/* g:status_clear(id, names, untils, publics): for each i where piece id's status names[i]
 * is not 0: it and its end attribute untils[i] set to 0, and when publics[i] is true its
 * counter `NAMES[i]:ID` too. What boardkit/status.lua's clear does (every status removed,
 * no hook: the piece leaves play), in one call instead of five g calls per status held. */
int engine_board_status_clear(lua_State *L, engine_match *m)
{
    uint32_t id;
    lua_Integer n = status_args(L, m, "status_clear", "publics", &id);
    for (lua_Integer i = 1; i <= n; i++) {
        const char *text;
        uint32_t name = name_at(L, m->b, 3, i, &text);
        int64_t *slot = engine_map_find(&m->st.attrs, (uint64_t)id << 32 | name);
        if (!slot || *slot == 0)
            continue;
        *slot = 0;
        *put(L, &m->st.attrs, (uint64_t)id << 32 | name_at(L, m->b, 4, i, NULL)) = 0;
        lua_rawgeti(L, 5, i);
        int public = lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (!public)
            continue;
        char counter[96];
        int len = snprintf(counter, sizeof counter, "%s:%u", text, (unsigned)id);
        if (len < 0 || (size_t)len >= sizeof counter)
            return luaL_error(L, "status_clear: status name too long");
        *put(L, &m->st.counters, (uint64_t)engine_intern_c(m->b, L, counter, (size_t)len) << 32) =
            0;
    }
    return 0;
}
