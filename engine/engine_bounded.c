/*
 * engine_bounded.c: the bounds on what a script sizes: the library functions that run
 * their whole work inside one C call, checked before they start, and the cut of the texts
 * a script sends the seats (engine_text_fit: log lines, prompts, labels).
 *
 * The deadline of a script call is kept by a hook that runs between Lua instructions
 * (engine_watchdog.c), so a C function that loops for seconds cannot be stopped: a
 * backtracking pattern (`string.find(("a"):rep(150), (".-"):rep(4) .. "b")` runs for
 * seconds), a plain find whose work is the product of two lengths, `string.rep("", 2^50)`,
 * `table.move` over a huge range, `table.sort` of 20,000 references to one 1 MiB string
 * (every comparison reads the MiB: 6-10 s), `table.insert` on a table whose __len says 2^40.
 * The work of any C call is a count times a length, so each function whose count or length
 * a script sizes is wrapped here: the wrapper estimates the work from the arguments and
 * raises when it is over that function's bound (set so one call stays under ~50 ms on the
 * reference machine, measured: docs/SECURITY.md, "Work per C call", lists every function
 * a script reaches, its cost model and its bound), and otherwise calls the real function.
 * What is left unwrapped is O(1), bounded by Lua's stack (10^6 values: unpack, select,
 * string.byte ranges), or calls back into Lua (order functions, gsub's replacement
 * functions, __index), where the hook reaches.
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

#define ENGINE_C_WORK     2e7        /* pattern steps (~35 ms at worst, measured) */
#define ENGINE_MOVE_MAX   (1 << 20)  /* table.move: elements per call (~17 ms) */
#define ENGINE_SORT_MAX   (1 << 15)  /* table.sort: elements per call (~20 ms of names) */
#define ENGINE_SORT_BYTES (2.5e8)    /* table.sort: bytes its string comparisons may read */
#define ENGINE_SHIFT_MAX  (1 << 20)  /* table.insert/remove: elements moved (~12 ms) */
#define ENGINE_REP_MAX    (1 << 22)  /* string.rep: repetitions (~15-30 ms) */
#define ENGINE_OUT_BYTES  (16 << 20) /* bytes one call may write: rep, concat, format, gsub */
#define ENGINE_SCAN_BYTES (8 << 20)  /* bytes a per-byte scan may read: lower, utf8.len... */
#define ENGINE_NUM_BYTES  (4 << 20)  /* bytes tonumber may read (~5 ns a byte) */
#define ENGINE_CAT_MAX    (1 << 20)  /* table.concat: elements per call (~21 ms) */
#define ENGINE_PACK_BYTES (8 << 20)  /* string.pack: the sizes its format asks for */

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

/* gsub with a replacement string also writes it once a match: at most n + 1 matches on
 * n bytes (max_n fewer), and its captures (%0..%9) copy at most the n bytes again each. */
static int b_gsub(lua_State *L)
{
    check_pattern(L, 1, 0);
    if (lua_type(L, 3) == LUA_TSTRING || lua_type(L, 3) == LUA_TNUMBER) {
        size_t n = 0, lr = 0;
        lua_tolstring(L, 1, &n);
        lua_tolstring(L, 3, &lr);
        double matches = (double)n + 1;
        if (lua_isinteger(L, 4) && (double)lua_tointeger(L, 4) < matches)
            matches = lua_tointeger(L, 4) > 0 ? (double)lua_tointeger(L, 4) : 0;
        if ((matches + (double)n) * (double)lr + (double)n > ENGINE_OUT_BYTES)
            luaL_error(L, "string.gsub: the replacements would write too much (at most %d bytes)",
                       ENGINE_OUT_BYTES);
    }
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
    if (n > ENGINE_REP_MAX || (double)n * (double)(l + lsep) > ENGINE_OUT_BYTES)
        luaL_error(L,
                   "string.rep: result too large (at most %d repetitions and %d bytes a "
                   "call: more would cost the worker too much time or memory)",
                   ENGINE_REP_MAX, ENGINE_OUT_BYTES);
    return call_real(L);
}

