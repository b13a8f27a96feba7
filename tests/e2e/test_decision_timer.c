/*
 * test_decision_timer.c: DecisionRequest.time_left_ms end to end, on a real cluster
 * (scripts/lib/cluster.sh, ports from 29200) whose queues file gives Dominion's casual
 * queue a decision timer (decision_ms=2500) and bot fill: a lone player's decision comes
 * with time_left_ms in 1..2500, and when the player does not answer, the worker's default
 * answer comes once that time has run out (not before it, and not long after), and the
 * next decision tells its own time left again.
 */
#include "dh_test.h"
#include "rig_cluster.h"
#include "rig_player.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PORT_BASE   29200
#define DECISION_MS 2500
/* How late the default answer may come after the time told: the worker's timers look at
 * every loop turn (tens of ms) plus a loaded, sanitized machine's delays. */
#define LATE_MS 1500
/* How early it may seem to come: the decision's trip from the worker to the player. */
#define EARLY_MS 300

/* Pump p until it has a decision of its own other than the one numbered not (0: any). */
static bool wait_own_decision(pl_player *p, uint64_t not, long long ms)
{
    long long until = pl_now_ms() + ms;
    while (pl_now_ms() < until) {
        if (p->seat >= 0 && p->dec.valid && (int)p->dec.seat == p->seat && p->dec.id != not )
            return true;
        pl_pump(&p, 1, 20);
    }
    return false;
}

/* Queue p for a dominion match; a refusal while the cluster's worker has not yet told the
 * matchmaker its games (UNKNOWN_GAME just after the start) is tried again, for WAIT_MS. */
static int queue_dominion(pl_player *p)
{
    long long until = pl_now_ms() + WAIT_MS;
    int rc;
    while ((rc = pl_wait_reply(p, pl_send_queue(p, "dominion", 2))) != 0 && pl_now_ms() < until)
        pl_pump(&p, 1, 200);
    if (rc != 0)
        fprintf(stderr, "\nQueueJoin answered %d\n", rc);
    return rc;
}

static void test_decision_tells_its_time_left_and_the_default_answer_comes_when_it_ends(void)
{
    pl_player *a = pl_login("tl-a");
    CU_ASSERT_FATAL(a != NULL);
    bool queued = queue_dominion(a) == 0;
    CU_ASSERT(queued);
    bool decided = queued && wait_own_decision(a, 0, 3 * WAIT_MS); /* bot fill after 300 ms */
    CU_ASSERT(decided);
    if (!decided) {
        pl_drop(a);
        return;
    }
    uint64_t first = a->dec.id;
    uint32_t left = a->dec.time_left_ms;
    long long got = a->dec.got_ms;
    CU_ASSERT(left > 0 && left <= DECISION_MS);
    /* the player does not answer: the worker does, once the time told has run out */
    bool next = wait_own_decision(a, first, left + LATE_MS + WAIT_MS);
    CU_ASSERT(next);
    if (!next) {
        pl_drop(a);
        return;
    }
    long long took = a->dec.got_ms - got;
    fprintf(stderr,
            "\ntime left told %u ms; the default answer's next decision came after %lld "
            "ms\n",
            left, took);
    CU_ASSERT(took >= (long long)left - EARLY_MS);
    CU_ASSERT(took <= (long long)left + LATE_MS);
    CU_ASSERT(a->dec.time_left_ms > 0 && a->dec.time_left_ms <= DECISION_MS);
    pl_drop(a);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"decision_tells_its_time_left_and_the_default_answer_comes_when_it_ends",
         test_decision_tells_its_time_left_and_the_default_answer_comes_when_it_ends},
        {NULL, NULL},
    };
    signal(SIGPIPE, SIG_IGN);
    char path[] = "/tmp/dh-e2e-timer-queues-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    const char line[] = "dominion casual decision_ms=2500 bot_fill_ms=300\n";
    if (write(fd, line, sizeof line - 1) != (ssize_t)(sizeof line - 1)) {
        close(fd);
        unlink(path);
        return 1;
    }
    close(fd);
    setenv("DECKHAND_QUEUES", path, 1);
    int rc = rc_start("decision_timer", PORT_BASE);
    unlink(path);
    if (rc != 0)
        return 1;
    return rc_finish(dh_test_main("e2e_decision_timer", cases));
}
