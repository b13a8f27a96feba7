/*
 * engine_bundle.c: loading a bundle of Lua scripts into one sandboxed VM.
 *
 * A bundle is read fully into memory (it is hashed for its id anyway, and `require`
 * then never touches the file system again). The VM gets only the safe libraries, a
 * counting allocator that refuses past the memory cap, and a deadline watchdog
 * (engine_watchdog.c) that arms a kill latch when a call runs past its budget. Names the scripts
 * use for cards, zones, attributes and counters are interned here once per bundle, keyed by the Lua
 * string's address, so the hot calls of `g` resolve a name with one probe.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <lualib.h>
#include <openssl/evp.h>

#include "dh_log.h"
#include "engine_internal.h"

uint64_t engine_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void seterr(engine_error *err, engine_code code, const char *fmt, const char *a)
{
    if (!err)
        return;
    err->code = code;
    snprintf(err->message, sizeof err->message, fmt, a ? a : "");
}

/* ---- allocator and watchdog ---------------------------------------------------------- */

/* Small blocks (most Lua objects: strings, tables, closures) come from per-size free
 * lists carved out of 64 KiB slabs: cheaper than malloc for the churn of short-lived
 * tables a turn creates. The cap counts requested bytes, so it means the same whatever
 * the allocator keeps in its lists. */
static size_t small_class(size_t n)
{
    return (n + ENGINE_SMALL_GRAIN - 1) / ENGINE_SMALL_GRAIN - 1;
}

static void *small_get(engine_bundle *b, size_t cls)
{
    engine_small *s = b->small_free[cls];
    if (s) {
        b->small_free[cls] = s->next;
        return s;
    }
    size_t sz = (cls + 1) * ENGINE_SMALL_GRAIN;
    if (b->slab_left < sz) {
        char *slab = malloc(ENGINE_SLAB_SIZE);
        if (!slab)
            return NULL;
        *(char **)slab = b->slabs; /* slabs are chained through their first word */
        b->slabs = slab;
        b->slab_next = slab + ENGINE_SMALL_GRAIN;
        b->slab_left = ENGINE_SLAB_SIZE - ENGINE_SMALL_GRAIN;
    }
    void *p = b->slab_next;
    b->slab_next += sz;
    b->slab_left -= sz;
    return p;
}

static void small_put(engine_bundle *b, void *p, size_t cls)
{
    engine_small *s = p;
    s->next = b->small_free[cls];
    b->small_free[cls] = s;
}

static void *bundle_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    engine_bundle *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr) {
            if (old <= ENGINE_SMALL_MAX)
                small_put(b, ptr, small_class(old));
            else
                free(ptr);
        }
        b->mem -= old;
        return NULL;
    }
    if (nsize > old && b->mem + (nsize - old) > b->mem_limit)
        return NULL;
    void *p;
    if (ptr && old > ENGINE_SMALL_MAX && nsize > ENGINE_SMALL_MAX) {
        p = realloc(ptr, nsize);
    } else if (ptr && old <= ENGINE_SMALL_MAX && nsize <= ENGINE_SMALL_MAX &&
               small_class(old) == small_class(nsize)) {
        p = ptr;
    } else {
        p = nsize <= ENGINE_SMALL_MAX ? small_get(b, small_class(nsize)) : malloc(nsize);
        if (p && ptr) {
            memcpy(p, ptr, old < nsize ? old : nsize);
            if (old <= ENGINE_SMALL_MAX)
                small_put(b, ptr, small_class(old));
            else
                free(ptr);
        }
    }
    if (!p)
        return NULL;
    b->mem = b->mem - old + nsize;
    return p;
}

/* ---- interning ----------------------------------------------------------------------- */

static uint32_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(x >> 32);
}

static uint32_t str_hash(const char *s, size_t len)
{
    return (uint32_t)engine_fnv1a((const uint8_t *)s, len);
}

