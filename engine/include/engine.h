/*
 * engine.h: the rules engine's public API (the only header other modules include).
 *
 * The engine hosts card-game matches whose rules are Lua scripts. State lives in C
 * (entities, ordered zones, integer attributes, counters, the RNG, the pending decision);
 * code lives in Lua, one sandboxed VM per loaded bundle, shared by all matches on it.
 * Scripts reach a match only through the `g` handle (docs/SCRIPTING.md).
 *
 * Life of a match: engine_match_new() runs the game's setup, then plays turns. Each turn
 * runs as a Lua coroutine; g:choose{} either yields (a human seat: the match now has a
 * pending decision) or is answered inline (a bot seat). engine_match_answer() validates
 * and applies one answer and runs the rules to the next decision or the end.
 *
 * Persistence: at every turn boundary (no coroutine suspended) the engine takes a
 * snapshot; between boundaries it keeps the accepted answers. snapshot + answers rebuild
 * the match exactly (engine_match_restore), which is also how rollback works.
 *
 * Ownership: every pointer returned by an engine_match_* getter belongs to the match and
 * stays valid until the next call that changes the match, unless said otherwise.
 */
#ifndef DECKHAND_ENGINE_H
#define DECKHAND_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "deckhand.pb-c.h"
#include "dh_file.h"

typedef struct engine_bundle engine_bundle;
typedef struct engine_match engine_match;

/* Numerically equal to Deckhand__ErrorCode. */
typedef enum {
    ENGINE_OK = 0,
    ENGINE_NOT_YOUR_TURN = 3,
    ENGINE_ILLEGAL_CHOICE = 4,
    ENGINE_SCRIPT_ERROR = 8,
    ENGINE_BAD_REQUEST = 9,
    ENGINE_INTERNAL = 12,
} engine_code;

/* Why a call failed. message is the whole story, for the operators' log; public_message
 * is what a player may be shown: the same text, except for ENGINE_SCRIPT_ERROR, where it
 * is a generic sentence with an error id ("E" and 8 hex digits) that message also holds,
 * never the script's file, line or words (docs/SCRIPTING.md, "Script errors"). */
typedef struct {
    engine_code code;
    char message[256];
    char public_message[256];
} engine_error;

typedef struct {
    size_t mem_limit;   /* bytes per VM; 0 = 256 MiB */
    uint32_t budget_ms; /* deadline of one script call; 0 = 250 ms */
} engine_limits;

/* One option a game declares (its game table's `options`, docs/SCRIPTING.md): values
 * empty means any word; the default is what a match without the option gets. With
 * `list`, a value may also be a comma-separated list of distinct items of it (list_size
 * of them when not 0): dh_optlist.h. */
#define ENGINE_OPTIONS_MAX       16 /* per game */
#define ENGINE_OPTION_VALUES_MAX 64
#define ENGINE_OPTION_NAME_MAX   32
#define ENGINE_OPTION_VALUE_MAX  64
typedef struct {
    const char *name;
    const char *const *values;
    size_t nvalues;
    const char *default_value;
    const char *help;
    const char *label;               /* its words for players, "" when not given */
    const char *const *value_labels; /* nvalues: each value's words, "" when not given */
    const char *const *items;        /* nitems: what a list value may name (dh_optlist.h) */
    size_t nitems;
    size_t list_size; /* items a list names; 0: 1..nitems */
} engine_option_spec;

typedef struct {
    const char *name;
    int min_players;
    int max_players;
    const engine_option_spec *options; /* noptions, in declaration order */
    size_t noptions;
    const char *const *bots; /* nbots strategy names, "default" first, then by name */
    size_t nbots;
    const char *title; /* its presentation's title and summary ("" when none) */
    const char *summary;
    bool deck_builder; /* its presentation says its seats build decks */
} engine_game_info;

/* ---- bundles -------------------------------------------------------------------- */

/* Load every *.lua file under dir (recursively) as one bundle into a new sandboxed VM.
 * Each folder holding a game.lua is a game. NULL on failure, with err filled.
 * The caller owns the bundle; free it only after every match on it is freed. */
