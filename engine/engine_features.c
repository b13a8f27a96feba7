/*
 * engine_features.c: a game's position features for a position log. A game may define
 * `features(g)`: an array by player of arrays of numbers describing the position at a
 * turn boundary (docs/SCRIPTING.md, "Evaluation hints"). `deckhand sim --positions` logs
 * them with each game's outcome, and `deckhand fit` fits the weights its evaluation hint
 * combines them with, so the search's leaf value is fitted to self-play, not guessed.
 * Reading them runs like a bot asked for an answer: g refuses changes, the generator is
 * put back, so a logged match plays exactly as an unlogged one.
 */
#include <string.h>

#include "engine_internal.h"

#define ENGINE_MAX_FEATURES 32 /* per player */

/* Reads the array of numbers at the top of the stack into f (at most ENGINE_MAX_FEATURES);
 * its length. */
static size_t features_row(lua_State *L, int p, double *f)
{
    if (!lua_istable(L, -1))
        luaL_error(L, "features: player %d's entry must be an array of numbers", p + 1);
    size_t n = (size_t)lua_rawlen(L, -1);
    if (n > ENGINE_MAX_FEATURES)
        luaL_error(L, "features: at most %d a player", ENGINE_MAX_FEATURES);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, -1, (lua_Integer)i + 1);
        int ok;
        lua_Number x = lua_tonumberx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || x != x)
            luaL_error(L, "features: player %d's feature %d is not a number", p + 1, (int)i + 1);
        f[i] = (double)x;
    }
    return n;
}

void engine_features_note(lua_State *L, engine_match *m)
{
    if (m->game->features_ref == LUA_NOREF || m->np > 16)
        return;
    double f[16 * ENGINE_MAX_FEATURES];
    uint64_t rng[4];
    memcpy(rng, m->st.rng, sizeof rng);
    m->asking_bot = 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->features_ref);
    engine_match_push_g(m, L);
    lua_call(L, 1, 1);
    m->asking_bot = 0;
    memcpy(m->st.rng, rng, sizeof rng);
    if (!lua_istable(L, -1))
        luaL_error(L, "features must return an array by player");
    size_t nf = 0;
    for (int p = 0; p < m->np; p++) {
        lua_rawgeti(L, -1, p + 1);
        size_t n = features_row(L, p, f + (size_t)p * ENGINE_MAX_FEATURES);
        lua_pop(L, 1);
        if (p && n != nf)
            luaL_error(L, "features: every player needs the same number of features");
        nf = n;
    }
    lua_pop(L, 1);
    for (int p = 1; p < m->np; p++)
        memmove(f + (size_t)p * nf, f + (size_t)p * ENGINE_MAX_FEATURES, nf * sizeof *f);
    m->on_features(m->features_ud, m->st.turn, f, nf);
}
