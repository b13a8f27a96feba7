/*
 * engine_match.c: the life of a match: setup, turns as coroutines, answers, events,
 * snapshots at turn boundaries, and rebuilding (restore, rollback, undo).
 *
 * Every step that runs Lua or may allocate inside the VM goes through one protected
 * call (match_exec), so a script error, a refused allocation or a killed deadline ends
 * that step, never the process. A failed answer is undone by rebuilding the match in
 * place from its last snapshot and the answers accepted since (the same path as
 * engine_match_restore), so the rebuilt state is exactly the accepted one.
 *
 * When every seat is a bot nothing can suspend, so turns are plain calls on the main
 * thread and only the final snapshot is written: that is the `deckhand sim` hot path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

enum { OP_G, OP_SETUP, OP_RUN, OP_LOAD, OP_BOT };

/* engine_match_bot_answer's question to match_cf and its answer's size. */
typedef struct {
    const engine_bot *bot;
    size_t n;
} bot_ask;

static void seterr(engine_error *err, engine_code code, const char *msg)
{
    if (!err)
        return;
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

/* ---- events -------------------------------------------------------------------------- */

int engine_match_event(engine_match *m, int to, int about, const char *kind, const char *text,
                       size_t len)
{
    if (to < 0) {
        for (int i = 0; i < m->np; i++)
            m->st.event_seq[i]++;
    } else {
        m->st.event_seq[to]++;
    }
    if (m->replaying)
        return 0;
    if (m->evtext_len + len + 1 > ENGINE_MAX_EVBYTES)
        return -1;
    if (m->nev == m->evcap) {
        size_t cap = m->evcap ? m->evcap * 2 : 64;
        engine_ev *e = realloc(m->ev, sizeof(engine_ev) * cap);
        if (!e)
            return -1;
        m->ev = e;
        m->evcap = cap;
    }
    if (m->evtext_len + len + 1 > m->evtext_cap) {
        size_t cap = m->evtext_cap ? m->evtext_cap : 4096;
        while (cap < m->evtext_len + len + 1)
            cap *= 2;
        char *t = realloc(m->evtext, cap);
        if (!t)
            return -1;
        m->evtext = t;
        m->evtext_cap = cap;
    }
    engine_ev *e = &m->ev[m->nev++];
    e->to = to;
    e->about = about;
    e->kind = kind;
    e->off = m->evtext_len;
    e->len = len;
    memcpy(m->evtext + m->evtext_len, text, len);
    m->evtext[m->evtext_len + len] = 0;
    m->evtext_len += len + 1;
    return 0;
}

void engine_match_drain_events(engine_match *m, engine_event_fn fn, void *ud)
{
    for (size_t i = 0; i < m->nev; i++) {
        const engine_ev *e = &m->ev[i];
        engine_event ev = {0, 0, e->kind, m->evtext + e->off, e->about};
        for (int s = 0; s < m->np; s++) {
            if (e->to >= 0 && e->to != s)
                continue;
            ev.to_seat = s;
            ev.seq = ++m->drained_seq[s];
            fn(ud, &ev);
        }
    }
    m->nev = 0;
    m->evtext_len = 0;
    m->undo_nev = 0;
    m->undo_evtext = 0;
}

uint64_t engine_match_event_seq(const engine_match *m, int seat)
{
    if (seat < 0 || seat >= m->np)
        return 0;
    return m->st.event_seq[seat];
}

/* ---- decisions ----------------------------------------------------------------------- */

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

static int dtext_add(engine_match *m, const char *s, size_t len, const char **out)
{
    if (m->dtext_len + len + 1 > m->dtext_cap)
        return -1;
    memcpy(m->dtext + m->dtext_len, s, len);
    m->dtext[m->dtext_len + len] = 0;
    *out = m->dtext + m->dtext_len;
    m->dtext_len += len + 1;
    return 0;
}

int engine_match_set_decision(engine_match *m, lua_State *L, int idx, int seat, size_t nopt,
                              uint32_t min, uint32_t max)
{
    int top = lua_gettop(L);
    idx = lua_absindex(L, idx);
    lua_getfield(L, idx, "options");
    int ot = lua_gettop(L);
    /* First pass: the text size, so pointers into dtext never move afterwards. */
    size_t need = 0, len;
    str_field(L, idx, "prompt", &len);
    need += len + 1;
    str_field(L, idx, "kind", &len);
    need += len + 1;
    lua_settop(L, ot);
    for (size_t i = 0; i < nopt; i++) {
        if (lua_rawgeti(L, ot, (lua_Integer)i + 1) != LUA_TTABLE)
            luaL_error(L, "choose: option %d is not a table", (int)i + 1);
        str_field(L, ot + 1, "label", &len);
        need += len + 1;
        lua_settop(L, ot);
    }
    if (need > m->dtext_cap) {
        char *t = realloc(m->dtext, need);
        if (!t)
            goto err;
        m->dtext = t;
        m->dtext_cap = need;
    }
    if (nopt > m->opts_cap) {
        engine_option *o = realloc(m->opts_v, sizeof(engine_option) * nopt);
        if (!o)
            goto err;
        m->opts_v = o;
        m->opts_cap = nopt;
    }
    m->dtext_len = 0;
    const char *s = str_field(L, idx, "prompt", &len);
    dtext_add(m, s, len, &m->dec.prompt);
    s = str_field(L, idx, "kind", &len);
    dtext_add(m, s, len, &m->dec.kind);
    lua_settop(L, ot);
    for (size_t i = 0; i < nopt; i++) {
        engine_option *o = &m->opts_v[i];
        lua_rawgeti(L, ot, (lua_Integer)i + 1);
        s = str_field(L, ot + 1, "label", &len);
        dtext_add(m, s, len, &o->label);
        o->id = (uint32_t)i + 1;
        o->card = NULL;
        o->entity = 0;
        lua_getfield(L, ot + 1, "card");
        if (!lua_isnil(L, -1)) {
            int ok;
            lua_Integer e = lua_tointegerx(L, -1, &ok);
            if (!ok || e < 1 || e > m->st.nents)
                luaL_error(L, "choose: option %d names no entity", (int)i + 1);
            o->entity = (uint32_t)e;
            o->card = m->b->names.v[m->st.ents[e - 1].name].s;
        }
        lua_settop(L, ot);
    }
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

/* ---- the protected steps ------------------------------------------------------------- */

static void push_g(lua_State *L, engine_match *m)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->g_ref);
}

