/*
 * test_engine_present.c: a game's presentation hints (engine/engine_present.c): read from
 * the fixture game's `presentation` table into the Catalog, in a stable order; a bad
 * table refused at load with an error naming the field; a game without one sends none;
 * and every shipped game hints every zone its views show, all through a match, and every
 * zone its `zones` table names (it includes engine_internal.h for that table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "engine_internal.h"
#include "rig_engine.h"

/* A one-file bundle "p" whose game "p" carries presentation (a Lua expression). */
static engine_bundle *load_with(const char *presentation, engine_error *err)
{
    return rig_engine_load_lua(
        "p", err,
        "return { min_players = 1, max_players = 2,\n"
        "  zones = { hand = 'owner', board = 'public', deck = 'hidden' },\n"
        "  cards = { Coin = { cost = 1, types = { 'Treasure' }, text = '+1' } },\n"
        "  presentation = %s,\n"
        "  turn = function(g) end, finished = function(g) return true end,\n"
        "  results = function(g) return { { score = 0 } } end }\n",
        presentation);
}

static Deckhand__Catalog *catalog_of(engine_bundle *b, const char *game)
{
    engine_match_config cfg = {.match_id = "m", .game = game, .seed = 1, .nplayers = 1};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__Catalog *c = engine_match_catalog(m);
    engine_match_free(m);
    return c;
}

