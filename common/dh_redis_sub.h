/*
 * dh_redis_sub.h: one Redis pub/sub channel followed from a process's own poll loop, so
 * that a change written to Redis reaches the process as a message instead of waiting for
 * its next poll of the key (the workers learn of a pushed bundle this way: bundles.h).
 *
 * The subscriber is a connection of its own (a subscribed connection can send nothing
 * else), opened with the same URL and credentials as the process's dh_redis: one Redis,
 * or any node of a Redis Cluster (a PUBLISH reaches the subscribers of every node), the
 * seeds tried in turn. The caller polls dh_redis_sub_fd with its other sockets and calls
 * dh_redis_sub_read when it is readable; the read takes what has arrived and never
 * blocks. A broken connection is dropped and opened again by dh_redis_sub_tick, backing
 * off from 100 ms to 2 s like dh_redis. What was published while the connection was down
 * is lost (pub/sub keeps nothing): tick says when it has just subscribed, and the caller
 * then reads the keys the messages are about once, to catch up.
 */
#ifndef DECKHAND_DH_REDIS_SUB_H
#define DECKHAND_DH_REDIS_SUB_H

#include <stdint.h>

#include "dh_redis.h"

#define DH_REDIS_SUB_CHANNEL_MAX 64

typedef struct {
    dh_redis r;           /* the address, credentials and timeout; no command goes through it */
    redisContext *ctx;    /* the subscribed connection, NULL while down */
    int seed;             /* the seed tried next (a Cluster: any node will do) */
    uint64_t retry_at_ms; /* the next attempt while down */
    unsigned backoff_ms;
    char channel[DH_REDIS_SUB_CHANNEL_MAX];
    uint64_t messages; /* messages received so far */
} dh_redis_sub;

/* Parse url for a subscriber of channel (nothing connects yet). 0, or -1 on a malformed
 * URL or a channel name too long. */
int dh_redis_sub_init(dh_redis_sub *s, const char *url, int timeout_ms, const char *channel);
/* Connect and subscribe when down and the backoff allows. 1 when it has just subscribed
 * (whatever was published before is unknown: catch up), 0 when nothing changed (up, or
 * down and waiting), -1 when the attempt failed. */
int dh_redis_sub_tick(dh_redis_sub *s, uint64_t now_ms);
/* The connection's descriptor to poll for reading, -1 while down. */
int dh_redis_sub_fd(const dh_redis_sub *s);
/* Take what arrived, without blocking (call when the descriptor polls readable). The
 * number of messages published on the channel among it, or -1 when the connection broke
 * (it is dropped: the next tick opens it again). */
int dh_redis_sub_read(dh_redis_sub *s, uint64_t now_ms);
void dh_redis_sub_close(dh_redis_sub *s);

#endif
