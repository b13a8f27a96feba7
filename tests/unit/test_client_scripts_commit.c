/*
 * test_client_scripts_commit.c: client/scripts_commit.c, the commit-and-retry loop behind
 * `deckhand scripts push`, rollback, promote and abort, against a real redis-server
 * (rig_redis.h). It pins the retry behaviour those commands rely on: a change commits in
 * one round when nobody races it; a round that raced another writer writes nothing and
 * starts again from the reads; a change that keeps racing gives up after
 * SCRIPTS_ATTEMPTS rounds with nothing written; a plan that says "again" reads again; a
 * step that ends the change (done or refused) writes nothing and leaves no WATCH behind.
 */
#include "scripts.h"

#include <string.h>

#include "rig_redis.h"

static const char *A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char *B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

/* A scripted change: which rounds race another writer, what each step says. */
typedef struct {
    int races; /* the first rounds whose plan sees another writer commit */
    int again; /* the first rounds whose plan says SCRIPTS_AGAIN */
    scripts_step prepare_says;
    scripts_step plan_says; /* after the races and agains */
    int prepared, planned, done;
} fake;

static scripts_step fake_prepare(void *ctx, dh_redis *r)
{
    (void)r;
    fake *f = ctx;
    f->prepared++;
    return f->prepare_says;
}

static scripts_step fake_plan(void *ctx, redisContext *c, const dh_liveops_state *st,
                              dh_liveops_change *ch, dh_audit *a)
{
    (void)c;
    fake *f = ctx;
    int round = f->planned++;
    if (round < f->again)
        return SCRIPTS_AGAIN;
    if (round < f->races) /* another writer, on its own connection, inside our WATCH */
        rig_redis_ok("SET bundle:current:{dominion} %s", B);
    *ch = (dh_liveops_change){.current = A, .history = A};
    *a = (dh_audit){.action = "push",
                    .game = "dominion",
                    .bundle = A,
                    .tests = -1,
                    .from = st->current[0] ? st->current : DH_BUNDLE_DEFAULT};
    return f->plan_says;
}

static void fake_done(void *ctx, const dh_liveops_state *st)
{
    (void)st;
    ((fake *)ctx)->done++;
}

/* Run f as one change of dominion on a fresh Redis; scripts_commit's answer. */
static int run(fake *f, dh_redis *r)
{
    rig_redis_flushall();
    CU_ASSERT_FATAL(dh_redis_init(r, rig_redis_url(), 2000) == 0);
    scripts_change job = {.game = "dominion",
                          .who = "test",
                          .what = "dominion",
                          .ctx = f,
                          .prepare = fake_prepare,
                          .plan = fake_plan,
                          .done = fake_done};
    return scripts_commit(r, &job);
}

static char *current(void)
{
    static char v[80];
    redisReply *rep = rig_redis_cmd("GET bundle:current:{dominion}");
    snprintf(v, sizeof v, "%s", rep && rep->type == REDIS_REPLY_STRING ? rep->str : "");
    if (rep)
        freeReplyObject(rep);
    return v;
}

