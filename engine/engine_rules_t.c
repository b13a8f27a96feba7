/*
 * engine_rules_t.c: the `T` table a bundle's rules tests get (docs/SCRIPTING.md):
 * assertions (T.eq, T.ok, T.fail) and T.match, which starts a match and hands back a
 * thin shell over the public engine API (m:decision, m:answer, m:view, m:events, ...):
 * the same calls the worker makes, including the view code that builds the wire View.
 *
 * The matches a test starts are the runner's (engine_rules.c), reached through the VM's
 * registry (no globals), and freed when the test ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define RULES_MAGIC 0x72756c65u

static engine_rules *rules_ctx(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, ENGINE_RULES_CTX);
    engine_rules *r = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!r)
        luaL_error(L, "the rules runner is not running");
    return r;
}

static const char *code_name(engine_code c)
{
    switch (c) {
    case ENGINE_OK:
        return "OK";
    case ENGINE_NOT_YOUR_TURN:
        return "NOT_YOUR_TURN";
    case ENGINE_ILLEGAL_CHOICE:
        return "ILLEGAL_CHOICE";
    case ENGINE_SCRIPT_ERROR:
        return "SCRIPT_ERROR";
    case ENGINE_BAD_REQUEST:
        return "BAD_REQUEST";
    case ENGINE_INTERNAL:
        return "INTERNAL";
    }
    return "INTERNAL";
}

/* ---- assertions ---------------------------------------------------------------------- */

static int deep_eq(lua_State *L, int a, int b, int depth)
{
    if (lua_rawequal(L, a, b))
        return 1;
    if (!lua_istable(L, a) || !lua_istable(L, b) || depth > 20)
        return 0;
    a = lua_absindex(L, a);
    b = lua_absindex(L, b);
    engine_freeze_see(L, a); /* frozen module tables compare by what they hold */
    engine_freeze_see(L, b);
    for (lua_pushnil(L); lua_next(L, a); lua_pop(L, 1)) {
        lua_pushvalue(L, -2);
        lua_rawget(L, b);
        int eq = deep_eq(L, -2, -1, depth + 1);
        lua_pop(L, 1);
        if (!eq) {
            lua_pop(L, 2);
            return 0;
        }
    }
    for (lua_pushnil(L); lua_next(L, b); lua_pop(L, 1)) {
        lua_pushvalue(L, -2);
        int missing = lua_rawget(L, a) == LUA_TNIL;
        lua_pop(L, 1);
        if (missing) {
            lua_pop(L, 2);
            return 0;
        }
    }
    return 1;
}

/* Appends to buf without ever passing cap. */
static void app(char *buf, size_t cap, size_t *len, const char *fmt, const char *a)
{
    if (*len + 1 >= cap)
        return;
    int w = snprintf(buf + *len, cap - *len, fmt, a);
    if (w > 0)
        *len += (size_t)w < cap - *len ? (size_t)w : cap - *len - 1;
}

/* Appends a short printable form of the value at idx to buf. */
static void show(lua_State *L, int idx, char *buf, size_t cap, size_t *len, int depth)
{
    idx = lua_absindex(L, idx);
    char piece[128];
    switch (lua_type(L, idx)) {
    case LUA_TSTRING:
        snprintf(piece, sizeof piece, "\"%.100s\"", lua_tostring(L, idx));
        break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            snprintf(piece, sizeof piece, "%lld", (long long)lua_tointeger(L, idx));
        else
            snprintf(piece, sizeof piece, "%.14g", (double)lua_tonumber(L, idx));
        break;
    case LUA_TBOOLEAN:
        snprintf(piece, sizeof piece, "%s", lua_toboolean(L, idx) ? "true" : "false");
        break;
    case LUA_TTABLE:
        if (depth > 2) {
            snprintf(piece, sizeof piece, "{...}");
            break;
        }
        app(buf, cap, len, "%s", "{");
        {
            int n = 0;
            engine_freeze_see(L, idx);
            for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
                if (*len + 8 >= cap || n++ > 12) {
                    lua_pop(L, 2);
                    break;
                }
                if (n > 1)
                    app(buf, cap, len, "%s", ", ");
                if (lua_type(L, -2) == LUA_TSTRING)
                    app(buf, cap, len, "%.40s=", lua_tostring(L, -2));
                show(L, -1, buf, cap, len, depth + 1);
            }
        }
        app(buf, cap, len, "%s", "}");
        return;
    default:
        snprintf(piece, sizeof piece, "%s", luaL_typename(L, idx));
        break;
    }
    app(buf, cap, len, "%s", piece);
}

