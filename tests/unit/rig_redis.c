/*
 * rig_redis.c: one redis-server per test program (see rig_redis.h).
 */
#include "rig_redis.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The program's server, like its main(): one per process. */
static struct {
    pid_t pid;
    int port;
    char url[64];
} rig_redis = {.pid = -1, .port = -1};

int rig_redis_main(const char *suite, const dh_test_case *cases)
{
    signal(SIGPIPE, SIG_IGN);
    int started = dh_test_redis_start_free(&rig_redis.port, &rig_redis.pid);
    snprintf(rig_redis.url, sizeof rig_redis.url, "redis://127.0.0.1:%d", rig_redis.port);
    if (started < 0) {
        fprintf(stderr, "test_%s: cannot start redis-server on port %d\n", suite, rig_redis.port);
        dh_test_redis_stop(&rig_redis.pid);
        return 1;
    }
    int rc = dh_test_main(suite, cases);
    dh_test_redis_stop(&rig_redis.pid);
    return rc;
}

const char *rig_redis_url(void)
{
    return rig_redis.url;
}

int rig_redis_port(void)
{
    return rig_redis.port;
}

void rig_redis_stop(void)
{
    dh_test_redis_stop(&rig_redis.pid);
}

void rig_redis_start(void)
{
    CU_ASSERT_EQUAL_FATAL(dh_test_redis_start(rig_redis.port, &rig_redis.pid), 0);
}

static redisContext *rig_redis_connect(void)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", rig_redis.port, tv);
    if (c && c->err) {
        redisFree(c);
        return NULL;
    }
    return c;
}

static redisReply *rig_redis_vcmd(const char *fmt, va_list ap)
{
    redisContext *c = rig_redis_connect();
    if (!c)
        return NULL;
    redisReply *r = redisvCommand(c, fmt, ap);
    redisFree(c);
    return r;
}

redisReply *rig_redis_cmd(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = rig_redis_vcmd(fmt, ap);
    va_end(ap);
    return r;
}

long long rig_redis_int(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = rig_redis_vcmd(fmt, ap);
    va_end(ap);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return v;
}

void rig_redis_ok(const char *fmt, ...)
{
    redisContext *c = rig_redis_connect();
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(c, fmt, ap);
    va_end(ap);
    redisFree(c);
    CU_ASSERT_FATAL(r && r->type != REDIS_REPLY_ERROR);
    freeReplyObject(r);
}

void rig_redis_flushall(void)
{
    redisReply *r = rig_redis_cmd("FLUSHALL");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    freeReplyObject(r);
}

long long rig_redis_calls(const char *name)
{
    redisReply *r = rig_redis_cmd("INFO commandstats");
    CU_ASSERT_FATAL(r && r->type == REDIS_REPLY_STRING);
    char want[64];
    snprintf(want, sizeof want, "cmdstat_%s:calls=", name);
    const char *at = strstr(r->str, want);
    long long n = at ? strtoll(at + strlen(want), NULL, 10) : 0;
    freeReplyObject(r);
    return n;
}
