/*
 * engine_turns.c: the steps of a match that run Lua, each in one protected call under
 * the bundle's call budget (engine_turns_exec): creating g, the game's setup, running
 * turns until a human decision is pending or the game is over, loading a snapshot, and
 * asking a bot for an answer.
 *
 * A script error, a refused allocation or a killed deadline ends that step, never the
 * process; the caller (engine_match.c) rolls the match back. A turn with a human seat
 * runs as a coroutine that g:choose suspends (one per match, reused from turn to turn:
 * turn_co); when every seat is a bot nothing can
 * suspend, so turns are plain calls on the main thread and only the final snapshot is
 * written: that is the `deckhand sim` hot path.
 */
#include <stdio.h>
#include <string.h>

#include "dh_clock.h"
#include "engine_end.h"
#include "engine_internal.h"

/* A turn boundary: a new snapshot, an empty answer log. When every seat is a bot, or the
 * match is a search's copy, nothing reads the snapshot until the match is over, and then
 * mostly nothing does (a sim, a play-out): the final one is written when read
 * (engine_match_snap_sync), from the state the finished match keeps unchanged. */
static void boundary(lua_State *L, engine_match *m)
{
    m->st.version++;
    if ((m->all_bots || m->copy) && !m->st.finished)
        return;
    if (m->in_answer && !m->boundary_in_answer) {
        /* Keep what undo needs: the snapshot and log this answer started from. */
        engine_match_swap_prev(m);
        m->boundary_in_answer = 1;
    }
    engine_log_reset(&m->log);
    if (m->all_bots || m->copy) {
        m->snap_stale = 1;
        return;
    }
    if (engine_state_save_memo(&m->st, &m->b->names, &m->snap, m->sorder) < 0)
        luaL_error(L, "out of memory (snapshot)");
}

static void read_results(lua_State *L, engine_match *m)
{
    int t = lua_gettop(L);
    if (!lua_istable(L, t))
        luaL_error(L, "results must return an array by player");
    engine_freeze_see(L, t);
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

static int results_cf(lua_State *L)
{
    engine_match *m = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->results_ref);
    engine_match_push_g(m, L);
    lua_call(L, 1, 1);
    read_results(L, m);
    return 0;
}

/* The match reached its game's turn cap: it ends here, scored by the game's results (a
 * draw, everyone rank 1 with score 0, when results fails on a game that did not expect to
 * end), with an event telling every seat why and the hidden counter _turn_cap set, so the
 * end is in the snapshot (engine_match_turn_capped). */
static void end_at_cap(lua_State *L, engine_match *m)
{
    engine_bundle *b = m->b;
    char text[96];
    int len = snprintf(text, sizeof text, "Game over: the turn cap (%d turns) was reached.",
                       m->game->max_turns);
    if (engine_match_event(m, -1, -1, "log", text, (size_t)len) < 0)
        luaL_error(L, "out of memory (events)");
    int64_t *v = engine_map_put(&m->st.counters, (uint64_t)b->id_turn_cap << 32);
    if (!v)
        luaL_error(L, "out of memory (counters)");
    *v = 1;
    engine_deadline_set(b, dh_now_ns() + b->budget_ns);
    lua_pushcfunction(L, results_cf);
    lua_pushlightuserdata(L, m);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        for (int i = 0; i < m->np; i++)
            m->st.results[i] = (engine_result){.seat = i, .score = 0, .rank = 1, .turns = 0};
    }
    m->st.finished = 1;
    boundary(L, m);
}

static void end_of_turn(lua_State *L, engine_match *m)
{
    engine_bundle *b = m->b;
    engine_deadline_set(b, dh_now_ns() + b->budget_ns);
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->finished_ref);
    engine_match_push_g(m, L);
    lua_call(L, 1, 1);
    int done = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (done) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->results_ref);
        engine_match_push_g(m, L);
        lua_call(L, 1, 1);
        read_results(L, m);
        engine_match_refresh(L, m);
        m->st.finished = 1;
        engine_end_words(L, m);
    }
    boundary(L, m);
}

static lua_State *get_co(lua_State *L, engine_match *m)
{
    engine_match_push_g(m, L);
    lua_getiuservalue(L, -1, 1);
    lua_State *co = lua_tothread(L, -1);
    lua_pop(L, 2);
    return co;
}

/* The coroutine a new turn runs in (g's first user value): the one the last turn returned
 * from, whose stack is empty then, so a resume with the turn function on it starts afresh;
 * a new one when there is none (the match's first turn, or after a rebuild, which drops a
 * thread a failed turn left in an error state). A new thread per turn was a third of the
 * bytes a worker's VM allocated per answer: its state, and its stack grown from 40 slots
 * on the turn's first calls; so the young generation filled sooner and the collections
 * that stop an answer came more often (docs/BENCHMARKS.md, issue 27, "The worker's Lua
 * collections"). */
