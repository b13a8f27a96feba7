/*
 * engine_internal.h: the engine's private structures and the functions its modules share;
 * the bundle and the layer under a match are in engine_bundle.h, which it includes.
 * The modules, lowest layer first (a module calls only modules listed before it):
 *   engine_error.c    filling an engine_error
 *   engine_alloc.c    the VM's counting allocator
 *   engine_intern.c   interned names
 *   engine_files.c    a bundle's script files in memory
 *   engine_watchdog.c the clock and the deadline of script calls
 *   engine_map.c      the hash map under zones, attributes and counters
 *   engine_state.c    match state and RNG (engine_state_save.c: the snapshot format)
 *   engine_shuffle.c  the rules' shuffle (sorted first in a search's world)
 *   engine_bounded.c  bounds on what a script sizes: C library work, texts it sends
 *   engine_freeze.c   module state read-only after load; emptying caches
 *   engine_record.c   option records made read-only by the engine (deck.freeze)
 *   engine_sandbox.c  what scripts may reach; `require`
 *   engine_events.c   a match's events for its seats
 *   engine_decision.c the pending decision; validating a player's answer (Choose)
 *   engine_log.c      the answer log and an answer's encoding
 *   engine_api.c      the Lua `g` handle
 *   engine_board.c    the board kit's g calls: positions, statuses, listeners (C loops)
 *   engine_board_combat.c  g:clash: a plain attack between two pieces in one call
 *   engine_board_status.c  g:status_enter: a piece's printed statuses as it enters
 *   engine_deck*.c    the deck kit: a deck-builder's turn as g methods (engine_deck.h)
 *   engine_bots.c     the strategies the engine offers every game (`random`)
 *   engine_vm.c       a bundle's VM: allocator, watchdog, sandbox, registry tables
 *   engine_options.c  the options and bots a game declares; checking a match's options
 *   engine_present.c  a game's presentation hints (zone layout, type colours)
 *   engine_bundle.c   loading a bundle and its games
 *   engine_turns.c    the protected steps of a match: setup, turns, bots
 *   engine_match.c    a match's life through the public API
 *   engine_end.c      the end screen's data: the rules' words for the end, each seat's deck
 *   engine_view.c     per-seat views
 *   engine_search_world.c the search bot's worlds: copies of a match, dealt again, played out
 *   engine_search.c   the search bot's tree and its answer (engine_search_impl.h: their state)
 *   engine_rules_t.c  the `T` table of rules tests; engine_rules.c runs them;
 *                     engine_rules_diff.c tells where T.eq's values first differ
 * Users outside engine/: the unit tests' rig (tests/unit/rig_engine.c), the unit tests that
 * look inside a match or a game (test_engine_determinism, _present, _sandbox, _search,
 * _search_flat) and the fuzz targets of the manifest and snapshot parsers. They link
 * dh_engine_internal; nothing else can, as only engine/include/ is public.
 */
#ifndef DECKHAND_ENGINE_INTERNAL_H
#define DECKHAND_ENGINE_INTERNAL_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>

#include "dh_hash.h"
#include "engine.h"
#include "engine_bundle.h"
#include "engine_undo.h"

/* Adds g:fallen, g:shortfalls (engine_board.c), g:clash (engine_board_combat.c),
 * g:status_enter and g:status_clear (engine_board_status.c) to g's methods, after
 * engine_api_open. */
void engine_board_open(engine_bundle *b, lua_State *L);
/* engine_board_combat.c: g:clash for the match m (checked mutable; upvalue 1: names). */
int engine_board_clash(lua_State *L, engine_match *m);
/* engine_board_status.c: g:status_enter, g:status_clear for the match m (checked mutable). */
int engine_board_status_enter(lua_State *L, engine_match *m);
int engine_board_status_clear(lua_State *L, engine_match *m);

/* ---- match state ---------------------------------------------------------------------- */

typedef struct {
    uint32_t name; /* interned card name */
    uint32_t zone; /* index into zones */
} engine_entity;

typedef struct {
    uint32_t name;
    int32_t owner; /* Lua numbering: 0 shared, 1..n players */
    uint32_t *ids;
    uint32_t n, cap;
    /* The state's clock when this zone was made or its ids last changed
     * (engine_zone_touch): with the state's epoch, what tells a View that a zone it
     * showed before is unchanged (engine_match_view_since). Not state: no snapshot,
     * hash or copy carries it. */
    uint64_t stamp;
} engine_zone;

