/*
 * test_keys.c: the Redis contract of common/dh_keys.h. The key builders spell exactly the
 * layout docs/redis.md tables (with hash tags that keep a match's keys in one
 * slot), and every server-side script compiles on a real redis-server and does what its
 * comment says: the fence refuses a stale owner with FENCED, the leader's queue script
 * refuses a matchmaker that does not hold the lease with NOTLEADER. The ACL users'
 * key patterns (dh_acl.h) are the key builders' shapes.
 */
#include "dh_keys.h"

#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_acl.h"
#include "dh_test.h"

static int port = -1;
static pid_t redis_pid = -1;
static redisContext *rc;

/* The layout of dh_keys.h's comment, one row per key builder. */
static const struct {
    char *(*build)(char *buf, const char *id);
    const char *id, *key;
} key_layout[] = {
    {dh_key_match, "m-1", "match:{m-1}"},
    {dh_key_match_snap, "m-1", "match:{m-1}:snap"},
    {dh_key_match_log, "m-1", "match:{m-1}:log"},
    {dh_key_match_history, "m-1", "match:{m-1}:history"},
    {dh_key_match_bundles, "m-1", "match:{m-1}:bundles"},
    {dh_key_worker, "wk-1", "worker:{wk-1}"},
    {dh_key_worker_adopt, "wk-1", "worker:{wk-1}:adopt"},
    {dh_key_worker_moves, "wk-1", "worker:{wk-1}:moves"},
    {dh_key_worker_bundles, "wk-1", "worker:{wk-1}:bundles"},
    {dh_key_bundle, "abc", "bundle:{abc}"},
    {dh_key_bundle_errors, "abc", "bundle:{abc}:errors"},
    {dh_key_bundle_current, "dominion", "bundle:current:{dominion}"},
    {dh_key_bundle_history, "dominion", "bundle:history:{dominion}"},
    {dh_key_account, "alice", "account:{alice}"},
    {dh_key_account_fails, "alice", "account:fails:{alice}"},
    {dh_key_device, "0a1b", "device:{0a1b}"},
    {dh_key_history, "a-01", "history:{a-01}"},
};

static void test_keys_spell_the_documented_layout(void)
{
    char b[DH_KEY_MAX];
    for (size_t i = 0; i < sizeof key_layout / sizeof key_layout[0]; i++)
        CU_ASSERT_STRING_EQUAL(key_layout[i].build(b, key_layout[i].id), key_layout[i].key);
    CU_ASSERT_STRING_EQUAL(DH_KEY_MATCHES_RUNNING, "matches:running");
    CU_ASSERT_STRING_EQUAL(DH_KEY_MM_LEASE, "mm:{mm}:lease");
    CU_ASSERT_STRING_EQUAL(dh_key_rated(b, "dominion", "m-1"), "rated:{dominion}:m-1");
    CU_ASSERT_STRING_EQUAL(dh_key_rating(b, "dominion", "casual"), "rating:{dominion}:casual");
    CU_ASSERT_STRING_EQUAL(dh_key_leaderboard(b, "dominion", "casual"),
                           "leaderboard:{dominion}:casual");
    CU_ASSERT_STRING_EQUAL(DH_KEY_MATCHES_UNRATED, "matches:unrated");
    CU_ASSERT_STRING_EQUAL(DH_KEY_ACCOUNT_NAMES, "accounts:names");
}

