/*
 * engine_api.c: the `g` handle, the only door from a script to its match
 * (docs/SCRIPTING.md lists the calls).
 *
 * g is a full userdata holding the match pointer; it is the only full userdata the
 * sandbox ever sees, so a magic number is check enough and no registry lookup is paid
 * per call. Every method gets the bundle's table of interned name strings as upvalue 1,
 * so returning a card or zone name pushes an existing string instead of hashing a new
 * one. Player numbers are 1-based here and owner 0 is "shared"; the C state keeps the
 * same numbering and views translate to 0-based seats.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define NAMES lua_upvalueindex(1)

static engine_match *gm(lua_State *L)
{
    engine_g *g = lua_touserdata(L, 1);
    if (!g || lua_type(L, 1) != LUA_TUSERDATA || g->magic != ENGINE_G_MAGIC)
        luaL_error(L, "g expected (call it as g:method(...))");
    if (!g->m)
        luaL_error(L, "this match is gone");
    return g->m;
}

/* gm for the calls that change the match: refused while a bot is only asked for an
 * answer (engine_match_bot_answer), since nothing it did there would be logged. */
static engine_match *gm_mut(lua_State *L)
{
    engine_match *m = gm(L);
    if (m->asking_bot)
        luaL_error(L, "a bot may not change the match");
    return m;
}

static int player_arg(lua_State *L, engine_match *m, int i)
{
    lua_Integer p = luaL_checkinteger(L, i);
    if (p < 1 || p > m->np)
        luaL_error(L, "bad player %d", (int)p);
    return (int)p;
}

static int32_t owner_arg(lua_State *L, engine_match *m, int i)
{
    lua_Integer p = luaL_checkinteger(L, i);
    if (p < 0 || p > m->np)
        luaL_error(L, "bad owner %d", (int)p);
    return (int32_t)p;
}

static uint32_t entity_arg(lua_State *L, engine_match *m, int i)
{
    lua_Integer id = luaL_checkinteger(L, i);
    if (id < 1 || id > m->st.nents)
        luaL_error(L, "no entity %d", (int)id);
    return (uint32_t)id;
}

int32_t engine_api_owner(lua_State *L, engine_match *m, int i)
{
    return owner_arg(L, m, i);
}

uint32_t engine_api_entity(lua_State *L, engine_match *m, int i)
{
    return entity_arg(L, m, i);
}

static engine_zone *zone_arg(lua_State *L, engine_match *m, int i, int create)
{
    uint32_t name = engine_intern_lua(m->b, L, i);
    int32_t owner = owner_arg(L, m, i + 1);
    engine_zone *z = engine_zone_get(&m->st, name, owner, create);
    if (!z && create)
        luaL_error(L, "out of memory");
    return z;
}

static void push_name(lua_State *L, uint32_t id)
{
    lua_rawgeti(L, NAMES, id);
}

static int g_nplayers(lua_State *L)
{
    lua_pushinteger(L, gm(L)->np);
    return 1;
}

static int g_player_name(lua_State *L)
{
    engine_match *m = gm(L);
    lua_pushstring(L, m->names[player_arg(L, m, 2) - 1]);
    return 1;
}

/* g:labels(p): false when player p's decisions are answered inline by a bot (deckhand
 * sim, the search's play-outs, bot seats of a match): no client and no search tree sees
 * their options then, so a game whose bots read no labels may leave them out. */
static int g_labels(lua_State *L)
{
    engine_match *m = gm(L);
    lua_pushboolean(L, m->bot_ref[player_arg(L, m, 2) - 1] == LUA_NOREF);
    return 1;
}

/* g:bot(p): the name of the bot that answers player p's decisions inline ("default",
 * "big_money", ...; a sim's seats, the search's play-outs, bot seats of a match), or nil
 * when p's decisions are put to a person or a search tree. A game may then ask that bot
 * for its choice by name instead of building the options (docs/SCRIPTING.md). */
static int g_bot(lua_State *L)
{
    engine_match *m = gm(L);
    int seat = player_arg(L, m, 2) - 1;
    if (m->bot_ref[seat] == LUA_NOREF)
        lua_pushnil(L);
    else
        lua_pushstring(L, m->bot_name[seat]);
    return 1;
}

