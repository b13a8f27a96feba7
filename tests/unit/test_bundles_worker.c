/*
 * test_bundles_worker.c: the worker's bundle table (worker/bundles.c) against a real
 * redis-server started here on a free port. It pins the live-ops promises a worker keeps:
 * it stores its default bundle for replays, follows bundle:current:{GAME} per game, keeps
 * a bundle while a match is pinned to it and frees it after the last one once it is not
 * current, and a bundle it cannot load (or whose content is not its id) is reported in
 * bundle:{SHA}:errors while new matches keep starting on the previous one. A canary
 * (bundle:canary:{GAME}) takes exactly the new matches dh_bundle_canary_takes gives it,
 * is counted, and once dropped keeps its VM only while a match is pinned to it. A push
 * committed through dh_liveops_commit is announced, and the worker serves it at its next
 * turn, long before its safety-net poll is due.
 */
#include "bundles.h"
#include "dh_bundle.h"
#include "dh_liveops.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dh_test.h"
#include "rig_engine.h"

static pid_t redis_pid = -1;
static int redis_port;
static char redis_url[64];
static uint64_t clock_ms = 1000;

static redisContext *conn(void)
{
    struct timeval tv = {.tv_sec = 1, .tv_usec = 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", redis_port, tv);
    CU_ASSERT_FATAL(c && !c->err);
    return c;
}

static long long rint_cmd(const char *cmd, const char *key, const char *field)
{
    redisContext *c = conn();
    redisReply *r =
        field ? redisCommand(c, "%s %s %s", cmd, key, field) : redisCommand(c, "%s %s", cmd, key);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    redisFree(c);
    return v;
}

static void set_current(const char *game, const char *sha)
{
    char key[DH_KEY_MAX];
    dh_key_bundle_current(key, game);
    redisContext *c = conn();
    redisReply *r = redisCommand(c, "SET %s %s", key, sha);
    CU_ASSERT(r && r->type == REDIS_REPLY_STATUS);
    if (r)
        freeReplyObject(r);
    redisFree(c);
}

/* Stores a variant of the default bundle (dominion/cards.lua gets a trailing comment tag,
 * so the content and the id differ) under its own id, or under as_sha when not NULL. The
 * variant's id goes to sha_out. */
static void store_variant(engine_bundle *def, const char *tag, const char *as_sha, char *sha_out)
{
    size_t n;
    engine_file_in *files = engine_bundle_files(def, &n);
    CU_ASSERT_FATAL(files != NULL);
    char *patched = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(files[i].path, "dominion/cards.lua")) {
            size_t tl = strlen(tag), len = files[i].len;
            patched = malloc(len + tl + 5);
            CU_ASSERT_FATAL(patched != NULL);
            memcpy(patched, files[i].data, len);
            memcpy(patched + len, "\n-- ", 4);
            memcpy(patched + len + 4, tag, tl);
            files[i].data = patched;
            files[i].len = len + 4 + tl;
        }
    }
    CU_ASSERT_FATAL(patched != NULL);
    engine_error ee = {0};
    engine_bundle *b = engine_bundle_load_files("v", files, n, NULL, &ee);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    snprintf(sha_out, 65, "%s", engine_bundle_id(b));
    engine_bundle_free(b);
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, redis_url, 1000), 0);
    dh_bundle_meta meta = {tag, "dominion", 0, 1};
    CU_ASSERT_EQUAL(dh_bundle_store(&rd, as_sha ? as_sha : sha_out, files, n, &meta), 0);
    dh_redis_close(&rd);
    free(patched);
    free(files);
}

