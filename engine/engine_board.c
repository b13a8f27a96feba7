/*
 * engine_board.c: the g calls of the board kit (scripts/boardkit/) that every turn of a
 * board game makes many times: a grid's pieces or free spaces (g:tops), a piece's
 * statuses (g:gets, g:count_held, g:due) and an event's listeners (g:gather, g:pick),
 * each one C loop instead of a g call, a table read or a Lua loop step per space,
 * status or listener.
 *
 * The name lists those calls take (a grid's zone names, a status set's attribute names)
 * are module data, and module tables are frozen after load (engine_freeze.c): what a
 * frozen list holds never changes. So the first call that passes one interns its names
 * and keeps the ids in a userdata, in a registry table with weak keys keyed by the list
 * itself: an entry lives as long as its list, and a key cannot be reused by another
 * table. No script can reach that table or the userdata. A list that is not frozen (one
 * a script built, which it may change) is never kept: it is read name by name on every
 * call. Interning ten zone names and looking through the proxy cost about 2,500
 * instructions a call; a kept list costs a registry read and one table lookup. A frozen
 * table read by key (g:pick's names) keeps its contents table the same way.
 *
 * The later calls (g:fallen, g:shortfalls, and g:clash, g:status_enter and g:status_clear
 * of engine_board_combat.c and engine_board_status.c) are added to g's methods here
 * (engine_board_open), as the deck kit adds its own.
 */
#include <string.h>

#include "engine_internal.h"

/* Their addresses key the registry: the kept name lists, and the frozen sets' contents. */
static const char board_lists_key = 'l', board_sets_key = 's';

typedef struct {
    lua_Integer n;
    uint32_t ids[];
} board_names;

/* Pushes the cache table at key, made on first use (weak keys). */
static void push_cache(lua_State *L, const char *key)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE)
        return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* engine_freeze_see for a table read by key (g:pick's names): a frozen proxy's contents
 * table is kept (weak keys, keyed by the proxy), so a call does not look through the
 * proxy's metatable again. */
static void see_set(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    push_cache(L, &board_sets_key);
    int cache = lua_gettop(L);
    lua_pushvalue(L, idx);
    if (lua_rawget(L, cache) != LUA_TTABLE) {
        lua_pop(L, 1);
        engine_freeze_contents(L, idx);
        if (!lua_rawequal(L, -1, idx)) { /* a frozen proxy: its contents never change */
            lua_pushvalue(L, idx);
            lua_pushvalue(L, -2);
            lua_rawset(L, cache);
        }
    }
    lua_replace(L, idx);
    lua_pop(L, 1);
}

/* The ids of the frozen list `list` (its contents at `items`), kept in the cache at
 * `cache`. Raises when an item is not a name. */
static const board_names *remember(lua_State *L, engine_bundle *b, int list, int items, int cache)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, items);
    board_names *bn = lua_newuserdatauv(L, sizeof *bn + (size_t)n * sizeof bn->ids[0], 0);
    bn->n = n;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, items, i);
        bn->ids[i - 1] = engine_intern_lua(b, L, -1);
        lua_pop(L, 1);
    }
    lua_pushvalue(L, list);
    lua_pushvalue(L, -2);
    lua_rawset(L, cache);
    lua_pop(L, 1);
    return bn;
}

/* The ids of the frozen list at idx (n set), else NULL. */
static const uint32_t *frozen_names(lua_State *L, engine_bundle *b, int idx, lua_Integer *n)
{
    idx = lua_absindex(L, idx);
    push_cache(L, &board_lists_key);
    int cache = lua_gettop(L);
    lua_pushvalue(L, idx);
    const board_names *bn = NULL;
    if (lua_rawget(L, cache) == LUA_TUSERDATA) {
        bn = lua_touserdata(L, -1); /* kept alive by the cache while the list is */
    } else {
        engine_freeze_contents(L, idx);
        if (!lua_rawequal(L, -1, idx)) /* a frozen proxy: its contents never change */
            bn = remember(L, b, idx, lua_gettop(L), cache);
        lua_pop(L, 1);
    }
    lua_settop(L, cache - 1);
    if (!bn)
        return NULL;
    *n = bn->n;
    return bn->ids;
}

/* A list-of-names argument: its kept ids when it is frozen, else read name by name. */
typedef struct {
    int idx;
    const uint32_t *ids;
    lua_Integer n;
} board_list;

static void list_arg(lua_State *L, engine_bundle *b, int idx, board_list *bl)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    bl->idx = idx;
    bl->n = 0;
    bl->ids = frozen_names(L, b, idx, &bl->n);
    if (!bl->ids) {
        engine_freeze_see(L, idx);
        bl->n = (lua_Integer)lua_rawlen(L, idx);
    }
}

