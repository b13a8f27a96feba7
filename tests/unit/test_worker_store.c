/*
 * test_worker_store.c: the worker's Redis persistence (worker/store.c) against a real
 * redis-server that this test starts on a free loopback port and kills at the end
 * (tests/unit/rig_redis.h):
 * meta, snapshot and log round-trip through Redis, a snapshot replaces the log, a
 * refused write fails only its own op, and a Redis that goes away is an error the
 * worker survives and recovers from.
 */
#include "store.h"

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rig_redis.h"
#include "rig_store.h"

/* A direct connection for checking what the store wrote. */
static redisReply *raw(const char *fmt, const char *arg)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", rig_redis_port(), tv);
    CU_ASSERT_FATAL(c && !c->err);
    redisReply *r = redisCommand(c, fmt, arg);
    redisFree(c);
    return r;
}

/* The integer a raw command answers, or LLONG_MIN when it answers anything else. */
static long long raw_int(const char *fmt, const char *arg)
{
    redisReply *r = raw(fmt, arg);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : LLONG_MIN;
    freeReplyObject(r);
    return v;
}

/* Whether a raw command answers the string want. */
static int raw_str_is(const char *fmt, const char *arg, const char *want)
{
    redisReply *r = raw(fmt, arg);
    int same = r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, want);
    freeReplyObject(r);
    return same;
}

static void open_store(store *s)
{
    CU_ASSERT_EQUAL_FATAL(store_init(s, rig_redis_url(), 500), 0);
}

static const store_meta meta = {
    .match_id = "m-0123456789abcdef",
    .game = "dominion",
    .bundle = "abc123",
    .worker = "wk-1",
    .seed = 18446744073709551615ULL,
    .players = "ann,bob",
    .player_ids = "p-1,p-2",
    .created_ms = 1700000000000ULL,
    .mode = "ranked",
    .abandon = "forfeit",
    .grace_ms = 30000,
    .decision_ms = 20000,
    .turn_ms = 90000,
};

/* Queue one commit of the given parts for match id, owned by wk-1 at epoch. */
static void commit(store *s, const char *id, uint64_t epoch, const uint8_t *snap, size_t snap_len,
                   const uint8_t *entry, size_t len, const uint8_t *hist, size_t hist_len)
{
    store_blob b = {(uint8_t *)entry, len};
    store_commit c = {.match_id = id,
                      .worker = "wk-1",
                      .epoch = epoch,
                      .snap = snap,
                      .snap_len = snap_len,
                      .log = entry ? &b : NULL,
                      .nlog = entry ? 1 : 0,
                      .hist = hist,
                      .hist_len = hist_len};
    CU_ASSERT_EQUAL(store_put_commit(s, &c), 0);
}

/* A new match owned by wk-1 at epoch 1, flushed. */
static void new_match(store *s, const char *id)
{
    store_meta m = meta;
    m.match_id = id;
    rig_store_put_meta(s, &m);
}

/* A store on the test Redis with the match id already created. */
static void open_with_match(store *s, const char *id)
{
    open_store(s);
    new_match(s, id);
}