typedef struct {
    engine_entity *ents; /* index = id - 1 */
    uint32_t nents, cap;
    engine_zone *zones;
    uint32_t nzones, zcap;
    engine_map zone_map; /* name << 32 | owner -> zone index */
    engine_map attrs;    /* entity << 32 | attr -> value */
    engine_map counters; /* name << 32 | owner -> value */
    uint64_t rng[4];
    uint64_t decision_seq;
    uint64_t version;
    uint32_t turn;
    int np;
    uint64_t *event_seq; /* per seat, produced */
    uint64_t public_seq; /* events for everyone (g:log), produced: the spectators' count */
    int finished;
    engine_result *results;
    /* The zones' stamps (engine_zone, above): clock counts every change of a zone's ids
     * in this state, epoch is unique in the process and renewed whenever the zones may
     * change wholesale (init, reset, copy, load). Neither is state (no snapshot, hash or
     * copy carries them): they only let a View skip zones that did not change. */
    uint64_t clock, epoch;
} engine_state;

int engine_state_init(engine_state *st, int np);
void engine_state_free(engine_state *st);
void engine_state_reset(engine_state *st);
void engine_rng_seed(engine_state *st, uint64_t seed);
uint64_t engine_rng_next(engine_state *st);
/* Uniform in 0..n-1 (n >= 1). */
uint64_t engine_rng_below(engine_state *st, uint64_t n);
engine_zone *engine_zone_get(engine_state *st, uint32_t name, int32_t owner, int create);
/* Marks z as changed: every change of a zone's ids or of the names of the entities in it
 * goes through here (engine_state.c) or renews the state's epoch (engine_state_epoch), or
 * a View may show a seat a zone as it was (test_engine_view_prints checks every game). */
static inline void engine_zone_touch(engine_state *st, engine_zone *z)
{
    z->stamp = ++st->clock;
}
/* A new epoch for st, unique in the process: every stamp before it is void. */
void engine_state_epoch(engine_state *st);
/* Room for n ids in z (doubling). 0, or -1 out of memory. */
int engine_zone_reserve(engine_zone *z, uint32_t n);
/* Give back the entity array's slack (it grows by doubling): for a match at rest. */
void engine_state_trim(engine_state *st);
/* Creates an entity on top of zone z; returns its id or 0 on failure. */
uint32_t engine_entity_new(engine_state *st, uint32_t card, uint32_t z);
/* n entities of card on top of zone z, ids consecutive (what n engine_entity_new calls
 * make, with one reservation); returns the first id, or 0 on failure or for n = 0. */
uint32_t engine_entity_new_n(engine_state *st, uint32_t card, uint32_t z, uint32_t n);
int engine_entity_move(engine_state *st, uint32_t id, uint32_t z, int bottom);
/* Move every card of zone from_zi, keeping their order, onto the top (or under the bottom)
 * of zone to_zi: what moving them one by one (bottom card first onto the top, or top card
 * first under the bottom) gives, without the quadratic shifting. 0, or -1 out of memory. */
int engine_zone_move_all(engine_state *st, uint32_t from_zi, uint32_t to_zi, int bottom);
void engine_zone_shuffle(engine_state *st, engine_zone *z);
/* A shuffle of m's zone z by the rules (g:shuffle, the deck kit's reshuffle): in a search's
 * world (m->canonical_shuffle) the cards are sorted by name first (engine_shuffle.c). */
void engine_match_shuffle(engine_match *m, engine_zone *z);

typedef struct {
    uint8_t *p;
    size_t len, cap;
} engine_buf;

/* One sorted order a View or a snapshot reuses (engine_view.c, engine_state_save.c): n
 * indices, valid for the keys whose signature is sig. */
typedef struct {
    uint32_t *idx;
    uint32_t n, cap;
    uint64_t sig;
} engine_view_order;

