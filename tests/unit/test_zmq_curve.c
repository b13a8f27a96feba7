/*
 * test_zmq_curve.c: CURVE on the internal links, inside one process (common/dh_curve.h,
 * dh_zap.h, dh_zmq.h): a server socket behind the ZAP handler hears a client holding the
 * key its domain admits, never one with another key or none; a worker's data socket does
 * not admit the worker key; a key's role may send only its own messages; keys load from
 * the folder `deckhand keygen` writes, and a missing key stops the process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zmq.h>

#include "dh_curve.h"
#include "dh_test.h"
#include "dh_zap.h"
#include "dh_zmq.h"

#define QUIET_MS 500 /* how long "nothing arrives" is watched */

typedef struct {
    void *ctx;
    dh_curve keys; /* the server's view: matchmaker role */
    char gw_secret[41], wk_secret[41];
    dh_zap *zap;
    void *server;
    char endpoint[128];
} rig;

static void rig_open(rig *r, const char *domain)
{
    memset(r, 0, sizeof *r);
    r->ctx = zmq_ctx_new();
    r->keys.on = true;
    r->keys.role = DH_ROLE_MATCHMAKER;
    CU_ASSERT_EQUAL_FATAL(zmq_curve_keypair(r->keys.server_public, r->keys.server_secret), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_curve_keypair(r->keys.gateway_public, r->gw_secret), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_curve_keypair(r->keys.worker_public, r->wk_secret), 0);
    r->zap = dh_zap_start(r->ctx, &r->keys);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->zap);
    r->server = dh_zmq_socket(r->ctx, ZMQ_ROUTER, NULL, 100);
    CU_ASSERT_EQUAL_FATAL(dh_curve_server(r->server, &r->keys, r->zap, domain), 0);
    CU_ASSERT_EQUAL_FATAL(zmq_bind(r->server, "tcp://127.0.0.1:*"), 0);
    size_t len = sizeof r->endpoint;
    zmq_getsockopt(r->server, ZMQ_LAST_ENDPOINT, r->endpoint, &len);
}

static void rig_close(rig *r)
{
    zmq_close(r->server);
    dh_zap_stop(r->zap);
    zmq_ctx_term(r->ctx);
}

/* A client DEALER with the keypair pub/sec (NULL: no CURVE), connected. */
static void *client(rig *r, const char *pub, const char *sec)
{
    void *s = dh_zmq_socket(r->ctx, ZMQ_DEALER, "peer-1", 100);
    if (pub) {
        dh_curve c = {.on = true, .role = DH_ROLE_GATEWAY};
        snprintf(c.server_public, sizeof c.server_public, "%s", r->keys.server_public);
        snprintf(c.own_public, sizeof c.own_public, "%s", pub);
        snprintf(c.own_secret, sizeof c.own_secret, "%s", sec);
        CU_ASSERT_EQUAL_FATAL(dh_curve_client(s, &c), 0);
    }
    CU_ASSERT_EQUAL_FATAL(zmq_connect(s, r->endpoint), 0);
    return s;
}

static void send_body(void *s, int body_case)
{
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__GatewayHello gh = DECKHAND__INTERNAL__GATEWAY_HELLO__INIT;
    Deckhand__Internal__WorkerBeat wb = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    gh.gateway_id = "peer-1";
    wb.worker_id = "peer-1";
    m.body_case = body_case;
    if (body_case == DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO)
        m.gateway_hello = &gh;
    else
        m.worker_beat = &wb;
    CU_ASSERT_EQUAL(dh_zmq_send(s, NULL, &m), 0);
}

/* What the server's dh_zmq_recv returns within ms: 1 a message (its body in *body), -1
 * one dropped, 0 nothing. */
