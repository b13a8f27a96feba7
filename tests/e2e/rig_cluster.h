/*
 * rig_cluster.h: the real cluster around an e2e C test (redis-server, matchmaker, two
 * workers, one gateway) started by scripts/lib/cluster.sh in a fresh run directory, with
 * the gateway's addresses set for the player rig (pl_gateway, pl_gateway_ws), and what a
 * test reads from it afterwards: cluster.env values, the processes' log lines and Redis.
 */
#ifndef DECKHAND_RIG_CLUSTER_H
#define DECKHAND_RIG_CLUSTER_H

#include <stddef.h>

/* Start the cluster on ports from base (cluster.sh moves up by 100 when they are taken),
 * in /tmp/deckhand-e2e-NAME.XXXXXX. 0, or -1 (said on stderr; nothing is left running). */
int rc_start(const char *name, int base);
/* The cluster's run directory (its keys/, logs/ and cluster.env). */
const char *rc_dir(void);
/* The value of key in the cluster's cluster.env into out. 0 or -1. */
int rc_env(const char *key, char *out, size_t n);
/* Lines of the logs matching glob (e.g. "worker-*.log") that contain both a and b (b
 * may be NULL); an a starting with '^' must start the line. */
int rc_log_count(const char *glob, const char *a, const char *b);
/* Stop the cluster: the test's exit code rc, made 1 when a process died or left a
 * sanitizer report; the run directory is removed on success and kept otherwise. */
int rc_finish(int rc);
/* One command to the cluster's Redis (its URL in cluster.env, with the operators'
 * password): the reply, for freeReplyObject, or NULL when Redis cannot be reached. */
struct redisReply *rc_redis(int argc, const char **argv);
/* How many answers match id's history holds in Redis (match:{ID}:history), or -1. */
long long rc_history_len(const char *id);

#endif