static void test_keys_builders_truncate_instead_of_overflowing(void)
{
    char id[DH_KEY_MAX * 2];
    memset(id, 'x', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    char b[DH_KEY_MAX + 8];
    memset(b, '#', sizeof b);
    dh_key_match_history(b, id);
    CU_ASSERT_EQUAL(strlen(b), DH_KEY_MAX - 1);
    CU_ASSERT_EQUAL(b[DH_KEY_MAX], '#');
}

static redisReply *eval(const char *script, int nkeys, const char **keys, int nargs,
                        const char **args)
{
    const char *argv[64];
    char n[8];
    snprintf(n, sizeof n, "%d", nkeys);
    int argc = 0;
    argv[argc++] = "EVAL";
    argv[argc++] = script;
    argv[argc++] = n;
    for (int i = 0; i < nkeys; i++)
        argv[argc++] = keys[i];
    for (int i = 0; i < nargs; i++)
        argv[argc++] = args[i];
    return redisCommandArgv(rc, argc, argv, NULL);
}

static int redis_up(void)
{
    if (rc)
        return 1;
    if (dh_test_redis_start_free(&port, &redis_pid) < 0)
        return 0;
    rc = redisConnect("127.0.0.1", port);
    return rc && !rc->err;
}

static void run(const char *cmd)
{
    redisReply *r = redisCommand(rc, cmd);
    CU_ASSERT_PTR_NOT_NULL(r);
    if (r)
        freeReplyObject(r);
}

static void test_keys_every_script_compiles_on_redis(void)
{
    CU_ASSERT_FATAL(redis_up());
    const char *scripts[] = {
        dh_script_commit_batch,  dh_script_move_bundle,    dh_script_takeover,
        dh_script_lease_renew,   dh_script_lease_release,  dh_script_mm_state,
        dh_script_match_fields,  dh_script_rate,           dh_script_history_push,
        dh_script_finished_push, dh_script_account_create, dh_script_device_login,
        dh_script_login_attempt, dh_script_retire,         dh_script_undo};
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
        const char *argv[] = {"SCRIPT", "LOAD", scripts[i]};
        redisReply *r = redisCommandArgv(rc, 3, argv, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(r->type, REDIS_REPLY_STRING);
        freeReplyObject(r);
    }
}

static void test_keys_fence_refuses_a_stale_owner_and_writes_nothing(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{f1} worker wk-2 epoch 2 status running");
    const char *keys[] = {"match:{f1}", "match:{f1}:bundles"};
    const char *stale[] = {"wk-1", "1", "sha-new", "note"};
    redisReply *r = eval(dh_script_move_bundle, 2, keys, 4, stale);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->str, DH_REPLY_FENCED));
    freeReplyObject(r);
    r = redisCommand(rc, "EXISTS match:{f1}:bundles");
    CU_ASSERT_EQUAL(r->integer, 0);
    freeReplyObject(r);

    const char *owner[] = {"wk-2", "2", "sha-new", "note"};
    r = eval(dh_script_move_bundle, 2, keys, 4, owner);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_INTEGER);
    freeReplyObject(r);
    r = redisCommand(rc, "HGET match:{f1} " DH_F_BUNDLE);
    CU_ASSERT_STRING_EQUAL(r->str, "sha-new");
    freeReplyObject(r);
}

/* The worker's notes on a running match (away seats, failures in a row) are fenced like
 * its state: a stale owner writes none of them. */
static void test_keys_match_fields_are_fenced(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{n1} worker wk-2 epoch 2 status running");
    const char *keys[] = {"match:{n1}"};
    const char *stale[] = {"wk-1", "1", DH_F_AWAY, "5,0", DH_F_SCRIPT_FAILURES, "1"};
    redisReply *r = eval(dh_script_match_fields, 1, keys, 6, stale);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_ERROR);
    freeReplyObject(r);
    r = redisCommand(rc, "HEXISTS match:{n1} " DH_F_AWAY);
    CU_ASSERT_EQUAL(r->integer, 0);
    freeReplyObject(r);
    const char *owner[] = {"wk-2", "2", DH_F_AWAY, "5,0", DH_F_SCRIPT_FAILURES, "1"};
    r = eval(dh_script_match_fields, 1, keys, 6, owner);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_INTEGER);
    freeReplyObject(r);
    r = redisCommand(rc, "HMGET match:{n1} " DH_F_AWAY " " DH_F_SCRIPT_FAILURES);
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "5,0");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "1");
    freeReplyObject(r);
}

/* One commit of wk-1 to match:{id} as a batch of one (as the worker sends a commit alone):
 * args are its N and N arguments (dh_script_commit_batch's format). Its reply's integer,
 * -1 when it failed. */