void engine_match_push_g(engine_match *m, lua_State *L)
{
    push_g(L, m);
}

static void log_reset(engine_log *lg)
{
    lg->n = 0;
    lg->nids = 0;
}

static int log_append(engine_log *lg, int seat, uint64_t did, const uint32_t *ids, size_t n)
{
    if (lg->n == lg->cap) {
        size_t cap = lg->cap ? lg->cap * 2 : 16;
        engine_logent *v = realloc(lg->v, sizeof(engine_logent) * cap);
        if (!v)
            return -1;
        lg->v = v;
        lg->cap = cap;
    }
    if (lg->nids + n > lg->idcap) {
        size_t cap = lg->idcap ? lg->idcap : 64;
        while (cap < lg->nids + n)
            cap *= 2;
        uint32_t *p = realloc(lg->ids, sizeof(uint32_t) * cap);
        if (!p)
            return -1;
        lg->ids = p;
        lg->idcap = cap;
    }
    engine_logent *e = &lg->v[lg->n++];
    e->seat = seat;
    e->decision_id = did;
    e->off = lg->nids;
    e->n = n;
    if (n)
        memcpy(lg->ids + lg->nids, ids, sizeof(uint32_t) * n);
    lg->nids += n;
    return 0;
}

static void log_free(engine_log *lg)
{
    free(lg->v);
    free(lg->ids);
    memset(lg, 0, sizeof *lg);
}

static void swap_bufs(engine_buf *a, engine_buf *b)
{
    engine_buf t = *a;
    *a = *b;
    *b = t;
}

static void swap_logs(engine_log *a, engine_log *b)
{
    engine_log t = *a;
    *a = *b;
    *b = t;
}

/* A turn boundary: a new snapshot, an empty answer log. */
static void boundary(lua_State *L, engine_match *m)
{
    m->st.version++;
    if (m->all_bots && !m->st.finished)
        return;
    if (m->in_answer && !m->boundary_in_answer) {
        /* Keep what undo needs: the snapshot and log this answer started from. */
        swap_bufs(&m->snap, &m->prev_snap);
        swap_logs(&m->log, &m->prev_log);
        m->boundary_in_answer = 1;
    }
    log_reset(&m->log);
    if (engine_state_save(&m->st, &m->b->names, &m->snap) < 0)
        luaL_error(L, "out of memory (snapshot)");
}

