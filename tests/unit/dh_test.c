/*
 * dh_test.c: the shared CUnit runner behind dh_test.h.
 */
#include "dh_test.h"

#include <CUnit/Basic.h>
#include <arpa/inet.h>
#include <hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dh_clock.h"

int dh_test_main(const char *suite, const dh_test_case *cases)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite s = CU_add_suite(suite, NULL, NULL);
    if (!s)
        goto err;
    for (const dh_test_case *c = cases; c->name; c++)
        if (!CU_add_test(s, c->name, c->fn))
            goto err;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return (failed == 0 && run > 0) ? 0 : 1;
err:
    fprintf(stderr, "%s: CUnit setup failed: %s\n", suite, CU_get_error_msg());
    CU_cleanup_registry();
    return 2;
}

const char *dh_test_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", DECKHAND_SOURCE_DIR, rel);
    return buf;
}

void dh_test_capture_stderr(void (*fn)(void), char *out, size_t cap)
{
    FILE *tmp = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(tmp);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t got = fread(out, 1, cap - 1, tmp);
    out[got] = '\0';
    fclose(tmp);
}

uint64_t dh_test_now_ms(void)
{
    return dh_now_ms();
}

/* The block dh_test_free_port hands out: below 32768, where the kernel never picks a
 * client connection's port (ip_local_port_range starts at 32768), so a port it returns
 * cannot be taken by some test's outgoing connection before the server binds it; and
 * clear of the other blocks the tests use (the gateway rig's 17000-18999, the e2e tests'
 * 19000 and up). */
#define FREE_PORT_FIRST 15000
#define FREE_PORT_COUNT 2000

int dh_test_free_port(void)
{
    /* Each call starts past the last port it gave, from a place that depends on the pid,
     * so that the test programs ctest runs side by side rarely try the same ports. */
    static unsigned next;
    static bool seeded;
    if (!seeded) {
        next = (unsigned)getpid() * 53u % FREE_PORT_COUNT;
        seeded = true;
    }
    for (unsigned k = 0; k < FREE_PORT_COUNT; k++) {
        int port = FREE_PORT_FIRST + (int)(next++ % FREE_PORT_COUNT);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            return -1;
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok)
            return port;
    }
    return -1;
}

/* True when the Redis on 127.0.0.1:port answers and is the process pid (INFO's
 * process_id): a server of another test on that port is not ours. */
static bool redis_answers(int port, pid_t pid)
{
    struct timeval tv = {.tv_sec = 0, .tv_usec = 200000};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
    bool ours = false;
    if (c && !c->err) {
        redisReply *r = redisCommand(c, "INFO server");
        if (r && r->type == REDIS_REPLY_STRING) {
            const char *at = strstr(r->str, "process_id:");
            ours = at && atol(at + strlen("process_id:")) == (long)pid;
        }
        if (r)
            freeReplyObject(r);
    }
    if (c)
        redisFree(c);
    return ours;
}

void dh_test_redis_dir(int port, char *out, size_t cap)
{
    snprintf(out, cap, "/tmp/dh-test-redis-%d", port);
}

int dh_test_redis_start(int port, pid_t *pid)
{
    char portstr[16], dir[64];
    snprintf(portstr, sizeof portstr, "%d", port);
    dh_test_redis_dir(port, dir, sizeof dir);
    mkdir(dir, 0700);
    *pid = fork();
    if (*pid < 0)
        return -1;
    if (*pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execlp("redis-server", "redis-server", "--port", portstr, "--bind", "127.0.0.1", "--save",
               "", "--appendonly", "no", "--daemonize", "no", "--dir", dir, (char *)NULL);
        _exit(127);
    }
    /* Up when the server on the port is our child; a child that exited could not bind the
     * port (another test's server holds it), and waiting on is pointless. */
    for (int i = 0; i < 200; i++) {
        if (waitpid(*pid, NULL, WNOHANG) == *pid) {
            *pid = -1;
            return -1;
        }
        if (redis_answers(port, *pid))
            return 0;
        usleep(50000);
    }
    dh_test_redis_stop(pid);
    return -1;
}

int dh_test_redis_start_free(int *port, pid_t *pid)
{
    for (int tries = 0; tries < 5; tries++) {
        *port = dh_test_free_port();
        if (*port > 0 && dh_test_redis_start(*port, pid) == 0)
            return 0;
    }
    return -1;
}

void dh_test_redis_stop(pid_t *pid)
{
    if (*pid > 0) {
        kill(*pid, SIGKILL);
        waitpid(*pid, NULL, 0);
    }
    *pid = -1;
}

int dh_test_run(const char *cmd, char *out, size_t cap)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
