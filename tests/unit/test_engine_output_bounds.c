/*
 * test_engine_output_bounds.c: what a script sends the seats is bounded (docs/SCRIPTING.md,
 * "Output bounds"): a log line over ENGINE_MAX_LOG_LINE bytes is cut and marked, a prompt
 * or an option label over its bound too, and a turn that emits more than its share of
 * events fails with SCRIPT_ERROR (rolled back, nothing sent).
 */
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "rig_limits.h"

#define LINE_MAX_BYTES  1024 /* docs/SCRIPTING.md: log lines, prompts */
#define LABEL_MAX_BYTES 256

static void test_a_huge_log_line_is_cut_and_marked(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 2);
    CU_ASSERT_FATAL(m != NULL);
    char *text[2];
    size_t n[2];
    rig_limits_drain(m, text, n);
    free(text[0]);
    free(text[1]);
    engine_error err = {0};
    CU_ASSERT_EQUAL(rig_limits_pick(m, "log_huge", &err, NULL), ENGINE_OK);
    rig_limits_drain(m, text, n);
    for (int seat = 0; seat < 2; seat++) {
        CU_ASSERT_EQUAL(n[seat], 1);
        CU_ASSERT(strlen(text[seat]) <= LINE_MAX_BYTES + 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(text[seat], "[cut]"));
        free(text[seat]);
    }
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_a_turn_with_too_many_events_fails(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 2);
    CU_ASSERT_FATAL(m != NULL);
    char *text[2];
    size_t n[2];
    rig_limits_drain(m, text, n);
    free(text[0]);
    free(text[1]);
    uint64_t h = engine_match_hash(m), seq = engine_match_event_seq(m, 1);
    engine_error err = {0};
    CU_ASSERT_EQUAL(rig_limits_pick(m, "log_many", &err, NULL), ENGINE_SCRIPT_ERROR);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "events"));
    CU_ASSERT_EQUAL(engine_match_hash(m), h);
    CU_ASSERT_EQUAL(engine_match_event_seq(m, 1), seq);
    rig_limits_drain(m, text, n);
    CU_ASSERT_EQUAL(n[0], 0);
    CU_ASSERT_EQUAL(n[1], 0);
    free(text[0]);
    free(text[1]);
    /* and the match plays on */
    CU_ASSERT_EQUAL(rig_limits_pick(m, "Play", &err, NULL), ENGINE_OK);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_huge_prompts_and_labels_are_cut(void)
{
    engine_bundle *b = rig_limits_load();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_limits_match(b, "limits", 1);
    CU_ASSERT_FATAL(m != NULL);
    engine_error err = {0};
    CU_ASSERT_EQUAL_FATAL(rig_limits_pick(m, "prompt_huge", &err, NULL), ENGINE_OK);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT(strlen(d->prompt) <= LINE_MAX_BYTES);
    CU_ASSERT_PTR_NOT_NULL(strstr(d->prompt, "[cut]"));
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL && v->decision != NULL);
    CU_ASSERT(strlen(v->decision->prompt) <= LINE_MAX_BYTES);
    engine_view_free(v);
    CU_ASSERT_EQUAL_FATAL(rig_limits_pick(m, "ok", &err, NULL), ENGINE_OK);
    CU_ASSERT_EQUAL_FATAL(rig_limits_pick(m, "label_huge", &err, NULL), ENGINE_OK);
    d = engine_match_decision(m);
    CU_ASSERT_FATAL(d != NULL && d->noptions == 1);
    CU_ASSERT(strlen(d->options[0].label) <= LABEL_MAX_BYTES);
    CU_ASSERT_PTR_NOT_NULL(strstr(d->options[0].label, "[cut]"));
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_a_huge_log_line_is_cut_and_marked", test_a_huge_log_line_is_cut_and_marked},
    {"test_a_turn_with_too_many_events_fails", test_a_turn_with_too_many_events_fails},
    {"test_huge_prompts_and_labels_are_cut", test_huge_prompts_and_labels_are_cut},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_output_bounds", cases);
}
