/*
 * test_worker_store_tail.c: the log as the history's tail (--log-in-history, store.h's
 * store_commit.tail, dh_snapz.h's tail head) against a real redis-server
 * (tests/unit/rig_redis.h). Each answer is stored once, on the history; a snapshot is
 * stored behind a head naming the history's index its log starts at; every reader (the
 * store's, adoption's) reads the log from there. Both sides of a rolling upgrade: writes
 * of the layout before (a worker without the flag, or of the release before) keep a
 * match readable whichever layout it was in, and the layout before is written unchanged
 * without the flag.
 */
#include "store.h"

#include <stdio.h>
#include <string.h>

#include "dh_keys.h"
#include "dh_snapz.h"
#include "rig_redis.h"
#include "rig_store.h"

/* An answer as the log and the history store it: its kind byte, then its body. */
#define ANSWER(body) "\x01" body

/* One commit of match id in a flush of its own: a snapshot (snap, NULL none) with the
 * answers since its boundary (log, nlog), the answer e (NULL none; without a snapshot it
 * is its own log entry, as host_persist passes it), in the tail layout or the one before.
 * Whether it landed. */
static bool put(store *s, const char *id, const char *snap, const char *const *log, size_t nlog,
                const char *e, bool tail)
{
    store_blob b[8], one;
    for (size_t i = 0; i < nlog; i++)
        b[i] = (store_blob){(uint8_t *)log[i], strlen(log[i])};
    if (e)
        one = (store_blob){(uint8_t *)e, strlen(e)};
    int op = store_op(s, dh_test_now_ms());
    store_commit c = {.match_id = id,
                      .worker = "wk-1",
                      .epoch = 1,
                      .snap = (const uint8_t *)snap,
                      .snap_len = snap ? strlen(snap) : 0,
                      .log = snap ? b : &one,
                      .nlog = snap ? nlog
                              : e  ? 1
                                   : 0,
                      .hist = (const uint8_t *)e,
                      .hist_len = e ? strlen(e) : 0,
                      .tail = tail};
    CU_ASSERT_EQUAL(store_put_commit(s, &c), 0);
    store_flush(s, dh_test_now_ms());
    bool ok = store_ok(s, op);
    store_next(s);
    return ok;
}

/* The match's log as the store reads it equals want[0..n). */
static void check_log(store *s, const char *id, const char *const *want, size_t n)
{
    store_blob *got = NULL;
    long k = store_get_log(s, id, &got, dh_test_now_ms());
    CU_ASSERT_EQUAL_FATAL(k, (long)n);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_TRUE(got[i].len == strlen(want[i]) && !memcmp(got[i].data, want[i], got[i].len));
    store_blobs_free(got, (size_t)k);
}

/* The stored snapshot's tail head: its index, or -1 when it has none. */
static long long stored_tail(const char *id)
{
    redisReply *r = rig_redis_cmd("GET match:{%s}:snap", id);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    uint64_t at = 0;
    size_t body = 0;
    int tail = dh_snapz_tail((const uint8_t *)r->str, r->len, &at, &body);
    freeReplyObject(r);
    return tail > 0 ? (long long)at : -1;
}

/* The raw snapshot the store reads back. */
static void check_snap(store *s, const char *id, const char *want)
{
    uint8_t *got = NULL;
    size_t len = 0;
    CU_ASSERT_EQUAL_FATAL(store_get_snapshot(s, id, &got, &len, dh_test_now_ms()), 1);
    CU_ASSERT_TRUE(len == strlen(want) && !memcmp(got, want, len));
    free(got);
}

/* An answer goes on the history alone (one RPUSH, the log key never written); a snapshot
 * names the history's length less the answers since its boundary; the store reads the log
 * from there, and the snapshot itself without the head. */