static void test_store_writes_meta_and_first_snapshot(void)
{
    store s;
    open_store(&s);
    const uint8_t snap[] = {0, 1, 2, 0, 255, 7};
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_TRUE_FATAL(op >= 0);
    CU_ASSERT_EQUAL(store_put_meta(&s, &meta), 0);
    commit(&s, meta.match_id, 1, snap, sizeof snap, NULL, 0, NULL, 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);

    const char *fields[][2] = {
        {"game", "dominion"},   {"bundle", "abc123"},      {"worker", "wk-1"},
        {"epoch", "1"},         {"status", "running"},     {"seed", "18446744073709551615"},
        {"players", "ann,bob"}, {"player_ids", "p-1,p-2"}, {"created_ms", "1700000000000"},
        {"mode", "ranked"},     {"grace_ms", "30000"},     {"decision_ms", "20000"},
        {"turn_ms", "90000"},   {"abandon", "forfeit"}};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        char *v = store_get_field(&s, meta.match_id, fields[i][0], dh_test_now_ms());
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        CU_ASSERT_STRING_EQUAL(v, fields[i][1]);
        free(v);
    }
    CU_ASSERT_TRUE(raw_str_is("HGET matches:running %s", meta.match_id, "wk-1"));
    uint8_t *got = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(store_get_snapshot(&s, meta.match_id, &got, &len, dh_test_now_ms()), 1);
    CU_ASSERT_EQUAL(len, sizeof snap);
    CU_ASSERT_TRUE(got && !memcmp(got, snap, sizeof snap));
    free(got);
    /* stored by zstd, the default */
    CU_ASSERT_TRUE(raw_str_is("GETRANGE match:{%s}:snap 0 3", meta.match_id, "DHZS"));
    s.snap_codec = DH_SNAPZ_ZLIB; /* --snapshot-codec zlib: what a release before zstd reads */
    op = store_op(&s, dh_test_now_ms());
    commit(&s, meta.match_id, 1, snap, sizeof snap, NULL, 0, NULL, 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    CU_ASSERT_TRUE(raw_str_is("GETRANGE match:{%s}:snap 0 3", meta.match_id, "DHSZ"));
    CU_ASSERT_EQUAL(store_get_snapshot(&s, meta.match_id, &got, &len, dh_test_now_ms()), 1);
    CU_ASSERT_TRUE(len == sizeof snap && got && !memcmp(got, snap, sizeof snap));
    free(got);
    CU_ASSERT_EQUAL(store_get_snapshot(&s, "m-missing", &got, &len, dh_test_now_ms()), 0);
    CU_ASSERT_PTR_NULL(store_get_field(&s, "m-missing", "game", dh_test_now_ms()));
    store_close(&s);
}

static void test_store_log_appends_and_snapshot_clears_it_while_history_keeps_all(void)
{
    store s;
    const char *id = "m-log";
    open_with_match(&s, id);
    const uint8_t e1[] = {1, 0, 2}, e2[] = {9, 9, 0, 9};
    int a = store_op(&s, dh_test_now_ms());
    commit(&s, id, 1, NULL, 0, e1, sizeof e1, e1, sizeof e1);
    int b = store_op(&s, dh_test_now_ms());
    commit(&s, id, 1, NULL, 0, e2, sizeof e2, e2, sizeof e2);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, a));
    CU_ASSERT_TRUE(store_ok(&s, b));
    store_next(&s);

    store_blob *log = NULL;
    long n = store_get_log(&s, id, &log, dh_test_now_ms());
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_TRUE(log[0].len == sizeof e1 && !memcmp(log[0].data, e1, sizeof e1));
    CU_ASSERT_TRUE(log[1].len == sizeof e2 && !memcmp(log[1].data, e2, sizeof e2));
    store_blobs_free(log, (size_t)n);

    const uint8_t snap[] = {42}, e3[] = {3};
    int c = store_op(&s, dh_test_now_ms());
    commit(&s, id, 1, snap, sizeof snap, NULL, 0, e3, sizeof e3);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, c));
    store_next(&s);
    CU_ASSERT_EQUAL(store_get_log(&s, id, &log, dh_test_now_ms()), 0);
    store_blobs_free(log, 0);
    CU_ASSERT_EQUAL(raw_int("LLEN %s", "match:{m-log}:history"), 3);
    store_match got;
    CU_ASSERT_EQUAL(store_get_match(&s, id, &got, dh_test_now_ms()), 1);
    CU_ASSERT_EQUAL(got.history, 3);
    store_close(&s);
}

static void test_store_fence_refuses_a_worker_that_lost_the_match(void)
{
    store s;
    const char *id = "m-fenced";
    open_with_match(&s, id);
    /* the matchmaker moves the match: epoch 2, another worker */
    freeReplyObject(raw("HSET match:{m-fenced} worker wk-2 epoch %s", "2"));
    const uint8_t snap[] = {7}, e[] = {1};
    int op = store_op(&s, dh_test_now_ms());
    commit(&s, id, 1, snap, sizeof snap, e, sizeof e, e, sizeof e);
    int ok_op = store_op(&s, dh_test_now_ms());
    commit(&s, "m-log-other", 1, NULL, 0, NULL, 0, NULL, 0); /* no meta: fenced too */
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_FALSE(store_ok(&s, op));
    CU_ASSERT_TRUE(store_fenced(&s, op));
    CU_ASSERT_TRUE(store_fenced(&s, ok_op));
    store_next(&s);
    uint8_t *got = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(store_get_snapshot(&s, id, &got, &len, dh_test_now_ms()), 0);
    CU_ASSERT_EQUAL(raw_int("EXISTS %s", "match:{m-fenced}:history"), 0);
    store_close(&s);
}

