/*
 * engine_deck_supply.c: the g methods over a deck kit's supply and the game's end
 * (engine_deck.h): what can be gained for how much, buying by name, the empty piles of
 * the end check, and the points a player holds.
 *
 * One rule says what a player may gain from the supply for $max: a pile of the kernel's
 * order whose card costs at most max and whose top card is that card (a mixed pile sells
 * only its top). deck_supply lists by it (the options people get), deck_pick and deck_buy
 * check a name by it (what bots name), so a bot can never buy what a person could not
 * have chosen. The costs are the kit's, read from the card data: a kernel whose game
 * overrides cost does not use these (kernel.lua).
 */
#include <string.h>

#include "engine_deck.h"

#define NAMES lua_upvalueindex(1)

/* The top id of pile pl when its card can be taken from it (the pile holds a card and,
 * for a mixed pile, its top is that card), else 0. */
uint32_t engine_deck_pile_top(engine_match *m, const engine_deck_kit *k, const engine_deck_pile *pl)
{
    const engine_zone *z = engine_zone_get(&m->st, pl->zone, 0, 0);
    if (!z || z->n == 0)
        return 0;
    uint32_t top = z->ids[z->n - 1];
    if (pl->mixed && m->st.ents[top - 1].name != k->cards[pl->card].name)
        return 0;
    return top;
}

/* The kernel's pile of the card interned as name (the first in the order, whose option
 * a bot's name stands for), or NULL when its order has none. */
const engine_deck_pile *engine_deck_pile_of(const engine_deck_kit *k, uint32_t name)
{
    const engine_deck_card *c = engine_deck_card_of(k, name);
    return c && c->pile ? &k->piles[c->pile - 1] : NULL;
}

/* The piles of k a card costing at most max can be gained from, in the kernel's order:
 * their card names, costs and top ids at 1..n of the tables at 4, 5 and 6; n. raw: the
 * tables are new (rawset); else a script's, written as a script would (a frozen one
 * raises). */
static lua_Integer supply_fill(lua_State *L, engine_match *m, const engine_deck_kit *k,
                               lua_Integer max, bool raw)
{
    lua_Integer n = 0;
    for (uint32_t i = 0; i < k->npiles; i++) {
        const engine_deck_pile *pl = &k->piles[i];
        const engine_deck_card *c = &k->cards[pl->card];
        uint32_t top = c->cost <= max ? engine_deck_pile_top(m, k, pl) : 0;
        if (!top)
            continue;
        n++;
        lua_rawgeti(L, NAMES, c->name);
        lua_pushinteger(L, c->cost);
        lua_pushinteger(L, top);
        for (int t = 6; t >= 4; t--)
            if (raw)
                lua_rawseti(L, t, n);
            else
                lua_seti(L, t, n);
    }
    return n;
}

/* g:deck_supply(kit, max): the piles a card costing at most max can be gained from, in
 * the kernel's order: their card names, costs and top ids (three new arrays). */
static int g_deck_supply(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_Integer max = luaL_checkinteger(L, 3);
    lua_settop(L, 3);
    lua_createtable(L, (int)k->npiles, 0); /* 4 */
    lua_createtable(L, (int)k->npiles, 0); /* 5 */
    lua_createtable(L, (int)k->npiles, 0); /* 6 */
    supply_fill(L, m, k, max, true);
    return 3;
}

/* g:deck_supply_in(kit, max, names, costs, tops): deck_supply's piles written into the
 * caller's three tables at 1..n, with nil at n + 1, and n returned: no new table per
 * decision (three a buy decision were a third of what a worker's VM allocated per answer
 * once turns kept their coroutine, so the collections that stop an answer came that much
 * more often: docs/BENCHMARKS.md, issue 27). What the tables held past n + 1 stays; a
 * read-only table (module state) raises as a script's write to it would. */
static int g_deck_supply_in(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_Integer max = luaL_checkinteger(L, 3);
    luaL_checktype(L, 4, LUA_TTABLE);
    luaL_checktype(L, 5, LUA_TTABLE);
    luaL_checktype(L, 6, LUA_TTABLE);
    lua_settop(L, 6);
    lua_Integer n = supply_fill(L, m, k, max, false);
    for (int t = 4; t <= 6; t++) {
        lua_pushnil(L);
        lua_seti(L, t, n + 1);
    }
    lua_pushinteger(L, n);
    return 1;
}

/* g:deck_pick(kit, max, names): the first of the names that deck_supply(kit, max) would
 * list, or nil: a bot's wish list, best first, against what it can afford. The list is
 * read up to its first nil with lua_geti: wish lists are mostly a module's constants,
 * whose frozen proxies (engine_freeze.c) this reads through at a metatable step per
 * name, cheaper for a list of one to three names than looking for the proxy's contents. */