static void test_a_change_nobody_races_commits_in_one_round(void)
{
    fake f = {.prepare_says = SCRIPTS_GO, .plan_says = SCRIPTS_GO};
    dh_redis r;
    CU_ASSERT_EQUAL(run(&f, &r), 0);
    CU_ASSERT_EQUAL(f.prepared, 1);
    CU_ASSERT_EQUAL(f.planned, 1);
    CU_ASSERT_EQUAL(f.done, 1);
    CU_ASSERT_STRING_EQUAL(current(), A);
    CU_ASSERT_EQUAL(rig_redis_int("XLEN bundle:audit:{dominion}"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN bundle:history:{dominion}"), 1);
    dh_redis_close(&r);
}

static void test_a_raced_round_writes_nothing_and_starts_again_from_the_reads(void)
{
    fake f = {.races = 2, .prepare_says = SCRIPTS_GO, .plan_says = SCRIPTS_GO};
    dh_redis r;
    CU_ASSERT_EQUAL(run(&f, &r), 0);
    CU_ASSERT_EQUAL(f.prepared, 3); /* the reads are made again each round */
    CU_ASSERT_EQUAL(f.planned, 3);
    CU_ASSERT_EQUAL(f.done, 1);
    CU_ASSERT_STRING_EQUAL(current(), A);
    /* the two raced rounds left no audit entry and no history entry */
    CU_ASSERT_EQUAL(rig_redis_int("XLEN bundle:audit:{dominion}"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN bundle:history:{dominion}"), 1);
    dh_redis_close(&r);
}

static void test_a_change_that_keeps_racing_gives_up_with_nothing_written(void)
{
    fake f = {.races = 100, .prepare_says = SCRIPTS_GO, .plan_says = SCRIPTS_GO};
    dh_redis r;
    CU_ASSERT_EQUAL(run(&f, &r), -1);
    CU_ASSERT_EQUAL(f.planned, SCRIPTS_ATTEMPTS);
    CU_ASSERT_EQUAL(f.done, 0);
    CU_ASSERT_STRING_EQUAL(current(), B); /* the other writer's */
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS bundle:audit:{dominion}"), 0);
    CU_ASSERT_EQUAL(rig_redis_int("EXISTS bundle:history:{dominion}"), 0);
    dh_redis_close(&r);
}

static void test_a_plan_that_says_again_reads_again(void)
{
    fake f = {.again = 1, .prepare_says = SCRIPTS_GO, .plan_says = SCRIPTS_GO};
    dh_redis r;
    CU_ASSERT_EQUAL(run(&f, &r), 0);
    CU_ASSERT_EQUAL(f.prepared, 2);
    CU_ASSERT_EQUAL(f.planned, 2);
    CU_ASSERT_EQUAL(f.done, 1);
    CU_ASSERT_EQUAL(rig_redis_int("XLEN bundle:audit:{dominion}"), 1);
    dh_redis_close(&r);
    fake always = {.again = 100, .prepare_says = SCRIPTS_GO, .plan_says = SCRIPTS_GO};
    CU_ASSERT_EQUAL(run(&always, &r), -1);
    CU_ASSERT_EQUAL(always.planned, SCRIPTS_ATTEMPTS);
    dh_redis_close(&r);
}

/* After a plan that ended the change, a transaction on the same connection must not be
 * spoiled by a write to the keys that were watched. */
static void no_watch_left(dh_redis *r)
{
    redisContext *c = scripts_game_node(r, "dominion");
    CU_ASSERT_FATAL(c != NULL);
    rig_redis_ok("SET bundle:current:{dominion} %s", B);
    redisReply *rep = redisCommand(c, "MULTI");
    freeReplyObject(rep);
    rep = redisCommand(c, "SET bundle:current:{dominion} %s", A);
    freeReplyObject(rep);
    rep = redisCommand(c, "EXEC");
    CU_ASSERT(rep && rep->type == REDIS_REPLY_ARRAY);
    if (rep)
        freeReplyObject(rep);
}

static void test_a_step_that_ends_the_change_writes_nothing(void)
{
    scripts_step ends[] = {SCRIPTS_DONE, SCRIPTS_FAIL};
    for (size_t i = 0; i < 2; i++) {
        fake f = {.prepare_says = SCRIPTS_GO, .plan_says = ends[i]};
        dh_redis r;
        CU_ASSERT_EQUAL(run(&f, &r), ends[i] == SCRIPTS_DONE ? 0 : -1);
        CU_ASSERT_EQUAL(f.planned, 1);
        CU_ASSERT_EQUAL(f.done, 0);
        CU_ASSERT_EQUAL(rig_redis_int("EXISTS bundle:audit:{dominion}"), 0);
        no_watch_left(&r);
        dh_redis_close(&r);

        fake g = {.prepare_says = ends[i], .plan_says = SCRIPTS_GO};
        CU_ASSERT_EQUAL(run(&g, &r), ends[i] == SCRIPTS_DONE ? 0 : -1);
        CU_ASSERT_EQUAL(g.prepared, 1);
        CU_ASSERT_EQUAL(g.planned, 0); /* no WATCH, no plan */
        CU_ASSERT_EQUAL(rig_redis_int("EXISTS bundle:audit:{dominion}"), 0);
        dh_redis_close(&r);
    }
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"a_change_nobody_races_commits_in_one_round",
         test_a_change_nobody_races_commits_in_one_round},
        {"a_raced_round_writes_nothing_and_starts_again_from_the_reads",
         test_a_raced_round_writes_nothing_and_starts_again_from_the_reads},
        {"a_change_that_keeps_racing_gives_up_with_nothing_written",
         test_a_change_that_keeps_racing_gives_up_with_nothing_written},
        {"a_plan_that_says_again_reads_again", test_a_plan_that_says_again_reads_again},
        {"a_step_that_ends_the_change_writes_nothing",
         test_a_step_that_ends_the_change_writes_nothing},
        {NULL, NULL},
    };
    return rig_redis_main("client_scripts_commit", cases);
}
