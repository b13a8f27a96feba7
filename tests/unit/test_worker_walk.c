/*
 * test_worker_walk.c: the host's one walk of its match table (host_walk_from and
 * host_walk_next, worker/host/host_internal.h), which every loop over the hosted matches
 * uses: each match once, from the index asked for, round the table; nothing for an empty
 * table. In the rig of rig_worker.h; the walk is private to the host wing, so this test
 * links dh_worker_internal.
 */
#include "rig_worker.h"

#include <string.h>

#include "host_internal.h"

/* The ids a walk from first visits, in order, into ids; their count. */
static size_t walk_ids(const host *h, size_t first, const char **ids, size_t max)
{
    size_t n = 0;
    host_walk w = host_walk_from(h, first);
    for (host_match *hm; n < max && (hm = host_walk_next(&w));) {
        CU_ASSERT_PTR_EQUAL(h->matches[w.at], hm); /* w.at names the match returned */
        ids[n++] = hm->id;
    }
    return n;
}

static void test_worker_walk_visits_each_match_once_round_the_table(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    const char *ids[8];
    CU_ASSERT_EQUAL(walk_ids(&r.h, 0, ids, 8), 0); /* an empty table: nothing */
    CU_ASSERT_EQUAL(walk_ids(&r.h, 3, ids, 8), 0);
    rig_worker_started(&r, "m-a", "dominion", NULL);
    rig_worker_started(&r, "m-b", "dominion", NULL);
    rig_worker_started(&r, "m-c", "dominion", NULL);
    CU_ASSERT_EQUAL_FATAL(walk_ids(&r.h, 0, ids, 8), 3);
    CU_ASSERT_STRING_EQUAL(ids[0], "m-a");
    CU_ASSERT_STRING_EQUAL(ids[1], "m-b");
    CU_ASSERT_STRING_EQUAL(ids[2], "m-c");
    /* From the second match, round to the first; an index past the end wraps. */
    CU_ASSERT_EQUAL_FATAL(walk_ids(&r.h, 1, ids, 8), 3);
    CU_ASSERT_STRING_EQUAL(ids[0], "m-b");
    CU_ASSERT_STRING_EQUAL(ids[2], "m-a");
    CU_ASSERT_EQUAL_FATAL(walk_ids(&r.h, 5, ids, 8), 3); /* 5 mod 3 = 2 */
    CU_ASSERT_STRING_EQUAL(ids[0], "m-c");
    CU_ASSERT_STRING_EQUAL(ids[1], "m-a");
    rig_worker_close_drained(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_walk_visits_each_match_once_round_the_table",
         test_worker_walk_visits_each_match_once_round_the_table},
        {NULL, NULL},
    };
    return rig_worker_main("worker_walk", cases);
}
