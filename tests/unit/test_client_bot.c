/*
 * test_client_bot.c: the generic network bot's choices, per decision kind of the rules
 * scripts' conventions: a valid count always, Big Money's buy priority, actions first.
 */
#include <stdarg.h>
#include <string.h>

#include "dh_client_bot.h"
#include "dh_test.h"

#define MAX_OPTS 16

/* A DecisionRequest built on the stack: options labelled as given, ids 1..n. A label
 * "Buy Gold ($6)" also gets option.card "Gold". */
typedef struct {
    Deckhand__DecisionRequest d;
    Deckhand__Option opt[MAX_OPTS];
    Deckhand__Option *ptr[MAX_OPTS];
    char card[MAX_OPTS][32];
} fake_decision;

static void make(fake_decision *f, const char *kind, uint32_t min, uint32_t max, ...)
{
    memset(f, 0, sizeof *f);
    deckhand__decision_request__init(&f->d);
    f->d.kind = (char *)kind;
    f->d.min = min;
    f->d.max = max;
    f->d.options = f->ptr;
    va_list ap;
    va_start(ap, max);
    const char *label;
    while ((label = va_arg(ap, const char *)) != NULL && f->d.n_options < MAX_OPTS) {
        size_t i = f->d.n_options++;
        deckhand__option__init(&f->opt[i]);
        f->opt[i].id = (uint32_t)i + 1;
        f->opt[i].label = (char *)label;
        if (!strncmp(label, "Buy ", 4)) {
            const char *sp = strchr(label + 4, ' ');
            size_t n = sp ? (size_t)(sp - label - 4) : strlen(label + 4);
            memcpy(f->card[i], label + 4, n);
            f->opt[i].card = f->card[i];
        }
        f->ptr[i] = &f->opt[i];
    }
    va_end(ap);
}

static size_t choose(fake_decision *f, uint32_t *ids)
{
    size_t n = dh_client_bot_choose(&f->d, ids, MAX_OPTS);
    CU_ASSERT(n >= f->d.min || n == f->d.n_options);
    CU_ASSERT(n <= f->d.max);
    return n;
}

/* The bot answers f with count ids, the first of them first (not checked when 0). */
static void expect_answer(fake_decision *f, size_t count, uint32_t first)
{
    uint32_t ids[MAX_OPTS];
    CU_ASSERT_EQUAL(choose(f, ids), count);
    if (first)
        CU_ASSERT_EQUAL(ids[0], first);
}

static void test_action_phase_plays_first_action(void)
{
    fake_decision f;
    make(&f, "action", 1, 1, "Play Smithy", "Play Village", "End actions", NULL);
    expect_answer(&f, 1, 1);
}

static void test_action_phase_ends_without_actions(void)
{
    fake_decision f;
    make(&f, "action", 1, 1, "End actions", NULL);
    expect_answer(&f, 1, 1);
}

static void test_buy_phase_plays_all_treasures_first(void)
{
    fake_decision f;
    make(&f, "buy", 1, 1, "Play all treasures", "Play Copper", "Buy Copper ($0)", "End turn", NULL);
    expect_answer(&f, 1, 1);
}

static void test_buy_phase_prefers_province_then_gold_then_silver(void)
{
    fake_decision f;
    make(&f, "buy", 1, 1, "Buy Copper ($0)", "Buy Silver ($3)", "Buy Gold ($6)",
         "Buy Province ($8)", "Buy Duchy ($5)", "End turn", NULL);
    expect_answer(&f, 1, 4);
    make(&f, "buy", 1, 1, "Buy Silver ($3)", "Buy Gold ($6)", "Buy Duchy ($5)", "End turn", NULL);
    expect_answer(&f, 1, 2);
    make(&f, "buy", 1, 1, "Buy Curse ($0)", "Buy Silver ($3)", "End turn", NULL);
    expect_answer(&f, 1, 2);
}

static void test_buy_phase_ends_turn_rather_than_buy_junk(void)
{
    fake_decision f;
    make(&f, "buy", 1, 1, "Buy Copper ($0)", "Buy Estate ($2)", "Buy Cellar ($2)", "End turn",
         NULL);
    expect_answer(&f, 1, 4);
}

