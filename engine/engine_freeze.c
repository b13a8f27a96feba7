/*
 * engine_freeze.c: module state is read-only once a bundle is loaded.
 *
 * Every match of a bundle runs in its one VM, so whatever a module keeps (its returned
 * table, the tables its functions reach through upvalues, card definitions) is shared by
 * all of them. A card that writes there leaks state from one match into another, and a
 * card that fills a module table keeps that memory for as long as the VM lives, so every
 * other match then runs with the memory cap already spent (a rollback cannot give it
 * back). So once the games are loaded, engine_freeze_modules walks everything the loaded
 * modules reach (table keys and values, metatables, the upvalues of Lua functions) and
 * makes each table read-only:
 *
 * - a plain table becomes an empty proxy: its contents move to a new table that its
 *   locked metatable reads through (__index, __len, __pairs), and every write raises
 *   (`rawset` too: engine_freeze_is_proxy). Its identity is kept, so
 *   everything that held it still does. `next` and `rawget` on it see nothing (the scripts
 *   use neither); reads cost one metatable step. The metatable also holds the contents
 *   under a key no script can name (a light userdata), so C reads them with one probe
 *   (engine_freeze_contents, on every table a g call is handed).
 * - a table that is some table's metatable (a class: `setmetatable(k, Kernel)`) must keep
 *   its fields raw, since Lua reads metamethods raw: it only gets a metatable refusing new
 *   keys.
 * - a cache, a table whose metatable has `__cache = true` (deckbuilder/memo.lua's
 *   memo.cache), stays writable: its values must be a pure function of its keys, so the
 *   engine may empty it whenever it likes; engine_freeze_trim empties every cache when the
 *   VM's memory is tight, so a cache cannot hoard memory either.
 *
 * A module `require`d after the freeze (a rules test's) is frozen when it loads. A
 * module's local variable itself (an upvalue, not a table it holds) can still be assigned
 * at run time: the walk notes every module function's upvalues as loaded, and
 * engine_freeze_trim puts them back when it empties the caches, so what one holds is
 * given back too (such a local must be a cache in all but name, as scripts keep state in
 * g only).
 */
#include <string.h>

#include "engine_internal.h"

static const char shadow_key; /* its address: a proxy metatable's key of the contents */

static int refuse_write(lua_State *L)
{
    return luaL_error(L,
                      "module state is read-only after load (writing field '%s'): keep "
                      "match state in g",
                      lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?");
}

static int frozen_len(lua_State *L)
{
    lua_pushinteger(L, luaL_len(L, lua_upvalueindex(1)));
    return 1;
}

static int frozen_next(lua_State *L)
{
    lua_settop(L, 2);
    return lua_next(L, lua_upvalueindex(1)) ? 2 : 0;
}

int engine_proxy_pairs(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, frozen_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* 1 when the table at idx has a metatable whose __cache is true. */
static int is_cache(lua_State *L, int idx)
{
    if (!lua_getmetatable(L, idx))
        return 0;
    lua_pushliteral(L, "__cache");
    lua_rawget(L, -2);
    int c = lua_toboolean(L, -1);
    lua_pop(L, 2);
    return c;
}

typedef struct {
    int seen, metas, list, caches, locked, work, upvals; /* stack slots of the walk's tables */
    lua_Integer nlist, nwork, ncaches;
    engine_bundle *b;
} walk;

/* Queues the value on top of the stack (popped) unless it was seen or needs no walk. */
static void push_work(lua_State *L, walk *w)
{
    int t = lua_type(L, -1);
    if ((t != LUA_TTABLE && t != LUA_TFUNCTION) || (t == LUA_TFUNCTION && lua_iscfunction(L, -1))) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, -1);
    if (lua_rawget(L, w->seen) != LUA_TNIL) {
        lua_pop(L, 2);
        return;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    lua_rawset(L, w->seen);
    lua_rawseti(L, w->work, ++w->nwork);
}

/* One table from the work list (at top): note it, queue what it reaches. */
static void walk_table(lua_State *L, walk *w)
{
    int t = lua_gettop(L);
    lua_pushvalue(L, t);
    int locked = lua_rawget(L, w->locked) != LUA_TNIL;
    lua_pop(L, 1);
    if (locked)
        return; /* the sandbox's proxies: read-only already, and they hide the libraries */
    if (lua_getmetatable(L, t)) {
        lua_pushvalue(L, -1);
        lua_pushboolean(L, 1);
        lua_rawset(L, w->metas);
        lua_pushliteral(L, "__metatable");
        int locked_mt = lua_rawget(L, -2) != LUA_TNIL;
        lua_pushliteral(L, "__newindex");
        locked_mt = locked_mt && lua_rawget(L, -3) != LUA_TNIL;
        lua_pop(L, 2);
        if (locked_mt) { /* read-only by construction already (memo.freeze's records) */
            lua_settop(L, t);
            return;
        }
        push_work(L, w);
    }
    if (is_cache(L, t)) {
        lua_pushvalue(L, t);
        lua_rawseti(L, w->caches, ++w->ncaches);
        return;
    }
    lua_pushvalue(L, t);
    lua_rawseti(L, w->list, ++w->nlist);
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1)) {
        lua_pushvalue(L, -2);
        push_work(L, w);
        lua_pushvalue(L, -1);
        push_work(L, w);
    }
}

