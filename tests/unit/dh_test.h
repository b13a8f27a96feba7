/*
 * dh_test.h: the tiny harness every CUnit test program shares, so a test file holds only
 * its tests: list them in a dh_test_case array and call dh_test_main from main().
 */
#ifndef DECKHAND_DH_TEST_H
#define DECKHAND_DH_TEST_H

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
    const char *name;
    void (*fn)(void);
} dh_test_case;

/* Runs the cases (terminated by {NULL, NULL}) as one suite with CUnit's basic runner.
 * Returns the process exit code: 0 when every test passed. */
int dh_test_main(const char *suite, const dh_test_case *cases);

/* Path of a file in the source tree, e.g. dh_test_path("scripts"). Static buffer. */
const char *dh_test_path(const char *rel);

/* Runs fn with stderr sent to a temporary file; what it wrote (up to cap-1 bytes) into
 * out, NUL-terminated. For the tests of what the logs say. */
void dh_test_capture_stderr(void (*fn)(void), char *out, size_t cap);

/* Milliseconds on the monotonic clock. */
uint64_t dh_test_now_ms(void);

/* Runs the shell command cmd; its standard output (up to cap-1 bytes) into out, and its
 * exit status, or -1 when it could not run or did not exit. */
int dh_test_run(const char *cmd, char *out, size_t cap);

/* A TCP port on 127.0.0.1 that was free a moment ago, or -1: one of 15000-16999, below the
 * kernel's range for client ports (32768 and up), a different one each call. */
int dh_test_free_port(void);

/* Tests that need Redis use a real redis-server, started here on 127.0.0.1:port with no
 * persistence. dh_test_redis_start waits until it answers PING (10 s at most) and sets
 * *pid; 0 on success, -1 on failure. dh_test_redis_stop kills and reaps it, sets *pid to
 * -1, and may be called again (tests stop and restart Redis to simulate an outage). */
int dh_test_redis_start(int port, pid_t *pid);
/* dh_test_redis_start on a port of dh_test_free_port's, another one when that one was
 * taken before the server bound it (five tries); sets *port. */
int dh_test_redis_start_free(int *port, pid_t *pid);
/* The server's --dir (/tmp/dh-test-redis-PORT): a SAVE there survives a restart, as a
 * durable Redis would. Only a test that SAVEs needs to clean it. */
void dh_test_redis_dir(int port, char *out, size_t cap);
void dh_test_redis_stop(pid_t *pid);

#endif
