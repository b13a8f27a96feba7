/*
 * test_engine_work_bounds.c: no single C call a script makes runs long enough to hold a
 * worker (docs/SECURITY.md, "Work per C call"). The watchdog's kill latch runs between Lua
 * instructions, so a C call whose work is a count times a length (a sort of 20,000
 * references to a 1 MiB string took 6 to 10 s) cannot be stopped; engine_bounded.c bounds
 * each one's work before it starts. Every attack of tests/fixtures/costly is played once
 * on a match under a 60 s budget (so only the bounds, not the deadline, can stop it): each
 * must end within CAP_MS (what it builds first included, under the sanitizers), those a
 * bound refuses with SCRIPT_ERROR and the bound's words, rolled back.
 */
#include <stdio.h>
#include <string.h>

#include "dh_test.h"
#include "rig_engine.h"
#include "rig_limits.h"

#define CAP_MS 3000 /* sanitized, on a crowded machine; a Release worker: tens of ms */

/* The attacks a bound refuses, and its words (as tests/fixtures/costly's M.refused). */
static const char *const refused[][2] = {
    {"sort_long_strings", "too much work to compare"},
    {"sort_c_order", "must be a Lua function"},
    {"sort_many", "too many elements"},
    {"insert_len", "too many elements to move"},
    {"remove_len", "too many elements to move"},
    {"concat_sep", "table.concat: too much work"},
    {"concat_many", "table.concat: too much work"},
    {"rep_count", "string.rep: result too large"},
    {"rep_sep", "string.rep: result too large"},
    {"format_huge", "string.format: too much work"},
    {"format_q", "string.format: too much work"},
    {"utf8_len", "too long for this function"},
    {"utf8_offset", "too long for this function"},
    {"lower_huge", "too long for this function"},
    {"reverse_huge", "too long for this function"},
    {"tonumber_huge", "too long for this function"},
    {"pack_pad", "string.pack: sizes too large"},
    {"gsub_out", "would write too much"},
};

static const char *refusal(const char *label)
{
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (!strcmp(refused[i][0], label))
            return refused[i][1];
    return NULL;
}

static void test_every_costly_call_ends_at_once(void)
{
    engine_limits lim = {256u << 20, 60000}; /* a worker's memory cap; no deadline to help */
    engine_bundle *b = rig_engine_load("tests/fixtures/costly", &lim);
    CU_ASSERT_FATAL(b != NULL);
    static const char *const names[] = {"Ann"};
    engine_match_config cfg = {"cost", "costly", 7, 1, names, NULL, NULL, false};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_FATAL(d && d->noptions > 25);
    size_t nattacks = d->noptions - 1, nrefused = 0;
    char labels[64][64];
    CU_ASSERT_FATAL(nattacks <= 64);
    for (size_t i = 0; i < nattacks; i++)
        snprintf(labels[i], sizeof labels[i], "%s", d->options[i + 1].label);
    for (size_t i = 0; i < nattacks; i++) {
        engine_error err = {0};
        uint64_t ms = 0, h = engine_match_hash(m);
        engine_code c = rig_limits_pick(m, labels[i], &err, &ms);
        const char *want = refusal(labels[i]);
        printf("\n  %-18s %5llu ms  %s", labels[i], (unsigned long long)ms,
               c == ENGINE_OK ? "ok" : err.message);
        CU_ASSERT(ms < CAP_MS);
        /* linear now: 50,000 cards, each once; the old scan took 1.8 s unsanitized */
        if (!strcmp(labels[i], "list_distinct"))
            CU_ASSERT(ms < CAP_MS / 6);
        CU_ASSERT_PTR_NULL(strstr(err.message, "time budget"));
        if (want) {
            nrefused++;
            CU_ASSERT_EQUAL(c, ENGINE_SCRIPT_ERROR);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, want));
        }
        if (c != ENGINE_OK) {
            CU_ASSERT_EQUAL(engine_match_hash(m), h);
        } else { /* the attack's turn is over: back to a decision offering them all */
            CU_ASSERT_EQUAL_FATAL(rig_limits_pick(m, "Play", &err, NULL), ENGINE_OK);
        }
    }
    CU_ASSERT_EQUAL(nrefused, sizeof refused / sizeof refused[0]);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_every_costly_call_ends_at_once", test_every_costly_call_ends_at_once},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_work_bounds", cases);
}
