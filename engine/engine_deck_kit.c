/*
 * engine_deck_kit.c: building a deck kit (engine_deck.h) from a kernel's card data, and the
 * module `deckhand.deck` that hands scripts its constructor, with the kit's g methods.
 *
 * The kernel (scripts/deckbuilder/kernel.lua) calls require("deckhand.deck").kit{...}
 * with the same card table and order it keeps itself, so the kit holds the numbers of
 * the bundle's own scripts (a live push that changes a card changes its kit) and nothing
 * is written down twice. The module is served from C rather than from a file so that no
 * bundle has to ship it and none can replace it.
 */
#include <string.h>

#include "engine_deck.h"

/* ---- reading the card data ---------------------------------------------------------- */

/* The field k of the table at t as an integer (0 when absent; *has set when present and
 * true, as the kernel's `if def.cards then` reads it). Raises on a value that is not an
 * integer. */
static int64_t int_field(lua_State *L, int t, const char *k, const char *card, int *has)
{
    int tt = lua_getfield(L, t, k);
    *has = tt != LUA_TNIL && !(tt == LUA_TBOOLEAN && !lua_toboolean(L, -1));
    int ok = 1;
    int64_t v = *has ? (int64_t)lua_tointegerx(L, -1, &ok) : 0;
    if (!ok)
        luaL_error(L, "deck kit: %s.%s must be an integer", card, k);
    lua_pop(L, 1);
    return v;
}

/* 1 when the field k of the table at t is neither nil nor false. */
static int true_field(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* The bit of the type named at the top of the stack (popped), added to the kit's types
 * when new. */
static uint32_t type_bit(engine_bundle *b, lua_State *L, engine_deck_kit *k)
{
    uint32_t id = engine_intern_lua(b, L, -1);
    lua_pop(L, 1);
    for (uint32_t i = 0; i < k->ntypes; i++)
        if (k->type_name[i] == id)
            return 1u << i;
    if (k->ntypes == ENGINE_DECK_MAX_TYPES)
        luaL_error(L, "deck kit: more than %d card types", ENGINE_DECK_MAX_TYPES);
    k->type_name[k->ntypes] = id;
    return 1u << k->ntypes++;
}

/* Fills c from the card definition at def (name: interned id). after_play: the index of
 * the kernel's after_play table (name -> hooks) or 0. */
static void read_card(engine_bundle *b, lua_State *L, engine_deck_kit *k, engine_deck_card *c,
                      int def, int after_play)
{
    const char *nm = b->names.v[c->name].s;
    int has_cards, has_actions, has_buys, has_coins, has_vp, has;
    luaL_checktype(L, def, LUA_TTABLE);
    c->cost = int_field(L, def, "cost", nm, &has);
    c->coins = int_field(L, def, "coins", nm, &has_coins);
    c->cards = int_field(L, def, "cards", nm, &has_cards);
    c->actions = int_field(L, def, "actions", nm, &has_actions);
    c->buys = int_field(L, def, "buys", nm, &has_buys);
    c->vp = int_field(L, def, "vp", nm, &has_vp);
    int hooks = true_field(L, def, "on_play");
    if (after_play) {
        lua_pushstring(L, nm);
        hooks = hooks || lua_gettable(L, after_play) != LUA_TNIL;
        lua_pop(L, 1);
    }
    c->flags =
        (hooks ? ENGINE_DECK_HOOKS : 0) | (true_field(L, def, "score") ? ENGINE_DECK_SCORE : 0);
    if (has_coins && !has_cards && !has_actions && !has_buys && !hooks)
        c->flags |= ENGINE_DECK_PLAIN;
    c->flags |= (has_cards ? ENGINE_DECK_CARDS : 0) | (has_actions ? ENGINE_DECK_ACTIONS : 0) |
                (has_buys ? ENGINE_DECK_BUYS : 0) | (has_coins ? ENGINE_DECK_COINS : 0) |
                (has_vp ? ENGINE_DECK_VP : 0);
    c->types = 0;
    if (lua_getfield(L, def, "types") == LUA_TTABLE) {
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            c->types |= type_bit(b, L, k);
        }
    }
    lua_pop(L, 1);
}