/* One Lua function from the work list (at top): queue its upvalues, and note each with
 * its value as loaded, which engine_freeze_trim may put back. */
static void walk_function(lua_State *L, walk *w)
{
    int f = lua_gettop(L);
    for (int i = 1; lua_getupvalue(L, f, i); i++) {
        lua_Integer at = (lua_Integer)w->b->nupvals * 3;
        lua_pushvalue(L, f);
        lua_rawseti(L, w->upvals, at + 1);
        lua_pushinteger(L, i);
        lua_rawseti(L, w->upvals, at + 2);
        lua_pushvalue(L, -1);
        lua_rawseti(L, w->upvals, at + 3);
        w->b->nupvals++;
        push_work(L, w);
    }
}

/* Copies the fields of the table on top of the stack (popped) into the table at to,
 * except those to already has. */
static void copy_missing(lua_State *L, int to)
{
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
        lua_pushvalue(L, -2);
        if (lua_rawget(L, to) == LUA_TNIL) {
            lua_pushvalue(L, -3);
            lua_pushvalue(L, -3);
            lua_rawset(L, to);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* The table at idx becomes an empty proxy over a new table holding its contents. */
static void make_proxy(lua_State *L, int idx)
{
    lua_newtable(L);
    int shadow = lua_gettop(L);
    for (lua_pushnil(L); lua_next(L, idx);) { /* key value */
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, shadow);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, idx); /* clearing a field while traversing is allowed */
    }
    lua_newtable(L); /* the proxy's metatable */
    int mt = lua_gettop(L);
    lua_pushvalue(L, shadow);
    lua_setfield(L, mt, "__index");
    lua_pushcfunction(L, refuse_write);
    lua_setfield(L, mt, "__newindex");
    lua_pushliteral(L, "frozen");
    lua_setfield(L, mt, "__metatable");
    lua_pushvalue(L, shadow);
    lua_rawsetp(L, mt, &shadow_key);
    if (lua_getmetatable(L, idx)) { /* its metamethods stay; its __index works via shadow */
        lua_pushvalue(L, -1);
        lua_setmetatable(L, shadow);
        copy_missing(L, mt);
    }
    lua_pushliteral(L, "__len");
    if (lua_rawget(L, mt) == LUA_TNIL) {
        lua_pushvalue(L, shadow);
        lua_pushcclosure(L, frozen_len, 1);
        lua_setfield(L, mt, "__len");
    }
    lua_pushliteral(L, "__pairs");
    if (lua_rawget(L, mt) == LUA_TNIL) {
        lua_pushvalue(L, shadow);
        lua_pushcclosure(L, engine_proxy_pairs, 1);
        lua_setfield(L, mt, "__pairs");
    }
    lua_settop(L, mt);
    lua_setmetatable(L, idx);
    lua_settop(L, shadow - 1);
}

/* A metatable keeps its fields raw (Lua reads metamethods raw) but refuses new ones. */
static void guard(lua_State *L, int idx)
{
    lua_newtable(L);
    int mt = lua_gettop(L);
    lua_pushcfunction(L, refuse_write);
    lua_setfield(L, mt, "__newindex");
    lua_pushliteral(L, "frozen");
    lua_setfield(L, mt, "__metatable");
    if (lua_getmetatable(L, idx))
        copy_missing(L, mt);
    lua_setmetatable(L, idx);
}

