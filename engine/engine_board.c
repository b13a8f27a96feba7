/*
 * engine_board.c: the name lists a board kit passes on its hottest calls (a grid's zone
 * names to g:tops, a status set's attribute names to g:gets), turned into interned ids
 * once per list instead of once per name per call.
 *
 * Those lists are module data, and module tables are frozen after load
 * (engine_freeze.c): what a frozen list holds never changes. So the first call that
 * passes one interns its names and keeps the ids in a userdata, in a registry table with
 * weak keys keyed by the list itself: an entry lives as long as its list, and a key
 * cannot be reused by another table. No script can reach that table or the userdata. A
 * list that is not frozen (one a script built, which it may change) is never kept: the
 * caller reads it name by name, as every call did before (engine_board_names gives NULL).
 * A call then costs a registry read and one table lookup, where interning ten zone names
 * and looking through the proxy cost about 2,500 instructions (docs/BENCHMARKS.md).
 */
#include <string.h>

#include "engine_internal.h"

static const char board_cache_key = 'b'; /* its address keys the registry */

typedef struct {
    lua_Integer n;
    uint32_t ids[];
} board_names;

/* Pushes the cache table, made on first use. */
static void push_cache(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &board_cache_key) == LUA_TTABLE)
        return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &board_cache_key);
}

/* The ids of the frozen list `list` (its contents at `items`), kept in the cache at
 * `cache`. Raises when an item is not a name. */
static const board_names *remember(lua_State *L, engine_bundle *b, int list, int items, int cache)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, items);
    board_names *bn = lua_newuserdatauv(L, sizeof *bn + (size_t)n * sizeof bn->ids[0], 0);
    bn->n = n;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, items, i);
        bn->ids[i - 1] = engine_intern_lua(b, L, -1);
        lua_pop(L, 1);
    }
    lua_pushvalue(L, list);
    lua_pushvalue(L, -2);
    lua_rawset(L, cache);
    lua_pop(L, 1);
    return bn;
}

const uint32_t *engine_board_names(lua_State *L, engine_bundle *b, int idx, lua_Integer *n)
{
    idx = lua_absindex(L, idx);
    push_cache(L);
    int cache = lua_gettop(L);
    lua_pushvalue(L, idx);
    const board_names *bn = NULL;
    if (lua_rawget(L, cache) == LUA_TUSERDATA) {
        bn = lua_touserdata(L, -1); /* kept alive by the cache while the list is */
    } else {
        engine_freeze_contents(L, idx);
        if (!lua_rawequal(L, -1, idx)) /* a frozen proxy: its contents never change */
            bn = remember(L, b, idx, lua_gettop(L), cache);
        lua_pop(L, 1);
    }
    lua_settop(L, cache - 1);
    if (!bn)
        return NULL;
    *n = bn->n;
    return bn->ids;
}

/* Whether entity id holds any of the n attributes ids (a nonzero value). */
static int holds_any(engine_match *m, uint32_t id, const uint32_t *attrs, lua_Integer n)
{
    for (lua_Integer i = 0; i < n; i++) {
        int64_t *v = engine_map_find(&m->st.attrs, (uint64_t)id << 32 | attrs[i]);
        if (v && *v)
            return 1;
    }
    return 0;
}

/* The attribute names of g:pick's optional array at 4, interned (n = 0 when absent). A
 * list that is not frozen is interned into `own` (at most ENGINE_BOARD_ATTRS names). */
#define ENGINE_BOARD_ATTRS 32
static const uint32_t *attrs_arg(lua_State *L, engine_match *m, lua_Integer *n, uint32_t *own)
{
    *n = 0;
    if (lua_isnoneornil(L, 4))
        return NULL;
    luaL_checktype(L, 4, LUA_TTABLE);
    const uint32_t *ids = engine_board_names(L, m->b, 4, n);
    if (ids)
        return ids;
    engine_freeze_see(L, 4);
    *n = (lua_Integer)lua_rawlen(L, 4);
    if (*n > ENGINE_BOARD_ATTRS)
        luaL_error(L, "pick: more than %d attributes", ENGINE_BOARD_ATTRS);
    for (lua_Integer i = 1; i <= *n; i++) {
        lua_rawgeti(L, 4, i);
        own[i - 1] = engine_intern_lua(m->b, L, -1);
        lua_pop(L, 1);
    }
    return own;
}

/* g:pick(ids, names [, attrs [, "names"]]): the ids of the array whose card name `names`
 * (a table keyed by card name) maps to a true value, or (with attrs, an array of
 * attribute names) that hold any of those attributes, in the array's order; with
 * "names", their card names too, as a second array. An event bus's listeners narrowed
 * to those that can answer (boardkit/events.lua, Wizardry's live listeners): one call
 * instead of a g:name, a table read and a g:get per status per listener. */
int engine_board_pick(lua_State *L, engine_match *m)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    uint32_t own[ENGINE_BOARD_ATTRS];
    lua_Integer na;
    const uint32_t *attrs = attrs_arg(L, m, &na, own);
    int names = !lua_isnoneornil(L, 5);
    if (names && strcmp(luaL_checkstring(L, 5), "names"))
        return luaL_error(L, "pick: the fourth argument must be \"names\" or nil");
    engine_freeze_see(L, 2);
    engine_freeze_see(L, 3);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2), k = 0;
    lua_settop(L, 5);
    lua_createtable(L, 4, 0);             /* 6: the ids */
    lua_createtable(L, names ? 4 : 0, 0); /* 7: their names */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        lua_Integer id = lua_tointeger(L, -1);
        lua_pop(L, 1);
        if (id < 1 || id > m->st.nents)
            return luaL_error(L, "pick: no entity at %d", (int)i);
        uint32_t name = m->st.ents[id - 1].name;
        lua_rawgeti(L, lua_upvalueindex(1), name);
        int keep = lua_rawget(L, 3) != LUA_TNIL && lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (!keep && !holds_any(m, (uint32_t)id, attrs, na))
            continue;
        lua_pushinteger(L, id);
        lua_rawseti(L, 6, ++k);
        if (names) {
            lua_rawgeti(L, lua_upvalueindex(1), name);
            lua_rawseti(L, 7, k);
        }
    }
    lua_pop(L, names ? 0 : 1);
    return names ? 2 : 1;
}