static lua_State *turn_co(lua_State *L, engine_match *m)
{
    lua_State *co = get_co(L, m);
    if (co && lua_status(co) == LUA_OK && lua_gettop(co) == 0)
        return co;
    engine_match_push_g(m, L);
    co = lua_newthread(L);
    lua_setiuservalue(L, -2, 1);
    lua_pop(L, 1);
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
            engine_deadline_set(b, dh_now_ns() + b->budget_ns);
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
            lua_settop(co, 0); /* what the turn returned; the thread serves the next turn */
            end_of_turn(L, m);
            continue;
        }
        if (m->st.finished)
            return;
        if (m->st.turn >= (uint32_t)m->game->max_turns) {
            end_at_cap(L, m);
            return;
        }
        if (m->on_features)
            engine_features_note(L, m);
        if (m->stop_turn && m->st.turn >= m->stop_turn)
            return; /* a search's copy, cut short here to be evaluated */
        m->st.turn++;
        m->turn_events = 0;
        if (m->all_bots) {
            engine_deadline_set(b, dh_now_ns() + b->budget_ns);
            lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->turn_ref);
            engine_match_push_g(m, L);
            lua_call(L, 1, 0);
            end_of_turn(L, m);
            continue;
        }
        lua_State *co = turn_co(L, m);
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
    case ENGINE_OP_G:
        m->g = engine_api_new_g(L, m);
        m->g_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        break;
    case ENGINE_OP_SETUP:
        if (m->game->setup_ref != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->setup_ref);
            engine_match_push_g(m, L);
            lua_call(L, 1, 0);
        }
        if (m->setup_ref != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, m->setup_ref);
            engine_match_push_g(m, L);
            lua_call(L, 1, 0);
        }
        boundary(L, m);
        break;
    case ENGINE_OP_RUN:
        run_turns(L, m);
        break;
    case ENGINE_OP_LOAD: {
        char why[128];
        const uint8_t *p = lua_touserdata(L, 3);
        size_t len = (size_t)lua_tointeger(L, 4);
        if (engine_state_load(&m->st, m->b, L, p, len, why, sizeof why) < 0)
            return luaL_error(L, "bad snapshot: %s", why);
        break;
    }
    case ENGINE_OP_EVAL: {
        double *v = lua_touserdata(L, 3);
        lua_rawgeti(L, LUA_REGISTRYINDEX, m->game->evaluate_ref);
        engine_match_push_g(m, L);
        lua_call(L, 1, 1);
        if (!lua_istable(L, -1))
            return luaL_error(L, "evaluate must return an array of numbers by player");
        for (int i = 0; i < m->np; i++) {
            lua_rawgeti(L, -1, i + 1);
            int ok;
            lua_Number x = lua_tonumberx(L, -1, &ok);
            lua_pop(L, 1);
            if (!ok || x != x || x < 0 || x > 1)
                return luaL_error(L, "evaluate: player %d's value must be a number in 0..1", i + 1);
            v[i] = (double)x;
        }
        break;
    }
    case ENGINE_OP_BOT: {
        engine_bot_ask *ask = lua_touserdata(L, 3);
        lua_rawgeti(L, LUA_REGISTRYINDEX, ask->bot->ref);
        engine_match_push_g(m, L);
        lua_pushinteger(L, m->dec.seat + 1);
        engine_match_push_g(m, L);
        lua_getiuservalue(L, -1, 2); /* the table the turn passed to g:choose */
        lua_remove(L, -2);
        lua_call(L, 3, 1);
        ask->n = engine_decision_bot_ids(L, m, ask->bot->name, lua_gettop(L), m->dec.noptions,
                                         m->dec.min, m->dec.max);
        break;
    }
    }
    return 0;
}

/* Runs one step in protected mode under a deadline. */
engine_code engine_turns_exec(engine_match *m, engine_op op, const void *p, size_t len)
{
    engine_bundle *b = m->b;
    lua_State *L = b->L;
    int top = lua_gettop(L);
    uint64_t prev = engine_call_begin(b);
    lua_pushcfunction(L, match_cf);
    lua_pushlightuserdata(L, m);
    lua_pushinteger(L, (lua_Integer)op);
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
    if (!prev)
        engine_freeze_trim(b); /* a top-level step: caches give memory back when it is tight */
    return code;
}
