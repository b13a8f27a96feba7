/*
 * engine_board_combat.c: g:clash, the common case of a board game's attack in one g call.
 *
 * An attack between two pieces is what a board game's turn does most after asking its
 * bot, and in Lua it is some thirty g calls (statuses read, health lowered and published,
 * a log line built per hit). Most attacks are plain: neither side holds a status that
 * changes a hit (Invulnerable, Deathtouch, Sweep, Reflect...) nor a card whose text
 * reacts to one (on_hurt, on_damage), and a quiet match reads no log text. For those, this
 * does the exchange over the game's own attribute names; for any other, it does nothing
 * and says so, and the game's Lua rule runs as before. So a status or a card text still
 * goes through Lua, and which statuses and cards count is the game's data (the lists it
 * passes), read from the bundle's scripts.
 *
 * What it changes is exactly what the Lua rule does for a plain attack: one log event
 * (counted, no text), the attacker's count of attacks, then each hit above 0 (target
 * first) lowers a piece's health and publishes it (counter `HEALTH:ID`, as
 * boardkit/status.lua does for a public status) or, on a player's body (a hero), that
 * player's counter `HEALTH`, with one log event each.
 */
#include <stdio.h>

#include "engine_internal.h"

/* The names g:clash reads its attributes by (interned), and the health's text (for the
 * name of the counter that publishes it). */
typedef struct {
    uint32_t attack, health, count, body;
    const char *health_text;
} clash_names;

static int64_t *attr_slot(lua_State *L, engine_match *m, uint32_t id, uint32_t attr)
{
    int64_t *v = engine_map_put(&m->st.attrs, (uint64_t)id << 32 | attr);
    if (!v)
        luaL_error(L, "too many attributes");
    return v;
}

static int64_t attr_get(const engine_match *m, uint32_t id, uint32_t attr)
{
    int64_t *v = engine_map_find(&m->st.attrs, (uint64_t)id << 32 | attr);
    return v ? *v : 0;
}

static int64_t *counter_slot(lua_State *L, engine_match *m, uint32_t name, int32_t owner)
{
    int64_t *v = engine_map_put(&m->st.counters, (uint64_t)name << 32 | (uint32_t)owner);
    if (!v)
        luaL_error(L, "too many counters");
    return v;
}

/* One log event with no text, as g:log counts one while nobody reads the events. */
static void count_log(lua_State *L, engine_match *m)
{
    if (++m->turn_events > ENGINE_MAX_TURN_EVENTS)
        luaL_error(L, "log: a turn may emit at most %d events", ENGINE_MAX_TURN_EVENTS);
    if (engine_match_event(m, -1, -1, "log", "", 0) < 0)
        luaL_error(L, "too many events");
}

/* Does entity id hold any of the attributes named in the array at idx (its contents)? */
static int holds_any(lua_State *L, engine_match *m, uint32_t id, int idx)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        uint32_t attr = engine_intern_lua(m->b, L, -1);
        lua_pop(L, 1);
        if (attr_get(m, id, attr) != 0)
            return 1;
    }
    return 0;
}

/* Does the card name of entity id map to a true value in the table at idx? */
static int has_text(lua_State *L, engine_match *m, uint32_t id, int idx)
{
    lua_rawgeti(L, lua_upvalueindex(1), m->st.ents[id - 1].name);
    int yes = lua_rawget(L, idx) != LUA_TNIL && lua_toboolean(L, -1);
    lua_pop(L, 1);
    return yes;
}

/* n damage to piece id (n > 0): its health lowered and published, or on a body, its
 * owner's health counter. */
static void hit(lua_State *L, engine_match *m, const clash_names *cn, uint32_t id, int64_t n)
{
    const engine_zone *z = &m->st.zones[m->st.ents[id - 1].zone];
    if (z->name == cn->body) {
        int64_t *h = counter_slot(L, m, cn->health, z->owner);
        *h = (int64_t)((uint64_t)*h - (uint64_t)n);
    } else {
        int64_t *h = attr_slot(L, m, id, cn->health);
        *h = (int64_t)((uint64_t)*h - (uint64_t)n);
        int64_t left = *h;
        char name[64];
        int len = snprintf(name, sizeof name, "%s:%u", cn->health_text, (unsigned)id);
        if (len < 0 || (size_t)len >= sizeof name)
            luaL_error(L, "clash: attribute name too long");
        *counter_slot(L, m, engine_intern_c(m->b, L, name, (size_t)len), 0) = left;
    }
    count_log(L, m);
}

/* g:clash(a, t, attack, health, count, body, statuses, texts): piece a attacks t (a piece,
 * or a player's body: an entity in zone `body`) by the attributes named attack, health
 * and count (a's attacks so far), when it is plain: nobody reads the match's events, and
 * neither a nor t holds any attribute named in the array `statuses` nor has a card that
 * `texts` (a table keyed by card name) maps to a true value. Then: one log event, a's
 * count + 1, a's attack dealt to t, and t's (unless a body) dealt back to a, each hit
 * above 0 as described at the top of this file; returns true. Else changes nothing and
 * returns false: the caller's rule does the attack. Deaths are the caller's to resolve. */
int engine_board_clash(lua_State *L, engine_match *m)
{
    lua_Integer ia = luaL_checkinteger(L, 2), it = luaL_checkinteger(L, 3);
    if (ia < 1 || ia > m->st.nents || it < 1 || it > m->st.nents)
        return luaL_error(L, "clash: no entity %d", (int)(ia < 1 || ia > m->st.nents ? ia : it));
    uint32_t a = (uint32_t)ia, t = (uint32_t)it;
    clash_names cn;
    for (int i = 4; i <= 7; i++)
        luaL_checktype(L, i, LUA_TSTRING);
    luaL_checktype(L, 8, LUA_TTABLE);
    luaL_checktype(L, 9, LUA_TTABLE);
    lua_settop(L, 9);
    engine_freeze_see(L, 8);
    engine_freeze_see(L, 9);
    cn.attack = engine_intern_lua(m->b, L, 4);
    cn.health = engine_intern_lua(m->b, L, 5);
    cn.health_text = lua_tostring(L, 5);
    cn.count = engine_intern_lua(m->b, L, 6);
    cn.body = engine_intern_lua(m->b, L, 7);
    int body = m->st.zones[m->st.ents[t - 1].zone].name == cn.body;
    if (!engine_events_unread(m) || holds_any(L, m, a, 8) || has_text(L, m, a, 9) ||
        (!body && (holds_any(L, m, t, 8) || has_text(L, m, t, 9)))) {
        lua_pushboolean(L, 0);
        return 1;
    }
    count_log(L, m);
    *attr_slot(L, m, a, cn.count) += 1;
    int64_t dealt = attr_get(m, a, cn.attack);
    int64_t taken = body ? 0 : attr_get(m, t, cn.attack);
    if (dealt > 0)
        hit(L, m, &cn, t, dealt);
    if (taken > 0)
        hit(L, m, &cn, a, taken);
    lua_pushboolean(L, 1);
    return 1;
}