static int intern_grow(engine_intern *in)
{
    uint32_t cap = in->cap ? in->cap * 2 : 256;
    engine_name *v = realloc(in->v, sizeof(engine_name) * cap);
    if (!v)
        return -1;
    in->v = v;
    uint32_t slots = cap * 2;
    uint32_t *bp = calloc(slots, sizeof(uint32_t)), *bs = calloc(slots, sizeof(uint32_t));
    if (!bp || !bs) {
        free(bp);
        free(bs);
        return -1;
    }
    free(in->by_ptr);
    free(in->by_str);
    in->by_ptr = bp;
    in->by_str = bs;
    in->mask = slots - 1;
    in->cap = cap;
    if (in->n == 0)
        in->n = 1; /* id 0 means "none" */
    for (uint32_t id = 1; id < in->n; id++) {
        uint32_t i = ptr_hash(in->v[id].lstr) & in->mask;
        while (in->by_ptr[i])
            i = (i + 1) & in->mask;
        in->by_ptr[i] = id;
        i = str_hash(in->v[id].s, in->v[id].len) & in->mask;
        while (in->by_str[i])
            i = (i + 1) & in->mask;
        in->by_str[i] = id;
    }
    return 0;
}

static void intern_free(engine_intern *in)
{
    for (uint32_t i = 1; i < in->n; i++)
        free(in->v[i].s);
    free(in->v);
    free(in->by_ptr);
    free(in->by_str);
    memset(in, 0, sizeof *in);
}

/* Looks the string at idx up by content, interning it when new. */
static uint32_t intern_slow(engine_bundle *b, lua_State *L, int idx, const char *s, size_t len)
{
    engine_intern *in = &b->names;
    uint32_t h = str_hash(s, len);
    for (uint32_t i = h & in->mask;; i = (i + 1) & in->mask) {
        uint32_t id = in->by_str[i];
        if (!id)
            break;
        if (in->v[id].len == len && memcmp(in->v[id].s, s, len) == 0)
            return id;
    }
    if (in->n >= ENGINE_MAX_NAMES)
        luaL_error(L, "too many distinct names");
    if (len > 1024)
        luaL_error(L, "name too long");
    if (in->n >= in->cap && intern_grow(in) < 0)
        luaL_error(L, "out of memory");
    /* Anchor the Lua string so its address stays this name's for the VM's life. */
    idx = lua_absindex(L, idx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->names_ref);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, in->n);
    lua_pop(L, 1);
    char *copy = malloc(len + 1);
    if (!copy)
        luaL_error(L, "out of memory");
    memcpy(copy, s, len);
    copy[len] = 0;
    uint32_t id = in->n++;
    in->v[id].s = copy;
    in->v[id].len = (uint32_t)len;
    in->v[id].lstr = s;
    uint32_t i = ptr_hash(s) & in->mask;
    while (in->by_ptr[i])
        i = (i + 1) & in->mask;
    in->by_ptr[i] = id;
    i = h & in->mask;
    while (in->by_str[i])
        i = (i + 1) & in->mask;
    in->by_str[i] = id;
    return id;
}

uint32_t engine_intern_lua(engine_bundle *b, lua_State *L, int idx)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (!s || lua_type(L, idx) != LUA_TSTRING)
        luaL_error(L, "name expected, got %s", luaL_typename(L, idx));
    engine_intern *in = &b->names;
    for (uint32_t i = ptr_hash(s) & in->mask;; i = (i + 1) & in->mask) {
        uint32_t id = in->by_ptr[i];
        if (!id)
            break;
        if (in->v[id].lstr == s)
            return id;
    }
    return intern_slow(b, L, idx, s, len);
}

uint32_t engine_intern_c(engine_bundle *b, lua_State *L, const char *s, size_t len)
{
    lua_pushlstring(L, s, len);
    uint32_t id = engine_intern_lua(b, L, -1);
    lua_pop(L, 1);
    return id;
}

/* ---- files --------------------------------------------------------------------------- */

static int file_cmp(const void *a, const void *b)
{
    return strcmp(((const engine_file *)a)->path, ((const engine_file *)b)->path);
}

static int read_all(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    buf = malloc(cap);
    if (!buf)
        goto err;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                goto err;
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        if (r == 0)
            break;
        n += r;
    }
    if (ferror(f))
        goto err;
    fclose(f);
    *out = buf;
    *len = n;
    return 0;
