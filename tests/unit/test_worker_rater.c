/*
 * test_worker_rater.c: ratings move exactly once per finished match between accounts
 * (worker/store/rater.c), on a real redis-server: the same finished match applied twice moves
 * them once; a worker that dies between finishing a match and rating it leaves the job to
 * another worker, and its late write changes nothing; a retried finish does not queue
 * the job again; two matches sharing a player both count; guests are not rated.
 */
#include "store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dh_keys.h"
#include "rig_redis.h"

static const char *const two[] = {"a-alice", "a-bob"};
static const int alice_wins[] = {1, 2};

/* A finished match m between alice and bob whose job waits in matches:unrated. */
static void finished_match(const char *m, char *job)
{
    CU_ASSERT_EQUAL_FATAL(
        rater_job("dominion", "casual", "sha1", 1000, two, alice_wins, 2, job, RATER_JOB_MAX), 0);
    rig_redis_ok("HSET match:{%s} status finished", m);
    rig_redis_ok("HSET %s %s %s", DH_KEY_MATCHES_UNRATED, m, job);
    rig_redis_ok("HSET %s a-alice Alice a-bob Bob", DH_KEY_ACCOUNT_NAMES);
}

/* The rig's Redis as the worker reaches it (dh_redis); rig_free frees it. */
static dh_redis *connect_redis(void)
{
    static dh_redis rd;
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", rig_redis_port());
    CU_ASSERT_FATAL(dh_redis_init(&rd, url, 1000) == 0 && dh_redis_get(&rd, 0));
    return &rd;
}

static void rig_free(dh_redis *rd)
{
    dh_redis_close(rd);
}

/* A finish as the worker writes it (worker/store.c): the fenced commit (a batch of one),
 * then, when it kept the rating job (it answers 2), the job into matches:unrated. */
static void finish_as_worker(dh_redis *rd, const char **commit, int argc, const char *job)
{
    redisReply *rep = dh_redis_command(rd, 0, argc, commit, NULL);
    CU_ASSERT_TRUE_FATAL(rep && rep->type == REDIS_REPLY_ARRAY && rep->elements == 1 &&
                         rep->element[0]->type == REDIS_REPLY_INTEGER);
    if (rep->element[0]->integer == 2)
        rig_redis_ok("HSET %s %s %s", DH_KEY_MATCHES_UNRATED, "m2", job);
    freeReplyObject(rep);
}

/* The stored rating of id: mu, sigma, matches. */
static void rating_of(const char *id, double *mu, double *sigma, unsigned *matches)
{
    redisReply *r = rig_redis_cmd("HGET rating:{dominion}:casual %s", id);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    CU_ASSERT_EQUAL(sscanf(r->str, "%lf %lf %u", mu, sigma, matches), 3);
    freeReplyObject(r);
}

static void assert_rated_once(void)
{
    double mu, sigma;
    unsigned n;
    rating_of("a-alice", &mu, &sigma, &n);
    CU_ASSERT_DOUBLE_EQUAL(mu, 27.635389493140497, 1e-9); /* test_rating: with tau */
    CU_ASSERT_DOUBLE_EQUAL(sigma, 8.06590141354368, 1e-9);
    CU_ASSERT_EQUAL(n, 1);
    rating_of("a-bob", &mu, &sigma, &n);
    CU_ASSERT_DOUBLE_EQUAL(mu, 50.0 - 27.635389493140497, 1e-9);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(rig_redis_int("ZCARD leaderboard:{dominion}:casual"), 2);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN history:{a-alice}"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN history:{a-bob}"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MATCHES_UNRATED), 0);
}

