/*
 * rig_cluster.c: see rig_cluster.h.
 */
#include "rig_cluster.h"

#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_client_env.h"
#include "dh_redis.h"
#include "dh_test.h"
#include "rig_player.h"

static char rc_run[256];

/* cluster.sh VERB on the run directory (start: with the ports and this process as owner). */
static int rc_cluster(const char *verb, int base)
{
    char cmd[2048], args[64] = "";
    const char *bin = getenv("DECKHAND_BIN_DIR"); /* another build's processes, by hand */
    if (!bin || !bin[0])
        bin = DECKHAND_BIN_DIR;
    if (base > 0)
        snprintf(args, sizeof args, "%d 2 %ld", base, (long)getpid());
    snprintf(cmd, sizeof cmd, "DECKHAND_BIN_DIR='%s' DH_READY_TIMEOUT=30 bash '%s' %s '%s' %s", bin,
             dh_test_path("scripts/lib/cluster.sh"), verb, rc_run, args);
    return system(cmd) == 0 ? 0 : -1;
}

const char *rc_dir(void)
{
    return rc_run;
}

int rc_env(const char *key, char *out, size_t n)
{
    char env[512];
    snprintf(env, sizeof env, "%s/cluster.env", rc_run);
    return dh_client_env_file(env, key, out, n);
}

int rc_start(const char *name, int base)
{
    snprintf(rc_run, sizeof rc_run, "/tmp/deckhand-e2e-%s.XXXXXX", name);
    if (!mkdtemp(rc_run)) {
        perror("mkdtemp");
        return -1;
    }
    if (rc_cluster("start", base) != 0) {
        fprintf(stderr, "%s: the cluster did not start (run dir %s)\n", name, rc_run);
        return -1;
    }
    if (rc_env("DECKHAND_GATEWAY_TCP", pl_gateway, sizeof pl_gateway) != 0 ||
        rc_env("DECKHAND_GATEWAY_WS", pl_gateway_ws, sizeof pl_gateway_ws) != 0) {
        fprintf(stderr, "%s: no gateway addresses in %s/cluster.env\n", name, rc_run);
        rc_cluster("stop", 0);
        return -1;
    }
    return 0;
}

int rc_log_count(const char *pattern, const char *a, const char *b)
{
    char path[512], line[4096];
    glob_t g;
    int n = 0;
    snprintf(path, sizeof path, "%s/logs/%s", rc_run, pattern);
    if (glob(path, 0, NULL, &g) != 0)
        return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "r");
        if (!f)
            continue;
        while (fgets(line, sizeof line, f)) {
            bool has_a = a[0] == '^' ? !strncmp(line, a + 1, strlen(a + 1)) : !!strstr(line, a);
            n += has_a && (!b || strstr(line, b));
        }
        fclose(f);
    }
    globfree(&g);
    return n;
}

int rc_finish(int rc)
{
    if (rc_cluster("alive", 0) != 0)
        rc = 1;
    rc_cluster("stop", 0);
    if (rc_cluster("check", 0) != 0)
        rc = 1;
    if (rc == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", rc_run);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", rc_run);
    } else {
        fprintf(stderr, "logs kept in %s/logs\n", rc_run);
    }
    return rc;
}

redisReply *rc_redis(int argc, const char **argv)
{
    char url[512];
    dh_redis rd;
    if (rc_env("DECKHAND_REDIS_URL", url, sizeof url) < 0 || dh_redis_init(&rd, url, 2000) < 0)
        return NULL;
    redisReply *r = dh_redis_command(&rd, 0, argc, argv, NULL);
    dh_redis_close(&rd);
    return r;
}

long long rc_history_len(const char *id)
{
    char key[160];
    snprintf(key, sizeof key, "match:{%s}:history", id);
    const char *argv[] = {"LLEN", key};
    redisReply *r = rc_redis(2, argv);
    long long n = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return n;
}