static engine_bundle *load_default(void)
{
    engine_bundle *b = rig_engine_load("scripts", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    return b;
}

static void flush_redis(void)
{
    redisContext *c = conn();
    redisReply *r = redisCommand(c, "FLUSHALL");
    if (r)
        freeReplyObject(r);
    redisFree(c);
}

static void test_worker_stores_default_and_follows_current(void)
{
    flush_redis();
    engine_bundle *def = load_default();
    bundles bs;
    CU_ASSERT_EQUAL_FATAL(bundles_init(&bs, "wk-t", redis_url, 1000, def, 2000), 0);
    bundles_poll(&bs, clock_ms);
    char key[DH_KEY_MAX];
    dh_key_bundle(key, engine_bundle_id(def));
    CU_ASSERT_EQUAL(rint_cmd("EXISTS", key, NULL), 1);
    CU_ASSERT_PTR_EQUAL(bundles_pick(&bs, "dominion")->b, def);

    char v1[65];
    store_variant(def, "v1", NULL, v1);
    set_current("dominion", v1);
    bundles_poll(&bs, clock_ms);
    bundles_entry *e = bundles_pick(&bs, "dominion");
    CU_ASSERT_STRING_EQUAL(e->id, v1);
    CU_ASSERT_FALSE(e->is_default);
    dh_key_worker_bundles(key, "wk-t");
    CU_ASSERT_EQUAL(rint_cmd("HEXISTS", key, v1), 1);
    /* the pointer gone: back to the default */
    redisContext *c = conn();
    freeReplyObject(redisCommand(c, "DEL bundle:current:{dominion}"));
    redisFree(c);
    bundles_poll(&bs, clock_ms);
    CU_ASSERT_PTR_EQUAL(bundles_pick(&bs, "dominion")->b, def);
    CU_ASSERT_EQUAL(bs.n, 1); /* v1 had no match: freed at once */
    bundles_free(&bs);
    engine_bundle_free(def);
}

static void test_pinned_bundle_lives_until_its_last_match_ends(void)
{
    flush_redis();
    engine_bundle *def = load_default();
    bundles bs;
    CU_ASSERT_EQUAL_FATAL(bundles_init(&bs, "wk-t", redis_url, 1000, def, 2000), 0);
    char v1[65], v2[65], key[DH_KEY_MAX];
    store_variant(def, "v1", NULL, v1);
    store_variant(def, "v2", NULL, v2);
    set_current("dominion", v1);
    bundles_poll(&bs, clock_ms);
    bundles_entry *e1 = bundles_pick(&bs, "dominion");
    bundles_pin(e1);
    bundles_pin(e1);
    set_current("dominion", v2);
    bundles_poll(&bs, clock_ms);
    CU_ASSERT_STRING_EQUAL(bundles_pick(&bs, "dominion")->id, v2);
    CU_ASSERT_EQUAL(bs.n, 3); /* default, v1 (two matches), v2 */
    bundles_unpin(&bs, e1);
    CU_ASSERT_EQUAL(bs.n, 3);
    bundles_report(&bs, clock_ms);
    dh_key_worker_bundles(key, "wk-t");
    CU_ASSERT_EQUAL(rint_cmd("HEXISTS", key, v1), 1);
    bundles_unpin(&bs, e1); /* the last match on v1 ended: freed */
    CU_ASSERT_EQUAL(bs.n, 2);
    bundles_report(&bs, clock_ms);
    CU_ASSERT_EQUAL(rint_cmd("HEXISTS", key, v1), 0);
    dh_key_bundle(key, v1);
    CU_ASSERT_EQUAL(rint_cmd("EXISTS", key, NULL), 1); /* still in Redis for replays */
    bundles_free(&bs);
    engine_bundle_free(def);
}

static void test_bundle_that_fails_to_load_is_reported_and_old_one_kept(void)
{
    flush_redis();
    engine_bundle *def = load_default();
    bundles bs;
    CU_ASSERT_EQUAL_FATAL(bundles_init(&bs, "wk-t", redis_url, 1000, def, 2000), 0);
    char v1[65], key[DH_KEY_MAX];
    store_variant(def, "v1", NULL, v1);
    set_current("dominion", v1);
    bundles_poll(&bs, clock_ms);
    /* broken content */
    const char *bad = "1111111111111111111111111111111111111111111111111111111111111111";
    dh_bundle_file f = {"dominion/game.lua", "return {", 8};
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, redis_url, 1000), 0);
    dh_bundle_meta meta = {"bad", "dominion", 0, 1};
    CU_ASSERT_EQUAL(dh_bundle_store(&rd, bad, &f, 1, &meta), 0);
    dh_redis_close(&rd);
    set_current("dominion", bad);
    bundles_poll(&bs, clock_ms);
    CU_ASSERT_STRING_EQUAL(bundles_pick(&bs, "dominion")->id, v1);
    dh_key_bundle_errors(key, bad);
    CU_ASSERT_EQUAL(rint_cmd("HEXISTS", key, "wk-t"), 1);
    /* content that does not hash to the id it is stored under */
    const char *liar = "2222222222222222222222222222222222222222222222222222222222222222";
    char v2[65];
    store_variant(def, "v2", liar, v2);
    set_current("dominion", liar);
    bundles_poll(&bs, clock_ms);
    CU_ASSERT_STRING_EQUAL(bundles_pick(&bs, "dominion")->id, v1);
    dh_key_bundle_errors(key, liar);
    CU_ASSERT_EQUAL(rint_cmd("HEXISTS", key, "wk-t"), 1);
    /* a match pinned to the broken bundle, offered again and again for adoption: it is
     * refused each time, but the bundle is fetched, loaded and warned about once */
    uint64_t failed = bs.failed_loads;
    CU_ASSERT_PTR_NULL(bundles_get(&bs, bad, "dominion", clock_ms));
    CU_ASSERT_PTR_NULL(bundles_get(&bs, bad, "dominion", clock_ms));
    CU_ASSERT_EQUAL(bs.failed_loads, failed);
    bundles_free(&bs);
    engine_bundle_free(def);
}

