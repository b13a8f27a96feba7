/*
 * test_redis_cluster.c: common/dh_redis routing against a real Redis Cluster of three
 * redis-server nodes (tests/unit/rig_rcluster.h): commands and pipelines reach the node
 * serving each key's slot; a slot moved under a stale map answers MOVED, which is
 * followed (and the map read again); a slot mid-migration answers ASK for a key already
 * moved, which is followed with ASKING; a script unknown to a node is loaded there. The
 * asynchronous routing (dh_redis_async.h, the gateway's) follows MOVED on the same router.
 */
#include <hiredis/adapters/libuv.h>
#include <string.h>

#include "dh_redis.h"
#include "dh_redis_async.h"
#include "dh_slot.h"
#include "dh_test.h"
#include "rig_rcluster.h"

static rig_rcluster rc;
static int up = -1;

/* Node 0 serves 0..8191, node 1 8192..16383, node 2 nothing (a slot's new home). */
static int cluster_up(void)
{
    if (up < 0) {
        const int from[] = {0, 8192, 1}, to[] = {8191, 16383, 0};
        up = rig_rcluster_start(&rc, 3, from, to) == 0;
    }
    return up;
}

static void cluster_url(char *out, size_t n)
{
    snprintf(out, n, "redis+cluster://127.0.0.1:%d,127.0.0.1:%d", rc.port[1], rc.port[0]);
}

/* A key whose slot node i serves (tag t). */
static const char *key_on(int node, char *buf, size_t n)
{
    for (int t = 0;; t++) {
        snprintf(buf, n, "k:{%d}", t);
        int s = dh_slot_of(buf, strlen(buf));
        if ((node == 0 && s < 8192) || (node == 1 && s >= 8192))
            return buf;
    }
}

/* GET key straight from node i: its value, or "" (nothing there, or a redirect). */
static void direct_get(int i, const char *key, char *out, size_t n)
{
    redisReply *r = redisCommand(rc.c[i], "GET %s", key);
    snprintf(out, n, "%s", r && r->type == REDIS_REPLY_STRING ? r->str : "");
    if (r)
        freeReplyObject(r);
}

static void test_redis_cluster_routes_each_key_to_its_node(void)
{
    CU_ASSERT_FATAL(cluster_up());
    char url[128], k0[32], k1[32], v[32];
    cluster_url(url, sizeof url);
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, url, 1000), 0);
    key_on(0, k0, sizeof k0);
    key_on(1, k1, sizeof k1);
    const char *set0[] = {"SET", k0, "zero"}, *set1[] = {"SET", k1, "one"};
    dh_redis_cmd cmds[] = {{.argc = 3, .argv = set0}, {.argc = 3, .argv = set1}};
    redisReply *out[2];
    CU_ASSERT_EQUAL_FATAL(dh_redis_pipeline(&rd, 1, cmds, 2, out), 0);
    CU_ASSERT_EQUAL(out[0]->type, REDIS_REPLY_STATUS);
    CU_ASSERT_EQUAL(out[1]->type, REDIS_REPLY_STATUS);
    freeReplyObject(out[0]);
    freeReplyObject(out[1]);
    direct_get(0, k0, v, sizeof v);
    CU_ASSERT_STRING_EQUAL(v, "zero");
    direct_get(1, k1, v, sizeof v);
    CU_ASSERT_STRING_EQUAL(v, "one");
    CU_ASSERT_EQUAL(rd.nnodes, 2); /* the masters with slots */
    CU_ASSERT_EQUAL(rd.redirects, 0);
    dh_redis_close(&rd);
}

static void test_redis_cluster_follows_moved_and_ask(void)
{
    CU_ASSERT_FATAL(cluster_up());
    char url[128], k[32], k2[32], v[32];
    cluster_url(url, sizeof url);
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, url, 1000), 0);
    key_on(0, k, sizeof k);
    const char *set[] = {"SET", k, "moved"};
    redisReply *r = dh_redis_command(&rd, 1, 3, set, NULL); /* reads the map: k on node 0 */
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    /* The slot moves to node 2; rd's map still says node 0, which answers MOVED. */
    int slot = dh_slot_of(k, strlen(k));
    CU_ASSERT_EQUAL_FATAL(rig_rcluster_move_slot(&rc, slot, 0, 2, 1), 0);
    const char *get[] = {"GET", k};
    r = dh_redis_command(&rd, 2, 2, get, NULL);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    CU_ASSERT_STRING_EQUAL(r->str, "moved");
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rd.redirects, 1);
    CU_ASSERT_TRUE(rd.stale); /* the whole map is read again before the next command */
    /* A slot mid-migration: a key already on node 2 while node 1 still owns the slot. */
    key_on(1, k2, sizeof k2);
    const char *set2[] = {"SET", k2, "asked"};
    r = dh_redis_command(&rd, 3, 3, set2, NULL);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    int slot2 = dh_slot_of(k2, strlen(k2));
    CU_ASSERT_EQUAL_FATAL(rig_rcluster_move_slot(&rc, slot2, 1, 2, 0), 0);
    direct_get(1, k2, v, sizeof v);
    CU_ASSERT_STRING_EQUAL(v, ""); /* node 1 answers ASK now */
    const char *get2[] = {"GET", k2};
    r = dh_redis_command(&rd, 4, 2, get2, NULL);
    CU_ASSERT_TRUE_FATAL(r && r->type == REDIS_REPLY_STRING);
    CU_ASSERT_STRING_EQUAL(r->str, "asked");
    freeReplyObject(r);
    CU_ASSERT_EQUAL(rd.redirects, 2);
    dh_redis_close(&rd);
}

