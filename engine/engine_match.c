/*
 * engine_match.c: the life of a match through the public API (engine.h): creating one,
 * answering its decisions, undo, restore from a snapshot and the answers since, asking a
 * bot, and what the host reads of it (results, snapshot, hash).
 *
 * Every step that runs Lua goes through engine_turns_exec. A failed answer is undone by
 * rebuilding the match in place from its last snapshot and the answers accepted since (the
 * same path as engine_match_restore), so the rebuilt state is exactly the accepted one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

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
        engine_match_push_g(m, L);
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
    free(m->undo.hidden);
    free(m->dtext);
    free(m->ev);
    free(m->evtext);
    free(m->vorder[0].idx);
    free(m->vorder[1].idx);
    free(m->sorder[0].idx);
    free(m->sorder[1].idx);
    free(m->sorder[2].idx);
    engine_buf_free(&m->snap);
    engine_buf_free(&m->prev_snap);
    engine_buf_free(&m->scratch);
    engine_log_free(&m->log);
    engine_log_free(&m->prev_log);
    engine_state_free(&m->st);
    free(m);
}

/* Everything of a match but its history: config copied, state empty, g created. */
static engine_match *match_alloc(engine_bundle *b, const engine_match_config *cfg,
                                 engine_error *err)
{
    engine_match *m = NULL;
    if (!cfg || !cfg->game) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "no game given");
        return NULL;
    }
    const engine_game *g = engine_bundle_game(b, cfg->game);
    if (!g) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "no such game in the bundle");
        return NULL;
    }
    if (cfg->nplayers < g->min_players || cfg->nplayers > g->max_players) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "player count outside the game's range");
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
    m->undo.seat = -1;
    m->quiet = cfg->quiet;
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
            engine_error_set(err, ENGINE_BAD_REQUEST, "no such bot in the game");
            goto fail;
        }
        m->bot_name[i] = strdup(bn);
        if (!m->bot_name[i])
            goto oom;
    }
    if (engine_turns_exec(m, ENGINE_OP_G, NULL, 0) != ENGINE_OK)
        goto oom;
    return m;
oom:
    engine_error_set(err, ENGINE_INTERNAL, "out of memory");
fail:
    engine_match_free(m);
    return NULL;
}

/* A new match run to its first human decision: with the rules runner's extra set-up
 * (setup_ref) and a position log (on_features) when they are given. */
static engine_match *match_new(engine_bundle *b, const engine_match_config *cfg, int setup_ref,
                               engine_features_fn on_features, void *ud, engine_error *err)
{
    engine_match *m = match_alloc(b, cfg, err);
    if (!m)
        return NULL;
    m->setup_ref = setup_ref;
    m->on_features = on_features;
    m->features_ud = ud;
    engine_rng_seed(&m->st, cfg->seed);
    if (engine_turns_exec(m, ENGINE_OP_SETUP, NULL, 0) != ENGINE_OK ||
        engine_turns_exec(m, ENGINE_OP_RUN, NULL, 0) != ENGINE_OK) {
        engine_error_set(err, ENGINE_SCRIPT_ERROR, "%s", m->run_msg);
        engine_match_free(m);
        return NULL;
    }
    m->setup_ref = LUA_NOREF;
    engine_error_ok(err);
    return m;
}

engine_match *engine_match_new_ex(engine_bundle *b, const engine_match_config *cfg, int setup_ref,
                                  engine_error *err)
{
    return match_new(b, cfg, setup_ref, NULL, NULL, err);
}

engine_match *engine_match_new(engine_bundle *b, const engine_match_config *cfg, engine_error *err)
{
    return match_new(b, cfg, LUA_NOREF, NULL, NULL, err);
}

engine_match *engine_match_new_logged(engine_bundle *b, const engine_match_config *cfg,
                                      engine_features_fn on_features, void *ud, engine_error *err)
{
    return match_new(b, cfg, LUA_NOREF, on_features, ud, err);
}

/* ---- answers, rebuilds --------------------------------------------------------------- */

