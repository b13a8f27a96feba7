/*
 * rig_rcluster.h: a small real Redis Cluster for unit tests: N redis-server
 * --cluster-enabled nodes on RIG_RCLUSTER_PORT.. (bus ports +1000; the e2e tests' local
 * clusters use 21700..21749), met and given slot ranges by hand (no replicas), so routing
 * can be tested against real MOVED and ASK replies.
 */
#ifndef DECKHAND_RIG_RCLUSTER_H
#define DECKHAND_RIG_RCLUSTER_H

#include <hiredis/hiredis.h>
#include <sys/types.h>

#define RIG_RCLUSTER_MAX  3
#define RIG_RCLUSTER_PORT 21755

typedef struct {
    int n;
    int port[RIG_RCLUSTER_MAX];
    pid_t pid[RIG_RCLUSTER_MAX];
    redisContext *c[RIG_RCLUSTER_MAX]; /* a direct connection to each node */
    char id[RIG_RCLUSTER_MAX][48];     /* CLUSTER MYID */
    char dir[64];
} rig_rcluster;

/* Start n nodes; node i serves slots from[i]..to[i] (to < from: none). 0, or -1. */
int rig_rcluster_start(rig_rcluster *rc, int n, const int *from, const int *to);
/* Move slot from node a to node b as redis-cli --cluster reshard does: IMPORTING on b,
 * MIGRATING on a, MIGRATE of its keys; with finish, SETSLOT NODE b on every node (the
 * slot moved: a answers MOVED), without it the slot stays migrating (a answers ASK for
 * keys already moved). 0, or -1. */
int rig_rcluster_move_slot(rig_rcluster *rc, int slot, int a, int b, int finish);
void rig_rcluster_stop(rig_rcluster *rc);

#endif
