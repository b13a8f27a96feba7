/*
 * engine_deck_bot.c: a bot's whole deck-builder turn in one g call, when its buys are
 * data (a plan) and nothing in the turn needs Lua.
 *
 * A money bot's turn is start, no Action, every treasure, a buy or two and clean-up:
 * about fifteen Lua calls and ten g calls through the kernel (scripts/deckbuilder/
 * turn.lua), which cost more than the turn's own work. A named bot (cfg.bots) may give
 * its buy strategy as a plan, read here once when the kernel builds its kit:
 *
 *   plan = { stall = { after = 60, never = { "Curse" } },     -- optional
 *            buys = { { coins = 8, "Province" },               -- first rule that holds
 *                     { coins = 6, pile_at_most = { "Province", 4 }, "Duchy" }, ... } }
 *
 * A rule holds for coins in [coins, max] (max optional) when its conditions hold:
 * pile_at_most = { card, n } (that card's supply pile holds at most n cards),
 * owns_fewer = { card, n } (p's _own:<card> counter is below n). Its array names the wish
 * list, best first: the first the coins buy (g:deck_pick's rule) is bought, none ends the
 * buys. Past stall.after turns the bot buys the dearest card it can other than `never`'s
 * (g:deck_best's rule, by cost). This is what the Lua named form of such a strategy does
 * (scripts/dominion/bots.lua), so the two play the same games.
 *
 * g:deck_bot_turn(kit) plays the active player's turn this way when that player's bot
 * has a plan and nothing in the turn needs Lua: no Action in hand (with an action to play
 * it), and every treasure in hand plain (coins only, no hook). Otherwise it changes
 * nothing and returns what g:deck_active does, for the kernel's Lua turn. The kernel
 * gives its kit plans only when its turn is the default one (kernel.lua: no
 * on_turn_start hook, the default phases, no method of the turn replaced). Every step is
 * the kit method the Lua turn would have called, in its order, so states, state hashes
 * and event counts are the same either way.
 */
#include <string.h>

#include "engine_deck.h"

/* ---- reading plans ---------------------------------------------------------------------- */

/* Raises "deck plan for bot '<bot>': <what>". */
static int plan_error(lua_State *L, const char *bot, const char *what)
{
    return luaL_error(L, "deck plan for bot '%s': %s", bot, what);
}

/* The table at idx (seen through a frozen proxy), or an error naming what it is. */
static void plan_table(lua_State *L, int idx, const char *bot, const char *what)
{
    if (!lua_istable(L, idx))
        plan_error(L, bot, lua_pushfstring(L, "%s must be a table", what));
    engine_freeze_see(L, idx);
}

/* The integer field f of the table at t; def when absent (required: an error). */
static int64_t plan_int(lua_State *L, int t, const char *f, int64_t def, int required,
                        const char *bot, const char *where)
{
    int tt = lua_getfield(L, t, f);
    if (tt == LUA_TNIL && !required) {
        lua_pop(L, 1);
        return def;
    }
    int64_t v = (int64_t)lua_tointeger(L, -1);
    if (!lua_isinteger(L, -1))
        plan_error(L, bot, lua_pushfstring(L, "%s.%s must be an integer", where, f));
    lua_pop(L, 1);
    return v;
}

/* The card name at the top of the stack (popped), interned; it must be a card of k
 * unless any is set (a card to avoid may be one a game sharing the plan lacks). */
static uint32_t plan_card(engine_bundle *b, lua_State *L, const engine_deck_kit *k, int any,
                          const char *bot, const char *where)
{
    if (lua_type(L, -1) != LUA_TSTRING)
        plan_error(L, bot, lua_pushfstring(L, "%s must be a card name", where));
    uint32_t id = engine_intern_lua(b, L, -1);
    if (!any && !engine_deck_card_of(k, id))
        plan_error(L, bot,
                   lua_pushfstring(L, "%s names %s, which is no card of the game", where,
                                   lua_tostring(L, -1)));
    lua_pop(L, 1);
    return id;
}