static long long commit_one(const char *id, int nargs, const char **args)
{
    char k[4][64];
    snprintf(k[0], sizeof k[0], "match:{%s}", id);
    snprintf(k[1], sizeof k[1], "match:{%s}:snap", id);
    snprintf(k[2], sizeof k[2], "match:{%s}:log", id);
    snprintf(k[3], sizeof k[3], "match:{%s}:history", id);
    const char *keys[] = {k[0], k[1], k[2], k[3]}, *argv[16] = {"wk-1"};
    for (int i = 0; i < nargs && i < 15; i++)
        argv[i + 1] = args[i];
    redisReply *r = eval(dh_script_commit_batch, 4, keys, nargs + 1, argv);
    long long out = r && r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
                            r->element[0]->type == REDIS_REPLY_INTEGER
                        ? r->element[0]->integer
                        : -1;
    freeReplyObject(r);
    return out;
}

/* A commit that finishes a match records why when it is not the rules' end. */
static void test_keys_commit_records_an_end_reason(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{q1} worker wk-1 epoch 1 status running");
    const char *args[] = {"7", "1", "8", "7", "[]", "00", DH_END_SCRIPT_ERROR, ""};
    CU_ASSERT_EQUAL(commit_one("q1", 8, args), 1);
    redisReply *r = redisCommand(rc, "HMGET match:{q1} " DH_F_STATUS " " DH_F_END_REASON);
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, DH_STATUS_FINISHED);
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, DH_END_SCRIPT_ERROR);
    freeReplyObject(r);
}

/* A finish that carries a rating job keeps it in the match (for the indexes that follow
 * it) and answers 2, unless the match was rated already. */
static void test_keys_commit_keeps_a_rating_job_once(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{r1} worker wk-1 epoch 1 status running");
    const char *args[] = {"7", "1", "8", "7", "[]", "00", "", "job"};
    CU_ASSERT_EQUAL(commit_one("r1", 8, args), 2);
    redisReply *r = redisCommand(rc, "HGET match:{r1} " DH_F_RATING_JOB);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    CU_ASSERT_STRING_EQUAL(r->str, "job");
    freeReplyObject(r);
    run("HDEL match:{r1} " DH_F_RATING_JOB);
    run("HSET match:{r1} " DH_F_RATED " 1");
    CU_ASSERT_EQUAL(commit_one("r1", 8, args), 1); /* a retried finish after the rating */
    r = redisCommand(rc, "HEXISTS match:{r1} " DH_F_RATING_JOB);
    CU_ASSERT_EQUAL(r->integer, 0);
    freeReplyObject(r);
}

/* A commit retried after its reply was lost (it ran: a failover's new master has it),
 * flagged by the worker as one that may repeat (kind 4), writes nothing again; the next
 * answer lands. (Kind 'B': an answer with its log entries, 2 + 16; 'F': and 4.) */
static void test_keys_commit_retried_after_a_lost_reply_lands_once(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{d1} worker wk-1 epoch 1 status running");
    const char *a1[] = {"5", "1", "B", "1", "log-a1", "a1"};
    const char *a1_again[] = {"5", "1", "F", "1", "log-a1", "a1"};
    const char *a2[] = {"5", "1", "F", "1", "log-a2", "a2"};
    CU_ASSERT_EQUAL(commit_one("d1", 6, a1), 1);
    CU_ASSERT_EQUAL(commit_one("d1", 6, a1_again), 1);
    CU_ASSERT_EQUAL(commit_one("d1", 6, a2), 1);
    redisReply *r = redisCommand(rc, "LRANGE match:{d1}:history 0 -1");
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "a1");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "a2");
    freeReplyObject(r);
    r = redisCommand(rc, "LRANGE match:{d1}:log 0 -1");
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "log-a1");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "log-a2");
    freeReplyObject(r);
}

/* A first try (kind without 4) cannot have run before: the commit does not read the
 * history for a repeat (one redis.call fewer per answer), so even an equal entry is
 * written. */