static void test_redis_cluster_loads_a_script_on_each_node(void)
{
    CU_ASSERT_FATAL(cluster_up());
    char url[128], k0[32], k1[32];
    cluster_url(url, sizeof url);
    dh_redis rd;
    CU_ASSERT_EQUAL_FATAL(dh_redis_init(&rd, url, 1000), 0);
    for (int i = 0; i < rc.n; i++) {
        redisReply *f = redisCommand(rc.c[i], "SCRIPT FLUSH");
        if (f)
            freeReplyObject(f);
    }
    dh_script s;
    dh_script_init(&s, "return redis.call('INCR', KEYS[1])");
    key_on(0, k0, sizeof k0);
    key_on(1, k1, sizeof k1);
    const char *del[] = {"DEL", k0}, *del1[] = {"DEL", k1}; /* the earlier tests' strings */
    freeReplyObject(dh_redis_command(&rd, 1, 2, del, NULL));
    freeReplyObject(dh_redis_command(&rd, 1, 2, del1, NULL));
    const char *a0[] = {"EVALSHA", s.sha, "1", k0}, *a1[] = {"EVALSHA", s.sha, "1", k1};
    dh_redis_cmd cmds[] = {{.argc = 4, .argv = a0, .script = &s},
                           {.argc = 4, .argv = a1, .script = &s}};
    redisReply *out[2];
    CU_ASSERT_EQUAL_FATAL(dh_redis_pipeline(&rd, 1, cmds, 2, out), 0);
    CU_ASSERT_TRUE(out[0]->type == REDIS_REPLY_INTEGER && out[0]->integer == 1);
    CU_ASSERT_TRUE(out[1]->type == REDIS_REPLY_INTEGER && out[1]->integer == 1);
    freeReplyObject(out[0]);
    freeReplyObject(out[1]);
    dh_redis_close(&rd);
}

/* dh_redis_async's hooks on a libuv loop of the test's own. */
static redisAsyncContext *async_open(void *ud, const char *host, int port)
{
    redisAsyncContext *ac = redisAsyncConnect(host, port);
    if (ac && (ac->err || redisLibuvAttach(ac, ud) != REDIS_OK)) {
        redisAsyncFree(ac);
        return NULL;
    }
    return ac;
}

static uint64_t async_now(void *ud)
{
    return uv_now(ud);
}

static void async_got(redisAsyncContext *ac, void *reply, void *priv)
{
    redisReply *r = reply;
    snprintf(priv, 32, "%s",
             r && r->type == REDIS_REPLY_STRING ? r->str
             : r                                ? "(other)"
                                                : "(none)");
}

/* One command through a, its reply's text into got once the loop has run it. */
static void async_run(dh_redis_async *a, uv_loop_t *loop, const char **argv, int argc, char *got)
{
    got[0] = '\0';
    CU_ASSERT_EQUAL_FATAL(dh_redis_async_send(a, async_got, got, argc, argv, NULL), 0);
    for (int i = 0; i < 500 && !got[0]; i++)
        uv_run(loop, UV_RUN_ONCE);
}

static void test_redis_cluster_async_follows_moved(void)
{
    CU_ASSERT_FATAL(cluster_up());
    char url[128], k[32], got[32];
    cluster_url(url, sizeof url);
    uv_loop_t loop;
    uv_loop_init(&loop);
    dh_redis_async_hooks hooks = {.open = async_open, .now_ms = async_now, .ud = &loop};
    dh_redis_async *a = dh_redis_async_new(url, &hooks);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    int slot = -1;
    for (int t = 0; slot < 0 || slot >= 8192; t++) { /* a key on node 0 no test moved */
        snprintf(k, sizeof k, "async:%d", t);        /* no tag: not the slot of {0} */
        slot = dh_slot_of(k, strlen(k));
    }
    const char *set[] = {"SET", k, "routed"}, *get[] = {"GET", k};
    async_run(a, &loop, set, 3, got);
    CU_ASSERT_STRING_EQUAL(got, "(other)"); /* +OK */
    CU_ASSERT_EQUAL(rig_rcluster_move_slot(&rc, slot, 0, 2, 1), 0);
    async_run(a, &loop, get, 2, got); /* node 0 answers MOVED: sent again to node 2 */
    CU_ASSERT_STRING_EQUAL(got, "routed");
    CU_ASSERT_TRUE(dh_redis_async_any(a));
    dh_redis_async_free(a);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

static void test_redis_cluster_cleanup(void)
{
    rig_rcluster_stop(&rc);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"redis_cluster_routes_each_key_to_its_node",
         test_redis_cluster_routes_each_key_to_its_node},
        {"redis_cluster_follows_moved_and_ask", test_redis_cluster_follows_moved_and_ask},
        {"redis_cluster_loads_a_script_on_each_node",
         test_redis_cluster_loads_a_script_on_each_node},
        {"redis_cluster_async_follows_moved", test_redis_cluster_async_follows_moved},
        {"redis_cluster_cleanup", test_redis_cluster_cleanup},
        {NULL, NULL},
    };
    return dh_test_main("redis_cluster", cases);
}
