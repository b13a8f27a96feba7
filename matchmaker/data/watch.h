/*
 * watch.h: the running matches one may watch, and the answer to a client's
 * WatchListRequest (deckhand.proto "Watching": WatchList, newest first, at most 100).
 *
 * The list is the matchmaker's own memory of what it placed: a match goes in when its
 * worker started it (placement.c) and out at its MatchEnded (control.c); bot-only and
 * bot-filled matches are listed like any other. A move keeps the id. A restarted or newly
 * acting matchmaker rebuilds the list from Redis (watch_load.h): the running matches it
 * finds (watch_restore) join the list at its end (watch_rebuild_end), in their start
 * order, except the ones it already lists or that ended while it ran (watch_end records
 * those until it is done).
 */
#ifndef DECKHAND_MM_WATCH_H
#define DECKHAND_MM_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dh_table.h"
#include "internal.pb-c.h"

#define WATCH_LIST_MAX    100    /* entries in one WatchList */
#define WATCH_RUNNING_MAX 100000 /* matches remembered; past it the oldest is forgotten */
#define WATCH_TEXT_MAX    64

typedef struct {
    char match_id[WATCH_TEXT_MAX];
    char game[WATCH_TEXT_MAX];
    char mode[WATCH_TEXT_MAX];
    char **players; /* display names by seat (owned) */
    size_t nplayers;
    uint64_t started_ms; /* wall clock */
} watch_entry;

typedef struct {
    watch_entry *v; /* oldest first: n entries from v, inside the allocation at base */
    size_t n, cap;  /* cap: entries base holds; v - base are free slots at its front */
    watch_entry *base;
    /* the rebuild from Redis (watch_load.h): under way, the HSCAN cursor of its next step,
     * and the matches that ended meanwhile (not restored) */
    bool rebuilding;
    char cursor[24];
    size_t steps;      /* so far, for the log line at its end */
    watch_entry *pend; /* what it found, listed at its end */
    size_t npend, cappend;
    char (*gone)[WATCH_TEXT_MAX];
    size_t ngone, capgone;
    /* the ids listed, so that a new match is not looked for among all (issue 27: a scan of
     * 500 ids cost 14,000 instructions per match); unsure after running out of memory,
     * when every lookup scans */
    dh_table ids;
    bool ids_unsure;
} watch_list;

void watch_list_free(watch_list *l);
/* match_id started (or moved in as a placement): remembered, replacing an entry of the same
 * id. 0, or -1 out of memory. */
int watch_add(watch_list *l, const char *match_id, const char *game, const char *mode,
              const char *const *players, size_t nplayers, uint64_t started_ms);
/* match_id ended: forgotten (and, while a rebuild runs, never restored by it). Matches
 * mostly end in the order they started, so it is looked for from the oldest, and the
 * shorter side of the list moves to close the gap (issue 27: a scan from the newest and
 * a move of everything after it cost microseconds per match with 500 running). */
void watch_end(watch_list *l, const char *match_id);

/* A rebuild starts at HSCAN cursor "0" (a rebuild under way starts over). */
void watch_rebuild_begin(watch_list *l);
/* A running match the rebuild found: kept aside until its end. 0, or -1 out of memory. */
int watch_restore(watch_list *l, const char *match_id, const char *game, const char *mode,
                  const char *const *players, size_t nplayers, uint64_t started_ms);
/* The rebuild is complete: what it found joins the list in start order, except the matches
 * listed already (placed here meanwhile: that entry stands), the ones that ended during
 * the rebuild and repeats (HSCAN may return a field twice); the ended ids are forgotten.
 * The number of matches it added, or -1 out of memory (none added). O(n log n): one sort
 * and one merge, not an insertion per match. */
long watch_rebuild_end(watch_list *l);

#endif
