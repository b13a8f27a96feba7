/*
 * test_worker_work_bounds.c: the sort attack of issue 24 on the real worker host
 * (worker/host.c in the rig of rig_worker.h). A player of one match answers with
 * tests/fixtures/costly's "sort_long_strings" (table.sort of 20,000 references to a 1 MiB
 * string: one C call the watchdog cannot stop, which held a worker 6 s and got it declared
 * dead) four times in a row, between answers of another match on the same VM. Each attack
 * must be answered SCRIPT_ERROR within the worker's call budget (so the loop misses no
 * beat: the lease lasts WORKER_LEASE_MS), and the other match must be served, each answer
 * within the budget too.
 *
 * Each answer's time is the host thread's CPU time (the work the worker did), not the wall
 * clock: on a loaded machine the wall time of the same work stretches with the wait for a
 * core (a full test run with other builds beside it saw 1,650 ms of wall time for a call
 * killed at the budget), which says nothing of the bound. A call the watchdog failed to
 * stop would spend CPU past the limits all the same. Both times are printed.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define BUDGET_MS 250 /* the worker's call budget */
/* An answer that takes longer than this holds the loop past its beat's slack: a worker
 * beats every 500 ms and is declared dead after 1,500 ms of silence. The margin over the
 * budget is for the kill's latency and the sanitizers' slower C calls. */
#define LOOP_MS 1000

/* Answers hm's decision with the option labelled label; the Reply's error code (0: ok,
 * -1: no Reply) and, in *ms, the CPU time the host's thread took to handle and flush it
 * (the wall time goes into last_wall_ms). */
static uint64_t last_wall_ms;

static uint64_t thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int pick(rig_worker *r, host_match *hm, uint64_t cmd_id, const char *label, uint64_t *ms)
{
    const engine_decision *d = engine_match_decision(hm->m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    uint32_t id = 0;
    for (size_t i = 0; i < d->noptions; i++)
        if (!strcmp(d->options[i].label, label))
            id = d->options[i].id;
    CU_ASSERT_FATAL(id != 0);
    uint64_t t0 = dh_test_now_ms(), c0 = thread_cpu_ms();
    int code = rig_worker_choose(r, hm, cmd_id, id);
    *ms = thread_cpu_ms() - c0;
    last_wall_ms = dh_test_now_ms() - t0;
    return code;
}

static void test_a_sort_of_long_strings_costs_the_worker_nothing(void)
{
    rig_worker r;
    engine_limits lim = {256u << 20, BUDGET_MS};
    rig_worker_open(&r, "tests/fixtures/costly", &lim);
    host_match *bad = rig_worker_started(&r, "m-bad", "costly", NULL);
    host_match *ok = rig_worker_started(&r, "m-ok", "costly", NULL);
    uint64_t cmd = 1, ms;
    for (int i = 0; i < 4; i++) {
        uint64_t h = engine_match_hash(bad->m);
        int code = pick(&r, bad, cmd++, "sort_long_strings", &ms);
        printf("\n  attack %d: reply %d after %llu ms of CPU (%llu ms wall)", i, code,
               (unsigned long long)ms, (unsigned long long)last_wall_ms);
        CU_ASSERT_EQUAL(code, DECKHAND__ERROR_CODE__SCRIPT_ERROR);
        CU_ASSERT(ms < BUDGET_MS);
        CU_ASSERT_EQUAL(engine_match_hash(bad->m), h);
        CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-ok"));
        CU_ASSERT_EQUAL(pick(&r, ok, cmd++, "Play", &ms), 0);
        CU_ASSERT(ms < BUDGET_MS);
    }
    /* Both matches are still served. */
    CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-bad"));
    CU_ASSERT_EQUAL(pick(&r, bad, cmd++, "Play", &ms), 0);
    CU_ASSERT_EQUAL(pick(&r, ok, cmd++, "Play", &ms), 0);
    rig_worker_close_drained(&r);
}

/* Every attack of tests/fixtures/costly (one per class of C function a script reaches),
 * each answered by a player of one match while another match of the same VM is served:
 * every answer comes back (refused or done) before the worker could miss its beats, and
 * the other match's answers stay within the call budget. */
static void test_every_costly_call_leaves_the_worker_on_time(void)
{
    rig_worker r;
    engine_limits lim = {256u << 20, BUDGET_MS};
    rig_worker_open(&r, "tests/fixtures/costly", &lim);
    host_match *bad = rig_worker_started(&r, "m-bad", "costly", NULL);
    host_match *ok = rig_worker_started(&r, "m-ok", "costly", NULL);
    const engine_decision *d = engine_match_decision(bad->m);
    CU_ASSERT_FATAL(d && d->noptions > 25 && d->noptions <= 64);
    char labels[64][64];
    size_t n = d->noptions - 1;
    for (size_t i = 0; i < n; i++)
        snprintf(labels[i], sizeof labels[i], "%s", d->options[i + 1].label);
    uint64_t cmd = 1, ms, worst = 0;
    for (size_t i = 0; i < n; i++) {
        int code = pick(&r, bad, cmd++, labels[i], &ms);
        printf("\n  %-18s reply %d after %llu ms of CPU (%llu ms wall)", labels[i], code,
               (unsigned long long)ms, (unsigned long long)last_wall_ms);
        CU_ASSERT(code == 0 || code == DECKHAND__ERROR_CODE__SCRIPT_ERROR);
        CU_ASSERT(ms < LOOP_MS);
        worst = ms > worst ? ms : worst;
        CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-ok"));
        CU_ASSERT_EQUAL(pick(&r, ok, cmd++, "Play", &ms), 0);
        CU_ASSERT(ms < BUDGET_MS);
    }
    printf("\n  %zu attacks, the longest answered in %llu ms of CPU", n, (unsigned long long)worst);
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"a_sort_of_long_strings_costs_the_worker_nothing",
         test_a_sort_of_long_strings_costs_the_worker_nothing},
        {"every_costly_call_leaves_the_worker_on_time",
         test_every_costly_call_leaves_the_worker_on_time},
        {NULL, NULL},
    };
    return rig_worker_main("worker_work_bounds", cases);
}