engine_bundle *engine_bundle_load(const char *dir, const engine_limits *lim, engine_error *err);
void engine_bundle_free(engine_bundle *b);
/* One file of a bundle held in memory: the same type common/dh_bundle.h reads from Redis. */
typedef dh_file engine_file_in;
/* Load a bundle from files in memory, as engine_bundle_load would load a folder named
 * name holding them: only *.lua files are kept (others are skipped, as on disk), the id is
 * the same, and a bad path (absolute, "..", a dot file) or a repeated one is refused.
 * The data is copied. NULL on failure, with err filled. */
engine_bundle *engine_bundle_load_files(const char *name, const engine_file_in *files, size_t n,
                                        const engine_limits *lim, engine_error *err);
/* SHA-256 (hex) over the sorted relative paths and contents of the bundle's files. */
const char *engine_bundle_id(const engine_bundle *b);
/* Fills up to max entries; returns the number of games in the bundle. */
size_t engine_bundle_games(const engine_bundle *b, engine_game_info *out, size_t max);
/* Check a match's options ("name=value;name=value", NULL or "" for none) against what
 * game declares: every name declared once at most, every value one the option accepts
 * (a word of A-Z a-z 0-9 _ -, at most ENGINE_OPTION_VALUE_MAX). ENGINE_BAD_REQUEST with
 * the reason in err otherwise (also for an unknown game). Matches themselves take any
 * options (a bundle may read more than it declares: `deckhand sim`); this is what the
 * network is held to. */
engine_code engine_bundle_check_options(const engine_bundle *b, const char *game,
                                        const char *options, engine_error *err);
/* The bundle's files in path order: fills *out and returns 1, or 0 past the last one.
 * The data belongs to the bundle. */
int engine_bundle_file_at(const engine_bundle *b, size_t i, engine_file_in *out);
/* Every file of b in path order, as an array the caller frees (free()); the strings belong
 * to b. *n is their count. NULL when out of memory. */
engine_file_in *engine_bundle_files(const engine_bundle *b, size_t *n);

/* The optional manifest.lua at the bundle's root: `return {label = "...", compatible =
 * false}`. Strings are copied into the struct (cut to fit). Returns 1 when the bundle has
 * one, 0 when not (out zeroed), -1 when it fails to run or is not a table (err filled). */
typedef struct {
    char label[128];
    bool compatible;
} engine_manifest;
int engine_bundle_manifest(engine_bundle *b, engine_manifest *out, engine_error *err);

/* ---- rules tests (engine_rules.c) ------------------------------------------------- */

/* Runs the rules tests of the bundle (every GAME/tests/NAME.lua, docs/SCRIPTING.md)
 * inside its own VM: only game `game` when not NULL, only tests whose "game/file: name"
 * contains filter when not NULL. Writes a PASS or FAIL line per test to out when not NULL,
 * and keeps the first failure's line in first_failure. The VM keeps the test modules
 * loaded: run tests on a bundle no match will use. Returns the number of failures. */
typedef struct {
    int passed, failed;
    char first_failure[512];
} engine_rules_report;
int engine_rules_run(engine_bundle *b, const char *game, const char *filter, FILE *out,
                     engine_rules_report *rep);

/* ---- matches -------------------------------------------------------------------- */

typedef struct {
    const char *match_id; /* copied; used in views and decisions */
    const char *game;     /* "dominion" */
    uint64_t seed;        /* seeds the match's xoshiro256** generator */
    int nplayers;
    const char *const *names; /* nplayers display names */
    const char *const *bots;  /* NULL, or per seat: NULL = human, else a bot strategy
                                 name of the game ("default", "big_money", ...) */
    const char *options;      /* "key=value;key=value" game options, may be NULL */
    bool quiet; /* nobody reads this match's events (a sim): they are counted, as the state
                   hash needs, but their text is never built or kept */
} engine_match_config;

/* Create a match and run it to its first human decision (or to the end, when every
 * seat is a bot: that is how `deckhand sim` plays). NULL on failure, with err filled. */
engine_match *engine_match_new(engine_bundle *b, const engine_match_config *cfg, engine_error *err);
/* A position log (`deckhand sim --positions`): called at every turn boundary of a match
 * whose game defines `features(g)` (docs/SCRIPTING.md, "Evaluation hints") with every
 * player's features, f[p * nf + i] feature i of player p (turn: the turns played so far). */