static void test_rating_same_finished_match_applied_twice_moves_once(void)
{
    char job[RATER_JOB_MAX];
    rater r;
    rater_init(&r);
    rig_redis_flushall();
    finished_match("m1", job);
    dh_redis *c = connect_redis();
    CU_ASSERT_EQUAL(rater_apply(&r, c, "m1", job), 1);
    CU_ASSERT_EQUAL(rater_apply(&r, c, "m1", job), 0);
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 0);
    assert_rated_once();
    redisReply *rep = rig_redis_cmd("ZSCORE leaderboard:{dominion}:casual a-alice");
    CU_ASSERT_DOUBLE_EQUAL(atof(rep->str), 27.635389493140497 - 3 * 8.06590141354368, 1e-6);
    freeReplyObject(rep);
    rep = rig_redis_cmd("LINDEX history:{a-alice} 0");
    CU_ASSERT_STRING_EQUAL(rep->str, "m1\tdominion\tcasual\tsha1\t1000\t1\t2\t0.00\t3.44\tBob");
    freeReplyObject(rep);
    rig_free(c);
}

static void test_rating_worker_failover_mid_finish_moves_once(void)
{
    char job[RATER_JOB_MAX];
    rater r;
    rater_init(&r);
    rig_redis_flushall();
    /* Worker A finishes the match: the fenced commit queues the job with the finish. */
    rig_redis_ok("HSET match:{m2} worker wk-a epoch 1 status running");
    CU_ASSERT_EQUAL_FATAL(
        rater_job("dominion", "casual", "sha1", 1000, two, alice_wins, 2, job, sizeof job), 0);
    rig_redis_ok("HSET %s a-alice Alice a-bob Bob", DH_KEY_ACCOUNT_NAMES);
    dh_redis *c = connect_redis();
    const char *commit[] = {"EVAL",
                            dh_script_commit_batch,
                            "4",
                            "match:{m2}",
                            "match:{m2}:snap",
                            "match:{m2}:log",
                            "match:{m2}:history",
                            "wk-a",
                            "7", /* the finish: epoch, kind 8, its five fields */
                            "1",
                            "8",
                            "1000",
                            "[]",
                            "00",
                            "",
                            job};
    finish_as_worker(c, commit, 16, job);
    /* A reads the ratings and computes, then stalls (dies, or is cut off) before writing. */
    rater_plan *late = malloc(sizeof *late);
    CU_ASSERT_EQUAL_FATAL(rater_prepare(&r, c, "m2", job, late), 0);
    /* Worker B's sweep finds the job and rates the match. */
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 1);
    /* A's late write and A's retried finish change nothing. */
    CU_ASSERT_EQUAL(rater_commit(&r, c, late), 0);
    finish_as_worker(c, commit, 16, job);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MATCHES_UNRATED), 0);
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 0);
    assert_rated_once();
    free(late);
    rig_free(c);
}

static void test_rating_two_matches_sharing_a_player_both_count(void)
{
    char job1[RATER_JOB_MAX], job2[RATER_JOB_MAX];
    const char *const other[] = {"a-alice", "a-carol"};
    rater r;
    rater_init(&r);
    rig_redis_flushall();
    finished_match("m3", job1);
    CU_ASSERT_EQUAL_FATAL(
        rater_job("dominion", "casual", "sha1", 1001, other, alice_wins, 2, job2, sizeof job2), 0);
    dh_redis *c = connect_redis();
    rater_plan *p1 = malloc(sizeof *p1), *p2 = malloc(sizeof *p2);
    CU_ASSERT_EQUAL_FATAL(rater_prepare(&r, c, "m3", job1, p1), 0);
    CU_ASSERT_EQUAL_FATAL(rater_prepare(&r, c, "m4", job2, p2), 0); /* both from 25, 25/3 */
    CU_ASSERT_EQUAL(rater_commit(&r, c, p1), 1);
    CU_ASSERT_EQUAL(rater_commit(&r, c, p2), 2); /* alice's rating moved under it: STALE */
    CU_ASSERT_EQUAL(rater_apply(&r, c, "m4", job2), 1);
    double mu, sigma;
    unsigned n;
    rating_of("a-alice", &mu, &sigma, &n);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT(mu > 27.635389493140497);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN history:{a-alice}"), 2);
    free(p1);
    free(p2);
    rig_free(c);
}

