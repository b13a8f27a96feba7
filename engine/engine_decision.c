/*
 * engine_decision.c: the pending decision of a match and the validation of answers to it.
 *
 * g:choose for a human seat fills the pending decision here (prompt, kind and option
 * labels copied into one buffer, so the engine_decision handed out stays valid until the
 * next one). engine_decision_check is where a player's Choose is validated: right seat,
 * right decision id, option ids within the options and between min and max, none twice.
 * A bot's answer goes through the same engine_validate_ids (engine_decision_bot_ids), and
 * g:choose and the engine's own bots read a decision table's options, min and max the
 * same way (engine_decision_bounds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

int engine_validate_ids(size_t nopt, uint32_t min, uint32_t max, const uint32_t *ids, size_t n,
                        char *why, size_t whylen)
{
    if (n < min || n > max) {
        snprintf(why, whylen, "choose between %u and %u options, not %zu", min, max, n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (ids[i] < 1 || ids[i] > nopt) {
            snprintf(why, whylen, "no option %u", ids[i]);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (ids[j] == ids[i]) {
                snprintf(why, whylen, "option %u chosen twice", ids[i]);
                return -1;
            }
    }
    return 0;
}

/* An integer field of the decision table at t, or dflt when absent; raises "WHO: K must be
 * an integer" on anything else. */
lua_Integer engine_decision_int(lua_State *L, int t, const char *k, lua_Integer dflt,
                                const char *who)
{
    lua_getfield(L, t, k);
    lua_Integer v = dflt;
    if (!lua_isnil(L, -1)) {
        int ok;
        v = lua_tointegerx(L, -1, &ok);
        if (!ok)
            luaL_error(L, "%s: %s must be an integer", who, k);
    }
    lua_pop(L, 1);
    return v;
}

void engine_decision_bounds(lua_State *L, int t, const char *who, size_t *n, uint32_t *min,
                            uint32_t *max)
{
    if (lua_getfield(L, t, "options") != LUA_TTABLE)
        luaL_error(L, "%s: options must be an array", who);
    engine_freeze_see(L, -1);
    size_t k = lua_rawlen(L, -1); /* the array stays on the stack */
    if (k > ENGINE_MAX_OPTIONS)
        luaL_error(L, "%s: too many options", who);
    lua_Integer lo = engine_decision_int(L, t, "min", 1, who);
    lua_Integer hi = engine_decision_int(L, t, "max", 1, who);
    if (hi > (lua_Integer)k)
        hi = (lua_Integer)k;
    if (lo < 0 || lo > hi)
        luaL_error(L, "%s: no answer can satisfy min=%d max=%d with %d options", who, (int)lo,
                   (int)hi, (int)k);
    *n = k;
    *min = (uint32_t)lo;
    *max = (uint32_t)hi;
}

size_t engine_decision_bot_ids(lua_State *L, engine_match *m, const char *bot, int res, size_t n,
                               uint32_t min, uint32_t max)
{
    if (!lua_istable(L, res))
        return (size_t)luaL_error(L, "bot '%s' must return an array of option ids", bot);
    engine_freeze_see(L, res);
    size_t k = lua_rawlen(L, res);
    char why[128];
    if (k > n)
        return (size_t)luaL_error(L, "bot '%s' chose more options than there are", bot);
    if (k > m->bot_ids_cap) {
        uint32_t *p2 = realloc(m->bot_ids, sizeof(uint32_t) * k);
        if (!p2)
            return (size_t)luaL_error(L, "out of memory");
        m->bot_ids = p2;
        m->bot_ids_cap = k;
    }
    uint32_t *ids = m->bot_ids;
    for (size_t i = 0; i < k; i++) {
        lua_rawgeti(L, res, (lua_Integer)i + 1);
        int ok;
        lua_Integer v = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        ids[i] = ok && v > 0 && v <= (lua_Integer)n ? (uint32_t)v : 0;
    }
    if (engine_validate_ids(n, min, max, ids, k, why, sizeof why))
        return (size_t)luaL_error(L, "bot '%s' answered illegally: %s", bot, why);
    return k;
}

static const char *str_field(lua_State *L, int t, const char *k, size_t *len)
{
    lua_getfield(L, t, k);
    int ty = lua_type(L, -1);
    const char *s = ty == LUA_TSTRING || ty == LUA_TNUMBER ? lua_tolstring(L, -1, len) : NULL;
    if (!s) {
        *len = 0;
        s = "";
    }
    return s; /* the value stays on the stack until the caller pops it */
}