static int g_option(lua_State *L)
{
    engine_match *m = gm(L);
    const char *k = luaL_checkstring(L, 2);
    const char *p = m->opts;
    for (size_t i = 0; i < m->nopts; i++) {
        const char *v = p + strlen(p) + 1;
        if (!strcmp(p, k)) {
            lua_pushstring(L, v);
            return 1;
        }
        p = v + strlen(v) + 1;
    }
    lua_pushnil(L);
    return 1;
}

/* g:new(card, zone, owner [, n]): n entities (default 1), one after another on top of
 * the zone, as n calls would make them (a supply pile, a starting deck, in one call);
 * their ids are consecutive. Returns the first id, or nil when n is 0 (and then the
 * zone is not created, as no call would have created it). */
static int g_new(lua_State *L)
{
    engine_match *m = gm_mut(L);
    if (lua_type(L, 2) == LUA_TTABLE)
        return engine_api_new_list(L, m);
    uint32_t card = engine_intern_lua(m->b, L, 2);
    lua_Integer n = luaL_optinteger(L, 5, 1);
    if (n < 0)
        return luaL_error(L, "new: n must be at least 0");
    engine_zone *z = zone_arg(L, m, 3, n > 0);
    if (n == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushinteger(L, engine_api_new_n(L, m, card, z, n));
    return 1;
}

static int g_name(lua_State *L)
{
    engine_match *m = gm(L);
    push_name(L, m->st.ents[entity_arg(L, m, 2) - 1].name);
    return 1;
}

static int g_zone_of(lua_State *L)
{
    engine_match *m = gm(L);
    const engine_zone *z = &m->st.zones[m->st.ents[entity_arg(L, m, 2) - 1].zone];
    push_name(L, z->name);
    lua_pushinteger(L, z->owner);
    return 2;
}

/* The optional "top"|"bottom" argument at i: 1 for the bottom. */
static int where_arg(lua_State *L, int i, const char *fn)
{
    if (lua_isnoneornil(L, i))
        return 0;
    const char *w = luaL_checkstring(L, i);
    if (!strcmp(w, "bottom"))
        return 1;
    if (strcmp(w, "top"))
        luaL_error(L, "%s: where must be \"top\" or \"bottom\"", fn);
    return 0;
}

/* g:move(id or ids, zone, owner [, where]): an array of ids moves them one by one in its
 * order (a hand's treasures into play), as that many calls would; an empty one moves
 * nothing and creates no zone. */
static int g_move(lua_State *L)
{
    engine_match *m = gm_mut(L);
    int many = lua_type(L, 2) == LUA_TTABLE;
    if (many)
        engine_freeze_see(L, 2);
    lua_Integer n = many ? (lua_Integer)lua_rawlen(L, 2) : 1;
    uint32_t id = many ? 0 : entity_arg(L, m, 2);
    engine_zone *z = zone_arg(L, m, 3, n > 0);
    int bottom = where_arg(L, 5, "move");
    for (lua_Integer i = 1; i <= n; i++) {
        if (many) {
            lua_rawgeti(L, 2, i);
            int ok;
            lua_Integer v = lua_tointegerx(L, -1, &ok);
            lua_pop(L, 1);
            if (!ok || v < 1 || v > m->st.nents)
                return luaL_error(L, "move: ids[%d] is no entity", (int)i);
            id = (uint32_t)v;
        }
        if (engine_entity_move(&m->st, id, (uint32_t)(z - m->st.zones), bottom) < 0)
            return luaL_error(L, "out of memory");
    }
    return 0;
}

/* g:move_all(from, owner, to, owner [, where]): the whole zone, in order, in one call
 * (clean-up, reshuffles). Returns how many cards moved. */
static int g_move_all(lua_State *L)
{
    engine_match *m = gm_mut(L);
    engine_zone *from = zone_arg(L, m, 2, 0);
    uint32_t fi = from ? (uint32_t)(from - m->st.zones) : 0, n = from ? from->n : 0;
    engine_zone *to = zone_arg(L, m, 4, 1); /* may move m->st.zones: from is stale */
    int bottom = where_arg(L, 6, "move_all");
    if (n && engine_zone_move_all(&m->st, fi, (uint32_t)(to - m->st.zones), bottom) < 0)
        return luaL_error(L, "out of memory");
    lua_pushinteger(L, n);
    return 1;
}

/* g:deal(from, owner, to, owner, n): up to n cards, one at a time, from the top of one
 * zone onto the top of another (a draw). Returns the array of moved ids, in order. */
static int g_deal(lua_State *L)
{
    engine_match *m = gm_mut(L);
    engine_zone *from = zone_arg(L, m, 2, 0);
    uint32_t fi = from ? (uint32_t)(from - m->st.zones) : 0;
    engine_zone *to = zone_arg(L, m, 4, 1);
    uint32_t ti = (uint32_t)(to - m->st.zones);
    lua_Integer n = luaL_checkinteger(L, 6);
    if (!from || n < 0)
        n = 0;
    if (n > m->st.zones[fi].n)
        n = m->st.zones[fi].n;
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 1; i <= n; i++) {
        engine_zone *f = &m->st.zones[fi];
        uint32_t id = f->ids[f->n - 1];
        if (engine_entity_move(&m->st, id, ti, 0) < 0)
            return luaL_error(L, "out of memory");
        lua_pushinteger(L, id);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

static int g_count(lua_State *L)
{
    engine_match *m = gm(L);
    engine_zone *z = zone_arg(L, m, 2, 0);
    lua_pushinteger(L, z ? z->n : 0);
    return 1;
}

/* g:open_zone(zone, owner): the zone exists from now on (empty when it was not there), so
 * every view lists it: a board's empty spaces are drawn before anything stands there. */
static int g_open_zone(lua_State *L)
{
    zone_arg(L, gm_mut(L), 2, 1);
    return 0;
}

/* The array of zone names at argument 2 (all of the owner at argument 3) that g:count_empty
 * and g:tops walk: its length, and the owner into *owner. */
static lua_Integer zone_list_arg(lua_State *L, engine_match *m, int32_t *owner)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    engine_freeze_see(L, 2);
    *owner = owner_arg(L, m, 3);
    return (lua_Integer)lua_rawlen(L, 2);
}

/* The zone named at index i of that array, or NULL when never used. */
static const engine_zone *zone_list_at(lua_State *L, engine_match *m, lua_Integer i, int32_t owner)
{
    lua_rawgeti(L, 2, i);
    const engine_zone *z = engine_zone_get(&m->st, engine_intern_lua(m->b, L, -1), owner, 0);
    lua_pop(L, 1);
    return z;
}

/* g:count_empty(zones, owner): how many of the zones named in the array hold no card (a
 * zone never used counts as empty). One call instead of a g:count per supply pile in
 * the end-of-game check asked after every turn (docs/BENCHMARKS.md). */
static int g_count_empty(lua_State *L)
{
    engine_match *m = gm(L);
    int32_t owner;
    lua_Integer n = zone_list_arg(L, m, &owner), empty = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        const engine_zone *z = zone_list_at(L, m, i, owner);
        empty += !z || z->n == 0;
    }
    lua_pushinteger(L, empty);
    return 1;
}