static void test_catalog_carries_the_bundles_presentation_hints(void)
{
    engine_bundle *b = rig_engine_load_mini();
    CU_ASSERT_FATAL(b != NULL);
    engine_match *m = rig_engine_mini_match(b, 3, NULL, NULL);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__Catalog *c = engine_match_catalog(m);
    CU_ASSERT_FATAL(c != NULL && c->presentation != NULL);
    const Deckhand__Presentation *p = c->presentation;
    /* by order, then name: pile 0, hand 1, play 2, deck 3, discard 3, vault 4 */
    static const char *const zones[] = {"pile", "hand", "play", "deck", "discard", "vault"};
    CU_ASSERT_EQUAL_FATAL(p->n_zones, 6);
    for (size_t i = 0; i < 6; i++)
        CU_ASSERT_STRING_EQUAL(p->zones[i]->zone, zones[i]);
    CU_ASSERT_STRING_EQUAL(p->zones[0]->kind, "supply");
    CU_ASSERT_STRING_EQUAL(p->zones[0]->label, "Pile");
    CU_ASSERT_EQUAL(p->zones[0]->columns, 4);
    CU_ASSERT_STRING_EQUAL(p->zones[0]->color, "#336699");
    CU_ASSERT_STRING_EQUAL(p->zones[1]->kind, "hand");
    CU_ASSERT_STRING_EQUAL(p->zones[1]->label, "Your hand");
    CU_ASSERT_EQUAL(p->zones[1]->order, 1);
    CU_ASSERT_STRING_EQUAL(p->zones[2]->label, ""); /* not given: the client names it */
    CU_ASSERT_STRING_EQUAL(p->zones[2]->color, "");
    CU_ASSERT_EQUAL(p->zones[2]->columns, 0);
    CU_ASSERT_STRING_EQUAL(p->zones[5]->kind, "hidden");
    CU_ASSERT_EQUAL_FATAL(p->n_type_colors, 2);
    CU_ASSERT_STRING_EQUAL(p->type_colors[0]->type, "Jewel");
    CU_ASSERT_STRING_EQUAL(p->type_colors[0]->color, "teal");
    CU_ASSERT_STRING_EQUAL(p->type_colors[1]->type, "Treasure");
    CU_ASSERT_STRING_EQUAL(p->type_colors[1]->color, "#f2d675");
    /* it survives the wire */
    size_t len = deckhand__catalog__get_packed_size(c);
    uint8_t *buf = malloc(len);
    CU_ASSERT_FATAL(buf != NULL);
    deckhand__catalog__pack(c, buf);
    Deckhand__Catalog *back = deckhand__catalog__unpack(NULL, len, buf);
    CU_ASSERT_FATAL(back != NULL && back->presentation != NULL);
    CU_ASSERT_EQUAL(back->presentation->n_zones, 6);
    CU_ASSERT_EQUAL(back->presentation->zones[0]->columns, 4);
    deckhand__catalog__free_unpacked(back, NULL);
    free(buf);
    engine_catalog_free(c);
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_hints_load_in_the_same_order_whatever_lua_does(void)
{
    engine_error err = {0};
    engine_bundle *b = load_with("{ zones = { deck = { kind = 'deck' }, board = { kind = 'board', "
                                 "columns = 5 }, hand = { kind = 'hand' } } }",
                                 &err);
    CU_ASSERT_FATAL(b != NULL);
    Deckhand__Catalog *c = catalog_of(b, "p");
    CU_ASSERT_FATAL(c != NULL && c->presentation != NULL);
    CU_ASSERT_EQUAL_FATAL(c->presentation->n_zones, 3);
    CU_ASSERT_STRING_EQUAL(c->presentation->zones[0]->zone, "board"); /* all order 0: by name */
    CU_ASSERT_EQUAL(c->presentation->zones[0]->columns, 5);
    CU_ASSERT_STRING_EQUAL(c->presentation->zones[1]->zone, "deck");
    CU_ASSERT_STRING_EQUAL(c->presentation->zones[2]->zone, "hand");
    CU_ASSERT_EQUAL(c->presentation->n_type_colors, 0);
    engine_catalog_free(c);
    engine_bundle_free(b);
}

static void test_game_without_hints_sends_no_presentation(void)
{
    engine_error err = {0};
    engine_bundle *b = load_with("nil", &err);
    CU_ASSERT_FATAL(b != NULL);
    Deckhand__Catalog *c = catalog_of(b, "p");
    CU_ASSERT_FATAL(c != NULL);
    CU_ASSERT_PTR_NULL(c->presentation);
    CU_ASSERT_EQUAL(c->n_cards, 1);
    engine_catalog_free(c);
    engine_bundle_free(b);
}

static void test_bad_hints_are_refused_naming_the_field(void)
{
    static const struct {
        const char *lua, *field;
    } bad[] = {
        {"5", "presentation must be a table"},
        {"{ colours = {} }", "unknown field 'colours'"},
        {"{ zones = { hand = { kind = 'pocket' } } }", "presentation.zones.hand.kind"},
        {"{ zones = { hand = {} } }", "presentation.zones.hand.kind"},
        {"{ zones = { hnad = { kind = 'hand' } } }", "presentation.zones.hnad names no zone"},
        {"{ zones = { hand = { kind = 'hand', colour = 'red' } } }",
         "presentation.zones.hand has an unknown field 'colour'"},
        {"{ zones = { board = { kind = 'board', columns = 99 } } }",
         "presentation.zones.board.columns"},
        {"{ zones = { board = { kind = 'board', columns = 2.5 } } }",
         "presentation.zones.board.columns"},
        {"{ zones = { hand = { kind = 'hand', order = 'first' } } }",
         "presentation.zones.hand.order"},
        {"{ zones = { hand = { kind = 'hand', label = string.rep('x', 65) } } }",
         "presentation.zones.hand.label"},
        {"{ zones = { hand = { kind = 'hand', label = 'a\\nb' } } }",
         "presentation.zones.hand.label"},
        {"{ zones = { hand = { kind = 'hand', color = 'red;background:url(x)' } } }",
         "presentation.zones.hand.color"},
        {"{ zones = { hand = { kind = 'hand', color = '#12' } } }",
         "presentation.zones.hand.color"},
        {"{ zones = { 'hand' } }", "presentation.zones must map zone names"},
        {"{ type_colors = { Treasure = 'Gold!' } }", "presentation.type_colors.Treasure"},
        {"{ type_colors = { Treasure = 7 } }", "presentation.type_colors.Treasure"},
        {"{ type_colors = 'gold' }", "presentation.type_colors must map"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        engine_error err = {0};
        engine_bundle *b = load_with(bad[i].lua, &err);
        CU_ASSERT_PTR_NULL(b);
        CU_ASSERT_EQUAL(err.code, ENGINE_SCRIPT_ERROR);
        if (!strstr(err.message, bad[i].field) || !strstr(err.message, "game 'p'")) {
            fprintf(stderr, "%s: got '%s', wanted '%s'\n", bad[i].lua, err.message, bad[i].field);
            CU_FAIL("the error does not name the field");
        }
        engine_bundle_free(b);
    }
}

/* The hint of a view's zone: its exact name, else its name before the first ':'
 * ("supply:Copper", "board:front:3"), as docs/SCRIPTING.md says clients match them. */
static bool hinted(const Deckhand__Presentation *p, const char *zone)
{
    const char *colon = strchr(zone, ':');
    size_t plen = colon ? (size_t)(colon - zone) : strlen(zone);
    for (size_t i = 0; i < p->n_zones; i++)
        if (!strcmp(p->zones[i]->zone, zone) ||
            (strlen(p->zones[i]->zone) == plen && !strncmp(p->zones[i]->zone, zone, plen)))
            return true;
    return false;
}

/* Every zone both seats' views show, from the start and through up to steps answers of
 * the game's default bot, has a hint. The number of zones checked goes to *seen. */
static void check_game(engine_bundle *b, const char *game, int steps, size_t *seen)
{
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-hints", .game = game, .seed = 7, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__Catalog *c = engine_match_catalog(m);
    CU_ASSERT_FATAL(c != NULL);
    if (!c->presentation) {
        fprintf(stderr, "%s: no presentation table\n", game);
        CU_FAIL("a shipped game has no presentation hints");
        goto out;
    }
    CU_ASSERT(c->presentation->n_type_colors > 0);
    for (int step = 0; step <= steps; step++) {
        for (int seat = 0; seat < 2; seat++) {
            Deckhand__View *v = engine_match_view(m, seat);
            CU_ASSERT_FATAL(v != NULL);
            for (size_t i = 0; i < v->n_zones; i++) {
                (*seen)++;
                if (!hinted(c->presentation, v->zones[i]->name)) {
                    fprintf(stderr, "%s: zone '%s' has no hint\n", game, v->zones[i]->name);
                    CU_FAIL("a zone a view shows has no presentation hint");
                }
            }
            engine_view_free(v);
        }
        if (!engine_match_decision(m))
            break;
        engine_error err = {0};
        engine_code rc = rig_engine_bot_step(m, &err);
        if (rc != ENGINE_OK) {
            fprintf(stderr, "%s: step %d: %s\n", game, step, err.message);
            CU_FAIL("the default bot's answer was not accepted");
            break;
        }
    }
out:
    engine_catalog_free(c);
    engine_match_free(m);
}

/* The shipped bundle with a roomy script deadline: a loaded machine must not fail a test
 * about hints by a bot's call running long. */
static engine_bundle *load_scripts(void)
{
    engine_limits lim = {.budget_ms = 5000};
    return rig_engine_load("scripts", &lim);
}

static void test_every_shipped_game_hints_every_zone_its_views_show(void)
{
    engine_bundle *b = load_scripts();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"dominion", "accession", "ascension",
                                        "caveman",  "elemental", "mlw"};
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        size_t seen = 0;
        check_game(b, games[i], 150, &seen);
        CU_ASSERT(seen > 0);
    }
    engine_bundle_free(b);
}