/* A condition { card, n } at field f of the rule at t: *card 0 when absent. */
static void plan_cond(engine_bundle *b, lua_State *L, const engine_deck_kit *k, int t,
                      const char *f, uint32_t *card, int64_t *n, const char *bot, const char *where)
{
    *card = 0;
    if (lua_getfield(L, t, f) == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    const char *at = lua_pushfstring(L, "%s.%s", where, f);
    int c = lua_gettop(L) - 1;
    plan_table(L, c, bot, at);
    lua_geti(L, c, 1);
    *card = plan_card(b, L, k, 0, bot, at);
    lua_geti(L, c, 2);
    *n = (int64_t)lua_tointeger(L, -1);
    if (!lua_isinteger(L, -1) || lua_rawlen(L, c) != 2)
        plan_error(L, bot, lua_pushfstring(L, "%s must be { card, integer }", at));
    lua_pop(L, 3);
}

/* Every field of the rule at t must be one this file reads: a misspelt condition would
 * otherwise be a rule that always holds. */
static void plan_fields(lua_State *L, int t, const char *bot, const char *where)
{
    static const char *const known[] = {"coins", "max", "pile_at_most", "owns_fewer", NULL};
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1)) {
        if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n)
            continue;
        int i = 0;
        while (known[i] &&
               !(lua_type(L, -2) == LUA_TSTRING && !strcmp(known[i], lua_tostring(L, -2))))
            i++;
        if (!known[i])
            plan_error(L, bot,
                       lua_pushfstring(L, "%s has an unknown field %s", where,
                                       luaL_tolstring(L, -2, NULL)));
    }
}

/* The rule at the top of the stack (popped) into r. */
static void plan_rule(engine_bundle *b, lua_State *L, const engine_deck_kit *k, engine_deck_rule *r,
                      const char *bot, lua_Integer i)
{
    const char *where = lua_pushfstring(L, "buys[%d]", (int)i);
    int t = lua_gettop(L) - 1;
    plan_table(L, t, bot, where);
    plan_fields(L, t, bot, where);
    r->min = plan_int(L, t, "coins", 0, 1, bot, where);
    r->max = plan_int(L, t, "max", INT64_MAX, 0, bot, where);
    plan_cond(b, L, k, t, "pile_at_most", &r->left_card, &r->left_max, bot, where);
    if (r->left_card) {
        lua_pushfstring(L, "supply:%s", b->names.v[r->left_card].s);
        r->left_zone = engine_intern_lua(b, L, -1);
        lua_pop(L, 1);
    }
    plan_cond(b, L, k, t, "owns_fewer", &r->owns_card, &r->owns_below, bot, where);
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    if (n < 1 || n > ENGINE_DECK_PLAN_WANTS)
        plan_error(L, bot,
                   lua_pushfstring(L, "%s must name 1 to %d cards", where, ENGINE_DECK_PLAN_WANTS));
    for (lua_Integer j = 1; j <= n; j++) {
        lua_rawgeti(L, t, j);
        r->wants[r->nwants++] = plan_card(b, L, k, 0, bot, where);
    }
    lua_pop(L, 2);
}

/* stall = { after =, never = { names } } of the plan at t (optional). */
static void plan_stall(engine_bundle *b, lua_State *L, const engine_deck_kit *k,
                       engine_deck_plan *pl, int t, const char *bot)
{
    pl->stall_after = INT64_MAX;
    if (lua_getfield(L, t, "stall") == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    int s = lua_gettop(L);
    plan_table(L, s, bot, "stall");
    pl->stall_after = plan_int(L, s, "after", 0, 1, bot, "stall");
    if (lua_getfield(L, s, "never") != LUA_TNIL) {
        plan_table(L, s + 1, bot, "stall.never");
        lua_Integer n = (lua_Integer)lua_rawlen(L, s + 1);
        if (n > ENGINE_DECK_PLAN_NEVER)
            plan_error(L, bot, "stall.never names too many cards");
        for (lua_Integer j = 1; j <= n; j++) {
            lua_rawgeti(L, s + 1, j);
            pl->never[pl->nnever++] = plan_card(b, L, k, 1, bot, "stall.never");
        }
    }
    lua_pop(L, 2);
}

/* The plan at the top of the stack, of the bot named just under it, into pl. */
static void plan_read(engine_bundle *b, lua_State *L, const engine_deck_kit *k,
                      engine_deck_plan *pl)
{
    int t = lua_gettop(L);
    if (lua_type(L, t - 1) != LUA_TSTRING)
        luaL_error(L, "deck kit: plans must be keyed by bot name");
    const char *bot = lua_tostring(L, t - 1);
    pl->bot = engine_intern_lua(b, L, t - 1);
    plan_table(L, t, bot, "its plan");
    plan_stall(b, L, k, pl, t, bot);
    if (lua_getfield(L, t, "buys") == LUA_TNIL)
        plan_error(L, bot, "buys is missing");
    plan_table(L, t + 1, bot, "buys");
    lua_Integer n = (lua_Integer)lua_rawlen(L, t + 1);
    if (n < 1 || n > ENGINE_DECK_PLAN_RULES)
        plan_error(L, bot,
                   lua_pushfstring(L, "buys must hold 1 to %d rules", ENGINE_DECK_PLAN_RULES));
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, t + 1, i);
        plan_rule(b, L, k, &pl->rules[pl->nrules++], bot, i);
    }
    lua_pop(L, 1);
}

