/*
 * engine_internal.h: the engine's private structures and the functions its modules share.
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
#include "engine_undo.h"

/* Hard limits on C-side state, which the Lua memory cap does not see. */
#define ENGINE_MAX_NAMES    65536
#define ENGINE_MAX_ENTITIES 200000
#define ENGINE_MAX_MAP      1000000
#define ENGINE_MAX_EVBYTES  (64u << 20)
#define ENGINE_MAX_TURNS    2000   /* a game's turn cap when it declares none (max_turns) */
#define ENGINE_TURNS_LIMIT  100000 /* the highest max_turns a game may declare */
#define ENGINE_MAX_OPTIONS  4096
/* What a script may send the seats (docs/SCRIPTING.md, "Output bounds"): longer texts are
 * cut and end with ENGINE_CUT_MARK; a turn that logs more events fails. */
#define ENGINE_MAX_LOG_LINE    1024 /* bytes of one event's text, also print's */
#define ENGINE_MAX_PROMPT      1024 /* bytes of a decision's prompt */
#define ENGINE_MAX_LABEL       256  /* bytes of an option's label, and of a decision's kind */
#define ENGINE_MAX_TURN_EVENTS 1000 /* events (g:log, g:log_to) one turn may emit */
#define ENGINE_CUT_MARK        " [cut]"
#define ENGINE_G_MAGIC         0x67686e64u

/* ---- interned names (per bundle) ---------------------------------------------------- */

typedef struct {
    char *s;
    uint32_t len;
    const char *lstr; /* the anchored Lua string's bytes: short strings are unique in Lua */
} engine_name;

typedef struct {
    engine_name *v; /* index = id; id 0 is unused */
    uint32_t n, cap;
    uint32_t *by_ptr, *by_str; /* open addressing tables of ids */
    uint32_t mask;
    /* a cache of the ids in string order (order) and each id's place in it (rank), for
     * ids below nsorted; rebuilt by engine_intern_sorted when names were added */
    uint32_t *order, *rank, nsorted;
} engine_intern;

/* ---- a u64 -> i64 map keeping insertion order ---------------------------------------- */

typedef struct {
    uint64_t key;
    int64_t val;
} engine_kv;

typedef struct {
    engine_kv *kv;
    uint32_t n, cap;
    uint32_t *idx; /* kv index + 1, 0 = empty */
    uint32_t mask;
} engine_map;

int engine_map_init(engine_map *mp, uint32_t cap);
void engine_map_free(engine_map *mp);
void engine_map_clear(engine_map *mp);
/* Pointer to the value of key, or NULL. */
int64_t *engine_map_find(const engine_map *mp, uint64_t key);
/* Pointer to the value of key, inserting 0 when absent; NULL on allocation failure. */
int64_t *engine_map_put(engine_map *mp, uint64_t key);

/* ---- games and bundles ---------------------------------------------------------------- */

typedef enum { ENGINE_VIS_HIDDEN, ENGINE_VIS_OWNER, ENGINE_VIS_TOP, ENGINE_VIS_PUBLIC } engine_vis;

typedef struct {
    char *name;
    engine_vis vis;
} engine_zone_rule;

typedef struct {
    char *name;
    int cost;
    char *types;
    char *text;
} engine_card_info;

typedef struct {
    char *name;
    int ref;
    int unsearched; /* 1: not in the game's `search_bots` (no search compares its answers) */
} engine_bot;

/* A presentation hint for one zone (engine_present.c; wire: ZoneHint). */
typedef struct {
    char *zone, *kind, *label, *color, *description; /* all but zone and kind "" when not given */
    int order;
    unsigned columns;
} engine_zone_hint;

typedef struct {
    char *type, *color;
} engine_type_color;

/* How to show a counter (engine_present_words.c; wire: CounterHint). */
typedef struct {
    char *counter, *label, *description; /* label and description "" when not given */
    bool hidden;
    int order;
} engine_counter_hint;

