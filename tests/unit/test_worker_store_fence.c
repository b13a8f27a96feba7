/*
 * test_worker_store_fence.c: a fence per loop turn (--fence-per-turn, store.h) against a
 * real redis-server (tests/unit/rig_redis.h). The batch call reads worker:{W}:moves once
 * and skips the fence of each match the worker saw owned under the token it holds; the
 * matchmaker's takeover deletes the token in the same step as it moves a match, so a
 * worker frozen while its match moved is fenced on its next commit to it, and its other
 * matches are fenced once again before they are trusted. Both sides of a rolling upgrade:
 * a worker without the flag sends the format of before and is fenced by either takeover.
 */
#include "store.h"

#include <stdio.h>
#include <string.h>

#include "dh_keys.h"
#include "rig_redis.h"
#include "rig_store.h"

/* The batch script by EVAL with these keys and arguments (NULL-terminated lists). */
static redisReply *batch(const char *const *keys, const char *const *args)
{
    const char *argv[64];
    size_t lens[64], n = 0, nk = 0, na = 0;
    while (keys[nk])
        nk++;
    while (args[na])
        na++;
    char nkeys[24];
    snprintf(nkeys, sizeof nkeys, "%zu", nk);
    argv[n++] = "EVAL";
    argv[n++] = dh_script_commit_batch;
    argv[n++] = nkeys;
    for (size_t i = 0; i < nk; i++)
        argv[n++] = keys[i];
    for (size_t i = 0; i < na; i++)
        argv[n++] = args[i];
    for (size_t i = 0; i < n; i++)
        lens[i] = strlen(argv[i]);
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", rig_redis_port(), tv);
    CU_ASSERT_FATAL(c && !c->err);
    redisReply *r = redisCommandArgv(c, (int)n, argv, lens);
    redisFree(c);
    return r;
}

/* The dh_script_takeover a matchmaker of this release sends on a single Redis (with the
 * old owner's token key) or of the release before (without): its integer reply. */
static long long takeover(const char *id, const char *from, const char *to, bool new_mm)
{
    char meta[DH_KEY_MAX], moves[DH_KEY_MAX];
    dh_key_match(meta, id);
    dh_key_worker_moves(moves, from);
    return rig_redis_int("EVAL %s %s %s %s %s %s", dh_script_takeover, new_mm ? "2" : "1", meta,
                         new_mm ? moves : from, new_mm ? from : to, new_mm ? to : "");
}

static bool is_fenced(const redisReply *r)
{
    return r && r->type == REDIS_REPLY_ERROR && strstr(r->str, DH_REPLY_FENCED);
}

static bool is_string(const redisReply *r, const char *want)
{
    return r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, want);
}

/* A commit flagged as seen owned under the trusted token skips its fence while the key
 * holds that token (no HMGET); under another token it is fenced as before. The reply ends
 * with the token the key holds. */
static void test_fence_per_turn_batch_skips_the_fence_only_under_the_token_it_trusts(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET match:{p1} worker wk-1 epoch 1 status running");
    rig_redis_ok("SET worker:{wk-1}:moves tok-a");
    const char *keys[] = {"worker:{wk-1}:moves", "match:{p1}:log", "match:{p1}:history", NULL};
    /* kind 'R': an answer (2) seen owned (32), with only the keys it writes: under another
     * token it is fenced on the match key made from its log key */
    const char *trusted[] = {"wk-1", "tok-a", "fresh-1", "3", "1", "R", "a1", NULL};
    long long hmget = rig_redis_calls("hmget");
    redisReply *r = batch(keys, trusted);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1);
    CU_ASSERT_TRUE(is_string(r->element[1], "tok-a"));
    CU_ASSERT_EQUAL(r->element[2]->integer, 1);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_calls("hmget"), hmget);

    const char *stale[] = {"wk-1", "tok-b", "fresh-2", "3", "1", "R", "a2", NULL};
    r = batch(keys, stale);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_INTEGER);
    /* it fenced a match: a fresh token, and not the one the worker trusted */
    CU_ASSERT_TRUE(is_string(r->element[1], "fresh-2"));
    CU_ASSERT_EQUAL(r->element[2]->integer, 0);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_calls("hmget"), hmget + 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{p1}:history"), 2);
}

