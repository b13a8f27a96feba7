/*
 * watch.c: the running matches one may watch (see watch.h). The list is kept in start
 * order, so that an answer walks it from the end (newest first) without sorting; a match
 * ending is found by a scan from the oldest (where ends mostly are), and an id is listed
 * at most once (watch_add replaces, a rebuild skips what is listed).
 */
#include "watch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_str.h"
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
    for (size_t i = 0; i < l->npend; i++)
        watch_entry_free(&l->pend[i]);
    free(l->base);
    free(l->pend);
    free(l->gone);
    dh_table_free(&l->ids, NULL);
    *l = (watch_list){0};
}

/* match_id is listed now: into the index (made on first use). */
static void watch_index(watch_list *l, const char *match_id)
{
    if ((!l->ids.buckets && dh_table_init(&l->ids) < 0) ||
        dh_table_set(&l->ids, match_id, (void *)l) < 0)
        l->ids_unsure = true;
}

/* Whether match_id may be listed (always, once the index is unsure). */
static bool watch_listed(const watch_list *l, const char *match_id)
{
    return l->ids_unsure || (l->ids.buckets && dh_table_get(&l->ids, match_id));
}

/* Forget the i-th entry, keeping the order of the others: the entries before it move
 * up one (the front slot is freed) when they are fewer than those after it. */
static void watch_remove(watch_list *l, size_t i)
{
    if (l->ids.buckets)
        dh_table_del(&l->ids, l->v[i].match_id);
    watch_entry_free(&l->v[i]);
    if (i < l->n / 2) {
        memmove(&l->v[1], &l->v[0], i * sizeof *l->v);
        l->v++;
    } else {
        memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof *l->v);
    }
    l->n--;
}

/* Forget match_id's entry (at most one). */
static void watch_forget(watch_list *l, const char *match_id)
{
    if (!watch_listed(l, match_id))
        return;
    for (size_t i = 0; i < l->n; i++) {
        if (!strcmp(l->v[i].match_id, match_id)) {
            watch_remove(l, i);
            return;
        }
    }
}

/* Room for one more entry at the end. The entries move down to the allocation's start only
 * when the free slots at its front are at least half as many as they are, so that a move
 * of n entries follows n/2 ends at least; otherwise the allocation grows (issue 27: a list
 * of 500 running matches whose oldest end as new ones start was moved whole every few
 * matches, about 4,600 instructions a match). 0, or -1 out of memory. */
