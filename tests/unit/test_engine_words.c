/*
 * test_engine_words.c: the words a game's presentation gives its players (engine/
 * engine_present_words.c): title, summary, deck_builder and counter hints read into the
 * Catalog (sorted, whatever Lua's order) and the game list (engine_bundle_games), with
 * each option's label and its values' words; bad words refused at load naming the field; and every
 * shipped game has a title, a summary, says whether it builds decks, and hints every counter its
 * views show (a player's label, or hidden), all through a match, and words its end screen's score
 * (the hint `score`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

/* A one-file bundle "w" whose game "w" carries presentation (a Lua expression). */
static engine_bundle *load_with(const char *presentation, engine_error *err)
{
    return rig_engine_load_lua("w", err,
                               "return { min_players = 1, max_players = 2,\n"
                               "  zones = { hand = 'owner', board = 'public' },\n"
                               "  presentation = %s,\n"
                               "  turn = function(g) end, finished = function(g) return true end,\n"
                               "  results = function(g) return { { score = 0 } } end }\n",
                               presentation);
}

static Deckhand__Catalog *catalog_of(engine_bundle *b, const char *game, int np)
{
    static const char *const names[] = {"ann", "bob", "cy", "di"};
    engine_match_config cfg = {
        .match_id = "m-words", .game = game, .seed = 7, .nplayers = np, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__Catalog *c = engine_match_catalog(m);
    engine_match_free(m);
    return c;
}

static void test_catalog_carries_title_summary_and_counter_hints_in_order(void)
{
    engine_error err = {0};
    engine_bundle *b =
        load_with("{ title = 'Wordy Game', summary = 'Play a card.\\n\\nMost points win: “ok”.',"
                  "  deck_builder = true,"
                  "  zones = { hand = { kind = 'hand', description = 'Cards only you see' } },"
                  "  counters = { zeta = { label = 'Zeta', order = -1 },"
                  "               vp = { label = 'Victory points', description = 'Cards owned' },"
                  "               active = { hidden = true }, attack = { label = 'Attack' } } }",
                  &err);
    CU_ASSERT_FATAL(b != NULL);
    Deckhand__Catalog *c = catalog_of(b, "w", 1);
    CU_ASSERT_FATAL(c != NULL && c->presentation != NULL);
    const Deckhand__Presentation *p = c->presentation;
    CU_ASSERT_STRING_EQUAL(p->title, "Wordy Game");
    CU_ASSERT_STRING_EQUAL(p->summary, "Play a card.\n\nMost points win: “ok”.");
    CU_ASSERT_STRING_EQUAL(p->zones[0]->description, "Cards only you see");
    /* by order, then name: zeta -1, active 0, attack 0, vp 0 */
    static const char *const order[] = {"zeta", "active", "attack", "vp"};
    CU_ASSERT_EQUAL_FATAL(p->n_counters, 4);
    for (size_t i = 0; i < 4; i++)
        CU_ASSERT_STRING_EQUAL(p->counters[i]->counter, order[i]);
    CU_ASSERT_TRUE(p->counters[1]->hidden);
    CU_ASSERT_STRING_EQUAL(p->counters[1]->label, "");
    CU_ASSERT_EQUAL(p->counters[0]->order, -1);
    CU_ASSERT_STRING_EQUAL(p->counters[3]->label, "Victory points");
    CU_ASSERT_STRING_EQUAL(p->counters[3]->description, "Cards owned");
    CU_ASSERT_FALSE(p->counters[3]->hidden);
    engine_game_info info[2];
    CU_ASSERT_EQUAL_FATAL(engine_bundle_games(b, info, 2), 1);
    CU_ASSERT_STRING_EQUAL(info[0].title, "Wordy Game");
    CU_ASSERT_STRING_EQUAL(info[0].summary, "Play a card.\n\nMost points win: “ok”.");
    CU_ASSERT_TRUE(info[0].deck_builder);
    engine_catalog_free(c);
    engine_bundle_free(b);
}

/* A one-file bundle "w" whose game declares options (a Lua expression). */
static engine_bundle *load_options(const char *options, engine_error *err)
{
    return rig_engine_load_lua("w", err,
                               "return { min_players = 1, max_players = 2, options = %s,\n"
                               "  turn = function(g) end, finished = function(g) return true end,\n"
                               "  results = function(g) return { { score = 0 } } end }\n",
                               options);
}

static void test_options_carry_their_label_and_each_values_words(void)
{
    engine_error err = {0};
    engine_bundle *b = load_options("{ { name = 'deck_1', label = 'First player\\'s deck',"
                                    "    values = { 'earth', 'fire', 'wind' }, default = 'fire',"
                                    "    value_labels = { earth = 'Earth', fire = 'Fire' } },"
                                    "  { name = 'speed', default = 'fast' } }",
                                    &err);
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[2];
    CU_ASSERT_EQUAL_FATAL(engine_bundle_games(b, info, 2), 1);
    CU_ASSERT_EQUAL_FATAL(info[0].noptions, 2);
    const engine_option_spec *o = &info[0].options[0];
    CU_ASSERT_STRING_EQUAL(o->label, "First player's deck");
    CU_ASSERT_STRING_EQUAL(o->value_labels[0], "Earth");
    CU_ASSERT_STRING_EQUAL(o->value_labels[1], "Fire");
    CU_ASSERT_STRING_EQUAL(o->value_labels[2], ""); /* not given: the value itself */
    CU_ASSERT_STRING_EQUAL(info[0].options[1].label, "");
    engine_bundle_free(b);
}

static void test_bad_option_words_are_refused_naming_the_option(void)
{
    static const struct {
        const char *lua, *field;
    } bad[] = {
        {"{ { name = 'k', default = 'a', values = { 'a' }, label = 'a\\nb' } }",
         "option 'k'.label"},
        {"{ { name = 'k', default = 'a', values = { 'a' }, value_labels = { b = 'B' } } }",
         "option 'k'.value_labels names a value it does not have"},
        {"{ { name = 'k', default = 'a', values = { 'a' }, value_labels = { a = 7 } } }",
         "option 'k'.value_labels.a"},
        {"{ { name = 'k', default = 'a', values = { 'a' }, value_labels = 'A' } }",
         "option 'k'.value_labels must map"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        engine_error err = {0};
        engine_bundle *b = load_options(bad[i].lua, &err);
        CU_ASSERT_PTR_NULL(b);
        if (!strstr(err.message, bad[i].field)) {
            fprintf(stderr, "%s: got '%s', wanted '%s'\n", bad[i].lua, err.message, bad[i].field);
            CU_FAIL("the error does not name the option's field");
        }
        engine_bundle_free(b);
    }
}

static void test_game_without_words_lists_empty_title_and_no_deck(void)
{
    engine_error err = {0};
    engine_bundle *b = load_with("nil", &err);
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[2];
    CU_ASSERT_EQUAL_FATAL(engine_bundle_games(b, info, 2), 1);
    CU_ASSERT_STRING_EQUAL(info[0].title, "");
    CU_ASSERT_STRING_EQUAL(info[0].summary, "");
    CU_ASSERT_FALSE(info[0].deck_builder);
    engine_bundle_free(b);
}

static void test_bad_words_are_refused_naming_the_field(void)
{
    static const struct {
        const char *lua, *field;
    } bad[] = {
        {"{ title = 7 }", "presentation.title"},
        {"{ title = 'a\\nb' }", "presentation.title"},
        {"{ title = string.rep('x', 65) }", "presentation.title"},
        {"{ title = 'bad \\xff utf8' }", "presentation.title"},
        {"{ summary = string.rep('x', 2001) }", "presentation.summary"},
        {"{ summary = 'tab\\there' }", "presentation.summary"},
        {"{ deck_builder = 'yes' }", "presentation.deck_builder"},
        {"{ counters = 'vp' }", "presentation.counters must map"},
        {"{ counters = { 'vp' } }", "presentation.counters must map"},
        {"{ counters = { vp = 'Victory' } }", "presentation.counters.vp must be a table"},
        {"{ counters = { vp = {} } }", "presentation.counters.vp needs a label"},
        {"{ counters = { vp = { label = 'VP', colour = 'red' } } }",
         "presentation.counters.vp has an unknown field 'colour'"},
        {"{ counters = { vp = { label = 'VP', hidden = 1 } } }", "presentation.counters.vp.hidden"},
        {"{ counters = { vp = { label = 'VP', order = 1.5 } } }", "presentation.counters.vp.order"},
        {"{ counters = { vp = { label = 'a\\nb' } } }", "presentation.counters.vp.label"},
        {"{ counters = { vp = { label = 'VP', description = string.rep('x', 201) } } }",
         "presentation.counters.vp.description"},
        {"{ counters = { ['v-p'] = { label = 'VP' } } }", "is not a counter name"},
        {"{ zones = { hand = { kind = 'hand', description = 'a\\nb' } } }",
         "presentation.zones.hand.description"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        engine_error err = {0};
        engine_bundle *b = load_with(bad[i].lua, &err);
        CU_ASSERT_PTR_NULL(b);
        CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
        if (!strstr(err.message, bad[i].field) || !strstr(err.message, "game 'w'")) {
            fprintf(stderr, "%s: got '%s', wanted '%s'\n", bad[i].lua, err.message, bad[i].field);
            CU_FAIL("the error does not name the field");
        }
        engine_bundle_free(b);
    }
}

/* The hint of a view's counter: its name, or for a card's counter "NAME:ID" its NAME. */
static const Deckhand__CounterHint *hint_of(const Deckhand__Presentation *p, const char *counter)
{
    const char *colon = strchr(counter, ':');
    size_t len = colon ? (size_t)(colon - counter) : strlen(counter);
    for (size_t i = 0; i < p->n_counters; i++)
        if (strlen(p->counters[i]->counter) == len &&
            !strncmp(p->counters[i]->counter, counter, len))
            return p->counters[i];
    return NULL;
}

/* Every counter both seats' views show, from the start and through up to steps answers of
 * the default bot, has a hint; *shown counts those shown to players (not hidden). */
static void check_counters(engine_bundle *b, const char *game, int steps, size_t *shown)
{
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-count", .game = game, .seed = 3, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__Catalog *c = engine_match_catalog(m);
    CU_ASSERT_FATAL(c != NULL && c->presentation != NULL);
    const Deckhand__CounterHint *score = hint_of(c->presentation, "score");
    CU_ASSERT(score && !score->hidden && score->label[0]); /* the end screen's score */
    for (int step = 0; step <= steps && engine_match_decision(m); step++) {
        for (int seat = 0; seat < 2; seat++) {
            Deckhand__View *v = engine_match_view(m, seat);
            CU_ASSERT_FATAL(v != NULL);
            for (size_t i = 0; i < v->n_counters; i++) {
                const Deckhand__CounterHint *h = hint_of(c->presentation, v->counters[i]->name);
                if (!h) {
                    fprintf(stderr, "%s: counter '%s' has no hint\n", game, v->counters[i]->name);
                    CU_FAIL("a counter a view shows has no hint");
                } else if (!h->hidden)
                    (*shown)++;
            }
            engine_view_free(v);
        }
        engine_error err = {0};
        CU_ASSERT_EQUAL_FATAL(rig_engine_bot_step(m, &err), ENGINE_OK);
    }
    engine_catalog_free(c);
    engine_match_free(m);
}

static const struct {
    const char *game, *title;
    bool deck_builder;
} shipped[] = {
    {"dominion", "Dominion", true},
    {"accession", "Accession", true},
    {"ascension", "Ascension: Valley of the Ancients", true},
    {"caveman", "Caveman", true},
    {"elemental", "Elemental Command", false},
    {"mlw", "Major League Wizardry", false},
};

static void test_every_shipped_game_has_a_title_a_summary_and_says_if_it_builds_decks(void)
{
    engine_limits lim = {.budget_ms = 5000};
    engine_bundle *b = rig_engine_load("scripts", &lim);
    CU_ASSERT_FATAL(b != NULL);
    engine_game_info info[32];
    size_t n = engine_bundle_games(b, info, 32);
    for (size_t s = 0; s < sizeof shipped / sizeof *shipped; s++) {
        bool found = false;
        for (size_t i = 0; i < n && i < 32; i++) {
            if (strcmp(info[i].name, shipped[s].game))
                continue;
            found = true;
            CU_ASSERT_STRING_EQUAL(info[i].title, shipped[s].title);
            CU_ASSERT(strlen(info[i].summary) > 200); /* how a turn goes, how one wins */
            CU_ASSERT_PTR_NOT_NULL(strstr(info[i].summary, "\n\n"));
            CU_ASSERT_EQUAL(info[i].deck_builder, shipped[s].deck_builder);
            for (size_t o = 0; o < info[i].noptions; o++) { /* no "deck_1", no "first_game" */
                const engine_option_spec *spec = &info[i].options[o];
                CU_ASSERT(spec->label[0] != 0);
                for (size_t v = 0; v < spec->nvalues; v++)
                    CU_ASSERT(spec->value_labels[v][0] != 0);
            }
        }
        CU_ASSERT(found);
    }
    engine_bundle_free(b);
}

static void test_every_shipped_game_hints_every_counter_its_views_show(void)
{
    engine_limits lim = {.budget_ms = 5000};
    engine_bundle *b = rig_engine_load("scripts", &lim);
    CU_ASSERT_FATAL(b != NULL);
    for (size_t s = 0; s < sizeof shipped / sizeof *shipped; s++) {
        size_t shown = 0;
        check_counters(b, shipped[s].game, 150, &shown);
        CU_ASSERT(shown > 0);
    }
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_catalog_carries_title_summary_and_counter_hints_in_order",
     test_catalog_carries_title_summary_and_counter_hints_in_order},
    {"test_options_carry_their_label_and_each_values_words",
     test_options_carry_their_label_and_each_values_words},
    {"test_bad_option_words_are_refused_naming_the_option",
     test_bad_option_words_are_refused_naming_the_option},
    {"test_game_without_words_lists_empty_title_and_no_deck",
     test_game_without_words_lists_empty_title_and_no_deck},
    {"test_bad_words_are_refused_naming_the_field", test_bad_words_are_refused_naming_the_field},
    {"test_every_shipped_game_has_a_title_a_summary_and_says_if_it_builds_decks",
     test_every_shipped_game_has_a_title_a_summary_and_says_if_it_builds_decks},
    {"test_every_shipped_game_hints_every_counter_its_views_show",
     test_every_shipped_game_hints_every_counter_its_views_show},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_words", cases);
}
