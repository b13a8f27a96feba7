/*
 * test_internal_auth.c: the internal links are authenticated (docs/SECURITY.md, "a rogue
 * process on the network"). On a real cluster (scripts/lib/cluster.sh, ports from 28500),
 * a process without the cluster's CURVE keys cannot register as a worker with the
 * matchmaker nor inject a player's command into a worker, whether it speaks plaintext or
 * CURVE with a key of its own: nothing happens, and the refusals are counted
 * (deckhand_internal_auth_refused_total). A process holding the gateway's key cannot
 * register as a worker either: each key may send only its own role's messages.
 */
#include "dh_client_env.h"
#include "dh_test.h"
#include "dh_zmq.h"
#include "rig_cluster.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zmq.h>

#define PORT_BASE 28500
#define TRY_MS    1500 /* how long a rogue keeps trying */

static void *g_ctx;

/* ---- helpers ----------------------------------------------------------------------------- */

/* GET path from HOST:PORT (the operator port) into out; 0, or -1. */
static int http_get(const char *hostport, const char *path, char *out, size_t cap)
{
    char host[64];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t)(colon - hostport) >= sizeof host)
        return -1;
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || inet_pton(AF_INET, host, &a.sin_addr) != 1 ||
        connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\n\r\n", path);
    size_t got = 0;
    if (write(fd, req, (size_t)n) != n) {
        close(fd);
        return -1;
    }
    ssize_t r;
    while (got + 1 < cap && (r = read(fd, out + got, cap - 1 - got)) > 0)
        got += (size_t)r;
    out[got] = '\0';
    close(fd);
    return 0;
}

/* The value of metric NAME (a line "NAME VALUE") on the operator port named by ENV_KEY of
 * cluster.env; -1 when it cannot be read. */
static long metric(const char *env_key, const char *name)
{
    char hostport[128], body[65536];
    if (rc_env(env_key, hostport, sizeof hostport) != 0 ||
        http_get(hostport, "/metrics", body, sizeof body) != 0)
        return -1;
    size_t nl = strlen(name);
    for (char *p = body; (p = strstr(p, name)) != NULL; p += nl) {
        if ((p == body || p[-1] == '\n') && p[nl] == ' ')
            return strtol(p + nl + 1, NULL, 10);
    }
    return -1;
}

/* A 40-character Z85 key from RUNDIR/keys/NAME into out; false when there is none. */
static bool read_key(const char *name, char out[41])
{
    char path[512];
    snprintf(path, sizeof path, "%s/keys/%s", rc_dir(), name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    bool ok = fscanf(fp, "%40s", out) == 1 && strlen(out) == 40;
    fclose(fp);
    return ok;
}

typedef enum {
    ROGUE_PLAIN,       /* no CURVE at all */
    ROGUE_OWN_KEY,     /* CURVE with the right server key and a key of its own */
    ROGUE_GATEWAY_KEY, /* the cluster's gateway key (a stolen or misused one) */
} rogue_kind;

/* A DEALER named id connected to endpoint as kind; NULL when it cannot be set up. */
static void *rogue_open(rogue_kind kind, const char *id, const char *endpoint)
{
    void *s = dh_zmq_socket(g_ctx, ZMQ_DEALER, id, 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    char server[41], pub[41], sec[41];
    if (kind != ROGUE_PLAIN) {
        if (!read_key("server.public", server))
            zmq_curve_keypair(server, sec); /* no cluster key (CURVE off): any key */
        bool keyed = kind == ROGUE_OWN_KEY
                         ? zmq_curve_keypair(pub, sec) == 0
                         : read_key("gateway.public", pub) && read_key("gateway.secret", sec);
        CU_ASSERT_FATAL(keyed);
        zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, server, 40);
        zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40);
        zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40);
    }
    CU_ASSERT_EQUAL_FATAL(zmq_connect(s, endpoint), 0);
    return s;
}

/* Send msg every 100 ms for TRY_MS; the number of messages the rogue got back. */
static int rogue_try(void *s, const Deckhand__Internal__Internal *msg)
{
    int answers = 0;
    uint64_t end = dh_test_now_ms() + TRY_MS;
    while (dh_test_now_ms() < end) {
        dh_zmq_send(s, NULL, msg);
        zmq_pollitem_t it = {.socket = s, .events = ZMQ_POLLIN};
        if (zmq_poll(&it, 1, 100) > 0) {
            Deckhand__Internal__Internal *in = NULL;
            if (dh_zmq_recv(s, NULL, &in) == 1) {
                answers++;
                deckhand__internal__internal__free_unpacked(in, NULL);
            }
        }
    }
    return answers;
}

/* A rogue of kind says WorkerHello to the matchmaker as wk-rogue. */
static void rogue_worker_hello(rogue_kind kind)
{
    char mm[128];
    CU_ASSERT_EQUAL_FATAL(rc_env("DECKHAND_MATCHMAKER", mm, sizeof mm), 0);
    void *s = rogue_open(kind, "wk-rogue", mm);
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__WorkerHello h = DECKHAND__INTERNAL__WORKER_HELLO__INIT;
    Deckhand__Internal__GameInfo g = DECKHAND__INTERNAL__GAME_INFO__INIT;
    Deckhand__Internal__GameInfo *games[] = {&g};
    g.name = "dominion";
    g.min_players = 2;
    g.max_players = 4;
    h.worker_id = "wk-rogue";
    h.endpoint = "tcp://127.0.0.1:1";
    h.games = games;
    h.n_games = 1;
    h.capacity = 1000;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_HELLO;
    m.worker_hello = &h;
    rogue_try(s, &m);
    Deckhand__Internal__WorkerBeat b = DECKHAND__INTERNAL__WORKER_BEAT__INIT;
    b.worker_id = "wk-rogue";
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_WORKER_BEAT;
    m.worker_beat = &b;
    rogue_try(s, &m);
    zmq_close(s);
    CU_ASSERT_EQUAL(metric("DECKHAND_HTTP_MATCHMAKER", "deckhand_matchmaker_workers_alive"), 2);
}

