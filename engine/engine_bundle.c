/*
 * engine_bundle.c: loading a bundle of Lua scripts (engine_bundle_load from a folder,
 * engine_bundle_load_files from memory) into one sandboxed VM, reading each game's table,
 * and what the engine and its callers ask of a loaded bundle (games, files, manifest).
 *
 * Loading is: the files (engine_files.c), the VM with its sandbox (engine_vm.c), then
 * every GAME/game.lua `require`d under the call budget, its table read into an
 * engine_game the matches use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_end.h"
#include "engine_internal.h"
#include "engine_present.h"

/* How many call budgets loading a bundle may take. */
#define ENGINE_LOAD_BUDGET_FACTOR 40

/* ---- games --------------------------------------------------------------------------- */

/* strdup, raising a Lua error when out of memory (the caller runs protected). */
static char *dup_or_raise(lua_State *L, const char *s)
{
    char *r = strdup(s);
    if (!r)
        luaL_error(L, "out of memory");
    return r;
}

static char *dup_field(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    char *r = dup_or_raise(L, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "");
    lua_pop(L, 1);
    return r;
}

/* A zeroed array with a slot per entry of the table on top of the stack (at least one),
 * raising when out of memory. */
static void *table_slots(lua_State *L, size_t size)
{
    size_t n = 0;
    for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
        n++;
    void *v = calloc(n ? n : 1, size);
    if (!v)
        luaL_error(L, "out of memory");
    return v;
}

/* The game table's optional integer field k (dflt when absent), which must lie in
 * lo..ENGINE_TURNS_LIMIT: the turn cap and the search's depth are both counted in turns. */
static int int_field(lua_State *L, int t, const engine_game *g, const char *k, int dflt, int lo)
{
    lua_getfield(L, t, k);
    lua_Integer v = luaL_optinteger(L, -1, dflt);
    lua_pop(L, 1);
    if (v < lo || v > ENGINE_TURNS_LIMIT)
        luaL_error(L, "game '%s': %s must be an integer in %d..%d", g->name, k, lo,
                   ENGINE_TURNS_LIMIT);
    return (int)v;
}

