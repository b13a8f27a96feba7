/*
 * test_liveops.c: common/dh_liveops.c and the canary choice of common/dh_bundle.c against a
 * real redis-server (rig_redis.h). It pins what makes live-ops trustworthy: a change and
 * its audit entry are written together or not at all (a raced change writes neither),
 * the history is only appended to, a rollback goes back one push at a time (two in a row
 * go two steps back, not back and forth), and the canary's choice of a new match is a
 * pure function of the match id that takes about its share.
 */
#include "dh_bundle.h"
#include "dh_liveops.h"

#include <stdio.h>
#include <string.h>

#include "rig_redis.h"

static const char *A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char *B = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
static const char *C = "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc";

static void target(const char *const *entries, size_t n, int want_rc, const char *want_from,
                   const char *want_to)
{
    char from[65] = "", to[65] = "";
    CU_ASSERT_EQUAL(dh_liveops_rollback_target(entries, n, from, to), want_rc);
    if (want_rc == 1) {
        CU_ASSERT_STRING_EQUAL(from, want_from);
        CU_ASSERT_STRING_EQUAL(to, want_to);
    }
}

static void test_rollback_goes_back_one_push_at_a_time(void)
{
    char ar[80], br[80];
    snprintf(ar, sizeof ar, "%s rollback", A);
    snprintf(br, sizeof br, "%s rollback", B);
    /* newest first */
    target(NULL, 0, 0, NULL, NULL);
    const char *one[] = {A};
    target(one, 1, 1, A, DH_BUNDLE_DEFAULT);
    const char *two[] = {B, A};
    target(two, 2, 1, B, A);
    const char *rolled[] = {ar, B, A}; /* push A, push B, rollback to A */
    target(rolled, 3, 1, A, DH_BUNDLE_DEFAULT);
    const char *both[] = {"default rollback", ar, B, A}; /* ... and to the default */
    target(both, 4, 0, NULL, NULL);
    const char *again[] = {C, ar, B, A}; /* push C after rolling back to A */
    target(again, 4, 1, C, A);
    const char *twice[] = {br, C, B, A}; /* push A, B, C, rollback to B */
    target(twice, 4, 1, B, A);
}

static dh_audit entry(const char *action, const char *bundle)
{
    return (dh_audit){.action = action,
                      .game = "dominion",
                      .bundle = bundle,
                      .label = "t",
                      .games = "dominion",
                      .from = DH_BUNDLE_DEFAULT,
                      .by = "alice",
                      .host = "h",
                      .reason = "why not",
                      .tests = 12};
}