err:
    free(buf);
    fclose(f);
    return -1;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int scan_dir(engine_bundle *b, const char *root, const char *rel, size_t *cap, int depth)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
    if (depth > 16)
        return 0;
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char r[4096], full[4096];
        int n = snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
        if (n < 0 || (size_t)n >= sizeof r)
            continue;
        n = snprintf(full, sizeof full, "%s/%s", root, r);
        if (n < 0 || (size_t)n >= sizeof full)
            continue;
        struct stat sb;
        if (stat(full, &sb) < 0)
            continue;
        if (S_ISDIR(sb.st_mode)) {
            if (scan_dir(b, root, r, cap, depth + 1) < 0)
                goto err;
            continue;
        }
        if (!S_ISREG(sb.st_mode) || !ends_with(de->d_name, ".lua"))
            continue;
        if (b->nfiles == *cap) {
            size_t nc = *cap ? *cap * 2 : 32;
            engine_file *f = realloc(b->files, sizeof(engine_file) * nc);
            if (!f)
                goto err;
            b->files = f;
            *cap = nc;
        }
        engine_file *f = &b->files[b->nfiles];
        f->path = strdup(r);
        if (!f->path)
            goto err;
        if (read_all(full, &f->data, &f->len) < 0) {
            free(f->path);
            goto err;
        }
        b->nfiles++;
    }
    closedir(d);
    return 0;
err:
    closedir(d);
    return -1;
}

static int bundle_hash(engine_bundle *b)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c)
        return -1;
    if (EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1)
        goto err;
    /* Per file, in path order: the path, a NUL, the content length as 8 bytes
       big-endian, the content. Unambiguous, and the same on every machine. */
    for (size_t i = 0; i < b->nfiles; i++) {
        uint8_t len[8];
        for (int j = 0; j < 8; j++)
            len[j] = (uint8_t)((uint64_t)b->files[i].len >> (56 - 8 * j));
        if (EVP_DigestUpdate(c, b->files[i].path, strlen(b->files[i].path) + 1) != 1 ||
            EVP_DigestUpdate(c, len, sizeof len) != 1 ||
            EVP_DigestUpdate(c, b->files[i].data, b->files[i].len) != 1)
            goto err;
    }
    if (EVP_DigestFinal_ex(c, md, &mdlen) != 1)
        goto err;
    for (unsigned i = 0; i < mdlen && i < 32; i++)
        snprintf(b->id + 2 * i, 3, "%02x", md[i]);
    EVP_MD_CTX_free(c);
    return 0;
err:
    EVP_MD_CTX_free(c);
    return -1;
}

/* ---- sandbox ------------------------------------------------------------------------- */

static int sb_print(lua_State *L)
{
    luaL_Buffer lb;
    int n = lua_gettop(L);
    luaL_buffinit(L, &lb);
    for (int i = 1; i <= n; i++) {
        if (i > 1)
            luaL_addchar(&lb, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&lb);
    }
    luaL_pushresult(&lb);
    dh_info("script: %s", lua_tostring(L, -1));
    return 0;
}

static int sb_require(lua_State *L)
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
    engine_file key = {path, NULL, 0};
    engine_file *f = bsearch(&key, b->files, b->nfiles, sizeof(engine_file), file_cmp);
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
 * reach) and refuses writes; `rawset` refuses the proxies. A global read costs one more
 * table probe; string methods (`s:sub()`) still go straight to the real library. */
