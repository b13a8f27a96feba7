/*
 * engine_record.c: read-only option records made by the engine (`deck.freeze`), whose
 * fields a decision reads without the Lua C API.
 *
 * deckbuilder's memo.freeze shares an option table between decisions and matches: an
 * empty table whose locked metatable reads through (__index) to the record and refuses
 * writes. g:choose read each option's card, target, label, verb (or act) and space back
 * from Lua at every decision, about 1,800 instructions an option (docs/BENCHMARKS.md,
 * issue 27), although a shared record never changes. The engine could not keep what it
 * read, since a table that a script made may be written through any reference the script
 * kept.
 *
 * deck.freeze(t, newindex) makes the same read-only table as memo.freeze, but over a copy
 * of t's fields that only the metatable holds (and the metatable is locked: getmetatable
 * gives "frozen", and the sandbox has no debug library), so nothing can write the record
 * after it is made. It reads the record once, as engine_match_set_decision would, and
 * keeps the result in the metatable: the entities as read (checked against the match at
 * each decision) and the three texts' bytes as the decision's text buffer holds them (cut
 * to their limit, NUL-ended), in a full userdata at the metatable's index 1 (an array
 * slot: one probe, where a light userdata key cost a hash look-up of 136 instructions). A
 * decision then takes an option from there with a metatable look-up and one copy. No
 * script can reach a record's metatable or its userdata, but a script's own metatable may
 * hold another userdata at index 1 (g, say), so one is read as a record only when it is
 * one: its size, a magic number, and its own address in its first bytes. The proxy itself
 * stays empty, so the fields are what reads give: its metatable refuses writes, and the
 * sandbox's `rawset` refuses records (engine_sandbox.c), as it refuses frozen module
 * tables (the only raw write a script has: table.insert, table.move and table.sort write
 * through __newindex).
 *
 * A table with a metatable of its own is not copied (its reads go through its metatable):
 * deck.freeze then makes exactly memo.freeze's record over t itself, read as before.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static engine_record_entity entity_read(lua_State *L, int t, const char *k)
{
    engine_record_entity r = {0};
    if (lua_getfield(L, t, k) != LUA_TNIL) {
        int ok;
        r.present = 1;
        r.e = lua_tointegerx(L, -1, &ok);
        r.bad = !ok;
    }
    lua_pop(L, 1);
    return r;
}

/* Field k of the raw table at t as the decision reads a text: a string or a number as its
 * text, anything else as "". Pushes the value (the text lives while it is on the stack). */
static const char *text_read(lua_State *L, int t, const char *k, size_t *len)
{
    int ty = lua_getfield(L, t, k);
    const char *s = ty == LUA_TSTRING || ty == LUA_TNUMBER ? lua_tolstring(L, -1, len) : NULL;
    if (!s) {
        *len = 0;
        s = "";
    }
    return s;
}

/* Pushes the record of the raw table at t (a full userdata): what a decision reads. */
static void record_make(lua_State *L, int t)
{
    static const char *const keys[ENGINE_RECORD_TEXTS] = {"label", "verb", "space"};
    const char *s[ENGINE_RECORD_TEXTS];
    size_t len[ENGINE_RECORD_TEXTS], keep[ENGINE_RECORD_TEXTS], total = 0;
    for (int k = 0; k < ENGINE_RECORD_TEXTS; k++) {
        s[k] = text_read(L, t, keys[k], &len[k]);
        if (k == 1 && !len[k]) { /* a verb not given is the option's act */
            lua_pop(L, 1);
            s[k] = text_read(L, t, "act", &len[k]);
        }
        keep[k] = engine_text_fit(s[k], len[k], ENGINE_MAX_LABEL);
        total += keep[k] + (keep[k] < len[k] ? sizeof ENGINE_CUT_MARK - 1 : 0) + 1;
    }
    int texts = lua_gettop(L) - ENGINE_RECORD_TEXTS + 1;
    engine_record *r = lua_newuserdatauv(L, sizeof *r + total, 0);
    r->self = r;
    r->magic = ENGINE_RECORD_MAGIC;
    r->card = entity_read(L, t, "card");
    r->target = entity_read(L, t, "target");
    size_t at = 0;
    for (int k = 0; k < ENGINE_RECORD_TEXTS; k++) {
        size_t mark = keep[k] < len[k] ? sizeof ENGINE_CUT_MARK - 1 : 0;
        r->at[k] = (uint32_t)at;
        memcpy(r->text + at, s[k], keep[k]);
        memcpy(r->text + at + keep[k], ENGINE_CUT_MARK, mark);
        at += keep[k] + mark;
        r->text[at++] = 0;
    }
    r->len = (uint32_t)total;
    lua_replace(L, texts); /* the record over the first text; the others dropped */
    lua_settop(L, texts);
}

/* deck.freeze(t, newindex): the read-only record of t's fields (see the top of the file). */
int engine_record_freeze(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    lua_newtable(L);              /* 3: the proxy */
    lua_createtable(L, 1, 3);     /* 4: its metatable */
    if (lua_getmetatable(L, 1)) { /* read through t itself, as memo.freeze does */
        lua_pop(L, 1);
        lua_pushvalue(L, 1);
    } else {
        size_t n = 0;
        for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1))
            n++;
        lua_createtable(L, 0, (int)n); /* 5: the copy only the metatable holds */
        for (lua_pushnil(L); lua_next(L, 1);) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, 5);
        }
        record_make(L, 5);
        lua_rawseti(L, 4, 1);
    }
    lua_setfield(L, 4, "__index");
    lua_pushvalue(L, 2);
    lua_setfield(L, 4, "__newindex");
    lua_pushliteral(L, "frozen");
    lua_setfield(L, 4, "__metatable");
    lua_setmetatable(L, 3);
    return 1;
}

const engine_record *engine_record_of(lua_State *L, int t)
{
    if (!lua_getmetatable(L, t))
        return NULL;
    if (lua_rawgeti(L, -1, 1) != LUA_TUSERDATA || lua_rawlen(L, -1) < sizeof(engine_record))
        return NULL;
    const engine_record *r = lua_touserdata(L, -1);
    return r->self == r && r->magic == ENGINE_RECORD_MAGIC ? r : NULL;
}
