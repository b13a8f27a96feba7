/*
 * bundles.h: the front door of the worker's bundles wing (worker/bundles/): the script
 * bundles a worker serves, for live-ops (docs/OPERATIONS.md).
 *
 * A worker starts on its embedded default bundle (--scripts) and follows Redis: every
 * BUNDLES_POLL_MS it reads bundle:current:{GAME} for the games it serves; a SHA it has
 * not loaded is fetched from bundle:{SHA} and loaded, completely, into a new VM before any
 * match may use it (a bundle whose content does not hash to its SHA, that lacks the game,
 * or that fails to load is recorded in bundle:{SHA}:errors and the worker keeps serving
 * on what it had). New matches start on the game's current bundle; a match stays pinned to
 * the bundle it started on; a VM is freed when its last match ends and it is no longer
 * current. worker:{ID}:bundles reports the match count per loaded bundle.
 *
 * Canary: bundle:canary:{GAME} ("PCT SHA", dh_liveops.h) is read with the pointers; while
 * it is set and loads here, a new match of the game starts on it when
 * dh_bundle_canary_takes(match id, PCT) (a hash of the id, the same on every worker), else
 * on the current bundle. The report adds "started:SHA", the matches started on each
 * bundle, and /metrics counts new matches on a canary and on a current bundle.
 *
 * Announced, with a poll as the safety net: a push, a rollback or a canary change is
 * published on DH_CHANNEL_BUNDLES in the same transaction that changes the pointers
 * (dh_liveops_commit), and the worker subscribes on a connection of its own
 * (dh_redis_sub.h, bundles_announce.c) whose descriptor its loop polls with the sockets:
 * the message wakes the loop, which reads the pointers at once (bundles_tick). The poll
 * stays, every BUNDLES_SAFETY_POLL_MS while subscribed (a pointer written by hand, a
 * message lost), every BUNDLES_POLL_MS while the subscription is down, and once right
 * after each (re)subscription, since pub/sub keeps nothing for a subscriber that was away.
 * The Redis connection of the reads is the module's own (synchronous), so it never mixes
 * with the store's pipelined batch.
 */
#ifndef DECKHAND_WORKER_BUNDLES_H
#define DECKHAND_WORKER_BUNDLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_metrics.h"
#include "dh_redis.h"
#include "dh_redis_sub.h"
#include "dh_trial.h"
#include "engine.h"

#define BUNDLES_POLL_MS        200  /* while the announcement channel is down */
#define BUNDLES_SAFETY_POLL_MS 2000 /* while it is up: the safety net only */
#define BUNDLES_GAMES_MAX      32
#define BUNDLES_FAILED         64

typedef struct bundles_entry {
    engine_bundle *b;
    char id[65];
    size_t matches;   /* live matches pinned to it */
    uint64_t started; /* new matches started on it here (bundles_started) */
    bool is_default;
    bool apply_running; /* pushed with --apply-to-running (and compatible): running matches
                           move onto it at their next quiescent point (host.h) */
} bundles_entry;

typedef struct {
    char game[64];
    bundles_entry *e;      /* what new matches of the game start on */
    bundles_entry *canary; /* NULL, or what canary_pct% of them start on */
    int canary_pct;
} bundles_current;

typedef struct bundles {
    const char *worker_id;
    dh_redis redis;
    bundles_entry **v;
    size_t n, cap;
    bundles_current cur[BUNDLES_GAMES_MAX];
    size_t ncur;
    char failed[BUNDLES_FAILED][65]; /* SHAs that failed here: not retried every poll */
    size_t nfailed;
    bool default_stored; /* the default bundle is in Redis (for replays) */
    dh_redis_sub sub;    /* DH_CHANNEL_BUNDLES: changes announced (bundles_announce.c) */
    uint64_t next_poll_ms;
    uint64_t next_report_ms; /* a due report waits for a poll at most until then */
    bool report_due;
    unsigned report_ttl_ms;
    dh_counter loaded; /* bundles fetched from Redis and loaded (/metrics) */
    dh_counter failed_loads;
    dh_counter started_current;  /* new matches started on a game's current bundle */
    dh_counter started_canary;   /* ... and on its canary */
    dh_counter errors_current;   /* script errors in matches on a game's current bundle */
    dh_counter errors_canary;    /* ... and on a canary */
    dh_counter canaries_aborted; /* canaries this worker's guard aborted (bundles_guard.c) */
} bundles;

/* def (borrowed, outlives bs) is the embedded default; its games are the games served.
 * -1 on a bad Redis URL or out of memory. */
int bundles_init(bundles *bs, const char *worker_id, const char *redis_url, int timeout_ms,
                 engine_bundle *def, unsigned report_ttl_ms);
/* Frees every VM but the default; call after every match is freed. */
void bundles_free(bundles *bs);

/* Follow Redis: load what became current, free what nobody uses; report when something
 * changed. bundles_tick calls it when due; tests call it directly. */
void bundles_poll(bundles *bs, uint64_t now_ms);

/* ---- a canary's trial and its guard (bundles_guard.c, dh_trial.h) ---- */

/* A new match of game started on e: while the game has a canary here, its side in the
 * canary's trial (1 + dh_trial_side) with the canary's SHA into sha (65 bytes), the
 * start counted (and judged); else 0. */
int bundles_trial_start(bundles *bs, const char *game, const bundles_entry *e, char *sha,
                        uint64_t now_ms);
/* A match of game on trial side (1 + dh_trial_side) of canary sha met what: counted,
 * then judged: a guard past its margin aborts the canary, with its audit entry. */
void bundles_trial_note(bundles *bs, const char *game, const char *sha, int side,
                        dh_trial_count what, uint64_t now_ms);
/* A script error in a match on e (NULL: the default bundle): the metric. */
void bundles_script_error(bundles *bs, const bundles_entry *e);

/* ---- announcements (bundles_announce.c) ---- */

/* Between batches, every loop turn: keep the subscription up, take what it brought
 * (readable: the caller's poll found bundles_announce_fd readable, so reading cannot
 * block), and poll when a change was announced, the subscription has just come up, or the
 * safety interval passed. A due report (matches started or ended on a bundle) is written
 * within BUNDLES_POLL_MS even between polls, so `scripts list` is as fresh as when every
 * poll was that often. The clock of the next poll or report due without an announcement. */
uint64_t bundles_tick(bundles *bs, uint64_t now_ms, bool readable);
/* The subscription's descriptor for the loop's poll (readable: an announcement waits),
 * -1 while it is down. */
int bundles_announce_fd(const bundles *bs);
/* Write worker:{ID}:bundles (every beat; also done by poll after a change). */
void bundles_report(bundles *bs, uint64_t now_ms);

/* The game's current entry (never NULL: the default at worst). */
bundles_entry *bundles_pick(bundles *bs, const char *game);
/* The entry the new match match_id of game starts on: the game's canary when it has one
 * and the match falls in its share, else its current entry. */
bundles_entry *bundles_pick_new(bundles *bs, const char *game, const char *match_id);
/* The loaded bundle sha, or fetched from Redis and loaded now (an adopted match runs on
 * the bundle it is pinned to); NULL when it cannot be had (a SHA that failed here is not
 * tried again). Pin it before the next poll. */
bundles_entry *bundles_get(bundles *bs, const char *sha, const char *game, uint64_t now_ms);
/* A match started on e / ended: counts, and frees e's VM when unused and not current. */
void bundles_pin(bundles_entry *e);
/* A new match started on e (from bundles_pick_new): pinned and counted. */
void bundles_started(bundles *bs, bundles_entry *e);
void bundles_unpin(bundles *bs, bundles_entry *e);

#endif