static void test_keys_commit_first_try_does_not_read_the_history(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{f1} worker wk-1 epoch 1 status running");
    run("CONFIG RESETSTAT");
    const char *a1[] = {"5", "1", "B", "1", "a1", "a1"};
    for (int i = 0; i < 2; i++)
        CU_ASSERT_EQUAL(commit_one("f1", 6, a1), 1);
    redisReply *r = redisCommand(rc, "LLEN match:{f1}:history");
    CU_ASSERT_EQUAL(r->integer, 2);
    freeReplyObject(r);
    r = redisCommand(rc, "INFO commandstats");
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    CU_ASSERT_PTR_NULL(strstr(r->str, "cmdstat_lindex"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r->str, "cmdstat_rpush"));
    freeReplyObject(r);
}

/* A commit alone (a batch of one) of a worker that lost its match is refused with the
 * fence's error and writes nothing. */
static void test_keys_commit_alone_of_a_stale_owner_is_fenced(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{g1} worker wk-1 epoch 2 status running");
    const char *keys[] = {"match:{g1}", "match:{g1}:snap", "match:{g1}:log", "match:{g1}:history"};
    const char *stale[] = {"wk-1", "3", "1", "2", "a1"};
    redisReply *r = eval(dh_script_commit_batch, 4, keys, 5, stale);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 1);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_ERROR &&
                   strstr(r->element[0]->str, DH_REPLY_FENCED));
    freeReplyObject(r);
    r = redisCommand(rc, "EXISTS match:{g1}:history match:{g1}:log");
    CU_ASSERT_EQUAL(r->integer, 0);
    freeReplyObject(r);
    const char *owner[] = {"3", "2", "2", "a1"};
    CU_ASSERT_EQUAL(commit_one("g1", 4, owner), 1);
}

/* In one batch call each commit reads its own keys and arguments only: a finish without
 * an end reason nor a rating job, followed by another match's commit, does not take the
 * next commit's arguments for them; a commit of a match another worker owns is fenced
 * alone. */
static void test_keys_commit_batch_commits_read_only_their_own_arguments(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{b1} worker wk-1 epoch 1 status running");
    run("HSET match:{b2} worker wk-1 epoch 1 status running");
    run("HSET match:{b3} worker wk-2 epoch 1 status running");
    const char *keys[] = {"match:{b1}", "match:{b1}:snap", "match:{b1}:log", "match:{b1}:history",
                          "match:{b2}", "match:{b2}:snap", "match:{b2}:log", "match:{b2}:history",
                          "match:{b3}", "match:{b3}:snap", "match:{b3}:log", "match:{b3}:history"};
    const char *args[] = {"wk-1",
                          /* b1: an answer and the finish (kind 2 + 8), no reason nor job */
                          "8", "1", ":", "x1", "99", "[]", "00", "", "",
                          /* b2: an answer and the finish with both */
                          "8", "1", ":", "y1", "98", "[]", "01", "resigned", "job-b2",
                          /* b3 is owned by another worker: fenced */
                          "3", "1", "2", "z1"};
    redisReply *r = eval(dh_script_commit_batch, 12, keys, (int)(sizeof args / sizeof *args), args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1);
    CU_ASSERT_TRUE(r->element[1]->type == REDIS_REPLY_INTEGER && r->element[1]->integer == 2);
    CU_ASSERT_TRUE(r->element[2]->type == REDIS_REPLY_ERROR &&
                   strstr(r->element[2]->str, DH_REPLY_FENCED));
    freeReplyObject(r);
    r = redisCommand(rc, "HMGET match:{b1} status " DH_F_END_REASON " " DH_F_RATING_JOB);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "finished");
    CU_ASSERT_EQUAL(r->element[1]->type, REDIS_REPLY_NIL);
    CU_ASSERT_EQUAL(r->element[2]->type, REDIS_REPLY_NIL);
    freeReplyObject(r);
    r = redisCommand(rc, "HMGET match:{b2} " DH_F_END_REASON " " DH_F_RATING_JOB);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "resigned");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "job-b2");
    freeReplyObject(r);
    r = redisCommand(rc, "EXISTS match:{b3}:history match:{b3}:log");
    CU_ASSERT_EQUAL(r->integer, 0);
    freeReplyObject(r);
}

