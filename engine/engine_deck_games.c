/*
 * engine_deck_games.c: the play run, a deck-builder's "play every card in my hand" for
 * the cards whose play only moves them, marks them and adds to counters, in one g call.
 *
 * Ascension plays a whole hand card by card (ascension/game.lua, play_all). Most of a
 * hand is the starting Apprentices and Militia and the piles' Mystics and Heavy Infantry,
 * whose play moves the card into play, marks it as played this turn, logs "<player>
 * plays Apprentice (+1 Rune)" and adds its Runes or Power: about nine g calls a card from
 * Lua. A run is built once, when the game loads, from the game's own card data
 * (require("deckhand.deck_games").run{...}: ascension/rules.lua, R.play_run), so a pushed
 * bundle that changes a card changes its run. g:deck_run(run, p) then plays, from the
 * bottom of p's hand up, every card of the run until one that is not (which Lua plays,
 * with its hooks), doing what the Lua did card by card: the same moves, attributes,
 * counters and events (counted always, their text built only when someone reads it).
 *
 * g:deck_tops is g:tops with the cards' names (Ascension's offer: the piles' and the centre
 * row's top cards, and their names, at every decision of a bot).
 *
 * A turn's start is the same idea for Ascension's per-turn counters (a turn number, eight
 * counters set back to 0, "<player>'s turn N"): twelve g calls a turn, one with
 * g:deck_start (require("deckhand.deck_games").start{...}, built when the game loads).
 */
#include <string.h>

#include "engine_deck.h"
#include "engine_deck_games.h"

#define RUN_MAGIC        0x52554e31u /* "RUN1" */
#define RUN_MAX_COUNTERS 4

typedef struct {
    int64_t add[RUN_MAX_COUNTERS]; /* what its play adds to each of the run's counters */
    uint32_t text, text_len;       /* the tail of its log line, in the run's text */
} run_card;

typedef struct {
    uint32_t magic;
    uint32_t from, to;      /* interned zone names (the player's own) */
    uint32_t mark, mark_by; /* each card's attribute, set to the counter mark_by (owner 0) */
    uint32_t ncounters, counter[RUN_MAX_COUNTERS]; /* owner 0, added in this order */
    uint32_t ncards, nmap;
    uint32_t verb_len; /* the verb is the text's start */
    run_card *cards;
    uint32_t *card_of; /* interned name -> card index + 1, 0 = not in the run */
    char *text;
} engine_deck_run;

/* ---- building a run ------------------------------------------------------------------ */

/* The interned string field k of the table at t (raises when it is not a string). */
static uint32_t name_field(engine_bundle *b, lua_State *L, int t, const char *k)
{
    if (lua_getfield(L, t, k) != LUA_TSTRING)
        luaL_error(L, "deck run: %s must be a string", k);
    uint32_t id = engine_intern_lua(b, L, -1);
    lua_pop(L, 1);
    return id;
}

/* The string field k of the table at t, or "" when absent; its length in *len. */
static const char *text_field(lua_State *L, int t, const char *k, size_t *len)
{
    int tt = lua_getfield(L, t, k);
    const char *s = "";
    *len = 0;
    if (tt == LUA_TSTRING)
        s = lua_tolstring(L, -1, len);
    else if (tt != LUA_TNIL)
        luaL_error(L, "deck run: %s must be a string", k);
    lua_pop(L, 1); /* s stays valid: the field still holds the string */
    return s;
}

/* Fills c from the card's entry at e ({ adds = {n per counter}, text = "..." }), its tail
 * copied into r's text at *at. */