static int b_move(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    if (e >= f && ((lua_Unsigned)e - (lua_Unsigned)f) >= ENGINE_MOVE_MAX)
        luaL_error(L, "table.move: too many elements (at most %d a call)", ENGINE_MOVE_MAX);
    return call_real(L);
}

/* The comparisons a sort of n elements makes, pessimistically: small arrays sort without
 * a random pivot (quadratic at worst), larger ones with one (about 1.4 n log2 n). */
static double sort_comparisons(lua_Integer n)
{
    if (n <= 128)
        return (double)n * (double)n / 2 + (double)n;
    return 2.0 * (double)n * ceil(log2((double)n));
}

/* table.sort's work is its comparisons times what each costs. A Lua order function runs
 * Lua, where the kill latch reaches, but a C one (a library function) is a C call per
 * comparison that nothing stops between: refused (none of them is an order anyway). The
 * default order compares strings byte by byte, so an array of long strings is refused
 * when the comparisons could read more than ENGINE_SORT_BYTES: the cost of one comparison
 * is at most the shorter string's length, so the second-longest string bounds it. The
 * check reads the elements once (a scan, not a wrapper comparator that would slow every
 * sort down with a C call per comparison). */
static int b_sort(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer n = luaL_len(L, 1);
    if (n > ENGINE_SORT_MAX)
        luaL_error(L, "table.sort: too many elements (at most %d)", ENGINE_SORT_MAX);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TFUNCTION);
        if (lua_iscfunction(L, 2))
            luaL_error(L, "table.sort: the order function must be a Lua function");
        return call_real(L);
    }
    size_t top1 = 0, top2 = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        size_t len = 0;
        if (lua_geti(L, 1, i) == LUA_TSTRING)
            lua_tolstring(L, -1, &len);
        lua_pop(L, 1);
        if (len > top1) {
            top2 = top1;
            top1 = len;
        } else if (len > top2) {
            top2 = len;
        }
    }
    if (sort_comparisons(n) * (double)(top2 + 1) > ENGINE_SORT_BYTES)
        luaL_error(L, "table.sort: %I strings of up to %I bytes are too much work to compare", n,
                   (lua_Integer)top2);
    return call_real(L);
}

/* table.insert and table.remove move every element after the position, and how many that
 * is comes from #t, which __len may make anything: their own versions of the library's,
 * with the count bounded (the library's would read #t a second time). */
static void shift_check(lua_State *L, lua_Integer from, lua_Integer to)
{
    if (to > from && (lua_Unsigned)to - (lua_Unsigned)from > ENGINE_SHIFT_MAX)
        luaL_error(L, "table.insert/remove: too many elements to move (at most %d)",
                   ENGINE_SHIFT_MAX);
}