/* In one batch a commit seen owned sends only the keys it writes ([snap] log history) and
 * one not seen owned its four: each writes its own match's keys. */
static void test_fence_per_turn_batch_reads_each_commits_own_keys(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET match:{q1} worker wk-1 epoch 1 status running");
    rig_redis_ok("HSET match:{q2} worker wk-1 epoch 1 status running");
    rig_redis_ok("HSET match:{q3} worker wk-1 epoch 1 status running");
    rig_redis_ok("SET worker:{wk-1}:moves tok-a");
    const char *keys[] = {"worker:{wk-1}:moves",
                          "match:{q1}:snap",
                          "match:{q1}:log",
                          "match:{q1}:history",
                          "match:{q2}",
                          "match:{q2}:snap",
                          "match:{q2}:log",
                          "match:{q2}:history",
                          "match:{q3}:log",
                          "match:{q3}:history",
                          NULL};
    /* q1: 'S' a snapshot (1) and an answer (2) seen owned (32), its log "l1"; q2: '2' an
     * answer, fenced; q3: 'R' an answer seen owned */
    const char *args[] = {"wk-1", "tok-a", "fresh", "6",  "1", "S", "SNAP", "1",  "l1", "a1",
                          "3",    "1",     "2",     "b1", "3", "1", "R",    "c1", NULL};
    long long hmget = rig_redis_calls("hmget");
    redisReply *r = batch(keys, args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 5);
    for (size_t i = 0; i < 3; i++)
        CU_ASSERT_TRUE(r->element[i]->type == REDIS_REPLY_INTEGER && r->element[i]->integer == 1);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_calls("hmget"), hmget + 1);
    redisReply *v = rig_redis_cmd("GET match:{q1}:snap");
    CU_ASSERT_TRUE(is_string(v, "SNAP"));
    freeReplyObject(v);
    v = rig_redis_cmd("LRANGE match:{q1}:log 0 -1");
    CU_ASSERT_TRUE(v && v->type == REDIS_REPLY_ARRAY && v->elements == 1 &&
                   is_string(v->element[0], "l1"));
    freeReplyObject(v);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{q1}:history"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{q2}:log"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{q2}:history"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{q3}:log"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{q3}:history"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{q2}:snap match:{q3}:snap"), 0);
}

/* Where the key is missing (never written, expired, or deleted by a move) the batch
 * writes the worker's fresh token, with a TTL, trusts nothing and fences every commit. */