typedef void (*engine_features_fn)(void *ud, uint32_t turn, const double *f, size_t nf);
/* engine_match_new with a position log: on_features(ud, ...) at every turn boundary.
 * Reading the features changes nothing: the match plays as engine_match_new plays it. */
engine_match *engine_match_new_logged(engine_bundle *b, const engine_match_config *cfg,
                                      engine_features_fn on_features, void *ud, engine_error *err);
void engine_match_free(engine_match *m);

typedef struct {
    uint32_t id; /* 1..noptions */
    const char *label;
    const char *card; /* card name or NULL */
    uint32_t entity;  /* 0 when none */
    /* Its structure, for clients that act on a board (wire: Option.verb/target/space):
     * what it does ("attack", "move", "play", "buy", "end"), the entity it acts on (0:
     * none) and the board space (a zone name) it leads to; "" when the script gave none. */
    const char *verb;
    uint32_t target;
    const char *space;
} engine_option;

typedef struct {
    uint64_t decision_id; /* increases by one per decision within a match */
    int seat;             /* 0-based */
    const char *prompt;
    const char *kind;
    const engine_option *options;
    size_t noptions;
    uint32_t min, max;
} engine_decision;

/* The pending decision, or NULL when the match is finished. */
const engine_decision *engine_match_decision(const engine_match *m);

/* Validate and apply one answer, then run to the next decision or the end.
 * Errors change nothing: ENGINE_NOT_YOUR_TURN (seat is not the decision's),
 * ENGINE_ILLEGAL_CHOICE (stale decision id, unknown or repeated option, count outside
 * min..max), ENGINE_SCRIPT_ERROR (a script failed: the match is rebuilt as it was). */
engine_code engine_match_answer(engine_match *m, int seat, uint64_t decision_id,
                                const uint32_t *option_ids, size_t n, engine_error *err);

/* Ask the game's bot `strategy` (NULL: "default") what it would answer to the pending
 * decision, as if the deciding seat were that bot, without applying it: the option ids go
 * to ids (capacity *n), *n to their count; pass them on to engine_match_answer. This is
 * how a seat whose player left is played on, and how tests drive all-human matches. The
 * bot runs under the call deadline and may only read the match (a change raises; its
 * g:random draws are put back), so the match is unchanged whatever happens. Errors:
 * ENGINE_BAD_REQUEST (no decision pending, no such bot, ids too small),
 * ENGINE_SCRIPT_ERROR (the bot failed, overran or answered illegally). */
engine_code engine_match_bot_answer(engine_match *m, const char *strategy, uint32_t *ids, size_t *n,
                                    engine_error *err);

/* The strategy every game offers besides its own bots (engine_bots.c): a uniformly random
 * legal answer. A game that defines a bot of that name keeps its own. */
#define ENGINE_RANDOM_BOT "random"

/* The difficulties every game offers by name (engine_bots.c), for a player to pick as an
 * opponent (a queue's bot, `deckhand bots --bot`, `deckhand sim --bots`): `easy`, the
 * game's default bot slipping to a random legal answer one decision in ENGINE_EASY_SLIP;
 * `normal`, the default bot; `hard`, the search bot at the worker's budget (the hosts
 * answer it as they answer ENGINE_SEARCH_BOT: engine_search_strategy). A game that
 * defines a bot of one of these names keeps its own. */
#define ENGINE_EASY_BOT   "easy"
#define ENGINE_NORMAL_BOT "normal"
#define ENGINE_HARD_BOT   "hard"
#define ENGINE_EASY_SLIP  3
/* 1 for the strategies the engine adds to every game (random, easy, normal), else 0. */
int engine_bot_is_builtin(const char *name);

/* ---- the search bot (engine_search.c) --------------------------------------------- */

/* The strategy name hosts answer with the search bot (engine_search_answer) instead of
 * one of the game's Lua bots: the worker for a Choose.bot = "search" or "hard"
 * (engine_search_host_config), `deckhand sim` for a seat named so. It cannot
 * play a seat inline (engine_match_config.bots): the search copies the match, which an
 * inline bot is in the middle of; engine_match_bot_answer knows only the Lua bots. */
