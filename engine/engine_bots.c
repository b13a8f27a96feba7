/*
 * engine_bots.c: the strategies the engine offers for every game, beside the bundle's own
 * bots:
 *   - `random`, a uniformly random legal answer (a count drawn uniformly in min..max, then
 *     that many distinct options drawn uniformly), the floor every other bot is measured
 *     against (issue 17: the search bot against a random player in every game);
 *   - the difficulties a player can pick in every game by the same names (engine.h,
 *     ENGINE_EASY_BOT...), in every game with a `default` bot: `normal` is that bot,
 *     `easy` the same bot slipping to a random legal answer one decision in
 *     ENGINE_EASY_SLIP; (`hard`, the search bot at the worker's budget, is not a Lua bot:
 *     the hosts answer it.)
 * Each is a Lua-callable C function registered like a bundle's bot (engine_bundle.c), so
 * it plays inline, answers engine_match_bot_answer and is listed in GameInfo.bots; a game
 * that defines its own bot of one of these names keeps it. They draw from the match's
 * generator, as a Lua bot calling g:random does, so their answers replay.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static int bots_uint_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static engine_g *bots_g(lua_State *L, const char *who)
{
    engine_g *g = lua_touserdata(L, 1);
    if (!g || lua_type(L, 1) != LUA_TUSERDATA || g->magic != ENGINE_G_MAGIC || !g->m)
        luaL_error(L, "bot '%s': g expected", who);
    return g;
}

/* random(g, p, d): the chosen option indices, ascending. */
static int bots_random(lua_State *L)
{
    engine_g *g = bots_g(L, ENGINE_RANDOM_BOT);
    luaL_checktype(L, 3, LUA_TTABLE);
    size_t n;
    uint32_t min, max;
    engine_decision_bounds(L, 3, "bot 'random'", &n, &min, &max);
    engine_state *st = &g->m->st;
    size_t k = (size_t)min + (size_t)engine_rng_below(st, (uint64_t)(max - min + 1));
    uint32_t *pick = malloc(sizeof *pick * (n ? n : 1));
    if (!pick)
        return luaL_error(L, "out of memory");
    for (size_t i = 0; i < n; i++)
        pick[i] = (uint32_t)i + 1;
    for (size_t i = 0; i < k; i++) { /* the first k of a partial Fisher-Yates shuffle */
        size_t j = i + (size_t)engine_rng_below(st, (uint64_t)(n - i));
        uint32_t t = pick[i];
        pick[i] = pick[j];
        pick[j] = t;
    }
    qsort(pick, k, sizeof *pick, bots_uint_cmp);
    lua_createtable(L, (int)k, 0);
    for (size_t i = 0; i < k; i++) {
        lua_pushinteger(L, pick[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    free(pick);
    return 1;
}

/* The game's `default` bot's answer to (g, p, d), left on the stack. */
static int bots_default(lua_State *L, engine_g *g, const char *who)
{
    const engine_game *game = g->m->game;
    for (size_t i = 0; i < game->nbots; i++)
        if (!strcmp(game->bots[i].name, "default")) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, game->bots[i].ref);
            lua_pushvalue(L, 1);
            lua_pushvalue(L, 2);
            lua_pushvalue(L, 3);
            lua_call(L, 3, 1);
            return 1;
        }
    return luaL_error(L, "bot '%s': the game has no default bot", who);
}

/* normal(g, p, d): the default bot's answer. */
static int bots_normal(lua_State *L)
{
    return bots_default(L, bots_g(L, ENGINE_NORMAL_BOT), ENGINE_NORMAL_BOT);
}

/* Whether the answer at the top of the stack picks an option of d (at 3) whose act or verb
 * is "surrender": the game conceded, not a move. */
static bool bots_concedes(lua_State *L)
{
    bool concedes = false;
    lua_getfield(L, 3, "options");
    for (lua_Integer i = 1, n = (lua_Integer)lua_rawlen(L, -2); i <= n && !concedes; i++) {
        lua_rawgeti(L, -2, i);
        lua_gettable(L, -2); /* options[answer[i]] */
        if (lua_istable(L, -1))
            for (int f = 0; f < 2 && !concedes; f++) {
                lua_getfield(L, -1, f ? "verb" : "act");
                const char *v = lua_tostring(L, -1);
                concedes = v && !strcmp(v, "surrender");
                lua_pop(L, 1);
            }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return concedes;
}

/* easy(g, p, d): the default bot's answer, but a random one every ENGINE_EASY_SLIP-th
 * decision on average (drawn from the match's generator, so it replays). A slip is a weak
 * move, never conceding the game: a random answer that surrenders gives way to the default
 * bot's (a player facing `easy` in MLW saw it surrender on its own). */
static int bots_easy(lua_State *L)
{
    engine_g *g = bots_g(L, ENGINE_EASY_BOT);
    if (engine_rng_below(&g->m->st, ENGINE_EASY_SLIP) == 0) {
        bots_random(L);
        if (!bots_concedes(L))
            return 1;
        lua_pop(L, 1);
    }
    return bots_default(L, g, ENGINE_EASY_BOT);
}

/* Registers fn as g's bot name, unless the game has a bot of that name. */
static void bots_add(lua_State *L, engine_game *g, const char *name, lua_CFunction fn)
{
    for (size_t i = 0; i < g->nbots; i++)
        if (!strcmp(g->bots[i].name, name))
            return;
    engine_bot *nb = realloc(g->bots, sizeof *nb * (g->nbots + 1));
    if (!nb)
        luaL_error(L, "out of memory");
    g->bots = nb;
    engine_bot *bt = &g->bots[g->nbots];
    bt->name = strdup(name);
    bt->unsearched = 0;
    if (!bt->name)
        luaL_error(L, "out of memory");
    lua_pushcfunction(L, fn);
    bt->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    g->nbots++;
}

/* random for every game; easy and normal for a game with a default bot (they play it). */
void engine_bots_builtin(lua_State *L, engine_game *g)
{
    int has_default = 0;
    for (size_t i = 0; i < g->nbots; i++)
        has_default |= !strcmp(g->bots[i].name, "default");
    bots_add(L, g, ENGINE_RANDOM_BOT, bots_random);
    if (!has_default)
        return;
    bots_add(L, g, ENGINE_EASY_BOT, bots_easy);
    bots_add(L, g, ENGINE_NORMAL_BOT, bots_normal);
}

int engine_bot_is_builtin(const char *name)
{
    return !strcmp(name, ENGINE_RANDOM_BOT) || !strcmp(name, ENGINE_EASY_BOT) ||
           !strcmp(name, ENGINE_NORMAL_BOT);
}

int engine_search_strategy(const char *name)
{
    return name && (!strcmp(name, ENGINE_SEARCH_BOT) || !strcmp(name, ENGINE_HARD_BOT));
}