static int g_deck_pick(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_Integer max = luaL_checkinteger(L, 3);
    luaL_checktype(L, 4, LUA_TTABLE);
    lua_settop(L, 4);
    for (lua_Integer i = 1;; i++) {
        int t = lua_geti(L, 4, i);
        if (t == LUA_TNIL)
            return 1;
        if (t != LUA_TSTRING)
            return luaL_error(L, "deck_pick: names[%d] is not a card name", (int)i);
        const engine_deck_pile *pl = engine_deck_pile_of(k, engine_intern_lua(m->b, L, -1));
        if (pl && k->cards[pl->card].cost <= max && engine_deck_pile_top(m, k, pl))
            return 1;
        lua_pop(L, 1);
    }
}

/* g:deck_best(kit, max, rank): of the piles deck_supply(kit, max) would list, in order,
 * the first whose card ranks highest in the table rank (card name -> integer; a card it
 * does not rank is skipped): its name and rank, or nil. A bot's "the best card I can get
 * for max" without the three arrays of deck_supply. */
static int g_deck_best(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_Integer max = luaL_checkinteger(L, 3), bestv = 0;
    luaL_checktype(L, 4, LUA_TTABLE);
    lua_settop(L, 4);
    const engine_deck_card *best = NULL;
    for (uint32_t i = 0; i < k->npiles; i++) {
        const engine_deck_pile *pl = &k->piles[i];
        const engine_deck_card *c = &k->cards[pl->card];
        if (c->cost > max)
            continue;
        lua_rawgeti(L, NAMES, c->name);
        int ranked = lua_gettable(L, 4) != LUA_TNIL, ok = 1;
        lua_Integer v = ranked ? lua_tointegerx(L, -1, &ok) : 0;
        lua_pop(L, 1);
        if (!ok)
            return luaL_error(L, "deck_best: the rank of %s is not an integer",
                              m->b->names.v[c->name].s);
        if (ranked && (!best || v > bestv) && engine_deck_pile_top(m, k, pl))
            best = c, bestv = v;
    }
    if (!best)
        return 0;
    lua_rawgeti(L, NAMES, best->name);
    lua_pushinteger(L, bestv);
    return 2;
}

/* kernel:buy's steps once the card c (top id) may be bought: coins and a buy spent,
 * _bought set, the card to p's discard, p's _own:<Card> counted, "<name> buys <Card>". */
void engine_deck_buy(lua_State *L, engine_match *m, const engine_deck_kit *k, int p,
                     const engine_deck_card *c, uint32_t id)
{
    engine_deck_add(L, m, k->c_coins, 0, -c->cost);
    engine_deck_add(L, m, k->c_buys, 0, -1);
    *engine_deck_slot(L, m, k->c_bought, 0) = 1;
    engine_deck_move(L, m, id, engine_deck_zone(L, m, k->z_discard, p, 1));
    engine_deck_add(L, m, c->own, p, 1);
    engine_deck_text t = {.n = 0};
    if (!engine_events_unread(m)) {
        const engine_name *nm = &m->b->names.v[c->name];
        engine_deck_text_player(&t, m, p);
        engine_deck_text_str(&t, " buys ");
        engine_deck_text_add(&t, nm->s, nm->len);
    }
    engine_deck_event(L, m, -1, &t);
}

/* g:deck_buy(kit, p, name): kernel:buy of a named card, checked first by the rule that
 * lists the buy options (a buy left, the card's pile in the supply with that card on
 * top, its cost at most the coins); raises, naming the player (and the bot), when it
 * fails. Then: coins and a buy spent, _bought set, the top card to p's discard, p's
 * _own:<Card> counted, "<name> buys <Card>". Returns the card's id and the coins and
 * buys left. */
static int g_deck_buy(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    const char *name = luaL_checkstring(L, 4);
    const engine_deck_pile *pl = engine_deck_pile_of(k, engine_intern_lua(m->b, L, 4));
    if (!pl)
        return engine_deck_refuse(L, m, p, "buy", name, "it has no pile in this supply");
    const engine_deck_card *c = &k->cards[pl->card];
    int64_t coins = engine_deck_counter(m, k->c_coins, 0);
    uint32_t id = engine_deck_pile_top(m, k, pl);
    if (engine_deck_counter(m, k->c_buys, 0) <= 0)
        return engine_deck_refuse(L, m, p, "buy", name, "no buy is left");
    if (c->cost > coins) {
        lua_pushfstring(L, "it costs $%d and $%d is left", (int)c->cost, (int)coins);
        return engine_deck_refuse(L, m, p, "buy", name, lua_tostring(L, -1));
    }
    if (!id)
        return engine_deck_refuse(L, m, p, "buy", name, "its pile is empty");
    engine_deck_buy(L, m, k, p, c, id);
    coins = engine_deck_counter(m, k->c_coins, 0);
    int64_t buys = engine_deck_counter(m, k->c_buys, 0);
    lua_pushinteger(L, id);
    lua_pushinteger(L, coins);
    lua_pushinteger(L, buys);
    return 3;
}