void engine_deck_plans_read(engine_bundle *b, lua_State *L, engine_deck_kit *k, int spec, int kit)
{
    if (lua_getfield(L, spec, "plans") == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    int t = lua_gettop(L);
    luaL_checktype(L, t, LUA_TTABLE);
    engine_freeze_see(L, t);
    uint32_t n = 0;
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1))
        n++;
    k->plans = lua_newuserdatauv(L, sizeof(engine_deck_plan) * (n ? n : 1), 0);
    memset(k->plans, 0, sizeof(engine_deck_plan) * (n ? n : 1));
    lua_setiuservalue(L, kit, 2);
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1))
        plan_read(b, L, k, &k->plans[k->nplans++]);
    lua_pop(L, 1);
}

/* ---- the turn ------------------------------------------------------------------------- */

/* The plan of the bot answering p, or NULL (a person, the search tree, no plan). */
static const engine_deck_plan *plan_of(const engine_match *m, const engine_deck_kit *k, int p)
{
    if (m->bot_ref[p - 1] == LUA_NOREF)
        return NULL;
    const char *bot = m->bot_name[p - 1];
    for (uint32_t i = 0; i < k->nplans; i++)
        if (!strcmp(m->b->names.v[k->plans[i].bot].s, bot))
            return &k->plans[i];
    return NULL;
}

/* 1 when p's turn needs no Lua: no Action card to play (kernel:action_phase would ask
 * the bot), every treasure in hand plain (kernel:play_treasures would resolve it). */
static int turn_is_plain(engine_match *m, const engine_deck_kit *k, int p)
{
    const engine_zone *h = engine_zone_get(&m->st, k->z_hand, p, 0);
    for (uint32_t i = 0; h && i < h->n; i++) {
        const engine_deck_card *c = engine_deck_card_of(k, m->st.ents[h->ids[i] - 1].name);
        if (!c)
            continue;
        if ((c->types & k->action) && k->turn_actions > 0)
            return 0;
        if ((c->types & k->treasure) && !(c->flags & ENGINE_DECK_PLAIN))
            return 0;
    }
    return 1;
}

/* The pile of card and its top when coins buy it (g:deck_pick's rule), else NULL. */
static const engine_deck_pile *buyable(engine_match *m, const engine_deck_kit *k, uint32_t card,
                                       int64_t coins, uint32_t *top)
{
    const engine_deck_pile *pl = engine_deck_pile_of(k, card);
    if (!pl || k->cards[pl->card].cost > coins || !(*top = engine_deck_pile_top(m, k, pl)))
        return NULL;
    return pl;
}

/* The cards in the supply pile of r's left_card: the zone k:pile names, its kernel
 * pile's, else supply:<card>. */
static int64_t pile_left(engine_match *m, const engine_deck_kit *k, const engine_deck_rule *r)
{
    const engine_deck_pile *pl = engine_deck_pile_of(k, r->left_card);
    const engine_zone *z = engine_zone_get(&m->st, pl ? pl->zone : r->left_zone, 0, 0);
    return z ? z->n : 0;
}

