/*
 * engine_vm.c: a bundle's one Lua VM, from creation to close: the counting allocator
 * (engine_alloc.c), the deadline watchdog (engine_watchdog.c), the sandbox
 * (engine_sandbox.c), the registry tables the engine keeps in it (interned names, loaded
 * modules) and the metatable of `g` (engine_api.c, with the deck kit's methods and module:
 * engine_deck.c).
 *
 * Every match of the bundle runs in this VM, so what it holds is shared by them all; the
 * sandbox is what keeps one match's scripts from reaching another's.
 */
#include "engine_deck.h"
#include "engine_deck_games.h"
#include "engine_internal.h"

int engine_vm_new(engine_bundle *b)
{
    b->L = lua_newstate(engine_alloc, b);
    if (!b->L)
        return -1;
    *(engine_bundle **)lua_getextraspace(b->L) = b;
    lua_gc(b->L, LUA_GCGEN, 0, 0);
    engine_watchdog_start(b);
    return 0;
}

int engine_vm_init(lua_State *L)
{
    engine_bundle *b = lua_touserdata(L, 1);
    engine_sandbox_open(L);
    lua_newtable(L);
    b->names_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    b->loaded_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    b->caches_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    b->upvals_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    b->trim_at = b->mem_limit / 2;
    if (engine_api_open(b, L) < 0)
        return luaL_error(L, "out of memory");
    engine_deck_open(b, L);
    engine_deck_games_open(b, L);
    engine_board_open(b, L);
    b->id_log = engine_intern_c(b, L, "log", 3);
    b->id_turn_cap = engine_intern_c(b, L, "_turn_cap", 9);
    return 0;
}

void engine_vm_close(engine_bundle *b)
{
    engine_watchdog_stop(b);
    if (b->L)
        lua_close(b->L);
    b->L = NULL;
    engine_alloc_free(b);
}
