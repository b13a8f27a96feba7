/*
 * engine_deck_setup.c: the g methods that set a deck-builder's match up and score it
 * over a deck kit (engine_deck.h): the supply piles, every player's starting deck, its
 * shuffle and first hand, and the results by rank.
 *
 * Set-up and results run once a match, yet in Lua they cost more than a whole Big Money
 * turn does in C: a few hundred g calls and tables for data the bundle already knows.
 * Each method is one of the kernel's functions (scripts/deckbuilder/kernel.lua:
 * setup_supply, deal_all, results) and does its g calls in their order, with the same
 * zones created, counters written, shuffles and events, so a match's state, generator
 * and state hash are the same with or without the kit. What a game decides (which piles,
 * which starting cards, a score function such as Gardens') stays data or Lua it passes.
 */
#include <string.h>

#include "engine_deck.h"

#define NAMES     lua_upvalueindex(1)
#define MAX_SEATS 64 /* a game's max_players is at most this (engine_bundle.c) */

/* The integer field k of the table at t (raises when it is not one). */
static int64_t int_of(lua_State *L, int t, const char *k, const char *what)
{
    lua_getfield(L, t, k);
    int ok;
    int64_t v = (int64_t)lua_tointegerx(L, -1, &ok);
    if (!ok)
        luaL_error(L, "%s: %s must be an integer", what, k);
    lua_pop(L, 1);
    return v;
}

/* The kit's card named by the field `name` of the table at t (raises when it has none). */
static const engine_deck_card *card_of(lua_State *L, engine_match *m, const engine_deck_kit *k,
                                       int t, const char *what)
{
    lua_getfield(L, t, "name");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "%s: name must be a card name", what);
    const engine_deck_card *c = engine_deck_card_of(k, engine_intern_lua(m->b, L, -1));
    if (!c)
        luaL_error(L, "kernel: unknown supply card %s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return c;
}

/* g:new(card, zone, owner, n): n entities of the card on top of zone (name, owner),
 * the zone created only when n > 0. */
static void new_cards(lua_State *L, engine_match *m, uint32_t card, uint32_t zone, int32_t owner,
                      int64_t n)
{
    if (n < 0)
        luaL_error(L, "new: n must be at least 0");
    if (n == 0)
        return;
    uint32_t zi = (uint32_t)engine_deck_zone(L, m, zone, owner, 1);
    if (n > ENGINE_MAX_ENTITIES || !engine_entity_new_n(&m->st, card, zi, (uint32_t)n))
        luaL_error(L, "too many entities");
}

/* The array at idx, raw (a module's frozen table is read through its contents). */
static lua_Integer array_arg(lua_State *L, int idx)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    engine_freeze_see(L, idx);
    return (lua_Integer)lua_rawlen(L, idx);
}

/* g:deck_setup_supply(kit, piles): kernel:setup_supply: piles is an array of
 * { name =, count = }, each a card of the kernel's order; its pile gets count cards and
 * its _pile:<Card> counter 1. */
static int g_deck_setup_supply(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_settop(L, 3);
    lua_Integer n = array_arg(L, 3);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 3, i); /* 4 */
        luaL_checktype(L, 4, LUA_TTABLE);
        engine_freeze_see(L, 4);
        const engine_deck_card *c = card_of(L, m, k, 4, "deck_setup_supply");
        if (!c->pile)
            return luaL_error(L, "deck_setup_supply: %s is not in the kernel's order",
                              m->b->names.v[c->name].s);
        const engine_deck_pile *pl = &k->piles[c->pile - 1];
        new_cards(L, m, c->name, pl->zone, 0, int_of(L, 4, "count", "deck_setup_supply"));
        *engine_deck_slot(L, m, pl->key, 0) = 1;
        lua_settop(L, 3);
    }
    return 0;
}

/* kernel:deal_start: p's starting cards (the array at idx) into its deck, counted as
 * owned, the deck shuffled, a hand drawn quietly. */
static void deal_start(lua_State *L, engine_match *m, const engine_deck_kit *k, int p, int idx,
                       lua_Integer n)
{
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        int t = lua_gettop(L);
        luaL_checktype(L, t, LUA_TTABLE);
        engine_freeze_see(L, t);
        const engine_deck_card *c = card_of(L, m, k, t, "deck_deal_all");
        int64_t count = int_of(L, t, "count", "deck_deal_all");
        new_cards(L, m, c->name, k->z_deck, p, count);
        engine_deck_add(L, m, c->own, p, count);
        lua_settop(L, t - 1);
    }
    int32_t deck = engine_deck_zone(L, m, k->z_deck, p, 0);
    if (deck >= 0)
        engine_zone_shuffle(&m->st, &m->st.zones[deck]);
    engine_deck_draw(L, m, k, p, k->hand_size, 1);
}

/* g:deck_deal_all(kit, start [, each]): kernel:deal_all: every player, in order, gets
 * the starting cards of the array start ({ name =, count = } each; deal_start), then
 * each(g, p) when given (the game's own per-player set-up); player 1 is active. */
static int g_deck_deal_all(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_settop(L, 4);
    lua_Integer n = array_arg(L, 3);
    int each = !lua_isnil(L, 4);
    if (each)
        luaL_checktype(L, 4, LUA_TFUNCTION);
    for (int p = 1; p <= m->np; p++) {
        deal_start(L, m, k, p, 3, n);
        if (each) {
            lua_pushvalue(L, 4);
            lua_pushvalue(L, 1);
            lua_pushinteger(L, p);
            lua_call(L, 2, 0);
        }
    }
    *engine_deck_slot(L, m, k->c_active, 0) = 1;
    return 0;
}