static int watch_room(watch_list *l)
{
    size_t front = (size_t)(l->v - l->base);
    if (l->base && front + l->n < l->cap)
        return 0;
    if (front && 2 * front >= l->n) {
        memmove(l->base, l->v, l->n * sizeof *l->v);
        l->v = l->base;
        return 0;
    }
    if (dh_grow(&l->base, &l->cap, front + l->n + 1, sizeof *l->base, 64) < 0)
        return -1;
    l->v = l->base + front;
    return 0;
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

/* A new entry into e: 0, or -1 out of memory (e then holds nothing). */
static int watch_entry_make(watch_entry *e, const char *match_id, const char *game,
                            const char *mode, const char *const *players, size_t nplayers,
                            uint64_t started_ms)
{
    *e = (watch_entry){0};
    dh_str_copy(e->match_id, sizeof e->match_id, match_id);
    dh_str_copy(e->game, sizeof e->game, game);
    dh_str_copy(e->mode, sizeof e->mode, mode && *mode ? mode : "casual");
    e->started_ms = started_ms;
    e->players = calloc(nplayers ? nplayers : 1, sizeof *e->players);
    if (!e->players)
        return -1;
    for (size_t i = 0; i < nplayers; i++) {
        e->players[i] = strdup(players[i] ? players[i] : "");
        if (!e->players[i]) {
            watch_entry_free(e);
            *e = (watch_entry){0};
            return -1;
        }
        e->nplayers++;
    }
    return 0;
}

int watch_add(watch_list *l, const char *match_id, const char *game, const char *mode,
              const char *const *players, size_t nplayers, uint64_t started_ms)
{
    watch_forget(l, match_id);
    if (l->n >= WATCH_RUNNING_MAX)
        watch_remove(l, 0);
    if (watch_room(l) < 0 ||
        watch_entry_make(&l->v[l->n], match_id, game, mode, players, nplayers, started_ms) < 0)
        return -1;
    watch_index(l, l->v[l->n].match_id);
    l->n++;
    return 0;
}

void watch_rebuild_begin(watch_list *l)
{
    for (size_t i = 0; i < l->npend; i++)
        watch_entry_free(&l->pend[i]);
    l->npend = 0;
    l->rebuilding = true;
    snprintf(l->cursor, sizeof l->cursor, "0");
    l->ngone = 0;
    l->steps = 0;
}

int watch_restore(watch_list *l, const char *match_id, const char *game, const char *mode,
                  const char *const *players, size_t nplayers, uint64_t started_ms)
{
    if (dh_grow(&l->pend, &l->cappend, l->npend + 1, sizeof *l->pend, 256) < 0 ||
        watch_entry_make(&l->pend[l->npend], match_id, game, mode, players, nplayers, started_ms) <
            0)
        return -1;
    l->npend++;
    return 0;
}

static int watch_cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Start order, then id (so that a match HSCAN returned twice is adjacent to itself). */
static int watch_cmp_start(const void *a, const void *b)
{
    const watch_entry *x = a, *y = b;
    if (x->started_ms != y->started_ms)
        return x->started_ms < y->started_ms ? -1 : 1;
    return strcmp(x->match_id, y->match_id);
}

/* Keep the pending entries whose id is not in skip (sorted) nor repeated: their number. */
static size_t watch_pend_filter(watch_list *l, const char **skip, size_t nskip)
{
    if (l->npend > 1)
        qsort(l->pend, l->npend, sizeof *l->pend, watch_cmp_start);
    size_t keep = 0;
    for (size_t i = 0; i < l->npend; i++) {
        const char *id = l->pend[i].match_id;
        if (bsearch(&id, skip, nskip, sizeof *skip, watch_cmp_str) ||
            (keep && !strcmp(l->pend[keep - 1].match_id, id)))
            watch_entry_free(&l->pend[i]);
        else
            l->pend[keep++] = l->pend[i];
    }
    l->npend = 0;
    return keep;
}

long watch_rebuild_end(watch_list *l)
{
    long rc = -1;
    size_t nskip = 0, keep = 0;
    const char **skip = malloc((l->n + l->ngone + 1) * sizeof *skip);
    watch_entry *merged = NULL;
    if (skip) {
        for (size_t i = 0; i < l->n; i++)
            skip[nskip++] = l->v[i].match_id;
        for (size_t i = 0; i < l->ngone; i++)
            skip[nskip++] = l->gone[i];
        if (nskip > 1)
            qsort(skip, nskip, sizeof *skip, watch_cmp_str);
        keep = watch_pend_filter(l, skip, nskip);
        merged = malloc((l->n + keep + 1) * sizeof *merged);
    }
    if (merged) {
        /* both in start order: merged, the list's own entries first on a tie */
        size_t a = 0, b = 0, n = 0;
        while (a < l->n || b < keep) {
            if (b == keep || (a < l->n && l->v[a].started_ms <= l->pend[b].started_ms)) {
                merged[n++] = l->v[a++];
            } else {
                watch_index(l, l->pend[b].match_id);
                merged[n++] = l->pend[b++];
            }
        }
        free(l->base);
        l->base = l->v = merged;
        l->n = l->cap = n;
        while (l->n > WATCH_RUNNING_MAX)
            watch_remove(l, 0);
        rc = (long)keep;
    } else {
        for (size_t i = 0; i < keep; i++)
            watch_entry_free(&l->pend[i]);
        for (size_t i = 0; !skip && i < l->npend; i++)
            watch_entry_free(&l->pend[i]);
    }
    free(skip);
    free(l->pend);
    l->pend = NULL;
    l->npend = l->cappend = 0;
    l->rebuilding = false;
    free(l->gone);
    l->gone = NULL;
    l->ngone = l->capgone = 0;
    return rc;
}