static int b_insert(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer e = luaL_intop(+, luaL_len(L, 1), 1), pos = e;
    switch (lua_gettop(L)) {
    case 2:
        break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
        shift_check(L, pos, e);
        for (lua_Integer i = e; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

static int b_remove(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer size = luaL_len(L, 1), pos = luaL_optinteger(L, 2, size);
    if (pos != size)
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    shift_check(L, pos, size);
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.concat: each element costs a lookup and its bytes, each gap the separator's. */
static int b_concat(lua_State *L)
{
    size_t lsep = 0;
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Integer j = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
    if (j >= i) {
        double n = (double)((lua_Unsigned)j - (lua_Unsigned)i) + 1;
        if (n > ENGINE_CAT_MAX || n * (double)lsep > ENGINE_OUT_BYTES)
            luaL_error(L, "table.concat: too much work (at most %d elements, %d bytes)",
                       ENGINE_CAT_MAX, ENGINE_OUT_BYTES);
        lua_settop(L, 4);
        lua_pushinteger(L, j); /* the real one must not read #t again */
        lua_replace(L, 4);
    }
    return call_real(L);
}

/* string.format: %s copies its string, %q writes up to a few bytes for each byte (and a
 * NUL or control byte costs a formatted escape, ~50 ns). */
static int b_format(lua_State *L)
{
    size_t lf;
    const char *f = luaL_checklstring(L, 1, &lf), *e = f + lf;
    double work = 0;
    int arg = 1;
    while ((f = memchr(f, '%', (size_t)(e - f))) != NULL && ++f < e) {
        if (*f == '%') {
            f++;
            continue;
        }
        while (f < e && strchr("-+ #0123456789.", *f))
            f++;
        if (f >= e)
            break;
        size_t len = 0;
        if (++arg <= lua_gettop(L) && lua_type(L, arg) == LUA_TSTRING)
            lua_tolstring(L, arg, &len);
        work += (double)len * (*f == 'q' ? 64 : *f == 's' ? 1 : 0);
    }
    if (work > ENGINE_OUT_BYTES)
        luaL_error(L, "string.format: too much work (its strings at most %d bytes, %%q 1/64 of it)",
                   ENGINE_OUT_BYTES);
    return call_real(L);
}

/* string.pack: a fixed size ('c1000000', 'i16', '!8') is padded byte by byte, so the sizes
 * its format names are bounded, whatever the strings given. */
static int b_pack(lua_State *L)
{
    size_t lf;
    const char *f = luaL_checklstring(L, 1, &lf), *e = f + lf;
    double total = (double)lf;
    while (f < e) {
        double v = 0;
        while (f < e && *f >= '0' && *f <= '9')
            v = v * 10 + (*f++ - '0');
        total += v;
        if (f < e)
            f++;
    }
    if (total > ENGINE_PACK_BYTES)
        luaL_error(L, "string.pack: sizes too large (at most %d bytes a call)", ENGINE_PACK_BYTES);
    return call_real(L);
}

/* A function that reads its first argument byte by byte (lower, upper, reverse, utf8.len,
 * tonumber...): linear, but at several ns a byte a string near the memory cap would take
 * most of a second. Upvalue 2: the byte bound. */
static int b_scan(lua_State *L)
{
    size_t len = 0;
    if (lua_type(L, 1) == LUA_TSTRING)
        lua_tolstring(L, 1, &len);
    lua_Integer max = lua_tointeger(L, lua_upvalueindex(2));
    if ((lua_Integer)len > max)
        luaL_error(L, "string of %I bytes too long for this function (at most %I)",
                   (lua_Integer)len, max);
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

/* Replaces lib.name by b_scan over the original, bounded to max bytes. */
static void wrap_scan(lua_State *L, int lib, const char *name, lua_Integer max)
{
    lua_getfield(L, lib, name);
    lua_pushinteger(L, max);
    lua_pushcclosure(L, b_scan, 2);
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
    wrap(L, lib, "format", b_format);
    wrap(L, lib, "pack", b_pack);
    wrap_scan(L, lib, "lower", ENGINE_SCAN_BYTES);
    wrap_scan(L, lib, "upper", ENGINE_SCAN_BYTES);
    wrap_scan(L, lib, "reverse", ENGINE_SCAN_BYTES);
    lua_getglobal(L, LUA_TABLIBNAME);
    lib = lua_gettop(L);
    wrap(L, lib, "move", b_move);
    wrap(L, lib, "sort", b_sort);
    wrap(L, lib, "concat", b_concat);
    lua_pushcfunction(L, b_insert);
    lua_setfield(L, lib, "insert");
    lua_pushcfunction(L, b_remove);
    lua_setfield(L, lib, "remove");
    lua_getglobal(L, LUA_UTF8LIBNAME);
    lib = lua_gettop(L);
    wrap_scan(L, lib, "len", ENGINE_SCAN_BYTES);
    wrap_scan(L, lib, "offset", ENGINE_SCAN_BYTES);
    lua_pushglobaltable(L);
    wrap_scan(L, lua_gettop(L), "tonumber", ENGINE_NUM_BYTES);
    lua_pop(L, 4);
}
