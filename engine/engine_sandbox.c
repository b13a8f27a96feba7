/*
 * engine_sandbox.c: what a script may reach in its VM: the safe libraries only, a
 * `require` that loads text chunks of the bundle and nothing else, and globals and
 * libraries that no script can change (matches share the VM).
 */
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "dh_log.h"
#include "engine_internal.h"

static int sb_print(lua_State *L)
{
    luaL_Buffer lb;
    int n = lua_gettop(L);
    luaL_buffinit(L, &lb);
    /* Only the first ENGINE_MAX_LOG_LINE bytes are logged: stop copying past them (200
       arguments of a MiB each would copy 200 MiB). */
    for (int i = 1; i <= n && luaL_bufflen(&lb) <= ENGINE_MAX_LOG_LINE; i++) {
        if (i > 1)
            luaL_addchar(&lb, '\t');
        size_t len;
        const char *s = luaL_tolstring(L, i, &len);
        if (len > ENGINE_MAX_LOG_LINE + 1) {
            lua_pushlstring(L, s, ENGINE_MAX_LOG_LINE + 1);
            lua_remove(L, -2);
        }
        luaL_addvalue(&lb);
    }
    luaL_pushresult(&lb);
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    size_t keep = engine_text_fit(s, len, ENGINE_MAX_LOG_LINE);
    dh_info("script: %.*s%s", (int)keep, s, keep < len ? ENGINE_CUT_MARK : "");
    return 0;
}

int engine_sandbox_require(lua_State *L)
{
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    lua_settop(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->loaded_ref);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, 2) != LUA_TNIL) {
        if (lua_toboolean(L, -1) == 0 && lua_type(L, -1) == LUA_TBOOLEAN)
            return luaL_error(L, "module '%s' requires itself", name);
        return 1;
    }
    lua_pop(L, 1);
    char path[512];
    if (len == 0 || len + 5 > sizeof path || name[0] == '.' || name[len - 1] == '.')
        return luaL_error(L, "bad module name '%s'", name);
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_' || c == '-' || (c == '.' && name[i + 1] != '.');
        if (!ok)
            return luaL_error(L, "bad module name '%s'", name);
        path[i] = c == '.' ? '/' : c;
    }
    memcpy(path + len, ".lua", 5);
    const engine_file *f = engine_files_find(b, path);
    if (!f)
        return luaL_error(L, "module '%s' not found in the bundle", name);
    char chunk[520];
    snprintf(chunk, sizeof chunk, "@%s", path);
    if (luaL_loadbufferx(L, f->data, f->len, chunk, "t") != LUA_OK)
        return lua_error(L);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, 0);
    lua_rawset(L, 2); /* loading: a cycle finds false */
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    if (b->frozen) /* loaded after the games (a rules test): read-only from now on too */
        engine_freeze_value(L, -1);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, 2);
    return 1;
}

static void drop(lua_State *L, const char *lib, const char *name)
{
    if (lib) {
        lua_getglobal(L, lib);
        lua_pushnil(L);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
    } else {
        lua_pushnil(L);
        lua_setglobal(L, name);
    }
}

/* Matches share the VM, so whatever one call leaves in a shared table the next call of
 * any match sees: a replaced `ipairs`, a patched `string.format`, a new global. The
 * globals and the libraries are therefore read-only to scripts: each is replaced by an
 * empty proxy whose locked metatable reads through to the real table (which no script can
 * reach) and refuses writes; `rawset` refuses the proxies (and frozen module tables', and
 * the option records deck.freeze makes: engine_record.c). A
 * global read costs one more
 * table probe; string methods (`s:sub()`) still go straight to the real library. */
static int ro_newindex(lua_State *L)
{
    const char *what = lua_tostring(L, lua_upvalueindex(1));
    if (!strcmp(what, "globals"))
        return luaL_error(L, "scripts may not set global '%s' (use local, or state in g)",
                          lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?");
    return luaL_error(L, "the %s library is read-only", what);
}

/* Pushes a read-only proxy of the table at idx and records it in the set at locked. */
static void ro_push(lua_State *L, int idx, const char *what, int locked)
{
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, idx);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, what);
    lua_pushcclosure(L, ro_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, idx);
    lua_pushcclosure(L, engine_proxy_pairs, 1); /* pairs walks the real table, not handed out */
    lua_setfield(L, -2, "__pairs");
    lua_pushstring(L, what);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    lua_rawset(L, locked);
}

static int sb_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL || engine_freeze_is_proxy(L, 1) ||
        engine_record_of(L, 1))
        return luaL_error(L, "rawset: this table is read-only");
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* setmetatable without finalizers or weak tables: a __gc runs whenever the collector gets
 * to it, in the middle of another match's call (or, at lua_close, under no deadline at
 * all), and what a weak table holds depends on when the collector ran, which the other
 * matches of the VM decide. Lua marks an object for finalization only if its metatable
 * has __gc when set, so checking here is enough. */
static int sb_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (t == LUA_TTABLE) {
        if (lua_getfield(L, 2, "__gc") != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc is not allowed in scripts");
        if (lua_getfield(L, 2, "__mode") != LUA_TNIL)
            return luaL_error(L, "setmetatable: weak tables (__mode) are not allowed in scripts");
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/* Replaces the globals and the libraries by read-only proxies (see ro_newindex). */
static void sandbox_lock(lua_State *L)
{
    static const char *const libs[] = {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME,
                                       LUA_UTF8LIBNAME};
    lua_newtable(L); /* the set of proxies */
    int locked = lua_gettop(L);
    lua_pushvalue(L, locked);
    lua_setfield(L, LUA_REGISTRYINDEX, ENGINE_LOCKED_KEY); /* the freeze skips them */
    lua_pushvalue(L, locked);
    lua_pushcclosure(L, sb_rawset, 1);
    lua_setglobal(L, "rawset");
    lua_pushcfunction(L, sb_setmetatable);
    lua_setglobal(L, "setmetatable");
    lua_pushglobaltable(L);
    int real = lua_gettop(L);
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        lua_getfield(L, real, libs[i]);
        ro_push(L, -1, libs[i], locked);
        lua_setfield(L, real, libs[i]);
        lua_pop(L, 1);
    }
    /* The string metatable's __index stays the real library (fast s:method calls) but
       getmetatable("") no longer hands the metatable out. */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushliteral(L, "string");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);
    ro_push(L, real, "globals", locked);
    lua_pushvalue(L, -1);
    lua_setfield(L, real, LUA_GNAME); /* _G names the proxy too */
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_settop(L, locked - 1);
}

void engine_sandbox_open(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};
    for (const luaL_Reg *l = libs; l->name; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    engine_watchdog_guard_pcall(L);
    drop(L, NULL, "load");
    drop(L, NULL, "loadfile");
    drop(L, NULL, "dofile");
    drop(L, NULL, "collectgarbage");
    drop(L, LUA_STRLIBNAME, "dump");
    drop(L, LUA_MATHLIBNAME, "random");
    drop(L, LUA_MATHLIBNAME, "randomseed");
    engine_bounded_open(L);
    lua_pushcfunction(L, sb_print);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, engine_sandbox_require);
    lua_setglobal(L, "require");
    /* The library tables stay reachable through the registry's _LOADED; drop that too,
       so the only way to them is the (pruned) globals. */
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    sandbox_lock(L);
}
