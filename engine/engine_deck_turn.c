/*
 * engine_deck_turn.c: the g methods over a deck kit (engine_deck.h): the turn of a
 * deck-builder, which the kernel's Lua did in about seventy small g calls, in a few.
 *
 * Each method is one of the kernel's functions (scripts/deckbuilder/kernel.lua) and does
 * what its g calls did, in their order: the same zones created, the same counters
 * written, the same moves, shuffles and events. That is what keeps a match's state hash
 * and event counts equal with and without a kit, and it is why the code below reads like
 * a list of g calls. Event text is built only when someone reads it
 * (engine_events_unread); the events are counted either way.
 */
#include <string.h>

#include "engine_deck.h"

#define NAMES lua_upvalueindex(1)

/* ---- drawing -------------------------------------------------------------------------- */

/* g:deal("deck", p, "hand", p, n): the count moved. */
static uint32_t deal(lua_State *L, engine_match *m, const engine_deck_kit *k, int p, int64_t n)
{
    int32_t from = engine_deck_zone(L, m, k->z_deck, p, 0);
    int32_t to = engine_deck_zone(L, m, k->z_hand, p, 1);
    uint32_t have = engine_deck_zone_n(m, from);
    uint32_t moved = n < 0 ? 0 : n > have ? have : (uint32_t)n;
    for (uint32_t i = 0; i < moved; i++) {
        const engine_zone *f = &m->st.zones[from];
        engine_deck_move(L, m, f->ids[f->n - 1], to);
    }
    return moved;
}

/* kernel.reshuffle: the discard under the deck, shuffled, and told. */
static void reshuffle(lua_State *L, engine_match *m, const engine_deck_kit *k, int p)
{
    int32_t from = engine_deck_zone(L, m, k->z_discard, p, 0);
    uint32_t n = engine_deck_zone_n(m, from);
    int32_t to = engine_deck_zone(L, m, k->z_deck, p, 1);
    if (n == 0)
        return;
    if (engine_zone_move_all(&m->st, (uint32_t)from, (uint32_t)to, 1) < 0)
        luaL_error(L, "out of memory");
    engine_match_shuffle(m, &m->st.zones[to]);
    engine_deck_text t = {.n = 0};
    if (!engine_events_unread(m)) {
        engine_deck_text_player(&t, m, p);
        engine_deck_text_str(&t, " shuffles");
    }
    engine_deck_event(L, m, -1, &t);
}

/* kernel:draw: n cards (fewer when deck and discard run out), the discard shuffled in
 * only when the deck runs out. The drawn cards are the top of p's hand after it (every
 * deal puts them there); returns how many. */
static uint32_t draw(lua_State *L, engine_match *m, const engine_deck_kit *k, int p, int64_t n,
                     int quiet)
{
    uint32_t drawn = deal(L, m, k, p, n);
    if (drawn < n) {
        reshuffle(L, m, k, p);
        drawn += deal(L, m, k, p, n - drawn);
    }
    if (drawn == 0)
        return 0;
    int unread = engine_events_unread(m);
    engine_deck_text t = {.n = 0};
    if (!unread) {
        const engine_zone *h = &m->st.zones[engine_deck_zone(L, m, k->z_hand, p, 0)];
        engine_deck_text_str(&t, "You draw ");
        engine_deck_text_ids(&t, m, h->ids + h->n - drawn, drawn);
    }
    engine_deck_event(L, m, p - 1, &t);
    if (quiet)
        return drawn;
    t.n = 0;
    if (!unread) {
        engine_deck_text_player(&t, m, p);
        engine_deck_text_str(&t, " draws ");
        engine_deck_text_int(&t, drawn);
        engine_deck_text_str(&t, drawn == 1 ? " card" : " cards");
    }
    engine_deck_event(L, m, -1, &t);
    return drawn;
}

uint32_t engine_deck_draw(lua_State *L, engine_match *m, const engine_deck_kit *k, int p, int64_t n,
                          int quiet)
{
    return draw(L, m, k, p, n, quiet);
}