/* Grows dtext to hold need bytes; -1 when out of memory. */
static int dtext_room(engine_match *m, size_t need)
{
    if (need > m->dtext_cap) {
        size_t cap = m->dtext_cap * 2 > need ? m->dtext_cap * 2 : need < 256 ? 256 : need;
        char *t = realloc(m->dtext, cap);
        if (!t)
            return -1;
        m->dtext = t;
        m->dtext_cap = cap;
    }
    return 0;
}

/* Appends s[0..len), cut to max bytes (engine_text_fit) with the mark, and a NUL to dtext,
 * which grows as needed: the text is at offset *at (dtext may move until the decision is
 * read whole). -1 when out of memory. */
static int dtext_put(engine_match *m, const char *s, size_t len, size_t max, size_t *at)
{
    size_t keep = engine_text_fit(s, len, max);
    size_t mark = keep < len ? sizeof ENGINE_CUT_MARK - 1 : 0;
    size_t need = m->dtext_len + keep + mark + 1;
    if (dtext_room(m, need) < 0)
        return -1;
    char *d = m->dtext + m->dtext_len;
    memcpy(d, s, keep);
    memcpy(d + keep, ENGINE_CUT_MARK, mark);
    d[keep + mark] = 0;
    *at = m->dtext_len;
    m->dtext_len = need;
    return 0;
}

/* The keys an option's fields are read by: pushed once per decision (when an option is
 * read from its table: engine_record_of found no record) and read with
 * lua_gettable, which gives what lua_getfield gives (metamethods included) without
 * interning the key's C string again for every field of every option. */
enum { K_LABEL, K_VERB, K_SPACE, K_ACT, K_CARD, K_TARGET, K_INDEX, K_N };
static const char *const option_keys[K_N] = {"label", "verb",   "space",  "act",
                                             "card",  "target", "__index"};

/* The texts an option table may carry (label, then its structure: Option.verb, space). */
static const int option_texts[ENGINE_RECORD_TEXTS] = {K_LABEL, K_VERB, K_SPACE};

/* How many empty read-through tables option_source follows (memo.freeze's records: one). */
#define OPTION_MAX_HOPS 4

/* How an option's fields are read: through lua_gettable (metamethods included), or raw
 * when the table has no metatable (option_source found none), where the two give the same
 * and the raw read skips the look for an __index after every absent field. */
typedef struct {
    lua_State *L;
    int keys; /* the stack index of option_keys[0] */
    int raw;
} option_reader;

/* Field k of the table at t, read as r reads; pushed. */
static int option_get(const option_reader *r, int t, int k)
{
    lua_pushvalue(r->L, r->keys + k);
    return r->raw ? lua_rawget(r->L, t) : lua_gettable(r->L, t);
}

/* Field k (a K_ index) of the table at t as str_field reads it; the value stays on the
 * stack until the caller pops it. */
static const char *key_field(const option_reader *r, int t, int k, size_t *len)
{
    lua_State *L = r->L;
    int ty = option_get(r, t, k);
    const char *s = ty == LUA_TSTRING || ty == LUA_TNUMBER ? lua_tolstring(L, -1, len) : NULL;
    if (!s) {
        *len = 0;
        s = "";
    }
    return s;
}

/* Text k of the option table at t; a verb not given is the option's `act` (what the
 * shipped games' bots read), so their options carry their verb without a field more. The
 * value stays on the stack until the caller pops it. */
static const char *option_text(const option_reader *r, int t, int k, size_t *len)
{
    const char *s = key_field(r, t, k, len);
    if (*len || k != K_VERB)
        return s;
    lua_pop(r->L, 1);
    return key_field(r, t, K_ACT, len);
}

/* An option's field k naming an entity, as read from its table (option_entity) or kept in
 * its record (engine_record.c): the entity's id, 0 when absent; raises when it names no
 * entity of the match. */
static uint32_t entity_id(lua_State *L, const engine_match *m, const engine_record_entity *e, int k,
                          size_t i)
{
    if (!e->present)
        return 0;
    if (e->bad || e->e < 1 || e->e > m->st.nents)
        luaL_error(L, "choose: option %d's %s names no entity", (int)i + 1, option_keys[k]);
    return (uint32_t)e->e;
}