static int ro_newindex(lua_State *L)
{
    const char *what = lua_tostring(L, lua_upvalueindex(1));
    if (!strcmp(what, "globals"))
        return luaL_error(L, "scripts may not set global '%s' (use local, or state in g)",
                          lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?");
    return luaL_error(L, "the %s library is read-only", what);
}

static int ro_next(lua_State *L)
{
    lua_settop(L, 2);
    return lua_next(L, lua_upvalueindex(1)) ? 2 : 0;
}

/* pairs(proxy) walks the real table without handing it out. */
static int ro_pairs(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, ro_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
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
    lua_pushcclosure(L, ro_pairs, 1);
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
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
        return luaL_error(L, "rawset: this table is read-only");
    lua_pop(L, 1);
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

static int sandbox_open(lua_State *L)
{
    engine_bundle *b = lua_touserdata(L, 1);
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};
    for (const luaL_Reg *l = libs; l->name; l++) {
        luaL_requiref(L, l->name, l->func, 1);
        lua_pop(L, 1);
    }
    drop(L, NULL, "load");
    drop(L, NULL, "loadfile");
    drop(L, NULL, "dofile");
    drop(L, NULL, "collectgarbage");
    drop(L, LUA_STRLIBNAME, "dump");
    drop(L, LUA_MATHLIBNAME, "random");
    drop(L, LUA_MATHLIBNAME, "randomseed");
    lua_pushcfunction(L, sb_print);
    lua_setglobal(L, "print");
    lua_pushcfunction(L, sb_require);
    lua_setglobal(L, "require");
    /* The library tables stay reachable through the registry's _LOADED; drop that too,
       so the only way to them is the (pruned) globals. */
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    sandbox_lock(L);
    lua_newtable(L);
    b->names_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    b->loaded_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (engine_api_open(b, L) < 0)
        return luaL_error(L, "out of memory");
    b->id_log = engine_intern_c(b, L, "log", 3);
    return 0;
}

/* ---- games --------------------------------------------------------------------------- */

static char *dup_field(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    char *r = strdup(s);
    lua_pop(L, 1);
    if (!r)
        luaL_error(L, "out of memory");
    return r;
}

static int func_ref(lua_State *L, int t, const char *k, int required)
{
    lua_getfield(L, t, k);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        if (required)
            luaL_error(L, "game table has no function '%s'", k);
        return LUA_NOREF;
    }
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

static int card_cmp(const void *a, const void *b)
{
    return strcmp(((const engine_card_info *)a)->name, ((const engine_card_info *)b)->name);
}

/* Reads the game table on top of the stack into g (protected: raises on bad tables). */
static void game_read(lua_State *L, engine_game *g)
{
    int t = lua_gettop(L);
    if (!lua_istable(L, t))
        luaL_error(L, "game.lua of '%s' must return a table", g->name);
    lua_getfield(L, t, "min_players");
    g->min_players = (int)luaL_optinteger(L, -1, 1);
    lua_getfield(L, t, "max_players");
    g->max_players = (int)luaL_optinteger(L, -1, g->min_players);
    lua_pop(L, 2);
    if (g->min_players < 1 || g->max_players < g->min_players || g->max_players > 64)
        luaL_error(L, "game '%s': bad player counts", g->name);
    g->setup_ref = func_ref(L, t, "setup", 0);
    g->turn_ref = func_ref(L, t, "turn", 1);
    g->finished_ref = func_ref(L, t, "finished", 1);
    g->results_ref = func_ref(L, t, "results", 1);

    lua_getfield(L, t, "zones");
    if (lua_istable(L, -1)) {
        size_t n = 0;
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
            n++;
        g->zones = calloc(n ? n : 1, sizeof(engine_zone_rule));
        if (!g->zones)
            luaL_error(L, "out of memory");
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "game '%s': zones maps names to visibilities", g->name);
            const char *v = lua_tostring(L, -1);
            engine_vis vis = ENGINE_VIS_HIDDEN;
            if (!strcmp(v, "public"))
                vis = ENGINE_VIS_PUBLIC;
            else if (!strcmp(v, "owner"))
                vis = ENGINE_VIS_OWNER;
            else if (!strcmp(v, "top"))
                vis = ENGINE_VIS_TOP;
            else if (!strcmp(v, "hidden"))
                vis = ENGINE_VIS_HIDDEN;
            else
                luaL_error(L, "game '%s': unknown visibility '%s'", g->name, v);
            engine_zone_rule *zr = &g->zones[g->nzones];
            zr->name = strdup(lua_tostring(L, -2));
            if (!zr->name)
                luaL_error(L, "out of memory");
            zr->vis = vis;
            g->nzones++;
        }
    }
    lua_pop(L, 1);

    lua_getfield(L, t, "cards");
    if (lua_istable(L, -1)) {
        size_t n = 0;
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
            n++;
        g->cards = calloc(n ? n : 1, sizeof(engine_card_info));
        if (!g->cards)
            luaL_error(L, "out of memory");
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
                continue;
            int c = lua_gettop(L);
            engine_card_info *ci = &g->cards[g->ncards];
            ci->name = strdup(lua_tostring(L, -2));
            if (!ci->name)
                luaL_error(L, "out of memory");
            g->ncards++;
            lua_getfield(L, c, "cost");
            ci->cost = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
            lua_pop(L, 1);
            ci->text = dup_field(L, c, "text");
            luaL_Buffer lb;
            lua_getfield(L, c, "types");
            int tt = lua_gettop(L);
            luaL_buffinit(L, &lb);
            if (lua_istable(L, tt)) {
                lua_Integer nt = luaL_len(L, tt);
                for (lua_Integer i = 1; i <= nt; i++) {
                    if (i > 1)
                        luaL_addstring(&lb, " - ");
                    lua_geti(L, tt, i);
                    if (lua_type(L, -1) == LUA_TSTRING)
                        luaL_addvalue(&lb);
                    else
                        lua_pop(L, 1);
                }
            }
            luaL_pushresult(&lb);
            ci->types = strdup(lua_tostring(L, -1));
            if (!ci->types)
                luaL_error(L, "out of memory");
            lua_settop(L, c);
        }
        qsort(g->cards, g->ncards, sizeof(engine_card_info), card_cmp);
    }
    lua_pop(L, 1);

    lua_getfield(L, t, "bots");
    if (lua_istable(L, -1)) {
        size_t n = 0;
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
            n++;
        g->bots = calloc(n ? n : 1, sizeof(engine_bot));
        if (!g->bots)
            luaL_error(L, "out of memory");
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || !lua_isfunction(L, -1))
                continue;
            engine_bot *bt = &g->bots[g->nbots];
            bt->name = strdup(lua_tostring(L, -2));
            if (!bt->name)
                luaL_error(L, "out of memory");
            lua_pushvalue(L, -1);
            bt->ref = luaL_ref(L, LUA_REGISTRYINDEX);
            g->nbots++;
        }
    }
    lua_pop(L, 1);
    lua_pushvalue(L, t);
    g->table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