#define ENGINE_SEARCH_BOT        "search"
#define ENGINE_SEARCH_ITERATIONS 200 /* play-outs per decision by default */
#define ENGINE_SEARCH_DEPTH      8   /* turns a play-out runs before a game's hint scores it */
/* A host's search also stops after this long: a worker answering for a seat holds its
 * loop meanwhile (the answer is logged, so no replay searches again). */
#define ENGINE_SEARCH_BUDGET_MS 50
/* The search a host runs for a seat (the worker, `deckhand sim` for `hard`): at most
 * ENGINE_SEARCH_HOST_ITERATIONS play-outs, ended by time before that on every machine
 * measured (docs/BENCHMARKS.md): the time is the budget, ENGINE_SEARCH_BUDGET_MS less
 * ENGINE_SEARCH_APPLY_MS left for the worker to apply and store the answer. */
#define ENGINE_SEARCH_HOST_ITERATIONS 4000
#define ENGINE_SEARCH_APPLY_MS        8
/* 1 when a host answers strategy name with the search bot (ENGINE_SEARCH_BOT and
 * ENGINE_HARD_BOT, the same search at the same budget), else 0. */
int engine_search_strategy(const char *name);

typedef struct {
    uint32_t iterations; /* play-outs per decision; 0: ENGINE_SEARCH_ITERATIONS */
    uint64_t budget_ns;  /* also stop past this much time; 0: no time limit, and then the
                            answer depends only on the match (what a replay needs) */
    int32_t depth;       /* in a game with an evaluation hint (`evaluate`, SCRIPTING.md), a
                            play-out stops after this many more turns and is scored by it;
                            0: the game's `search_depth` (ENGINE_SEARCH_DEPTH when it
                            gives none; 0 there: to the end), < 0: every play-out to the
                            game's end */
    int cpu_clock;       /* 1: budget_ns counts the calling thread's CPU time, not wall time:
                            the budget a worker with a core of its own gives, whatever else
                            the machine runs (`deckhand sim --search-clock cpu`) */
} engine_search_config;

/* Fills cfg with the search a host runs for a seat (above). */
void engine_search_host_config(engine_search_config *cfg);

typedef struct {
    uint64_t iterations; /* play-outs run */
    uint64_t nodes;      /* tree nodes made */
    uint64_t decisions;  /* decisions answered by the search and its play-outs, from C */
    uint64_t choices;    /* g:choose calls in the copies, Lua bots' inline ones included */
    uint64_t failed;     /* play-outs that failed (a script error, a budget) and count not */
    uint64_t evaluated;  /* play-outs cut short and scored by the game's evaluation hint */
    uint64_t stopped;    /* 1: one answer led the others clearly and the search ended early */
    uint64_t changed;    /* 1: the answer is not the play-out bot's own */
    uint64_t ns;         /* wall time */
    const char *policy;  /* the play-out bot `changed` compares with (valid while m is) */
} engine_search_stats;

/* The search bot's answer to the pending decision of m (information-set Monte Carlo tree
 * search over copies of m in which what the deciding seat cannot see is dealt at random;
 * engine_search.c says how). m is only read. ids (capacity *n) and *n as for
 * engine_match_bot_answer; stats (may be NULL) says what the search did. Errors:
 * ENGINE_BAD_REQUEST (no decision pending), ENGINE_SCRIPT_ERROR (a copy failed),
 * ENGINE_INTERNAL (out of memory). */
engine_code engine_search_answer(const engine_match *m, const engine_search_config *cfg,
                                 uint32_t *ids, size_t *n, engine_search_stats *stats,
                                 engine_error *err);

/* Undo the last accepted answer (one level), dropping the events it produced that were
 * not yet drained. For the host, when persisting that answer failed. */
engine_code engine_match_undo(engine_match *m, engine_error *err);

/* A player's take-back of a misclick (docs/engine.md, "Undo"): whether seat may take back
 * its last answer now: that answer is the match's last, it crossed no turn boundary, drew
 * no randomness (no shuffle) and moved no card out of a place hidden from seat. Valid
 * across engine_match_settle; false after a restore (an adopted match) or another answer. */
bool engine_match_can_take_back(const engine_match *m, int seat);
/* Take it back: the match rebuilt from its turn's snapshot and the answers before it, as
 * engine_match_restore would from a log without it (event counts go back too). Errors:
 * ENGINE_BAD_REQUEST ("nothing to undo"), ENGINE_INTERNAL (the rebuild failed). */
