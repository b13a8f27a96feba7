/*
 * host_index.c: the hosted matches by id. Every command names its match, and finding it
 * by walking h->matches compared the id with every match's (a strcmp per hosted match per
 * command, growing with the matches a worker holds); a table keyed by id finds it in one
 * probe. h->matches stays the list every walk goes through; the table only points into it.
 * When an insert runs out of memory the table is no longer complete, and host_find walks
 * h->matches as before until the host is freed.
 */
#include <string.h>

#include "host_internal.h"

void host_index_add(host *h, host_match *hm)
{
    h->matches[h->nmatches++] = hm;
    if (h->by_id_partial)
        return;
    if ((!h->by_id.buckets && dh_table_init(&h->by_id) < 0) ||
        dh_table_set(&h->by_id, hm->id, hm) < 0)
        h->by_id_partial = true;
}

void host_index_del(host *h, host_match *hm)
{
    host_walk w = host_walk_from(h, 0);
    for (host_match *it; (it = host_walk_next(&w));) {
        if (it == hm) {
            h->matches[w.at] = h->matches[--h->nmatches];
            break;
        }
    }
    if (h->by_id.buckets && dh_table_get(&h->by_id, hm->id) == hm)
        dh_table_del(&h->by_id, hm->id);
}

host_match *host_find(host *h, const char *match_id)
{
    if (!h->by_id_partial)
        return h->by_id.buckets ? dh_table_get(&h->by_id, match_id) : NULL;
    host_walk w = host_walk_from(h, 0);
    for (host_match *hm; (hm = host_walk_next(&w));)
        if (!strcmp(hm->id, match_id))
            return hm;
    return NULL;
}

void host_index_free(host *h)
{
    if (h->by_id.buckets)
        dh_table_free(&h->by_id, NULL);
    memset(&h->by_id, 0, sizeof h->by_id);
    h->by_id_partial = false;
}
