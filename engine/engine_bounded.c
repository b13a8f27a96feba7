/*
 * engine_bounded.c: the bounds on what a script sizes: the library functions that run
 * their whole work inside one C call, checked before they start, and the cut of the texts
 * a script sends the seats (engine_text_fit: log lines, prompts, labels).
 *
 * The deadline of a script call is kept by a hook that runs between Lua instructions
 * (engine_watchdog.c), so a C function that loops for seconds cannot be stopped: a
 * backtracking pattern (`string.find(("a"):rep(150), (".-"):rep(4) .. "b")` runs for
 * seconds), a plain find whose work is the product of two lengths, `string.rep("", 2^50)`
 * (an empty copy 2^50 times, and any string.rep past 10^8 copies), `table.move` over a huge range,
 * `table.sort` of a huge array with a C comparator. Each is wrapped here: the wrapper estimates the
 * work from the arguments and raises when it is over ENGINE_C_WORK steps (about a tenth of a
 * second), and otherwise calls the real function. The other C functions of the sandbox's libraries
 * are linear in a string or table the memory cap bounds already (table.concat, string
 * methods, utf8), or call back into Lua (comparators, gsub's replacement functions, __index),
 * where the hook reaches.
 *
 * The pattern estimate: Lua's matcher tries each start position of the subject (one, when
 * the pattern is anchored with '^'), and each quantified item ('*', '+', '-', '?'), each
 * %b and each back reference (%1) may try every length of what is left, so the work is at
 * most n^(k+1) for k such items on a subject of n bytes (n^k anchored). That is pessimistic
 * (`[^,]+` is linear in practice), so the bound refuses only subjects that are long for the
 * pattern: one item allows several KiB, three items a few hundred bytes, which is far more
 * than card scripts use (they match card names and labels).
 */
#include <math.h>
#include <string.h>

#include <lualib.h>

#include "engine_internal.h"

#define ENGINE_C_WORK   5e7
#define ENGINE_MOVE_MAX (1 << 24) /* table.move: elements per call */
#define ENGINE_SORT_MAX (1 << 18) /* table.sort: elements per call */

/* ---- patterns ------------------------------------------------------------------------ */

/* The end of the single-character class at p (pattern end e), as Lua's matcher reads it. */
static const char *class_end(const char *p, const char *e)
{
    if (p >= e)
        return e;
    char c = *p++;
    if (c == '%')
        return p < e ? p + 1 : e;
    if (c == '[') {
        if (p < e && *p == '^')
            p++;
        do { /* the first ']' belongs to the set */
            if (p >= e)
                return e;
            c = *p++;
            if (c == '%' && p < e)
                p++;
        } while (p < e && *p != ']');
        return p < e ? p + 1 : e;
    }
    return p;
}

/* The number of items of the pattern that may backtrack over the subject. */
static int pattern_items(const char *p, const char *e)
{
    int k = 0;
    while (p < e) {
        if (*p == '(' || *p == ')') {
            p++;
            continue;
        }
        if (*p == '%' && p + 1 < e) {
            char c = p[1];
            if (c == 'b') { /* %bxy scans to the balancing y */
                k++;
                p += 4;
                continue;
            }
            if (c == 'f') { /* %f[set]: a frontier, no backtracking of its own */
                p = class_end(p + 2, e);
                continue;
            }
            if (c >= '1' && c <= '9') { /* a back reference compares a capture's length */
                k++;
                p += 2;
                continue;
            }
        }
        p = class_end(p, e);
        if (p < e && (*p == '*' || *p == '+' || *p == '-' || *p == '?')) {
            k++;
            p++;
        }
    }
    return k;
}

static int has_specials(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (strchr("^$*+?.([%-", p[i]))
            return 1;
    return 0;
}

/* Raises when matching the pattern at index 2 against the subject at index 1 may take
 * more than ENGINE_C_WORK steps; plain: a plain find (string.find's 4th argument). */
