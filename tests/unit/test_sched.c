/*
 * test_sched.c: the scheduler slice every process asks for at its start
 * (common/dh_sched.c): DECKHAND_SCHED_SLICE_US's slice reaches the threads the process
 * starts afterwards (ZeroMQ's I/O threads are started that way); the default when the
 * variable is unset; the thread's nice value kept; 0 leaving the kernel's slice; a bad
 * value an error; and a kernel that refuses the call (a seccomp filter stands in for an
 * older kernel) logging one warning while the process goes on. Each case runs in a child
 * process, so the test's own threads keep their slice. The cases that need the kernel to
 * take the slice skip on a kernel before 6.12, saying so.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dh_log.h"
#include "dh_sched.h"
#include "dh_test.h"

/* Custom slices came in Linux 6.12. */
static int kernel_has_slices(void)
{
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
        return 0;
    if (major > 6 || (major == 6 && minor >= 12))
        return 1;
    printf("\n  skipped: kernel %s has no custom slices (6.12 and later)\n", u.release);
    return 0;
}

/* Run fn in a child process; its exit status (fn's return), or -1. */
static int in_child(int (*fn)(void *), void *arg)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        _exit(fn(arg));
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

static void *report_slice(void *out)
{
    *(long *)out = dh_sched_slice_get(0);
    return NULL;
}

/* The slice of a thread started now, or -1. */
static long new_thread_slice(void)
{
    long slice = -1;
    pthread_t t;
    if (pthread_create(&t, NULL, report_slice, &slice) != 0)
        return -1;
    pthread_join(t, NULL);
    return slice;
}

static int start_with_300(void *unused)
{
    (void)unused;
    setenv(DH_SCHED_SLICE_ENV, "300", 1);
    if (dh_sched_slice_start() != 0)
        return 1;
    if (dh_sched_slice_get(0) != 300)
        return 2;
    if (new_thread_slice() != 300)
        return 3;
    return 0;
}

static void test_sched_slice_reaches_the_threads_started_after_it(void)
{
    if (!kernel_has_slices())
        return;
    CU_ASSERT_EQUAL(in_child(start_with_300, NULL), 0);
}

static int start_with_default(void *unused)
{
    (void)unused;
    unsetenv(DH_SCHED_SLICE_ENV);
    if (dh_sched_slice_start() != 0)
        return 1;
    return new_thread_slice() == DH_SCHED_SLICE_DEFAULT_US ? 0 : 2;
}

static void test_sched_slice_defaults_when_the_variable_is_unset(void)
{
    if (!kernel_has_slices())
        return;
    CU_ASSERT_EQUAL(in_child(start_with_default, NULL), 0);
}

static int start_with_zero(void *unused)
{
    (void)unused;
    long before = dh_sched_slice_get(0);
    setenv(DH_SCHED_SLICE_ENV, "0", 1);
    if (dh_sched_slice_start() != 0)
        return 1;
    return dh_sched_slice_get(0) == before && new_thread_slice() == before ? 0 : 2;
}

static void test_sched_slice_zero_leaves_the_kernels(void)
{
    CU_ASSERT_EQUAL(in_child(start_with_zero, NULL), 0);
}

static int start_with(void *value)
{
    long before = dh_sched_slice_get(0);
    setenv(DH_SCHED_SLICE_ENV, value, 1);
    if (dh_sched_slice_start() != -1)
        return 1;
    return dh_sched_slice_get(0) == before ? 0 : 2;
}

static void test_sched_slice_bad_value_is_an_error_and_changes_nothing(void)
{
    static const char *const bad[] = {"50", "100001", "-200", "fast", "200us"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CU_ASSERT_EQUAL(in_child(start_with, (void *)bad[i]), 0);
    errno = 0;
    CU_ASSERT_EQUAL(dh_sched_slice_set(0, DH_SCHED_SLICE_MIN_US - 1), -1);
    CU_ASSERT_EQUAL(errno, EINVAL);
}

static int keep_nice(void *unused)
{
    (void)unused;
    errno = 0;
    if (nice(5) == -1 && errno)
        return 1;
    int was = getpriority(PRIO_PROCESS, 0);
    if (dh_sched_slice_set(0, 400) != 0)
        return 2;
    return getpriority(PRIO_PROCESS, 0) == was && dh_sched_slice_get(0) == 400 ? 0 : 3;
}

static void test_sched_slice_keeps_the_threads_nice_value(void)
{
    if (!kernel_has_slices())
        return;
    CU_ASSERT_EQUAL(in_child(keep_nice, NULL), 0);
}

/* A seccomp filter that makes sched_setattr fail with EPERM, as a kernel that refuses it. */
static int refuse_sched_setattr(void)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sched_setattr, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof *f), f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0 ? 0 : -1;
}

static int start_refused(void *log_path)
{
    FILE *log = fopen(log_path, "w");
    if (!log || dup2(fileno(log), STDERR_FILENO) < 0 || refuse_sched_setattr() < 0)
        return 1;
    dh_log_init("test");
    long before = dh_sched_slice_get(0);
    setenv(DH_SCHED_SLICE_ENV, "300", 1);
    if (dh_sched_slice_start() != 1)
        return 2;
    /* the process goes on: its threads start, with the kernel's slice */
    return dh_sched_slice_get(0) == before && new_thread_slice() == before ? 0 : 3;
}

static void test_sched_slice_refused_is_logged_once_and_not_fatal(void)
{
    char path[] = "/tmp/dh-test-sched-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    CU_ASSERT_EQUAL(in_child(start_refused, path), 0);
    char cmd[128], out[64];
    snprintf(cmd, sizeof cmd, "grep -c 'WARN.*scheduler slice of 300 us not set' %s", path);
    CU_ASSERT_EQUAL(dh_test_run(cmd, out, sizeof out), 0);
    CU_ASSERT_EQUAL(atoi(out), 1);
    snprintf(cmd, sizeof cmd, "wc -l < %s", path);
    CU_ASSERT_EQUAL(dh_test_run(cmd, out, sizeof out), 0);
    CU_ASSERT_EQUAL(atoi(out), 1);
    unlink(path);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"sched_slice_reaches_the_threads_started_after_it",
         test_sched_slice_reaches_the_threads_started_after_it},
        {"sched_slice_defaults_when_the_variable_is_unset",
         test_sched_slice_defaults_when_the_variable_is_unset},
        {"sched_slice_zero_leaves_the_kernels", test_sched_slice_zero_leaves_the_kernels},
        {"sched_slice_bad_value_is_an_error_and_changes_nothing",
         test_sched_slice_bad_value_is_an_error_and_changes_nothing},
        {"sched_slice_keeps_the_threads_nice_value", test_sched_slice_keeps_the_threads_nice_value},
        {"sched_slice_refused_is_logged_once_and_not_fatal",
         test_sched_slice_refused_is_logged_once_and_not_fatal},
        {NULL, NULL},
    };
    return dh_test_main("sched", cases);
}