/* The entity field k of option table t (the i-th, from 0): 0 when absent; raises when it
 * names no entity of the match. */
static uint32_t option_entity(const option_reader *r, const engine_match *m, int t, int k, size_t i)
{
    lua_State *L = r->L;
    engine_record_entity e = {0};
    if (option_get(r, t, k) != LUA_TNIL) {
        int ok;
        e.present = 1;
        e.e = lua_tointegerx(L, -1, &ok);
        e.bad = !ok;
    }
    lua_pop(L, 1);
    return entity_id(L, m, &e, k, i);
}

/* Replaces the option table at t by the table its fields are read from: while the table
 * has a metatable whose __index (read raw, as Lua reads metamethods) is a table and holds
 * no key of its own, that table. A read of any key gives the same value from either, so
 * the texts and entities read below are the same; a read-only record (deckbuilder's
 * memo.freeze: an empty table reading through to its record, how the deck kit's options
 * come) then costs one table probe per field instead of a probe, a metatable lookup and a
 * second probe. Anything else (no metatable, an __index function, a table with keys) is
 * read as it is. Returns whether the table left at t has no metatable (then its fields
 * may be read raw: option_reader). */
static int option_source(lua_State *L, int t, int keys)
{
    int hops = 0;
    for (; hops < OPTION_MAX_HOPS && lua_getmetatable(L, t); hops++) {
        lua_pushvalue(L, keys + K_INDEX);
        if (lua_rawget(L, -2) != LUA_TTABLE) {
            lua_pop(L, 2);
            return 0;
        }
        lua_pushnil(L);
        if (lua_next(L, t)) {
            lua_pop(L, 4);
            return 0;
        }
        lua_replace(L, t);
        lua_pop(L, 1);
    }
    return hops < OPTION_MAX_HOPS; /* the loop ended at a table without a metatable */
}

/* Option o's card: the entity e (0: none) and its name. */
static void option_card(const engine_match *m, engine_option *o, uint32_t e)
{
    o->entity = e;
    o->card = e ? m->b->names.v[m->st.ents[e - 1].name].s : NULL;
}

/* Option i from the record deck.freeze made (engine_record.c): what reading its table
 * gives, without reading it. The texts' offsets in dtext go into at. */
static int option_from_record(engine_match *m, lua_State *L, const engine_record *r, size_t i,
                              size_t *at)
{
    engine_option *o = &m->opts_v[i];
    option_card(m, o, entity_id(L, m, &r->card, K_CARD, i));
    o->target = entity_id(L, m, &r->target, K_TARGET, i);
    if (dtext_room(m, m->dtext_len + r->len) < 0)
        return -1;
    memcpy(m->dtext + m->dtext_len, r->text, r->len);
    for (int k = 0; k < ENGINE_RECORD_TEXTS; k++)
        at[k] = m->dtext_len + r->at[k];
    m->dtext_len += r->len;
    return 0;
}

/* Option i from its table at t, the option keys at keys (the texts popped once copied);
 * the texts' offsets in dtext go into at. */
static int option_from_table(engine_match *m, lua_State *L, int t, int keys, size_t i, size_t *at)
{
    option_reader r = {L, keys, option_source(L, t, keys)};
    engine_option *o = &m->opts_v[i];
    option_card(m, o, option_entity(&r, m, t, K_CARD, i));
    o->target = option_entity(&r, m, t, K_TARGET, i);
    for (size_t k = 0; k < ENGINE_RECORD_TEXTS; k++) {
        size_t len;
        const char *s = option_text(&r, t, option_texts[k], &len);
        if (dtext_put(m, s, len, ENGINE_MAX_LABEL, &at[k]) < 0)
            return -1;
        lua_pop(L, 1);
    }
    return 0;
}

/* Each option's table, entities and texts, read from Lua once and the texts copied into
 * dtext as they are read (each value popped once copied, so the stack needs no room per
 * option); dtext may move while it grows, so the texts are noted as offsets and made
 * pointers once all are in. */