typedef struct {
    char *name;
    int min_players, max_players;
    int max_turns; /* the turn cap: the match ends after this many turns */
    int table_ref, setup_ref, turn_ref, finished_ref, results_ref;
    int evaluate_ref;  /* the optional evaluation hint (`evaluate`), or LUA_NOREF */
    int features_ref;  /* the optional position features (`features`), or LUA_NOREF */
    int search_depth;  /* `search_depth`: turns a search's play-out runs before the hint, 0:
                          to the end (ENGINE_SEARCH_DEPTH when not given) */
    int search_tree;   /* `search_tree`: 0 when the game says false, the search grows no tree
                          below the root's answers (its play-outs are the policy's alone) */
    int search_widen;  /* `search_widen`: 0 when the game says false, a decision's candidates
                          are its bots' answers only, never widened to every option */
    int search_sorts;  /* `search_sorted_shuffle`: 1 when the game says true, a search's
                          world sorts cards by name before a shuffle */
    int refresh_ref;   /* the optional `refresh` (players' counters: the VP total), or LUA_NOREF */
    int summary_ref;   /* the optional words for the end (`summary`, engine_end.c), or LUA_NOREF */
    char **deck_zones; /* `deck_zones`: the zones a seat's deck is counted over (engine_end.c) */
    size_t ndeck_zones;
    engine_zone_rule *zones;
    size_t nzones;
    uint8_t *vis_memo;  /* ENGINE_MAX_NAMES entries: a zone name id's visibility + 1, 0 while not
                           yet asked (engine_zone_vis_id): views ask it for every zone, every time */
    uint8_t *play_memo; /* ENGINE_MAX_NAMES entries: 1 a zone name id is in play, 2 out of
                           play (engine_view_stats.c), 0 while not yet asked */
    uint8_t *card_memo; /* ENGINE_MAX_NAMES entries: 1 a counter name id is no card's (no
                           `:N` ending), 2 it may be, 0 while not yet asked
                           (engine_view_stats.c): views ask it for every counter */
    engine_card_info *cards; /* sorted by name */
    size_t ncards;
    engine_bot *bots;
    size_t nbots;
    const char *search_playout; /* the bot a search plays out with (of bots), NULL: default */
    engine_option_spec *specs;  /* the options it declares (engine_options.c) */
    size_t nspecs;
    const char **bot_names;  /* nbots names: "default" first, then by name */
    bool has_presentation;   /* the game table has a `presentation` table */
    engine_zone_hint *hints; /* by order, then zone name */
    size_t nhints;
    engine_type_color *type_colors; /* by type */
    size_t ntype_colors;
    char *title, *summary;              /* the presentation's words; NULL without a presentation */
    bool deck_builder;                  /* presentation.deck_builder: its seats build decks */
    engine_counter_hint *counter_hints; /* by order, then counter name */
    size_t ncounter_hints;
} engine_game;

#define ENGINE_SMALL_GRAIN 16
#define ENGINE_SMALL_MAX   256
#define ENGINE_SLAB_SIZE   (64 * 1024)

typedef struct engine_small {
    struct engine_small *next;
} engine_small;

typedef struct {
    char *path; /* relative, '/' separated */
    char *data;
    size_t len;
} engine_file;

struct engine_bundle {
    lua_State *L;
    size_t mem, mem_limit;
    engine_small *small_free[ENGINE_SMALL_MAX / ENGINE_SMALL_GRAIN];
    char *slabs, *slab_next;
    size_t slab_left;
    uint64_t budget_ns;
    uint64_t deadline_ns;           /* 0 = no call running; read by the watchdog thread */
    uint64_t wall_ns;               /* 0, or no outer call's deadline comes back past it */
    int killing;                    /* the kill latch fired */
    lua_State *volatile co_running; /* the coroutine being resumed, for the signal */
    pthread_t wd_thread, wd_owner;
    pthread_mutex_t wd_mu;
    pthread_cond_t wd_cv;
    int wd_running, wd_stop;
    int wd_in_flight; /* a signal sent and not yet handled: the thread sends no other */
    /* The owner's CPU clock (pthread_getcpuclockid), set when the owner changes; the
     * watchdog reads it to tell a call's work from time it spent not running. */
    clockid_t wd_clock;
    int wd_clock_ok;
    uint64_t wd_fired; /* the deadline the watchdog judged spent (its thread's verdict) */
    char id[65];
    char *dir;
    engine_file *files;
    size_t nfiles;
    engine_game *games;
    size_t ngames;
    engine_intern names;
    int names_ref, loaded_ref, gmeta_ref;
    int caches_ref;       /* array of the modules' caches (engine_freeze.c) */
    int upvals_ref;       /* module functions' upvalues as loaded: (function, index, value) */
    size_t nupvals;       /* triples in it */
    int frozen;           /* the games are loaded: module state is read-only */
    size_t trim_at;       /* engine_freeze_trim looks again past this many bytes */
    uint32_t id_log;      /* interned "log" */
    uint32_t id_turn_cap; /* interned "_turn_cap": the counter set when a match hit it */
};

