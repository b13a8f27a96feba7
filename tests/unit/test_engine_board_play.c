/*
 * test_engine_board_play.c: what a client needs to play on a board instead of a list
 * (issue 29: "one click on your own minion immediately attacks the enemy hero", "the back
 * row is not drawn until something stands there"). An option's structure (verb, target,
 * space) goes from the script's option table into the decision and the View's
 * DecisionRequest, a verb not given being the option's `act`; a target that names no
 * entity is refused; Elemental Command's attacks name their defender and its moves their
 * space, MLW's attacks their defender; the deck-builders' options say play, buy or end;
 * and every board zone of both games is in every view from the first decision, empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names[] = {"ann", "bob"};

static engine_bundle *load_scripts(void)
{
    engine_limits lim = {.budget_ms = 5000};
    engine_bundle *b = rig_engine_load("scripts", &lim);
    CU_ASSERT_FATAL(b != NULL);
    return b;
}

/* A one-file bundle "o" whose turn asks player 1 the options (a Lua expression; `a` is an
 * entity on the board of player 2). */
static engine_bundle *load_options(const char *options, engine_error *err)
{
    return rig_engine_load_lua(
        "o", err,
        "return { min_players = 2, max_players = 2,\n"
        "  zones = { board = 'public' },\n"
        "  turn = function(g)\n"
        "    local a = g:new('Imp', 'board:front:1', 2)\n"
        "    g:choose { player = 1, options = %s }\n"
        "    g:set_counter('done', 0, 1) end,\n"
        "  finished = function(g) return g:counter('done') == 1 end,\n"
        "  results = function(g) return { { score = 0 }, { score = 0 } } end }\n",
        options);
}