/* Redis's count of calls of one command so far (INFO commandstats), e.g. "rpush". */
static long long command_calls(const char *name)
{
    char field[64];
    snprintf(field, sizeof field, "cmdstat_%s:calls=", name);
    redisReply *r = redisCommand(rc, "INFO commandstats");
    const char *p = r && r->type == REDIS_REPLY_STRING ? strstr(r->str, field) : NULL;
    long long n = p ? atoll(p + strlen(field)) : 0;
    freeReplyObject(r);
    return n;
}

/* An answer without a snapshot is sent once (kind 2) and lands on both the log and the
 * history; one with explicit log entries (kind 2 + 16) logs those instead. */
static void test_keys_commit_batch_writes_an_answer_sent_once_to_the_log_and_the_history(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{o1} worker wk-1 epoch 3 status running");
    const char *keys[] = {"match:{o1}", "match:{o1}:snap", "match:{o1}:log", "match:{o1}:history",
                          "match:{o1}", "match:{o1}:snap", "match:{o1}:log", "match:{o1}:history"};
    const char *args[] = {"wk-1", "3", "3", "2", "a1", "6", "3", "B", "2", "l1", "l2", "a2"};
    redisReply *r = eval(dh_script_commit_batch, 8, keys, (int)(sizeof args / sizeof *args), args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1);
    CU_ASSERT_TRUE(r->element[1]->type == REDIS_REPLY_INTEGER && r->element[1]->integer == 1);
    freeReplyObject(r);
    r = redisCommand(rc, "LRANGE match:{o1}:log 0 -1");
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "a1");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "l1");
    CU_ASSERT_STRING_EQUAL(r->element[2]->str, "l2");
    freeReplyObject(r);
    r = redisCommand(rc, "LRANGE match:{o1}:history 0 -1");
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "a1");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "a2");
    freeReplyObject(r);
}

/* A snapshot (kind 1) replaces the log with its entries in one RPUSH, not one per entry;
 * its answer goes on the history only (the snapshot's log holds it already). */
static void test_keys_commit_batch_pushes_a_snapshots_log_in_one_call(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{s1} worker wk-1 epoch 1 status running");
    run("RPUSH match:{s1}:log old1 old2");
    const char *keys[] = {"match:{s1}", "match:{s1}:snap", "match:{s1}:log", "match:{s1}:history"};
    const char *args[] = {"wk-1", "8", "1", "3", "SNAP", "3", "e1", "e2", "e3", "e3"};
    long long before = command_calls("rpush");
    redisReply *r = eval(dh_script_commit_batch, 4, keys, (int)(sizeof args / sizeof *args), args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 1);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(command_calls("rpush") - before, 2); /* the log's, the history's */
    r = redisCommand(rc, "LRANGE match:{s1}:log 0 -1");
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "e1");
    CU_ASSERT_STRING_EQUAL(r->element[2]->str, "e3");
    freeReplyObject(r);
    r = redisCommand(rc, "GET match:{s1}:snap");
    CU_ASSERT_STRING_EQUAL(r->str, "SNAP");
    freeReplyObject(r);
    r = redisCommand(rc, "LLEN match:{s1}:history");
    CU_ASSERT_EQUAL(r->integer, 1);
    freeReplyObject(r);
}

/* A batched commit flagged as one that may repeat (kind 2 + 4) whose answer is the
 * history's last entry already writes nothing again; unflagged, it is not checked. */