static int t_eq(lua_State *L)
{
    lua_settop(L, 3);
    if (deep_eq(L, 1, 2, 0))
        return 0;
    char exp[512], got[512], diff[300];
    size_t el = 0, gl = 0;
    exp[0] = got[0] = 0;
    show(L, 2, exp, sizeof exp, &el, 0);
    show(L, 1, got, sizeof got, &gl, 0);
    luaL_where(L, 1);
    lua_pushstring(L, lua_isstring(L, 3) ? lua_tostring(L, 3) : "");
    lua_pushstring(L, lua_isstring(L, 3) ? ": " : "");
    /* the first difference first: a push's report keeps only the start of the line */
    if (engine_rules_diff(L, 1, 2, diff, sizeof diff))
        lua_pushfstring(L, "first difference: %s; in full: expected %s, got %s", diff, exp, got);
    else
        lua_pushfstring(L, "expected %s, got %s", exp, got);
    lua_concat(L, 4);
    return lua_error(L);
}

static int t_ok(lua_State *L)
{
    if (lua_toboolean(L, 1))
        return 0;
    lua_settop(L, 2); /* so index 2 is the message, not what luaL_where pushes */
    luaL_where(L, 1);
    lua_pushstring(L, lua_isstring(L, 2) ? lua_tostring(L, 2) : "expected a true value");
    lua_concat(L, 2);
    return lua_error(L);
}

static int t_fail(lua_State *L)
{
    lua_settop(L, 1);
    luaL_where(L, 1);
    lua_pushstring(L, lua_isstring(L, 1) ? lua_tostring(L, 1) : "failed");
    lua_concat(L, 2);
    return lua_error(L);
}

/* ---- matches ------------------------------------------------------------------------- */

static engine_match *check_match(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "_h");
    engine_rules_match *h = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (!h || h->magic != RULES_MAGIC || !h->m)
        luaL_error(L, "not a live match (call m:method())");
    return h->m;
}

typedef struct {
    lua_State *L;
    int evtab;
} drain_ctx;

static void on_event(void *ud, const engine_event *ev)
{
    drain_ctx *c = ud;
    lua_State *L = c->L;
    lua_rawgeti(L, c->evtab, ev->to_seat + 1);
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, (lua_Integer)ev->seq);
    lua_setfield(L, -2, "seq");
    lua_pushstring(L, ev->kind);
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, ev->text);
    lua_setfield(L, -2, "text");
    lua_pushinteger(L, ev->about_seat < 0 ? 0 : ev->about_seat + 1);
    lua_setfield(L, -2, "about");
    lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
    lua_pop(L, 1);
}

/* Moves the match's undrained events into m._ev[player]. */
static void drain(lua_State *L, int mt, engine_match *m)
{
    lua_getfield(L, mt, "_ev");
    drain_ctx c = {L, lua_gettop(L)};
    engine_match_drain_events(m, on_event, &c);
    lua_pop(L, 1);
}

/* An option's structure into the table at the top (verb, target, space; only those set). */
static void push_structure(lua_State *L, const engine_option *o)
{
    if (o->verb && *o->verb) {
        lua_pushstring(L, o->verb);
        lua_setfield(L, -2, "verb");
    }
    if (o->target) {
        lua_pushinteger(L, o->target);
        lua_setfield(L, -2, "target");
    }
    if (o->space && *o->space) {
        lua_pushstring(L, o->space);
        lua_setfield(L, -2, "space");
    }
}

