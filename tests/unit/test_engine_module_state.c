/*
 * test_engine_module_state.c: module-level state is frozen once a bundle is loaded
 * (docs/SCRIPTING.md, "The sandbox"), so a card cannot hoard memory that every match of its
 * VM shares: growing a module's table fails (its answer rolled back), the same attempt
 * under pcall keeps nothing, and another match on the same VM can still allocate and play.
 */
#include <string.h>

#include "dh_test.h"
#include "rig_limits.h"

static void test_a_card_cannot_grow_module_state(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *bad = rig_limits_match(b, "limits", 1);
    engine_match *other = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(bad && other);
    engine_error err = {0};
    uint64_t h = engine_match_hash(bad);
    CU_ASSERT_EQUAL(rig_limits_pick(bad, "hoard", &err, NULL), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "read-only"));
    CU_ASSERT_EQUAL(engine_match_hash(bad), h);
    CU_ASSERT_EQUAL(rig_limits_pick(bad, "hoard_field", &err, NULL), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "read-only"));
    /* swallowed by pcall: accepted, but nothing was kept */
    rig_limits_pick(bad, "hoard_pcall", &err, NULL);
    /* the other match of the VM still has the cap to itself: 16 MiB (32 at the peak) of a
       64 MiB VM */
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(rig_limits_pick(other, "allocate", &err, NULL), ENGINE_OK);
        if (err.code != ENGINE_OK)
            printf("\n  allocate: %s", err.message);
        CU_ASSERT_EQUAL(rig_limits_pick(other, "Play", &err, NULL), ENGINE_OK);
    }
    Deckhand__View *v = engine_match_view(other, 0);
    CU_ASSERT_FATAL(v != NULL);
    int score = -1;
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, "score"))
            score = (int)v->counters[i]->value;
    CU_ASSERT_EQUAL(score, 6);
    engine_view_free(v);
    engine_match_free(bad);
    engine_match_free(other);
    engine_bundle_free(b);
}

/* The other match allocates 16 MiB (32 at the peak) three times. */
static void other_allocates(engine_match *other)
{
    engine_error err = {0};
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(rig_limits_pick(other, "allocate", &err, NULL), ENGINE_OK);
        if (err.code != ENGINE_OK)
            printf("\n  allocate: %s", err.message);
    }
}

static void test_what_a_cache_or_a_module_local_hoards_is_given_back(void)
{
    static const char *const attacks[] = {"hoard_cache", "hoard_local"};
    for (size_t a = 0; a < 2; a++) {
        engine_bundle *b = rig_limits_load();
        CU_ASSERT_FATAL(b != NULL);
        engine_match *bad = rig_limits_match(b, "limits", 1);
        engine_match *other = rig_limits_match(b, "limits", 1);
        CU_ASSERT_FATAL(bad && other);
        engine_error err = {0};
        /* 6 x 8 MiB kept by the module: most of the 64 MiB cap, were it kept */
        for (int i = 0; i < 6; i++)
            CU_ASSERT_EQUAL(rig_limits_pick(bad, attacks[a], &err, NULL), ENGINE_OK);
        other_allocates(other);
        engine_match_free(bad);
        engine_match_free(other);
        engine_bundle_free(b);
    }
}

static const dh_test_case cases[] = {
    {"test_a_card_cannot_grow_module_state", test_a_card_cannot_grow_module_state},
    {"test_what_a_cache_or_a_module_local_hoards_is_given_back",
     test_what_a_cache_or_a_module_local_hoards_is_given_back},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_module_state", cases);
}
