/*
 * engine_api_new.c: g:new of a list, g:new(names, zone, owner, counts): a game's deck or
 * pool of several cards, set up from its data in one g call instead of one per card name
 * (Ascension's centre deck is some forty). It makes exactly what one g:new(names[i],
 * zone, owner, counts[i]) per i would: the same entities, ids, order and zone.
 * It also holds the step both forms of g:new share: n entities of one card made at once.
 */
#include "engine_internal.h"

uint32_t engine_api_new_n(lua_State *L, engine_match *m, uint32_t card, const engine_zone *z,
                          lua_Integer n)
{
    uint32_t first =
        n > ENGINE_MAX_ENTITIES
            ? 0
            : engine_entity_new_n(&m->st, card, (uint32_t)(z - m->st.zones), (uint32_t)n);
    if (!first)
        return (uint32_t)luaL_error(L, "too many entities");
    return first;
}

/* Returns the first id made, or nil when none was (every count 0: no zone made either). */
int engine_api_new_list(lua_State *L, engine_match *m)
{
    luaL_checktype(L, 5, LUA_TTABLE);
    lua_Integer owner = luaL_checkinteger(L, 4);
    if (owner < 0 || owner > m->np)
        return luaL_error(L, "bad owner %d", (int)owner);
    engine_freeze_see(L, 2);
    engine_freeze_see(L, 5);
    lua_Integer len = (lua_Integer)lua_rawlen(L, 2);
    uint32_t first = 0;
    engine_zone *z = NULL;
    for (lua_Integer i = 1; i <= len; i++) {
        lua_rawgeti(L, 5, i);
        int ok;
        lua_Integer n = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || n < 0)
            return luaL_error(L, "new: counts[%d] must be an integer of at least 0", (int)i);
        if (n == 0)
            continue;
        lua_rawgeti(L, 2, i);
        uint32_t card = engine_intern_lua(m->b, L, -1);
        lua_pop(L, 1);
        if (!z && !(z = engine_zone_get(&m->st, engine_intern_lua(m->b, L, 3), (int32_t)owner, 1)))
            return luaL_error(L, "out of memory");
        uint32_t id = engine_api_new_n(L, m, card, z, n);
        first = first ? first : id;
    }
    if (first)
        lua_pushinteger(L, first);
    else
        lua_pushnil(L);
    return 1;
}