/* lua_CFunction (protected): freezes everything reachable from the values of the table at
 * index 1 (the loaded modules), or from the value at index 2 when index 1 is nil. */
static int freeze_cf(lua_State *L)
{
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    walk w = {0};
    lua_settop(L, 2); /* the slots below are absolute */
    for (int i = 0; i < 4; i++)
        lua_newtable(L);
    w.seen = 3, w.metas = 4, w.list = 5, w.work = 6;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->caches_ref);
    w.caches = 7;
    w.ncaches = (lua_Integer)lua_rawlen(L, w.caches);
    lua_getfield(L, LUA_REGISTRYINDEX, ENGINE_LOCKED_KEY);
    w.locked = 8;
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->upvals_ref);
    w.upvals = 9;
    w.b = b;
    if (lua_istable(L, 1)) {
        for (lua_pushnil(L); lua_next(L, 1);)
            push_work(L, &w);
    } else {
        lua_pushvalue(L, 2);
        push_work(L, &w);
    }
    while (w.nwork > 0) {
        lua_rawgeti(L, w.work, w.nwork);
        lua_pushnil(L);
        lua_rawseti(L, w.work, w.nwork--);
        if (lua_istable(L, -1))
            walk_table(L, &w);
        else
            walk_function(L, &w);
        lua_settop(L, 9);
    }
    for (lua_Integer i = 1; i <= w.nlist; i++) {
        lua_rawgeti(L, w.list, i);
        lua_pushvalue(L, -1);
        int meta = lua_rawget(L, w.metas) != LUA_TNIL;
        lua_pop(L, 1);
        if (meta)
            guard(L, lua_gettop(L));
        else
            make_proxy(L, lua_gettop(L));
        lua_pop(L, 1);
    }
    return 0;
}

void engine_freeze_modules(lua_State *L, engine_bundle *b)
{
    lua_pushcfunction(L, freeze_cf);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->loaded_ref);
    lua_call(L, 1, 0);
    b->frozen = 1;
}

void engine_freeze_value(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, freeze_cf);
    lua_pushnil(L);
    lua_pushvalue(L, idx);
    lua_call(L, 2, 0);
}

void engine_freeze_contents(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (lua_getmetatable(L, idx)) {
        if (lua_rawgetp(L, -1, &shadow_key) == LUA_TTABLE) { /* a proxy: its contents */
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, idx);
}

int engine_freeze_is_proxy(lua_State *L, int idx)
{
    if (!lua_getmetatable(L, idx))
        return 0;
    int proxy = lua_rawgetp(L, -1, &shadow_key) == LUA_TTABLE;
    lua_pop(L, 2);
    return proxy;
}

void engine_freeze_see(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    engine_freeze_contents(L, idx);
    lua_replace(L, idx);
}

/* Puts every module function's upvalues back to their values as loaded. */
static void restore_upvalues(lua_State *L, engine_bundle *b)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->upvals_ref);
    int t = lua_gettop(L);
    for (size_t k = 0; k < b->nupvals; k++) {
        lua_Integer at = (lua_Integer)k * 3;
        lua_rawgeti(L, t, at + 1);
        lua_rawgeti(L, t, at + 2);
        int i = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        lua_rawgeti(L, t, at + 3);
        if (!lua_setupvalue(L, -2, i))
            lua_pop(L, 1);
        lua_pop(L, 1);
    }
    lua_settop(L, t - 1);
}

void engine_freeze_trim(engine_bundle *b)
{
    lua_State *L = b->L;
    if (b->mem <= b->trim_at)
        return;
    lua_gc(L, LUA_GCCOLLECT);
    if (b->mem > b->mem_limit / 2) {
        restore_upvalues(L, b);
        lua_rawgeti(L, LUA_REGISTRYINDEX, b->caches_ref);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            for (lua_pushnil(L); lua_next(L, -2);) {
                lua_pop(L, 1);
                lua_pushvalue(L, -1);
                lua_pushnil(L);
                lua_rawset(L, -4);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        lua_gc(L, LUA_GCCOLLECT);
    }
    size_t again = b->mem + b->mem_limit / 8;
    b->trim_at = again > b->mem_limit / 2 ? again : b->mem_limit / 2;
}