static void test_fence_per_turn_batch_writes_a_fresh_token_where_none_is(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET match:{p2} worker wk-2 epoch 2 status running");
    const char *keys[] = {"worker:{wk-1}:moves", "match:{p2}:log", "match:{p2}:history", NULL};
    const char *args[] = {"wk-1", "tok-old", "tok-new", "3", "1", "R", "a1", NULL};
    redisReply *r = batch(keys, args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(is_fenced(r->element[0]));
    CU_ASSERT_TRUE(is_string(r->element[1], "tok-new"));
    CU_ASSERT_EQUAL(r->element[2]->integer, 0);
    freeReplyObject(r);
    redisReply *v = rig_redis_cmd("GET worker:{wk-1}:moves");
    CU_ASSERT_TRUE(is_string(v, "tok-new"));
    freeReplyObject(v);
    CU_ASSERT_TRUE(rig_redis_int("TTL worker:{wk-1}:moves") > 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{p2}:history"), 0);
}

/* A batch that found a match the worker's by its fence writes a fresh token, so that a
 * Redis holding the token is one where the match was the worker's: after a failover to a
 * replica from before (the older token, the match another worker's), the worker's commit
 * flagged as seen owned under the fresh token is fenced. */
static void test_fence_per_turn_batch_writes_a_fresh_token_when_it_fences_a_match(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET match:{p5} worker wk-1 epoch 2 status running");
    rig_redis_ok("SET worker:{wk-1}:moves tok-a");
    const char *first[] = {"worker:{wk-1}:moves", "match:{p5}",         "match:{p5}:snap",
                           "match:{p5}:log",      "match:{p5}:history", NULL};
    const char *adopted[] = {"wk-1", "tok-a", "tok-b", "3", "2", "2", "a1", NULL};
    redisReply *r = batch(first, adopted);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1);
    CU_ASSERT_TRUE(is_string(r->element[1], "tok-b"));
    CU_ASSERT_EQUAL(r->element[2]->integer, 1);
    freeReplyObject(r);
    /* the replica from before the adoption: wk-2 owned it at epoch 1, the token was tok-a */
    rig_redis_ok("HSET match:{p5} worker wk-2 epoch 1");
    rig_redis_ok("SET worker:{wk-1}:moves tok-a");
    const char *keys[] = {"worker:{wk-1}:moves", "match:{p5}:log", "match:{p5}:history", NULL};
    const char *owned[] = {"wk-1", "tok-b", "tok-c", "3", "2", "R", "a2", NULL};
    r = batch(keys, owned);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(is_fenced(r->element[0]));
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{p5}:history"), 1);
}

/* The matchmaker moves a match from a worker frozen while holding it trusted: the
 * takeover deletes the token with the epoch bump, so the frozen worker's next batch,
 * still flagging the match as seen owned, is fenced and writes nothing. */
static void test_fence_per_turn_takeover_fences_a_frozen_workers_trusted_commit(void)
{
    rig_redis_flushall();
    rig_redis_ok("HSET match:{p3} worker wk-1 epoch 1 status running");
    rig_redis_ok("SET worker:{wk-1}:moves tok-a");
    CU_ASSERT_EQUAL(takeover("p3", "wk-1", "wk-2", true), 2);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{wk-1}:moves"), 0);
    const char *keys[] = {"worker:{wk-1}:moves", "match:{p3}:log", "match:{p3}:history", NULL};
    const char *args[] = {"wk-1", "tok-a", "tok-b", "3", "1", "R", "a1", NULL};
    redisReply *r = batch(keys, args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_TRUE(is_fenced(r->element[0]));
    CU_ASSERT_TRUE(is_string(r->element[1], "tok-b"));
    CU_ASSERT_EQUAL(r->element[2]->integer, 0);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{p3}:history match:{p3}:log"), 0);
}

/* Why the flag waits for every matchmaker: a takeover of the release before leaves the
 * token, and a worker trusting it would write to the match it lost. Off by default. */
static void test_fence_per_turn_is_off_by_default_as_an_old_takeover_keeps_the_token(void)
{
    store s;
    CU_ASSERT_EQUAL_FATAL(store_init(&s, rig_redis_url(), 500), 0);
    CU_ASSERT_FALSE(s.fence_per_turn);
    store_close(&s);
    rig_redis_flushall();
    rig_redis_ok("HSET match:{p4} worker wk-1 epoch 1 status running");
    rig_redis_ok("SET worker:{wk-1}:moves tok-a");
    CU_ASSERT_EQUAL(takeover("p4", "wk-1", "wk-2", false), 2);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{wk-1}:moves"), 1);
    const char *keys[] = {"worker:{wk-1}:moves", "match:{p4}:log", "match:{p4}:history", NULL};
    const char *args[] = {"wk-1", "tok-a", "tok-b", "3", "1", "R", "a1", NULL};
    redisReply *r = batch(keys, args);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
    CU_ASSERT_FALSE(is_fenced(r->element[0]));
    freeReplyObject(r);
}

/* ---- through the worker's store ----------------------------------------------------- */

/* A store on the rig's emptied Redis, fencing once per loop turn when per_turn. */
static void store_open(store *s, bool per_turn)
{
    rig_store_open(s);
    s->fence_per_turn = per_turn;
}

/* One flush of an answer to each of n matches (epoch 1); each op's outcome in ok[] (1 ok,
 * 0 fenced, -1 failed otherwise); how many HMGETs Redis ran for it. */
static long long flush_answers(store *s, const char *const *ids, size_t n, int *ok)
{
    const uint8_t e[] = {5};
    int ops[8];
    long long before = rig_redis_calls("hmget");
    for (size_t i = 0; i < n; i++) {
        ops[i] = store_op(s, dh_test_now_ms());
        store_commit c = {
            .match_id = ids[i], .worker = "wk-1", .epoch = 1, .hist = e, .hist_len = 1};
        CU_ASSERT_EQUAL(store_put_commit(s, &c), 0);
    }
    store_flush(s, dh_test_now_ms());
    for (size_t i = 0; i < n; i++)
        ok[i] = store_ok(s, ops[i]) ? 1 : store_fenced(s, ops[i]) ? 0 : -1;
    store_next(s);
    return rig_redis_calls("hmget") - before;
}

/* A frozen worker whose match moved: its first batch fences both matches and learns the
 * token, the next skips both fences; the matchmaker then moves m-a (the token deleted),
 * and the worker's next batch is fenced on m-a and writes nothing there, while m-b is
 * fenced once again and trusted after. */
static void test_fence_per_turn_store_fences_a_lost_match_and_trusts_the_rest_again(void)
{
    store s;
    store_open(&s, true);
    rig_store_new_match(&s, "m-a");
    rig_store_new_match(&s, "m-b");
    const char *both[] = {"m-a", "m-b"};
    int ok[2];
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_TRUE(ok[0] == 1 && ok[1] == 1);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{wk-1}:moves"), 1);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 0);
    CU_ASSERT_TRUE(ok[0] == 1 && ok[1] == 1);

    CU_ASSERT_EQUAL(takeover("m-a", "wk-1", "wk-2", true), 2);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_EQUAL(ok[0], 0);
    CU_ASSERT_EQUAL(ok[1], 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{m-a}:history"), 2);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{m-b}:history"), 3);
    const char *b_only[] = {"m-b"};
    CU_ASSERT_EQUAL(flush_answers(&s, b_only, 1, ok), 0);
    CU_ASSERT_EQUAL(ok[0], 1);
    /* the lost match stays fenced, commit after commit */
    const char *a_only[] = {"m-a"};
    CU_ASSERT_EQUAL(flush_answers(&s, a_only, 1, ok), 1);
    CU_ASSERT_EQUAL(ok[0], 0);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{m-a}:history"), 2);
    store_close(&s);
}

/* The token gone (expired, or an operator's DEL): the next batch writes a fresh one and
 * fences every match once again before trusting it. */
static void test_fence_per_turn_store_fences_every_match_again_when_the_token_is_gone(void)
{
    store s;
    store_open(&s, true);
    rig_store_new_match(&s, "m-c");
    rig_store_new_match(&s, "m-d");
    const char *both[] = {"m-c", "m-d"};
    int ok[2];
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 0);
    redisReply *first = rig_redis_cmd("GET worker:{wk-1}:moves");
    CU_ASSERT_TRUE_FATAL(first && first->type == REDIS_REPLY_STRING);
    rig_redis_ok("DEL worker:{wk-1}:moves");
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_TRUE(ok[0] == 1 && ok[1] == 1);
    redisReply *second = rig_redis_cmd("GET worker:{wk-1}:moves");
    CU_ASSERT_TRUE(second && second->type == REDIS_REPLY_STRING &&
                   strcmp(first->str, second->str) != 0);
    freeReplyObject(first);
    freeReplyObject(second);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 0);
    store_close(&s);
}