static int g_at(lua_State *L)
{
    engine_match *m = gm(L);
    engine_zone *z = zone_arg(L, m, 2, 0);
    lua_Integer i = luaL_checkinteger(L, 4);
    if (!z || i < 1 || i > z->n)
        lua_pushnil(L);
    else
        lua_pushinteger(L, z->ids[i - 1]);
    return 1;
}

static int g_top(lua_State *L)
{
    engine_match *m = gm(L);
    engine_zone *z = zone_arg(L, m, 2, 0);
    if (!z || z->n == 0)
        lua_pushnil(L);
    else
        lua_pushinteger(L, z->ids[z->n - 1]);
    return 1;
}

/* g:list(zone, owner [, names [, how]]): with names (a table keyed by card name), only
 * the ids whose card name it maps to a true value: hands filtered by type in one call.
 * how "names" adds the ids' card names as a second array; "distinct" also keeps only
 * the first id (from the bottom) of each card name: a hand's kinds of treasure for the
 * buy options, or the treasures played with their names, without a g:name per card. */
#define LIST_SCAN_MAX 32 /* g:list "distinct": zones up to this size are scanned back */

static int g_list(lua_State *L)
{
    engine_match *m = gm(L);
    engine_zone *z = zone_arg(L, m, 2, 0);
    uint32_t n = z ? z->n : 0;
    int filter = !lua_isnoneornil(L, 4);
    if (filter) {
        luaL_checktype(L, 4, LUA_TTABLE);
        engine_freeze_see(L, 4);
    }
    int names = 0, distinct = 0;
    if (!lua_isnoneornil(L, 5)) {
        const char *how = luaL_checkstring(L, 5);
        distinct = !strcmp(how, "distinct");
        if (!distinct && strcmp(how, "names"))
            return luaL_error(L, "list: how must be \"names\" or \"distinct\"");
        names = 1;
    }
    lua_settop(L, 5);
    /* Sized for the whole zone (a hand): growing a Lua array is a rehash per doubling. */
    lua_createtable(L, (int)n, 0); /* 6: ids */
    if (names)
        lua_createtable(L, (int)n, 0); /* 7: their names */
    /* "distinct": a hand is scanned back (cheap for a few cards); a long zone is checked
     * against a set of the names seen, so a call stays linear in the zone. */
    uint64_t seen[ENGINE_MAX_NAMES / 64 + 1]; /* 8 KiB, cleared only when used */
    int by_set = distinct && n > LIST_SCAN_MAX;
    if (by_set)
        memset(seen, 0, sizeof seen);
    lua_Integer k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id = z->ids[i], name = m->st.ents[id - 1].name;
        if (by_set) { /* an earlier card of this name was kept or dropped already */
            uint64_t bit = 1ULL << (name % 64);
            if (seen[name / 64] & bit)
                continue;
            seen[name / 64] |= bit;
        } else if (distinct) {
            uint32_t j = 0;
            while (j < i && m->st.ents[z->ids[j] - 1].name != name)
                j++;
            if (j < i)
                continue;
        }
        if (filter) {
            push_name(L, name);
            int keep = lua_rawget(L, 4) != LUA_TNIL && lua_toboolean(L, -1);
            lua_pop(L, 1);
            if (!keep)
                continue;
        }
        lua_pushinteger(L, id);
        lua_rawseti(L, 6, ++k);
        if (names) {
            push_name(L, name);
            lua_rawseti(L, 7, k);
        }
    }
    return names ? 2 : 1;
}

