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
    *l = (watch_list){0};
}

/* Forget the i-th entry, keeping the order of the others. */
static void watch_remove(watch_list *l, size_t i)
{
    watch_entry_free(&l->v[i]);
    memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
    l->n--;
}

void watch_end(watch_list *l, const char *match_id)
{
    for (size_t i = l->n; i-- > 0;)
        if (!strcmp(l->v[i].match_id, match_id))
            watch_remove(l, i);
}

int watch_add(watch_list *l, const char *match_id, const char *game, const char *mode,
              const char *const *players, size_t nplayers, uint64_t started_ms)
{
    watch_end(l, match_id);
    if (l->n >= WATCH_RUNNING_MAX)
        watch_remove(l, 0);
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
    l->v[l->n++] = e;
    return 0;
}