static void test_store_finish_records_result_and_hash_and_leaves_running(void)
{
    store s;
    const char *id = "m-done";
    open_with_match(&s, id);
    int op = store_op(&s, dh_test_now_ms());
    store_commit c = {.match_id = id,
                      .worker = "wk-1",
                      .epoch = 1,
                      .finish = true,
                      .ended_ms = 1234,
                      .result = "[{\"seat\":0,\"rank\":1}]",
                      .final_hash = "00000000deadbeef"};
    CU_ASSERT_EQUAL(store_put_commit(&s, &c), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    const char *want[][2] = {{"status", "finished"},
                             {"result", "[{\"seat\":0,\"rank\":1}]"},
                             {"ended_ms", "1234"},
                             {"final_hash", "00000000deadbeef"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        char *v = store_get_field(&s, id, want[i][0], dh_test_now_ms());
        CU_ASSERT_STRING_EQUAL(v ? v : "", want[i][1]);
        free(v);
    }
    CU_ASSERT_TRUE(raw_str_is("LINDEX matches:finished %s", "0", id));
    CU_ASSERT_EQUAL(raw_int("HEXISTS matches:running %s", id), 0);
    store_close(&s);
}

static void test_store_adopt_set_pops_and_returns_ids(void)
{
    store s;
    open_store(&s);
    freeReplyObject(raw("SADD worker:{wk-9}:adopt m-a m-b %s", "m-c"));
    char ids[8][STORE_ID_MAX];
    CU_ASSERT_EQUAL(store_adopt_pop(&s, "wk-9", ids, 2, dh_test_now_ms()), 2);
    CU_ASSERT_EQUAL(store_adopt_pop(&s, "wk-9", ids + 2, 8, dh_test_now_ms()), 1);
    CU_ASSERT_EQUAL(store_adopt_pop(&s, "wk-9", ids, 8, dh_test_now_ms()), 0);
    CU_ASSERT_EQUAL(store_adopt_return(&s, "wk-9", "m-b", dh_test_now_ms()), 0);
    CU_ASSERT_EQUAL(store_adopt_pop(&s, "wk-9", ids, 8, dh_test_now_ms()), 1);
    CU_ASSERT_STRING_EQUAL(ids[0], "m-b");
    store_match m;
    CU_ASSERT_EQUAL(store_get_match(&s, "m-nobody", &m, dh_test_now_ms()), 0);
    store_close(&s);
}

static void test_store_lease_expires(void)
{
    store s;
    open_store(&s);
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_lease(&s, "wk-7", "tcp://127.0.0.1:5570", 2000), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    redisReply *r = raw("PTTL %s", "worker:{wk-7}");
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_INTEGER && r->integer > 0 && r->integer <= 2000);
    freeReplyObject(r);
    CU_ASSERT_TRUE(raw_str_is("GET %s", "worker:{wk-7}", "tcp://127.0.0.1:5570"));
    store_close(&s);
}

static void test_store_refused_write_fails_only_its_op(void)
{
    store s;
    open_store(&s);
    new_match(&s, "m-right");
    new_match(&s, "m-wrong");
    redisReply *r = raw("SET %s not-a-list", "match:{m-wrong}:log");
    freeReplyObject(r);
    const uint8_t e[] = {1};
    int good1 = store_op(&s, dh_test_now_ms());
    commit(&s, "m-right", 1, NULL, 0, e, 1, NULL, 0);
    int bad = store_op(&s, dh_test_now_ms());
    commit(&s, "m-wrong", 1, NULL, 0, e, 1, NULL, 0); /* WRONGTYPE */
    int good2 = store_op(&s, dh_test_now_ms());
    commit(&s, "m-right", 1, NULL, 0, e, 1, NULL, 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, good1));
    CU_ASSERT_FALSE(store_ok(&s, bad));
    CU_ASSERT_TRUE(store_ok(&s, good2));
    CU_ASSERT_FALSE(store_fenced(&s, bad));
    CU_ASSERT_FALSE(store_ok(&s, -1));
    store_next(&s);
    store_close(&s);
}

