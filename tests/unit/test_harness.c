/*
 * test_harness.c: the shared harness's own promises (dh_test.h) that other tests lean on:
 * the ports it hands out, and that the Redis it starts is the one a test talks to.
 */
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dh_test.h"

/* The kernel picks a client connection's port from 32768 up (ip_local_port_range): a
 * server port there can be taken by any test's outgoing connection before it binds. */
#define CLIENT_PORTS_FIRST 32768

static bool bindable(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

static void test_free_ports_lie_below_the_kernels_client_range_and_differ(void)
{
    int a = dh_test_free_port(), b = dh_test_free_port();
    CU_ASSERT_TRUE(a >= 1024 && a < CLIENT_PORTS_FIRST);
    CU_ASSERT_TRUE(b >= 1024 && b < CLIENT_PORTS_FIRST);
    CU_ASSERT_NOT_EQUAL(a, b);
    CU_ASSERT_TRUE(bindable(a));
    CU_ASSERT_TRUE(bindable(b));
}

/* A second server on a port the first holds cannot bind it; the start must say so rather
 * than take the first server's answer for its own. */
static void test_redis_start_fails_on_a_port_another_server_holds(void)
{
    int port = -1;
    pid_t first = -1, second = -1;
    CU_ASSERT_EQUAL_FATAL(dh_test_redis_start_free(&port, &first), 0);
    CU_ASSERT_EQUAL(dh_test_redis_start(port, &second), -1);
    CU_ASSERT_EQUAL(second, -1);
    CU_ASSERT_EQUAL(kill(first, 0), 0); /* the first server still runs */
    dh_test_redis_stop(&second);
    dh_test_redis_stop(&first);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"free_ports_lie_below_the_kernels_client_range_and_differ",
         test_free_ports_lie_below_the_kernels_client_range_and_differ},
        {"redis_start_fails_on_a_port_another_server_holds",
         test_redis_start_fails_on_a_port_another_server_holds},
        {NULL, NULL},
    };
    return dh_test_main("harness", cases);
}