static void push_decision(lua_State *L, const engine_decision *d)
{
    if (!d) {
        lua_pushnil(L);
        return;
    }
    lua_createtable(L, 0, 7);
    lua_pushinteger(L, (lua_Integer)d->decision_id);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, d->seat + 1);
    lua_setfield(L, -2, "player");
    lua_pushstring(L, d->prompt);
    lua_setfield(L, -2, "prompt");
    lua_pushstring(L, d->kind);
    lua_setfield(L, -2, "kind");
    lua_pushinteger(L, d->min);
    lua_setfield(L, -2, "min");
    lua_pushinteger(L, d->max);
    lua_setfield(L, -2, "max");
    lua_createtable(L, (int)d->noptions, 0);
    for (size_t i = 0; i < d->noptions; i++) {
        const engine_option *o = &d->options[i];
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, o->id);
        lua_setfield(L, -2, "id");
        lua_pushstring(L, o->label);
        lua_setfield(L, -2, "label");
        if (o->entity) {
            lua_pushinteger(L, o->entity);
            lua_setfield(L, -2, "card");
            lua_pushstring(L, o->card);
            lua_setfield(L, -2, "name");
        }
        push_structure(L, o);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "options");
}

static int m_decision(lua_State *L)
{
    push_decision(L, engine_match_decision(check_match(L)));
    return 1;
}

static int m_answer(lua_State *L)
{
    engine_match *m = check_match(L);
    lua_Integer p = luaL_checkinteger(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    uint32_t ids[256];
    size_t n = (size_t)luaL_len(L, 3);
    if (n > 256)
        return luaL_error(L, "answer: too many ids");
    for (size_t i = 0; i < n; i++) {
        lua_geti(L, 3, (lua_Integer)i + 1);
        lua_Integer v = luaL_checkinteger(L, -1);
        ids[i] = v < 0 || v > UINT32_MAX ? 0 : (uint32_t)v;
        lua_pop(L, 1);
    }
    const engine_decision *d = engine_match_decision(m);
    engine_error err = {0};
    engine_code c = engine_match_answer(m, (int)p - 1, d ? d->decision_id : 0, ids, n, &err);
    drain(L, 1, m);
    if (c == ENGINE_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_pushstring(L, code_name(c));
    lua_pushstring(L, err.message);
    return 3;
}

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

/* Push msg as a Lua table keyed by its fields' names, walking its protobuf-c descriptor:
 * numbers as integers, bools as booleans, strings ("" when unset) as strings, a
 * sub-message as a table (left out when unset), a repeated sub-message as an array.
 * Those are the only kinds a View holds; any other field is left out. */
static void push_message(lua_State *L, const ProtobufCMessage *msg)
{
    const ProtobufCMessageDescriptor *d = msg->descriptor;
    lua_createtable(L, 0, (int)d->n_fields);
    for (unsigned f = 0; f < d->n_fields; f++) {
        const ProtobufCFieldDescriptor *fd = &d->fields[f];
        const char *p = (const char *)msg + fd->offset;
        if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
            if (fd->type != PROTOBUF_C_TYPE_MESSAGE)
                continue;
            size_t n = *(const size_t *)((const char *)msg + fd->quantifier_offset);
            ProtobufCMessage *const *v = *(ProtobufCMessage *const *const *)p;
            lua_createtable(L, (int)n, 0);
            for (size_t i = 0; i < n; i++) {
                push_message(L, v[i]);
                lua_rawseti(L, -2, (lua_Integer)i + 1);
            }
        } else if (fd->type == PROTOBUF_C_TYPE_MESSAGE) {
            const ProtobufCMessage *sub = *(ProtobufCMessage *const *)p;
            if (!sub)
                continue;
            push_message(L, sub);
        } else if (fd->type == PROTOBUF_C_TYPE_STRING) {
            const char *str = *(char *const *)p;
            lua_pushstring(L, str ? str : "");
        } else if (fd->type == PROTOBUF_C_TYPE_BOOL) {
            lua_pushboolean(L, *(const protobuf_c_boolean *)p);
        } else if (fd->type == PROTOBUF_C_TYPE_INT32) {
            lua_pushinteger(L, *(const int32_t *)p);
        } else if (fd->type == PROTOBUF_C_TYPE_UINT32) {
            lua_pushinteger(L, *(const uint32_t *)p);
        } else if (fd->type == PROTOBUF_C_TYPE_INT64) {
            lua_pushinteger(L, *(const int64_t *)p);
        } else if (fd->type == PROTOBUF_C_TYPE_UINT64) {
            lua_pushinteger(L, (lua_Integer) * (const uint64_t *)p);
        } else {
            continue;
        }
        lua_setfield(L, -2, fd->name);
    }
}

static int m_view(lua_State *L)
{
    engine_match *m = check_match(L);
    lua_Integer p = luaL_checkinteger(L, 2);
    Deckhand__View *v = engine_match_view(m, (int)p - 1);
    if (!v)
        return luaL_error(L, "view: out of memory");
    push_message(L, &v->base);
    engine_view_free(v);
    return 1;
}

static int m_events(lua_State *L)
{
    engine_match *m = check_match(L);
    lua_Integer p = luaL_checkinteger(L, 2);
    if (p < 1 || p > engine_match_nplayers(m))
        return luaL_error(L, "events: bad player");
    drain(L, 1, m);
    lua_getfield(L, 1, "_ev");
    lua_rawgeti(L, -1, p);
    return 1;
}

static int m_finished(lua_State *L)
{
    lua_pushboolean(L, engine_match_finished(check_match(L)));
    return 1;
}

static int m_results(lua_State *L)
{
    engine_match *m = check_match(L);
    engine_result res[64];
    size_t n = engine_match_results(m, res, 64);
    if (n == 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, (int)n, 0);
    for (size_t i = 0; i < n; i++) {
        lua_createtable(L, 0, 4);
        set_int(L, "player", res[i].seat + 1);
        set_int(L, "score", res[i].score);
        set_int(L, "rank", res[i].rank);
        set_int(L, "turns", res[i].turns);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int m_hash(lua_State *L)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)engine_match_hash(check_match(L)));
    lua_pushstring(L, buf);
    return 1;
}

