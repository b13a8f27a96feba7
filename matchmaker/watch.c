/*
 * watch.c: the running matches one may watch (see watch.h). The list is kept in start
 * order, so that an answer walks it from the end (newest first) without sorting; a match
 * ending is found by a linear scan, fine for the thousands of matches one cluster runs.
 */
#include "watch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
#include "dh_log.h"

static void watch_entry_free(watch_entry *e)
{
    for (size_t i = 0; i < e->nplayers; i++)
        free(e->players[i]);
    free(e->players);
}

void watch_list_free(watch_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        watch_entry_free(&l->v[i]);
    free(l->v);
    free(l->gone);
    *l = (watch_list){0};
}

/* Forget the i-th entry, keeping the order of the others. */
static void watch_remove(watch_list *l, size_t i)
{
    watch_entry_free(&l->v[i]);
    memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
    l->n--;
}

/* Forget every entry of match_id. */
static void watch_forget(watch_list *l, const char *match_id)
{
    for (size_t i = l->n; i-- > 0;)
        if (!strcmp(l->v[i].match_id, match_id))
            watch_remove(l, i);
}

void watch_end(watch_list *l, const char *match_id)
{
    watch_forget(l, match_id);
    /* past WATCH_RUNNING_MAX ends in one rebuild, a late one may be restored: it then
     * stays listed until the next rebuild */
    if (l->rebuilding && l->ngone < WATCH_RUNNING_MAX &&
        dh_grow(&l->gone, &l->capgone, l->ngone + 1, sizeof *l->gone, 64) == 0)
        snprintf(l->gone[l->ngone++], WATCH_TEXT_MAX, "%s", match_id);
}

/* Insert a new entry at position at (0..n), keeping the others' order: 1, 0 when it is
 * older than all of a full list (not kept), or -1 out of memory. */
static int watch_insert(watch_list *l, size_t at, const char *match_id, const char *game,
                        const char *mode, const char *const *players, size_t nplayers,
                        uint64_t started_ms)
{
    if (l->n >= WATCH_RUNNING_MAX) {
        if (at == 0)
            return 0; /* older than everything remembered: it would be forgotten first */
        watch_remove(l, 0);
        at--;
    }
    if (dh_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v, 64) < 0)
        return -1;
    watch_entry e = {0};
    snprintf(e.match_id, sizeof e.match_id, "%s", match_id);
    snprintf(e.game, sizeof e.game, "%s", game);
    snprintf(e.mode, sizeof e.mode, "%s", mode && *mode ? mode : "casual");
    e.started_ms = started_ms;
    e.players = calloc(nplayers ? nplayers : 1, sizeof *e.players);
    if (!e.players)
        return -1;
    for (size_t i = 0; i < nplayers; i++) {
        e.players[i] = strdup(players[i] ? players[i] : "");
        if (!e.players[i]) {
            watch_entry_free(&e);
            return -1;
        }
        e.nplayers++;
    }
    memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof *l->v);
    l->v[at] = e;
    l->n++;
    return 1;
}

int watch_add(watch_list *l, const char *match_id, const char *game, const char *mode,
              const char *const *players, size_t nplayers, uint64_t started_ms)
{
    watch_forget(l, match_id);
    return watch_insert(l, l->n, match_id, game, mode, players, nplayers, started_ms) < 0 ? -1 : 0;
}

void watch_rebuild_begin(watch_list *l)
{
    l->rebuilding = true;
    snprintf(l->cursor, sizeof l->cursor, "0");
    l->ngone = 0;
}

int watch_restore(watch_list *l, const char *match_id, const char *game, const char *mode,
                  const char *const *players, size_t nplayers, uint64_t started_ms)
{
    for (size_t i = 0; i < l->ngone; i++)
        if (!strcmp(l->gone[i], match_id))
            return 0;
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].match_id, match_id))
            return 0;
    size_t at = l->n;
    while (at > 0 && l->v[at - 1].started_ms > started_ms)
        at--;
    return watch_insert(l, at, match_id, game, mode, players, nplayers, started_ms);
}

void watch_rebuild_end(watch_list *l)
{
    l->rebuilding = false;
    free(l->gone);
    l->gone = NULL;
    l->ngone = l->capgone = 0;
}
