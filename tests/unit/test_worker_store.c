/*
 * test_worker_store.c: the worker's Redis persistence (worker/store.c) against a real
 * redis-server that this test starts on a free loopback port and kills at the end:
 * meta, snapshot and log round-trip through Redis, a snapshot replaces the log, a
 * refused write fails only its own op, and a Redis that goes away is an error the
 * worker survives and recovers from.
 */
#include "store.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dh_test.h"

static pid_t redis_pid = -1;
static int redis_port;
static char redis_url[64];

/* A direct connection for checking what the store wrote. */
static redisReply *raw(const char *fmt, const char *arg)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    CU_ASSERT_FATAL(c && !c->err);
    redisReply *r = redisCommand(c, fmt, arg);
    redisFree(c);
    return r;
}

static void open_store(store *s)
{
    CU_ASSERT_EQUAL_FATAL(store_init(s, redis_url, 500), 0);
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
};

static void test_store_writes_meta_and_first_snapshot(void)
{
    store s;
    open_store(&s);
    const uint8_t snap[] = {0, 1, 2, 0, 255, 7};
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_TRUE_FATAL(op >= 0);
    CU_ASSERT_EQUAL(store_put_meta(&s, &meta), 0);
    CU_ASSERT_EQUAL(store_put_snapshot(&s, meta.match_id, snap, sizeof snap), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);

    const char *fields[][2] = {{"game", "dominion"},
                               {"bundle", "abc123"},
                               {"worker", "wk-1"},
                               {"status", "running"},
                               {"seed", "18446744073709551615"},
                               {"players", "ann,bob"},
                               {"player_ids", "p-1,p-2"},
                               {"created_ms", "1700000000000"}};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        char *v = store_get_field(&s, meta.match_id, fields[i][0], dh_test_now_ms());
        CU_ASSERT_PTR_NOT_NULL_FATAL(v);
        CU_ASSERT_STRING_EQUAL(v, fields[i][1]);
        free(v);
    }
    uint8_t *got = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL(store_get_snapshot(&s, meta.match_id, &got, &len, dh_test_now_ms()), 1);
    CU_ASSERT_EQUAL(len, sizeof snap);
    CU_ASSERT_TRUE(got && !memcmp(got, snap, sizeof snap));
    free(got);
    CU_ASSERT_EQUAL(store_get_snapshot(&s, "m-missing", &got, &len, dh_test_now_ms()), 0);
    CU_ASSERT_PTR_NULL(store_get_field(&s, "m-missing", "game", dh_test_now_ms()));
    store_close(&s);
}

static void test_store_log_appends_and_snapshot_clears_it(void)
{
    store s;
    open_store(&s);
    const char *id = "m-log";
    const uint8_t e1[] = {1, 0, 2}, e2[] = {9, 9, 0, 9};
    int a = store_op(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_append_log(&s, id, e1, sizeof e1), 0);
    int b = store_op(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_append_log(&s, id, e2, sizeof e2), 0);
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

    const uint8_t snap[] = {42};
    int c = store_op(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_put_snapshot(&s, id, snap, sizeof snap), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, c));
    store_next(&s);
    CU_ASSERT_EQUAL(store_get_log(&s, id, &log, dh_test_now_ms()), 0);
    store_blobs_free(log, 0);
    store_close(&s);
}

static void test_store_finish_records_the_result(void)
{
    store s;
    open_store(&s);
    const char *id = "m-done";
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_put_meta(&s, &(store_meta){.match_id = id,
                                                     .game = "dominion",
                                                     .bundle = "b",
                                                     .worker = "wk-1",
                                                     .players = "a",
                                                     .player_ids = "p"}),
                    0);
    CU_ASSERT_EQUAL(store_finish(&s, id, 1234, "[{\"seat\":0,\"rank\":1}]"), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    char *status = store_get_field(&s, id, "status", dh_test_now_ms());
    char *result = store_get_field(&s, id, "result", dh_test_now_ms());
    char *ended = store_get_field(&s, id, "ended_ms", dh_test_now_ms());
    CU_ASSERT_STRING_EQUAL(status ? status : "", "finished");
    CU_ASSERT_STRING_EQUAL(result ? result : "", "[{\"seat\":0,\"rank\":1}]");
    CU_ASSERT_STRING_EQUAL(ended ? ended : "", "1234");
    free(status);
    free(result);
    free(ended);
    redisReply *r = raw("LINDEX matches:finished %s", "0");
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, id));
    freeReplyObject(r);
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
    r = raw("GET %s", "worker:{wk-7}");
    CU_ASSERT_TRUE(r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, "tcp://127.0.0.1:5570"));
    freeReplyObject(r);
    store_close(&s);
}