static void test_option_structure_goes_from_the_script_into_the_decision_request(void)
{
    engine_error err = {0};
    engine_bundle *b = load_options("{ { label = 'Hit', verb = 'attack', target = a, card = a },"
                                    "  { label = 'Go', act = 'move', space = 'board:back:2' },"
                                    "  { label = 'Both', act = 'x', verb = 'cast' },"
                                    "  { label = 'Done' } }",
                                    &err);
    CU_ASSERT_FATAL(b != NULL);
    engine_match_config cfg = {
        .match_id = "m-o", .game = "o", .seed = 1, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    const engine_decision *d = engine_match_decision(m);
    CU_ASSERT_FATAL(d != NULL && d->noptions == 4);
    CU_ASSERT_STRING_EQUAL(d->options[0].verb, "attack");
    CU_ASSERT_EQUAL(d->options[0].target, d->options[0].entity);
    CU_ASSERT(d->options[0].target != 0);
    CU_ASSERT_STRING_EQUAL(d->options[0].space, "");
    CU_ASSERT_STRING_EQUAL(d->options[1].verb, "move"); /* its act */
    CU_ASSERT_STRING_EQUAL(d->options[1].space, "board:back:2");
    CU_ASSERT_EQUAL(d->options[1].target, 0);
    CU_ASSERT_STRING_EQUAL(d->options[2].verb, "cast"); /* verb before act */
    CU_ASSERT_STRING_EQUAL(d->options[3].verb, "");
    Deckhand__View *v = engine_match_view(m, 0);
    CU_ASSERT_FATAL(v != NULL && v->decision != NULL && v->decision->n_options == 4);
    CU_ASSERT_STRING_EQUAL(v->decision->options[0]->verb, "attack");
    CU_ASSERT_EQUAL(v->decision->options[0]->target, d->options[0].target);
    CU_ASSERT_STRING_EQUAL(v->decision->options[1]->space, "board:back:2");
    CU_ASSERT_STRING_EQUAL(v->decision->options[3]->space, "");
    engine_view_free(v);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_option_target_that_names_no_entity_is_refused(void)
{
    engine_error err = {0};
    engine_bundle *b = load_options("{ { label = 'Hit', target = 999 } }", &err);
    CU_ASSERT_FATAL(b != NULL);
    engine_match_config cfg = {
        .match_id = "m-o", .game = "o", .seed = 1, .nplayers = 2, .names = names};
    engine_match *m = engine_match_new(b, &cfg, &err);
    CU_ASSERT_PTR_NULL(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "option 1's target names no entity"));
    engine_match_free(m);
    engine_bundle_free(b);
}

/* The zone and owner of entity id as seat 0's view shows it (NULL when not shown). */
static const Deckhand__Zone *zone_of(const Deckhand__View *v, uint32_t id)
{
    for (size_t i = 0; i < v->n_zones; i++)
        for (size_t j = 0; j < v->zones[i]->n_cards; j++)
            if (v->zones[i]->cards[j]->entity == id)
                return v->zones[i];
    return NULL;
}

static const Deckhand__Zone *zone_named(const Deckhand__View *v, const char *name, int owner)
{
    for (size_t i = 0; i < v->n_zones; i++)
        if (!strcmp(v->zones[i]->name, name) && v->zones[i]->owner == owner)
            return v->zones[i];
    return NULL;
}

typedef struct {
    int attacks, moves;
} board_seen;

/* Every attack option of the decision names a defender of the other seat on its board or
 * its body (zone body: "hero", "wizard"); every move names an empty space of the mover's
 * board; every option of a `turn` decision has a verb. */
static void check_turn(const Deckhand__View *v, const char *board, const char *body,
                       board_seen *seen)
{
    const Deckhand__DecisionRequest *d = v->decision;
    for (size_t i = 0; i < d->n_options; i++) {
        const Deckhand__Option *o = d->options[i];
        if (!strcmp(d->kind, "turn"))
            CU_ASSERT(o->verb[0] != 0);
        if (!strcmp(o->verb, "attack")) {
            seen->attacks++;
            const Deckhand__Zone *z = zone_of(v, o->target);
            CU_ASSERT_FATAL(z != NULL);
            CU_ASSERT_EQUAL(z->owner, 1 - (int)d->seat);
            CU_ASSERT(!strncmp(z->name, board, strlen(board)) || !strcmp(z->name, body));
            CU_ASSERT(o->entity != o->target);
        } else if (!strcmp(o->verb, "move")) {
            seen->moves++;
            const Deckhand__Zone *z = zone_named(v, o->space, (int)d->seat);
            CU_ASSERT_FATAL(z != NULL);
            CU_ASSERT_EQUAL(z->count, 0);
        }
    }
}

static void play_board(const char *game, const char *board, const char *body, board_seen *seen)
{
    engine_bundle *b = load_scripts();
    engine_match_config cfg = {
        .match_id = "m-b", .game = game, .seed = 9, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    for (int step = 0; step < 3000 && engine_match_decision(m); step++) {
        const engine_decision *d = engine_match_decision(m);
        Deckhand__View *v = engine_match_view(m, d->seat);
        CU_ASSERT_FATAL(v != NULL && v->decision != NULL);
        check_turn(v, board, body, seen);
        engine_view_free(v);
        engine_error err = {0};
        engine_code rc = rig_engine_bot_step(m, &err);
        CU_ASSERT_EQUAL_FATAL(rc, ENGINE_OK);
    }
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_elemental_attacks_name_their_defender_and_moves_their_space(void)
{
    board_seen seen = {0, 0};
    play_board("elemental", "board:", "hero", &seen);
    CU_ASSERT(seen.attacks > 0);
    CU_ASSERT(seen.moves > 0);
}

static void test_mlw_attacks_name_their_defender(void)
{
    board_seen seen = {0, 0};
    play_board("mlw", "monsters", "wizard", &seen);
    CU_ASSERT(seen.attacks > 0);
}

static void test_deck_builders_options_say_play_buy_or_end(void)
{
    engine_bundle *b = load_scripts();
    static const char *const games[] = {"dominion", "ascension", "caveman"};
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        engine_match_config cfg = {
            .match_id = "m-d", .game = games[g], .seed = 4, .nplayers = 2, .names = names};
        engine_match *m = rig_engine_match(b, &cfg);
        CU_ASSERT_FATAL(m != NULL);
        int buys = 0, ends = 0;
        for (int step = 0; step < 60 && engine_match_decision(m); step++) {
            const engine_decision *d = engine_match_decision(m);
            if (!strcmp(d->kind, "buy") || !strcmp(d->kind, "action"))
                for (size_t i = 0; i < d->noptions; i++) {
                    const char *verb = d->options[i].verb;
                    buys += !strcmp(verb, "buy");
                    ends += !strcmp(verb, "end");
                    if (strcmp(verb, "buy") && strcmp(verb, "play") && strcmp(verb, "end") &&
                        strcmp(verb, "all") && strcmp(verb, "defeat") && strcmp(verb, "free")) {
                        fprintf(stderr, "%s: '%s' has verb '%s'\n", games[g], d->options[i].label,
                                verb);
                        CU_FAIL("a deck-builder's turn option without a known verb");
                    }
                }
            engine_error err = {0};
            engine_code rc = rig_engine_bot_step(m, &err);
            CU_ASSERT_EQUAL_FATAL(rc, ENGINE_OK);
        }
        CU_ASSERT(buys > 0);
        CU_ASSERT(ends > 0);
        engine_match_free(m);
    }
    engine_bundle_free(b);
}

/* From the first decision on, both seats' views list every board zone of both seats,
 * empty ones too. */
static void check_open_board(const char *game, const char *const *zones, size_t nzones)
{
    engine_bundle *b = load_scripts();
    engine_match_config cfg = {
        .match_id = "m-z", .game = game, .seed = 2, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL && engine_match_decision(m) != NULL);
    for (int seat = 0; seat < 2; seat++) {
        Deckhand__View *v = engine_match_view(m, seat);
        CU_ASSERT_FATAL(v != NULL);
        for (int owner = 0; owner < 2; owner++)
            for (size_t i = 0; i < nzones; i++) {
                const Deckhand__Zone *z = zone_named(v, zones[i], owner);
                if (!z)
                    fprintf(stderr, "%s: seat %d sees no %s of %d\n", game, seat, zones[i], owner);
                CU_ASSERT(z != NULL && z->count == 0);
            }
        engine_view_free(v);
    }
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_every_board_zone_is_in_the_view_even_when_empty(void)
{
    static const char *const spaces[] = {
        "board:front:1", "board:front:2", "board:front:3", "board:front:4", "board:front:5",
        "board:back:1",  "board:back:2",  "board:back:3",  "board:back:4",  "board:back:5"};
    check_open_board("elemental", spaces, 10);
    static const char *const mlw[] = {"monsters", "trap"};
    check_open_board("mlw", mlw, 2);
}

static const dh_test_case cases[] = {
    {"test_option_structure_goes_from_the_script_into_the_decision_request",
     test_option_structure_goes_from_the_script_into_the_decision_request},
    {"test_option_target_that_names_no_entity_is_refused",
     test_option_target_that_names_no_entity_is_refused},
    {"test_elemental_attacks_name_their_defender_and_moves_their_space",
     test_elemental_attacks_name_their_defender_and_moves_their_space},
    {"test_mlw_attacks_name_their_defender", test_mlw_attacks_name_their_defender},
    {"test_deck_builders_options_say_play_buy_or_end",
     test_deck_builders_options_say_play_buy_or_end},
    {"test_every_board_zone_is_in_the_view_even_when_empty",
     test_every_board_zone_is_in_the_view_even_when_empty},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_board_play", cases);
}
