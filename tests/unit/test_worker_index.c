/*
 * test_worker_index.c: the hosted matches are found by id through an index
 * (worker/host/host_index.c), which must stay exact as matches start and go: every hosted
 * match found as itself, a gone one not found, also after the list's swap-removals moved
 * the others around, and by the list walk once the index is marked partial.
 */
#include <stdio.h>
#include <string.h>

#include "host_internal.h"
#include "rig_worker.h"

#define N 8 /* under the rig worker's capacity */

static void check_all(rig_worker *r, const bool *gone, char ids[][24])
{
    for (int i = 0; i < N; i++) {
        host_match *hm = host_find(&r->h, ids[i]);
        CU_ASSERT_TRUE(gone[i] ? hm == NULL : hm && !strcmp(hm->id, ids[i]));
    }
}

static void test_hosted_matches_are_found_by_id_as_they_come_and_go(void)
{
    rig_worker r;
    rig_worker_open(&r, "scripts", NULL);
    char ids[N][24];
    bool gone[N] = {false};
    for (int i = 0; i < N; i++) {
        snprintf(ids[i], sizeof ids[i], "m-ix-%d", i);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rig_worker_started(&r, ids[i], "dominion", NULL));
    }
    check_all(&r, gone, ids);
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-ix-none"));
    for (int i = 0; i < N; i += 3) { /* the first, then ones the swaps moved */
        host_drop(&r.h, host_find(&r.h, ids[i]));
        gone[i] = true;
        check_all(&r, gone, ids);
    }
    CU_ASSERT_EQUAL(r.h.nmatches, N - (N + 2) / 3);
    r.h.by_id_partial = true; /* as after an insert that ran out of memory */
    check_all(&r, gone, ids);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"hosted_matches_are_found_by_id_as_they_come_and_go",
         test_hosted_matches_are_found_by_id_as_they_come_and_go},
        {NULL, NULL},
    };
    return rig_worker_main("worker_index", cases);
}