static void test_keys_commit_batch_retried_answer_lands_once(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{r2} worker wk-1 epoch 1 status running");
    const char *keys[] = {"match:{r2}", "match:{r2}:snap", "match:{r2}:log", "match:{r2}:history",
                          "match:{r2}", "match:{r2}:snap", "match:{r2}:log", "match:{r2}:history"};
    const char *args[] = {"wk-1", "3", "1", "2", "a1", "3", "1", "6", "a1"};
    redisReply *r = eval(dh_script_commit_batch, 8, keys, (int)(sizeof args / sizeof *args), args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_TRUE(r->element[1]->type == REDIS_REPLY_INTEGER && r->element[1]->integer == 1);
    freeReplyObject(r);
    r = redisCommand(rc, "LLEN match:{r2}:history");
    CU_ASSERT_EQUAL(r->integer, 1);
    freeReplyObject(r);
    r = redisCommand(rc, "LLEN match:{r2}:log");
    CU_ASSERT_EQUAL(r->integer, 1);
    freeReplyObject(r);
}

/* The batch is fenced on its worker and each commit's epoch: a commit at an old epoch
 * fails alone and writes nothing. */
static void test_keys_commit_batch_fences_each_commit_on_its_epoch(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{e1} worker wk-1 epoch 2 status running");
    run("HSET match:{e2} worker wk-1 epoch 1 status running");
    const char *keys[] = {"match:{e1}", "match:{e1}:snap", "match:{e1}:log", "match:{e1}:history",
                          "match:{e2}", "match:{e2}:snap", "match:{e2}:log", "match:{e2}:history"};
    const char *args[] = {"wk-1", "3", "1", "2", "a1", "3", "1", "2", "b1"};
    redisReply *r = eval(dh_script_commit_batch, 8, keys, (int)(sizeof args / sizeof *args), args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_ERROR &&
                   strstr(r->element[0]->str, DH_REPLY_FENCED));
    CU_ASSERT_TRUE(r->element[1]->type == REDIS_REPLY_INTEGER && r->element[1]->integer == 1);
    freeReplyObject(r);
    r = redisCommand(rc, "EXISTS match:{e1}:history match:{e1}:log");
    CU_ASSERT_EQUAL(r->integer, 0);
    freeReplyObject(r);
}

static void test_keys_account_name_taken_once(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    const char *keys[] = {"account:{alice}"};
    const char *first[] = {"a-1", "Alice", "$argon2id$x", "5"};
    const char *second[] = {"a-2", "ALICE", "$argon2id$y", "6"};
    redisReply *r = eval(dh_script_account_create, 1, keys, 4, first);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_INTEGER);
    freeReplyObject(r);
    r = eval(dh_script_account_create, 1, keys, 4, second);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(r->str, DH_REPLY_TAKEN));
    freeReplyObject(r);
    r = redisCommand(rc, "HMGET account:{alice} " DH_F_ACCOUNT_ID " " DH_F_ACCOUNT_NAME);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "a-1");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "Alice");
    freeReplyObject(r);
}

static void test_keys_login_attempts_are_counted_per_name(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    const char *keys[] = {"account:{bob}", "account:fails:{bob}"};
    const char *args[] = {"60000"};
    for (long long want = 1; want <= 3; want++) {
        redisReply *r = eval(dh_script_login_attempt, 2, keys, 1, args);
        CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements >= 1);
        CU_ASSERT_EQUAL(r->element[0]->integer, want);
        freeReplyObject(r);
    }
    redisReply *r = redisCommand(rc, "PTTL account:fails:{bob}");
    CU_ASSERT(r->integer > 0 && r->integer <= 60000);
    freeReplyObject(r);
}

/* The move bumps the epoch once; a second move from the old owner learns where the match
 * is, and a finished match answers with its rating job (the sweep writes the indexes). */
static void test_keys_takeover_bumps_the_epoch_once_and_says_where_the_match_is(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("HSET match:{t1} worker wk-1 epoch 1 status running");
    const char *keys[] = {"match:{t1}"};
    const char *move[] = {"wk-1", "wk-2"};
    redisReply *r = eval(dh_script_takeover, 1, keys, 2, move);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_INTEGER);
    CU_ASSERT_EQUAL(r->integer, 2);
    freeReplyObject(r);
    r = eval(dh_script_takeover, 1, keys, 2, move);
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "owner");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "wk-2");
    freeReplyObject(r);
    run("HSET match:{t1} status finished " DH_F_RATING_JOB " job");
    r = eval(dh_script_takeover, 1, keys, 2, move);
    CU_ASSERT_TRUE_FATAL(r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CU_ASSERT_STRING_EQUAL(r->element[0]->str, "finished");
    CU_ASSERT_STRING_EQUAL(r->element[1]->str, "job");
    freeReplyObject(r);
    r = redisCommand(rc, "HGET match:{t1} epoch");
    CU_ASSERT_STRING_EQUAL(r->str, "2");
    freeReplyObject(r);
    const char *gone_keys[] = {"match:{nope}"};
    r = eval(dh_script_takeover, 1, gone_keys, 2, move);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_NIL);
    freeReplyObject(r);
}

