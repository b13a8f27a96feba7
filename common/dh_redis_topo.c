/*
 * dh_redis_topo.c: a Redis Cluster's slot map, read with CLUSTER SLOTS (dh_redis.h).
 *
 * Asked of the nodes already known first, then of the seeds, so a process that started
 * from a seed list keeps finding the cluster after its seeds are gone. The map names
 * masters only: deckhand reads and writes on masters (a replica may lag a write a client
 * was told succeeded). Connections to nodes that stopped being masters are closed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_log.h"
#include "dh_redis_int.h"

/* CLUSTER SLOTS from the first node or seed that answers it; NULL when none does. */
static redisReply *topo_ask(dh_redis *r)
{
    size_t n = r->nnodes + (size_t)r->addr.nseeds;
    for (size_t k = 0; k < n; k++) {
        bool known = k < r->nnodes;
        const dh_redis_hostport *at = known ? &r->nodes[k].at : &r->addr.seeds[k - r->nnodes];
        redisContext *c = known && r->nodes[k].ctx ? r->nodes[k].ctx : dh_redis_open(r, at);
        if (!c)
            continue;
        redisReply *rep = redisCommand(c, "CLUSTER SLOTS");
        bool ok = rep && rep->type == REDIS_REPLY_ARRAY && rep->elements > 0;
        if (!ok && rep && rep->type == REDIS_REPLY_ERROR)
            dh_warn("redis %s:%d CLUSTER SLOTS: %s", at->host, at->port, rep->str);
        if (!(known && r->nodes[k].ctx))
            redisFree(c);
        else if (!rep)
            dh_redis_node_fail(r, k);
        if (ok)
            return rep;
        if (rep)
            freeReplyObject(rep);
    }
    return NULL;
}

/* The master of one CLUSTER SLOTS entry into at; false when malformed. */
static bool topo_entry(const redisReply *e, int *from, int *to, dh_redis_hostport *at)
{
    if (e->type != REDIS_REPLY_ARRAY || e->elements < 3 ||
        e->element[0]->type != REDIS_REPLY_INTEGER || e->element[1]->type != REDIS_REPLY_INTEGER)
        return false;
    const redisReply *m = e->element[2];
    if (m->type != REDIS_REPLY_ARRAY || m->elements < 2 ||
        m->element[0]->type != REDIS_REPLY_STRING || m->element[1]->type != REDIS_REPLY_INTEGER ||
        m->element[0]->len >= sizeof at->host)
        return false;
    *from = (int)e->element[0]->integer;
    *to = (int)e->element[1]->integer;
    if (*from < 0 || *to >= DH_SLOTS || *from > *to)
        return false;
    snprintf(at->host, sizeof at->host, "%s", m->element[0]->str);
    at->port = (int)m->element[1]->integer;
    return true;
}

int dh_redis_refresh(dh_redis *r)
{
    redisReply *rep = topo_ask(r);
    if (!rep)
        return -1;
    dh_redis_node *old = malloc(sizeof r->nodes);
    if (!old) {
        freeReplyObject(rep);
        return -1;
    }
    size_t nold = r->nnodes;
    memcpy(old, r->nodes, sizeof r->nodes);
    r->nnodes = 0;
    r->ctx = NULL;
    memset(r->slot_node, -1, sizeof r->slot_node);
    for (size_t k = 0; k < rep->elements; k++) {
        int from, to;
        dh_redis_hostport at;
        if (!topo_entry(rep->element[k], &from, &to, &at))
            continue;
        int i = dh_redis_node_index(r, at.host, at.port);
        if (i < 0)
            continue;
        r->nodes[i].replicas = (int)rep->element[k]->elements - 3; /* listed after the master */
        for (int s = from; s <= to; s++)
            r->slot_node[s] = (int8_t)i;
    }
    for (size_t k = 0; k < nold; k++) { /* keep live connections to nodes still masters */
        int i = dh_redis_node_find(r, old[k].at.host, old[k].at.port);
        if (i >= 0 && !r->nodes[i].ctx)
            r->nodes[i].ctx = old[k].ctx;
        else if (old[k].ctx)
            redisFree(old[k].ctx);
    }
    for (size_t j = 0; j < r->nnodes && !r->ctx; j++)
        r->ctx = r->nodes[j].ctx;
    free(old);
    freeReplyObject(rep);
    r->refreshes++;
    return r->nnodes ? 0 : -1;
}