static int rule_holds(engine_match *m, const engine_deck_kit *k, const engine_deck_rule *r, int p,
                      int64_t coins)
{
    if (coins < r->min || coins > r->max)
        return 0;
    if (r->left_card && pile_left(m, k, r) > r->left_max)
        return 0;
    if (r->owns_card &&
        engine_deck_counter(m, engine_deck_card_of(k, r->owns_card)->own, p) >= r->owns_below)
        return 0;
    return 1;
}

/* The stall rule: of the piles coins buy, in order, the first dearest card not in never
 * (g:deck_best over costs). */
static const engine_deck_pile *dearest(engine_match *m, const engine_deck_kit *k,
                                       const engine_deck_plan *pl, int64_t coins, uint32_t *top)
{
    const engine_deck_pile *best = NULL;
    for (uint32_t i = 0; i < k->npiles; i++) {
        const engine_deck_pile *pi = &k->piles[i];
        const engine_deck_card *c = &k->cards[pi->card];
        int never = 0;
        for (uint32_t j = 0; j < pl->nnever; j++)
            never |= pl->never[j] == c->name;
        uint32_t t = 0;
        if (never || c->cost > coins || (best && c->cost <= k->cards[best->card].cost) ||
            !(t = engine_deck_pile_top(m, k, pi)))
            continue;
        best = pi, *top = t;
    }
    return best;
}

/* What the plan buys for coins on p's turn turns, or NULL: end the buys. */
static const engine_deck_pile *plan_pick(engine_match *m, const engine_deck_kit *k,
                                         const engine_deck_plan *pl, int p, int64_t coins,
                                         int64_t turns, uint32_t *top)
{
    if (turns > pl->stall_after)
        return dearest(m, k, pl, coins, top);
    for (uint32_t i = 0; i < pl->nrules; i++) {
        const engine_deck_rule *r = &pl->rules[i];
        if (!rule_holds(m, k, r, p, coins))
            continue;
        for (uint32_t j = 0; j < r->nwants; j++) {
            const engine_deck_pile *got = buyable(m, k, r->wants[j], coins, top);
            if (got)
                return got;
        }
        return NULL;
    }
    return NULL;
}

/* kernel:turn for p with plan pl: start, (no action phase), treasures, buys, clean-up,
 * the next player. */
static void bot_turn(lua_State *L, engine_match *m, const engine_deck_kit *k, int p,
                     const engine_deck_plan *pl)
{
    int64_t turns = engine_deck_turn_start(L, m, k, p);
    int32_t play = -1;
    uint32_t n = engine_deck_to_play(L, m, k, p, &play);
    int64_t coins = 0;
    for (uint32_t i = 0; i < n; i++) {
        const engine_zone *z = &m->st.zones[play];
        coins += engine_deck_card_of(k, m->st.ents[z->ids[z->n - n + i] - 1].name)->coins;
    }
    if (coins)
        engine_deck_add(L, m, k->c_coins, 0, coins);
    coins = engine_deck_counter(m, k->c_coins, 0);
    while (engine_deck_counter(m, k->c_buys, 0) > 0) {
        uint32_t top = 0;
        const engine_deck_pile *got = plan_pick(m, k, pl, p, coins, turns, &top);
        if (!got)
            break;
        engine_deck_buy(L, m, k, p, &k->cards[got->card], top);
        coins = engine_deck_counter(m, k->c_coins, 0);
    }
    engine_deck_cleanup(L, m, k, p);
    *engine_deck_slot(L, m, k->c_active, 0) = p % m->np + 1;
}

/* g:deck_bot_turn(kit): the active player's whole turn when its bot has a plan and the
 * turn needs no Lua (returns nothing); else nothing changes and it returns the active
 * player and the name of the bot answering it inline, or nil (g:deck_active). */
static int g_deck_bot_turn(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    const engine_deck_kit *k = engine_deck_arg(L, 2);
    int p = engine_deck_active(L, m, k, "deck_bot_turn");
    const engine_deck_plan *pl = plan_of(m, k, p);
    if (pl && turn_is_plain(m, k, p)) {
        bot_turn(L, engine_api_match(L, 1), k, p, pl);
        return 0;
    }
    return engine_deck_push_active(L, m, p);
}

const luaL_Reg engine_deck_bot_methods[] = {
    {"deck_bot_turn", g_deck_bot_turn},
    {NULL, NULL},
};