static int games_load(lua_State *L)
{
    engine_bundle *b = lua_touserdata(L, 1);
    size_t n = 0;
    for (size_t i = 0; i < b->nfiles; i++)
        if (!strcmp(b->files[i].path, "game.lua") || ends_with(b->files[i].path, "/game.lua"))
            n++;
    b->games = calloc(n ? n : 1, sizeof(engine_game));
    if (!b->games)
        return luaL_error(L, "out of memory");
    for (size_t i = 0; i < b->nfiles; i++) {
        const char *p = b->files[i].path;
        char mod[512], name[256];
        if (!strcmp(p, "game.lua")) {
            const char *base = strrchr(b->dir, '/');
            snprintf(name, sizeof name, "%s", base ? base + 1 : b->dir);
            snprintf(mod, sizeof mod, "game");
        } else if (ends_with(p, "/game.lua")) {
            size_t dl = strlen(p) - strlen("/game.lua");
            snprintf(mod, sizeof mod, "%.*s.game", (int)dl, p);
            for (char *c = mod; *c; c++)
                if (*c == '/')
                    *c = '.';
            const char *s = p + dl;
            while (s > p && s[-1] != '/')
                s--;
            snprintf(name, sizeof name, "%.*s", (int)(p + dl - s), s);
        } else {
            continue;
        }
        engine_game *g = &b->games[b->ngames];
        g->name = strdup(name);
        if (!g->name)
            return luaL_error(L, "out of memory");
        b->ngames++;
        g->table_ref = g->setup_ref = g->turn_ref = g->finished_ref = g->results_ref = LUA_NOREF;
        lua_settop(L, 1);
        lua_pushcfunction(L, sb_require);
        lua_pushstring(L, mod);
        lua_call(L, 1, 1);
        game_read(L, g);
    }
    return 0;
}

static const char *dir_basename(const char *dir, char *buf, size_t len)
{
    snprintf(buf, len, "%s", dir);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = 0;
    return buf;
}

/* A bundle with its limits and name set and no files yet; NULL when out of memory. */
static engine_bundle *bundle_new(const char *name, const engine_limits *lim, engine_error *err)
{
    char dbuf[4096];
    engine_bundle *b = calloc(1, sizeof *b);
    if (!b)
        goto err;
    b->mem_limit = lim && lim->mem_limit ? lim->mem_limit : (size_t)256 << 20;
    b->budget_ns = (uint64_t)(lim && lim->budget_ms ? lim->budget_ms : 250) * 1000000ULL;
    b->names_ref = b->loaded_ref = b->gmeta_ref = LUA_NOREF;
    b->dir = strdup(dir_basename(name, dbuf, sizeof dbuf));
    if (!b->dir || intern_grow(&b->names) < 0)
        goto err;
    return b;
err:
    seterr(err, ENGINE_INTERNAL, "out of memory%s", NULL);
    engine_bundle_free(b);
    return NULL;
}