/* kernel:empty_piles, the supply piles of this match that are empty (each pile once: the
 * first pile of the order in its zone; a pile the match does not use, whose
 * _pile:<Card> is 0, is not counted). Asked after every turn, so it walks the match's
 * counters once for the piles in use and its zones once for those holding cards:
 * the empty ones are the difference. A first pile is the first with its key too (an
 * earlier pile of the same card would share its zone), so key_pile finds it. */
static lua_Integer empty_piles(lua_State *L, engine_match *m, const engine_deck_kit *k)
{
    uint8_t small[256], *used = small;
    if (k->npiles > sizeof small)
        used = lua_newuserdatauv(L, k->npiles, 0); /* left on the stack: the caller's */
    memset(used, 0, k->npiles);
    lua_Integer empty = 0;
    const engine_map *c = &m->st.counters;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t name = (uint32_t)(c->kv[i].key >> 32), pi;
        if ((uint32_t)c->kv[i].key != 0 || name >= k->nkmap || !(pi = k->key_pile[name]) ||
            !k->piles[pi - 1].first || c->kv[i].val == 0)
            continue;
        used[pi - 1] = 1;
        empty++;
    }
    for (uint32_t i = 0; i < m->st.nzones; i++) {
        const engine_zone *z = &m->st.zones[i];
        if (z->owner == 0 && z->n > 0 && z->name < k->nzmap && k->zone_pile[z->name])
            empty -= used[k->zone_pile[z->name] - 1];
    }
    return empty;
}

/* The cards left in pile pl. */
static lua_Integer pile_left(engine_match *m, const engine_deck_pile *pl)
{
    const engine_zone *z = engine_zone_get(&m->st, pl->zone, 0, 0);
    return z ? z->n : 0;
}

/* g:deck_empty_piles(kit [, name]): empty_piles; with name, also the cards left in that
 * card's pile (Dominion's end: Provinces, or three piles). */
static int g_deck_empty_piles(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int named = !lua_isnoneornil(L, 3);
    lua_settop(L, 3);
    lua_pushinteger(L, empty_piles(L, m, k));
    if (!named)
        return 1;
    const engine_deck_pile *pl = engine_deck_pile_of(k, engine_intern_lua(m->b, L, 3));
    if (!pl)
        return luaL_error(L, "deck_empty_piles: %s has no pile", lua_tostring(L, 3));
    lua_pushinteger(L, pile_left(m, pl));
    return 2;
}

/* The end check deck.ends made: finished(g), true when the pile (upvalue 2: its index
 * in the kit's piles) is out or at least n (upvalue 3) piles are. */
static int deck_ends_check(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = lua_touserdata(L, lua_upvalueindex(1));
    const engine_deck_pile *pl = &k->piles[lua_tointeger(L, lua_upvalueindex(2))];
    lua_pushboolean(L, pile_left(m, pl) == 0 ||
                           empty_piles(L, m, k) >= lua_tointeger(L, lua_upvalueindex(3)));
    return 1;
}

int engine_deck_ends_new(lua_State *L)
{
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    const engine_deck_kit *k = engine_deck_arg(L, 1);
    luaL_checkstring(L, 2);
    lua_Integer n = luaL_checkinteger(L, 3);
    const engine_deck_pile *pl = engine_deck_pile_of(k, engine_intern_lua(b, L, 2));
    if (!pl)
        return luaL_error(L, "deck.ends: %s has no pile in the kit", lua_tostring(L, 2));
    lua_settop(L, 1);
    lua_pushinteger(L, pl - k->piles);
    lua_pushinteger(L, n);
    lua_pushcclosure(L, deck_ends_check, 3);
    return 1;
}

/* kernel:score's sum over every card p owns (deck, hand, discard, play, aside) of its vp;
 * the cards with a score function are left to Lua: their names (one per card, in zone
 * order) go into an array pushed on the stack at the first of them, *nscored how many. */
