/*
 * dh_liveops.h: how `deckhand scripts` changes which bundle a game's new matches start on,
 * and the audit trail every such change leaves (docs/OPERATIONS.md, "Live-ops").
 *
 * A game's live-ops state is three keys in the game's slot (dh_keys.h): bundle:current,
 * bundle:canary and bundle:history, plus its audit stream bundle:audit. Every change is
 * one MULTI/EXEC under a WATCH of the first three, and that transaction also appends the
 * audit entry: a change and its record are written together or not at all (one slot, so
 * this holds on Redis Cluster too). A writer that raced another one (EXEC answered nil)
 * reads the state again and retries.
 *
 * bundle:history is append-only: a push or promote appends "SHA", a rollback appends the
 * bundle it returns to ("SHA rollback", "default rollback"). The bundle a rollback returns
 * to is found by replaying the history as a stack (a push pushes, a rollback pops), so two
 * rollbacks in a row go two steps back, not back and forth.
 */
#ifndef DECKHAND_DH_LIVEOPS_H
#define DECKHAND_DH_LIVEOPS_H

#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>

#include "dh_keys.h"

/* One audit entry (every string borrowed; NULL fields are left out). */
typedef struct {
    const char *action; /* "push" "apply" "canary" "promote" "abort" "rollback" */
    const char *game;
    const char *bundle; /* the SHA, or DH_BUNDLE_DEFAULT */
    const char *label;
    const char *games;
    const char *from;
    const char *by;
    const char *host;
    const char *reason;
    const char *simulate; /* push --simulate: what moved, with 95% intervals */
    int tests;            /* -1: unknown */
    int pct;              /* 0: not a canary */
    bool forced;
} dh_audit;

/* What a game's new matches start on, read under WATCH. */
typedef struct {
    char current[65]; /* "": the workers' embedded default */
    char canary[65];  /* "": no canary */
    int canary_pct;
} dh_liveops_state;

/* A change: NULL leaves a key as it is; current "" deletes the pointer (back to the
 * default), canary "" drops the canary, else "PCT SHA"; history is appended. */
typedef struct {
    const char *current;
    const char *canary;
    const char *history;
} dh_liveops_change;

/* Read game's current pointer and canary into st. 0, or -1 on a Redis error. */
int dh_liveops_read(redisContext *c, const char *game, dh_liveops_state *st);
/* WATCH game's current, canary and history, then dh_liveops_read. 0, or -1 on a Redis
 * error (unwatched). */
int dh_liveops_watch(redisContext *c, const char *game, dh_liveops_state *st);
void dh_liveops_unwatch(redisContext *c);
/* Apply ch and append a to bundle:audit:{GAME} in one MULTI/EXEC (after dh_liveops_watch).
 * 1 done, 0 the watched keys changed meanwhile (nothing written: read and try again),
 * -1 a Redis error. */
int dh_liveops_commit(redisContext *c, const char *game, const dh_liveops_change *ch,
                      const dh_audit *a);

/* Where a rollback goes, from history entries newest first: the bundle current holds
 * now (from) and the one before it (to, DH_BUNDLE_DEFAULT when none); each 65 bytes.
 * 1, or 0 when nothing was pushed to roll back. */
int dh_liveops_rollback_target(const char *const *entries, size_t n, char *from, char *to);
/* The same, read from bundle:history:{GAME}: 1, 0, or -1 on a Redis error. */
int dh_liveops_rollback_read(redisContext *c, const char *game, char *from, char *to);

#endif