int engine_match_set_decision(engine_match *m, lua_State *L, int idx, int ot, int seat, size_t nopt,
                              uint32_t min, uint32_t max)
{
    int top = lua_gettop(L);
    idx = lua_absindex(L, idx);
    ot = lua_absindex(L, ot);
    luaL_checkstack(L, K_N + 8, "choose: too many options");
    if (nopt > m->opts_cap) {
        engine_option *o = realloc(m->opts_v, sizeof(engine_option) * nopt);
        if (!o)
            goto err;
        m->opts_v = o;
        m->opts_cap = nopt;
    }
    size_t len, at_prompt, at_kind;
    m->dtext_len = 0;
    const char *s = str_field(L, idx, "prompt", &len);
    if (dtext_put(m, s, len, ENGINE_MAX_PROMPT, &at_prompt) < 0)
        goto err;
    lua_pop(L, 1);
    s = str_field(L, idx, "kind", &len);
    if (dtext_put(m, s, len, ENGINE_MAX_LABEL, &at_kind) < 0)
        goto err;
    lua_pop(L, 1);
    int keys = top + 1, have_keys = 0, t = top + K_N + 1; /* t: each option's table */
    lua_settop(L, top + K_N); /* the keys' slots, filled when an option is read from Lua */
    for (size_t i = 0; i < nopt; i++) {
        if (lua_rawgeti(L, ot, (lua_Integer)i + 1) != LUA_TTABLE)
            luaL_error(L, "choose: option %d is not a table", (int)i + 1);
        engine_option *o = &m->opts_v[i];
        o->id = (uint32_t)i + 1;
        size_t at[ENGINE_RECORD_TEXTS];
        const engine_record *rec = engine_record_of(L, t);
        if (!rec) {
            lua_settop(L, t); /* what engine_record_of left */
            for (int k = 0; k < K_N && !have_keys; k++) {
                lua_pushstring(L, option_keys[k]);
                lua_replace(L, keys + k);
            }
            have_keys = 1;
        }
        if (rec ? option_from_record(m, L, rec, i, at) : option_from_table(m, L, t, keys, i, at))
            goto err;
        /* offsets until dtext stops moving, below */
        o->label = (const char *)(uintptr_t)at[0];
        o->verb = (const char *)(uintptr_t)at[1];
        o->space = (const char *)(uintptr_t)at[2];
        lua_settop(L, t - 1);
    }
    for (size_t i = 0; i < nopt; i++) {
        engine_option *o = &m->opts_v[i];
        o->label = m->dtext + (uintptr_t)o->label;
        o->verb = m->dtext + (uintptr_t)o->verb;
        o->space = m->dtext + (uintptr_t)o->space;
    }
    m->dec.prompt = m->dtext + at_prompt;
    m->dec.kind = m->dtext + at_kind;
    m->dec.decision_id = ++m->st.decision_seq;
    m->dec.seat = seat;
    m->dec.options = m->opts_v;
    m->dec.noptions = nopt;
    m->dec.min = min;
    m->dec.max = max;
    m->pending = 1;
    lua_settop(L, top);
    return 0;
err:
    lua_settop(L, top);
    return -1;
}

const engine_decision *engine_match_decision(const engine_match *m)
{
    return m->pending ? &m->dec : NULL;
}

engine_code engine_decision_check(const engine_match *m, int seat, uint64_t did,
                                  const uint32_t *ids, size_t n, engine_error *err)
{
    char why[160];
    if (!m->pending) {
        engine_error_set(err, ENGINE_ILLEGAL_CHOICE, "no decision is pending");
        return ENGINE_ILLEGAL_CHOICE;
    }
    if (seat != m->dec.seat) {
        engine_error_set(err, ENGINE_NOT_YOUR_TURN, "the pending decision is another seat's");
        return ENGINE_NOT_YOUR_TURN;
    }
    if (did != m->dec.decision_id) {
        snprintf(why, sizeof why, "decision %llu is not the pending one (%llu)",
                 (unsigned long long)did, (unsigned long long)m->dec.decision_id);
        engine_error_set(err, ENGINE_ILLEGAL_CHOICE, "%s", why);
        return ENGINE_ILLEGAL_CHOICE;
    }
    if ((n && !ids) ||
        engine_validate_ids(m->dec.noptions, m->dec.min, m->dec.max, ids, n, why, sizeof why)) {
        engine_error_set(err, ENGINE_ILLEGAL_CHOICE, "%s", n && !ids ? "no option ids" : why);
        return ENGINE_ILLEGAL_CHOICE;
    }
    return ENGINE_OK;
}