void engine_buf_free(engine_buf *bf);
/* Canonical serialization of the state (the snapshot format). 0 on success. */
int engine_state_save(const engine_state *st, const engine_intern *in, engine_buf *out);
/* The same bytes, the zones' and counters' order taken from memo (the match's own: a cache
 * kept while the same keys exist) instead of sorted at every save, and the names the state
 * uses (memo[2]: their ids in string order, kept while the state uses the same names)
 * instead of found by a walk of every name of the bundle. */
int engine_state_save_memo(const engine_state *st, const engine_intern *in, engine_buf *out,
                           engine_view_order memo[3]);
/* The same in the layout of snapshot version 1 (no public event count): what
 * engine_match_hash hashes, so that the hashes recorded before version 2 (final_hash) still
 * match a replay, and a match adopted from a version 1 snapshot, whose public count
 * restarted, still hashes as a full replay of it does. The public count is output
 * numbering, not play. */
int engine_state_save_hashed(const engine_state *st, const engine_intern *in, engine_buf *out);
/* Loads a snapshot into a reset state (interning through b->L: call protected). */
int engine_state_load(engine_state *st, engine_bundle *b, lua_State *L, const uint8_t *p,
                      size_t len, char *why, size_t whylen);
/* engine_state_copy.c: dst (initialized, same player count) becomes an exact copy of src;
 * and a snapshot parsed into st (initialized here; freed again on failure), protected.
 * 0, or -1 when out of memory or the snapshot is bad. */
int engine_state_copy(engine_state *dst, const engine_state *src);
int engine_state_parse(engine_state *st, engine_bundle *b, int np, const uint8_t *p, size_t len);
/* FNV-1a, 64 bits: the state hash and the interning tables' string hash. */
static inline uint64_t engine_fnv1a(const uint8_t *p, size_t len)
{
    return dh_fnv1a(DH_FNV_START, p, len);
}

/* ---- matches -------------------------------------------------------------------------- */

typedef struct {
    int to;    /* seat, -1 = every seat */
    int about; /* seat or -1 */
    const char *kind;
    size_t off, len; /* text in evtext */
} engine_ev;

typedef struct {
    int seat;
    uint64_t decision_id;
    size_t off, n; /* ids in logids */
} engine_logent;

typedef struct {
    engine_logent *v;
    size_t n, cap;
    uint32_t *ids;
    size_t nids, idcap;
} engine_log;

typedef struct engine_g {
    uint32_t magic;
    engine_match *m;
} engine_g;

struct engine_match {
    engine_bundle *b;
    const engine_game *game;
    char *match_id;
    int np;
    char **names;
    int *bot_ref; /* per seat: LUA_NOREF for humans */
    char **bot_name;
    int all_bots;
    char *opts; /* "k\0v\0k\0v\0" */
    size_t nopts;
    engine_state st;
    int g_ref;
    engine_g *g;
    int in_turn; /* a coroutine is suspended in the g userdata's user value */
    /* pending decision */
    int pending;
    engine_decision dec;
    engine_option *opts_v;
    size_t opts_cap;
    char *dtext;
    size_t dtext_len, dtext_cap;
    uint32_t *bot_ids; /* scratch for validating a bot's answer */
    size_t bot_ids_cap;
    const uint32_t *answer_ids; /* handed to the resumed choose */
    size_t answer_n;
    /* events */
    engine_ev *ev;
    size_t nev, evcap;
    char *evtext;
    size_t evtext_len, evtext_cap;
    uint64_t *drained_seq;
    int replaying;
    int quiet; /* engine_match_config.quiet: events are counted, their text never built */
    /* persistence */
    engine_buf snap, prev_snap, scratch;
    int snap_stale; /* the final boundary of an all-bot match: snap is written when read */
    int copy;       /* a search's copy: no snapshots, no roll back (a failed copy is dropped) */
    const engine_state *base; /* a search's copy: its rebuild starts from this state */
    int canonical_shuffle;    /* a search's world: shuffles sort by name first */
    engine_log log, prev_log;
    int in_answer, boundary_in_answer, can_undo;
    size_t undo_nev, undo_evtext;
    engine_undo_note undo; /* engine_undo.c: may the last answer be taken back */
    /* the last error of a protected run */
    engine_code run_code;
    char run_msg[256];
    int turn_events;  /* events the current turn emitted (ENGINE_MAX_TURN_EVENTS) */
    int setup_ref;    /* the rules runner's extra setup, LUA_NOREF when none */
    int asking_bot;   /* engine_match_bot_answer runs: g refuses changes */
    uint64_t choices; /* g:choose calls, bots' included (the search bot's statistics) */