static void test_log_in_history_stores_each_answer_once_and_the_snapshot_names_its_tail(void)
{
    store s;
    rig_store_open(&s);
    rig_store_new_match(&s, "t1");
    CU_ASSERT_TRUE(put(&s, "t1", "S0", NULL, 0, NULL, true)); /* the start: no answer */
    CU_ASSERT_EQUAL(stored_tail("t1"), 0);
    long long rpush = rig_redis_calls("rpush");
    CU_ASSERT_TRUE(put(&s, "t1", NULL, NULL, 0, ANSWER("a"), true));
    CU_ASSERT_TRUE(put(&s, "t1", NULL, NULL, 0, ANSWER("b"), true));
    CU_ASSERT_EQUAL(rig_redis_calls("rpush"), rpush + 2);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{t1}:log"), 0);
    const char *ab[] = {ANSWER("a"), ANSWER("b")};
    check_log(&s, "t1", ab, 2);
    /* a snapshot at a boundary after a, with b and c since it */
    const char *bc[] = {ANSWER("b"), ANSWER("c")};
    CU_ASSERT_TRUE(put(&s, "t1", "S1", bc, 2, ANSWER("c"), true));
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{t1}:history"), 3);
    CU_ASSERT_EQUAL(stored_tail("t1"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{t1}:log"), 0);
    check_log(&s, "t1", bc, 2);
    check_snap(&s, "t1", "S1");
    store_close(&s);
}

/* Without the flag the layout before is written unchanged (what a worker of the release
 * before reads): no head, the log a list of the answers since the snapshot. */
static void test_log_in_history_off_writes_the_layout_of_before(void)
{
    store s;
    rig_store_open(&s);
    rig_store_new_match(&s, "t2");
    CU_ASSERT_TRUE(put(&s, "t2", "S0", NULL, 0, NULL, false));
    CU_ASSERT_TRUE(put(&s, "t2", NULL, NULL, 0, ANSWER("a"), false));
    CU_ASSERT_EQUAL(stored_tail("t2"), -1);
    redisReply *r = rig_redis_cmd("GET match:{t2}:snap");
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING && r->len > 4);
    CU_ASSERT_EQUAL(memcmp(r->str, "DHZS", 4), 0);
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{t2}:log"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{t2}:history"), 1);
    const char *a[] = {ANSWER("a")};
    check_log(&s, "t2", a, 1);
    store_close(&s);
}

/* A rolling upgrade's writers on one match: answers written in the layout before (a
 * worker without the flag, or of the release before: on the log and the history) onto a
 * snapshot with the head stay in its log; a snapshot written without the head makes the
 * log key the log again; one with the head, the history's tail again. */
static void test_log_in_history_reads_a_match_whatever_layout_wrote_it_last(void)
{
    store s;
    rig_store_open(&s);
    rig_store_new_match(&s, "t3");
    CU_ASSERT_TRUE(put(&s, "t3", "S0", NULL, 0, NULL, true));
    CU_ASSERT_TRUE(put(&s, "t3", NULL, NULL, 0, ANSWER("a"), true));
    CU_ASSERT_TRUE(put(&s, "t3", NULL, NULL, 0, ANSWER("b"), false)); /* an old writer */
    const char *ab[] = {ANSWER("a"), ANSWER("b")};
    check_log(&s, "t3", ab, 2);
    const char *c[] = {ANSWER("c")};
    CU_ASSERT_TRUE(put(&s, "t3", "S1", c, 1, ANSWER("c"), false));
    CU_ASSERT_EQUAL(stored_tail("t3"), -1);
    check_log(&s, "t3", c, 1);
    CU_ASSERT_TRUE(put(&s, "t3", NULL, NULL, 0, ANSWER("d"), false));
    const char *cd[] = {ANSWER("c"), ANSWER("d")};
    check_log(&s, "t3", cd, 2);
    const char *de[] = {ANSWER("d"), ANSWER("e")};
    CU_ASSERT_TRUE(put(&s, "t3", "S2", de, 2, ANSWER("e"), true));
    CU_ASSERT_EQUAL(stored_tail("t3"), 3);
    CU_ASSERT_TRUE(put(&s, "t3", NULL, NULL, 0, ANSWER("f"), true));
    const char *def[] = {ANSWER("d"), ANSWER("e"), ANSWER("f")};
    check_log(&s, "t3", def, 3);
    check_snap(&s, "t3", "S2");
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{t3}:history"), 6);
    store_close(&s);
}

/* Adoption's reads (store_read_matches) take the log from the history for a match with
 * the head and from the log key for one without, in one call; a head past the history's
 * end is an unreadable log, not an empty one. */
static void test_log_in_history_adoption_reads_each_layout_in_one_call(void)
{
    store s;
    rig_store_open(&s);
    rig_store_new_match(&s, "t4");
    rig_store_new_match(&s, "t5");
    rig_store_new_match(&s, "t6");
    CU_ASSERT_TRUE(put(&s, "t4", "S0", NULL, 0, NULL, true));
    CU_ASSERT_TRUE(put(&s, "t4", NULL, NULL, 0, ANSWER("a"), true));
    CU_ASSERT_TRUE(put(&s, "t5", "S0", NULL, 0, NULL, false));
    CU_ASSERT_TRUE(put(&s, "t5", NULL, NULL, 0, ANSWER("b"), false));
    rig_redis_ok("SET match:{t6}:snap DHTL5\nDHZSxxxx");
    const char *ids[] = {"t4", "t5", "t6"};
    store_match_read rd[3];
    CU_ASSERT_EQUAL_FATAL(store_read_matches(&s, ids, 3, rd, dh_test_now_ms()), 0);
    CU_ASSERT_TRUE(rd[0].found == 1 && rd[0].tail && rd[0].nlog == 1);
    CU_ASSERT_TRUE(rd[0].nlog == 1 && rd[0].log[0].len == 2 &&
                   !memcmp(rd[0].log[0].data, ANSWER("a"), 2));
    CU_ASSERT_TRUE(rd[0].snap_found == 1 && rd[0].snap_len == 2 && !memcmp(rd[0].snap, "S0", 2));
    CU_ASSERT_TRUE(rd[1].found == 1 && !rd[1].tail && rd[1].nlog == 1);
    CU_ASSERT_TRUE(rd[1].nlog == 1 && !memcmp(rd[1].log[0].data, ANSWER("b"), 2));
    CU_ASSERT_EQUAL(rd[2].found, 1);
    CU_ASSERT_EQUAL(rd[2].nlog, -1);
    for (int i = 0; i < 3; i++)
        store_match_read_free(&rd[i]);
    store_close(&s);
}