static int g_shuffle(lua_State *L)
{
    engine_match *m = gm_mut(L);
    engine_zone *z = zone_arg(L, m, 2, 0);
    if (z)
        engine_match_shuffle(m, z);
    return 0;
}

static int g_get(lua_State *L)
{
    engine_match *m = gm(L);
    uint32_t id = entity_arg(L, m, 2);
    uint32_t a = engine_intern_lua(m->b, L, 3);
    int64_t *v = engine_map_find(&m->st.attrs, (uint64_t)id << 32 | a);
    lua_pushinteger(L, v ? *v : 0);
    return 1;
}

static int g_set(lua_State *L)
{
    engine_match *m = gm_mut(L);
    uint32_t id = entity_arg(L, m, 2);
    uint32_t a = engine_intern_lua(m->b, L, 3);
    lua_Integer val = luaL_checkinteger(L, 4);
    int64_t *v = engine_map_put(&m->st.attrs, (uint64_t)id << 32 | a);
    if (!v)
        return luaL_error(L, "too many attributes");
    *v = val;
    return 0;
}

static int g_counter(lua_State *L)
{
    engine_match *m = gm(L);
    uint32_t name = engine_intern_lua(m->b, L, 2);
    int32_t owner = lua_isnoneornil(L, 3) ? 0 : owner_arg(L, m, 3);
    int64_t *v = engine_map_find(&m->st.counters, (uint64_t)name << 32 | (uint32_t)owner);
    lua_pushinteger(L, v ? *v : 0);
    return 1;
}

static int64_t *counter_put(lua_State *L, engine_match *m)
{
    uint32_t name = engine_intern_lua(m->b, L, 2);
    int32_t owner = owner_arg(L, m, 3);
    int64_t *v = engine_map_put(&m->st.counters, (uint64_t)name << 32 | (uint32_t)owner);
    if (!v)
        luaL_error(L, "too many counters");
    return v;
}

static int g_set_counter(lua_State *L)
{
    engine_match *m = gm_mut(L);
    lua_Integer val = luaL_checkinteger(L, 4);
    *counter_put(L, m) = val;
    return 0;
}

static int g_add_counter(lua_State *L)
{
    engine_match *m = gm_mut(L);
    lua_Integer d = luaL_checkinteger(L, 4);
    int64_t *v = counter_put(L, m);
    *v = (int64_t)((uint64_t)*v + (uint64_t)d);
    lua_pushinteger(L, *v);
    return 1;
}

