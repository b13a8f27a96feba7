/*
 * engine_bundle.h: a bundle and the layer under a match (private to the engine): the limits
 * on C-side state, interned names, the ordered u64 map, a game as its table declares it, the
 * bundle, and the functions of the modules that run before any match exists (engine_error.c,
 * engine_alloc.c, engine_intern.c, engine_files.c, engine_bounded.c, engine_freeze.c,
 * engine_sandbox.c, engine_vm.c, engine_watchdog.c). engine_internal.h includes it and adds
 * the match; the module order is listed there.
 */
#ifndef DECKHAND_ENGINE_BUNDLE_H
#define DECKHAND_ENGINE_BUNDLE_H

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
    double search_bar; /* `search_bar`: the chance at most that a search answers with one no
                          better than its play-out bot's (search_final), 0: the engine's */
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

#endif /* DECKHAND_ENGINE_BUNDLE_H */