static void read_run_card(lua_State *L, engine_deck_run *r, run_card *c, int e, uint32_t *at)
{
    luaL_checktype(L, e, LUA_TTABLE);
    if (lua_getfield(L, e, "adds") != LUA_TTABLE)
        luaL_error(L, "deck run: a card's adds must be an array");
    for (uint32_t i = 0; i < r->ncounters; i++) {
        lua_rawgeti(L, -1, (lua_Integer)i + 1);
        int ok;
        c->add[i] = (int64_t)lua_tointegerx(L, -1, &ok);
        if (!ok)
            luaL_error(L, "deck run: a card's adds must be integers, one per counter");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    size_t len;
    const char *s = text_field(L, e, "text", &len);
    memcpy(r->text + *at, s, len);
    c->text = *at, c->text_len = (uint32_t)len;
    *at += (uint32_t)len;
}

/* The bytes of text a run needs: the verb and every card's tail (cards at index 2). */
static size_t run_text_size(lua_State *L, int spec, int cards)
{
    size_t len, total;
    text_field(L, spec, "verb", &total);
    for (lua_pushnil(L); lua_next(L, cards); lua_pop(L, 1)) {
        luaL_checktype(L, -1, LUA_TTABLE);
        text_field(L, lua_gettop(L), "text", &len);
        total += len;
    }
    return total;
}

/* run{ from =, to =, mark =, mark_by =, verb =, counters = {names},
 *      cards = name -> { adds = {n per counter}, text = "tail of its log line" } } */
static int deck_run_new(lua_State *L)
{
    engine_bundle *b = engine_deck_spec(L, "counters");
    engine_freeze_see(L, 3);
    lua_Integer nc = luaL_len(L, 3);
    if (nc < 0 || nc > RUN_MAX_COUNTERS)
        return luaL_error(L, "deck run: at most %d counters", RUN_MAX_COUNTERS);
    uint32_t ncards = 0, maxid = 0;
    for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) {
        uint32_t id = engine_intern_lua(b, L, -2);
        maxid = id > maxid ? id : maxid;
        ncards++;
    }
    size_t ntext = run_text_size(L, 1, 2);
    size_t size = sizeof(engine_deck_run) + sizeof(run_card) * ncards +
                  sizeof(uint32_t) * (maxid + 1) + ntext + 1;
    engine_deck_run *r = lua_newuserdatauv(L, size, 0); /* 4 */
    memset(r, 0, size);
    r->cards = (run_card *)(r + 1);
    r->card_of = (uint32_t *)(r->cards + ncards);
    r->text = (char *)(r->card_of + maxid + 1);
    r->nmap = maxid + 1;
    r->ncounters = (uint32_t)nc;
    for (uint32_t i = 0; i < r->ncounters; i++) {
        lua_rawgeti(L, 3, (lua_Integer)i + 1);
        r->counter[i] = engine_intern_lua(b, L, -1);
        lua_pop(L, 1);
    }
    r->from = name_field(b, L, 1, "from"), r->to = name_field(b, L, 1, "to");
    r->mark = name_field(b, L, 1, "mark"), r->mark_by = name_field(b, L, 1, "mark_by");
    size_t len;
    const char *verb = text_field(L, 1, "verb", &len);
    memcpy(r->text, verb, len);
    uint32_t at = r->verb_len = (uint32_t)len;
    for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) {
        read_run_card(L, r, &r->cards[r->ncards], lua_gettop(L), &at);
        r->card_of[engine_intern_lua(b, L, -2)] = ++r->ncards;
    }
    lua_settop(L, 4);
    r->magic = RUN_MAGIC;
    return 1;
}

/* ---- playing a run -------------------------------------------------------------------- */

static const engine_deck_run *run_arg(lua_State *L, int i)
{
    const engine_deck_run *r = lua_touserdata(L, i);
    if (!r || lua_type(L, i) != LUA_TUSERDATA || lua_rawlen(L, i) < sizeof *r ||
        r->magic != RUN_MAGIC)
        luaL_error(L, "deck run expected (require(\"deckhand.deck_games\").run{...})");
    return r;
}

static const run_card *run_card_of(const engine_deck_run *r, uint32_t name)
{
    return name < r->nmap && r->card_of[name] ? &r->cards[r->card_of[name] - 1] : NULL;
}

/* One card of the run: moved onto `to` (index zi), marked, its line logged to everyone
 * ("<player><verb><Card><tail>", text only when read), its adds summed into sum. */