static int g_random(lua_State *L)
{
    engine_match *m = gm(L);
    lua_Integer n = luaL_checkinteger(L, 2);
    if (n < 1)
        return luaL_error(L, "random: n must be at least 1");
    lua_pushinteger(L, (lua_Integer)engine_rng_below(&m->st, (uint64_t)n) + 1);
    return 1;
}

/* After a human's answer the coroutine resumes here, inside g:choose. */
static int choose_k(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    engine_match *m = gm(L);
    lua_createtable(L, (int)m->answer_n, 0);
    for (size_t i = 0; i < m->answer_n; i++) {
        lua_pushinteger(L, m->answer_ids[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int g_choose(lua_State *L)
{
    engine_match *m = gm_mut(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    int p = (int)engine_decision_int(L, 2, "player", 0, "choose");
    if (p < 1 || p > m->np)
        return luaL_error(L, "choose: bad player %d", p);
    size_t n;
    uint32_t min, max;
    engine_decision_bounds(L, 2, "choose", &n, &min, &max); /* the options at 3 */
    int seat = p - 1;
    m->choices++;
    if (m->bot_ref[seat] != LUA_NOREF) {
        lua_settop(L, 2);
        lua_rawgeti(L, LUA_REGISTRYINDEX, m->bot_ref[seat]);
        lua_pushvalue(L, 1);
        lua_pushinteger(L, p);
        lua_pushvalue(L, 2);
        lua_call(L, 3, 1);
        engine_decision_bot_ids(L, m, m->bot_name[seat], 3, n, min, max);
        return 1;
    }
    if (!lua_isyieldable(L))
        return luaL_error(L, "choose: a human decision outside a turn");
    engine_match_refresh(L, m);
    if (engine_match_set_decision(m, L, 2, 3, seat, n, min, max) < 0)
        return luaL_error(L, "out of memory");
    lua_pushvalue(L, 2); /* what a bot asked for this decision gets (engine_match_bot_answer) */
    lua_setiuservalue(L, 1, 2);
    return lua_yieldk(L, 0, 0, choose_k);
}

static const luaL_Reg g_methods[] = {
    {"nplayers", g_nplayers},
    {"player_name", g_player_name},
    {"option", g_option},
    {"labels", g_labels},
    {"bot", g_bot},
    {"logging", engine_g_logging},
    {"log_player", engine_g_log_player},
    {"new", g_new},
    {"name", g_name},
    {"zone_of", g_zone_of},
    {"move", g_move},
    {"move_all", g_move_all},
    {"open_zone", g_open_zone},
    {"deal", g_deal},
    {"count", g_count},
    {"count_empty", g_count_empty},
    {"at", g_at},
    {"top", g_top},
    {"list", g_list},
    {"shuffle", g_shuffle},
    {"get", g_get},
    {"set", g_set},
    {"counter", g_counter},
    {"set_counter", g_set_counter},
    {"add_counter", g_add_counter},
    {"random", g_random},
    {"choose", g_choose},
    {"log", engine_g_log},
    {"log_to", engine_g_log_to},
    {NULL, NULL},
};

int engine_api_open(engine_bundle *b, lua_State *L)
{
    lua_createtable(L, 0, 3); /* metatable */
    lua_createtable(L, 0, (int)(sizeof g_methods / sizeof g_methods[0]));
    lua_rawgeti(L, LUA_REGISTRYINDEX, b->names_ref);
    luaL_setfuncs(L, g_methods, 1);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "g");
    lua_setfield(L, -2, "__metatable");
    b->gmeta_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

engine_match *engine_api_match(lua_State *L, int mutating)
{
    return mutating ? gm_mut(L) : gm(L);
}

void engine_match_refresh(lua_State *L, engine_match *m)
{
    int ref = m->game->refresh_ref;
    if (ref == LUA_NOREF)
        return;
    int person = 0;
    for (int i = 0; i < m->np && !person; i++)
        person = m->bot_ref[i] == LUA_NOREF;
    if (!person)
        return;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    engine_match_push_g(m, L);
    lua_call(L, 1, 0);
}

engine_g *engine_api_new_g(lua_State *L, engine_match *m)
{
    engine_g *g = lua_newuserdatauv(L, sizeof *g, 2); /* the turn, the decision */
    g->magic = ENGINE_G_MAGIC;
    g->m = m;
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->b->gmeta_ref);
    lua_setmetatable(L, -2);
    return g;
}