    uint32_t stop_turn;             /* a search's copy: run no turn after this one (0: no stop) */
    engine_features_fn on_features; /* a position log (engine_match_new_logged), or NULL */
    void *features_ud;
    char end_summary[ENGINE_END_SUMMARY_MAX]; /* the rules' words for the end (engine_end.c) */

    /* engine_view.c: the zones' and counters' name order of the last View, kept while the
     * same zones and counters exist (their keys' signature), so a View is not sorted anew
     * with string compares after every answer */
    engine_view_order vorder[2];
    /* engine_view.c: the start of every View's shape (its players and bundle), 0 until the
     * first View */
    uint64_t vshape;
    /* engine_state_save.c: the same for the snapshot saved at every turn boundary (its own
     * order: by the names' string order, engine_intern_sorted), and the names it wrote */
    engine_view_order sorder[3];
};

/* engine_zone_vis.c: how a game shows the zone called name (its `zones` table; a name
 * "prefix:rest" falls back to the entry for prefix; unlisted zones are hidden). */
engine_vis engine_zone_vis(const engine_game *g, const char *name);
/* The same for the interned zone name id, found once per game and name (g->vis_memo):
 * the memo read here, inline (Views and undo's note ask it for every zone after every
 * answer), engine_zone_vis_find on a miss. */
engine_vis engine_zone_vis_find(const engine_game *g, const engine_intern *in, uint32_t name);
static inline engine_vis engine_zone_vis_id(const engine_game *g, const engine_intern *in,
                                            uint32_t name)
{
    if (g->vis_memo && name < ENGINE_MAX_NAMES && g->vis_memo[name])
        return (engine_vis)(g->vis_memo[name] - 1);
    return engine_zone_vis_find(g, in, name);
}

/* engine_api.c */
int engine_api_open(engine_bundle *b, lua_State *L);
/* engine_api_kits.c: a kit's calls added to g's method table (upvalue 1: the names
 * table), and its constructors registered as the module `name` (package.loaded). */
void engine_api_add_methods(engine_bundle *b, lua_State *L, const luaL_Reg *methods);
void engine_api_add_module(engine_bundle *b, lua_State *L, const char *name, const luaL_Reg *fns);
engine_g *engine_api_new_g(lua_State *L, engine_match *m);
/* The match of the g at argument 1 (raises when it is none); mutating: refused while a bot
 * is only asked for an answer. For g methods defined outside engine_api.c (engine_deck_*.c). */
engine_match *engine_api_match(lua_State *L, int mutating);
/* An owner (0..players) and an entity id at argument i, checked as engine_api.c's own g
 * methods check them (raise when bad): for g methods defined outside it. */
int32_t engine_api_owner(lua_State *L, engine_match *m, int i);
uint32_t engine_api_entity(lua_State *L, engine_match *m, int i);

/* engine_api_log.c: g:log, g:log_to, g:log_player and g:logging (engine_api.c's table). */
int engine_g_log(lua_State *L);
int engine_g_log_to(lua_State *L);
int engine_g_log_player(lua_State *L);
int engine_g_logging(lua_State *L);
/* engine_api_new.c: g:new(names, zone, owner, counts) for g:new, the match m's. */
int engine_api_new_list(lua_State *L, engine_match *m);
/* n (1..) entities of card, one after another on top of zone z, as n g:new calls would
 * make them: returns the first id (consecutive ids), or raises "too many entities". */
uint32_t engine_api_new_n(lua_State *L, engine_match *m, uint32_t card, const engine_zone *z,
                          lua_Integer n);

/* engine_bots.c: appends the engine's own strategies (ENGINE_RANDOM_BOT) to g's bots,
 * unless the game defines one of that name. Raises on out of memory. */
void engine_bots_builtin(lua_State *L, engine_game *g);

/* engine_events.c: record one event (text copied, cut to ENGINE_MAX_LOG_LINE). */
int engine_match_event(engine_match *m, int to, int about, const char *kind, const char *text,
                       size_t len);
