/*
 * test_engine_error_public.c: a script error keeps its detail (the script's file, line and
 * message) for the operators' log, and gives players only a generic message with an error
 * id that the detail carries too, so an operator can find what a player quotes
 * (engine_error.public_message, docs/SCRIPTING.md).
 */
#include <string.h>

#include "dh_test.h"
#include "rig_limits.h"

/* The "E" + 8 hex digits id in s, copied to id (10 bytes); 0 when there is none. */
static int error_id(const char *s, char *id)
{
    for (const char *p = strchr(s, 'E'); p; p = strchr(p + 1, 'E')) {
        size_t n = strspn(p + 1, "0123456789abcdef");
        if (n == 8) {
            memcpy(id, p, 9);
            id[9] = 0;
            return 1;
        }
    }
    return 0;
}

static void test_script_error_shows_players_an_id_not_the_script(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err = {0};
    CU_ASSERT_EQUAL(rig_limits_pick(m, "error", &err, NULL), ENGINE_SCRIPT_ERROR);
    /* the operators' detail */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "limits/game.lua:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "boom"));
    /* the players' message */
    printf("\n  detail: %s\n  public: %s", err.message, err.public_message);
    CU_ASSERT_PTR_NULL(strstr(err.public_message, ".lua"));
    CU_ASSERT_PTR_NULL(strstr(err.public_message, "boom"));
    /* ... in words: what happened to the move, and what to do */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.public_message, "the move was not played and nothing "
                                                      "changed; try another move"));
    char id[10], id2[10];
    CU_ASSERT_FATAL(error_id(err.public_message, id));
    CU_ASSERT_FATAL(error_id(err.message, id2));
    CU_ASSERT_STRING_EQUAL(id, id2);
    /* another failure gets another id */
    engine_error err2 = {0};
    CU_ASSERT_EQUAL(rig_limits_pick(m, "error", &err2, NULL), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_FATAL(error_id(err2.public_message, id2));
    CU_ASSERT_STRING_NOT_EQUAL(id, id2);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_refusals_that_are_not_script_errors_keep_their_message(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(m != NULL);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_FATAL(d != NULL);
    uint32_t bad = 9999;
    engine_error err = {0};
    CU_ASSERT_EQUAL(engine_match_answer(m, 0, d->decision_id, &bad, 1, &err),
                    ENGINE_ILLEGAL_CHOICE);
    CU_ASSERT_STRING_EQUAL(err.public_message, err.message);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_script_error_shows_players_an_id_not_the_script",
     test_script_error_shows_players_an_id_not_the_script},
    {"test_refusals_that_are_not_script_errors_keep_their_message",
     test_refusals_that_are_not_script_errors_keep_their_message},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_error_public", cases);
}