static void test_buy_matches_card_name_not_prefix(void)
{
    fake_decision f;
    /* "Golden" must not pass for "Gold" when option.card is missing. */
    make(&f, "buy", 1, 1, "Buy Golden Thing ($6)", "Buy Gold ($6)", "End turn", NULL);
    f.opt[0].card = NULL;
    f.opt[1].card = NULL;
    expect_answer(&f, 1, 2);
}

static void test_discard_chooses_first_min_options(void)
{
    fake_decision f;
    uint32_t ids[MAX_OPTS];
    make(&f, "discard", 2, 2, "Copper", "Estate", "Silver", "Smithy", "Gold", NULL);
    CU_ASSERT_EQUAL(choose(&f, ids), 2);
    CU_ASSERT_EQUAL(ids[0], 1);
    CU_ASSERT_EQUAL(ids[1], 2);
}

static void test_optional_choice_chooses_none(void)
{
    fake_decision f;
    make(&f, "trash", 0, 4, "Copper", "Estate", "Estate", NULL);
    expect_answer(&f, 0, 0);
}

static void test_reveal_chooses_first_option(void)
{
    fake_decision f;
    make(&f, "reveal", 1, 1, "Reveal Moat", "Don't reveal", NULL);
    expect_answer(&f, 1, 1);
    make(&f, "reveal", 0, 1, "Reveal Moat", NULL);
    expect_answer(&f, 1, 1);
}

static void test_unknown_kind_answers_with_a_valid_count(void)
{
    fake_decision f;
    make(&f, "yesno", 1, 1, "Yes", "No", NULL);
    expect_answer(&f, 1, 1);
    make(&f, "gain", 1, 1, "Silver", "Village", NULL);
    expect_answer(&f, 1, 0);
}

static void test_action_kind_with_min_above_one_takes_first_min(void)
{
    fake_decision f;
    make(&f, "action", 2, 3, "Play A", "Play B", "End actions", NULL);
    expect_answer(&f, 2, 0);
}

static void test_answer_never_exceeds_options_or_capacity(void)
{
    fake_decision f;
    uint32_t ids[MAX_OPTS];
    make(&f, "discard", 5, 5, "Copper", "Estate", NULL); /* an inconsistent request */
    CU_ASSERT_EQUAL(dh_client_bot_choose(&f.d, ids, MAX_OPTS), 2);
    make(&f, "discard", 3, 3, "A", "B", "C", NULL);
    CU_ASSERT_EQUAL(dh_client_bot_choose(&f.d, ids, 1), 1);
    make(&f, "buy", 1, 1, NULL);
    CU_ASSERT_EQUAL(dh_client_bot_choose(&f.d, ids, MAX_OPTS), 0);
}

int main(void)
{
    static const dh_test_case cases[] = {
        {"action_phase_plays_first_action", test_action_phase_plays_first_action},
        {"action_phase_ends_without_actions", test_action_phase_ends_without_actions},
        {"buy_phase_plays_all_treasures_first", test_buy_phase_plays_all_treasures_first},
        {"buy_phase_prefers_province_then_gold_then_silver",
         test_buy_phase_prefers_province_then_gold_then_silver},
        {"buy_phase_ends_turn_rather_than_buy_junk", test_buy_phase_ends_turn_rather_than_buy_junk},
        {"buy_matches_card_name_not_prefix", test_buy_matches_card_name_not_prefix},
        {"discard_chooses_first_min_options", test_discard_chooses_first_min_options},
        {"optional_choice_chooses_none", test_optional_choice_chooses_none},
        {"reveal_chooses_first_option", test_reveal_chooses_first_option},
        {"unknown_kind_answers_with_a_valid_count", test_unknown_kind_answers_with_a_valid_count},
        {"action_kind_with_min_above_one_takes_first_min",
         test_action_kind_with_min_above_one_takes_first_min},
        {"answer_never_exceeds_options_or_capacity", test_answer_never_exceeds_options_or_capacity},
        {NULL, NULL},
    };
    return dh_test_main("client_bot", cases);
}