/* Nobody will read the text of m's events now (a rebuild, a search's copy, a quiet
 * match): they are only counted, so a caller may skip building their text. */
static inline int engine_events_unread(const engine_match *m)
{
    return m->replaying || m->quiet;
}
/* Drops the undrained events from the nev-th on (text from offset evtext). */
void engine_events_truncate(engine_match *m, size_t nev, size_t evtext);

/* engine_api.c: runs the game's `refresh(g)` when it has one and a person plays in m
 * (docs/SCRIPTING.md: counters only players read, such as the deck-builders' VP total,
 * brought up to date before a person decides and when the match ends; all-bot play, a
 * sim or a search's copy, never runs it, so their games stay what they were). */
void engine_match_refresh(lua_State *L, engine_match *m);

/* engine_decision.c. g:choose for a human seat: fill the pending decision from the table
 * at idx, whose options array (as engine_decision_bounds left it) is at ot. */
int engine_match_set_decision(engine_match *m, lua_State *L, int idx, int ot, int seat, size_t nopt,
                              uint32_t min, uint32_t max);
/* Reads and validates a bot's answer (the array at res) to a decision of n options into
 * m->bot_ids; returns the count. Raises on a malformed or illegal answer. */
size_t engine_decision_bot_ids(lua_State *L, engine_match *m, const char *bot, int res, size_t n,
                               uint32_t min, uint32_t max);
/* A decision table's (at t) option count and answer bounds, max cut to the options;
 * raises "WHO: ..." when no answer could satisfy them. Leaves the options array pushed
 * (the table holding its contents: engine_freeze_see). */
void engine_decision_bounds(lua_State *L, int t, const char *who, size_t *n, uint32_t *min,
                            uint32_t *max);
lua_Integer engine_decision_int(lua_State *L, int t, const char *k, lua_Integer dflt,
                                const char *who);
/* Validates option ids against n options and min..max; 0 when fine. */
int engine_validate_ids(size_t nopt, uint32_t min, uint32_t max, const uint32_t *ids, size_t n,
                        char *why, size_t whylen);
/* Validates seat's answer to the pending decision; ENGINE_OK, or the code with err set. */
engine_code engine_decision_check(const engine_match *m, int seat, uint64_t did,
                                  const uint32_t *ids, size_t n, engine_error *err);

/* engine_record.c. deck.freeze(t, newindex): memo.freeze's read-only record over a copy
 * of t's fields that nothing else holds, with what a decision reads from it kept beside it
 * (engine_record_of). */
int engine_record_freeze(lua_State *L);
/* An option field naming an entity, as a decision reads it: absent (present 0), an
 * integer e, or a value no entity can be (bad). */
typedef struct {
    lua_Integer e;
    unsigned char present, bad;
} engine_record_entity;
#define ENGINE_RECORD_TEXTS 3 /* label, verb (or act), space */
/* What a decision reads from a record deck.freeze made: its entities, and its texts as the
 * decision's text buffer holds them (cut to ENGINE_MAX_LABEL with the mark, NUL-ended),
 * text[at[k]...], len bytes in all. */
#define ENGINE_RECORD_MAGIC 0x6465636b7265636fULL
typedef struct {
    const void *self; /* the record's own address, and the magic: it is one */
    uint64_t magic;
    engine_record_entity card, target;
    uint32_t at[ENGINE_RECORD_TEXTS];
    uint32_t len;
    char text[];
} engine_record;
/* The record kept for the option table at t, or NULL when t is not a record deck.freeze
 * made (then its fields are read from Lua); the record lives while t does. Leaves up to
 * two values pushed (t's metatable and what it holds at 1): the caller sets its top back
 * (one lua_settop for all of an option's reads, in g:choose). */
const engine_record *engine_record_of(lua_State *L, int t);

/* engine_log.c */
void engine_log_reset(engine_log *lg);
int engine_log_append(engine_log *lg, int seat, uint64_t did, const uint32_t *ids, size_t n);
void engine_log_free(engine_log *lg);
/* engine_spare.c: the arrays a settled match gives back (its previous answer log, its drained
 * events), kept per thread (bounded) for the next match's use. put: the arrays are the spare
 * set's (or freed), *lg / the match's event arrays are left empty. take: an empty array
 * (NULL) gets a kept one when there is one. */