engine_code engine_match_take_back(engine_match *m, engine_error *err);

/* The last answer stands (the host has it in Redis): forget what engine_match_undo would
 * need and give back the buffers a match waiting for its next answer does not use (the
 * previous snapshot and log, drained events, the snapshot's scratch and slack). About
 * 18 KB of a mid-game Dominion match (docs/BENCHMARKS.md, "Worker: memory per match").
 * Nothing changes but memory: the next answer makes what it needs again. */
void engine_match_settle(engine_match *m);

bool engine_match_finished(const engine_match *m);
/* True when the match ended because it reached its game's turn cap (max_turns). */
bool engine_match_turn_capped(const engine_match *m);

typedef struct {
    int seat;
    int score;
    int rank; /* 1 = winner; equal ranks share */
    int turns;
} engine_result;

/* Fills results by seat; returns nplayers, or 0 while the match is not finished. */
size_t engine_match_results(const engine_match *m, engine_result *out, size_t max);

/* The end screen (engine_end.c). The rules' own words for how a finished match ended, as
 * its game's `summary(g)` gave them ("The Province pile ran out."), or "" when the game
 * has none (docs/SCRIPTING.md). */
#define ENGINE_END_SUMMARY_MAX 160
const char *engine_match_end_summary(const engine_match *m);
/* One card name a seat owns and how many (borrowed from the bundle: valid while it is). */
typedef struct {
    const char *card;
    uint32_t count;
} engine_deck_count;
/* Every card seat owns over its game's `deck_zones` (a deck-builder's deck, hand, discard,
 * play...), by name and sorted by name, at most max into out; how many were written. 0 for
 * a game without deck_zones (the board games). */
size_t engine_match_deck(const engine_match *m, int seat, engine_deck_count *out, size_t max);

int engine_match_nplayers(const engine_match *m);

/* ---- events and views ------------------------------------------------------------ */

typedef struct {
    int to_seat;      /* receiving seat; an event for everyone is delivered once per seat */
    uint64_t seq;     /* that seat's event_seq: 1, 2, 3... without gaps */
    const char *kind; /* "log", ... */
    const char *text;
    int about_seat; /* -1 when none */
    bool everyone;  /* a g:log for every seat (public: what a spectator may read), not a g:log_to */
    uint64_t public_seq; /* an event for everyone: its number in the public count
                            (engine_match_event_seq of ENGINE_SEAT_PUBLIC), 1, 2, 3...
                            without gaps; 0 for a g:log_to */
} engine_event;

typedef void (*engine_event_fn)(void *ud, const engine_event *ev);

/* Hand every event produced since the last drain to fn, in order, then forget them. */
void engine_match_drain_events(engine_match *m, engine_event_fn fn, void *ud);
/* The last event_seq delivered (or pending) for a seat; for ENGINE_SEAT_PUBLIC, the
 * number of public events (g:log to every seat) the match has produced: what numbers a
 * spectator's or a replay's frames. */
uint64_t engine_match_event_seq(const engine_match *m, int seat);

/* The seat of engine_match_view that sits nowhere: a spectator's or a replay's view, with
 * only what the game's zones table makes public (public zones, the top card of `top`
 * zones, counts of the rest) and no decision. */
#define ENGINE_SEAT_PUBLIC (-1)

/* The view of one seat as a protobuf message (decision included when it is this seat's),
 * or of ENGINE_SEAT_PUBLIC (View.seat 0, event_seq the public count above).
 * The caller frees it with engine_view_free, before it frees the match: its zones',
 * cards', options' cards' and counters' names, its game and bundle id are the match's
 * bundle's own strings, its match id and players' names the match's (a View copies only
 * the pending decision's texts, which the next decision rewrites). NULL on allocation
 * failure. */
Deckhand__View *engine_match_view(const engine_match *m, int seat);
void engine_view_free(Deckhand__View *v);
/* Fingerprints of what a View of engine_match_view shows, made from the engine's ids as it
 * was built (no string is read again): its shape (the players' names, its zones' and
 * counters' names and owners in order, its bundle) and zone i's content (its count and the
 * cards shown). Two Views of one match with the same fingerprint show the same (up to a
 * 64-bit collision); a zone index past the end gives 0. */
