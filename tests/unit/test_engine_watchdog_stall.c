/*
 * test_engine_watchdog_stall.c: a script call's budget bounds the script's own work, not
 * the wall clock. A call that was not running for a while (its process stopped with
 * SIGSTOP, a frozen VM, or its thread waiting for a core on a crowded machine) is not
 * killed for the time it spent not running: an Ascension sim stopped for 36 minutes lost
 * a call that way ("script exceeded its time budget" on resume), and in a worker the same
 * stall failed a player's command. A call that really spins past its budget is still
 * killed, stall or not (engine_watchdog.c).
 *
 * The call here is the one turn of an all-bot match of the game "spin", which loops as
 * many times as its option asks; the loop count is measured first so that the turn takes
 * a known share of the budget in CPU time, on any machine and build.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dh_test.h"
#include "engine.h"

#define BUDGET_MS 200
#define STALL_MS  500
#define STALL_SIG SIGUSR2

static const char spin_game[] = "return { name = 'spin', min_players = 1, max_players = 1,\n"
                                "  options = { { name = 'loops', values = {}, default = '0' } },\n"
                                "  turn = function(g)\n"
                                "    local x = 0\n"
                                "    for i = 1, tonumber(g:option('loops')) do x = x + i % 7 end\n"
                                "    g:add_counter('x', 0, x % 2)\n"
                                "  end,\n"
                                "  finished = function() return true end,\n"
                                "  results = function() return { { score = 0 } } end,\n"
                                "  bots = { default = function() return { 1 } end } }\n";

static engine_bundle *load_spin(void)
{
    engine_file_in f = {"spin/game.lua", spin_game, sizeof spin_game - 1};
    engine_limits lim = {.budget_ms = BUDGET_MS};
    engine_error err = {0};
    engine_bundle *b = engine_bundle_load_files("b", &f, 1, &lim, &err);
    if (!b)
        printf("\n  load: %s", err.message);
    return b;
}

static uint64_t ns_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

typedef struct {
    engine_bundle *b;
    long loops;
    int ok;           /* the match was made: its one turn ran to the end */
    char error[256];  /* else why not */
    uint64_t cpu_ns;  /* the thread's CPU time over the call */
    uint64_t wall_ns; /* and the wall time */
    int started_fd;   /* a byte is written here just before the call, when >= 0 */
} spin_run;

static void spin_once(spin_run *r)
{
    char opt[64];
    snprintf(opt, sizeof opt, "loops=%ld", r->loops);
    static const char *const bots[] = {"default"};
    engine_match_config cfg = {"s", "spin", 1, 1, NULL, bots, opt, true};
    engine_error err = {0};
    if (r->started_fd >= 0) /* the other side waits for this byte to stall the call */
        CU_ASSERT_EQUAL(write(r->started_fd, "s", 1), 1);
    uint64_t w0 = ns_of(CLOCK_MONOTONIC), c0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
    engine_match *m = engine_match_new(r->b, &cfg, &err);
    r->cpu_ns = ns_of(CLOCK_THREAD_CPUTIME_ID) - c0;
    r->wall_ns = ns_of(CLOCK_MONOTONIC) - w0;
    r->ok = m != NULL;
    snprintf(r->error, sizeof r->error, "%s", m ? "" : err.message);
    engine_match_free(m);
}

static void *spin_thread(void *arg)
{
    spin_once(arg);
    return NULL;
}

/* The loop count whose turn takes about share_ms of CPU time. */
static long loops_for(engine_bundle *b, uint64_t share_ms)
{
    spin_run r = {.b = b, .loops = 200000, .started_fd = -1};
    for (;;) {
        spin_once(&r);
        CU_ASSERT_FATAL(r.ok);
        if (r.cpu_ns >= 40000000ULL || r.loops > (1L << 40))
            break;
        r.loops *= 4;
    }
    return (long)((double)r.loops * (double)share_ms * 1e6 / (double)r.cpu_ns);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* The stall: the signal's handler sleeps STALL_MS on the thread it lands on. */
static void stall_handler(int sig)
{
    (void)sig;
    int saved = errno;
    sleep_ms(STALL_MS);
    errno = saved;
}

/* Runs the turn of `loops` on a thread of its own, which waits STALL_MS (in a signal
 * handler, off the CPU) 20 ms after the call began. */
static spin_run run_with_a_wait(engine_bundle *b, long loops)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stall_handler;
    sigemptyset(&sa.sa_mask);
    CU_ASSERT_FATAL(sigaction(STALL_SIG, &sa, &old) == 0);
    int fds[2];
    CU_ASSERT_FATAL(pipe(fds) == 0);
    spin_run r = {.b = b, .loops = loops, .started_fd = fds[1]};
    pthread_t t;
    CU_ASSERT_FATAL(pthread_create(&t, NULL, spin_thread, &r) == 0);
    char c;
    CU_ASSERT_EQUAL(read(fds[0], &c, 1), 1);
    sleep_ms(20);
    pthread_kill(t, STALL_SIG);
    pthread_join(t, NULL);
    sigaction(STALL_SIG, &old, NULL);
    close(fds[0]);
    close(fds[1]);
    printf("\n  %ld loops: %s after %.0f ms (%.0f ms of CPU) %s", r.loops, r.ok ? "made" : "failed",
           (double)r.wall_ns / 1e6, (double)r.cpu_ns / 1e6, r.error);
    return r;
}

