/*
 * engine_rules_diff.c: where T.eq's two values first differ (engine_rules_t.c), told in
 * context. T.eq prints both values in a short form (strings cut, tables a dozen entries
 * deep); when the difference lies past that cut, "expected" and "got" print the same
 * text. So a failure also names the first difference: the path to it (`.Village.cost`,
 * `[3]`), and for two strings the character where they part, with a window of text
 * around it on both sides.
 */
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

#define DIFF_BEFORE 24 /* characters of context before the first differing one */
#define DIFF_AFTER  40 /* and from it on */

/* Appends a printable form of s (len bytes), or a window of it around at. */
static size_t diff_window(char *out, size_t cap, const char *s, size_t len, size_t at)
{
    size_t from = at > DIFF_BEFORE ? at - DIFF_BEFORE : 0;
    size_t to = at + DIFF_AFTER < len ? at + DIFF_AFTER : len;
    int w = snprintf(out, cap, "\"%s%.*s%s\"", from ? "..." : "", (int)(to - from), s + from,
                     to < len ? "..." : "");
    return w > 0 ? (size_t)w : 0;
}

/* The value at idx, short, into out. */
static void diff_leaf(lua_State *L, int idx, char *out, size_t cap)
{
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        diff_window(out, cap, s, len, 0);
        break;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            snprintf(out, cap, "%lld", (long long)lua_tointeger(L, idx));
        else
            snprintf(out, cap, "%.14g", (double)lua_tonumber(L, idx));
        break;
    case LUA_TBOOLEAN:
        snprintf(out, cap, "%s", lua_toboolean(L, idx) ? "true" : "false");
        break;
    case LUA_TNIL:
        snprintf(out, cap, "nothing");
        break;
    default:
        snprintf(out, cap, "a %s", luaL_typename(L, idx));
        break;
    }
}

/* The key at idx appended to path (".name", or "[3]"). */
static void diff_path_push(lua_State *L, int idx, char *path, size_t cap)
{
    size_t at = strlen(path);
    if (at + 1 >= cap)
        return;
    if (lua_type(L, idx) == LUA_TSTRING)
        snprintf(path + at, cap - at, ".%.40s", lua_tostring(L, idx));
    else if (lua_isinteger(L, idx))
        snprintf(path + at, cap - at, "[%lld]", (long long)lua_tointeger(L, idx));
    else
        snprintf(path + at, cap - at, "[%s]", luaL_typename(L, idx));
}

static int diff_at(lua_State *L, int got, int exp, char *path, size_t pcap, char *out, size_t cap,
                   int depth);

/* The entry of key (top of the stack) in got and exp compared; pops nothing. */
static int diff_key(lua_State *L, int got, int exp, char *path, size_t pcap, char *out, size_t cap,
                    int depth)
{
    size_t at = strlen(path);
    int key = lua_gettop(L);
    diff_path_push(L, key, path, pcap);
    lua_pushvalue(L, key);
    lua_rawget(L, got);
    lua_pushvalue(L, key);
    lua_rawget(L, exp);
    int d = diff_at(L, key + 1, key + 2, path, pcap, out, cap, depth + 1);
    lua_pop(L, 2);
    if (!d)
        path[at] = '\0';
    return d;
}

/* Two tables: the first key, expected's in order then got's extra ones, that differs. */
static int diff_tables(lua_State *L, int got, int exp, char *path, size_t pcap, char *out,
                       size_t cap, int depth)
{
    engine_freeze_see(L, got); /* frozen module tables compare by what they hold */
    engine_freeze_see(L, exp);
    luaL_checkstack(L, 8, "T.eq diff");
    for (int pass = 0; pass < 2; pass++) {
        int t = pass ? got : exp;
        lua_pushnil(L);
        while (lua_next(L, t)) {
            lua_pop(L, 1); /* the key alone on top, for lua_next */
            lua_pushvalue(L, -1);
            int d = diff_key(L, got, exp, path, pcap, out, cap, depth);
            lua_pop(L, 1);
            if (d) {
                lua_pop(L, 1);
                return 1;
            }
        }
    }
    return 0;
}

static int diff_at(lua_State *L, int got, int exp, char *path, size_t pcap, char *out, size_t cap,
                   int depth)
{
    got = lua_absindex(L, got);
    exp = lua_absindex(L, exp);
    if (lua_rawequal(L, got, exp))
        return 0;
    if (lua_istable(L, got) && lua_istable(L, exp) && depth <= 20)
        return diff_tables(L, got, exp, path, pcap, out, cap, depth);
    const char *where = *path ? path : "the value";
    if (lua_type(L, got) == LUA_TSTRING && lua_type(L, exp) == LUA_TSTRING) {
        size_t gl, el, i = 0;
        const char *g = lua_tolstring(L, got, &gl), *e = lua_tolstring(L, exp, &el);
        while (i < gl && i < el && g[i] == e[i])
            i++;
        char ew[DIFF_BEFORE + DIFF_AFTER + 16], gw[DIFF_BEFORE + DIFF_AFTER + 16];
        diff_window(ew, sizeof ew, e, el, i);
        diff_window(gw, sizeof gw, g, gl, i);
        snprintf(out, cap, "%s differs at character %zu: expected %s, got %s", where, i + 1, ew,
                 gw);
        return 1;
    }
    char ev[DIFF_BEFORE + DIFF_AFTER + 16], gv[DIFF_BEFORE + DIFF_AFTER + 16];
    diff_leaf(L, exp, ev, sizeof ev);
    diff_leaf(L, got, gv, sizeof gv);
    snprintf(out, cap, "%s: expected %s, got %s", where, ev, gv);
    return 1;
}

int engine_rules_diff(lua_State *L, int got, int exp, char *out, size_t cap)
{
    char path[256] = "";
    out[0] = '\0';
    return diff_at(L, got, exp, path, sizeof path, out, cap, 0);
}