/* A new match fenced in a batch writes a fresh token, and the matches the worker trusted
 * under the one before stay trusted under it (no move happened: the key held it). */
static void test_fence_per_turn_store_keeps_its_trust_when_a_new_match_is_fenced(void)
{
    store s;
    store_open(&s, true);
    rig_store_new_match(&s, "m-h");
    const char *one[] = {"m-h"};
    int ok[2];
    CU_ASSERT_EQUAL(flush_answers(&s, one, 1, ok), 1);
    CU_ASSERT_EQUAL(flush_answers(&s, one, 1, ok), 0);
    redisReply *before = rig_redis_cmd("GET worker:{wk-1}:moves");
    rig_store_new_match(&s, "m-i");
    const char *both[] = {"m-h", "m-i"};
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 1);
    CU_ASSERT_TRUE(ok[0] == 1 && ok[1] == 1);
    redisReply *after = rig_redis_cmd("GET worker:{wk-1}:moves");
    CU_ASSERT_TRUE(before && after && before->type == REDIS_REPLY_STRING &&
                   after->type == REDIS_REPLY_STRING && strcmp(before->str, after->str) != 0);
    freeReplyObject(before);
    freeReplyObject(after);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 0);
    CU_ASSERT_TRUE(ok[0] == 1 && ok[1] == 1);
    store_close(&s);
}