/* g:deck_draw(kit, p, n [, quiet]): kernel:draw; returns the drawn ids. */
static int g_deck_draw(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    uint32_t n = draw(L, m, k, p, luaL_checkinteger(L, 4), lua_toboolean(L, 5));
    lua_createtable(L, (int)n, 0);
    if (n) {
        const engine_zone *h = &m->st.zones[engine_deck_zone(L, m, k->z_hand, p, 0)];
        for (uint32_t i = 0; i < n; i++) {
            lua_pushinteger(L, h->ids[h->n - n + i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
    }
    return 1;
}

/* kernel:cleanup: play and hand to the discard, a new hand. */
void engine_deck_cleanup(lua_State *L, engine_match *m, const engine_deck_kit *k, int p)
{
    uint32_t from[2] = {k->z_play, k->z_hand};
    for (int i = 0; i < 2; i++) {
        int32_t f = engine_deck_zone(L, m, from[i], p, 0);
        uint32_t n = engine_deck_zone_n(m, f);
        int32_t to = engine_deck_zone(L, m, k->z_discard, p, 1);
        if (n && engine_zone_move_all(&m->st, (uint32_t)f, (uint32_t)to, 0) < 0)
            luaL_error(L, "out of memory");
    }
    draw(L, m, k, p, k->hand_size, 1);
}

/* g:deck_cleanup(kit, p): kernel:cleanup. */
static int g_deck_cleanup(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    engine_deck_cleanup(L, m, k, engine_deck_player(L, m, 3));
    return 0;
}

/* kernel:start_turn after its hooks: the turn's counters and "<name>'s turn N".
 * Returns N. */
int64_t engine_deck_turn_start(lua_State *L, engine_match *m, const engine_deck_kit *k, int p)
{
    int64_t turns = engine_deck_add(L, m, k->c_turns, p, 1);
    *engine_deck_slot(L, m, k->c_actions, 0) = k->turn_actions;
    *engine_deck_slot(L, m, k->c_buys, 0) = k->turn_buys;
    *engine_deck_slot(L, m, k->c_coins, 0) = 0;
    *engine_deck_slot(L, m, k->c_bought, 0) = 0;
    engine_deck_text t = {.n = 0};
    if (!engine_events_unread(m)) {
        engine_deck_text_player(&t, m, p);
        engine_deck_text_str(&t, "'s turn ");
        engine_deck_text_int(&t, turns);
    }
    engine_deck_event(L, m, -1, &t);
    return turns;
}

/* g:deck_start_turn(kit, p): engine_deck_start. Returns N. */
static int g_deck_start_turn(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    lua_pushinteger(L, engine_deck_turn_start(L, m, k, engine_deck_player(L, m, 3)));
    return 1;
}

/* ---- treasures ------------------------------------------------------------------------ */

static int is_treasure(const engine_match *m, const engine_deck_kit *k, uint32_t id)
{
    const engine_deck_card *c = engine_deck_card_of(k, m->st.ents[id - 1].name);
    return c && (c->types & k->treasure);
}

/* Moves p's treasures from hand into play, in hand order (g:move of g:list's ids), and
 * logs them; returns how many (they are then the top of p's play zone). */
uint32_t engine_deck_to_play(lua_State *L, engine_match *m, const engine_deck_kit *k, int p,
                             int32_t *play)
{
    int32_t hand = engine_deck_zone(L, m, k->z_hand, p, 0);
    uint32_t n = 0;
    for (uint32_t i = 0; i < engine_deck_zone_n(m, hand); i++)
        n += (uint32_t)is_treasure(m, k, m->st.zones[hand].ids[i]);
    if (n == 0)
        return 0;
    *play = engine_deck_zone(L, m, k->z_play, p, 1);
    for (uint32_t i = 0; i < m->st.zones[hand].n;) {
        uint32_t id = m->st.zones[hand].ids[i];
        if (is_treasure(m, k, id))
            engine_deck_move(L, m, id, *play); /* the next card slides down to i */
        else
            i++;
    }
    const engine_zone *z = &m->st.zones[*play];
    engine_deck_text t = {.n = 0};
    if (!engine_events_unread(m)) {
        engine_deck_text_player(&t, m, p);
        engine_deck_text_str(&t, " plays ");
        engine_deck_text_ids(&t, m, z->ids + z->n - n, n);
    }
    engine_deck_event(L, m, -1, &t);
    return n;
}

/* g:deck_treasures(kit, p): kernel:play_treasures. Plain treasures' coins are added
 * here, at once, before the first treasure that does more. Returns what a buy decision
 * reads then, the coins and buys counters and p's turns counter, and when a treasure did
 * more, the played treasures from that one on (ids, names) for the kernel to resolve in
 * Lua. */
static int g_deck_treasures(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    int32_t play = -1;
    uint32_t n = engine_deck_to_play(L, m, k, p, &play), i = 0;
    const uint32_t *ids = n ? m->st.zones[play].ids + m->st.zones[play].n - n : NULL;
    int64_t coins = 0;
    for (; i < n; i++) {
        const engine_deck_card *c = engine_deck_card_of(k, m->st.ents[ids[i] - 1].name);
        if (!(c->flags & ENGINE_DECK_PLAIN))
            break;
        coins += c->coins;
    }
    if (coins)
        engine_deck_add(L, m, k->c_coins, 0, coins);
    lua_pushinteger(L, engine_deck_counter(m, k->c_coins, 0));
    lua_pushinteger(L, engine_deck_counter(m, k->c_buys, 0));
    lua_pushinteger(L, engine_deck_counter(m, k->c_turns, p));
    if (i == n)
        return 3;
    lua_createtable(L, (int)(n - i), 0);
    lua_createtable(L, (int)(n - i), 0);
    for (uint32_t j = i; j < n; j++) {
        lua_pushinteger(L, ids[j]);
        lua_rawseti(L, -3, (lua_Integer)(j - i + 1));
        lua_rawgeti(L, NAMES, m->st.ents[ids[j] - 1].name);
        lua_rawseti(L, -2, (lua_Integer)(j - i + 1));
    }
    return 5;
}

int engine_deck_active(lua_State *L, const engine_match *m, const engine_deck_kit *k,
                       const char *op)
{
    int64_t p = engine_deck_counter(m, k->c_active, 0);
    if (p < 1 || p > m->np)
        return luaL_error(L, "%s: no active player (%d)", op, (int)p);
    return (int)p;
}

int engine_deck_push_active(lua_State *L, const engine_match *m, int p)
{
    lua_pushinteger(L, p);
    if (m->bot_ref[p - 1] == LUA_NOREF)
        lua_pushnil(L);
    else
        lua_pushstring(L, m->bot_name[p - 1]);
    return 2;
}

/* g:deck_active(kit): the active player (the `active` counter, kernel:turn's first read)
 * and the name of the bot answering that player inline, or nil (g:bot). */
static int g_deck_active(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    int p = engine_deck_active(L, m, engine_deck_arg(L, 2), "deck_active");
    return engine_deck_push_active(L, m, p);
}

/* g:deck_next(kit, p): the end of p's turn, kernel:turn's last step: the next player
 * (after p, in seat order) becomes active. Returns that player. */
static int g_deck_next(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int next = engine_deck_player(L, m, 3) % m->np + 1;
    *engine_deck_slot(L, m, k->c_active, 0) = next;
    lua_pushinteger(L, next);
    return 1;
}

/* ---- actions ------------------------------------------------------------------------- */

/* g:deck_actions(kit, p): what the action phase may offer now: nil when no action is
 * left or p's hand holds no Action card, else the names of the Action cards in hand, one
 * per name, first from the bottom (the phase's options, k:hand_kinds). No table is
 * made when there is nothing to offer, the common case of a money deck. */
static int g_deck_actions(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    lua_settop(L, 3);
    int32_t hand = engine_deck_zone(L, m, k->z_hand, p, 0);
    if (engine_deck_counter(m, k->c_actions, 0) <= 0 || hand < 0)
        return 0;
    /* the kinds found so far, a bit per card of the kit (linear in the hand, which a
     * script sizes) */
    uint64_t small[64], *seen = small;
    size_t words = (k->ncards + 63) / 64;
    if (words > 64)
        seen = lua_newuserdatauv(L, sizeof(uint64_t) * words, 0); /* 4 */
    memset(seen, 0, sizeof(uint64_t) * words);
    int t = lua_gettop(L) + 1;
    lua_Integer n = 0;
    for (uint32_t i = 0; i < m->st.zones[hand].n; i++) {
        uint32_t name = m->st.ents[m->st.zones[hand].ids[i] - 1].name;
        const engine_deck_card *c = engine_deck_card_of(k, name);
        if (!c || !(c->types & k->action))
            continue;
        size_t ci = (size_t)(c - k->cards);
        if (seen[ci / 64] & (1ULL << (ci % 64)))
            continue;
        seen[ci / 64] |= 1ULL << (ci % 64);
        if (n == 0)
            lua_createtable(L, 4, 0); /* t */
        lua_rawgeti(L, NAMES, name);
        lua_rawseti(L, t, ++n);
    }
    return n ? 1 : 0;
}

/* g:deck_play(kit, p, name): what the kernel's action phase does with a chosen Action:
 * one action spent, the first card of that name in p's hand (from the bottom: the one
 * the phase's option names) put into play, "<name> plays <Card>". Returns its id; the
 * kernel resolves it. Raises, naming the player (and the bot), when name is not an
 * Action card in p's hand or no action is left: a named choice is checked by the rule
 * that lists the options. */
static int g_deck_play(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    const engine_deck_card *c = engine_deck_card_of(k, engine_intern_lua(m->b, L, 4));
    const char *name = lua_tostring(L, 4);
    if (!c || !(c->types & k->action))
        return engine_deck_refuse(L, m, p, "play", name, "it is not an Action card");
    int32_t hand = engine_deck_zone(L, m, k->z_hand, p, 0);
    uint32_t id = 0;
    for (uint32_t i = 0; i < engine_deck_zone_n(m, hand) && !id; i++)
        if (m->st.ents[m->st.zones[hand].ids[i] - 1].name == c->name)
            id = m->st.zones[hand].ids[i];
    if (!id)
        return engine_deck_refuse(L, m, p, "play", name, "there is none in hand");
    if (engine_deck_counter(m, k->c_actions, 0) <= 0)
        return engine_deck_refuse(L, m, p, "play", name, "no action is left");
    engine_deck_add(L, m, k->c_actions, 0, -1);
    engine_deck_move(L, m, id, engine_deck_zone(L, m, k->z_play, p, 1));
    engine_deck_text t = {.n = 0};
    if (!engine_events_unread(m)) {
        engine_deck_text_player(&t, m, p);
        engine_deck_text_str(&t, " plays ");
        engine_deck_text_add(&t, engine_deck_name(m, id)->s, engine_deck_name(m, id)->len);
    }
    engine_deck_event(L, m, -1, &t);
    lua_pushinteger(L, id);
    return 1;
}

/* g:deck_resolve(kit, p, name): the data keywords of a card being resolved, in the
 * kernel's order: +cards (a draw, told), +actions, +buys, +coins. Its on_play and the
 * after_play hooks are the kernel's, in Lua. */
static int g_deck_resolve(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    const engine_deck_card *c = engine_deck_card_of(k, engine_intern_lua(m->b, L, 4));
    if (!c)
        return luaL_error(L, "deck_resolve: no card data for %s", lua_tostring(L, 4));
    if (c->flags & ENGINE_DECK_CARDS)
        draw(L, m, k, p, c->cards, 0);
    if (c->flags & ENGINE_DECK_ACTIONS)
        engine_deck_add(L, m, k->c_actions, 0, c->actions);
    if (c->flags & ENGINE_DECK_BUYS)
        engine_deck_add(L, m, k->c_buys, 0, c->buys);
    if (c->flags & ENGINE_DECK_COINS)
        engine_deck_add(L, m, k->c_coins, 0, c->coins);
    return 0;
}

/* ---- the registry --------------------------------------------------------------------- */

const luaL_Reg engine_deck_turn_methods[] = {
    {"deck_draw", g_deck_draw},
    {"deck_cleanup", g_deck_cleanup},
    {"deck_start_turn", g_deck_start_turn},
    {"deck_treasures", g_deck_treasures},
    {"deck_actions", g_deck_actions},
    {"deck_play", g_deck_play},
    {"deck_resolve", g_deck_resolve},
    {"deck_active", g_deck_active},
    {"deck_next", g_deck_next},
    {NULL, NULL},
};