static void read_results(lua_State *L, engine_match *m)
{
    int t = lua_gettop(L);
    if (!lua_istable(L, t))
        luaL_error(L, "results must return an array by player");
    int need_rank = 0;
    for (int i = 0; i < m->np; i++) {
        engine_result *r = &m->st.results[i];
        r->seat = i;
        if (lua_rawgeti(L, t, i + 1) != LUA_TTABLE)
            luaL_error(L, "results[%d] must be a table", i + 1);
        lua_getfield(L, -1, "score");
        r->score = (int)lua_tointeger(L, -1);
        lua_getfield(L, -2, "rank");
        r->rank = (int)lua_tointeger(L, -1);
        lua_getfield(L, -3, "turns");
        r->turns = (int)lua_tointeger(L, -1);
        lua_settop(L, t);
        if (r->rank < 1)
            need_rank = 1;
    }
    if (need_rank)
        for (int i = 0; i < m->np; i++) {
            int rank = 1;
            for (int j = 0; j < m->np; j++)
                if (m->st.results[j].score > m->st.results[i].score)
                    rank++;
            m->st.results[i].rank = rank;
        }
    lua_settop(L, t - 1);
}

static void end_of_turn(lua_State *L, engine_match *m)
{
    engine_bundle *b = m->b;
    engine_deadline_set(b, engine_now_ns() + b->budget_ns);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->finished_ref);
    push_g(L, m);
    lua_call(L, 1, 1);
    int done = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (done) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->results_ref);
        push_g(L, m);
        lua_call(L, 1, 1);
        read_results(L, m);
        m->st.finished = 1;
    }
    boundary(L, m);
}

static lua_State *get_co(lua_State *L, engine_match *m)
{
    push_g(L, m);
    lua_getiuservalue(L, -1, 1);
    lua_State *co = lua_tothread(L, -1);
    lua_pop(L, 2);
    return co;
}

/* Runs the match until a human decision is pending or it is finished. */
static void run_turns(lua_State *L, engine_match *m)
{
    engine_bundle *b = m->b;
    for (;;) {
        if (m->in_turn) {
            lua_State *co = get_co(L, m);
            int nres, nargs = m->in_turn == 2 ? 1 : 0;
            m->in_turn = 1;
            engine_deadline_set(b, engine_now_ns() + b->budget_ns);
            b->co_running = co;
            int st = lua_resume(co, L, nargs, &nres);
            b->co_running = NULL;
            if (st == LUA_YIELD) {
                lua_pop(co, nres);
                if (!m->pending)
                    luaL_error(L, "turn yielded without a decision");
                return;
            }
            if (st != LUA_OK) {
                lua_xmove(co, L, 1);
                lua_error(L);
            }
            m->in_turn = 0;
            push_g(L, m);
            lua_pushnil(L);
            lua_setiuservalue(L, -2, 1);
            lua_pop(L, 1);
            end_of_turn(L, m);
            continue;
        }
        if (m->st.finished)
            return;
        if (m->st.turn >= ENGINE_MAX_TURNS)
            luaL_error(L, "the game did not end within %d turns", ENGINE_MAX_TURNS);
        m->st.turn++;
        if (m->all_bots) {
            engine_deadline_set(b, engine_now_ns() + b->budget_ns);
            lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->turn_ref);
            push_g(L, m);
            lua_call(L, 1, 0);
            end_of_turn(L, m);
            continue;
        }
        push_g(L, m);
        lua_State *co = lua_newthread(L);
        lua_setiuservalue(L, -2, 1);
        lua_pop(L, 1);
        lua_rawgeti(co, LUA_REGISTRYINDEX, m->game->turn_ref);
        lua_rawgeti(co, LUA_REGISTRYINDEX, m->g_ref);
        m->in_turn = 2; /* fresh: the first resume passes g */
    }
}