/* engine_error.c: sets err (when not NULL) to code and the formatted message. */
void engine_error_set(engine_error *err, engine_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sets err (when not NULL) to ENGINE_OK and an empty message. */
void engine_error_ok(engine_error *err);

/* engine_alloc.c: the lua_Alloc of a bundle's VM (ud is the bundle). */
void *engine_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* Frees the slabs of small blocks, once the VM is closed. */
void engine_alloc_free(engine_bundle *b);

/* engine_intern.c. An empty table (id 0 reserved); -1 out of memory. */
int engine_intern_init(engine_intern *in);
void engine_intern_free(engine_intern *in);
/* Interns the string at idx (raises a Lua error past the limit). */
uint32_t engine_intern_lua(engine_bundle *b, lua_State *L, int idx);
/* Interns a C string (pushes it through Lua: call in protected mode). */
uint32_t engine_intern_c(engine_bundle *b, lua_State *L, const char *s, size_t len);
/* The cache of in's ids in string order (in->order, in->rank) made current; -1 out of
 * memory. A cache only: it changes nothing a name's id or bytes say. */
int engine_intern_sorted(const engine_intern *in);

/* engine_files.c. Reads every .lua file under b->dir into b->files; -1 on failure. */
int engine_files_read(engine_bundle *b);
/* Copies the .lua files of files[0..n) into b->files: 0, -1 out of memory, or -2 for a
 * path that is not relative and clean (*bad names it). */
int engine_files_copy(engine_bundle *b, const engine_file_in *files, size_t n, const char **bad);
/* Sorts b->files by path; returns a path that appears twice, or NULL. */
const char *engine_files_sort(engine_bundle *b);
/* The bundle id: SHA-256 over the sorted files, in hex into b->id; -1 on failure. */
int engine_files_hash(engine_bundle *b);
/* The file at path (sorted files only), or NULL. */
const engine_file *engine_files_find(const engine_bundle *b, const char *path);
void engine_files_free(engine_bundle *b);
int engine_ends_with(const char *s, const char *suf);

/* engine_bounded.c. Wraps string.find/match/gmatch/gsub/rep and table.move/sort (in the
 * real libraries, before the sandbox locks them) with checks that refuse work a single C
 * call could not be stopped in. */
void engine_bounded_open(lua_State *L);
/* How many bytes of s[0..len) to keep so that they and ENGINE_CUT_MARK fit in max bytes:
 * len when the whole text fits (no mark then), else a prefix that does not split a UTF-8
 * sequence. */
size_t engine_text_fit(const char *s, size_t len, size_t max);

/* engine_freeze.c. The registry key of the sandbox's set of read-only proxies. */
#define ENGINE_LOCKED_KEY "deckhand.locked"
/* __pairs of a read-only proxy whose real table is its upvalue 1: walks that table
 * without handing it out (the frozen modules' proxies and the sandbox's libraries). */
int engine_proxy_pairs(lua_State *L);
/* Makes everything the loaded modules reach read-only, caches aside (protected). */
void engine_freeze_modules(lua_State *L, engine_bundle *b);
/* The same for one value (a module loaded after the freeze), at idx (protected). */
void engine_freeze_value(lua_State *L, int idx);
/* Pushes the table whose raw fields hold the contents of the table at idx: its shadow
 * when it is a frozen proxy, else itself (for C code that walks a module with lua_next). */
void engine_freeze_contents(lua_State *L, int idx);
/* Replaces the table at idx by the table holding its contents (engine_freeze_contents):
 * for C functions of the g API that read a script's table raw (an id array, a filter). */
void engine_freeze_see(lua_State *L, int idx);
/* 1 when the table at idx is a frozen module table's proxy (sandbox's rawset refuses it). */
int engine_freeze_is_proxy(lua_State *L, int idx);
/* Between calls: past b->trim_at bytes, a full collection, and when the VM still holds
 * more than half its cap, every cache emptied and every module function's upvalues put
 * back as loaded, then collected again. */
void engine_freeze_trim(engine_bundle *b);

/* Adds g:fallen, g:shortfalls (engine_board.c), g:clash (engine_board_combat.c),
 * g:status_enter and g:status_clear (engine_board_status.c) to g's methods, after
 * engine_api_open. */
void engine_board_open(engine_bundle *b, lua_State *L);
/* engine_board_combat.c: g:clash for the match m (checked mutable; upvalue 1: names). */
int engine_board_clash(lua_State *L, engine_match *m);
/* engine_board_status.c: g:status_enter, g:status_clear for the match m (checked mutable). */
int engine_board_status_enter(lua_State *L, engine_match *m);
int engine_board_status_clear(lua_State *L, engine_match *m);

/* engine_sandbox.c. Opens the safe libraries and locks the globals (protected). */
void engine_sandbox_open(lua_State *L);
/* The sandbox's `require(name)`: a module of the bundle, loaded once. */
int engine_sandbox_require(lua_State *L);

/* engine_vm.c. Creates b->L with its allocator and watchdog; -1 on failure. */
int engine_vm_new(engine_bundle *b);
/* lua_CFunction, called protected with the bundle as light userdata: the sandbox, the
 * registry tables, the g metatable. */
int engine_vm_init(lua_State *L);
/* Stops the watchdog, closes the VM and frees what its allocator kept. */
void engine_vm_close(engine_bundle *b);

const engine_game *engine_bundle_game(const engine_bundle *b, const char *name);
/* engine_watchdog.c (deadlines are on dh_clock.h's dh_now_ns clock). */
/* The signal that tells the engine thread a deadline passed. */
#define ENGINE_WATCHDOG_SIGNAL (SIGRTMIN + 4)
/* Starts the bundle's watchdog (falls back to a count hook); -1 when it fell back. */
int engine_watchdog_start(engine_bundle *b);
void engine_watchdog_stop(engine_bundle *b);
/* Sets the deadline of a call starting now; returns what engine_call_end needs to give
 * an outer call its deadline back (paused while this call runs). */
uint64_t engine_call_begin(engine_bundle *b);
uint64_t engine_call_begin_for(engine_bundle *b, uint64_t budget_ns);
/* Gives the outer call, if any, its deadline back; disarms the kill latch if it fired. */
void engine_call_end(engine_bundle *b, uint64_t prev);
/* Moves the running call's deadline (absolute, dh_now_ns clock). */
void engine_deadline_set(engine_bundle *b, uint64_t abs_ns);
/* Replaces the globals pcall and xpcall (of the base library just opened in L) by ones that
 * cannot swallow the kill: once the kill latch fired, they raise again what they caught,
 * and refuse to start. */
void engine_watchdog_guard_pcall(lua_State *L);
/* Runs `require(modname)` of the bundle and leaves the module on the stack (protected). */
int engine_bundle_require(engine_bundle *b, const char *modname, engine_error *err);

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
 * at idx. */
int engine_match_set_decision(engine_match *m, lua_State *L, int idx, int seat, size_t nopt,
                              uint32_t min, uint32_t max);
/* Reads and validates a bot's answer (the array at res) to a decision of n options into
 * m->bot_ids; returns the count. Raises on a malformed or illegal answer. */
size_t engine_decision_bot_ids(lua_State *L, engine_match *m, const char *bot, int res, size_t n,
                               uint32_t min, uint32_t max);
/* A decision table's (at t) option count and answer bounds, max cut to the options;
 * raises "WHO: ..." when no answer could satisfy them. */
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