static void play_one(lua_State *L, engine_match *m, const engine_deck_run *r, int p, uint32_t id,
                     int32_t zi, int64_t mark, int64_t *sum)
{
    const run_card *c = run_card_of(r, m->st.ents[id - 1].name);
    engine_deck_move(L, m, id, zi);
    int64_t *v = engine_map_put(&m->st.attrs, (uint64_t)id << 32 | r->mark);
    if (!v)
        luaL_error(L, "too many attributes");
    *v = mark;
    engine_deck_text t;
    t.n = 0;
    if (!engine_events_unread(m)) {
        const engine_name *nm = engine_deck_name(m, id);
        engine_deck_text_player(&t, m, p);
        engine_deck_text_add(&t, r->text, r->verb_len);
        engine_deck_text_add(&t, nm->s, nm->len);
        engine_deck_text_add(&t, r->text + c->text, c->text_len);
    }
    engine_deck_event(L, m, -1, &t);
    for (uint32_t i = 0; i < r->ncounters; i++)
        sum[i] += c->add[i];
}

/* g:deck_run(run, p): plays the cards of the run from the bottom of p's `from` zone up,
 * as one play per card would (play_one), until the zone is empty or its bottom card is
 * not in the run; then adds what they add to each counter that changes, in the run's
 * order. Returns how many were played and the id of the bottom card left (nil: none). */
static int g_deck_run(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_run *r = run_arg(L, 2);
    int p = engine_deck_player(L, m, 3);
    int32_t from = engine_deck_zone(L, m, r->from, p, 0), to = -1;
    int64_t sum[RUN_MAX_COUNTERS] = {0}, mark = engine_deck_counter(m, r->mark_by, 0);
    lua_Integer n = 0;
    while (engine_deck_zone_n(m, from) > 0) {
        uint32_t id = m->st.zones[from].ids[0];
        if (!run_card_of(r, m->st.ents[id - 1].name))
            break;
        if (to < 0) /* created as g:move creates it (zone indices stay valid) */
            to = engine_deck_zone(L, m, r->to, p, 1);
        play_one(L, m, r, p, id, to, mark, sum);
        n++;
    }
    for (uint32_t i = 0; i < r->ncounters; i++)
        if (sum[i])
            engine_deck_add(L, m, r->counter[i], 0, sum[i]);
    lua_pushinteger(L, n);
    if (engine_deck_zone_n(m, from) > 0)
        lua_pushinteger(L, m->st.zones[from].ids[0]);
    else
        lua_pushnil(L);
    return 2;
}

/* ---- tops with names ------------------------------------------------------------------- */

/* g:deck_tops(zones, owner): over the zones named in the array (all of owner `owner`),
 * the top ids of those that hold a card, in the array's order, and their card names (a
 * second array): g:tops and a g:name per card in one call (what a centre row offers). */
static int g_deck_tops(lua_State *L)
{
    engine_match *m = engine_api_match(L, 0);
    luaL_checktype(L, 2, LUA_TTABLE);
    engine_freeze_see(L, 2);
    lua_Integer owner = luaL_checkinteger(L, 3), n = (lua_Integer)lua_rawlen(L, 2), k = 0;
    if (owner < 0 || owner > m->np)
        return luaL_error(L, "bad owner %d", (int)owner);
    lua_settop(L, 3);
    lua_createtable(L, (int)n, 0); /* 4: the ids */
    lua_createtable(L, (int)n, 0); /* 5: their names */
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, 2, i);
        const engine_zone *z =
            engine_zone_get(&m->st, engine_intern_lua(m->b, L, -1), (int32_t)owner, 0);
        lua_pop(L, 1);
        if (!z || z->n == 0)
            continue;
        uint32_t id = z->ids[z->n - 1];
        lua_pushinteger(L, id);
        lua_rawseti(L, 4, ++k);
        lua_rawgeti(L, lua_upvalueindex(1), m->st.ents[id - 1].name);
        lua_rawseti(L, 5, k);
    }
    return 2;
}

/* ---- a turn's start ---------------------------------------------------------------------- */

#define START_MAX_COUNTERS 16

