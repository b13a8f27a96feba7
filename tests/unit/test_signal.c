/*
 * test_signal.c: common/dh_signal.h, the stop flag of the matchmaker, the worker and
 * `deckhand watch`. SIGTERM and SIGINT set it (and do not kill the process); SIGPIPE is
 * ignored only when asked, so a write to a closed socket returns EPIPE instead.
 */
#include "dh_signal.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "dh_test.h"

static void test_signal_sigterm_asks_the_loop_to_stop(void)
{
    dh_signal_on_stop(true);
    CU_ASSERT_FALSE(dh_signal_stop_asked());
    CU_ASSERT_EQUAL(raise(SIGTERM), 0);
    CU_ASSERT_TRUE(dh_signal_stop_asked());
    CU_ASSERT_EQUAL(raise(SIGINT), 0); /* again, and by the other signal: still only a flag */
    CU_ASSERT_TRUE(dh_signal_stop_asked());
}

static void test_signal_sigpipe_is_ignored_when_asked(void)
{
    dh_signal_on_stop(true);
    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    close(fds[0]);
    errno = 0;
    CU_ASSERT_EQUAL(write(fds[1], "x", 1), -1); /* a default SIGPIPE would end the test */
    CU_ASSERT_EQUAL(errno, EPIPE);
    close(fds[1]);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"signal_sigterm_asks_the_loop_to_stop", test_signal_sigterm_asks_the_loop_to_stop},
        {"signal_sigpipe_is_ignored_when_asked", test_signal_sigpipe_is_ignored_when_asked},
        {NULL, NULL},
    };
    return dh_test_main("signal", cases);
}