uint64_t engine_view_shape(const Deckhand__View *v);
uint64_t engine_view_zone_print(const Deckhand__View *v, size_t i);
/* Which change of the match's zones a View's zone i shows (0 past the end), and the epoch
 * those stamps belong to: unique in the process, renewed whenever the match's zones are
 * rewritten wholesale (a rebuild, a restore, a new match). The same epoch and stamp at
 * the same position: the same zone, unchanged. */
uint64_t engine_view_zone_stamp(const Deckhand__View *v, size_t i);
uint64_t engine_view_epoch(const Deckhand__View *v);
/* Every zone's fingerprint (engine_view_zone_print) and stamp, as arrays of v->n_zones, held
 * by v: for a walk over all of them without a call per zone. */
const uint64_t *engine_view_zone_prints(const Deckhand__View *v);
const uint64_t *engine_view_zone_stamps(const Deckhand__View *v);

/* What a seat was last shown, for engine_match_view_since: that View's shape
 * (engine_view_shape) and epoch and, per zone position, its stamp and fingerprint. */
typedef struct {
    uint64_t shape, epoch;
    size_t n;
    const uint64_t *stamps, *prints;
} engine_view_since;

/* The View of engine_match_view for a ViewDelta (issue 27): when its shape is since's, a
 * zone whose epoch and stamp at its position are those in since (unchanged since the View
 * they come from) is built without its cards (count, name and owner only) and given
 * since's fingerprint, so the fingerprints compare as they would on a full View and
 * building costs nothing per card of an unchanged zone. Only the zones whose fingerprint
 * differs may be sent from it; when any was kept (engine_view_kept) and a full View is to
 * be sent, build it with engine_match_view. since NULL, or another shape: the same as
 * engine_match_view. */
Deckhand__View *engine_match_view_since(const engine_match *m, int seat,
                                        const engine_view_since *since);
/* How many zones of v engine_match_view_since left without their cards. */
size_t engine_view_kept(const Deckhand__View *v);
/* The static data of every card of the match's game (the same for every match of one
 * bundle and game): what Views leave out. Freed with engine_catalog_free; NULL when out
 * of memory. */
Deckhand__Catalog *engine_match_catalog(const engine_match *m);
void engine_catalog_free(Deckhand__Catalog *c);

/* ---- persistence and determinism ------------------------------------------------- */

/* Increases by one at every turn boundary, when a new snapshot is taken. */
uint64_t engine_match_snapshot_version(const engine_match *m);
/* The snapshot of the last turn boundary (a versioned binary blob). A finished match whose
 * seats are all bots writes its final one when first asked (NULL, *len 0: out of memory). */
const uint8_t *engine_match_snapshot(const engine_match *m, size_t *len);

typedef struct {
    int seat;
    uint64_t decision_id;
    const uint32_t *option_ids;
    size_t n;
} engine_answer;

/* Number of answers accepted since the last snapshot, and the i-th of them. */
size_t engine_match_log_len(const engine_match *m);
engine_answer engine_match_log_at(const engine_match *m, size_t i);

/* Encode / decode one answer as a log entry (compact binary). Caller frees *out. */
int engine_answer_encode(const engine_answer *a, uint8_t **out, size_t *len);
/* The most bytes an answer of n option ids encodes to. */
#define ENGINE_ANSWER_BYTES(n) (1 + 10 * 3 + 5 * (size_t)(n))
/* The same bytes into p, which has room for ENGINE_ANSWER_BYTES(a->n): their count (no
 * malloc, for the worker's commit after every answer). */
size_t engine_answer_encode_to(const engine_answer *a, uint8_t *p);
/* Decoded option ids are written to ids (capacity max); returns 0 on success. */
int engine_answer_decode(const uint8_t *buf, size_t len, engine_answer *a, uint32_t *ids,
                         size_t max);

/* Rebuild a match from a snapshot and the answers accepted after it. Events produced by
 * the replay are not delivered (event_seq continues where it was). */
engine_match *engine_match_restore(engine_bundle *b, const engine_match_config *cfg,
                                   const uint8_t *snap, size_t len, const engine_answer *log,
                                   size_t nlog, engine_error *err);

/* A 64-bit hash of the match's C state; equal states hash equal in any process. */
uint64_t engine_match_hash(const engine_match *m);

#endif