/* The game table's optional boolean field k (dflt when absent). */
static int bool_field(lua_State *L, int t, const engine_game *g, const char *k, int dflt)
{
    lua_getfield(L, t, k);
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
        luaL_error(L, "game '%s': %s must be a boolean", g->name, k);
    int v = lua_isnil(L, -1) ? dflt : lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* The game table's optional number field k, 0 when absent, else in (0, 1]: a chance. */
static double chance_field(lua_State *L, int t, const engine_game *g, const char *k)
{
    lua_getfield(L, t, k);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    double v = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumber(L, -1) : 0;
    lua_pop(L, 1);
    if (!(v > 0 && v <= 1)) /* not a number, or NaN, or outside (0, 1] */
        luaL_error(L, "game '%s': %s must be a number in (0, 1]", g->name, k);
    return v;
}

/* The game table's optional field k naming one of g's own bots (read after them): that
 * bot's name as g holds it, NULL when absent; raises on anything else. */
static const char *bot_field(lua_State *L, int t, const engine_game *g, const char *k)
{
    lua_getfield(L, t, k);
    const char *name = lua_tostring(L, -1);
    int absent = lua_isnil(L, -1), str = lua_type(L, -1) == LUA_TSTRING;
    for (size_t i = 0; str && i < g->nbots; i++)
        if (!strcmp(g->bots[i].name, name)) {
            lua_pop(L, 1);
            return g->bots[i].name;
        }
    if (!absent)
        luaL_error(L, "game '%s': %s must name one of the game's bots", g->name, k);
    lua_pop(L, 1);
    return NULL;
}

/* The game table's optional `search_bots`: a list naming some of g's own bots (read
 * after them), the only ones whose answers a search compares with its play-out bot's;
 * every other bot is marked unsearched. Absent: every bot's answers. Raises on anything
 * but a list of the game's bot names. */
static void search_bots_read(lua_State *L, int t, engine_game *g)
{
    lua_getfield(L, t, "search_bots");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, "game '%s': search_bots must be a list of the game's bots", g->name);
    for (size_t i = 0; i < g->nbots; i++)
        g->bots[i].unsearched = 1;
    lua_Integer n = luaL_len(L, -1);
    for (lua_Integer j = 1; j <= n; j++) {
        lua_geti(L, -1, j);
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        size_t i = 0;
        while (name && i < g->nbots && strcmp(g->bots[i].name, name))
            i++;
        if (!name || i == g->nbots)
            luaL_error(L, "game '%s': search_bots must name the game's bots", g->name);
        g->bots[i].unsearched = 0;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
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

/* A zones entry's visibility by name; raises on an unknown one. */
static engine_vis zone_vis(lua_State *L, const engine_game *g, const char *v)
{
    static const struct {
        const char *name;
        engine_vis vis;
    } names[] = {{"public", ENGINE_VIS_PUBLIC},
                 {"owner", ENGINE_VIS_OWNER},
                 {"top", ENGINE_VIS_TOP},
                 {"hidden", ENGINE_VIS_HIDDEN}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(v, names[i].name))
            return names[i].vis;
    luaL_error(L, "game '%s': unknown visibility '%s'", g->name, v);
    return ENGINE_VIS_HIDDEN;
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
    g->max_turns = int_field(L, t, g, "max_turns", ENGINE_MAX_TURNS, 1);
    g->setup_ref = func_ref(L, t, "setup", 0);
    g->turn_ref = func_ref(L, t, "turn", 1);
    g->finished_ref = func_ref(L, t, "finished", 1);
    g->results_ref = func_ref(L, t, "results", 1);
    g->evaluate_ref = func_ref(L, t, "evaluate", 0);
    g->search_depth = int_field(L, t, g, "search_depth", ENGINE_SEARCH_DEPTH, 0);
    g->search_tree = bool_field(L, t, g, "search_tree", 1);
    g->search_widen = bool_field(L, t, g, "search_widen", 1);
    g->search_sorts = bool_field(L, t, g, "search_sorted_shuffle", 0);
    g->search_bar = chance_field(L, t, g, "search_bar");
    g->features_ref = func_ref(L, t, "features", 0);
    g->refresh_ref = func_ref(L, t, "refresh", 0);
    g->summary_ref = func_ref(L, t, "summary", 0);
    engine_end_read(L, t, g);

    lua_getfield(L, t, "zones");
    if (lua_istable(L, -1)) {
        g->zones = table_slots(L, sizeof(engine_zone_rule));
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "game '%s': zones maps names to visibilities", g->name);
            engine_zone_rule *zr = &g->zones[g->nzones];
            zr->vis = zone_vis(L, g, lua_tostring(L, -1));
            zr->name = dup_or_raise(L, lua_tostring(L, -2));
            g->nzones++;
        }
    }
    lua_pop(L, 1);
    g->vis_memo = calloc(ENGINE_MAX_NAMES, 1);
    g->play_memo = calloc(ENGINE_MAX_NAMES, 1);
    g->card_memo = calloc(ENGINE_MAX_NAMES, 1);
    if (!g->vis_memo || !g->play_memo || !g->card_memo)
        luaL_error(L, "out of memory");

    lua_getfield(L, t, "cards");
    if (lua_istable(L, -1)) {
        g->cards = table_slots(L, sizeof(engine_card_info));
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
                continue;
            int c = lua_gettop(L);
            engine_card_info *ci = &g->cards[g->ncards];
            ci->name = dup_or_raise(L, lua_tostring(L, -2));
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
            ci->types = dup_or_raise(L, lua_tostring(L, -1));
            lua_settop(L, c);
        }
        qsort(g->cards, g->ncards, sizeof(engine_card_info), card_cmp);
    }
    lua_pop(L, 1);

    lua_getfield(L, t, "bots");
    if (lua_istable(L, -1)) {
        g->bots = table_slots(L, sizeof(engine_bot));
        for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1)) {
            if (lua_type(L, -2) != LUA_TSTRING || !lua_isfunction(L, -1))
                continue;
            engine_bot *bt = &g->bots[g->nbots];
            bt->name = dup_or_raise(L, lua_tostring(L, -2));
            lua_pushvalue(L, -1);
            bt->ref = luaL_ref(L, LUA_REGISTRYINDEX);
            g->nbots++;
        }
    }
    lua_pop(L, 1);
    g->search_playout = bot_field(L, t, g, "search_playout");
    search_bots_read(L, t, g);
    engine_bots_builtin(L, g);
    engine_options_read(L, t, g);
    engine_present_read(L, t, g);
    lua_pushvalue(L, t);
    g->table_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

static int games_load(lua_State *L)
{
    engine_bundle *b = lua_touserdata(L, 1);
    size_t n = 0;
    for (size_t i = 0; i < b->nfiles; i++)
        if (!strcmp(b->files[i].path, "game.lua") ||
            engine_ends_with(b->files[i].path, "/game.lua"))
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
        } else if (engine_ends_with(p, "/game.lua")) {
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
        g->evaluate_ref = g->features_ref = g->refresh_ref = g->summary_ref = LUA_NOREF;
        lua_settop(L, 1);
        lua_pushcfunction(L, engine_sandbox_require);
        lua_pushstring(L, mod);
        lua_call(L, 1, 1);
        game_read(L, g);
    }
    lua_settop(L, 1);
    engine_freeze_modules(L, b);
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
    b->names_ref = b->loaded_ref = b->gmeta_ref = b->caches_ref = b->upvals_ref = LUA_NOREF;
    b->dir = strdup(dir_basename(name, dbuf, sizeof dbuf));
    if (!b->dir || engine_intern_init(&b->names) < 0)
        goto err;
    return b;
err:
    engine_error_set(err, ENGINE_INTERNAL, "out of memory");
    engine_bundle_free(b);
    return NULL;
}