static void test_keys_mm_state_writes_only_for_the_leader(void)
{
    CU_ASSERT_FATAL(redis_up());
    run("FLUSHALL");
    run("SET " DH_KEY_MM_LEASE " mm-a");
    const char *keys[] = {DH_KEY_MM_LEASE, DH_KEY_MM_TICKETS, DH_KEY_MM_PLACEMENTS};
    const char *other[] = {"mm-b", "t+", "p1", "x"};
    redisReply *r = eval(dh_script_mm_state, 3, keys, 4, other);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_ERROR);
    freeReplyObject(r);
    const char *ours[] = {"mm-a", "t+", "p1", "x", "p+", "m1", "y"};
    r = eval(dh_script_mm_state, 3, keys, 7, ours);
    CU_ASSERT_EQUAL(r->type, REDIS_REPLY_INTEGER);
    freeReplyObject(r);
    r = redisCommand(rc, "HGET " DH_KEY_MM_TICKETS " p1");
    CU_ASSERT_STRING_EQUAL(r->str, "x");
    freeReplyObject(r);
    r = redisCommand(rc, "HGET " DH_KEY_MM_PLACEMENTS " m1");
    CU_ASSERT_STRING_EQUAL(r->str, "y");
    freeReplyObject(r);
}

static void test_keys_cleanup(void)
{
    if (rc)
        redisFree(rc);
    rc = NULL;
    dh_test_redis_stop(&redis_pid);
}

static void test_keys_list_walks_items_in_place(void)
{
    const char *cur = "alice,,bob", *item;
    size_t len;
    CU_ASSERT_TRUE(dh_list_next(&cur, &item, &len));
    CU_ASSERT_EQUAL(len, 5);
    CU_ASSERT_EQUAL(strncmp(item, "alice", len), 0);
    CU_ASSERT_TRUE(dh_list_next(&cur, &item, &len));
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_TRUE(dh_list_next(&cur, &item, &len));
    CU_ASSERT_EQUAL(len, 3);
    CU_ASSERT_EQUAL(strncmp(item, "bob", len), 0);
    CU_ASSERT_FALSE(dh_list_next(&cur, &item, &len));
    CU_ASSERT_EQUAL(dh_list_count(NULL), 0);
    CU_ASSERT_EQUAL(dh_list_count(""), 0);
    CU_ASSERT_EQUAL(dh_list_count("a"), 1);
    CU_ASSERT_EQUAL(dh_list_count("a,b,c"), 3);
}

static void test_keys_list_find_matches_whole_items_only(void)
{
    CU_ASSERT_EQUAL(dh_list_find("p-1,p-12,p-2", "p-12"), 1);
    CU_ASSERT_EQUAL(dh_list_find("p-1,p-12,p-2", "p-2"), 2);
    CU_ASSERT_EQUAL(dh_list_find("p-12", "p-1"), -1);
    CU_ASSERT_EQUAL(dh_list_find("", "p-1"), -1);
}

/* Whether role's rules hold the pattern PREFIX KEY followed by a space or the end. */
static int acl_has(const char *role, const char *prefix, const char *key)
{
    char want[DH_KEY_MAX + 8];
    snprintf(want, sizeof want, " %s%s", prefix, key);
    const char *rules = dh_acl_rules(role), *at = rules;
    size_t n = strlen(want);
    while ((at = strstr(at, want)) != NULL) {
        if (at[n] == ' ' || at[n] == '\0')
            return 1;
        at += n;
    }
    return 0;
}