/* Zones a match may show only late (Sentry's "look", Elemental's "burned") are hinted too:
 * every name of each shipped game's `zones` table has a hint of its own. */
static void test_every_shipped_game_hints_every_zone_it_declares(void)
{
    engine_bundle *b = load_scripts();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const games[] = {"dominion", "accession", "ascension",
                                        "caveman",  "elemental", "mlw"};
    for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
        const engine_game *g = engine_bundle_game(b, games[i]);
        CU_ASSERT_FATAL(g != NULL);
        CU_ASSERT(g->nzones > 0);
        for (size_t z = 0; z < g->nzones; z++) {
            bool found = false;
            for (size_t h = 0; h < g->nhints; h++)
                found = found || !strcmp(g->hints[h].zone, g->zones[z].name);
            if (!found)
                fprintf(stderr, "%s: zone '%s' has no hint\n", games[i], g->zones[z].name);
            CU_ASSERT(found);
        }
    }
    engine_bundle_free(b);
}

static void test_elemental_board_is_five_columns(void)
{
    engine_bundle *b = load_scripts();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const names[] = {"ann", "bob"};
    engine_match_config cfg = {
        .match_id = "m-board", .game = "elemental", .seed = 1, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__Catalog *c = engine_match_catalog(m);
    CU_ASSERT_FATAL(c != NULL && c->presentation != NULL);
    bool found = false;
    for (size_t i = 0; i < c->presentation->n_zones; i++)
        if (!strcmp(c->presentation->zones[i]->zone, "board")) {
            found = true;
            CU_ASSERT_STRING_EQUAL(c->presentation->zones[i]->kind, "board");
            CU_ASSERT_EQUAL(c->presentation->zones[i]->columns, 5);
        }
    CU_ASSERT(found);
    engine_catalog_free(c);
    engine_match_free(m);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_catalog_carries_the_bundles_presentation_hints",
     test_catalog_carries_the_bundles_presentation_hints},
    {"test_hints_load_in_the_same_order_whatever_lua_does",
     test_hints_load_in_the_same_order_whatever_lua_does},
    {"test_game_without_hints_sends_no_presentation",
     test_game_without_hints_sends_no_presentation},
    {"test_bad_hints_are_refused_naming_the_field", test_bad_hints_are_refused_naming_the_field},
    {"test_every_shipped_game_hints_every_zone_its_views_show",
     test_every_shipped_game_hints_every_zone_its_views_show},
    {"test_every_shipped_game_hints_every_zone_it_declares",
     test_every_shipped_game_hints_every_zone_it_declares},
    {"test_elemental_board_is_five_columns", test_elemental_board_is_five_columns},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_present", cases);
}
