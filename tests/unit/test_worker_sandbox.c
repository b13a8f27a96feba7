/*
 * test_worker_sandbox.c: the real worker host (worker/host.c, in the rig of rig_worker.h)
 * serving a match of the hostile fixture game "trapped" next to a normal "hostile" match
 * on the same bundle VM. Every attack the trapped match plays is answered SCRIPT_ERROR to
 * its player (or is inert) and changes nothing; the normal match plays to its end with the
 * score of an unpoisoned game, and the worker keeps serving both.
 */
#include "rig_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_worker_serves_a_hostile_match_and_a_normal_one_on_one_vm(void)
{
    rig_worker r;
    engine_limits lim = {8u << 20, 500}; /* a small cap, a roomy budget: ASan is slow */
    rig_worker_open(&r, "tests/fixtures/hostile", &lim);
    host_match *bad = rig_worker_started(&r, "m-bad", "trapped", NULL);
    host_match *ok = rig_worker_started(&r, "m-ok", "hostile", NULL);
    const engine_decision *d = engine_match_decision(bad->m);
    CU_ASSERT_FATAL(d && d->noptions > 30);
    size_t nattacks = d->noptions - 1;
    char **labels = calloc(nattacks, sizeof(char *));
    CU_ASSERT_FATAL(labels != NULL);
    for (size_t i = 0; i < nattacks; i++)
        labels[i] = strdup(d->options[i + 1].label);
    uint64_t cmd = 1;
    for (size_t i = 0; i < nattacks; i++) {
        uint64_t h = engine_match_hash(bad->m);
        int code = rig_worker_choose(&r, bad, cmd++, (uint32_t)(i + 2));
        if (!strcmp(labels[i], "gc_late")) {
            CU_ASSERT_EQUAL(code, 0);
        } else {
            if (code != DECKHAND__ERROR_CODE__SCRIPT_ERROR)
                printf("\n  attack %s: reply %d", labels[i], code);
            CU_ASSERT_EQUAL(code, DECKHAND__ERROR_CODE__SCRIPT_ERROR);
            CU_ASSERT_EQUAL(engine_match_hash(bad->m), h);
        }
        CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-ok"));
        CU_ASSERT_EQUAL(rig_worker_choose(&r, ok, cmd++, 1), 0);
    }
    while (host_find(&r.h, "m-ok") && cmd < 1000) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(engine_match_decision(ok->m));
        CU_ASSERT_EQUAL(rig_worker_choose(&r, ok, cmd++, 1), 0);
    }
    CU_ASSERT_PTR_NULL(host_find(&r.h, "m-ok"));
    Deckhand__Internal__Internal *m;
    int ended = 0;
    while ((m = rig_worker_mm_wait(&r, RIG_WORKER_QUIET_MS))) {
        if (m->body_case == DECKHAND__INTERNAL__INTERNAL__BODY_MATCH_ENDED &&
            !strcmp(m->match_ended->match_id, "m-ok") && m->match_ended->n_results == 2) {
            ended = 1;
            for (size_t i = 0; i < 2; i++)
                CU_ASSERT_EQUAL(m->match_ended->results[i]->score, 90); /* 30 plays of 3 */
        }
        deckhand__internal__internal__free_unpacked(m, NULL);
    }
    CU_ASSERT_TRUE(ended);
    /* The hostile match is still served. */
    CU_ASSERT_PTR_NOT_NULL_FATAL(host_find(&r.h, "m-bad"));
    CU_ASSERT_EQUAL(rig_worker_choose(&r, bad, cmd++, 1), 0);
    for (size_t i = 0; i < nattacks; i++)
        free(labels[i]);
    free(labels);
    rig_worker_close(&r);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"worker_serves_a_hostile_match_and_a_normal_one_on_one_vm",
         test_worker_serves_a_hostile_match_and_a_normal_one_on_one_vm},
        {NULL, NULL},
    };
    return rig_worker_main("worker_sandbox", cases);
}