static void test_canary_takes_its_share_of_new_matches_until_dropped(void)
{
    flush_redis();
    engine_bundle *def = load_default();
    bundles bs;
    CU_ASSERT_EQUAL_FATAL(bundles_init(&bs, "wk-t", redis_url, 1000, def, 2000), 0);
    char v1[65], key[DH_KEY_MAX];
    store_variant(def, "canary", NULL, v1);
    dh_key_bundle_canary(key, "dominion");
    redisContext *c = conn();
    freeReplyObject(redisCommand(c, "SET %s %s", key, v1)); /* no share: not a canary */
    bundles_poll(&bs, clock_ms);
    size_t dom = 0;
    while (dom < bs.ncur && strcmp(bs.cur[dom].game, "dominion"))
        dom++;
    CU_ASSERT_FATAL(dom < bs.ncur);
    CU_ASSERT_PTR_NULL(bs.cur[dom].canary);
    redisReply *r;
    const char *argv[] = {"SET", key, NULL};
    char val[96];
    snprintf(val, sizeof val, "30 %s", v1);
    argv[2] = val;
    freeReplyObject(redisCommandArgv(c, 3, argv, NULL));
    bundles_poll(&bs, clock_ms);
    CU_ASSERT_PTR_NOT_NULL(bs.cur[dom].canary);
    CU_ASSERT_EQUAL(bs.cur[dom].canary_pct, 30);
    int on_canary = 0;
    bundles_entry *pinned = NULL;
    for (int i = 0; i < 300; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-%d", i);
        bundles_entry *e = bundles_pick_new(&bs, "dominion", id);
        bool canary = !strcmp(e->id, v1);
        CU_ASSERT_EQUAL(canary, dh_bundle_canary_takes(id, 30));
        CU_ASSERT(canary || e->b == def);
        on_canary += canary;
        if (canary && !pinned) {
            pinned = e;
            bundles_started(&bs, e);
        }
    }
    CU_ASSERT(on_canary > 45 && on_canary < 135);
    CU_ASSERT_PTR_NOT_NULL_FATAL(pinned);
    CU_ASSERT_EQUAL(bs.started_canary, 1);
    CU_ASSERT_PTR_EQUAL(bundles_pick(&bs, "dominion")->b, def); /* current is unchanged */
    bundles_report(&bs, clock_ms);
    char wkey[DH_KEY_MAX], field[96];
    dh_key_worker_bundles(wkey, "wk-t");
    snprintf(field, sizeof field, "%s%s", DH_F_WORKER_STARTED_PREFIX, v1);
    r = redisCommand(c, "HGET %s %s", wkey, field);
    CU_ASSERT(r && r->type == REDIS_REPLY_STRING && !strcmp(r->str, "1"));
    freeReplyObject(r);

    /* abort: new matches all go to the current bundle; the pinned match keeps its VM */
    freeReplyObject(redisCommand(c, "DEL %s", key));
    bundles_poll(&bs, clock_ms);
    for (int i = 0; i < 50; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-%d", i);
        CU_ASSERT_PTR_EQUAL(bundles_pick_new(&bs, "dominion", id)->b, def);
    }
    CU_ASSERT_EQUAL(bs.n, 2);
    bundles_unpin(&bs, pinned);
    CU_ASSERT_EQUAL(bs.n, 1);
    redisFree(c);
    bundles_free(&bs);
    engine_bundle_free(def);
}

