/*
 * test_worker_log_limits.c: a worker's warnings about one match that the rest of the
 * cluster can make it repeat are rate-limited (issue 15: a stuck match logged 14
 * identical warnings a second, 1.5 MB in ten minutes). A StartMatch the engine cannot
 * create (the matchmaker forms the match again and again, a new id each time) and an
 * adoption refused (offered again and again) each log at most one line per interval
 * (dh_warn_every), however often they come. stderr is captured in a temporary file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rig_worker.h"

#define LOG_FLOOD 100

static rig_worker rig;

/* Run fn with stderr captured; how many of its lines contain needle. */
static size_t log_count(void (*fn)(void), const char *needle)
{
    static char out[1 << 20];
    dh_test_capture_stderr(fn, out, sizeof out);
    size_t n = 0;
    for (char *line = out; *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        n += strstr(line, needle) != NULL;
        if (!end)
            break;
        line = end + 1;
    }
    return n;
}

static void start_flood(void)
{
    Deckhand__Internal__Seat s0 = DECKHAND__INTERNAL__SEAT__INIT, s1 = s0;
    s0.player_id = (char *)"p-1";
    s1.player_id = (char *)"p-2";
    Deckhand__Internal__Seat *seats[] = {&s0, &s1};
    for (int i = 0; i < LOG_FLOOD; i++) {
        char id[32];
        snprintf(id, sizeof id, "m-chess-%d", i);
        Deckhand__Internal__StartMatch sm = DECKHAND__INTERNAL__START_MATCH__INIT;
        sm.match_id = id;
        sm.game = (char *)"chess"; /* no such game: the engine refuses it */
        sm.n_seats = 2;
        sm.seats = seats;
        host_start_match(&rig.h, &sm, rig.now);
    }
}

static void test_worker_refused_start_match_warns_once_per_interval(void)
{
    rig_worker_open(&rig, "scripts", NULL);
    CU_ASSERT_EQUAL(log_count(start_flood, "cannot create"), 1);
    CU_ASSERT_EQUAL(host_active(&rig.h), 0);
    rig_worker_mm_drain(&rig);
    rig_worker_close(&rig);
}

static void adopt_flood(void)
{
    for (int i = 0; i < LOG_FLOOD; i++)
        host_adopt(&rig.h, "m-nowhere", rig.now); /* not in Redis: refused */
}

static void test_worker_refused_adoption_warns_once_per_interval(void)
{
    rig_worker_open(&rig, "scripts", NULL);
    CU_ASSERT_EQUAL(log_count(adopt_flood, "cannot adopt"), 1);
    CU_ASSERT_EQUAL(host_active(&rig.h), 0);
    rig_worker_mm_drain(&rig);
    rig_worker_close(&rig);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_refused_start_match_warns_once_per_interval",
         test_worker_refused_start_match_warns_once_per_interval},
        {"worker_refused_adoption_warns_once_per_interval",
         test_worker_refused_adoption_warns_once_per_interval},
        {NULL, NULL},
    };
    return rig_worker_main("worker_log_limits", cases);
}
