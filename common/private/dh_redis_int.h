/*
 * dh_redis_int.h: what the files of the Redis layer share and no process may call
 * (common/private/ is on dh_common's private include path only). dh_redis.h is the front
 * door; behind it, each file calls only the files listed before it:
 *   dh_redis_node.c   one node's connection: opening it (AUTH, SELECT), finding a node by
 *                     address, dropping one that failed
 *   dh_redis_topo.c   a cluster's slot map (CLUSTER SLOTS)
 *   dh_redis_route.c  routing a slot to its node, following MOVED and ASK, reconnecting
 *                     with backoff, WAIT, INFO memory
 *   dh_redis_pipe.c   commands and pipelines, synchronous (hiredis' blocking API)
 *   dh_redis_async.c  commands, asynchronous (hiredis' async API, the caller's loop)
 */
#ifndef DECKHAND_DH_REDIS_INT_H
#define DECKHAND_DH_REDIS_INT_H

#include "dh_redis.h"

/* dh_redis_node.c. A new authenticated connection to at (the caller owns it), or NULL
 * (logged once per outage). */
redisContext *dh_redis_open(dh_redis *r, const dh_redis_hostport *at);
/* Node i's connection, opened when it has none; NULL when it cannot be reached. */
redisContext *dh_redis_node_ctx(dh_redis *r, size_t i);
/* Node i connected: 0; -1 while it is down and r's backoff runs; -2 when it cannot be
 * reached now (a cluster's map marked stale, the next try after the backoff). */
int dh_redis_node_up(dh_redis *r, size_t i, uint64_t now_ms);
/* The index of the node at host:port, -1 when r has none there. */
int dh_redis_node_find(const dh_redis *r, const char *host, int port);
/* The index of the node at host:port, added when new; -1 when the table is full. */
int dh_redis_node_index(dh_redis *r, const char *host, int port);
/* Drop node i's connection (it failed); a cluster reads its slot map again. */
void dh_redis_node_fail(dh_redis *r, size_t i);

/* dh_redis_topo.c: read the slot map, keeping live connections to nodes still masters.
 * 0, or -1 when no node answered. */
int dh_redis_refresh(dh_redis *r);

/* dh_redis_route.c. The node serving slot (-1: any node), connected; -1 when none can be
 * reached. */
int dh_redis_route(dh_redis *r, int slot, uint64_t now_ms);
/* The MOVED or ASK reply rep followed on r's slot map: *to filled (kind NONE when rep is
 * no redirect), a MOVED's slot given to the named node and the map marked stale (one slot
 * moved: the others may have too), the redirect counted. The named node's index (added
 * when new), or -1 when rep is no redirect or the node table is full. */
int dh_redis_redirect(dh_redis *r, const redisReply *rep, dh_redirect *to);

#endif