/* Commit sha as game's current bundle the way `deckhand scripts push` does. */
static void push_current(const char *game, const char *sha)
{
    redisContext *c = conn();
    dh_liveops_state st;
    CU_ASSERT_EQUAL_FATAL(dh_liveops_watch(c, game, &st), 0);
    dh_liveops_change ch = {.current = sha, .history = sha};
    dh_audit a = {.action = "push", .game = game, .bundle = sha, .by = "test", .tests = -1};
    CU_ASSERT_EQUAL(dh_liveops_commit(c, game, &ch, &a), 1);
    redisFree(c);
}

static void test_pushed_bundle_is_announced_and_served_before_the_next_poll(void)
{
    flush_redis();
    engine_bundle *def = load_default();
    bundles bs;
    CU_ASSERT_EQUAL_FATAL(bundles_init(&bs, "wk-t", redis_url, 1000, def, 2000), 0);
    uint64_t next = bundles_tick(&bs, clock_ms, false); /* subscribes, and catches up once */
    CU_ASSERT_EQUAL(next, clock_ms + BUNDLES_SAFETY_POLL_MS);
    CU_ASSERT_TRUE_FATAL(bundles_announce_fd(&bs) >= 0);
    char v1[65];
    store_variant(def, "announced", NULL, v1);
    push_current("dominion", v1);
    /* the announcement wakes a poll on the descriptor, as it wakes the worker's loop */
    struct pollfd p = {.fd = bundles_announce_fd(&bs), .events = POLLIN};
    CU_ASSERT_EQUAL(poll(&p, 1, 2000), 1);
    /* 1 ms later on the worker's clock: no poll would be due for 2 s */
    bundles_tick(&bs, clock_ms + 1, p.revents & POLLIN);
    CU_ASSERT_STRING_EQUAL(bundles_pick(&bs, "dominion")->id, v1);
    /* nothing new announced: the next turn reads nothing from Redis */
    CU_ASSERT_EQUAL(bundles_tick(&bs, clock_ms + 2, false), clock_ms + 1 + BUNDLES_SAFETY_POLL_MS);
    bundles_free(&bs);
    engine_bundle_free(def);
}

static void test_pointer_written_by_hand_is_found_by_the_safety_poll(void)
{
    flush_redis();
    engine_bundle *def = load_default();
    bundles bs;
    CU_ASSERT_EQUAL_FATAL(bundles_init(&bs, "wk-t", redis_url, 1000, def, 2000), 0);
    bundles_tick(&bs, clock_ms, false);
    char v1[65];
    store_variant(def, "by-hand", NULL, v1);
    set_current("dominion", v1); /* no announcement */
    bundles_tick(&bs, clock_ms + 1, false);
    CU_ASSERT_PTR_EQUAL(bundles_pick(&bs, "dominion")->b, def);
    bundles_tick(&bs, clock_ms + BUNDLES_SAFETY_POLL_MS, false);
    CU_ASSERT_STRING_EQUAL(bundles_pick(&bs, "dominion")->id, v1);
    bundles_free(&bs);
    engine_bundle_free(def);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_stores_default_and_follows_current",
         test_worker_stores_default_and_follows_current},
        {"pinned_bundle_lives_until_its_last_match_ends",
         test_pinned_bundle_lives_until_its_last_match_ends},
        {"bundle_that_fails_to_load_is_reported_and_old_one_kept",
         test_bundle_that_fails_to_load_is_reported_and_old_one_kept},
        {"canary_takes_its_share_of_new_matches_until_dropped",
         test_canary_takes_its_share_of_new_matches_until_dropped},
        {"pushed_bundle_is_announced_and_served_before_the_next_poll",
         test_pushed_bundle_is_announced_and_served_before_the_next_poll},
        {"pointer_written_by_hand_is_found_by_the_safety_poll",
         test_pointer_written_by_hand_is_found_by_the_safety_poll},
        {NULL, NULL},
    };
    int started = dh_test_redis_start_free(&redis_port, &redis_pid);
    snprintf(redis_url, sizeof redis_url, "redis://127.0.0.1:%d", redis_port);
    if (started < 0) {
        fprintf(stderr, "test_bundles_worker: cannot start redis-server on port %d\n", redis_port);
        dh_test_redis_stop(&redis_pid);
        return 1;
    }
    int rc = dh_test_main("bundles_worker", cases);
    dh_test_redis_stop(&redis_pid);
    return rc;
}
