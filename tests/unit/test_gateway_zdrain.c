/*
 * test_gateway_zdrain.c: the gateway looks at a ZeroMQ socket only when something may wait
 * on it (gateway/zsock.c): its poll fired, or a send touched it. Every look at a socket
 * with nothing queued costs ZeroMQ system calls, and the gateway used to look at every
 * socket on every loop turn. Counted by deckhand_gateway_zmq_drains_total, read from a
 * second gateway's operator port (--http), with the real binary (rig_gateway.h). And the
 * looks it still makes lose nothing: a worker's answers that arrive while the gateway
 * sends on the same socket all reach the player.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rig_gateway.h"

#define ZD_DEAD_EP "tcp://127.0.0.1:1" /* a worker endpoint nothing listens on */

/* The value of counter name on the operator port, or -1. */
static long long zd_metric(int port, const char *name)
{
    char buf[1 << 16];
    size_t len = 0;
    int fd = rg_tcp_connect(port);
    if (fd < 0)
        return -1;
    static const char req[] = "GET /metrics HTTP/1.0\r\n\r\n";
    rg_send_all(fd, req, sizeof req - 1);
    ssize_t n;
    while (len < sizeof buf - 1 &&
           (n = rg_read_some(fd, buf + len, sizeof buf - 1 - len, 3000)) > 0)
        len += (size_t)n;
    close(fd);
    buf[len] = '\0';
    char key[128];
    snprintf(key, sizeof key, "\n%s ", name);
    const char *p = strstr(buf, key);
    return p ? atoll(p + strlen(key)) : -1;
}

/* A player on gateway 2 resyncs match_id, which Redis routes to endpoint; when sock is a
 * rig worker, it takes the command and answers it through gateway 2. */
static void zd_route_through(rg_client *c, const char *pid, uint64_t cmd_id, const char *match_id,
                             const char *endpoint, void *sock)
{
    char from[DH_ZMQ_ID_MAX + 1];
    CU_ASSERT_FATAL(rg_redis_route(match_id, match_id, endpoint));
    rg_send_resync(c, cmd_id, match_id);
    if (!sock)
        return;
    Deckhand__Internal__Internal *in =
        rg_expect_internal(sock, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
    CU_ASSERT_EQUAL(in->player_command->cmd_id, cmd_id);
    deckhand__internal__internal__free_unpacked(in, NULL);
    rg_worker_answer_via(sock, RG_GW2_ID, pid, cmd_id, DECKHAND__ERROR_CODE__OK);
    rg_expect_reply(c, cmd_id, DECKHAND__ERROR_CODE__OK);
}

static void zd_stop(pid_t gw2)
{
    int status = 0;
    kill(gw2, SIGTERM);
    waitpid(gw2, &status, 0);
    CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Four ZeroMQ sockets (the matchmaker's and three workers'), then two idle seconds: eight
 * ticks at least, each a loop turn. Looking at every socket every turn is 32 looks or
 * more; only the touched ones, the matchmaker's (its hello and its readiness check) and
 * none of the workers', is about 10. */
static void test_gateway_idle_loop_turns_look_at_no_worker_socket(void)
{
    char pid[64], url[64], http[32];
    if (rg.redis_pid <= 0)
        return; /* the routes come from Redis */
    int port = dh_test_free_port();
    CU_ASSERT_FATAL(port > 0);
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", rg.redis_port);
    snprintf(http, sizeof http, "127.0.0.1:%d", port);
    const char *extra[] = {"--http", http, NULL};
    pid_t gw2 = rg_start_gateway2_with(RG_GW2_ID, url, RG_TOKEN_KEY, extra);
    CU_ASSERT_FATAL(gw2 > 0);
    rg_client *c = rg_open_port(rg.gw2_port);
    rg_login(c, "zed", pid, NULL);
    zd_route_through(c, pid, 11, "m-zd1", rg.worker_ep, rg.worker);
    zd_route_through(c, pid, 12, "m-zd2", rg.worker2_ep, rg.worker2);
    zd_route_through(c, pid, 13, "m-zd3", ZD_DEAD_EP, NULL);
    usleep(300 * 1000); /* the last lookup answered, its dealer opened */

    long long before = zd_metric(port, "deckhand_gateway_zmq_drains_total");
    usleep(2000 * 1000);
    long long after = zd_metric(port, "deckhand_gateway_zmq_drains_total");
    CU_ASSERT_TRUE(before > 0);
    CU_ASSERT_TRUE(after >= before);
    CU_ASSERT_TRUE(after - before <= 20);
    if (after - before > 20)
        fprintf(stderr, "%lld looks at ZeroMQ sockets in 2 idle seconds\n", after - before);
    rg_close(c);
    zd_stop(gw2);
}

/* A worker's answers sent while the gateway is sending on the same socket (a burst of
 * commands, each answered as it comes): every answer reaches the player. */
static void test_gateway_answers_arriving_while_it_sends_all_arrive(void)
{
    char pid[64], from[DH_ZMQ_ID_MAX + 1];
    rg_client *c = rg_open_in_match("zoe", pid, "m-zd4");
    rg_worker_answer(rg.worker, pid, 0, DECKHAND__ERROR_CODE__OK);
    enum { N = 40 };
    for (uint64_t i = 1; i <= N; i++) {
        rg_send_resync(c, 100 + i, "m-zd4");
        Deckhand__Internal__Internal *in =
            rg_expect_internal(rg.worker, from, DECKHAND__INTERNAL__INTERNAL__BODY_PLAYER_COMMAND);
        deckhand__internal__internal__free_unpacked(in, NULL);
        rg_worker_answer(rg.worker, pid, 100 + i, DECKHAND__ERROR_CODE__OK);
    }
    for (uint64_t i = 1; i <= N; i++)
        rg_expect_reply(c, 100 + i, DECKHAND__ERROR_CODE__OK);
    rg_close(c);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"gateway_idle_loop_turns_look_at_no_worker_socket",
         test_gateway_idle_loop_turns_look_at_no_worker_socket},
        {"gateway_answers_arriving_while_it_sends_all_arrive",
         test_gateway_answers_arriving_while_it_sends_all_arrive},
        {"gateway_sigterm_exits_zero", rg_test_sigterm_exits_zero},
        {NULL, NULL},
    };
    return rg_main("gateway_zdrain", cases);
}