static int match_cf(lua_State *L)
{
    engine_match *m = lua_touserdata(L, 1);
    int op = (int)lua_tointeger(L, 2);
    switch (op) {
    case OP_G:
        m->g = engine_api_new_g(L, m);
        m->g_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        break;
    case OP_SETUP:
        if (m->game->setup_ref != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->setup_ref);
            push_g(L, m);
            lua_call(L, 1, 0);
        }
        if (m->setup_ref != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, m->setup_ref);
            push_g(L, m);
            lua_call(L, 1, 0);
        }
        boundary(L, m);
        break;
    case OP_RUN:
        run_turns(L, m);
        break;
    case OP_LOAD: {
        char why[128];
        const uint8_t *p = lua_touserdata(L, 3);
        size_t len = (size_t)lua_tointeger(L, 4);
        if (engine_state_load(&m->st, m->b, L, p, len, why, sizeof why) < 0)
            return luaL_error(L, "bad snapshot: %s", why);
        break;
    }
    case OP_BOT: {
        bot_ask *ask = lua_touserdata(L, 3);
        lua_rawgeti(L, LUA_REGISTRYINDEX, ask->bot->ref);
        push_g(L, m);
        lua_pushinteger(L, m->dec.seat + 1);
        push_g(L, m);
        lua_getiuservalue(L, -1, 2); /* the table the turn passed to g:choose */
        lua_remove(L, -2);
        lua_call(L, 3, 1);
        ask->n = engine_api_bot_ids(L, m, ask->bot->name, lua_gettop(L), m->dec.noptions,
                                    m->dec.min, m->dec.max);
        break;
    }
    }
    return 0;
}

/* Runs one step in protected mode under a deadline. */
static engine_code match_exec(engine_match *m, int op, const void *p, size_t len)
{
    engine_bundle *b = m->b;
    lua_State *L = b->L;
    int top = lua_gettop(L);
    uint64_t prev = engine_call_begin(b);
    lua_pushcfunction(L, match_cf);
    lua_pushlightuserdata(L, m);
    lua_pushinteger(L, op);
    lua_pushlightuserdata(L, (void *)p);
    lua_pushinteger(L, (lua_Integer)len);
    int rc = lua_pcall(L, 4, 0, 0);
    engine_code code = ENGINE_OK;
    if (rc != LUA_OK) {
        code = ENGINE_SCRIPT_ERROR;
        const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (rc == LUA_ERRMEM)
            msg = "script ran out of memory";
        snprintf(m->run_msg, sizeof m->run_msg, "%s", msg ? msg : "script error");
    }
    lua_settop(L, top);
    engine_call_end(b, prev);
    return code;
}

/* ---- creating and freeing ------------------------------------------------------------ */

