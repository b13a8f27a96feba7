/*
 * test_matchmaker_admin.c: the admin API's work in the matchmaker (matchmaker/admin/admin.h),
 * on the real process state with a real Redis and fake workers: requests are routed and
 * their parameters checked; matches are listed (filtered, paged) and shown from Redis;
 * end, remove and drain reach the right worker as AdminEndMatch, AdminRemovePlayer and
 * AdminDrain, or are refused (no reason, unknown match or player, a match not running or
 * on a dead worker, the last live worker); every action lands in audit:{admin},
 * refused ones too; a standby answers 503.
 */
#include "rig_mm.h"
#include "rig_redis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin.h"

/* A running dominion match ID of ann (p1) and bob (p2) on worker, created at wall
 * RIG_MM_WALL0 - age_s. */
static void put_match(const char *id, const char *worker, unsigned age_s)
{
    rig_redis_ok("HSET match:{%s} game dominion mode casual bundle abc123 worker %s epoch 1 "
                 "status running players ann,bob player_ids p1,p2 created_ms %llu away 0,0 "
                 "abandon bot",
                 id, worker, (unsigned long long)(RIG_MM_WALL0 - age_s * 1000ULL));
    rig_redis_ok("HSET matches:running %s %s", id, worker);
}

static void open_acting(rig_mm *r)
{
    rig_mm_open_fresh(r, "mm-adm", 2);
    CU_ASSERT_TRUE_FATAL(mm_acting(&r->mm, 0));
    put_match("m-1", "wk-a", 600);
    put_match("m-2", "wk-b", 5);
    put_match("m-3", "wk-a", 30);
}

/* One request: its status; the answer in body (cap bytes). */
static int ask(rig_mm *r, const char *method, const char *path, const char *query, char *body,
               size_t cap)
{
    dh_ops_admin_req q = {.id = 1};
    snprintf(q.method, sizeof q.method, "%s", method);
    snprintf(q.path, sizeof q.path, "%s", path);
    snprintf(q.query, sizeof q.query, "%s", query);
    snprintf(q.who, sizeof q.who, "alice");
    dh_json j;
    dh_json_init(&j);
    int status = admin_handle(&r->mm, &q, &j, 0);
    char *doc = dh_json_finish(&j, NULL);
    CU_ASSERT_PTR_NOT_NULL(doc);
    snprintf(body, cap, "%s", doc ? doc : "");
    free(doc);
    return status;
}

static void test_matchmaker_admin_lists_and_shows_matches(void)
{
    rig_mm r;
    char b[8192];
    open_acting(&r);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"match_id\":\"m-1\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"players\":[\"ann\",\"bob\"]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"age_s\":600"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"count\":3,\"next\":\"\""));
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "worker=wk-b", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"count\":1,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "m-2"));
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "min_age_s=20&game=dominion", b, sizeof b),
                    200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"count\":2,"));
    CU_ASSERT_PTR_NULL(strstr(b, "m-2"));
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "bundle=abc&game=caveman", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"count\":0,"));
    /* pages of two, in id order */
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "limit=2", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"count\":2,\"next\":\"0:m-2\""));
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "limit=2&cursor=0:m-2", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "m-3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"count\":1,\"next\":\"\""));
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "limit=0", b, sizeof b), 400);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "limit=x", b, sizeof b), 400);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches", "game=%zz", b, sizeof b), 400);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches/m-1", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"worker\":\"wk-a\",\"worker_alive\":true"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "{\"seat\":1,\"player_id\":\"p2\",\"name\":\"bob\","
                                     "\"connected\":true}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"live\":null")); /* no worker was asked */
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches/m-404", "", b, sizeof b), 404);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/nothing", "", b, sizeof b), 404);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/matches/m-1/end", "", b, sizeof b), 405);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/workers", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"worker_id\":\"wk-b\",\"endpoint\":\"tcp://b:1\","
                                     "\"alive\":true"));
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/gateways", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"gateway_id\":\"gw-2\",\"alive\":true"));
    CU_ASSERT_EQUAL(rig_redis_int("XLEN audit:{admin}"), 0); /* reads are not audited */
    rig_mm_close(&r);
}

/* The next message at sock is of body case want (fatal otherwise); the caller frees it. */
static Deckhand__Internal__Internal *expect(void *sock, int want)
{
    Deckhand__Internal__Internal *m = rig_mm_next(sock, RIG_MM_WAIT_MS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->body_case, want);
    return m;
}

static void test_matchmaker_admin_actions_reach_the_worker(void)
{
    rig_mm r;
    char b[4096];
    open_acting(&r);
    CU_ASSERT_EQUAL(
        ask(&r, "POST", "/admin/matches/m-1/end", "reason=stuck+for%20ever", b, sizeof b), 202);
    Deckhand__Internal__Internal *m = expect(r.w[0], DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_END);
    CU_ASSERT_STRING_EQUAL(m->admin_end->match_id, "m-1");
    CU_ASSERT_STRING_EQUAL(m->admin_end->reason, "stuck for ever");
    CU_ASSERT_STRING_EQUAL(m->admin_end->who, "alice");
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_seat(&r.mm.seated, "p2", "m-2", 1, "wk-b");
    CU_ASSERT_EQUAL(
        ask(&r, "POST", "/admin/matches/m-2/remove", "player=p2&reason=rude", b, sizeof b), 202);
    CU_ASSERT_PTR_NULL(seated_find(&r.mm.seated, "p2")); /* it may queue again */
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"seat\":1,\"abandon\":\"bot\""));
    m = expect(r.w[1], DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_REMOVE);
    CU_ASSERT_STRING_EQUAL(m->admin_remove->player_id, "p2");
    deckhand__internal__internal__free_unpacked(m, NULL);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/workers/wk-b/drain", "reason=node", b, sizeof b), 202);
    m = expect(r.w[1], DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_DRAIN);
    CU_ASSERT_STRING_EQUAL(m->admin_drain->reason, "node");
    deckhand__internal__internal__free_unpacked(m, NULL);
    /* the trail, newest first */
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/audit", "limit=2", b, sizeof b), 200);
    char *drain = strstr(b, "\"action\":\"drain\""), *remove = strstr(b, "\"action\":\"remove\"");
    CU_ASSERT_TRUE(drain && remove && drain < remove);
    CU_ASSERT_PTR_NULL(strstr(b, "\"action\":\"end\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"who\":\"alice\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"target\":\"m-2/p2\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"status\":202"));
    CU_ASSERT_EQUAL(rig_redis_int("XLEN audit:{admin}"), 3);
    rig_mm_close(&r);
}

