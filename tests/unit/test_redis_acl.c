/*
 * test_redis_acl.c: each process role logs in to Redis as its own user (common/dh_acl.h,
 * common/dh_redis.h) and can run only what its role needs: the gateway user cannot
 * FLUSHALL, write a match snapshot or touch the queue; a worker cannot touch the
 * matchmaker's queue or lease; a wrong password gets no connection at all. The users are
 * the rules `deckhand keygen` writes for the local cluster, set up here on the test's own
 * redis-server with ACL SETUSER.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dh_acl.h"
#include "dh_keys.h"
#include "dh_redis.h"
#include "rig_redis.h"

/* Create every role's user with password "pw-ROLE" (the default user stays open, as the
 * rig's own connections use it). */
static void acl_users(void)
{
    for (size_t i = 0; i < dh_acl_nroles; i++) {
        if (strcmp(dh_acl_roles[i].user, "default") == 0)
            continue;
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "ACL SETUSER %s reset on >pw-%s %s", dh_acl_roles[i].user,
                 dh_acl_roles[i].user, dh_acl_roles[i].rules);
        /* the rules are words without spaces inside: split them as the ACL file does */
        const char *argv[128];
        size_t argc = 0;
        for (char *tok = strtok(cmd, " "); tok && argc < 128; tok = strtok(NULL, " "))
            argv[argc++] = tok;
        redisContext *c = redisConnect("127.0.0.1", rig_redis_port());
        CU_ASSERT_FATAL(c && !c->err);
        redisReply *r = redisCommandArgv(c, (int)argc, argv, NULL);
        CU_ASSERT_FATAL(r != NULL);
        if (r->type == REDIS_REPLY_ERROR)
            fprintf(stderr, "ACL SETUSER %s: %s\n", dh_acl_roles[i].user, r->str);
        CU_ASSERT_EQUAL_FATAL(r->type, REDIS_REPLY_STATUS);
        freeReplyObject(r);
        redisFree(c);
    }
}

/* A dh_redis connection as user with password. */
static redisContext *login(dh_redis *r, const char *user, const char *password)
{
    char url[256];
    snprintf(url, sizeof url, "redis://%s:%s@127.0.0.1:%d", user, password, rig_redis_port());
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(r, url, 1000), 0);
    return dh_redis_get(r, 0);
}

/* True when Redis refuses the command for lack of permission (NOPERM). */
static bool refused(redisContext *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(c, fmt, ap);
    va_end(ap);
    bool no = r && r->type == REDIS_REPLY_ERROR && strncmp(r->str, "NOPERM", 6) == 0;
    if (r)
        freeReplyObject(r);
    return no;
}

/* True when Redis runs the command (any reply but an error). */
static bool runs(redisContext *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(c, fmt, ap);
    va_end(ap);
    bool ok = r && r->type != REDIS_REPLY_ERROR;
    if (r && !ok)
        fprintf(stderr, "%s: %s\n", fmt, r->str);
    if (r)
        freeReplyObject(r);
    return ok;
}

static void test_gateway_user_reads_only_routes(void)
{
    acl_users();
    rig_redis_ok("HSET match:{m1} worker wk-1");
    rig_redis_ok("SET worker:{wk-1} tcp://127.0.0.1:1");
    dh_redis r;
    redisContext *c = login(&r, "gateway", "pw-gateway");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(runs(c, "HGET match:{m1} worker"));
    CU_ASSERT_TRUE(runs(c, "GET worker:{wk-1}"));
    CU_ASSERT_TRUE(runs(c, "HMGET match:{m1} worker status"));     /* a replay's match */
    CU_ASSERT_TRUE(runs(c, "LRANGE matches:finished 0 15"));       /* ... and other workers */
    CU_ASSERT_TRUE(refused(c, "LPUSH matches:finished m-forged")); /* read-only */
    CU_ASSERT_TRUE(refused(c, "FLUSHALL"));
    CU_ASSERT_TRUE(refused(c, "SET match:{m1}:snap forged"));
    CU_ASSERT_TRUE(refused(c, "HSET match:{m1} worker wk-rogue"));
    CU_ASSERT_TRUE(refused(c, "GET match:{m1}:snap"));
    CU_ASSERT_TRUE(refused(c, "HGETALL mm:{mm}:tickets"));
    CU_ASSERT_TRUE(refused(c, "KEYS *"));
    CU_ASSERT_TRUE(refused(c, "CONFIG SET dir /tmp"));
    dh_redis_close(&r);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{m1}:snap"), 0);
}