static const luaL_Reg match_methods[] = {
    {"decision", m_decision}, {"answer", m_answer},   {"view", m_view}, {"events", m_events},
    {"finished", m_finished}, {"results", m_results}, {"hash", m_hash}, {NULL, NULL},
};

/* Options as "k=v;k=v": a string is taken as is, a table is joined in key order. */
static void push_options(lua_State *L, int t)
{
    if (lua_isnoneornil(L, t)) {
        lua_pushnil(L);
        return;
    }
    if (lua_type(L, t) == LUA_TSTRING) {
        lua_pushvalue(L, t);
        return;
    }
    luaL_checktype(L, t, LUA_TTABLE);
    engine_freeze_see(L, t);
    const char *keys[64];
    int n = 0;
    for (lua_pushnil(L); lua_next(L, t); lua_pop(L, 1))
        if (lua_type(L, -2) == LUA_TSTRING && n < 64)
            keys[n++] = lua_tostring(L, -2); /* anchored by the table */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
            const char *k = keys[j];
            keys[j] = keys[j - 1];
            keys[j - 1] = k;
        }
    luaL_Buffer lb;
    luaL_buffinit(L, &lb);
    for (int i = 0; i < n; i++) {
        if (i)
            luaL_addchar(&lb, ';');
        luaL_addstring(&lb, keys[i]);
        luaL_addchar(&lb, '=');
        lua_getfield(L, t, keys[i]);
        luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
        luaL_addvalue(&lb);
    }
    luaL_pushresult(&lb);
}