static int parse_options(engine_match *m, const char *s)
{
    if (!s || !*s)
        return 0;
    size_t len = strlen(s);
    m->opts = malloc(len + 2);
    if (!m->opts)
        return -1;
    char *out = m->opts;
    const char *p = s;
    while (*p) {
        const char *end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (eq && eq > p) {
            memcpy(out, p, (size_t)(eq - p));
            out += eq - p;
            *out++ = 0;
            memcpy(out, eq + 1, (size_t)(end - eq - 1));
            out += end - eq - 1;
            *out++ = 0;
            m->nopts++;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

void engine_match_free(engine_match *m)
{
    if (!m)
        return;
    if (m->g) {
        m->g->m = NULL;
        lua_State *L = m->b->L;
        push_g(L, m);
        lua_pushnil(L);
        lua_setiuservalue(L, -2, 1);
        lua_pushnil(L);
        lua_setiuservalue(L, -2, 2);
        lua_pop(L, 1);
        luaL_unref(L, LUA_REGISTRYINDEX, m->g_ref);
    }
    for (int i = 0; m->names && i < m->np; i++)
        free(m->names[i]);
    for (int i = 0; m->bot_name && i < m->np; i++)
        free(m->bot_name[i]);
    free(m->names);
    free(m->bot_name);
    free(m->bot_ref);
    free(m->drained_seq);
    free(m->match_id);
    free(m->opts);
    free(m->opts_v);
    free(m->bot_ids);
    free(m->dtext);
    free(m->ev);
    free(m->evtext);
    engine_buf_free(&m->snap);
    engine_buf_free(&m->prev_snap);
    engine_buf_free(&m->scratch);
    log_free(&m->log);
    log_free(&m->prev_log);
    engine_state_free(&m->st);
    free(m);
}

/* Everything of a match but its history: config copied, state empty, g created. */
static engine_match *match_alloc(engine_bundle *b, const engine_match_config *cfg,
                                 engine_error *err)
{
    engine_match *m = NULL;
    if (!cfg || !cfg->game) {
        seterr(err, ENGINE_BAD_REQUEST, "no game given");
        return NULL;
    }
    const engine_game *g = engine_bundle_game(b, cfg->game);
    if (!g) {
        seterr(err, ENGINE_BAD_REQUEST, "no such game in the bundle");
        return NULL;
    }
    if (cfg->nplayers < g->min_players || cfg->nplayers > g->max_players) {
        seterr(err, ENGINE_BAD_REQUEST, "player count outside the game's range");
        return NULL;
    }
    m = calloc(1, sizeof *m);
    if (!m)
        goto oom;
    m->b = b;
    m->game = g;
    m->np = cfg->nplayers;
    m->g_ref = LUA_NOREF;
    m->setup_ref = LUA_NOREF;
    m->match_id = strdup(cfg->match_id ? cfg->match_id : "");
    m->names = calloc((size_t)m->np, sizeof(char *));
    m->bot_name = calloc((size_t)m->np, sizeof(char *));
    m->bot_ref = calloc((size_t)m->np, sizeof(int));
    m->drained_seq = calloc((size_t)m->np, sizeof(uint64_t));
    if (!m->match_id || !m->names || !m->bot_name || !m->bot_ref || !m->drained_seq)
        goto oom;
    if (engine_state_init(&m->st, m->np) < 0 || parse_options(m, cfg->options) < 0)
        goto oom;
    m->all_bots = 1;
    for (int i = 0; i < m->np; i++) {
        char dflt[32];
        snprintf(dflt, sizeof dflt, "Player %d", i + 1);
        m->names[i] = strdup(cfg->names && cfg->names[i] ? cfg->names[i] : dflt);
        if (!m->names[i])
            goto oom;
        m->bot_ref[i] = LUA_NOREF;
        const char *bn = cfg->bots ? cfg->bots[i] : NULL;
        if (!bn) {
            m->all_bots = 0;
            continue;
        }
        for (size_t j = 0; j < g->nbots; j++)
            if (!strcmp(g->bots[j].name, bn))
                m->bot_ref[i] = g->bots[j].ref;
        if (m->bot_ref[i] == LUA_NOREF) {
            seterr(err, ENGINE_BAD_REQUEST, "no such bot in the game");
            goto fail;
        }
        m->bot_name[i] = strdup(bn);
        if (!m->bot_name[i])
            goto oom;
    }
    if (match_exec(m, OP_G, NULL, 0) != ENGINE_OK)
        goto oom;
    return m;
oom:
    seterr(err, ENGINE_INTERNAL, "out of memory");
fail:
    engine_match_free(m);
    return NULL;
}

engine_match *engine_match_new_ex(engine_bundle *b, const engine_match_config *cfg, int setup_ref,
                                  engine_error *err)
{
    engine_match *m = match_alloc(b, cfg, err);
    if (!m)
        return NULL;
    m->setup_ref = setup_ref;
    engine_rng_seed(&m->st, cfg->seed);
    if (match_exec(m, OP_SETUP, NULL, 0) != ENGINE_OK ||
        match_exec(m, OP_RUN, NULL, 0) != ENGINE_OK) {
        seterr(err, ENGINE_SCRIPT_ERROR, m->run_msg);
        engine_match_free(m);
        return NULL;
    }
    m->setup_ref = LUA_NOREF;
    if (err) {
        err->code = ENGINE_OK;
        err->message[0] = 0;
    }
    return m;
}

engine_match *engine_match_new(engine_bundle *b, const engine_match_config *cfg, engine_error *err)
{
    return engine_match_new_ex(b, cfg, LUA_NOREF, err);
}

/* ---- answers, rebuilds --------------------------------------------------------------- */

static engine_code check_answer(const engine_match *m, int seat, uint64_t did, const uint32_t *ids,
                                size_t n, engine_error *err)
{
    char why[160];
    if (!m->pending) {
        seterr(err, ENGINE_ILLEGAL_CHOICE, "no decision is pending");
        return ENGINE_ILLEGAL_CHOICE;
    }
    if (seat != m->dec.seat) {
        seterr(err, ENGINE_NOT_YOUR_TURN, "the pending decision is another seat's");
        return ENGINE_NOT_YOUR_TURN;
    }
    if (did != m->dec.decision_id) {
        snprintf(why, sizeof why, "decision %llu is not the pending one (%llu)",
                 (unsigned long long)did, (unsigned long long)m->dec.decision_id);
        seterr(err, ENGINE_ILLEGAL_CHOICE, why);
        return ENGINE_ILLEGAL_CHOICE;
    }
    if ((n && !ids) ||
        engine_validate_ids(m->dec.noptions, m->dec.min, m->dec.max, ids, n, why, sizeof why)) {
        seterr(err, ENGINE_ILLEGAL_CHOICE, n && !ids ? "no option ids" : why);
        return ENGINE_ILLEGAL_CHOICE;
    }
    return ENGINE_OK;
}

/* Logs and applies a checked answer, running to the next decision. */
static engine_code apply_answer(engine_match *m, int seat, uint64_t did, const uint32_t *ids,
                                size_t n)
{
    if (log_append(&m->log, seat, did, ids, n) < 0) {
        snprintf(m->run_msg, sizeof m->run_msg, "out of memory");
        return ENGINE_INTERNAL;
    }
    m->pending = 0;
    m->answer_ids = ids;
    m->answer_n = n;
    engine_code c = match_exec(m, OP_RUN, NULL, 0);
    m->answer_ids = NULL;
    m->answer_n = 0;
    return c;
}

/* Rebuilds the match in place from m->snap and the answers in src (not delivering the
 * events the replay produces). */
static engine_code rebuild(engine_match *m, const engine_log *src)
{
    lua_State *L = m->b->L;
    push_g(L, m);
    lua_pushnil(L);
    lua_setiuservalue(L, -2, 1);
    lua_pop(L, 1);
    m->in_turn = 0;
    m->pending = 0;
    m->in_answer = 0;
    m->can_undo = 0;
    engine_state_reset(&m->st);
    log_reset(&m->log);
    m->replaying = 1;
    engine_code c = match_exec(m, OP_LOAD, m->snap.p, m->snap.len);
    if (c == ENGINE_OK)
        c = match_exec(m, OP_RUN, NULL, 0);
    for (size_t i = 0; c == ENGINE_OK && src && i < src->n; i++) {
        const engine_logent *e = &src->v[i];
        engine_error err;
        c = check_answer(m, e->seat, e->decision_id, src->ids + e->off, e->n, &err);
        if (c != ENGINE_OK)
            snprintf(m->run_msg, sizeof m->run_msg, "replay: %.200s", err.message);
        else
            c = apply_answer(m, e->seat, e->decision_id, src->ids + e->off, e->n);
    }
    m->replaying = 0;
    for (int s = 0; s < m->np; s++)
        if (m->drained_seq[s] > m->st.event_seq[s])
            m->drained_seq[s] = m->st.event_seq[s];
    return c;
}

static void events_truncate(engine_match *m, size_t nev, size_t evtext)
{
    if (nev < m->nev) {
        m->nev = nev;
        m->evtext_len = evtext;
    }
}

engine_code engine_match_answer(engine_match *m, int seat, uint64_t decision_id,
                                const uint32_t *option_ids, size_t n, engine_error *err)
{
    engine_code c = check_answer(m, seat, decision_id, option_ids, n, err);
    if (c != ENGINE_OK)
        return c;
    size_t nev = m->nev, evtext = m->evtext_len;
    m->in_answer = 1;
    m->boundary_in_answer = 0;
    c = apply_answer(m, seat, decision_id, option_ids, n);
    m->in_answer = 0;
    if (c == ENGINE_OK) {
        m->can_undo = 1;
        m->undo_nev = nev;
        m->undo_evtext = evtext;
        if (err) {
            err->code = ENGINE_OK;
            err->message[0] = 0;
        }
        return ENGINE_OK;
    }
    /* Roll back to the state before this answer. */
    char msg[256];
    snprintf(msg, sizeof msg, "%s", m->run_msg);
    if (m->boundary_in_answer) {
        swap_bufs(&m->snap, &m->prev_snap);
        swap_logs(&m->log, &m->prev_log);
    }
    engine_log src = m->log;
    if (src.n)
        src.n--; /* this answer */
    memset(&m->log, 0, sizeof m->log);
    events_truncate(m, nev, evtext);
    engine_code rc = rebuild(m, &src);
    log_free(&src);
    if (rc != ENGINE_OK) {
        seterr(err, ENGINE_INTERNAL, "rollback failed");
        return ENGINE_INTERNAL;
    }
    seterr(err, c == ENGINE_INTERNAL ? ENGINE_INTERNAL : ENGINE_SCRIPT_ERROR, msg);
    return c == ENGINE_INTERNAL ? ENGINE_INTERNAL : ENGINE_SCRIPT_ERROR;
}

engine_code engine_match_undo(engine_match *m, engine_error *err)
{
    if (!m->can_undo) {
        seterr(err, ENGINE_BAD_REQUEST, "nothing to undo");
        return ENGINE_BAD_REQUEST;
    }
    if (m->boundary_in_answer) {
        swap_bufs(&m->snap, &m->prev_snap);
        swap_logs(&m->log, &m->prev_log);
    }
    engine_log src = m->log;
    if (src.n)
        src.n--;
    memset(&m->log, 0, sizeof m->log);
    events_truncate(m, m->undo_nev, m->undo_evtext);
    engine_code rc = rebuild(m, &src);
    log_free(&src);
    m->boundary_in_answer = 0;
    if (rc != ENGINE_OK) {
        seterr(err, ENGINE_INTERNAL, m->run_msg);
        return ENGINE_INTERNAL;
    }
    if (err) {
        err->code = ENGINE_OK;
        err->message[0] = 0;
    }
    return ENGINE_OK;
}

engine_match *engine_match_restore(engine_bundle *b, const engine_match_config *cfg,
                                   const uint8_t *snap, size_t len, const engine_answer *log,
                                   size_t nlog, engine_error *err)
{
    engine_log src = {0};
    engine_match *m = match_alloc(b, cfg, err);
    if (!m)
        return NULL;
    m->snap.p = malloc(len ? len : 1);
    if (!m->snap.p)
        goto oom;
    memcpy(m->snap.p, snap, len);
    m->snap.len = m->snap.cap = len;
    for (size_t i = 0; i < nlog; i++)
        if (log_append(&src, log[i].seat, log[i].decision_id, log[i].option_ids, log[i].n) < 0)
            goto oom;
    if (rebuild(m, &src) != ENGINE_OK) {
        seterr(err, ENGINE_SCRIPT_ERROR, m->run_msg);
        goto fail;
    }
    log_free(&src);
    for (int s = 0; s < m->np; s++)
        m->drained_seq[s] = m->st.event_seq[s];
    if (err) {
        err->code = ENGINE_OK;
        err->message[0] = 0;
    }
    return m;
oom:
    seterr(err, ENGINE_INTERNAL, "out of memory");
fail:
    log_free(&src);
    engine_match_free(m);
    return NULL;
}

engine_code engine_match_bot_answer(engine_match *m, const char *strategy, uint32_t *ids, size_t *n,
                                    engine_error *err)
{
    if (!m->pending) {
        seterr(err, ENGINE_BAD_REQUEST, "no decision is pending");
        return ENGINE_BAD_REQUEST;
    }
    bot_ask ask = {NULL, 0};
    const char *name = strategy ? strategy : "default";
    for (size_t i = 0; i < m->game->nbots; i++)
        if (!strcmp(m->game->bots[i].name, name))
            ask.bot = &m->game->bots[i];
    if (!ask.bot) {
        seterr(err, ENGINE_BAD_REQUEST, "no such bot in the game");
        return ENGINE_BAD_REQUEST;
    }
    /* The bot only reads (g refuses changes), but g:random moves the generator: put it
       back, since nothing of this call is logged or replayed. */
    uint64_t rng[4];
    memcpy(rng, m->st.rng, sizeof rng);
    m->asking_bot = 1;
    engine_code c = match_exec(m, OP_BOT, &ask, 0);
    m->asking_bot = 0;
    memcpy(m->st.rng, rng, sizeof rng);
    if (c != ENGINE_OK) {
        seterr(err, ENGINE_SCRIPT_ERROR, m->run_msg);
        return ENGINE_SCRIPT_ERROR;
    }
    if (ask.n > *n) {
        seterr(err, ENGINE_BAD_REQUEST, "the answer does not fit in ids");
        return ENGINE_BAD_REQUEST;
    }
    if (ask.n)
        memcpy(ids, m->bot_ids, sizeof(uint32_t) * ask.n);
    *n = ask.n;
    if (err) {
        err->code = ENGINE_OK;
        err->message[0] = 0;
    }
    return ENGINE_OK;
}

/* ---- getters ------------------------------------------------------------------------- */

bool engine_match_finished(const engine_match *m)
{
    return m->st.finished != 0;
}

size_t engine_match_results(const engine_match *m, engine_result *out, size_t max)
{
    if (!m->st.finished)
        return 0;
    for (int i = 0; i < m->np && (size_t)i < max; i++)
        out[i] = m->st.results[i];
    return (size_t)m->np;
}

int engine_match_nplayers(const engine_match *m)
{
    return m->np;
}

uint64_t engine_match_snapshot_version(const engine_match *m)
{
    return m->st.version;
}

const uint8_t *engine_match_snapshot(const engine_match *m, size_t *len)
{
    *len = m->snap.len;
    return m->snap.p;
}

size_t engine_match_log_len(const engine_match *m)
{
    return m->log.n;
}

engine_answer engine_match_log_at(const engine_match *m, size_t i)
{
    engine_answer a = {0, 0, NULL, 0};
    if (i >= m->log.n)
        return a;
    const engine_logent *e = &m->log.v[i];
    a.seat = e->seat;
    a.decision_id = e->decision_id;
    a.option_ids = m->log.ids + e->off;
    a.n = e->n;
    return a;
}

uint64_t engine_match_hash(const engine_match *m)
{
    engine_match *mm = (engine_match *)m; /* the scratch buffer is not state */
    if (engine_state_save(&m->st, &m->b->names, &mm->scratch) < 0)
        return 0;
    uint64_t h = engine_fnv1a(mm->scratch.p, mm->scratch.len);
    /* The pending decision is part of where the match stands. */
    uint8_t d[16] = {(uint8_t)m->pending, (uint8_t)(m->pending ? m->dec.seat : 0)};
    uint64_t did = m->pending ? m->dec.decision_id : 0;
    memcpy(d + 8, &did, 8);
    return h ^ engine_fnv1a(d, sizeof d) * 0x9e3779b97f4a7c15ULL;
}

/* ---- the log encoding: varints ------------------------------------------------------- */

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        p[n++] = c | (v ? 0x80 : 0);
    } while (v);
    return n;
}

static int get_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*pos >= len)
            return -1;
        uint8_t c = p[(*pos)++];
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return 0;
    }
    return -1;
}