/* The part both loaders share, once b->files holds the bundle: sort and hash the files,
 * open the sandboxed VM, load the games. Frees b and returns NULL on failure. */
static engine_bundle *bundle_open(engine_bundle *b, engine_error *err)
{
    qsort(b->files, b->nfiles, sizeof(engine_file), file_cmp);
    for (size_t i = 1; i < b->nfiles; i++) {
        if (!strcmp(b->files[i - 1].path, b->files[i].path)) {
            seterr(err, ENGINE_BAD_REQUEST, "file %s appears twice", b->files[i].path);
            goto err;
        }
    }
    if (bundle_hash(b) < 0) {
        seterr(err, ENGINE_INTERNAL, "sha-256 failed%s", NULL);
        goto err;
    }
    b->L = lua_newstate(bundle_alloc, b);
    if (!b->L) {
        seterr(err, ENGINE_INTERNAL, "cannot create a Lua state%s", NULL);
        goto err;
    }
    *(engine_bundle **)lua_getextraspace(b->L) = b;
    lua_gc(b->L, LUA_GCGEN, 0, 0);
    engine_watchdog_start(b);
    uint64_t prev = engine_call_begin(b);
    lua_pushcfunction(b->L, sandbox_open);
    lua_pushlightuserdata(b->L, b);
    int rc = lua_pcall(b->L, 1, 0, 0);
    if (rc == LUA_OK) {
        lua_pushcfunction(b->L, games_load);
        lua_pushlightuserdata(b->L, b);
        rc = lua_pcall(b->L, 1, 0, 0);
    }
    engine_call_end(b, prev);
    if (rc != LUA_OK) {
        seterr(err, ENGINE_SCRIPT_ERROR, "%s",
               lua_type(b->L, -1) == LUA_TSTRING ? lua_tostring(b->L, -1) : "error");
        goto err;
    }
    lua_settop(b->L, 0);
    if (err) {
        err->code = ENGINE_OK;
        err->message[0] = 0;
    }
    return b;
err:
    engine_bundle_free(b);
    return NULL;
}

engine_bundle *engine_bundle_load(const char *dir, const engine_limits *lim, engine_error *err)
{
    engine_bundle *b = bundle_new(dir, lim, err);
    if (!b)
        return NULL;
    size_t cap = 0;
    if (scan_dir(b, b->dir, "", &cap, 0) < 0) {
        seterr(err, ENGINE_BAD_REQUEST, "cannot read bundle %s", dir);
        engine_bundle_free(b);
        return NULL;
    }
    return bundle_open(b, err);
}

/* A relative path of '/'-separated names, none empty or starting with a dot (what
 * scan_dir would have produced). */
static int path_ok(const char *p)
{
    if (!*p || strlen(p) >= 1024)
        return 0;
    for (const char *s = p; *s;) {
        if (*s == '/' || *s == '.')
            return 0;
        while (*s && *s != '/')
            s++;
        if (*s == '/')
            s++;
        else
            break;
        if (!*s)
            return 0;
    }
    return 1;
}

engine_bundle *engine_bundle_load_files(const char *name, const engine_file_in *files, size_t n,
                                        const engine_limits *lim, engine_error *err)
{
    engine_bundle *b = bundle_new(name, lim, err);
    if (!b)
        return NULL;
    b->files = calloc(n ? n : 1, sizeof(engine_file));
    if (!b->files) {
        seterr(err, ENGINE_INTERNAL, "out of memory%s", NULL);
        goto err;
    }
    for (size_t i = 0; i < n; i++) {
        const engine_file_in *in = &files[i];
        if (!in->path || !path_ok(in->path)) {
            seterr(err, ENGINE_BAD_REQUEST, "bad file path '%s'", in->path);
            goto err;
        }
        if (!ends_with(in->path, ".lua"))
            continue;
        engine_file *f = &b->files[b->nfiles];
        f->path = strdup(in->path);
        f->data = malloc(in->len ? in->len : 1);
        if (!f->path || !f->data) {
            free(f->path);
            free(f->data);
            seterr(err, ENGINE_INTERNAL, "out of memory%s", NULL);
            goto err;
        }
        if (in->len)
            memcpy(f->data, in->data, in->len);
        f->len = in->len;
        b->nfiles++;
    }
    return bundle_open(b, err);
err:
    engine_bundle_free(b);
    return NULL;
}

