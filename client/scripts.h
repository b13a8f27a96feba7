/*
 * scripts.h: what the files of `deckhand scripts` share (docs/OPERATIONS.md, "Live-ops").
 * Top down, each calling only the ones below it: cmd_scripts.c (usage, dispatch, list,
 * show), scripts_push.c (push: the checks, the test-count guard, store, move or canary),
 * scripts_rollout.c (rollback, promote, abort), scripts_audit.c (who and why, and the
 * `audit` listing), scripts_commit.c (the commit-and-retry loop of push and rollout),
 * scripts_store.c (reads from Redis they all need), scripts_served.c (the games the
 * workers serve); scripts_usage.c holds the usage they all print.
 */
#ifndef DECKHAND_CLIENT_SCRIPTS_H
#define DECKHAND_CLIENT_SCRIPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "dh_liveops.h"

#define SCRIPTS_WHO       "deckhand scripts"
#define SCRIPTS_WORKERS   64
#define SCRIPTS_GAMES_MAX 32

/* scripts_usage.c */
extern const char scripts_usage[];

/* ---- scripts_store.c ---- */

/* Every command goes through dh_redis (dh_redis.h): on one Redis or a Redis Cluster alike,
 * to the node serving its key's slot, following MOVED and ASK. */

/* One command, routed by its key (argv[1]); NULL with the reason on stderr. */
redisReply *scripts_cmd(dh_redis *r, int argc, const char **argv);
/* HGET as a malloc'd string the caller frees; NULL when absent. */
char *scripts_hget(dh_redis *r, const char *key, const char *field);
/* Every live worker id (worker:{ID} leases, SCAN on every master) into ids; the count. */
size_t scripts_workers(dh_redis *r, char ids[][128], size_t max);
/* The connection to the node serving game's live-ops keys, for dh_liveops.h's WATCH and
 * MULTI/EXEC: those keys share the {GAME} slot, so one node holds them all. A routed
 * command asks for the slot first, so a slot that moved updates the map before the
 * transaction starts. NULL with the reason on stderr. */
redisContext *scripts_game_node(dh_redis *r, const char *game);
/* The wall clock, in ms since the epoch. */
uint64_t scripts_wall_ms(void);

/* What the audit trail and the guard say of a bundle. */
typedef struct {
    char sha[65]; /* or DH_BUNDLE_DEFAULT when it is not in Redis */
    char label[128];
    char games[512];
} scripts_bundle;
/* bundle:{SHA}'s label and games into b (sha DH_BUNDLE_DEFAULT: the stored default
 * bundle serving game, when a worker stored one). 0, or -1 when nothing is known of it. */
int scripts_bundle_about(dh_redis *r, const char *sha, const char *game, scripts_bundle *b);

/* ---- scripts_served.c ---- */

/* The games the live workers serve (those of the embedded default bundles they report),
 * comma-separated, into out (cap bytes). The number of live workers. */
size_t scripts_served_games(dh_redis *r, char *out, size_t cap);

/* ---- scripts_audit.c ---- */

/* Who acts, from where, and why: --by (else the admin token's name, the one the admin
 * API's trail gives the same operator; else $USER, $LOGNAME, the account:
 * scripts_audit.c), the host name, --reason. */
typedef struct {
    char by[128];
    char host[256];
    const char *reason;
} scripts_actor;
/* Fill a from f; when need_reason names the action (a rollback, --force), --reason is
 * required: -1 with "deckhand scripts: --reason is required for ..." on stderr. */
int scripts_actor_init(scripts_actor *a, const dh_flags *f, const char *need_reason);
/* An audit entry of action on game by a, about bundle b (the rest zero). */
dh_audit scripts_audit_entry(const scripts_actor *a, const char *action, const char *game,
                             const scripts_bundle *b);
/* `deckhand scripts audit [--game G]`. */
int scripts_audit(int argc, char **argv);

/* ---- scripts_commit.c ---- */

#define SCRIPTS_ATTEMPTS 5

/* What one step of a live-ops change says. */
typedef enum {
    SCRIPTS_GO,    /* go on: the reads are done (prepare), commit ch and a (plan) */
    SCRIPTS_AGAIN, /* what was read moved meanwhile: start the round again */
    SCRIPTS_DONE,  /* nothing to change (exit status 0), said already */
    SCRIPTS_FAIL,  /* refused or failed (exit status 1), said already */
} scripts_step;

/* One change of game's bundle pointers, as callbacks on ctx. */
typedef struct {
    const char *game;
    const char *who;  /* names the command in the give-up line */
    const char *what; /* what kept changing, in that line: "the history", the game... */
    void *ctx;
    /* The routed reads before the WATCH (bundle facts, the target); NULL: none. */
    scripts_step (*prepare)(void *ctx, dh_redis *r);
    /* Under the WATCH on c, from the state st: fill ch and a (their strings may point
     * into ctx or st, which outlive the commit). */
    scripts_step (*plan)(void *ctx, redisContext *c, const dh_liveops_state *st,
                         dh_liveops_change *ch, dh_audit *a);
    /* After the commit, with the state it replaced: say what changed; NULL: nothing. */
    void (*done)(void *ctx, const dh_liveops_state *st);
} scripts_change;

/* Run job: up to SCRIPTS_ATTEMPTS rounds of prepare, WATCH, plan, MULTI/EXEC; a round
 * whose commit raced another writer (nothing written) or whose step said SCRIPTS_AGAIN
 * starts again from prepare. 0 when committed or SCRIPTS_DONE; -1 when refused, on a
 * Redis error, or still racing after the last round ("WHO: WHAT kept changing; try
 * again" on stderr). A plan that stops its round leaves nothing WATCHed. */
int scripts_commit(dh_redis *r, const scripts_change *job);

/* ---- scripts_compare.c ---- */

/* A balance check: games of one game on two bundles, on the same seeds and bots. */
typedef struct {
    const char *game;
    long games, seed, players;
    const char *bots;    /* comma list, one per seat, repeated (rotating from game to game) */
    const char *options; /* match options, or NULL */
    const char *cards;   /* cards to report besides the changed ones (comma list), or NULL */
} scripts_sim;
/* --game, --seed, --players, --bots, --options, --cards into sim (pointing into f), and
 * games (else, when 0, --games, default 200). 0, or -1 (usage printed). */
int scripts_sim_flags(const dh_flags *f, scripts_sim *sim, long games);
/* Play sim->games games on a (old) and on b (new), print what moved with 95% intervals,
 * and the moved figures on one line into summary (cap bytes). 0, or -1 (printed). */
int scripts_compare_run(engine_bundle *a, engine_bundle *b, const scripts_sim *sim, char *summary,
                        size_t cap);
/* `deckhand scripts compare OLD_DIR NEW_DIR --game G [...]`. */
int scripts_compare(int argc, char **argv);

/* ---- scripts_push.c, scripts_rollout.c ---- */

int scripts_push(int argc, char **argv);
int scripts_rollback(int argc, char **argv);
int scripts_promote(int argc, char **argv);
int scripts_abort(int argc, char **argv);

#endif
