/*
 * engine_api_log.c: the g methods that write the log (g:log, g:log_to, g:log_player) and
 * g:logging, which tells a script whether anyone reads the text.
 *
 * Log text is for people; a sim, a search's play-out or a rebuild has none to read, yet
 * every event is still counted (the per-seat counts are in the state hash). So the text
 * is joined here, only when someone reads it (engine_events_unread), and a script may ask
 * g:logging() to skip building pieces of its own, as long as it makes the same calls.
 */
#include <stdio.h>

#include "engine_deck.h"

/* g:logging(): whether anyone will read the text of this match's events now (false in a
 * quiet match, a rebuild, a search's copy), so a script may skip building log text. */
int engine_g_logging(lua_State *L)
{
    lua_pushboolean(L, !engine_events_unread(engine_api_match(L, 0)));
    return 1;
}

/* The text of a log event from the pieces at first..top: strings and integers as
 * written, an array of entity ids as their card names joined by ", ". Joined here rather
 * than with `..` in the script, because every Lua concatenation makes (and hashes) a new
 * string and every integer in one goes through snprintf, and logs are written on every
 * step of every turn. Sent as one event; to < 0 is every seat. */
static int log_pieces(lua_State *L, engine_match *m, int to, int first)
{
    int top = lua_gettop(L);
    if (top < first)
        return luaL_error(L, "log: text expected");
    if (++m->turn_events > ENGINE_MAX_TURN_EVENTS)
        return luaL_error(L, "log: a turn may emit at most %d events", ENGINE_MAX_TURN_EVENTS);
    if (engine_events_unread(m)) /* counted as the hash needs; no text for nobody */
        return engine_match_event(m, to, to, "log", "", 0) < 0 ? luaL_error(L, "too many events")
                                                               : 0;
    luaL_Buffer buf;
    luaL_buffinit(L, &buf); /* pushes a placeholder: the pieces stay at first..top */
    for (int i = first; i <= top; i++) {
        switch (lua_type(L, i)) {
        case LUA_TSTRING: {
            size_t len;
            const char *s = lua_tolstring(L, i, &len);
            luaL_addlstring(&buf, s, len);
            break;
        }
        case LUA_TNUMBER: {
            char num[24];
            int ok;
            lua_Integer v = lua_tointegerx(L, i, &ok);
            if (!ok)
                return luaL_error(L, "log: piece %d is not an integer", i - first + 1);
            luaL_addlstring(&buf, num, (size_t)snprintf(num, sizeof num, LUA_INTEGER_FMT, v));
            break;
        }
        case LUA_TTABLE: {
            engine_freeze_see(L, i);
            lua_Integer n = (lua_Integer)lua_rawlen(L, i);
            for (lua_Integer j = 1; j <= n; j++) {
                lua_rawgeti(L, i, j);
                int ok;
                lua_Integer id = lua_tointegerx(L, -1, &ok);
                lua_pop(L, 1);
                if (!ok || id < 1 || id > m->st.nents)
                    return luaL_error(L, "log: piece %d holds no entity at %d", i - first + 1,
                                      (int)j);
                if (j > 1)
                    luaL_addlstring(&buf, ", ", 2);
                const engine_name *nm = &m->b->names.v[m->st.ents[id - 1].name];
                luaL_addlstring(&buf, nm->s, nm->len);
            }
            break;
        }
        default:
            return luaL_error(L, "log: piece %d must be a string, integer or id array",
                              i - first + 1);
        }
    }
    if (engine_match_event(m, to, to, "log", luaL_buffaddr(&buf), luaL_bufflen(&buf)) < 0)
        return luaL_error(L, "too many events");
    return 0;
}

int engine_g_log(lua_State *L)
{
    return log_pieces(L, engine_api_match(L, 1), -1, 2);
}

/* g:log_player(p, ...): g:log(g:player_name(p), ...) in one call, the name looked up only
 * when someone reads the text (lines that start with a player's name are most lines). */
int engine_g_log_player(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    int p = engine_deck_player(L, m, 2);
    if (!engine_events_unread(m)) {
        lua_pushstring(L, m->names[p - 1]);
        lua_replace(L, 2);
    }
    return log_pieces(L, m, -1, 2);
}

int engine_g_log_to(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    return log_pieces(L, m, engine_deck_player(L, m, 2) - 1, 3);
}
