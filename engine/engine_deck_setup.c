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
#include "engine_deck.h"

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

const luaL_Reg engine_deck_setup_methods[] = {
    {"deck_setup_supply", g_deck_setup_supply},
    {"deck_deal_all", g_deck_deal_all},
    {NULL, NULL},
};