/* The name at i (from 0) of the list (its slot must stay on the stack). */
static uint32_t list_at(lua_State *L, engine_bundle *b, const board_list *bl, lua_Integer i)
{
    if (bl->ids)
        return bl->ids[i];
    lua_rawgeti(L, bl->idx, i + 1);
    uint32_t id = engine_intern_lua(b, L, -1);
    lua_pop(L, 1);
    return id;
}

static int64_t attr_of(const engine_match *m, uint32_t id, uint32_t attr)
{
    int64_t *v = engine_map_find(&m->st.attrs, (uint64_t)id << 32 | attr);
    return v ? *v : 0;
}

/* How many attributes of the list entity id holds (nonzero). */
static lua_Integer count_held(lua_State *L, engine_match *m, uint32_t id, const board_list *bl)
{
    lua_Integer held = 0;
    for (lua_Integer i = 0; i < bl->n; i++)
        held += attr_of(m, id, list_at(L, m->b, bl, i)) != 0;
    return held;
}

/* g:tops(zones, owner [, "empty"]): over the zones named in the array (all of owner
 * `owner`), the top ids of those that hold a card, in the array's order; with "empty",
 * the indices into the array of those that hold none. A board's pieces, or its free
 * spaces, in one call instead of a g:top or g:count per space (boardkit/grid.lua). */
static int board_tops(lua_State *L, engine_match *m, int32_t owner)
{
    board_list zones;
    list_arg(L, m->b, 2, &zones);
    int empty = 0;
    if (!lua_isnoneornil(L, 4)) {
        if (strcmp(luaL_checkstring(L, 4), "empty"))
            return luaL_error(L, "tops: the third argument must be \"empty\" or nil");
        empty = 1;
    }
    lua_settop(L, 4);
    lua_createtable(L, (int)zones.n, 0); /* 5: the answer */
    lua_Integer k = 0;
    for (lua_Integer i = 0; i < zones.n; i++) {
        const engine_zone *z = engine_zone_get(&m->st, list_at(L, m->b, &zones, i), owner, 0);
        int held = z && z->n > 0;
        if (empty == held)
            continue;
        lua_pushinteger(L, empty ? i + 1 : (lua_Integer)z->ids[z->n - 1]);
        lua_rawseti(L, 5, ++k);
    }
    return 1;
}

/* g:gets(id, attrs): the values of the attributes named in the array, in its order (0
 * for one never set): a piece's statuses in one call (boardkit/status.lua). */
static int board_gets(lua_State *L, engine_match *m, uint32_t id)
{
    board_list attrs;
    list_arg(L, m->b, 3, &attrs);
    lua_settop(L, 3);
    lua_createtable(L, (int)attrs.n, 0); /* 4: the answer */
    for (lua_Integer i = 0; i < attrs.n; i++) {
        lua_pushinteger(L, attr_of(m, id, list_at(L, m->b, &attrs, i)));
        lua_rawseti(L, 4, i + 1);
    }
    return 1;
}

/* g:count_held(id, attrs): how many of the attributes named in the array are nonzero on
 * entity id (boardkit/status.lua's nheld: the statuses a piece holds), without the
 * array of values g:gets builds. */
static int board_count_held(lua_State *L, engine_match *m, uint32_t id)
{
    board_list attrs;
    list_arg(L, m->b, 3, &attrs);
    lua_pushinteger(L, count_held(L, m, id, &attrs));
    return 1;
}

/* The i-th id of the array at 2, an entity of the match (else an error naming op and i):
 * g:pick's and g:due's walk over their ids. */
static uint32_t id_at(lua_State *L, const engine_match *m, lua_Integer i, const char *op)
{
    lua_rawgeti(L, 2, i);
    lua_Integer id = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (id < 1 || id > m->st.nents)
        return (uint32_t)luaL_error(L, "%s: no entity at %d", op, (int)i);
    return (uint32_t)id;
}

/* g:pick(ids, names [, attrs [, "names"]]): the ids of the array whose card name `names`
 * (a table keyed by card name) maps to a true value, or (with attrs, an array of
 * attribute names) that hold any of those attributes, in the array's order; with
 * "names", their card names too, as a second array. An event bus's listeners narrowed
 * to those that can answer (boardkit/events.lua, Wizardry's live listeners): one call
 * instead of a g:name, a table read and a g:get per status per listener. */