static void test_rating_guests_and_lone_accounts_are_not_rated(void)
{
    char job[RATER_JOB_MAX];
    const char *const guest[] = {"a-alice", "p-0123"};
    const char *const same[] = {"a-alice", "a-alice"};
    const char *const four[] = {"a-1", "a-2", "a-3", "a-4"};
    const int ranks[] = {1, 2, 2, 4};
    CU_ASSERT_EQUAL(rater_job("dominion", "casual", "s", 1, guest, ranks, 2, job, sizeof job), -1);
    CU_ASSERT_EQUAL(rater_job("dominion", "casual", "s", 1, same, ranks, 2, job, sizeof job), -1);
    CU_ASSERT_EQUAL(rater_job("dominion", "casual", "s", 1, four, ranks, 1, job, sizeof job), -1);
    CU_ASSERT_EQUAL(rater_job("dom\nx", "casual", "s", 1, four, ranks, 4, job, sizeof job), -1);
    CU_ASSERT_EQUAL(rater_job("dominion", "casual", "s", 1, four, ranks, 4, job, sizeof job), 0);
    CU_ASSERT_STRING_EQUAL(job, "dominion\ncasual\ns\n1\na-1 1\na-2 2\na-3 2\na-4 4");
}

static void test_rating_malformed_job_is_dropped_unrated(void)
{
    rater r;
    rater_init(&r);
    rig_redis_flushall();
    rig_redis_ok("HSET %s m5 garbage", DH_KEY_MATCHES_UNRATED);
    dh_redis *c = connect_redis();
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MATCHES_UNRATED), 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS rating:{dominion}:casual"), 0);
    rig_free(c);
}

static void test_rating_survives_redis_forgetting_its_scripts(void)
{
    char job[RATER_JOB_MAX];
    rater r;
    rater_init(&r);
    rig_redis_flushall();
    rig_redis_ok("SCRIPT FLUSH");
    finished_match("m6", job);
    dh_redis *c = connect_redis();
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 1);
    rig_free(c);
}

static void test_rating_job_refused_by_redis_stays_and_keeps_the_connection(void)
{
    char job[RATER_JOB_MAX];
    rater r;
    rater_init(&r);
    rig_redis_flushall();
    finished_match("m7", job);
    rig_redis_ok("SET rating:{dominion}:casual not-a-hash"); /* HMGET: WRONGTYPE */
    dh_redis *c = connect_redis();
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 0); /* not -1: the connection is fine */
    CU_ASSERT_TRUE(c->ctx && c->ctx->err == 0);
    CU_ASSERT_EQUAL(rig_redis_int("HLEN %s", DH_KEY_MATCHES_UNRATED), 1);
    rig_redis_ok("DEL rating:{dominion}:casual");
    CU_ASSERT_EQUAL(rater_sweep(&r, c, 8), 1); /* the same connection rates it later */
    rig_free(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"rating_same_finished_match_applied_twice_moves_once",
         test_rating_same_finished_match_applied_twice_moves_once},
        {"rating_worker_failover_mid_finish_moves_once",
         test_rating_worker_failover_mid_finish_moves_once},
        {"rating_two_matches_sharing_a_player_both_count",
         test_rating_two_matches_sharing_a_player_both_count},
        {"rating_guests_and_lone_accounts_are_not_rated",
         test_rating_guests_and_lone_accounts_are_not_rated},
        {"rating_malformed_job_is_dropped_unrated", test_rating_malformed_job_is_dropped_unrated},
        {"rating_job_refused_by_redis_stays_and_keeps_the_connection",
         test_rating_job_refused_by_redis_stays_and_keeps_the_connection},
        {"rating_survives_redis_forgetting_its_scripts",
         test_rating_survives_redis_forgetting_its_scripts},
        {NULL, NULL},
    };
    return rig_redis_main("worker_rater", cases);
}
