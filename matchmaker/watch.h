/*
 * watch.h: the running matches one may watch, and the answer to a client's
 * WatchListRequest (deckhand.proto "Watching": WatchList, newest first, at most 100).
 *
 * The list is the matchmaker's own memory of what it placed: a match goes in when its
 * worker started it (placement.c) and out at its MatchEnded (control.c); bot-only and
 * bot-filled matches are listed like any other. It follows nothing else: a move keeps the
 * id, and a restarted or newly acting matchmaker starts with an empty list (the matches
 * it did not place are not listed until they end; watching them by id still works).
 */
#ifndef DECKHAND_MM_WATCH_H
#define DECKHAND_MM_WATCH_H

#include <stddef.h>
#include <stdint.h>

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
    watch_entry *v; /* oldest first */
    size_t n, cap;
} watch_list;

void watch_list_free(watch_list *l);
/* match_id started (or moved in as a placement): remembered, replacing an entry of the same
 * id. 0, or -1 out of memory. */
int watch_add(watch_list *l, const char *match_id, const char *game, const char *mode,
              const char *const *players, size_t nplayers, uint64_t started_ms);
/* match_id ended: forgotten. */
void watch_end(watch_list *l, const char *match_id);

#endif
