/* engine_api_kits.c: how a kit joins a bundle's Lua state. The deck kit, its games'
 * primitives and the board kit each add their calls to g's method table (with the names
 * table as their upvalue) and their constructors as a `deckhand.*` module; this holds
 * that one way of doing it, so the kits cannot drift apart. */
#include "engine_internal.h"

void engine_api_add_methods(engine_bundle *b, lua_State *L, const luaL_Reg *methods)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->gmeta_ref);
    lua_getfield(L, -1, "__index"); /* g's method table */
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->names_ref);
    luaL_setfuncs(L, methods, 1);
    lua_pop(L, 2);
}

void engine_api_add_module(engine_bundle *b, lua_State *L, const char *name, const luaL_Reg *fns)
{
    int n = 0;
    while (fns[n].name)
        n++;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->loaded_ref);
    lua_createtable(L, 0, n);
    luaL_setfuncs(L, fns, 0);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}