static int t_match(lua_State *L)
{
    engine_rules *r = rules_ctx(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_getfield(L, 1, "game");
    const char *game = luaL_optstring(L, 2, r->game);
    lua_getfield(L, 1, "players"); /* 3 */
    int np = 0;
    const char *names[64];
    char defaults[64][16];
    if (lua_istable(L, 3)) {
        np = (int)luaL_len(L, 3);
        engine_freeze_see(L, 3);
    } else
        np = (int)luaL_optinteger(L, 3, 2);
    if (np < 1 || np > 64)
        return luaL_error(L, "T.match: bad players");
    for (int i = 0; i < np; i++) {
        snprintf(defaults[i], sizeof defaults[i], "P%d", i + 1);
        names[i] = defaults[i];
        if (lua_istable(L, 3)) {
            lua_rawgeti(L, 3, i + 1);
            if (lua_type(L, -1) == LUA_TSTRING)
                names[i] = lua_tostring(L, -1); /* anchored by the players table */
            lua_pop(L, 1);
        }
    }
    lua_getfield(L, 1, "seed"); /* 4 */
    uint64_t seed = (uint64_t)luaL_optinteger(L, 4, 1);
    lua_getfield(L, 1, "options"); /* 5 */
    push_options(L, 5);            /* 6 */
    lua_getfield(L, 1, "bots");    /* 7 */
    if (lua_istable(L, 7))
        engine_freeze_see(L, 7);
    const char *bots[64];
    int anybot = 0;
    for (int i = 0; i < np; i++) {
        bots[i] = NULL;
        if (!lua_istable(L, 7))
            continue;
        lua_rawgeti(L, 7, i + 1);
        if (lua_type(L, -1) == LUA_TSTRING)
            bots[i] = lua_tostring(L, -1);
        else if (lua_toboolean(L, -1))
            bots[i] = "default";
        anybot |= bots[i] != NULL;
        lua_pop(L, 1);
    }
    lua_getfield(L, 1, "setup"); /* 8 */
    int setup_ref = LUA_NOREF;
    if (lua_isfunction(L, 8)) {
        lua_pushvalue(L, 8);
        setup_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (r->nlive == ENGINE_RULES_MAX_MATCHES)
        return luaL_error(L, "T.match: too many matches in one test");
    engine_match_config cfg = {"rules-test",
                               game,
                               seed,
                               np,
                               names,
                               anybot ? bots : NULL,
                               lua_isnil(L, 6) ? NULL : lua_tostring(L, 6),
                               false};
    engine_error err = {0};
    engine_match *m = engine_match_new_ex(r->b, &cfg, setup_ref, &err);
    luaL_unref(L, LUA_REGISTRYINDEX, setup_ref);
    if (!m)
        return luaL_error(L, "T.match: %s", err.message);
    lua_createtable(L, 0, 4); /* the handle */
    int mt = lua_gettop(L);
    engine_rules_match *h = lua_newuserdatauv(L, sizeof *h, 0);
    h->magic = RULES_MAGIC;
    h->m = m;
    r->live[r->nlive++] = h;
    /* Anchored until the test ends, so engine_rules_free_live may still reach it. */
    lua_getfield(L, LUA_REGISTRYINDEX, "deckhand.rules.live");
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)r->nlive);
    lua_pop(L, 1);
    lua_setfield(L, mt, "_h");
    engine_match_push_g(m, L);
    lua_setfield(L, mt, "g");
    lua_createtable(L, np, 0);
    for (int i = 0; i < np; i++) {
        lua_newtable(L);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, mt, "_ev");
    lua_getfield(L, LUA_REGISTRYINDEX, "deckhand.rules.match");
    lua_setmetatable(L, mt);
    drain(L, mt, m);
    return 1;
}

/* T.check_options(options [, game]): what the network would say of these options (a
 * table or "k=v;k=v") for the test's game: true, or false and the reason. */
static int t_check_options(lua_State *L)
{
    engine_rules *r = rules_ctx(L);
    lua_settop(L, 2);
    const char *game = luaL_optstring(L, 2, r->game);
    push_options(L, 1); /* 3 */
    engine_error err = {0};
    engine_code c = engine_bundle_check_options(r->b, game, lua_tostring(L, 3), &err);
    lua_pushboolean(L, c == ENGINE_OK);
    if (c == ENGINE_OK)
        return 1;
    lua_pushstring(L, err.message);
    return 2;
}

void engine_rules_free_live(engine_rules *r, lua_State *L)
{
    for (size_t i = 0; i < r->nlive; i++) {
        engine_match_free(r->live[i]->m);
        r->live[i]->m = NULL;
    }
    r->nlive = 0;
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "deckhand.rules.live");
}

int engine_rules_open_t(lua_State *L)
{
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "deckhand.rules.live");
    luaL_newmetatable(L, "deckhand.rules.match");
    lua_newtable(L);
    luaL_setfuncs(L, match_methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushcfunction(L, t_match);
    lua_setfield(L, -2, "match");
    lua_pushcfunction(L, t_check_options);
    lua_setfield(L, -2, "check_options");
    lua_pushcfunction(L, t_eq);
    lua_setfield(L, -2, "eq");
    lua_pushcfunction(L, t_ok);
    lua_setfield(L, -2, "ok");
    lua_pushcfunction(L, t_fail);
    lua_setfield(L, -2, "fail");
    lua_setfield(L, LUA_REGISTRYINDEX, "deckhand.rules.T");
    return 0;
}