/* Logs and applies a checked answer, running to the next decision. */
static engine_code apply_answer(engine_match *m, int seat, uint64_t did, const uint32_t *ids,
                                size_t n)
{
    if (engine_log_append(&m->log, seat, did, ids, n) < 0) {
        snprintf(m->run_msg, sizeof m->run_msg, "out of memory");
        return ENGINE_INTERNAL;
    }
    m->pending = 0;
    m->answer_ids = ids;
    m->answer_n = n;
    engine_code c = engine_turns_exec(m, ENGINE_OP_RUN, NULL, 0);
    m->answer_ids = NULL;
    m->answer_n = 0;
    return c;
}

/* Rebuilds the match in place from m->snap and the answers in src (not delivering the
 * events the replay produces). */
static engine_code rebuild(engine_match *m, const engine_log *src)
{
    lua_State *L = m->b->L;
    if (engine_match_snap_sync(m) < 0) {
        snprintf(m->run_msg, sizeof m->run_msg, "out of memory (snapshot)");
        return ENGINE_INTERNAL;
    }
    engine_match_push_g(m, L);
    lua_pushnil(L);
    lua_setiuservalue(L, -2, 1);
    lua_pop(L, 1);
    m->in_turn = 0;
    m->pending = 0;
    m->in_answer = 0;
    m->can_undo = 0;
    m->undo.seat = -1;
    engine_state_reset(&m->st);
    engine_log_reset(&m->log);
    m->turn_events = 0; /* the snapshot is a turn boundary */
    m->replaying = 1;
    engine_code c = ENGINE_OK;
    if (!m->base)
        c = engine_turns_exec(m, ENGINE_OP_LOAD, m->snap.p, m->snap.len);
    else if (engine_state_copy(&m->st, m->base) < 0)
        c = ENGINE_INTERNAL;
    if (c == ENGINE_OK)
        c = engine_turns_exec(m, ENGINE_OP_RUN, NULL, 0);
    for (size_t i = 0; c == ENGINE_OK && src && i < src->n; i++) {
        const engine_logent *e = &src->v[i];
        engine_error err;
        c = engine_decision_check(m, e->seat, e->decision_id, src->ids + e->off, e->n, &err);
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

/* Back to where the last answer started: its snapshot and log (swapped back when it
 * crossed a turn boundary) replayed without its own entry, and the events it made (from
 * nev events and evtext bytes of their text on) dropped. */
static engine_code roll_back(engine_match *m, size_t nev, size_t evtext)
{
    if (m->boundary_in_answer)
        engine_match_swap_prev(m);
    engine_log src = m->log;
    if (src.n)
        src.n--; /* the answer */
    memset(&m->log, 0, sizeof m->log);
    engine_events_truncate(m, nev, evtext);
    engine_code rc = rebuild(m, &src);
    engine_log_free(&src);
    return rc;
}

engine_code engine_match_answer(engine_match *m, int seat, uint64_t decision_id,
                                const uint32_t *option_ids, size_t n, engine_error *err)
{
    engine_code c = engine_decision_check(m, seat, decision_id, option_ids, n, err);
    if (c != ENGINE_OK)
        return c;
    size_t nev = m->nev, evtext = m->evtext_len;
    int noted = engine_undo_begin(m, seat);
    m->in_answer = 1;
    m->boundary_in_answer = 0;
    c = apply_answer(m, seat, decision_id, option_ids, n);
    m->in_answer = 0;
    if (c == ENGINE_OK) {
        if (noted == 0)
            engine_undo_end(m, seat);
        m->can_undo = 1;
        m->undo_nev = nev;
        m->undo_evtext = evtext;
        engine_error_ok(err);
        return ENGINE_OK;
    }
    /* Roll back to the state before this answer (a search's copy has no snapshot to roll
       back to: the search drops it). */
    char msg[256];
    snprintf(msg, sizeof msg, "%s", m->run_msg);
    if (!m->copy && roll_back(m, nev, evtext) != ENGINE_OK) {
        engine_error_set(err, ENGINE_INTERNAL, "rollback failed");
        return ENGINE_INTERNAL;
    }
    engine_error_set(err, c == ENGINE_INTERNAL ? ENGINE_INTERNAL : ENGINE_SCRIPT_ERROR, "%s", msg);
    return c == ENGINE_INTERNAL ? ENGINE_INTERNAL : ENGINE_SCRIPT_ERROR;
}

engine_code engine_match_undo(engine_match *m, engine_error *err)
{
    if (!m->can_undo) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "nothing to undo");
        return ENGINE_BAD_REQUEST;
    }
    engine_code rc = roll_back(m, m->undo_nev, m->undo_evtext);
    m->boundary_in_answer = 0;
    if (rc != ENGINE_OK) {
        engine_error_set(err, ENGINE_INTERNAL, "%s", m->run_msg);
        return ENGINE_INTERNAL;
    }
    engine_error_ok(err);
    return ENGINE_OK;
}