static void check_pattern(lua_State *L, int anchor_ok, int plain)
{
    size_t n, m;
    const char *s = luaL_checklstring(L, 1, &n);
    const char *p = luaL_checklstring(L, 2, &m);
    (void)s;
    if (plain || !has_specials(p, m)) {
        /* a plain search compares up to the pattern's length at every position */
        if ((double)n * (double)m > ENGINE_C_WORK * 20) /* memcmp steps are cheap */
            luaL_error(L, "plain find of %I bytes in %I bytes is too much work", (lua_Integer)m,
                       (lua_Integer)n);
        return;
    }
    const char *e = p + m;
    int anchored = anchor_ok && m && *p == '^';
    int k = pattern_items(p + anchored, e) + (anchored ? 0 : 1);
    double work = pow((double)n + 1.0, (double)k) * (double)(m ? m : 1);
    if (work > ENGINE_C_WORK)
        luaL_error(L,
                   "pattern too complex for its subject: %d backtracking items on %I bytes "
                   "(use plain find, or split the string first)",
                   k - (anchored ? 0 : 1), (lua_Integer)n);
}

/* Calls the real function (upvalue 1) with the arguments, returning what it returns. */
static int call_real(lua_State *L)
{
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

static int b_find(lua_State *L)
{
    check_pattern(L, 1, lua_toboolean(L, 4));
    return call_real(L);
}

static int b_match(lua_State *L)
{
    check_pattern(L, 1, 0);
    return call_real(L);
}

static int b_gmatch(lua_State *L)
{
    check_pattern(L, 0, 0);
    return call_real(L);
}

static int b_gsub(lua_State *L)
{
    check_pattern(L, 1, 0);
    return call_real(L);
}

/* ---- sizes --------------------------------------------------------------------------- */

/* string.rep of an empty string (and empty separator) is empty, without looping n times;
 * other strings copy once per repetition, so the count is bounded too (the memory cap
 * bounds the bytes). */
static int b_rep(lua_State *L)
{
    size_t l, lsep = 0;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (l + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if ((double)n > ENGINE_C_WORK * 2)
        luaL_error(L, "string.rep: result too large (at most %I repetitions a call)",
                   (lua_Integer)(ENGINE_C_WORK * 2));
    return call_real(L);
}

static int b_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    if (e >= f && ((lua_Unsigned)e - (lua_Unsigned)f) >= ENGINE_MOVE_MAX)
        luaL_error(L, "table.move: too many elements (at most %d a call)", ENGINE_MOVE_MAX);
    return call_real(L);
}

static int b_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (luaL_len(L, 1) > ENGINE_SORT_MAX)
        luaL_error(L, "table.sort: too many elements (at most %d)", ENGINE_SORT_MAX);
    return call_real(L);
}

/* ---- texts -------------------------------------------------------------------------- */

size_t engine_text_fit(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    size_t keep = max - (sizeof ENGINE_CUT_MARK - 1);
    while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
        keep--;
    return keep;
}

/* Replaces lib.name (the table at lib) by the wrapper fn over the original. */
static void wrap(lua_State *L, int lib, const char *name, lua_CFunction fn)
{
    lua_getfield(L, lib, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, lib, name);
}

void engine_bounded_open(lua_State *L)
{
    lua_getglobal(L, LUA_STRLIBNAME);
    int lib = lua_gettop(L);
    wrap(L, lib, "find", b_find);
    wrap(L, lib, "match", b_match);
    wrap(L, lib, "gmatch", b_gmatch);
    wrap(L, lib, "gsub", b_gsub);
    wrap(L, lib, "rep", b_rep);
    lua_getglobal(L, LUA_TABLIBNAME);
    lib = lua_gettop(L);
    wrap(L, lib, "move", b_move);
    wrap(L, lib, "sort", b_sort);
    lua_pop(L, 2);
}