static int board_pick(lua_State *L, engine_match *m)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    luaL_checktype(L, 3, LUA_TTABLE);
    board_list attrs = {0, NULL, 0};
    if (!lua_isnoneornil(L, 4))
        list_arg(L, m->b, 4, &attrs);
    int names = !lua_isnoneornil(L, 5);
    if (names && strcmp(luaL_checkstring(L, 5), "names"))
        return luaL_error(L, "pick: the fourth argument must be \"names\" or nil");
    engine_freeze_see(L, 2);
    see_set(L, 3);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2), k = 0;
    lua_settop(L, 5);
    lua_createtable(L, 4, 0); /* 6: the ids */
    if (names)
        lua_createtable(L, 4, 0); /* 7: their names */
    for (lua_Integer i = 1; i <= n; i++) {
        uint32_t id = id_at(L, m, i, "pick");
        uint32_t name = m->st.ents[id - 1].name;
        lua_rawgeti(L, lua_upvalueindex(1), name);
        int keep = lua_rawget(L, 3) != LUA_TNIL && lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (!keep && (attrs.n == 0 || !count_held(L, m, id, &attrs)))
            continue;
        lua_pushinteger(L, id);
        lua_rawseti(L, 6, ++k);
        if (names) {
            lua_rawgeti(L, lua_upvalueindex(1), name);
            lua_rawseti(L, 7, k);
        }
    }
    return names ? 2 : 1;
}

/* g:gather(zones, owner1, owner2, ...): the ids of the zones named in the array, the i-th
 * zone of the i-th owner given, each bottom first, one zone after another: who listens
 * to an event, in the order triggers resolve (a wizard, its monsters, the other's...),
 * in one call instead of a g:top or g:list per zone and a Lua loop to join them. */
static int board_gather(lua_State *L, engine_match *m)
{
    board_list zones;
    list_arg(L, m->b, 2, &zones);
    if (lua_gettop(L) - 2 != zones.n)
        return luaL_error(L, "gather: %d zones but %d owners", (int)zones.n, lua_gettop(L) - 2);
    lua_createtable(L, 8, 0); /* the answer, above the owners */
    int out = lua_gettop(L);
    lua_Integer k = 0;
    for (lua_Integer i = 0; i < zones.n; i++) {
        lua_Integer owner = luaL_checkinteger(L, 3 + (int)i);
        if (owner < 0 || owner > m->np)
            return luaL_error(L, "bad owner %d", (int)owner);
        const engine_zone *z =
            engine_zone_get(&m->st, list_at(L, m->b, &zones, i), (int32_t)owner, 0);
        for (uint32_t j = 0; z && j < z->n; j++) {
            lua_pushinteger(L, z->ids[j]);
            lua_rawseti(L, out, ++k);
        }
    }
    return 1;
}

/* g:due(ids, attrs, now): the ids of the array holding any of the attributes named in
 * attrs at a value other than 0 and at most now, in the array's order: the pieces with a
 * status that ends by turn now (boardkit/status.lua's expire reads only those). */
static int board_due(lua_State *L, engine_match *m)
{
    luaL_checktype(L, 2, LUA_TTABLE);
    board_list attrs;
    list_arg(L, m->b, 3, &attrs);
    lua_Integer now = luaL_checkinteger(L, 4);
    engine_freeze_see(L, 2);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 2), k = 0;
    lua_settop(L, 4);
    lua_createtable(L, 2, 0); /* 5: the answer */
    for (lua_Integer i = 1; i <= n; i++) {
        uint32_t id = id_at(L, m, i, "due");
        for (lua_Integer a = 0; a < attrs.n; a++) {
            int64_t v = attr_of(m, id, list_at(L, m->b, &attrs, a));
            if (v != 0 && v <= now) {
                lua_pushinteger(L, id);
                lua_rawseti(L, 5, ++k);
                break;
            }
        }
    }
    return 1;
}

/* g:fallen(zones, attr, flag, owner1, owner2, ...): over each owner in turn, the ids in the
 * zones named in the array (each zone bottom first) whose attribute attr is at most 0 or
 * whose flag (an attribute name, or false for none) is not 0: the pieces a board game's
 * death check removes (a minion at 0 health or doomed), in the order their deaths
 * resolve, in one call instead of a board walk and a g:get or two per piece after every
 * action (Elemental's and Wizardry's resolve_deaths). */