/* The engine thread alone waits STALL_MS in the middle of a call that needs a quarter of
 * its budget of CPU; the watchdog thread runs on meanwhile and must not kill the call. */
static void test_a_call_whose_thread_waits_is_not_killed_for_the_wait(void)
{
    engine_bundle *b = load_spin();
    CU_ASSERT_FATAL(b != NULL);
    spin_run r = run_with_a_wait(b, loops_for(b, BUDGET_MS / 4));
    /* the wait landed inside the call (else this tested nothing) */
    CU_ASSERT(r.wall_ns > (uint64_t)BUDGET_MS * 1000000ULL);
    CU_ASSERT(r.ok);
    engine_bundle_free(b);
}

/* A call that spins for three budgets is still killed when its thread also waited: the
 * wait is forgiven, the work is not. */
static void test_a_call_that_spins_past_its_budget_is_killed_even_after_a_wait(void)
{
    engine_bundle *b = load_spin();
    CU_ASSERT_FATAL(b != NULL);
    spin_run r = run_with_a_wait(b, loops_for(b, 3 * BUDGET_MS));
    CU_ASSERT_FALSE(r.ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.error, "time budget"));
    /* killed near its budget of work: well before the three budgets it asked for */
    CU_ASSERT(r.cpu_ns < 2ULL * BUDGET_MS * 1000000ULL);
    engine_bundle_free(b);
}

/* The finding itself: the whole process stopped (SIGSTOP) in the middle of a call that
 * needs a quarter of its budget, and continued STALL_MS later. The call runs in a child, which
 * exits 0 when its match was made. */
static void test_a_call_survives_its_process_being_stopped_and_continued(void)
{
    engine_bundle *b = load_spin();
    CU_ASSERT_FATAL(b != NULL);
    long loops = loops_for(b, BUDGET_MS / 4);
    engine_bundle_free(b); /* no other thread when forking */
    int fds[2];
    CU_ASSERT_FATAL(pipe(fds) == 0);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        spin_run r = {.b = load_spin(), .loops = loops, .started_fd = fds[1]};
        if (!r.b)
            _exit(3);
        spin_once(&r);
        printf("\n  child: %ld loops %s after %.0f ms (%.0f ms of CPU) %s", loops,
               r.ok ? "made" : "failed", (double)r.wall_ns / 1e6, (double)r.cpu_ns / 1e6, r.error);
        fflush(stdout);
        engine_bundle_free(r.b);
        _exit(r.ok ? (r.wall_ns > (uint64_t)BUDGET_MS * 1000000ULL ? 0 : 2) : 1);
    }
    close(fds[1]);
    char c;
    CU_ASSERT_EQUAL(read(fds[0], &c, 1), 1);
    close(fds[0]);
    sleep_ms(20);
    kill(pid, SIGSTOP);
    sleep_ms(STALL_MS);
    kill(pid, SIGCONT);
    int st = 0;
    CU_ASSERT_EQUAL(waitpid(pid, &st, 0), pid);
    /* 0: made, after more wall time than its budget; 1: killed; 2: the stop missed it */
    CU_ASSERT(WIFEXITED(st));
    CU_ASSERT_EQUAL(WEXITSTATUS(st), 0);
}

static const dh_test_case cases[] = {
    {"test_a_call_whose_thread_waits_is_not_killed_for_the_wait",
     test_a_call_whose_thread_waits_is_not_killed_for_the_wait},
    {"test_a_call_that_spins_past_its_budget_is_killed_even_after_a_wait",
     test_a_call_that_spins_past_its_budget_is_killed_even_after_a_wait},
    {"test_a_call_survives_its_process_being_stopped_and_continued",
     test_a_call_survives_its_process_being_stopped_and_continued},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_watchdog_stall", cases);
}