/* Interns prefix .. the string at idx. */
static uint32_t intern_prefixed(engine_bundle *b, lua_State *L, const char *prefix, int idx)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, prefix);
    lua_pushvalue(L, idx);
    lua_concat(L, 2);
    uint32_t id = engine_intern_lua(b, L, -1);
    lua_pop(L, 1);
    return id;
}

/* Reads the kernel's order (at spec's `order`) into k->piles; pile_of at index po or 0. */
static void read_piles(engine_bundle *b, lua_State *L, engine_deck_kit *k, int order, int po)
{
    for (uint32_t i = 0; i < k->npiles; i++) {
        engine_deck_pile *pl = &k->piles[i];
        lua_geti(L, order, (lua_Integer)i + 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "deck kit: order[%d] is not a card name", (int)i + 1);
        const engine_deck_card *c = engine_deck_card_of(k, engine_intern_lua(b, L, -1));
        if (!c)
            luaL_error(L, "deck kit: no card data for %s", lua_tostring(L, -1));
        pl->card = (uint32_t)(c - k->cards);
        pl->key = intern_prefixed(b, L, "_pile:", -1);
        pl->mixed = 0;
        if (po) {
            lua_pushvalue(L, -1);
            pl->mixed = lua_gettable(L, po) == LUA_TSTRING;
            if (pl->mixed)
                lua_replace(L, -2); /* the pile's name stands for the card's */
            else
                lua_pop(L, 1);
        }
        pl->zone = intern_prefixed(b, L, "supply:", -1);
        lua_pop(L, 1);
        engine_deck_card *card = &k->cards[pl->card];
        if (!card->pile) /* a card named twice in the order: its first pile */
            card->pile = i + 1;
    }
}

/* k->zone_pile and k->key_pile, in a userdata the kit holds as its user value (their
 * sizes are known only once the piles' names are interned), and each pile's `first`:
 * the first pile of the order in its zone (linear in the order: a script sizes it). */
static void zone_map(lua_State *L, engine_deck_kit *k)
{
    uint32_t max = 0, kmax = 0;
    for (uint32_t i = 0; i < k->npiles; i++) {
        max = k->piles[i].zone > max ? k->piles[i].zone : max;
        kmax = k->piles[i].key > kmax ? k->piles[i].key : kmax;
    }
    k->nzmap = max + 1;
    k->nkmap = kmax + 1;
    size_t size = sizeof(uint32_t) * ((size_t)k->nzmap + k->nkmap);
    k->zone_pile = lua_newuserdatauv(L, size, 0);
    memset(k->zone_pile, 0, size);
    k->key_pile = k->zone_pile + k->nzmap;
    for (uint32_t i = 0; i < k->npiles; i++) {
        engine_deck_pile *pl = &k->piles[i];
        pl->first = k->zone_pile[pl->zone] == 0;
        if (pl->first)
            k->zone_pile[pl->zone] = i + 1;
        if (!k->key_pile[pl->key])
            k->key_pile[pl->key] = i + 1;
    }
    lua_setiuservalue(L, -2, 1);
}

static uint32_t intern_lit(engine_bundle *b, lua_State *L, const char *s)
{
    return engine_intern_c(b, L, s, strlen(s));
}

/* The kernel's numbers: hand size, the turn's actions and buys. */
static void read_turn(lua_State *L, engine_deck_kit *k, int spec)
{
    int has;
    k->hand_size = int_field(L, spec, "hand_size", "kernel", &has);
    k->turn_actions = 1, k->turn_buys = 1;
    if (lua_getfield(L, spec, "turn_stats") == LUA_TTABLE) {
        int ts = lua_gettop(L);
        k->turn_actions = int_field(L, ts, "actions", "turn_stats", &has);
        k->turn_buys = int_field(L, ts, "buys", "turn_stats", &has);
    }
    lua_pop(L, 1);
}