typedef struct {
    uint32_t magic;
    uint32_t turns;                           /* the player's turn counter, + 1 */
    uint32_t nstep, step[START_MAX_COUNTERS]; /* owner 0 counters, + 1 each */
    uint32_t nzero, zero[START_MAX_COUNTERS]; /* owner 0 counters, set to 0 */
    uint32_t line_len;
    char line[64]; /* "<player><line><turns>" */
} engine_deck_start;

#define START_MAGIC 0x53545231u /* "STR1" */

/* The interned names of the array field k of the table at t into ids (at most
 * START_MAX_COUNTERS); returns their count. */
static uint32_t names_field(engine_bundle *b, lua_State *L, int t, const char *k, uint32_t *ids)
{
    if (lua_getfield(L, t, k) != LUA_TTABLE)
        luaL_error(L, "deck start: %s must be an array of counter names", k);
    engine_freeze_see(L, -1);
    lua_Integer n = luaL_len(L, -1);
    if (n < 0 || n > START_MAX_COUNTERS)
        luaL_error(L, "deck start: at most %d counters in %s", START_MAX_COUNTERS, k);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        ids[i - 1] = engine_intern_lua(b, L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return (uint32_t)n;
}

/* start{ turns =, step = {names}, zero = {names}, line = } */
static int deck_start_new(lua_State *L)
{
    engine_bundle *b = *(engine_bundle **)lua_getextraspace(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    engine_deck_start *s = lua_newuserdatauv(L, sizeof *s, 0); /* 2 */
    memset(s, 0, sizeof *s);
    s->turns = name_field(b, L, 1, "turns");
    s->nstep = names_field(b, L, 1, "step", s->step);
    s->nzero = names_field(b, L, 1, "zero", s->zero);
    size_t len;
    const char *line = text_field(L, 1, "line", &len);
    if (len >= sizeof s->line)
        return luaL_error(L, "deck start: line is too long");
    memcpy(s->line, line, len);
    s->line_len = (uint32_t)len;
    s->magic = START_MAGIC;
    return 1;
}

/* g:deck_start(start, p): the start of p's turn as its g calls would do it, in their
 * order: p's turns + 1, each step counter + 1, each zero counter set to 0, then
 * "<player><line><turns>" to everyone (text only when read). Returns p's turns. */
static int g_deck_start(lua_State *L)
{
    engine_match *m = engine_api_match(L, 1);
    const engine_deck_start *s = lua_touserdata(L, 2);
    if (!s || lua_type(L, 2) != LUA_TUSERDATA || lua_rawlen(L, 2) != sizeof *s ||
        s->magic != START_MAGIC)
        return luaL_error(L, "deck start expected (require(\"deckhand.deck_games\").start{...})");
    int p = engine_deck_player(L, m, 3);
    int64_t turns = engine_deck_add(L, m, s->turns, p, 1);
    for (uint32_t i = 0; i < s->nstep; i++)
        engine_deck_add(L, m, s->step[i], 0, 1);
    for (uint32_t i = 0; i < s->nzero; i++)
        *engine_deck_slot(L, m, s->zero[i], 0) = 0;
    engine_deck_text t;
    t.n = 0;
    if (!engine_events_unread(m)) {
        engine_deck_text_player(&t, m, p);
        engine_deck_text_add(&t, s->line, s->line_len);
        engine_deck_text_int(&t, turns);
    }
    engine_deck_event(L, m, -1, &t);
    lua_pushinteger(L, turns);
    return 1;
}

static const luaL_Reg run_methods[] = {
    {"deck_run", g_deck_run},
    {"deck_start", g_deck_start},
    {"deck_tops", g_deck_tops},
    {NULL, NULL},
};

static const luaL_Reg games_module[] = {
    {"run", deck_run_new},
    {"start", deck_start_new},
    {NULL, NULL},
};

void engine_deck_games_open(engine_bundle *b, lua_State *L)
{
    engine_api_add_methods(b, L, run_methods);
    engine_api_add_module(b, L, "deckhand.deck_games", games_module);
}
