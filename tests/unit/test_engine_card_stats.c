/*
 * test_engine_card_stats.c: a card's own counters (`NAME:ID`, the board games' statuses)
 * are in a seat's View only while the seat sees that card in play (engine/
 * engine_view_stats.c; issue 29: "a card in MLW's graveyard shows 'Attack 0 Health 0 Max
 * Health 0'"). A fixture game pins the rule zone by zone; whole MLW and Elemental matches
 * pin that no card in a graveyard ever shows a stat while pieces in play show theirs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "engine.h"
#include "rig_engine.h"

static const char *const names[] = {"ann", "bob"};

static bool has_counter(const Deckhand__View *v, const char *name)
{
    for (size_t i = 0; i < v->n_counters; i++)
        if (!strcmp(v->counters[i]->name, name))
            return true;
    return false;
}

/* Entities 1..5 stand in board (public, hinted board), grave (public, hinted discard),
 * hand of seat 1 (owner, hinted hand), aura (public, unhinted) and secret of seat 1
 * (owner, hinted play); each has a counter `attack:ID`, and `level:999` names no entity. */
static void test_card_counters_show_only_for_cards_a_seat_sees_in_play(void)
{
    static const char src[] =
        "return { min_players = 2, max_players = 2,\n"
        "  zones = { board = 'public', grave = 'public', hand = 'owner', aura = 'public',\n"
        "            secret = 'owner' },\n"
        "  presentation = { zones = { board = { kind = 'board' }, grave = { kind = 'discard' },\n"
        "    hand = { kind = 'hand' }, secret = { kind = 'play' } } },\n"
        "  setup = function(g)\n"
        "    local at = { { 'board:front:1', 0 }, { 'grave', 0 }, { 'hand', 1 }, { 'aura', 0 },\n"
        "                 { 'secret', 1 } }\n"
        "    for i, z in ipairs(at) do\n"
        "      local id = g:new('Imp', z[1], z[2]); g:set_counter('attack:' .. id, 0, i) end\n"
        "    g:set_counter('level:999', 0, 1) end,\n"
        "  turn = function(g) g:choose { player = 1, options = { { label = 'ok' } } } end,\n"
        "  finished = function(g) return false end,\n"
        "  results = function(g) return { { score = 0 }, { score = 0 } } end }\n";
    engine_error err = {0};
    engine_bundle *b = rig_engine_load_lua("s", &err, "%s", src);
    CU_ASSERT_FATAL(b != NULL);
    engine_match_config cfg = {
        .match_id = "m-s", .game = "s", .seed = 1, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    Deckhand__View *own = engine_match_view(m, 0), *other = engine_match_view(m, 1);
    CU_ASSERT_FATAL(own != NULL && other != NULL);
    CU_ASSERT_TRUE(has_counter(own, "attack:1"));    /* on the board */
    CU_ASSERT_FALSE(has_counter(own, "attack:2"));   /* in the graveyard */
    CU_ASSERT_FALSE(has_counter(own, "attack:3"));   /* in a hand, even its owner's */
    CU_ASSERT_TRUE(has_counter(own, "attack:4"));    /* an unhinted zone: as before */
    CU_ASSERT_TRUE(has_counter(own, "attack:5"));    /* in play where its owner sees it */
    CU_ASSERT_FALSE(has_counter(other, "attack:5")); /* ... and the other seat does not */
    CU_ASSERT_TRUE(has_counter(other, "attack:1"));
    CU_ASSERT_TRUE(has_counter(own, "level:999")); /* no entity: not a card's */
    engine_view_free(own);
    engine_view_free(other);
    engine_match_free(m);
    engine_bundle_free(b);
}

/* The entity ids of the grave zones a view shows. */
static bool in_grave(const Deckhand__View *v, uint32_t id)
{
    for (size_t i = 0; i < v->n_zones; i++)
        if (!strcmp(v->zones[i]->name, "grave"))
            for (size_t j = 0; j < v->zones[i]->n_cards; j++)
                if (v->zones[i]->cards[j]->entity == id)
                    return true;
    return false;
}

/* Plays game to its end; at every decision, no counter `NAME:ID` of a card in a grave is
 * shown, while cards in play show theirs. Counts both into *dead and *alive. */
static void play_and_check(const char *game, int *dead, int *alive)
{
    engine_limits lim = {.budget_ms = 5000};
    engine_bundle *b = rig_engine_load("scripts", &lim);
    CU_ASSERT_FATAL(b != NULL);
    engine_match_config cfg = {
        .match_id = "m-g", .game = game, .seed = 6, .nplayers = 2, .names = names};
    engine_match *m = rig_engine_match(b, &cfg);
    CU_ASSERT_FATAL(m != NULL);
    bool had[4096] = {false};
    for (int step = 0; step < 3000 && engine_match_decision(m); step++) {
        Deckhand__View *v = engine_match_view(m, 0);
        CU_ASSERT_FATAL(v != NULL);
        for (size_t i = 0; i < v->n_counters; i++) {
            const char *colon = strrchr(v->counters[i]->name, ':');
            uint32_t id = colon ? (uint32_t)strtoul(colon + 1, NULL, 10) : 0;
            if (!id || id >= 4096)
                continue;
            had[id] = true;
            (*alive)++;
            CU_ASSERT_FALSE(in_grave(v, id));
        }
        for (uint32_t id = 1; id < 4096; id++)
            *dead += had[id] && in_grave(v, id);
        engine_view_free(v);
        engine_error err = {0};
        engine_code rc = rig_engine_bot_step(m, &err);
        CU_ASSERT_EQUAL_FATAL(rc, ENGINE_OK);
    }
    engine_match_free(m);
    engine_bundle_free(b);
}

static void test_no_card_in_a_graveyard_shows_stats_in_mlw_or_elemental(void)
{
    static const char *const games[] = {"mlw", "elemental"};
    for (size_t i = 0; i < 2; i++) {
        int dead = 0, alive = 0;
        play_and_check(games[i], &dead, &alive);
        if (!dead || !alive)
            fprintf(stderr, "%s: %d dead, %d alive\n", games[i], dead, alive);
        CU_ASSERT(dead > 0); /* pieces with stats did die */
        CU_ASSERT(alive > 0);
    }
}

static const dh_test_case cases[] = {
    {"test_card_counters_show_only_for_cards_a_seat_sees_in_play",
     test_card_counters_show_only_for_cards_a_seat_sees_in_play},
    {"test_no_card_in_a_graveyard_shows_stats_in_mlw_or_elemental",
     test_no_card_in_a_graveyard_shows_stats_in_mlw_or_elemental},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_card_stats", cases);
}