/* How deck_results scores, read from its spec table (at idx, or the defaults). */
typedef struct {
    uint32_t zones[8];
    size_t nzones;
    uint32_t counter; /* 0: none */
    int tiebreak;     /* fewer turns break a tie of points */
    int card_score;   /* stack index of the card_score function, or 0 */
} results_spec;

static void read_spec(lua_State *L, engine_match *m, const engine_deck_kit *k, int idx,
                      results_spec *s)
{
    const uint32_t own[] = {k->z_deck, k->z_hand, k->z_discard, k->z_play, k->z_aside};
    memcpy(s->zones, own, sizeof own);
    s->nzones = 5, s->counter = 0, s->tiebreak = 1, s->card_score = 0;
    if (lua_isnoneornil(L, idx))
        return;
    luaL_checktype(L, idx, LUA_TTABLE);
    engine_freeze_see(L, idx);
    if (lua_getfield(L, idx, "zones") == LUA_TTABLE) {
        int z = lua_gettop(L);
        engine_freeze_see(L, z);
        size_t n = lua_rawlen(L, z);
        if (n > sizeof s->zones / sizeof s->zones[0])
            luaL_error(L, "deck_results: at most 8 zones");
        for (size_t i = 0; i < n; i++) {
            lua_rawgeti(L, z, (lua_Integer)i + 1);
            s->zones[i] = engine_intern_lua(m->b, L, -1);
            lua_pop(L, 1);
        }
        s->nzones = n;
    }
    if (lua_getfield(L, idx, "counter") == LUA_TSTRING)
        s->counter = engine_intern_lua(m->b, L, -1);
    lua_getfield(L, idx, "tiebreak");
    s->tiebreak = lua_isnil(L, -1) || lua_toboolean(L, -1);
    if (lua_getfield(L, idx, "card_score") == LUA_TFUNCTION)
        s->card_score = lua_gettop(L); /* kept on the stack */
    else
        lua_pop(L, 1);
}

/* p's points: the spec's counter, each card's vp over the spec's zones, and what
 * card_score(g, p, name) says of each card with a score function (in zone order). */
static int64_t points(lua_State *L, engine_match *m, const engine_deck_kit *k,
                      const results_spec *s, int p)
{
    int64_t total = s->counter ? engine_deck_counter(m, s->counter, p) : 0;
    for (size_t zi = 0; zi < s->nzones; zi++) {
        const engine_zone *z = engine_zone_get(&m->st, s->zones[zi], p, 0);
        for (uint32_t i = 0; z && i < z->n; i++) {
            uint32_t name = m->st.ents[z->ids[i] - 1].name;
            const engine_deck_card *c = engine_deck_card_of(k, name);
            if (!c)
                luaL_error(L, "deck_results: no card data for %s", m->b->names.v[name].s);
            if (!(c->flags & ENGINE_DECK_SCORE)) {
                total += c->vp;
                continue;
            }
            if (!s->card_score)
                luaL_error(L, "deck_results: %s has a score function and no card_score was given",
                           m->b->names.v[name].s);
            lua_pushvalue(L, s->card_score);
            lua_pushvalue(L, 1);
            lua_pushinteger(L, p);
            lua_rawgeti(L, NAMES, name);
            lua_call(L, 3, 1);
            int ok;
            total += (int64_t)lua_tointegerx(L, -1, &ok);
            if (!ok)
                luaL_error(L, "deck_results: %s's score must be an integer", m->b->names.v[name].s);
            lua_pop(L, 1);
        }
    }
    return total;
}

/* g:deck_results(kit [, spec]): kernel:results: by player { score =, turns =, rank = },
 * rank 1 + the number of players strictly ahead: more points, or as many in fewer turns
 * (unless spec.tiebreak is false). spec: zones (whose cards' vp count; default deck,
 * hand, discard, play, aside), counter (a per-player counter added, e.g. "honour"),
 * card_score (fn(g, p, name): the points of one card with a score function, Gardens). */
static int g_deck_results(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_settop(L, 3);
    results_spec s;
    read_spec(L, m, k, 3, &s);
    int64_t score[MAX_SEATS], turns[MAX_SEATS];
    if (m->np > MAX_SEATS)
        return luaL_error(L, "deck_results: too many players");
    for (int p = 1; p <= m->np; p++) {
        score[p - 1] = points(L, m, k, &s, p);
        turns[p - 1] = engine_deck_counter(m, k->c_turns, p);
    }
    lua_createtable(L, m->np, 0);
    for (int p = 0; p < m->np; p++) {
        int ahead = 0;
        for (int q = 0; q < m->np; q++)
            ahead +=
                score[q] > score[p] || (s.tiebreak && score[q] == score[p] && turns[q] < turns[p]);
        lua_createtable(L, 0, 3);
        lua_pushinteger(L, score[p]);
        lua_setfield(L, -2, "score");
        lua_pushinteger(L, turns[p]);
        lua_setfield(L, -2, "turns");
        lua_pushinteger(L, ahead + 1);
        lua_setfield(L, -2, "rank");
        lua_rawseti(L, -2, p + 1);
    }
    return 1;
}

const luaL_Reg engine_deck_setup_methods[] = {
    {"deck_results", g_deck_results},
    {"deck_setup_supply", g_deck_setup_supply},
    {"deck_deal_all", g_deck_deal_all},
    {NULL, NULL},
};
