/*
 * test_engine_sandbox.c: hostile scripts against the sandbox (docs/SCRIPTING.md, "The
 * sandbox"), on tests/fixtures/hostile: endless loops (also inside pcall), memory bombs,
 * huge strings, reaching for io/os/load/debug/require, finalizers, and poisoning what the
 * matches of a VM share (globals, the string/table/math/utf8 libraries, the string
 * metatable). Each attack must fail its own match's step with SCRIPT_ERROR (rolled back) or
 * do nothing, while another match on the same VM plays on exactly as a match on a clean VM
 * does. (engine_internal.h only to force a full collection in the VM.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

static engine_match *new_match(engine_bundle *b, int np, const char *options)
{
    engine_match_config cfg = {"h", "hostile", 5, np, NULL, NULL, options, false};
    return rig_engine_match(b, &cfg);
}

/* Every attack of the fixture and words of the error it must end with, '|' between
 * alternatives (NULL: inert). */
static const struct {
    const char *attack, *error;
} expected[] = {
    {"collectgarbage", "nil"},
    {"coroutine", "nil"},
    {"debug", "nil"},
    {"dofile", "nil"},
    {"error_object", "script error"},
    {"g_field", "global"},
    {"g_field_set", "index"},
    {"g_meta", "index"},
    {"gc", "__gc"},
    {"gc_late", NULL},
    {"io", "nil"},
    {"load", "nil"},
    {"loop", "time budget"},
    {"math_lib", "read-only"},
    {"memory", "memory"},
    {"new_global", "global"},
    {"os", "nil"},
    {"pairs_leak", "read-only"},
    {"pcall_loop", "time budget"},
    {"rawset_G", "read-only"},
    {"rawset_new", "read-only"},
    {"recursion", "stack overflow|memory"},
    {"rep", "too large"},
    {"rep_sep", "memory"},
    {"require_escape", "bad module name"},
    {"require_os", "not found"},
    {"set_global", "global"},
    {"setmetatable_G", "protected metatable"},
    {"string_dump", "nil"},
    {"string_index", "index"},
    {"string_lib", "read-only"},
    {"string_meta", "index"},
    {"string_meta_field", "index"},
    {"string_rawset", "read-only"},
    {"table_lib", "read-only"},
    {"utf8_lib", "read-only"},
    {"weak", "__mode"},
};

static int error_is(const char *msg, const char *alternatives)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", alternatives);
    for (char *save = NULL, *w = strtok_r(buf, "|", &save); w; w = strtok_r(NULL, "|", &save))
        if (strstr(msg, w))
            return 1;
    return 0;
}

static int find_expected(const char *attack)
{
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (!strcmp(expected[i].attack, attack))
            return (int)i;
    return -1;
}