static void test_a_change_and_its_audit_entry_are_written_together(void)
{
    rig_redis_flushall();
    redisContext *c = redisConnect("127.0.0.1", rig_redis_port());
    CU_ASSERT_FATAL(c && !c->err);
    dh_liveops_state st;
    CU_ASSERT_EQUAL(dh_liveops_watch(c, "dominion", &st), 0);
    CU_ASSERT_STRING_EQUAL(st.current, "");
    dh_liveops_change ch = {.current = A, .history = A};
    dh_audit a = entry("push", A);
    CU_ASSERT_EQUAL(dh_liveops_commit(c, "dominion", &ch, &a), 1);
    CU_ASSERT_EQUAL(rig_redis_int("XLEN bundle:audit:{dominion}"), 1);
    redisReply *r = rig_redis_cmd("XRANGE bundle:audit:{dominion} - +");
    CU_ASSERT_FATAL(r && r->type == REDIS_REPLY_ARRAY && r->elements == 1);
    const redisReply *f = r->element[0]->element[1];
    CU_ASSERT_STRING_EQUAL(f->element[0]->str, DH_AUDIT_ACTION);
    CU_ASSERT_STRING_EQUAL(f->element[1]->str, "push");
    bool by = false, reason = false;
    for (size_t i = 0; i + 1 < f->elements; i += 2) {
        by = by ||
             (!strcmp(f->element[i]->str, DH_AUDIT_BY) && !strcmp(f->element[i + 1]->str, "alice"));
        reason = reason || (!strcmp(f->element[i]->str, DH_AUDIT_REASON) &&
                            !strcmp(f->element[i + 1]->str, "why not"));
    }
    CU_ASSERT(by && reason);
    freeReplyObject(r);

    /* another writer moves the pointer between our read and our commit: nothing of ours */
    CU_ASSERT_EQUAL(dh_liveops_watch(c, "dominion", &st), 0);
    CU_ASSERT_STRING_EQUAL(st.current, A);
    rig_redis_ok("SET bundle:current:{dominion} %s", C);
    ch = (dh_liveops_change){.current = B, .history = B};
    a = entry("push", B);
    CU_ASSERT_EQUAL(dh_liveops_commit(c, "dominion", &ch, &a), 0);
    CU_ASSERT_EQUAL(rig_redis_int("XLEN bundle:audit:{dominion}"), 1);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN bundle:history:{dominion}"), 1);

    /* a canary, then its promotion: one entry each, the history only grows */
    CU_ASSERT_EQUAL(dh_liveops_watch(c, "dominion", &st), 0);
    char canary[96];
    snprintf(canary, sizeof canary, "25 %s", B);
    ch = (dh_liveops_change){.canary = canary};
    a = entry("canary", B);
    a.pct = 25;
    CU_ASSERT_EQUAL(dh_liveops_commit(c, "dominion", &ch, &a), 1);
    CU_ASSERT_EQUAL(dh_liveops_read(c, "dominion", &st), 0);
    CU_ASSERT_STRING_EQUAL(st.canary, B);
    CU_ASSERT_EQUAL(st.canary_pct, 25);
    CU_ASSERT_STRING_EQUAL(st.current, C);
    CU_ASSERT_EQUAL(dh_liveops_watch(c, "dominion", &st), 0);
    ch = (dh_liveops_change){.current = B, .canary = "", .history = B};
    a = entry("promote", B);
    CU_ASSERT_EQUAL(dh_liveops_commit(c, "dominion", &ch, &a), 1);
    CU_ASSERT_EQUAL(dh_liveops_read(c, "dominion", &st), 0);
    CU_ASSERT_STRING_EQUAL(st.current, B);
    CU_ASSERT_STRING_EQUAL(st.canary, "");
    CU_ASSERT_EQUAL(rig_redis_int("XLEN bundle:audit:{dominion}"), 3);
    CU_ASSERT_EQUAL(rig_redis_int("LLEN bundle:history:{dominion}"), 2);
    char from[65], to[65];
    CU_ASSERT_EQUAL(dh_liveops_rollback_read(c, "dominion", from, to), 1);
    CU_ASSERT_STRING_EQUAL(from, B);
    CU_ASSERT_STRING_EQUAL(to, A);
    redisFree(c);
}

static void test_canary_choice_is_a_function_of_the_match_id(void)
{
    /* FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c, 96 modulo 100: the spelling tools and tests
     * outside C (tests/e2e/test_liveops_canary.sh) compute too */
    CU_ASSERT_TRUE(dh_bundle_canary_takes("a", 97));
    CU_ASSERT_FALSE(dh_bundle_canary_takes("a", 96));
    int taken = 0;
    for (int i = 0; i < 10000; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-%016x", (unsigned)i * 2654435761u);
        bool t = dh_bundle_canary_takes(id, 10);
        CU_ASSERT_EQUAL(t, dh_bundle_canary_takes(id, 10)); /* same answer every time */
        CU_ASSERT_FALSE(dh_bundle_canary_takes(id, 0));
        CU_ASSERT_TRUE(dh_bundle_canary_takes(id, 100));
        if (t)
            CU_ASSERT_TRUE(dh_bundle_canary_takes(id, 50)); /* a wider canary keeps its matches */
        taken += t;
    }
    CU_ASSERT(taken > 800 && taken < 1200);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"rollback_goes_back_one_push_at_a_time", test_rollback_goes_back_one_push_at_a_time},
        {"a_change_and_its_audit_entry_are_written_together",
         test_a_change_and_its_audit_entry_are_written_together},
        {"canary_choice_is_a_function_of_the_match_id",
         test_canary_choice_is_a_function_of_the_match_id},
        {NULL, NULL},
    };
    return rig_redis_main("liveops", cases);
}