static void test_matchmaker_admin_refuses_and_audits_the_refusal(void)
{
    rig_mm r;
    char b[4096];
    open_acting(&r);
    put_match("m-lost", "wk-gone", 10);
    rig_redis_ok("HSET match:{m-done} status finished worker wk-a");
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-1/end", "", b, sizeof b), 400);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-404/end", "reason=x", b, sizeof b), 404);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-done/end", "reason=x", b, sizeof b), 409);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-lost/end", "reason=x", b, sizeof b), 409);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "not alive"));
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-1/remove", "player=p9&reason=x", b, sizeof b),
                    404);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-1/remove", "reason=x", b, sizeof b), 400);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/workers/wk-9/drain", "reason=x", b, sizeof b), 404);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/matches/m-1/explode", "reason=x", b, sizeof b), 404);
    /* nothing reached a worker */
    for (int i = 0; i < 2; i++)
        CU_ASSERT_PTR_NULL(rig_mm_next(r.w[i], 20));
    /* every refused action is in the trail, with why */
    CU_ASSERT_EQUAL(rig_redis_int("XLEN audit:{admin}"), 7);
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/audit", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"status\":409"));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"detail\":\"refused: no reason given\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"detail\":\"no such player in the match\""));
    rig_mm_close(&r);
}

static void test_matchmaker_admin_keeps_the_last_worker_unless_forced(void)
{
    rig_mm r;
    char b[4096];
    rig_mm_open_fresh(&r, "mm-adm", 1);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/workers/wk-a/drain", "reason=x", b, sizeof b), 409);
    CU_ASSERT_PTR_NULL(rig_mm_next(r.w[0], 20));
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/workers/wk-a/drain", "reason=x&force=1", b, sizeof b),
                    202);
    Deckhand__Internal__Internal *m =
        expect(r.w[0], DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_DRAIN);
    deckhand__internal__internal__free_unpacked(m, NULL);
    rig_mm_close(&r);
}

/* A drained worker leaves the workers listing once it says it stops, instead of staying
 * listed with the matches that moved away from it (issue 24, item 8). */
static void test_matchmaker_admin_drained_worker_leaves_the_list(void)
{
    rig_mm r;
    char b[4096];
    open_acting(&r);
    registry_beat(&r.mm.reg, "wk-b", 7, false, 0);
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/workers/wk-b/drain", "reason=node", b, sizeof b), 202);
    Deckhand__Internal__Internal *m =
        expect(r.w[1], DECKHAND__INTERNAL__INTERNAL__BODY_ADMIN_DRAIN);
    deckhand__internal__internal__free_unpacked(m, NULL);
    registry_beat(&r.mm.reg, "wk-b", 7, true, 0); /* draining: still listed, still hosting */
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/workers", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"worker_id\":\"wk-b\""));
    registry_gone(&r.mm.reg, "wk-b"); /* its last beat: stopping */
    CU_ASSERT_EQUAL(ask(&r, "GET", "/admin/workers", "", b, sizeof b), 200);
    CU_ASSERT_PTR_NULL(strstr(b, "\"worker_id\":\"wk-b\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"worker_id\":\"wk-a\""));
    CU_ASSERT_EQUAL(ask(&r, "POST", "/admin/workers/wk-b/drain", "reason=again", b, sizeof b), 404);
    rig_mm_close(&r);
}

static void test_matchmaker_admin_standby_answers_503(void)
{
    rig_mm acting, standby;
    char b[1024];
    open_acting(&acting);
    rig_mm_open(&standby, "mm-standby", rig_redis_url(), 1, 0);
    CU_ASSERT_FALSE_FATAL(mm_acting(&standby.mm, 0));
    CU_ASSERT_EQUAL(ask(&standby, "POST", "/admin/matches/m-1/end", "reason=x", b, sizeof b), 503);
    CU_ASSERT_PTR_NOT_NULL(strstr(b, "standby"));
    CU_ASSERT_EQUAL(rig_redis_int("XLEN audit:{admin}"), 0);
    rig_mm_close(&standby);
    rig_mm_close(&acting);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"matchmaker_admin_lists_and_shows_matches", test_matchmaker_admin_lists_and_shows_matches},
        {"matchmaker_admin_actions_reach_the_worker",
         test_matchmaker_admin_actions_reach_the_worker},
        {"matchmaker_admin_refuses_and_audits_the_refusal",
         test_matchmaker_admin_refuses_and_audits_the_refusal},
        {"matchmaker_admin_keeps_the_last_worker_unless_forced",
         test_matchmaker_admin_keeps_the_last_worker_unless_forced},
        {"matchmaker_admin_drained_worker_leaves_the_list",
         test_matchmaker_admin_drained_worker_leaves_the_list},
        {"matchmaker_admin_standby_answers_503", test_matchmaker_admin_standby_answers_503},
        {NULL, NULL},
    };
    return rig_redis_main("matchmaker_admin", cases);
}