static void test_attacks_fail_their_match_and_leave_others_as_on_a_clean_vm(void)
{
    engine_bundle *b = rig_engine_load_hostile(), *clean = rig_engine_load_hostile();
    CU_ASSERT_FATAL(b && clean);
    engine_match *a = new_match(b, 1, "traps=1;turns=1000");
    engine_match *o = new_match(b, 2, NULL), *ref = new_match(clean, 2, NULL);
    CU_ASSERT_FATAL(a && o && ref);
    const engine_decision *d = engine_match_decision(a);
    CU_ASSERT_FATAL(d != NULL);
    size_t nattacks = d->noptions - 1, seen = 0;
    char **labels = calloc(nattacks, sizeof(char *));
    CU_ASSERT_FATAL(labels != NULL);
    for (size_t i = 0; i < nattacks; i++)
        labels[i] = strdup(d->options[i + 1].label);
    for (size_t i = 0; i < nattacks; i++) {
        const char *attack = labels[i];
        int e = find_expected(attack);
        if (e < 0) {
            printf("\n  attack %s has no expectation in the test", attack);
            CU_FAIL("an attack of the fixture is not listed");
            continue;
        }
        seen++;
        engine_error err = {0};
        uint64_t h = engine_match_hash(a);
        engine_code c = rig_engine_answer(a, (uint32_t)(i + 2), &err);
        if (expected[e].error) {
            if (c != ENGINE_SCRIPT_ERROR || !error_is(err.message, expected[e].error))
                printf("\n  attack %s: code %d, '%s'", attack, c, err.message);
            CU_ASSERT_EQUAL(c, ENGINE_SCRIPT_ERROR);
            CU_ASSERT(error_is(err.message, expected[e].error));
            CU_ASSERT_EQUAL(engine_match_hash(a), h);
        } else {
            if (c != ENGINE_OK)
                printf("\n  attack %s: code %d, '%s'", attack, c, err.message);
            CU_ASSERT_EQUAL(c, ENGINE_OK);
        }
        /* The other match plays a turn and stands where the clean one does. */
        CU_ASSERT_EQUAL(rig_engine_answer(o, 1, &err), ENGINE_OK);
        CU_ASSERT_EQUAL(rig_engine_answer(ref, 1, &err), ENGINE_OK);
        if (engine_match_hash(o) != engine_match_hash(ref))
            printf("\n  after attack %s the other match differs from the clean one", attack);
        CU_ASSERT_EQUAL(engine_match_hash(o), engine_match_hash(ref));
    }
    CU_ASSERT_EQUAL(seen, sizeof expected / sizeof expected[0]);
    /* A finalizer set after the fact (gc_late) never runs, even on a full collection. */
    uint64_t ha = engine_match_hash(a);
    lua_gc(engine_bundle_lua(b), LUA_GCCOLLECT);
    CU_ASSERT_EQUAL(engine_match_hash(a), ha);
    engine_error err;
    CU_ASSERT_EQUAL(rig_engine_answer(a, 1, &err), ENGINE_OK);
    while (!engine_match_finished(o) && !engine_match_finished(ref)) {
        CU_ASSERT_FATAL(rig_engine_answer(o, 1, &err) == ENGINE_OK);
        CU_ASSERT_FATAL(rig_engine_answer(ref, 1, &err) == ENGINE_OK);
        CU_ASSERT_EQUAL(engine_match_hash(o), engine_match_hash(ref));
    }
    engine_result ro[2], rr[2];
    CU_ASSERT_EQUAL(engine_match_results(o, ro, 2), 2);
    CU_ASSERT_EQUAL(engine_match_results(ref, rr, 2), 2);
    CU_ASSERT_EQUAL(ro[0].score, 90); /* 30 plays of 3: no library was poisoned */
    CU_ASSERT_EQUAL(ro[0].score, rr[0].score);
    CU_ASSERT_EQUAL(ro[1].score, rr[1].score);
    for (size_t i = 0; i < nattacks; i++)
        free(labels[i]);
    free(labels);
    engine_match_free(a);
    engine_match_free(o);
    engine_match_free(ref);
    engine_bundle_free(clean);
    engine_bundle_free(b);
}

static void test_a_bot_asked_for_an_answer_cannot_change_the_match(void)
{
    engine_bundle *b = rig_engine_load_hostile();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = new_match(b, 2, NULL);
    CU_ASSERT_FATAL(m != NULL);
    uint64_t h = engine_match_hash(m);
    uint32_t ids[8];
    size_t n = 8;
    engine_error err;
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, "changer", ids, &n, &err), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "may not change"));
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    n = 8;
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, "gambler", ids, &n, &err), ENGINE_OK);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(engine_match_hash(m), h); /* the generator was put back */
    n = 8;
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, "spinner", ids, &n, &err), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "time budget"));
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    n = 8;
    CU_ASSERT_EQUAL(engine_match_bot_answer(m, NULL, ids, &n, &err), ENGINE_OK);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_EQUAL(engine_match_answer(m, d->seat, d->decision_id, ids, n, &err), ENGINE_OK);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_attacks_fail_their_match_and_leave_others_as_on_a_clean_vm",
     test_attacks_fail_their_match_and_leave_others_as_on_a_clean_vm},
    {"test_a_bot_asked_for_an_answer_cannot_change_the_match",
     test_a_bot_asked_for_an_answer_cannot_change_the_match},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_sandbox", cases);
}