/* An undo with the flag pops the answer and stores the turn's snapshot behind the head,
 * its log the history's tail; the log key stays untouched. */
static void test_log_in_history_undo_names_the_tail_without_the_answer(void)
{
    store s;
    rig_store_open(&s);
    rig_store_new_match(&s, "t7");
    CU_ASSERT_TRUE(put(&s, "t7", "S0", NULL, 0, NULL, true));
    CU_ASSERT_TRUE(put(&s, "t7", NULL, NULL, 0, ANSWER("a"), true));
    CU_ASSERT_TRUE(put(&s, "t7", NULL, NULL, 0, ANSWER("b"), true));
    store_blob a = {(uint8_t *)ANSWER("a"), 2};
    store_commit u = {.match_id = "t7",
                      .worker = "wk-1",
                      .epoch = 1,
                      .snap = (const uint8_t *)"S0",
                      .snap_len = 2,
                      .log = &a,
                      .nlog = 1,
                      .hist = (const uint8_t *)ANSWER("b"),
                      .hist_len = 2,
                      .tail = true};
    int op = store_op(&s, dh_test_now_ms());
    CU_ASSERT_EQUAL(store_put_undo(&s, &u), 0);
    store_flush(&s, dh_test_now_ms());
    CU_ASSERT_TRUE(store_ok(&s, op));
    store_next(&s);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN match:{t7}:history"), 1);
    CU_ASSERT_EQUAL(stored_tail("t7"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{t7}:log"), 0);
    const char *want[] = {ANSWER("a")};
    check_log(&s, "t7", want, 1);
    store_close(&s);
}

/* A commit in the tail layout whose log is not the history's (entries besides the answer,
 * without a snapshot) would lose them: it is refused, nothing sent. */
static void test_log_in_history_refuses_log_entries_the_history_does_not_hold(void)
{
    store s;
    rig_store_open(&s);
    store_blob two[] = {{(uint8_t *)ANSWER("x"), 2}, {(uint8_t *)ANSWER("a"), 2}};
    store_commit c = {.match_id = "t8",
                      .worker = "wk-1",
                      .epoch = 1,
                      .log = two,
                      .nlog = 2,
                      .hist = (const uint8_t *)ANSWER("a"),
                      .hist_len = 2,
                      .tail = true};
    CU_ASSERT_FALSE(store_tail_ok(&c));
    CU_ASSERT_TRUE(store_op(&s, dh_test_now_ms()) >= 0);
    CU_ASSERT_EQUAL(store_put_commit(&s, &c), -1);
    c.tail = false;
    CU_ASSERT_TRUE(store_tail_ok(&c));
    store_close(&s);
}

/* A commit in the tail layout of a match that moved is fenced like any other: nothing
 * written. */
static void test_log_in_history_commit_of_a_lost_match_is_fenced(void)
{
    store s;
    rig_store_open(&s);
    rig_store_new_match(&s, "t9");
    CU_ASSERT_TRUE(put(&s, "t9", "S0", NULL, 0, NULL, true));
    rig_redis_ok("HSET match:{t9} worker wk-2 epoch 2");
    CU_ASSERT_FALSE(put(&s, "t9", NULL, NULL, 0, ANSWER("a"), true));
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS match:{t9}:history"), 0);
    store_close(&s);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"log_in_history_stores_each_answer_once_and_the_snapshot_names_its_tail",
         test_log_in_history_stores_each_answer_once_and_the_snapshot_names_its_tail},
        {"log_in_history_off_writes_the_layout_of_before",
         test_log_in_history_off_writes_the_layout_of_before},
        {"log_in_history_reads_a_match_whatever_layout_wrote_it_last",
         test_log_in_history_reads_a_match_whatever_layout_wrote_it_last},
        {"log_in_history_adoption_reads_each_layout_in_one_call",
         test_log_in_history_adoption_reads_each_layout_in_one_call},
        {"log_in_history_undo_names_the_tail_without_the_answer",
         test_log_in_history_undo_names_the_tail_without_the_answer},
        {"log_in_history_refuses_log_entries_the_history_does_not_hold",
         test_log_in_history_refuses_log_entries_the_history_does_not_hold},
        {"log_in_history_commit_of_a_lost_match_is_fenced",
         test_log_in_history_commit_of_a_lost_match_is_fenced},
        {NULL, NULL},
    };
    return rig_redis_main("worker_store_tail", cases);
}