/* The part both loaders share, once b->files holds the bundle: sort and hash the files,
 * open the sandboxed VM, load the games. Frees b and returns NULL on failure. */
static engine_bundle *bundle_open(engine_bundle *b, engine_error *err)
{
    const char *twice = engine_files_sort(b);
    if (twice) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "file %s appears twice", twice);
        goto err;
    }
    if (engine_files_hash(b) < 0) {
        engine_error_set(err, ENGINE_INTERNAL, "sha-256 failed");
        goto err;
    }
    if (engine_vm_new(b) < 0) {
        engine_error_set(err, ENGINE_INTERNAL, "cannot create a Lua state");
        goto err;
    }
    /* Loading runs every game's files once, many times the work of one move: under one call
     * budget a six-game bundle failed to load on a loaded machine (a sanitized test build
     * beside other jobs). A script that loops at load is still stopped, only later. */
    uint64_t prev = engine_call_begin_for(b, b->budget_ns * ENGINE_LOAD_BUDGET_FACTOR);
    lua_pushcfunction(b->L, engine_vm_init);
    lua_pushlightuserdata(b->L, b);
    int rc = lua_pcall(b->L, 1, 0, 0);
    if (rc == LUA_OK) {
        lua_pushcfunction(b->L, games_load);
        lua_pushlightuserdata(b->L, b);
        rc = lua_pcall(b->L, 1, 0, 0);
    }
    engine_call_end(b, prev);
    if (rc != LUA_OK) {
        engine_error_set(err, ENGINE_SCRIPT_ERROR, "%s",
                         lua_type(b->L, -1) == LUA_TSTRING ? lua_tostring(b->L, -1) : "error");
        goto err;
    }
    lua_settop(b->L, 0);
    engine_error_ok(err);
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
    if (engine_files_read(b) < 0) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "cannot read bundle %s", dir);
        engine_bundle_free(b);
        return NULL;
    }
    return bundle_open(b, err);
}

engine_bundle *engine_bundle_load_files(const char *name, const engine_file_in *files, size_t n,
                                        const engine_limits *lim, engine_error *err)
{
    engine_bundle *b = bundle_new(name, lim, err);
    if (!b)
        return NULL;
    const char *bad = NULL;
    int rc = engine_files_copy(b, files, n, &bad);
    if (rc == -2)
        engine_error_set(err, ENGINE_BAD_REQUEST, "bad file path '%s'", bad ? bad : "");
    else if (rc < 0)
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
    if (rc < 0) {
        engine_bundle_free(b);
        return NULL;
    }
    return bundle_open(b, err);
}

void engine_bundle_free(engine_bundle *b)
{
    if (!b)
        return;
    engine_vm_close(b);
    for (size_t i = 0; i < b->ngames; i++) {
        engine_game *g = &b->games[i];
        free(g->name);
        for (size_t j = 0; j < g->nzones; j++)
            free(g->zones[j].name);
        free(g->zones);
        free(g->vis_memo);
        free(g->play_memo);
        free(g->card_memo);
        engine_end_free(g);
        for (size_t j = 0; j < g->ncards; j++) {
            free(g->cards[j].name);
            free(g->cards[j].types);
            free(g->cards[j].text);
        }
        free(g->cards);
        engine_options_free(g);
        engine_present_free(g);
        for (size_t j = 0; j < g->nbots; j++)
            free(g->bots[j].name);
        free(g->bots);
    }
    free(b->games);
    engine_files_free(b);
    engine_intern_free(&b->names);
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
        out[i].options = b->games[i].specs;
        out[i].noptions = b->games[i].nspecs;
        out[i].bots = b->games[i].bot_names;
        out[i].nbots = b->games[i].nbots;
        out[i].title = b->games[i].title ? b->games[i].title : "";
        out[i].summary = b->games[i].summary ? b->games[i].summary : "";
        out[i].deck_builder = b->games[i].deck_builder;
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
    lua_pushcfunction(L, engine_sandbox_require);
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
        engine_error_set(err, ENGINE_SCRIPT_ERROR, "%s",
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

engine_file_in *engine_bundle_files(const engine_bundle *b, size_t *n)
{
    engine_file_in *v = calloc(b->nfiles ? b->nfiles : 1, sizeof *v);
    *n = v ? b->nfiles : 0;
    for (size_t i = 0; v && i < b->nfiles; i++)
        engine_bundle_file_at(b, i, &v[i]);
    return v;
}

int engine_bundle_manifest(engine_bundle *b, engine_manifest *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (!engine_files_find(b, "manifest.lua"))
        return 0;
    if (engine_bundle_require(b, "manifest", err) < 0)
        return -1;
    lua_State *L = b->L;
    int rc = -1;
    if (!lua_istable(L, -1)) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "manifest.lua must return a table");
        goto out;
    }
    /* raw reads: a metatable's __index must not run outside a protected call (the
       manifest was frozen as it loaded: read what it holds) */
    engine_freeze_contents(L, -1);
    lua_remove(L, -2);
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
