/*
 * engine_deck.c: the floor of the deck kit (engine_deck.h): how its g calls reach a
 * match's zones and counters, write its events (text only when someone reads them), refuse
 * a bot's named choice, and find the kit and its spec among their arguments. The kit's
 * construction and the module `deckhand.deck` are engine_deck_kit.c, on top of the calls
 * that use this floor (engine_deck_turn.c, engine_deck_supply.c, engine_deck_bot.c,
 * engine_deck_setup.c, engine_deck_games.c).
 */
#include <string.h>

#include "engine_deck.h"

#include "dh_str.h"

/* ---- the spec and the kit among a call's arguments ------------------------------------ */

engine_bundle *engine_deck_spec(lua_State *L, const char *field)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_getfield(L, 1, "cards"); /* 2 */
    luaL_checktype(L, 2, LUA_TTABLE);
    engine_freeze_see(L, 2);
    lua_getfield(L, 1, field); /* 3 */
    luaL_checktype(L, 3, LUA_TTABLE);
    return *(engine_bundle **)lua_getextraspace(L);
}

const engine_deck_kit *engine_deck_arg(lua_State *L, int i)
{
    const engine_deck_kit *k = lua_touserdata(L, i);
    if (!k || lua_type(L, i) != LUA_TUSERDATA || lua_rawlen(L, i) < sizeof *k ||
        k->magic != ENGINE_DECK_MAGIC)
        luaL_error(L, "deck kit expected (require(\"deckhand.deck\").kit{...})");
    return k;
}

/* ---- the state, as the g calls reach it --------------------------------------------- */

/* The index of zone (name, owner), created when create is set (as a g call that puts a
 * card there does); -1 when absent. */
int32_t engine_deck_zone(lua_State *L, engine_match *m, uint32_t name, int32_t owner, int create)
{
    engine_zone *z = engine_zone_get(&m->st, name, owner, create);
    if (!z && create)
        luaL_error(L, "out of memory");
    return z ? (int32_t)(z - m->st.zones) : -1;
}

uint32_t engine_deck_zone_n(const engine_match *m, int32_t zi)
{
    return zi < 0 ? 0 : m->st.zones[zi].n;
}

int64_t engine_deck_counter(const engine_match *m, uint32_t name, int32_t owner)
{
    int64_t *v = engine_map_find(&m->st.counters, (uint64_t)name << 32 | (uint32_t)owner);
    return v ? *v : 0;
}

/* g:add_counter / g:set_counter: the counter's slot (created). */
int64_t *engine_deck_slot(lua_State *L, engine_match *m, uint32_t name, int32_t owner)
{
    int64_t *v = engine_map_put(&m->st.counters, (uint64_t)name << 32 | (uint32_t)owner);
    if (!v)
        luaL_error(L, "too many counters");
    return v;
}

int64_t engine_deck_add(lua_State *L, engine_match *m, uint32_t name, int32_t owner, int64_t d)
{
    int64_t *v = engine_deck_slot(L, m, name, owner);
    *v = (int64_t)((uint64_t)*v + (uint64_t)d);
    return *v;
}

void engine_deck_move(lua_State *L, engine_match *m, uint32_t id, int32_t zi)
{
    if (engine_entity_move(&m->st, id, (uint32_t)zi, 0) < 0)
        luaL_error(L, "out of memory");
}

const engine_name *engine_deck_name(const engine_match *m, uint32_t id)
{
    return &m->b->names.v[m->st.ents[id - 1].name];
}

int engine_deck_player(lua_State *L, engine_match *m, int i)
{
    lua_Integer p = luaL_checkinteger(L, i);
    if (p < 1 || p > m->np)
        luaL_error(L, "bad player %d", (int)p);
    return (int)p;
}

/* ---- events --------------------------------------------------------------------------- */

void engine_deck_text_add(engine_deck_text *t, const char *s, size_t len)
{
    size_t room = sizeof t->s - t->n;
    len = len < room ? len : room;
    memcpy(t->s + t->n, s, len);
    t->n += len;
}

void engine_deck_text_str(engine_deck_text *t, const char *s)
{
    engine_deck_text_add(t, s, strlen(s));
}

void engine_deck_text_int(engine_deck_text *t, int64_t v)
{
    char num[24]; /* "%lld" by hand: snprintf cost a log line 640 instructions (issue 27) */
    size_t n = 0;
    if (v < 0)
        num[n++] = '-';
    dh_str_add_uint(num, sizeof num, &n,
                    v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
    engine_deck_text_add(t, num, n);
}

/* The names of ids[0..n), joined by ", " (g:log's id array). */
void engine_deck_text_ids(engine_deck_text *t, const engine_match *m, const uint32_t *ids,
                          uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const engine_name *nm = engine_deck_name(m, ids[i]);
        if (i)
            engine_deck_text_add(t, ", ", 2);
        engine_deck_text_add(t, nm->s, nm->len);
    }
}

/* "<player name>" starts most lines. */
void engine_deck_text_player(engine_deck_text *t, const engine_match *m, int p)
{
    engine_deck_text_str(t, m->names[p - 1]);
}

/* g:log (to < 0) or g:log_to: counted always, with its text when read. */
void engine_deck_event(lua_State *L, engine_match *m, int to, const engine_deck_text *t)
{
    if (++m->turn_events > ENGINE_MAX_TURN_EVENTS)
        luaL_error(L, "log: a turn may emit at most %d events", ENGINE_MAX_TURN_EVENTS);
    int unread = engine_events_unread(m);
    if (engine_match_event(m, to, to, "log", unread ? "" : t->s, unread ? 0 : t->n) < 0)
        luaL_error(L, "too many events");
}

int engine_deck_refuse(lua_State *L, engine_match *m, int p, const char *verb, const char *name,
                       const char *why)
{
    if (m->bot_ref[p - 1] != LUA_NOREF)
        return luaL_error(L, "deck_%s: bot '%s' (player %d) named %s, which it cannot %s: %s", verb,
                          m->bot_name[p - 1], p, name, verb, why);
    return luaL_error(L, "deck_%s: player %d cannot %s %s: %s", verb, p, verb, name, why);
}