static int64_t score_walk(lua_State *L, engine_match *m, const engine_deck_kit *k, int p,
                          lua_Integer *nscored)
{
    const uint32_t zones[] = {k->z_deck, k->z_hand, k->z_discard, k->z_play, k->z_aside};
    int64_t total = 0;
    int at = 0;
    *nscored = 0;
    for (size_t zi = 0; zi < sizeof zones / sizeof zones[0]; zi++) {
        const engine_zone *z = engine_zone_get(&m->st, zones[zi], p, 0);
        for (uint32_t i = 0; z && i < z->n; i++) {
            uint32_t name = m->st.ents[z->ids[i] - 1].name;
            const engine_deck_card *c = engine_deck_card_of(k, name);
            if (!c)
                return luaL_error(L, "deck_score: no card data for %s", m->b->names.v[name].s);
            if (c->flags & ENGINE_DECK_SCORE) {
                if (*nscored == 0) {
                    lua_newtable(L);
                    at = lua_gettop(L);
                }
                lua_rawgeti(L, NAMES, name);
                lua_rawseti(L, at, ++*nscored);
            } else if (c->flags & ENGINE_DECK_VP) {
                total += c->vp;
            }
        }
    }
    return total;
}

/* g:deck_score(kit, p): score_walk's sum and, when there are any, the array of the names
 * of p's cards with a score function. */
static int g_deck_score(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    lua_settop(L, 3);
    lua_Integer nscored;
    int64_t total = score_walk(L, m, k, p, &nscored); /* the names at 4, if any */
    lua_pushinteger(L, total);
    if (nscored == 0)
        return 1;
    lua_insert(L, 4);
    return 2;
}

/* The refresh deck.score_refresh made: refresh(g) sets every seat's counter (upvalue 3: its
 * interned name) to score_walk's sum over the kit at upvalue 2 (upvalue 1 is the names
 * table, as for the g methods), seat by seat; a seat holding cards with a score function
 * is handed to the Lua function at upvalue 4, plus(g, p, total, names), which sets it.
 * What kernel:score_refresh's kit path does with g:deck_score per seat. */
static int deck_score_refresh_run(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = lua_touserdata(L, lua_upvalueindex(2));
    uint32_t name = (uint32_t)lua_tointeger(L, lua_upvalueindex(3));
    lua_settop(L, 1);
    for (int p = 1; p <= m->np; p++) {
        lua_Integer nscored;
        int64_t total = score_walk(L, m, k, p, &nscored); /* the names at 2, if any */
        if (nscored == 0) {
            *engine_deck_slot(L, m, name, p) = total;
            continue;
        }
        lua_pushvalue(L, lua_upvalueindex(4));
        lua_pushvalue(L, 1);
        lua_pushinteger(L, p);
        lua_pushinteger(L, total);
        lua_pushvalue(L, 2);
        lua_call(L, 4, 0);
        lua_settop(L, 1);
    }
    return 0;
}

int engine_deck_score_refresh_new(lua_State *L)
{
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    engine_deck_arg(L, 1);
    luaL_checkstring(L, 2);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_Integer name = engine_intern_lua(b, L, 2);
    lua_settop(L, 3);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->names_ref);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, name);
    lua_pushvalue(L, 3);
    lua_pushcclosure(L, deck_score_refresh_run, 4);
    return 1;
}

/* g:deck_owned(kit, p, names): the cards of those names p owns (the sum of its
 * _own:<Card> counters, k:owned), and every card p owns (its deck, hand, discard, play
 * and aside: k:owned_count). A money bot's "how many terminals do I have, in a deck of
 * how many cards" in one call. */
static int g_deck_owned(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    luaL_checktype(L, 4, LUA_TTABLE);
    engine_freeze_see(L, 4);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 4);
    int64_t have = 0, cards = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 4, i);
        const engine_deck_card *c = engine_deck_card_of(k, engine_intern_lua(m->b, L, -1));
        if (!c)
            return luaL_error(L, "deck_owned: no card data for %s", lua_tostring(L, -1));
        lua_pop(L, 1);
        have += engine_deck_counter(m, c->own, p);
    }
    const uint32_t zones[] = {k->z_deck, k->z_hand, k->z_discard, k->z_play, k->z_aside};
    for (size_t zi = 0; zi < sizeof zones / sizeof zones[0]; zi++) {
        const engine_zone *z = engine_zone_get(&m->st, zones[zi], p, 0);
        cards += z ? z->n : 0;
    }
    lua_pushinteger(L, have);
    lua_pushinteger(L, cards);
    return 2;
}

const luaL_Reg engine_deck_supply_methods[] = {
    {"deck_supply", g_deck_supply},
    {"deck_supply_in", g_deck_supply_in},
    {"deck_pick", g_deck_pick},
    {"deck_best", g_deck_best},
    {"deck_buy", g_deck_buy},
    {"deck_empty_piles", g_deck_empty_piles},
    {"deck_score", g_deck_score},
    {"deck_owned", g_deck_owned},
    {NULL, NULL},
};