int engine_answer_encode(const engine_answer *a, uint8_t **out, size_t *len)
{
    uint8_t *p = malloc(1 + 10 * 3 + 5 * a->n);
    if (!p)
        return -1;
    size_t n = 0;
    p[n++] = 1; /* format */
    n += put_varint(p + n, (uint64_t)a->seat);
    n += put_varint(p + n, a->decision_id);
    n += put_varint(p + n, a->n);
    for (size_t i = 0; i < a->n; i++)
        n += put_varint(p + n, a->option_ids[i]);
    *out = p;
    *len = n;
    return 0;
}

int engine_answer_decode(const uint8_t *buf, size_t len, engine_answer *a, uint32_t *ids,
                         size_t max)
{
    size_t pos = 0;
    uint64_t seat, did, n, v;
    if (len < 1 || buf[pos++] != 1)
        return -1;
    if (get_varint(buf, len, &pos, &seat) || get_varint(buf, len, &pos, &did) ||
        get_varint(buf, len, &pos, &n) || seat > 64 || n > max)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        if (get_varint(buf, len, &pos, &v) || v > UINT32_MAX)
            return -1;
        ids[i] = (uint32_t)v;
    }
    if (pos != len)
        return -1;
    a->seat = (int)seat;
    a->decision_id = did;
    a->option_ids = ids;
    a->n = (size_t)n;
    return 0;
}