static int server_recv(rig *r, int ms, int *body)
{
    uint64_t end = dh_test_now_ms() + (uint64_t)ms;
    while (dh_test_now_ms() < end) {
        zmq_pollitem_t it = {.socket = r->server, .events = ZMQ_POLLIN};
        if (zmq_poll(&it, 1, 50) <= 0)
            continue;
        char id[DH_ZMQ_ID_MAX + 1];
        Deckhand__Internal__Internal *m = NULL;
        int rc = dh_zmq_recv(r->server, id, &m);
        if (rc == 1) {
            *body = (int)m->body_case;
            deckhand__internal__internal__free_unpacked(m, NULL);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

static void test_curve_admits_the_cluster_key(void)
{
    rig r;
    rig_open(&r, DH_CURVE_DOMAIN_MATCHMAKER);
    void *c = client(&r, r.keys.gateway_public, r.gw_secret);
    send_body(c, DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO);
    int body = 0;
    CU_ASSERT_EQUAL(server_recv(&r, 3000, &body), 1);
    CU_ASSERT_EQUAL(body, DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO);
    CU_ASSERT_EQUAL(*dh_zap_refused(r.zap), 0);
    zmq_close(c);
    rig_close(&r);
}

static void test_curve_refuses_an_unknown_key(void)
{
    rig r;
    rig_open(&r, DH_CURVE_DOMAIN_MATCHMAKER);
    char pub[41], sec[41];
    CU_ASSERT_EQUAL_FATAL(zmq_curve_keypair(pub, sec), 0);
    void *c = client(&r, pub, sec);
    send_body(c, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT);
    int body = 0;
    CU_ASSERT_EQUAL(server_recv(&r, QUIET_MS, &body), 0);
    CU_ASSERT(*dh_zap_refused(r.zap) >= 1);
    zmq_close(c);
    rig_close(&r);
}

static void test_curve_refuses_a_plaintext_peer(void)
{
    rig r;
    rig_open(&r, DH_CURVE_DOMAIN_MATCHMAKER);
    void *c = client(&r, NULL, NULL);
    send_body(c, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT);
    int body = 0;
    CU_ASSERT_EQUAL(server_recv(&r, QUIET_MS, &body), 0);
    zmq_close(c);
    rig_close(&r);
}

/* A worker's data socket admits gateways only: the worker key cannot send commands. */
static void test_curve_worker_socket_refuses_the_worker_key(void)
{
    rig r;
    rig_open(&r, DH_CURVE_DOMAIN_WORKER);
    void *c = client(&r, r.keys.worker_public, r.wk_secret);
    send_body(c, DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO);
    int body = 0;
    CU_ASSERT_EQUAL(server_recv(&r, QUIET_MS, &body), 0);
    CU_ASSERT(*dh_zap_refused(r.zap) >= 1);
    zmq_close(c);
    rig_close(&r);
}

/* The gateway key gets through, but a worker's message under it is dropped. */
static void test_curve_gateway_key_cannot_send_worker_messages(void)
{
    rig r;
    rig_open(&r, DH_CURVE_DOMAIN_MATCHMAKER);
    void *c = client(&r, r.keys.gateway_public, r.gw_secret);
    send_body(c, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT);
    int body = 0;
    CU_ASSERT_EQUAL(server_recv(&r, 3000, &body), -1);
    send_body(c, DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO);
    CU_ASSERT_EQUAL(server_recv(&r, 3000, &body), 1);
    CU_ASSERT_EQUAL(body, DECKHAND__INTERNAL__INTERNAL__BODY_GATEWAY_HELLO);
    zmq_close(c);
    rig_close(&r);
}

static void test_role_may_send_only_its_messages(void)
{
    CU_ASSERT_TRUE(dh_zmq_role_may_send("worker", DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO));
    CU_ASSERT_TRUE(
        dh_zmq_role_may_send("gateway", DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND));
    CU_ASSERT_TRUE(
        dh_zmq_role_may_send("gateway", DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS));
    CU_ASSERT_FALSE(
        dh_zmq_role_may_send("worker", DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMANDS));
    CU_ASSERT_FALSE(
        dh_zmq_role_may_send("gateway", DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_STARTED));
    CU_ASSERT_FALSE(dh_zmq_role_may_send("worker", DECKHAND__INTERNAL__INTERNAL__BODY_QUEUE_JOIN));
    CU_ASSERT_TRUE(
        dh_zmq_role_may_send("gateway", DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST));
    CU_ASSERT_FALSE(
        dh_zmq_role_may_send("worker", DECKHAND__INTERNAL__INTERNAL__BODY_CLIENT_REQUEST));
    CU_ASSERT_FALSE(
        dh_zmq_role_may_send("gateway", DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ASSIGNED));
    CU_ASSERT_FALSE(dh_zmq_role_may_send("rogue", DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT));
    CU_ASSERT_TRUE(dh_zmq_role_may_send(NULL, DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT));
}

/* Keys from a folder of files as `deckhand keygen` writes them; a missing one fails. */
static void test_curve_keys_load_from_a_folder(void)
{
    char dir[] = "/tmp/dh-test-curve-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    static const char *const names[] = {"server", "gateway", "worker"};
    for (size_t i = 0; i < 3; i++) {
        char pub[41], sec[41], path[256];
        CU_ASSERT_EQUAL_FATAL(zmq_curve_keypair(pub, sec), 0);
        snprintf(path, sizeof path, "%s/%s.public", dir, names[i]);
        FILE *fp = fopen(path, "w");
        fprintf(fp, "%s\n", pub);
        fclose(fp);
        snprintf(path, sizeof path, "%s/%s.secret", dir, names[i]);
        fp = fopen(path, "w");
        fprintf(fp, "%s\n", sec);
        fclose(fp);
        chmod(path, 0600);
    }
    dh_curve c;
    CU_ASSERT_EQUAL(dh_curve_load(&c, DH_ROLE_MATCHMAKER, dir, false), 0);
    CU_ASSERT_TRUE(c.on);
    CU_ASSERT_EQUAL(dh_curve_load(&c, DH_ROLE_WORKER, dir, false), 0);
    CU_ASSERT_EQUAL(strlen(c.own_secret), 40);
    CU_ASSERT_EQUAL(dh_curve_load(&c, DH_ROLE_GATEWAY, dir, false), 0);
    CU_ASSERT_EQUAL(c.server_secret[0], '\0'); /* a gateway never holds the server secret */
    char path[256];
    snprintf(path, sizeof path, "%s/worker.secret", dir);
    remove(path);
    CU_ASSERT_EQUAL(dh_curve_load(&c, DH_ROLE_WORKER, dir, false), -1);
    CU_ASSERT_EQUAL(dh_curve_load(&c, DH_ROLE_WORKER, "/nonexistent", false), -1);
    CU_ASSERT_EQUAL(dh_curve_load(&c, DH_ROLE_WORKER, "/nonexistent", true), 0);
    CU_ASSERT_FALSE(c.on);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Without the ZAP handler a CURVE server socket is refused (libzmq would admit anyone). */
static void test_curve_server_needs_the_zap_handler(void)
{
    void *ctx = zmq_ctx_new();
    dh_curve c = {.on = true, .role = DH_ROLE_MATCHMAKER};
    CU_ASSERT_EQUAL_FATAL(zmq_curve_keypair(c.server_public, c.server_secret), 0);
    void *s = dh_zmq_socket(ctx, ZMQ_ROUTER, NULL, 100);
    CU_ASSERT_EQUAL(dh_curve_server(s, &c, NULL, DH_CURVE_DOMAIN_MATCHMAKER), -1);
    zmq_close(s);
    zmq_ctx_term(ctx);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"curve_admits_the_cluster_key", test_curve_admits_the_cluster_key},
        {"curve_refuses_an_unknown_key", test_curve_refuses_an_unknown_key},
        {"curve_refuses_a_plaintext_peer", test_curve_refuses_a_plaintext_peer},
        {"curve_worker_socket_refuses_the_worker_key",
         test_curve_worker_socket_refuses_the_worker_key},
        {"curve_gateway_key_cannot_send_worker_messages",
         test_curve_gateway_key_cannot_send_worker_messages},
        {"role_may_send_only_its_messages", test_role_may_send_only_its_messages},
        {"curve_keys_load_from_a_folder", test_curve_keys_load_from_a_folder},
        {"curve_server_needs_the_zap_handler", test_curve_server_needs_the_zap_handler},
        {NULL, NULL},
    };
    return dh_test_main("zmq_curve", cases);
}