static void test_keys_acl_patterns_are_the_builders_keys(void)
{
    char k[DH_KEY_MAX];
    CU_ASSERT_TRUE(acl_has("gateway", "%R~", dh_key_match(k, "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "%R~", dh_key_worker(k, "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "~", dh_key_account(k, "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "~", dh_key_account_fails(k, "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "~", dh_key_device(k, "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "%R~", dh_key_rating(k, "*", "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "%R~", dh_key_leaderboard(k, "*", "*")));
    CU_ASSERT_TRUE(acl_has("gateway", "%R~", dh_key_history(k, "*")));
    CU_ASSERT_TRUE(acl_has("matchmaker", "~", DH_KEY_MM_("*")));
    CU_ASSERT_TRUE(acl_has("matchmaker", "~", dh_key_match(k, "*")));
    CU_ASSERT_TRUE(acl_has("matchmaker", "~", dh_key_worker_adopt(k, "*")));
    CU_ASSERT_TRUE(acl_has("matchmaker", "~", dh_key_worker_moves(k, "*")));
    CU_ASSERT_TRUE(acl_has("matchmaker", "%R~", dh_key_match_history(k, "*")));
    CU_ASSERT_TRUE(acl_has("worker", "~", dh_key_bundle_current(k, "*")));
    CU_ASSERT_TRUE(acl_has("worker", "~", dh_key_rated(k, "*", "*")));
    CU_ASSERT_TRUE(acl_has("worker", "~", DH_KEY_MATCHES_UNRATED));
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"keys_spell_the_documented_layout", test_keys_spell_the_documented_layout},
        {"keys_builders_truncate_instead_of_overflowing",
         test_keys_builders_truncate_instead_of_overflowing},
        {"keys_every_script_compiles_on_redis", test_keys_every_script_compiles_on_redis},
        {"keys_fence_refuses_a_stale_owner_and_writes_nothing",
         test_keys_fence_refuses_a_stale_owner_and_writes_nothing},
        {"keys_match_fields_are_fenced", test_keys_match_fields_are_fenced},
        {"keys_commit_records_an_end_reason", test_keys_commit_records_an_end_reason},
        {"keys_commit_keeps_a_rating_job_once", test_keys_commit_keeps_a_rating_job_once},
        {"keys_commit_retried_after_a_lost_reply_lands_once",
         test_keys_commit_retried_after_a_lost_reply_lands_once},
        {"keys_commit_first_try_does_not_read_the_history",
         test_keys_commit_first_try_does_not_read_the_history},
        {"keys_commit_alone_of_a_stale_owner_is_fenced",
         test_keys_commit_alone_of_a_stale_owner_is_fenced},
        {"keys_commit_batch_commits_read_only_their_own_arguments",
         test_keys_commit_batch_commits_read_only_their_own_arguments},
        {"keys_commit_batch_writes_an_answer_sent_once_to_the_log_and_the_history",
         test_keys_commit_batch_writes_an_answer_sent_once_to_the_log_and_the_history},
        {"keys_commit_batch_pushes_a_snapshots_log_in_one_call",
         test_keys_commit_batch_pushes_a_snapshots_log_in_one_call},
        {"keys_commit_batch_retried_answer_lands_once",
         test_keys_commit_batch_retried_answer_lands_once},
        {"keys_commit_batch_fences_each_commit_on_its_epoch",
         test_keys_commit_batch_fences_each_commit_on_its_epoch},
        {"keys_account_name_taken_once", test_keys_account_name_taken_once},
        {"keys_login_attempts_are_counted_per_name", test_keys_login_attempts_are_counted_per_name},
        {"keys_takeover_bumps_the_epoch_once_and_says_where_the_match_is",
         test_keys_takeover_bumps_the_epoch_once_and_says_where_the_match_is},
        {"keys_mm_state_writes_only_for_the_leader", test_keys_mm_state_writes_only_for_the_leader},
        {"keys_list_walks_items_in_place", test_keys_list_walks_items_in_place},
        {"keys_list_find_matches_whole_items_only", test_keys_list_find_matches_whole_items_only},
        {"keys_acl_patterns_are_the_builders_keys", test_keys_acl_patterns_are_the_builders_keys},
        {"keys_cleanup", test_keys_cleanup},
        {NULL, NULL},
    };
    return dh_test_main("keys", cases);
}