void engine_spare_put_log(engine_log *lg);
void engine_spare_take_log(engine_log *lg);
void engine_spare_put_events(engine_match *m);
void engine_spare_take_events(engine_match *m);
/* Exchanges the match's snapshot and answer log with the previous ones: at a turn boundary
 * inside an answer, to keep what undo needs; on the rollback, to put them back. */
void engine_match_swap_prev(engine_match *m);
/* Writes the snapshot a finished all-bot match left unwritten (snap_stale); -1 when out of
 * memory. Whoever reads m->snap calls it first. Here, with the snapshot and log it keeps. */
int engine_match_snap_sync(engine_match *m);
/* engine_match_restore from base, a state parsed from the snapshot (engine_state_parse;
 * the caller keeps it), instead of the snapshot's bytes: a search's copy (m->copy set),
 * which has no snapshot of its own and is never rolled back. */
engine_match *engine_match_restore_copy(engine_bundle *b, const engine_match_config *cfg,
                                        const engine_state *base, const engine_answer *log,
                                        size_t nlog, engine_error *err);

/* engine_features.c: at a turn boundary, the game's features(g) handed to m->on_features
 * (a position log); raises on features that are not an array by player of equal arrays
 * of numbers. */
void engine_features_note(lua_State *L, engine_match *m);

/* engine_turns.c: the protected steps of a match. */
typedef enum {
    ENGINE_OP_G,     /* create g */
    ENGINE_OP_SETUP, /* the game's setup (and the rules runner's), then a boundary */
    ENGINE_OP_RUN,   /* run until a human decision is pending or the match is finished */
    ENGINE_OP_LOAD,  /* load the snapshot p[0..len) into the reset state */
    ENGINE_OP_BOT,   /* ask a bot (p: an engine_bot_ask) for an answer into m->bot_ids */
    ENGINE_OP_EVAL,  /* the game's evaluate(g) into p: np doubles, each in 0..1 */
} engine_op;

/* engine_match_bot_answer's question to ENGINE_OP_BOT and its answer's size. */
typedef struct {
    const engine_bot *bot;
    size_t n;
} engine_bot_ask;

/* Runs one step in protected mode under a deadline; on failure m->run_msg says why. */
engine_code engine_turns_exec(engine_match *m, engine_op op, const void *p, size_t len);

/* For the rules runner: engine_match_new with an extra setup function (a registry ref
 * called with g after the game's setup, before the first turn). */
engine_match *engine_match_new_ex(engine_bundle *b, const engine_match_config *cfg, int setup_ref,
                                  engine_error *err);
/* Pushes the match's g handle. */
static inline void engine_match_push_g(engine_match *m, lua_State *L)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, m->g_ref);
}
lua_State *engine_bundle_lua(engine_bundle *b);
/* The i-th file of the bundle (sorted by path), or NULL. */
const char *engine_bundle_file(const engine_bundle *b, size_t i);
const char *engine_bundle_game_name(const engine_bundle *b, size_t i);

/* engine_rules.c runs a bundle's rules tests; engine_rules_t.c is their T table. The
 * runner's state, one per run, reached through the VM's registry at ENGINE_RULES_CTX. */
#define ENGINE_RULES_CTX         "deckhand.rules.ctx"
#define ENGINE_RULES_MAX_MATCHES 1024

typedef struct {
    uint32_t magic;
    engine_match *m;
} engine_rules_match;

typedef struct {
    engine_bundle *b;
    const char *game; /* the game whose tests run */
    FILE *out;
    engine_rules_report *rep;
    engine_rules_match *live[ENGINE_RULES_MAX_MATCHES];
    size_t nlive;
} engine_rules;

/* lua_CFunction (protected): builds T and the match metatable in the registry. */
int engine_rules_open_t(lua_State *L);
/* Frees the matches the test that just ended started. */
void engine_rules_free_live(engine_rules *r, lua_State *L);
/* engine_rules_diff.c: where got (at index got) first differs from exp, in context
 * ("PATH differs at character N: expected \"...\", got \"...\""), into out. 1 when
 * they differ, else 0 (out ""). */
int engine_rules_diff(lua_State *L, int got, int exp, char *out, size_t cap);

#endif