/* A worker without the flag (this release's default, or the release before) sends the
 * format of before: no token key, a fence per commit; a takeover of either release
 * fences it. */
static void test_fence_per_turn_off_fences_each_commit_under_either_takeover(void)
{
    store s;
    store_open(&s, false);
    rig_store_new_match(&s, "m-e");
    rig_store_new_match(&s, "m-f");
    const char *both[] = {"m-e", "m-f"};
    int ok[2];
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS worker:{wk-1}:moves"), 0);
    CU_ASSERT_EQUAL(takeover("m-e", "wk-1", "wk-2", true), 2);
    CU_ASSERT_EQUAL(takeover("m-f", "wk-1", "wk-2", false), 2);
    CU_ASSERT_EQUAL(flush_answers(&s, both, 2, ok), 2);
    CU_ASSERT_TRUE(ok[0] == 0 && ok[1] == 0);
    store_close(&s);
}

/* A finished match is trusted no more (its keys are retired; nothing commits to it). */
static void test_fence_per_turn_store_forgets_a_finished_match(void)
{
    store s;
    store_open(&s, true);
    rig_store_new_match(&s, "m-g");
    const char *one[] = {"m-g"};
    int ok[1];
    CU_ASSERT_EQUAL(flush_answers(&s, one, 1, ok), 1);
    CU_ASSERT_EQUAL(s.owned.count, 1);
    int op = store_op(&s, dh_test_now_ms());
    store_commit fin = {.match_id = "m-g",
                        .worker = "wk-1",
                        .epoch = 1,
                        .finish = true,
                        .ended_ms = 5,
                        .result = "[]",
                        .final_hash = "00"};
    CU_ASSERT_EQUAL(store_put_commit(&s, &fin), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    CU_ASSERT_EQUAL(s.owned.count, 0);
    store_close(&s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"fence_per_turn_batch_skips_the_fence_only_under_the_token_it_trusts",
         test_fence_per_turn_batch_skips_the_fence_only_under_the_token_it_trusts},
        {"fence_per_turn_batch_reads_each_commits_own_keys",
         test_fence_per_turn_batch_reads_each_commits_own_keys},
        {"fence_per_turn_batch_writes_a_fresh_token_where_none_is",
         test_fence_per_turn_batch_writes_a_fresh_token_where_none_is},
        {"fence_per_turn_batch_writes_a_fresh_token_when_it_fences_a_match",
         test_fence_per_turn_batch_writes_a_fresh_token_when_it_fences_a_match},
        {"fence_per_turn_takeover_fences_a_frozen_workers_trusted_commit",
         test_fence_per_turn_takeover_fences_a_frozen_workers_trusted_commit},
        {"fence_per_turn_is_off_by_default_as_an_old_takeover_keeps_the_token",
         test_fence_per_turn_is_off_by_default_as_an_old_takeover_keeps_the_token},
        {"fence_per_turn_store_fences_a_lost_match_and_trusts_the_rest_again",
         test_fence_per_turn_store_fences_a_lost_match_and_trusts_the_rest_again},
        {"fence_per_turn_store_fences_every_match_again_when_the_token_is_gone",
         test_fence_per_turn_store_fences_every_match_again_when_the_token_is_gone},
        {"fence_per_turn_store_keeps_its_trust_when_a_new_match_is_fenced",
         test_fence_per_turn_store_keeps_its_trust_when_a_new_match_is_fenced},
        {"fence_per_turn_off_fences_each_commit_under_either_takeover",
         test_fence_per_turn_off_fences_each_commit_under_either_takeover},
        {"fence_per_turn_store_forgets_a_finished_match",
         test_fence_per_turn_store_forgets_a_finished_match},
        {NULL, NULL},
    };
    return rig_redis_main("worker_store_fence", cases);
}
