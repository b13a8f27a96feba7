/*
 * rig_rcluster.c: see rig_rcluster.h.
 */
#include "rig_rcluster.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dh_test.h"

static pid_t rig_node_spawn(const char *dir, int port, int bus)
{
    char p[16], b[16], conf[128];
    snprintf(p, sizeof p, "%d", port);
    snprintf(b, sizeof b, "%d", bus);
    snprintf(conf, sizeof conf, "%s/nodes-%d.conf", dir, port);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execlp("redis-server", "redis-server", "--port", p, "--cluster-port", b, "--bind",
               "127.0.0.1", "--cluster-enabled", "yes", "--cluster-config-file", conf,
               "--cluster-node-timeout", "2000", "--save", "", "--appendonly", "no", "--dir", dir,
               "--daemonize", "no", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Run a command on node i; 0 when it did not answer an error. */
static int rig_ok(rig_rcluster *rc, int i, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(rc->c[i], fmt, ap);
    va_end(ap);
    int ok = r && r->type != REDIS_REPLY_ERROR;
    if (r)
        freeReplyObject(r);
    return ok ? 0 : -1;
}

/* Every node says cluster_state:ok and knows every other. */
static int rig_ready(rig_rcluster *rc)
{
    for (int i = 0; i < rc->n; i++) {
        redisReply *r = redisCommand(rc->c[i], "CLUSTER INFO");
        char want[48];
        snprintf(want, sizeof want, "cluster_known_nodes:%d", rc->n);
        int ok = r && r->type == REDIS_REPLY_STRING && strstr(r->str, "cluster_state:ok") &&
                 strstr(r->str, want);
        if (r)
            freeReplyObject(r);
        if (!ok)
            return 0;
    }
    return 1;
}

int rig_rcluster_start(rig_rcluster *rc, int n, const int *from, const int *to)
{
    memset(rc, 0, sizeof *rc);
    rc->n = n;
    snprintf(rc->dir, sizeof rc->dir, "/tmp/deckhand-rig-rcluster.%d", (int)getpid());
    mkdir(rc->dir, 0700);
    for (int i = 0; i < n; i++) {
        rc->port[i] = RIG_RCLUSTER_PORT + i;
        int bus = rc->port[i] + 1000;
        rc->pid[i] = rig_node_spawn(rc->dir, rc->port[i], bus);
        for (int t = 0; t < 200 && !rc->c[i]; t++) {
            usleep(50000);
            redisContext *c = redisConnect("127.0.0.1", rc->port[i]);
            if (c && !c->err)
                rc->c[i] = c;
            else if (c)
                redisFree(c);
        }
        if (!rc->c[i]) {
            fprintf(stderr, "rig_rcluster: node %d on %d did not start\n", i, rc->port[i]);
            return -1;
        }
        redisReply *r = redisCommand(rc->c[i], "CLUSTER MYID");
        if (!r || r->type != REDIS_REPLY_STRING)
            return -1;
        snprintf(rc->id[i], sizeof rc->id[i], "%s", r->str);
        freeReplyObject(r);
        if (to[i] >= from[i] && rig_ok(rc, i, "CLUSTER ADDSLOTSRANGE %d %d", from[i], to[i]) < 0)
            return -1;
    }
    for (int i = 1; i < n; i++)
        if (rig_ok(rc, i, "CLUSTER MEET 127.0.0.1 %d %d", rc->port[0], rc->port[0] + 1000) < 0)
            return -1;
    for (int t = 0; t < 200; t++) {
        if (rig_ready(rc))
            return 0;
        usleep(50000);
    }
    fprintf(stderr, "rig_rcluster: the cluster did not become ready\n");
    return -1;
}

int rig_rcluster_move_slot(rig_rcluster *rc, int slot, int a, int b, int finish)
{
    if (rig_ok(rc, b, "CLUSTER SETSLOT %d IMPORTING %s", slot, rc->id[a]) < 0 ||
        rig_ok(rc, a, "CLUSTER SETSLOT %d MIGRATING %s", slot, rc->id[b]) < 0)
        return -1;
    redisReply *keys = redisCommand(rc->c[a], "CLUSTER GETKEYSINSLOT %d 100", slot);
    for (size_t k = 0; keys && k < keys->elements; k++)
        if (rig_ok(rc, a, "MIGRATE 127.0.0.1 %d %s 0 1000", rc->port[b], keys->element[k]->str) <
            0) {
            freeReplyObject(keys);
            return -1;
        }
    if (keys)
        freeReplyObject(keys);
    for (int i = 0; finish && i < rc->n; i++)
        if (rig_ok(rc, i, "CLUSTER SETSLOT %d NODE %s", slot, rc->id[b]) < 0)
            return -1;
    return 0;
}

void rig_rcluster_stop(rig_rcluster *rc)
{
    for (int i = 0; i < rc->n; i++) {
        if (rc->c[i])
            redisFree(rc->c[i]);
        rc->c[i] = NULL;
        if (rc->pid[i] > 0) {
            kill(rc->pid[i], SIGKILL);
            waitpid(rc->pid[i], NULL, 0);
        }
        rc->pid[i] = 0;
        char conf[128];
        snprintf(conf, sizeof conf, "%s/nodes-%d.conf", rc->dir, rc->port[i]);
        unlink(conf);
    }
    rmdir(rc->dir);
}