static int g_fallen(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    board_list zones;
    list_arg(L, m->b, 2, &zones);
    luaL_checktype(L, 3, LUA_TSTRING);
    uint32_t attr = engine_intern_lua(m->b, L, 3), flag = 0;
    if (lua_toboolean(L, 4)) {
        luaL_checktype(L, 4, LUA_TSTRING);
        flag = engine_intern_lua(m->b, L, 4);
    }
    int top = lua_gettop(L);
    lua_createtable(L, 2, 0); /* the answer, above the owners */
    int out = top + 1;
    lua_Integer k = 0;
    for (int a = 5; a <= top; a++) {
        lua_Integer owner = luaL_checkinteger(L, a);
        if (owner < 0 || owner > m->np)
            return luaL_error(L, "bad owner %d", (int)owner);
        for (lua_Integer i = 0; i < zones.n; i++) {
            const engine_zone *z =
                engine_zone_get(&m->st, list_at(L, m->b, &zones, i), (int32_t)owner, 0);
            for (uint32_t j = 0; z && j < z->n; j++) {
                uint32_t id = z->ids[j];
                if (attr_of(m, id, attr) > 0 && (!flag || attr_of(m, id, flag) == 0))
                    continue;
                lua_pushinteger(L, id);
                lua_rawseti(L, out, ++k);
            }
        }
    }
    return 1;
}

/* g:shortfalls(zone, owner, needs, have): for the cards in the zone, the sums over them of
 * what each lacks of each resource: entry i of the answer is the sum of max(0, need[i] -
 * have[i]), need the array `needs` (a table keyed by card name) holds for the card's name
 * (none: needs nothing). A bot's "which resource does my hand (or deck) lack most" in one
 * call instead of a g:list and a Lua loop with three table reads per card. */
static int g_shortfalls(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    lua_Integer owner = luaL_checkinteger(L, 3);
    if (owner < 0 || owner > m->np)
        return luaL_error(L, "bad owner %d", (int)owner);
    const engine_zone *z =
        engine_zone_get(&m->st, engine_intern_lua(m->b, L, 2), (int32_t)owner, 0);
    luaL_checktype(L, 4, LUA_TTABLE);
    luaL_checktype(L, 5, LUA_TTABLE);
    lua_settop(L, 5);
    see_set(L, 4);
    engine_freeze_see(L, 5);
    lua_Integer n = (lua_Integer)lua_rawlen(L, 5);
    if (n > 16)
        return luaL_error(L, "shortfalls: at most 16 resources");
    lua_Integer have[16], sum[16] = {0};
    for (lua_Integer i = 0; i < n; i++) {
        lua_rawgeti(L, 5, i + 1);
        have[i] = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    for (uint32_t j = 0; z && j < z->n; j++) {
        lua_rawgeti(L, lua_upvalueindex(1), m->st.ents[z->ids[j] - 1].name);
        if (lua_rawget(L, 4) == LUA_TTABLE) {
            engine_freeze_see(L, -1);
            for (lua_Integer i = 0; i < n; i++) {
                lua_rawgeti(L, -1, i + 1);
                lua_Integer d = lua_tointeger(L, -1) - have[i];
                lua_pop(L, 1);
                if (d > 0)
                    sum[i] += d;
            }
        }
        lua_pop(L, 1);
    }
    lua_createtable(L, (int)n, 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_pushinteger(L, sum[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int g_clash(lua_State *L)
{
    return engine_board_clash(L, engine_api_match(L, 1));
}

static int g_status_enter(lua_State *L)
{
    return engine_board_status_enter(L, engine_api_match(L, 1));
}

static int g_status_clear(lua_State *L)
{
    return engine_board_status_clear(L, engine_api_match(L, 1));
}

/* The g methods: the match, and the owner or entity they name, checked as engine_api.c's
 * own are. */
static int g_tops(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    return board_tops(L, m, engine_api_owner(L, m, 3));
}

static int g_pick(lua_State *L)
{
    return board_pick(L, engine_api_match(L, 0));
}

static int g_gather(lua_State *L)
{
    return board_gather(L, engine_api_match(L, 0));
}

static int g_due(lua_State *L)
{
    return board_due(L, engine_api_match(L, 0));
}

static int g_gets(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    return board_gets(L, m, engine_api_entity(L, m, 2));
}

static int g_count_held(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    return board_count_held(L, m, engine_api_entity(L, m, 2));
}

static const luaL_Reg board_methods[] = {
    {"tops", g_tops},
    {"pick", g_pick},
    {"gather", g_gather},
    {"due", g_due},
    {"gets", g_gets},
    {"count_held", g_count_held},
    {"fallen", g_fallen},
    {"shortfalls", g_shortfalls},
    {"clash", g_clash},
    {"status_enter", g_status_enter},
    {"status_clear", g_status_clear},
    {NULL, NULL},
};

void engine_board_open(engine_bundle *b, lua_State *L)
{
    engine_api_add_methods(b, L, board_methods);
}