/* ---- the tests ------------------------------------------------------------------------- */

static void test_plaintext_rogue_cannot_register_as_worker(void)
{
    rogue_worker_hello(ROGUE_PLAIN);
}

static void test_rogue_with_its_own_key_cannot_register_as_worker(void)
{
    long before = metric("DECKHAND_HTTP_MATCHMAKER", "deckhand_internal_auth_refused_total");
    rogue_worker_hello(ROGUE_OWN_KEY);
    long after = metric("DECKHAND_HTTP_MATCHMAKER", "deckhand_internal_auth_refused_total");
    CU_ASSERT(before >= 0 && after > before);
}

static void test_gateway_key_cannot_register_as_worker(void)
{
    rogue_worker_hello(ROGUE_GATEWAY_KEY);
}

/* A rogue sends a player's Resync for a match to a worker's data socket: a worker that
 * took it would answer (UNKNOWN_MATCH); an authenticated one never hears it. */
static void rogue_command(rogue_kind kind)
{
    char workers[512];
    CU_ASSERT_EQUAL_FATAL(rc_env("DECKHAND_WORKERS", workers, sizeof workers), 0);
    char *comma = strchr(workers, ',');
    if (comma)
        *comma = '\0';
    void *s = rogue_open(kind, "gw-rogue", workers);
    Deckhand__Internal__Internal m = DECKHAND__INTERNAL__INTERNAL__INIT;
    Deckhand__Internal__PlayerCommand pc = DECKHAND__INTERNAL__PLAYER_COMMAND__INIT;
    Deckhand__Resync rs = DECKHAND__RESYNC__INIT;
    pc.match_id = "m-rogue";
    pc.player_id = "p-rogue";
    pc.cmd_id = 1;
    pc.body_case = DECKHAND__INTERNAL__PLAYER_COMMAND__BODY_RESYNC;
    pc.resync = &rs;
    m.body_case = DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND;
    m.player_command = &pc;
    CU_ASSERT_EQUAL(rogue_try(s, &m), 0);
    zmq_close(s);
}

static void test_plaintext_rogue_cannot_send_commands_to_a_worker(void)
{
    rogue_command(ROGUE_PLAIN);
}

static void test_rogue_with_its_own_key_cannot_send_commands_to_a_worker(void)
{
    long before = metric("DECKHAND_HTTP_WORKER_1", "deckhand_internal_auth_refused_total");
    rogue_command(ROGUE_OWN_KEY);
    long after = metric("DECKHAND_HTTP_WORKER_1", "deckhand_internal_auth_refused_total");
    CU_ASSERT(before >= 0 && after > before);
}

/* CURVE is on unless asked off: a process without its keys does not start, and says
 * which key it misses. */
static void test_process_without_keys_refuses_to_start(void)
{
    char worker[512];
    snprintf(worker, sizeof worker, "deckhand-worker --scripts '%s'", dh_test_path("scripts"));
    const char *const procs[] = {"deckhand-matchmaker --redis none", worker,
                                 "deckhand-gateway --redis none"};
    for (size_t i = 0; i < 3; i++) {
        char cmd[2048], out[512] = "";
        snprintf(cmd, sizeof cmd,
                 "env -u DECKHAND_CURVE_DIR timeout 20 '%s'/%s --bind tcp://127.0.0.1:%d "
                 "2>&1 | grep -o 'CURVE key [a-z.]* missing' | head -n 1",
                 DECKHAND_BIN_DIR, procs[i], PORT_BASE + 98);
        if (i == 2) /* a gateway binds no ZeroMQ socket: its own ports instead */
            snprintf(cmd, sizeof cmd,
                     "env -u DECKHAND_CURVE_DIR timeout 20 '%s'/%s --tcp 127.0.0.1:%d "
                     "--ws 127.0.0.1:%d 2>&1 | grep -o 'CURVE key [a-z.]* missing' | head -n 1",
                     DECKHAND_BIN_DIR, procs[i], PORT_BASE + 98, PORT_BASE + 99);
        FILE *p = popen(cmd, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        if (!fgets(out, sizeof out, p))
            out[0] = '\0';
        pclose(p);
        CU_ASSERT_EQUAL(strncmp(out, "CURVE key server.public missing", 31), 0);
        if (strncmp(out, "CURVE key", 9) != 0)
            fprintf(stderr, "%s: '%s'\n", procs[i], out);
    }
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"plaintext_rogue_cannot_register_as_worker",
         test_plaintext_rogue_cannot_register_as_worker},
        {"rogue_with_its_own_key_cannot_register_as_worker",
         test_rogue_with_its_own_key_cannot_register_as_worker},
        {"gateway_key_cannot_register_as_worker", test_gateway_key_cannot_register_as_worker},
        {"plaintext_rogue_cannot_send_commands_to_a_worker",
         test_plaintext_rogue_cannot_send_commands_to_a_worker},
        {"rogue_with_its_own_key_cannot_send_commands_to_a_worker",
         test_rogue_with_its_own_key_cannot_send_commands_to_a_worker},
        {"process_without_keys_refuses_to_start", test_process_without_keys_refuses_to_start},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    if (rc_start("internal-auth", PORT_BASE) != 0)
        return 1;
    g_ctx = zmq_ctx_new();
    int rc = dh_test_main("e2e_internal_auth", cases);
    zmq_ctx_term(g_ctx);
    return rc_finish(rc);
}