void engine_bundle_free(engine_bundle *b)
{
    if (!b)
        return;
    engine_watchdog_stop(b);
    if (b->L)
        lua_close(b->L);
    while (b->slabs) {
        char *next = *(char **)b->slabs;
        free(b->slabs);
        b->slabs = next;
    }
    for (size_t i = 0; i < b->ngames; i++) {
        engine_game *g = &b->games[i];
        free(g->name);
        for (size_t j = 0; j < g->nzones; j++)
            free(g->zones[j].name);
        free(g->zones);
        for (size_t j = 0; j < g->ncards; j++) {
            free(g->cards[j].name);
            free(g->cards[j].types);
            free(g->cards[j].text);
        }
        free(g->cards);
        for (size_t j = 0; j < g->nbots; j++)
            free(g->bots[j].name);
        free(g->bots);
    }
    free(b->games);
    for (size_t i = 0; i < b->nfiles; i++) {
        free(b->files[i].path);
        free(b->files[i].data);
    }
    free(b->files);
    intern_free(&b->names);
    free(b->dir);
    free(b);
}

const char *engine_bundle_id(const engine_bundle *b)
{
    return b->id;
}

size_t engine_bundle_games(const engine_bundle *b, engine_game_info *out, size_t max)
{
    for (size_t i = 0; i < b->ngames && i < max; i++) {
        out[i].name = b->games[i].name;
        out[i].min_players = b->games[i].min_players;
        out[i].max_players = b->games[i].max_players;
    }
    return b->ngames;
}

const engine_game *engine_bundle_game(const engine_bundle *b, const char *name)
{
    for (size_t i = 0; i < b->ngames; i++)
        if (!strcmp(b->games[i].name, name))
            return &b->games[i];
    return NULL;
}

static int require_cf(lua_State *L)
{
    lua_pushcfunction(L, sb_require);
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

int engine_bundle_require(engine_bundle *b, const char *modname, engine_error *err)
{
    lua_pushcfunction(b->L, require_cf);
    lua_pushstring(b->L, modname);
    uint64_t prev = engine_call_begin(b);
    int rc = lua_pcall(b->L, 1, 1, 0);
    engine_call_end(b, prev);
    if (rc != LUA_OK) {
        seterr(err, ENGINE_SCRIPT_ERROR, "%s",
               lua_type(b->L, -1) == LUA_TSTRING ? lua_tostring(b->L, -1) : "error");
        lua_pop(b->L, 1);
        return -1;
    }
    return 0;
}

lua_State *engine_bundle_lua(engine_bundle *b)
{
    return b->L;
}

const char *engine_bundle_file(const engine_bundle *b, size_t i)
{
    return i < b->nfiles ? b->files[i].path : NULL;
}

const char *engine_bundle_game_name(const engine_bundle *b, size_t i)
{
    return i < b->ngames ? b->games[i].name : NULL;
}

int engine_bundle_file_at(const engine_bundle *b, size_t i, engine_file_in *out)
{
    if (i >= b->nfiles)
        return 0;
    out->path = b->files[i].path;
    out->data = b->files[i].data;
    out->len = b->files[i].len;
    return 1;
}

int engine_bundle_manifest(engine_bundle *b, engine_manifest *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    engine_file key = {"manifest.lua", NULL, 0};
    if (!bsearch(&key, b->files, b->nfiles, sizeof(engine_file), file_cmp))
        return 0;
    if (engine_bundle_require(b, "manifest", err) < 0)
        return -1;
    lua_State *L = b->L;
    int rc = -1;
    if (!lua_istable(L, -1)) {
        seterr(err, ENGINE_BAD_REQUEST, "manifest.lua must return a table%s", NULL);
        goto out;
    }
    /* raw reads: a metatable's __index must not run outside a protected call */
    lua_pushliteral(L, "label");
    lua_rawget(L, -2);
    if (lua_type(L, -1) == LUA_TSTRING)
        snprintf(out->label, sizeof out->label, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    lua_pushliteral(L, "compatible");
    lua_rawget(L, -2);
    out->compatible = lua_toboolean(L, -1);
    lua_pop(L, 1);
    rc = 1;
out:
    lua_pop(L, 1);
    return rc;
}