/* kit{ cards = name -> definition, order = {names}, pile_of = name -> pile (optional),
 * after_play = name -> hooks (optional), hand_size =, turn_stats = {actions=, buys=},
 * plans = bot name -> plan (optional, engine_deck_bot.c) }:
 * a new kit (the kernel's kernel.new passes its own fields). */
static int deck_kit_new(lua_State *L)
{
    engine_bundle *b = engine_deck_spec(L, "order");
    int po = lua_getfield(L, 1, "pile_of") == LUA_TTABLE ? 4 : 0;
    int ap = lua_getfield(L, 1, "after_play") == LUA_TTABLE ? 5 : 0;
    uint32_t ncards = 0, maxid = 0;
    for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            return luaL_error(L, "deck kit: cards must be keyed by name");
        uint32_t id = engine_intern_lua(b, L, -2);
        maxid = id > maxid ? id : maxid;
        ncards++;
    }
    lua_Integer npiles = luaL_len(L, 3);
    if (npiles < 0 || npiles > ENGINE_MAX_NAMES)
        return luaL_error(L, "deck kit: bad order");
    size_t size = sizeof(engine_deck_kit) + sizeof(engine_deck_card) * ncards +
                  sizeof(engine_deck_pile) * (size_t)npiles + sizeof(uint32_t) * (maxid + 1);
    engine_deck_kit *k = lua_newuserdatauv(L, size, 2); /* 6 */
    memset(k, 0, size);
    k->cards = (engine_deck_card *)(k + 1);
    k->piles = (engine_deck_pile *)(k->cards + ncards);
    k->card_of = (uint32_t *)(k->piles + npiles);
    k->nmap = maxid + 1;
    k->npiles = (uint32_t)npiles;
    for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) {
        engine_deck_card *c = &k->cards[k->ncards];
        c->name = engine_intern_lua(b, L, -2);
        c->own = intern_prefixed(b, L, "_own:", -2);
        read_card(b, L, k, c, lua_gettop(L), ap);
        k->card_of[c->name] = ++k->ncards;
    }
    read_piles(b, L, k, 3, po);
    zone_map(L, k);
    read_turn(L, k, 1);
    for (uint32_t i = 0; i < k->ntypes; i++) {
        const char *t = b->names.v[k->type_name[i]].s;
        k->treasure |= strcmp(t, "Treasure") ? 0 : 1u << i;
        k->action |= strcmp(t, "Action") ? 0 : 1u << i;
    }
    k->z_deck = intern_lit(b, L, "deck"), k->z_hand = intern_lit(b, L, "hand");
    k->z_discard = intern_lit(b, L, "discard"), k->z_play = intern_lit(b, L, "play");
    k->z_aside = intern_lit(b, L, "aside");
    k->c_active = intern_lit(b, L, "active");
    k->c_actions = intern_lit(b, L, "actions"), k->c_buys = intern_lit(b, L, "buys");
    k->c_coins = intern_lit(b, L, "coins"), k->c_turns = intern_lit(b, L, "turns");
    k->c_bought = intern_lit(b, L, "_bought");
    engine_deck_plans_read(b, L, k, 1, 6);
    k->magic = ENGINE_DECK_MAGIC;
    return 1;
}

/* ---- the module ---------------------------------------------------------------------- */

static const luaL_Reg deck_module[] = {
    {"kit", deck_kit_new},
    {"ends", engine_deck_ends_new},
    {"score_refresh", engine_deck_score_refresh_new},
    {"freeze", engine_record_freeze},
    {NULL, NULL},
};

void engine_deck_open(engine_bundle *b, lua_State *L)
{
    engine_api_add_methods(b, L, engine_deck_turn_methods);
    engine_api_add_methods(b, L, engine_deck_supply_methods);
    engine_api_add_methods(b, L, engine_deck_bot_methods);
    engine_api_add_methods(b, L, engine_deck_setup_methods);
    engine_api_add_module(b, L, "deckhand.deck", deck_module);
}