static void test_worker_user_cannot_touch_the_queue(void)
{
    acl_users();
    dh_redis r;
    redisContext *c = login(&r, "worker", "pw-worker");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(runs(c, "SET match:{m2}:snap s"));
    CU_ASSERT_TRUE(runs(c, "RPUSH match:{m2}:log a"));
    CU_ASSERT_TRUE(runs(c, "HSET matches:running m2 wk-1"));
    CU_ASSERT_TRUE(runs(c, "SET worker:{wk-1} tcp://127.0.0.1:1 PX 1000"));
    CU_ASSERT_TRUE(runs(c, "HGETALL bundle:{abc}"));
    CU_ASSERT_TRUE(refused(c, "HSET mm:{mm}:tickets p-1 forged"));
    CU_ASSERT_TRUE(refused(c, "SET mm:{mm}:lease rogue"));
    CU_ASSERT_TRUE(refused(c, "FLUSHALL"));
    CU_ASSERT_TRUE(refused(c, "SHUTDOWN"));
    dh_redis_close(&r);
}

static void test_matchmaker_user_cannot_write_match_state(void)
{
    acl_users();
    dh_redis r;
    redisContext *c = login(&r, "matchmaker", "pw-matchmaker");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(runs(c, "SET mm:{mm}:lease mm-1 NX PX 1000"));
    CU_ASSERT_TRUE(runs(c, "HGETALL mm:{mm}:tickets"));
    CU_ASSERT_TRUE(runs(c, "HGET match:{m3} worker"));
    CU_ASSERT_TRUE(refused(c, "SET match:{m3}:snap forged"));
    CU_ASSERT_TRUE(refused(c, "RPUSH match:{m3}:history forged"));
    CU_ASSERT_TRUE(refused(c, "FLUSHDB"));
    dh_redis_close(&r);
}

/* The admin API's trail: the matchmaker appends to audit:{admin} and reads it, and can
 * neither delete nor trim it; it scans matches:running and reads a match's history
 * length, without writing the history. */
static void test_matchmaker_user_keeps_the_audit_trail_append_only(void)
{
    acl_users();
    dh_redis r;
    redisContext *c = login(&r, "matchmaker", "pw-matchmaker");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(runs(c, "XADD audit:{admin} * who ops action end"));
    CU_ASSERT_TRUE(runs(c, "XREVRANGE audit:{admin} + - COUNT 10"));
    CU_ASSERT_TRUE(refused(c, "DEL audit:{admin}"));
    CU_ASSERT_TRUE(refused(c, "XTRIM audit:{admin} MAXLEN 0"));
    CU_ASSERT_TRUE(refused(c, "XDEL audit:{admin} 0-1"));
    CU_ASSERT_TRUE(refused(c, "XADD audit:{other} * who ops"));
    CU_ASSERT_TRUE(runs(c, "HSCAN matches:running 0 COUNT 10"));
    CU_ASSERT_TRUE(runs(c, "LLEN match:{m3}:history"));
    CU_ASSERT_TRUE(refused(c, "LPUSH match:{m3}:history forged"));
    dh_redis_close(&r);
}

/* Accounts and ratings: the gateway writes account keys only through its scripts' commands
 * and reads boards; only a worker writes ratings; the matchmaker only reads them. */