engine_code engine_match_take_back(engine_match *m, engine_error *err)
{
    if (!engine_match_can_take_back(m, m->undo.seat)) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "nothing to undo");
        return ENGINE_BAD_REQUEST;
    }
    engine_log src = m->log;
    src.n--; /* the answer taken back */
    memset(&m->log, 0, sizeof m->log);
    engine_events_truncate(m, m->undo_nev, m->undo_evtext);
    engine_code rc = rebuild(m, &src);
    engine_log_free(&src);
    if (rc != ENGINE_OK) {
        engine_error_set(err, ENGINE_INTERNAL, "%s", m->run_msg);
        return ENGINE_INTERNAL;
    }
    engine_error_ok(err);
    return ENGINE_OK;
}

/* The snapshot a match keeps at rest holds at most this many bytes more than it needs. */
#define SETTLED_SNAP_SLACK 256

/* The snapshot's room beyond its bytes given back: copied into the previous snapshot's
 * buffer when that fits them closely (no realloc, which leaves the freed tail between live
 * blocks), else shrunk. The buffer it was written in is freed (prev_snap, below). */
static void settle_snap(engine_match *m)
{
    engine_buf *s = &m->snap, *prev = &m->prev_snap;
    if (!s->p || s->cap == s->len)
        return;
    if (prev->p && prev->cap >= s->len && prev->cap - s->len <= SETTLED_SNAP_SLACK) {
        memcpy(prev->p, s->p, s->len);
        prev->len = s->len;
        engine_buf roomy = *s;
        *s = *prev;
        *prev = roomy;
        return;
    }
    uint8_t *p = realloc(s->p, s->len ? s->len : 1);
    if (p) {
        s->p = p;
        s->cap = s->len ? s->len : 1;
    }
}

void engine_match_settle(engine_match *m)
{
    if (m->in_answer)
        return;
    m->can_undo = 0;
    settle_snap(m);
    engine_buf_free(&m->prev_snap);
    engine_spare_put_log(&m->prev_log); /* kept by the thread for the next match: engine_spare.c */
    engine_buf_free(&m->scratch);
    engine_state_trim(&m->st);
    if (m->nev == 0)
        engine_spare_put_events(m);
}

/* The history of a fresh match m: its last snapshot (in m->snap, or m->base) and the
 * answers since; m is freed when it fails. */
static engine_match *restore_into(engine_match *m, const engine_answer *log, size_t nlog,
                                  engine_error *err)
{
    engine_log src = {0};
    for (size_t i = 0; i < nlog; i++)
        if (engine_log_append(&src, log[i].seat, log[i].decision_id, log[i].option_ids, log[i].n) <
            0)
            goto oom;
    if (rebuild(m, &src) != ENGINE_OK) {
        engine_error_set(err, ENGINE_SCRIPT_ERROR, "%s", m->run_msg);
        goto fail;
    }
    engine_log_free(&src);
    for (int s = 0; s < m->np; s++)
        m->drained_seq[s] = m->st.event_seq[s];
    engine_error_ok(err);
    return m;
oom:
    engine_error_set(err, ENGINE_INTERNAL, "out of memory");
fail:
    engine_log_free(&src);
    engine_match_free(m);
    return NULL;
}