/* Redis's count of EVALSHA calls so far (INFO commandstats). */
static long long evalsha_calls(void)
{
    redisReply *r = raw("INFO %s", "commandstats");
    long long n = 0;
    const char *p =
        r && r->type == REDIS_REPLY_STRING ? strstr(r->str, "cmdstat_evalsha:calls=") : NULL;
    if (p)
        n = atoll(p + strlen("cmdstat_evalsha:calls="));
    freeReplyObject(r);
    return n;
}

/* On a single Redis the commits of one flush go as one script call, and each keeps its own
 * outcome: one fenced, one refused, the others written. */
static void test_store_commits_of_a_flush_go_as_one_call_each_with_its_outcome(void)
{
    store s;
    open_store(&s);
    CU_ASSERT_TRUE_FATAL(store_batching(&s));
    new_match(&s, "m-b-ok");
    new_match(&s, "m-b-moved");
    new_match(&s, "m-b-wrong");
    freeReplyObject(raw("HSET match:{m-b-moved} worker wk-2 epoch %s", "2"));
    freeReplyObject(raw("SET %s not-a-list", "match:{m-b-wrong}:log"));
    const uint8_t e[] = {3}, h[] = {4};
    long long before = evalsha_calls();
    int ok1 = store_op(&s, dh_test_now_ms());
    commit(&s, "m-b-ok", 1, NULL, 0, e, 1, h, 1);
    int moved = store_op(&s, dh_test_now_ms());
    commit(&s, "m-b-moved", 1, NULL, 0, e, 1, h, 1);
    int wrong = store_op(&s, dh_test_now_ms());
    commit(&s, "m-b-wrong", 1, NULL, 0, e, 1, h, 1);
    int ok2 = store_op(&s, dh_test_now_ms());
    commit(&s, "m-b-ok", 1, NULL, 0, e, 1, e, 1);
    /* a match started in the same flush: its meta is written before its first commit runs */
    int fresh = store_op(&s, dh_test_now_ms());
    store_meta m = meta;
    m.match_id = "m-b-new";
    CU_ASSERT_EQUAL(store_put_meta(&s, &m), 0);
    commit(&s, "m-b-new", 1, e, 1, NULL, 0, NULL, 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(evalsha_calls() - before, 1);
    CU_ASSERT_TRUE(store_ok(&s, ok1) && store_ok(&s, ok2) && store_ok(&s, fresh));
    CU_ASSERT_TRUE(!store_ok(&s, moved) && store_fenced(&s, moved));
    CU_ASSERT_TRUE(!store_ok(&s, wrong) && !store_fenced(&s, wrong));
    store_next(&s);
    CU_ASSERT_EQUAL(raw_int("LLEN %s", "match:{m-b-ok}:history"), 2);
    CU_ASSERT_EQUAL(raw_int("EXISTS %s", "match:{m-b-moved}:history"), 0);
    store_close(&s);
}

/* The batch call is fenced on one worker: a commit of another worker's match in the same
 * flush goes as a call of its own, and both land; an answer that is its own log entry and
 * one with a log entry of its own land as they were put. */
static void test_store_commit_of_another_worker_goes_alone(void)
{
    store s;
    open_store(&s);
    new_match(&s, "m-w1");
    new_match(&s, "m-w2");
    freeReplyObject(raw("HSET match:{m-w2} worker %s", "wk-2"));
    const uint8_t e[] = {7}, h[] = {8};
    long long before = evalsha_calls();
    int mine = store_op(&s, dh_test_now_ms());
    commit(&s, "m-w1", 1, NULL, 0, h, 1, h, 1);
    int theirs = store_op(&s, dh_test_now_ms());
    store_blob b = {(uint8_t *)e, 1};
    store_commit c = {.match_id = "m-w2",
                      .worker = "wk-2",
                      .epoch = 1,
                      .log = &b,
                      .nlog = 1,
                      .hist = h,
                      .hist_len = 1};
    CU_ASSERT_EQUAL(store_put_commit(&s, &c), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(evalsha_calls() - before, 2);
    CU_ASSERT_TRUE(store_ok(&s, mine) && store_ok(&s, theirs));
    store_next(&s);
    redisReply *r = raw("LRANGE %s 0 -1", "match:{m-w1}:log");
    CU_ASSERT_TRUE(r && r->elements == 1 && r->element[0]->str[0] == 8);
    freeReplyObject(r);
    r = raw("LRANGE %s 0 -1", "match:{m-w2}:log");
    CU_ASSERT_TRUE(r && r->elements == 1 && r->element[0]->str[0] == 7);
    freeReplyObject(r);
    r = raw("LRANGE %s 0 -1", "match:{m-w2}:history");
    CU_ASSERT_TRUE(r && r->elements == 1 && r->element[0]->str[0] == 8);
    freeReplyObject(r);
    store_close(&s);
}

/* A commit that goes alone (another worker's than the loop turn's batch: a batch of one,
 * as every commit on a Redis Cluster) keeps a single commit's outcomes: refused by the
 * fence without touching the batch's commit when its worker lost the match, and, as a
 * finish with a rating job, keeping the job (it answers 2) so the job is indexed. */
static void test_store_commit_alone_is_fenced_and_keeps_its_rating_job(void)
{
    store s;
    open_store(&s);
    new_match(&s, "m-a1");
    new_match(&s, "m-a2");
    new_match(&s, "m-a3");
    freeReplyObject(raw("HSET match:{m-a2} worker %s", "wk-2"));
    freeReplyObject(raw("HSET match:{m-a3} worker wk-3 epoch %s", "2")); /* moved from wk-2 */
    const uint8_t h[] = {8};
    int mine = store_op(&s, dh_test_now_ms());
    commit(&s, "m-a1", 1, NULL, 0, h, 1, h, 1);
    int stale = store_op(&s, dh_test_now_ms());
    store_commit c = {.match_id = "m-a3", .worker = "wk-2", .epoch = 1, .hist = h, .hist_len = 1};
    CU_ASSERT_EQUAL(store_put_commit(&s, &c), 0);
    int fin = store_op(&s, dh_test_now_ms());
    store_commit f = {.match_id = "m-a2",
                      .worker = "wk-2",
                      .epoch = 1,
                      .finish = true,
                      .ended_ms = 99,
                      .result = "[]",
                      .final_hash = "00",
                      .rating_job = "job-a2"};
    CU_ASSERT_EQUAL(store_put_commit(&s, &f), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, mine) && !store_fenced(&s, mine));
    CU_ASSERT_TRUE(!store_ok(&s, stale) && store_fenced(&s, stale));
    CU_ASSERT_TRUE(store_ok(&s, fin));
    store_next(&s);
    CU_ASSERT_EQUAL(raw_int("EXISTS %s", "match:{m-a3}:history"), 0);
    CU_ASSERT_TRUE(raw_str_is("HGET matches:unrated %s", "m-a2", "job-a2"));
    CU_ASSERT_EQUAL(raw_int("LLEN %s", "match:{m-a1}:history"), 1);
    store_close(&s);
}

/* A batched answer put without a log entry goes on the history only, as the single
 * commit writes it: the batch sends the answer once only when it is the log. */
static void test_store_batched_answer_without_a_log_entry_stays_off_the_log(void)
{
    store s;
    open_store(&s);
    new_match(&s, "m-nolog");
    const uint8_t h[] = {9};
    int op = store_op(&s, dh_test_now_ms());
    commit(&s, "m-nolog", 1, NULL, 0, NULL, 0, h, 1);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    CU_ASSERT_EQUAL(raw_int("EXISTS %s", "match:{m-nolog}:log"), 0);
    CU_ASSERT_EQUAL(raw_int("LLEN %s", "match:{m-nolog}:history"), 1);
    store_close(&s);
}

/* A write that reached fewer replicas than DECKHAND_REDIS_WAIT asks within its time (a
 * master cut off from its replica) is not acknowledged: a failover would lose it. Here one
 * Redis without replicas, asked for one: WAIT 1 comes back 0. */
static void test_store_write_on_no_replica_in_time_is_not_acknowledged(void)
{
    store s, w;
    open_with_match(&s, "m-wait");
    setenv("DECKHAND_REDIS_WAIT", "1", 1);
    setenv("DECKHAND_REDIS_WAIT_MS", "50", 1);
    open_store(&w);
    unsetenv("DECKHAND_REDIS_WAIT");
    unsetenv("DECKHAND_REDIS_WAIT_MS");
    const uint8_t e[] = {1};
    int op = store_op(&w, dh_test_now_ms());
    commit(&w, "m-wait", 1, NULL, 0, e, 1, e, 1);
    store_flush(&w, dh_test_now_ms());
    CU_ASSERT_FALSE(store_ok(&w, op));
    CU_ASSERT_FALSE(store_fenced(&w, op));
    store_next(&w);
    /* the same write where no replica is asked for: acknowledged */
    op = store_op(&s, dh_test_now_ms());
    commit(&s, "m-wait", 1, NULL, 0, e, 1, e, 1);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    store_close(&w);
    store_close(&s);
}

static void test_store_survives_redis_going_away_and_coming_back(void)
{
    static const store_meta down = {.match_id = "m-down",
                                    .game = "g",
                                    .bundle = "b",
                                    .worker = "wk-1",
                                    .players = "a",
                                    .player_ids = "p"};
    store s;
    open_store(&s);
    const uint8_t e[] = {5};
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_TRUE_FATAL(op >= 0); /* connected */
    store_put_meta(&s, &down);
    commit(&s, "m-down", 1, NULL, 0, e, 1, NULL, 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);

    rig_redis_stop();
    /* the connection still looks open: the op starts, the flush finds it dead */
    op = store_op(&s, dh_test_now_ms());
    commit(&s, "m-down", 1, NULL, 0, e, 1, NULL, 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_FALSE(store_ok(&s, op));
    store_next(&s);
    /* now known down: ops fail at once, reads too */
    CU_ASSERT_EQUAL(store_op(&s, dh_test_now_ms() + 10000), -1);
    CU_ASSERT_PTR_NULL(store_get_field(&s, "m-down", "game", dh_test_now_ms() + 20000));
    store_flush(&s, dh_test_now_ms());
    store_next(&s);

    rig_redis_start();
    /* after the backoff it reconnects by itself */
    uint64_t later = dh_test_now_ms() + 60000;
    op = store_op(&s, later);
    CU_ASSERT_TRUE_FATAL(op >= 0);
    store_put_meta(&s, &down);
    commit(&s, "m-down", 1, NULL, 0, e, 1, NULL, 0);
    store_flush(&s, later);
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    store_close(&s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"store_writes_meta_and_first_snapshot", test_store_writes_meta_and_first_snapshot},
        {"store_log_appends_and_snapshot_clears_it_while_history_keeps_all",
         test_store_log_appends_and_snapshot_clears_it_while_history_keeps_all},
        {"store_fence_refuses_a_worker_that_lost_the_match",
         test_store_fence_refuses_a_worker_that_lost_the_match},
        {"store_finish_records_result_and_hash_and_leaves_running",
         test_store_finish_records_result_and_hash_and_leaves_running},
        {"store_adopt_set_pops_and_returns_ids", test_store_adopt_set_pops_and_returns_ids},
        {"store_lease_expires", test_store_lease_expires},
        {"store_refused_write_fails_only_its_op", test_store_refused_write_fails_only_its_op},
        {"store_commit_of_another_worker_goes_alone",
         test_store_commit_of_another_worker_goes_alone},
        {"store_commit_alone_is_fenced_and_keeps_its_rating_job",
         test_store_commit_alone_is_fenced_and_keeps_its_rating_job},
        {"store_batched_answer_without_a_log_entry_stays_off_the_log",
         test_store_batched_answer_without_a_log_entry_stays_off_the_log},
        {"store_commits_of_a_flush_go_as_one_call_each_with_its_outcome",
         test_store_commits_of_a_flush_go_as_one_call_each_with_its_outcome},
        {"store_write_on_no_replica_in_time_is_not_acknowledged",
         test_store_write_on_no_replica_in_time_is_not_acknowledged},
        {"store_survives_redis_going_away_and_coming_back",
         test_store_survives_redis_going_away_and_coming_back},
        {NULL, NULL},
    };
    return rig_redis_main("worker_store", cases);
}