static void test_rating_and_account_keys_by_role(void)
{
    acl_users();
    dh_redis r;
    redisContext *c = login(&r, "gateway", "pw-gateway");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(
        runs(c, "EVAL %s 2 account:{zed} accounts:names a-9 Zed hash 1", dh_script_account_create));
    CU_ASSERT_TRUE(
        runs(c, "EVAL %s 2 account:{zed} account:fails:{zed} 60000", dh_script_login_attempt));
    CU_ASSERT_TRUE(runs(c, "DEL account:fails:{zed}"));
    CU_ASSERT_TRUE(runs(c, "ZREVRANGE leaderboard:{dominion}:casual 0 9 WITHSCORES"));
    CU_ASSERT_TRUE(runs(c, "HMGET rating:{dominion}:casual a-9"));
    CU_ASSERT_TRUE(runs(c, "LRANGE history:{a-9} 0 9"));
    CU_ASSERT_TRUE(refused(c, "HSET rating:{dominion}:casual a-9 99 1 1"));
    CU_ASSERT_TRUE(refused(c, "ZADD leaderboard:{dominion}:casual 99 a-9"));
    CU_ASSERT_TRUE(refused(c, "DEL match:{m1}"));
    dh_redis_close(&r);

    c = login(&r, "worker", "pw-worker");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(runs(c, "HSET rating:{dominion}:casual a-9 %s", "30 5 1"));
    CU_ASSERT_TRUE(runs(c, "ZADD leaderboard:{dominion}:casual 15 a-9"));
    CU_ASSERT_TRUE(runs(c, "LPUSH history:{a-9} entry"));
    CU_ASSERT_TRUE(runs(c, "LTRIM history:{a-9} 0 49"));
    CU_ASSERT_TRUE(runs(c, "HRANDFIELD matches:unrated 8 WITHVALUES"));
    CU_ASSERT_TRUE(refused(c, "HGET account:{zed} pwhash"));
    dh_redis_close(&r);

    c = login(&r, "matchmaker", "pw-matchmaker");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(runs(c, "HMGET rating:{dominion}:casual a-9"));
    CU_ASSERT_TRUE(refused(c, "HSET rating:{dominion}:casual a-9 99 1 1"));
    CU_ASSERT_TRUE(refused(c, "HGET account:{zed} pwhash"));
    dh_redis_close(&r);
}

static void test_wrong_password_gets_no_connection(void)
{
    acl_users();
    dh_redis r;
    CU_ASSERT_PTR_NULL(login(&r, "worker", "pw-gateway"));
    dh_redis_close(&r);
    CU_ASSERT_PTR_NULL(login(&r, "nobody", "pw-worker"));
    dh_redis_close(&r);
}

/* Without credentials in the URL, the user and password come from the environment
 * (the password from a file, as a mounted secret gives it). */
static void test_credentials_from_environment(void)
{
    acl_users();
    char path[] = "/tmp/dh-test-acl-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_FATAL(write(fd, "pw-gateway\n", 11) == 11);
    close(fd);
    setenv("DECKHAND_REDIS_USER", "gateway", 1);
    setenv("DECKHAND_REDIS_PASSWORD_FILE", path, 1);
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", rig_redis_port());
    dh_redis r;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&r, url, 1000), 0);
    CU_ASSERT_STRING_EQUAL(r.addr.user, "gateway");
    CU_ASSERT_STRING_EQUAL(r.addr.password, "pw-gateway");
    redisContext *c = dh_redis_get(&r, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_TRUE(refused(c, "FLUSHALL"));
    dh_redis_close(&r);
    unsetenv("DECKHAND_REDIS_USER");
    unsetenv("DECKHAND_REDIS_PASSWORD_FILE");
    unlink(path);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_user_reads_only_routes", test_gateway_user_reads_only_routes},
        {"worker_user_cannot_touch_the_queue", test_worker_user_cannot_touch_the_queue},
        {"matchmaker_user_cannot_write_match_state", test_matchmaker_user_cannot_write_match_state},
        {"matchmaker_user_keeps_the_audit_trail_append_only",
         test_matchmaker_user_keeps_the_audit_trail_append_only},
        {"rating_and_account_keys_by_role", test_rating_and_account_keys_by_role},
        {"wrong_password_gets_no_connection", test_wrong_password_gets_no_connection},
        {"credentials_from_environment", test_credentials_from_environment},
        {NULL, NULL},
    };
    return rig_redis_main("redis_acl", cases);
}