engine_match *engine_match_restore(engine_bundle *b, const engine_match_config *cfg,
                                   const uint8_t *snap, size_t len, const engine_answer *log,
                                   size_t nlog, engine_error *err)
{
    engine_match *m = match_alloc(b, cfg, err);
    if (!m)
        return NULL;
    m->snap.p = malloc(len ? len : 1);
    if (!m->snap.p) {
        engine_error_set(err, ENGINE_INTERNAL, "out of memory");
        engine_match_free(m);
        return NULL;
    }
    memcpy(m->snap.p, snap, len);
    m->snap.len = m->snap.cap = len;
    return restore_into(m, log, nlog, err);
}

engine_match *engine_match_restore_copy(engine_bundle *b, const engine_match_config *cfg,
                                        const engine_state *base, const engine_answer *log,
                                        size_t nlog, engine_error *err)
{
    engine_match *m = match_alloc(b, cfg, err);
    if (!m)
        return NULL;
    m->copy = 1;
    m->base = base;
    return restore_into(m, log, nlog, err);
}

engine_code engine_match_bot_answer(engine_match *m, const char *strategy, uint32_t *ids, size_t *n,
                                    engine_error *err)
{
    if (!m->pending) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "no decision is pending");
        return ENGINE_BAD_REQUEST;
    }
    engine_bot_ask ask = {NULL, 0};
    const char *name = strategy ? strategy : "default";
    for (size_t i = 0; i < m->game->nbots; i++)
        if (!strcmp(m->game->bots[i].name, name))
            ask.bot = &m->game->bots[i];
    if (!ask.bot) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "no such bot in the game");
        return ENGINE_BAD_REQUEST;
    }
    /* The bot only reads (g refuses changes), but g:random moves the generator: put it
       back, since nothing of this call is logged or replayed. */
    uint64_t rng[4];
    memcpy(rng, m->st.rng, sizeof rng);
    m->asking_bot = 1;
    engine_code c = engine_turns_exec(m, ENGINE_OP_BOT, &ask, 0);
    m->asking_bot = 0;
    memcpy(m->st.rng, rng, sizeof rng);
    if (c != ENGINE_OK) {
        engine_error_set(err, ENGINE_SCRIPT_ERROR, "%s", m->run_msg);
        return ENGINE_SCRIPT_ERROR;
    }
    if (ask.n > *n) {
        engine_error_set(err, ENGINE_BAD_REQUEST, "the answer does not fit in ids");
        return ENGINE_BAD_REQUEST;
    }
    if (ask.n)
        memcpy(ids, m->bot_ids, sizeof(uint32_t) * ask.n);
    *n = ask.n;
    engine_error_ok(err);
    return ENGINE_OK;
}

/* ---- getters ------------------------------------------------------------------------- */

bool engine_match_finished(const engine_match *m)
{
    return m->st.finished != 0;
}

bool engine_match_turn_capped(const engine_match *m)
{
    const int64_t *v = engine_map_find(&m->st.counters, (uint64_t)m->b->id_turn_cap << 32);
    return m->st.finished && v && *v;
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
    if (engine_match_snap_sync((engine_match *)m) < 0) { /* written when first read */
        *len = 0;
        return NULL;
    }
    *len = m->snap.len;
    return m->snap.p;
}

uint64_t engine_match_hash(const engine_match *m)
{
    engine_match *mm = (engine_match *)m; /* the scratch buffer is not state */
    if (engine_state_save_hashed(&m->st, &m->b->names, &mm->scratch) < 0)
        return 0;
    uint64_t h = engine_fnv1a(mm->scratch.p, mm->scratch.len);
    /* The pending decision is part of where the match stands. */
    uint8_t d[16] = {(uint8_t)m->pending, (uint8_t)(m->pending ? m->dec.seat : 0)};
    uint64_t did = m->pending ? m->dec.decision_id : 0;
    memcpy(d + 8, &did, 8);
    return h ^ engine_fnv1a(d, sizeof d) * 0x9e3779b97f4a7c15ULL;
}