static void test_store_refused_write_fails_only_its_op(void)
{
    store s;
    open_store(&s);
    redisReply *r = raw("SET %s not-a-list", "match:{m-wrong}:log");
    freeReplyObject(r);
    const uint8_t e[] = {1};
    int good1 = store_op(&s, dh_test_now_ms());
    store_append_log(&s, "m-right", e, 1);
    int bad = store_op(&s, dh_test_now_ms());
    store_append_log(&s, "m-wrong", e, 1); /* WRONGTYPE */
    int good2 = store_op(&s, dh_test_now_ms());
    store_append_log(&s, "m-right", e, 1);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, good1));
    CU_ASSERT_FALSE(store_ok(&s, bad));
    CU_ASSERT_TRUE(store_ok(&s, good2));
    CU_ASSERT_FALSE(store_ok(&s, -1));
    store_next(&s);
    store_close(&s);
}

static void test_store_survives_redis_going_away_and_coming_back(void)
{
    store s;
    open_store(&s);
    const uint8_t e[] = {5};
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_TRUE_FATAL(op >= 0); /* connected */
    store_append_log(&s, "m-down", e, 1);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);

    dh_test_redis_stop(&redis_pid);
    /* the connection still looks open: the op starts, the flush finds it dead */
    op = store_op(&s, dh_test_now_ms());
    store_append_log(&s, "m-down", e, 1);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_FALSE(store_ok(&s, op));
    store_next(&s);
    /* now known down: ops fail at once, reads too */
    CU_ASSERT_EQUAL(store_op(&s, dh_test_now_ms() + 10000), -1);
    CU_ASSERT_PTR_NULL(store_get_field(&s, "m-down", "game", dh_test_now_ms() + 20000));
    store_flush(&s, dh_test_now_ms());
    store_next(&s);

    CU_ASSERT_EQUAL_FATAL(dh_test_redis_start(redis_port, &redis_pid), 0);
    /* after the backoff it reconnects by itself */
    uint64_t later = dh_test_now_ms() + 60000;
    op = store_op(&s, later);
    CU_ASSERT_TRUE_FATAL(op >= 0);
    store_append_log(&s, "m-down", e, 1);
    store_flush(&s, later);
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    store_close(&s);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    redis_port = dh_test_free_port();
    snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", redis_port);
    if (redis_port <= 0 || dh_test_redis_start(redis_port, &redis_pid) < 0) {
        fprintf(stderr, "test_worker_store: cannot start redis-server on port %d\n", redis_port);
        dh_test_redis_stop(&redis_pid);
        return 1;
    }
    static const dh_test_case cases[] = {
        {"store_writes_meta_and_first_snapshot", test_store_writes_meta_and_first_snapshot},
        {"store_log_appends_and_snapshot_clears_it", test_store_log_appends_and_snapshot_clears_it},
        {"store_finish_records_the_result", test_store_finish_records_the_result},
        {"store_lease_expires", test_store_lease_expires},
        {"store_refused_write_fails_only_its_op", test_store_refused_write_fails_only_its_op},
        {"store_survives_redis_going_away_and_coming_back",
         test_store_survives_redis_going_away_and_coming_back},
        {NULL, NULL},
    };
    int rc = dh_test_main("worker_store", cases);
    dh_test_redis_stop(&redis_pid);
    return rc;
}
