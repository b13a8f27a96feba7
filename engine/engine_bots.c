/*
 * engine_bots.c: the strategies the engine offers for every game, beside the bundle's own
 * bots. Today one: `random`, a uniformly random legal answer (a count drawn uniformly in
 * min..max, then that many distinct options drawn uniformly), the floor every other bot
 * is measured against (issue 17: the search bot against a random player in every game).
 * It is a Lua-callable C function registered like a bundle's bot (engine_bundle.c), so it
 * plays inline, answers engine_match_bot_answer and is listed in GameInfo.bots; a game
 * that defines its own `random` keeps it. It draws from the match's generator, as a Lua
 * bot calling g:random does, so its answers replay.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static int bots_uint_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* random(g, p, d): the chosen option indices, ascending. */
static int bots_random(lua_State *L)
{
    engine_g *g = lua_touserdata(L, 1);
    if (!g || lua_type(L, 1) != LUA_TUSERDATA || g->magic != ENGINE_G_MAGIC || !g->m)
        return luaL_error(L, "bot 'random': g expected");
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

void engine_bots_builtin(lua_State *L, engine_game *g)
{
    for (size_t i = 0; i < g->nbots; i++)
        if (!strcmp(g->bots[i].name, ENGINE_RANDOM_BOT))
            return;
    engine_bot *nb = realloc(g->bots, sizeof *nb * (g->nbots + 1));
    if (!nb)
        luaL_error(L, "out of memory");
    g->bots = nb;
    engine_bot *bt = &g->bots[g->nbots];
    bt->name = strdup(ENGINE_RANDOM_BOT);
    if (!bt->name)
        luaL_error(L, "out of memory");
    lua_pushcfunction(L, bots_random);
    bt->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    g->nbots++;
}
