/*
 * test_engine_board_combat.c: g:clash (engine_board_combat.c), a plain attack between two
 * pieces in C, against the Lua rule it stands in for. A quiet match takes the C path and
 * a loud one (someone reads the log) the Lua rule, so the same match played both ways
 * must end with the same state hash; a status or a card text that changes a hit sends
 * the attack to the Lua rule even when quiet.
 *
 * The game "clash": in one turn, five attacks, each done by g:clash when it says so, else
 * by the Lua rule below (Elemental's exchange: the attacker's attack to the target's
 * health, the target's back unless it is a hero, each hit published as `health:ID` or on
 * the hero's owner's counter, one log line for the attack and one per hit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dh_test.h"
#include "rig_engine.h"

static const char clash_game[] =
    "local STATUSES, TEXT = { 'shield', 'thorns' }, { Nettle = true }\n"
    "local function hurt(g, id, n)\n"
    "  if n <= 0 then return end\n"
    "  local z, o = g:zone_of(id)\n"
    "  if z == 'hero' then g:add_counter('health', o, -n) else\n"
    "    local v = g:get(id, 'health') - n\n"
    "    g:set(id, 'health', v)\n"
    "    g:set_counter('health:' .. id, 0, v)\n"
    "  end\n"
    "  g:log('a hit')\n"
    "end\n"
    "local function rule(g, a, t)\n"
    "  g:log('an attack')\n"
    "  g:set(a, 'attacks', g:get(a, 'attacks') + 1)\n"
    "  local back = (g:zone_of(t)) ~= 'hero' and g:get(t, 'attack') or 0\n"
    "  hurt(g, t, g:get(a, 'attack'))\n"
    "  hurt(g, a, back)\n"
    "end\n"
    "local function piece(g, name, zone, p, atk, hp)\n"
    "  local id = g:new(name, zone, p)\n"
    "  g:set(id, 'attack', atk); g:set(id, 'health', hp)\n"
    "  g:set_counter('health:' .. id, 0, hp)\n"
    "  return id\n"
    "end\n"
    "-- a attacks t; plain: whether g:clash must do it (quiet) or leave it to the rule\n"
    "local function attack(g, a, t, plain)\n"
    "  local done = g:clash(a, t, 'attack', 'health', 'attacks', 'hero', STATUSES, TEXT)\n"
    "  assert(done == (plain and not g:logging()), 'clash on ' .. g:name(t))\n"
    "  if not done then rule(g, a, t) end\n"
    "end\n"
    "return { min_players = 2, max_players = 2,\n"
    "  setup = function(g)\n"
    "    g:set_counter('health', 1, 30); g:set_counter('health', 2, 30)\n"
    "  end,\n"
    "  turn = function(g)\n"
    "    local imp = piece(g, 'Imp', 'board', 1, 2, 3)\n"
    "    local ogre = piece(g, 'Ogre', 'board', 2, 1, 5)\n"
    "    local hero = g:new('Hero', 'hero', 2)\n"
    "    local wall = piece(g, 'Wall', 'board', 1, 0, 4)\n"
    "    local nettle = piece(g, 'Nettle', 'board', 2, 3, 2)\n"
    "    local knight = piece(g, 'Knight', 'board', 1, 4, 4)\n"
    "    g:set(knight, 'shield', 1)\n"
    "    attack(g, imp, ogre, true)\n"
    "    attack(g, imp, hero, true)\n"
    "    attack(g, wall, ogre, true)\n"
    "    attack(g, imp, nettle, false)\n"
    "    attack(g, knight, ogre, false)\n"
    "    g:set_counter('over', 0, 1)\n"
    "  end,\n"
    "  finished = function(g) return g:counter('over', 0) == 1 end,\n"
    "  results = function(g)\n"
    "    return { { score = g:counter('health', 1) }, { score = g:counter('health', 2) } }\n"
    "  end,\n"
    "  bots = { default = function() return { 1 } end } }\n";

static const char *const names2[] = {"Ann", "Bob"};

static engine_match *play(engine_bundle *b, const char *game, const char *const *bots, bool quiet)
{
    engine_match_config cfg = {.match_id = "m-clash",
                               .game = game,
                               .seed = 5,
                               .nplayers = 2,
                               .names = names2,
                               .bots = bots,
                               .quiet = quiet};
    return rig_engine_match(b, &cfg);
}

static void test_clash_in_c_ends_where_the_lua_rule_ends_and_leaves_statuses_and_text_to_lua(void)
{
    char dir[64];
    engine_bundle *b = rig_engine_load_text(dir, sizeof dir, "clash", clash_game);
    CU_ASSERT_FATAL(b != NULL);
    engine_match *loud = play(b, "clash", NULL, false);
    engine_match *quiet = play(b, "clash", NULL, true);
    CU_ASSERT_FATAL(loud && quiet); /* the game's asserts held both ways */
    CU_ASSERT(engine_match_finished(loud) && engine_match_finished(quiet));
    CU_ASSERT_EQUAL(engine_match_hash(quiet), engine_match_hash(loud));
    for (int seat = 0; seat < 2; seat++) /* 5 attacks, 8 hits above 0 */
        CU_ASSERT_EQUAL(engine_match_event_seq(quiet, seat), engine_match_event_seq(loud, seat));
    CU_ASSERT_EQUAL(engine_match_event_seq(quiet, ENGINE_SEAT_PUBLIC), 13);
    engine_result r[2];
    CU_ASSERT_EQUAL_FATAL(engine_match_results(quiet, r, 2), 2);
    CU_ASSERT_EQUAL(r[1].score, 28); /* the Imp's 2 on Bob's hero */
    engine_match_free(loud);
    engine_match_free(quiet);
    engine_bundle_free(b);
    rig_engine_remove_text(dir, "clash");
}

/* Elemental's attacks take g:clash when quiet: a whole match of its bots ends the same. */
static void test_elemental_match_quiet_with_clash_ends_with_the_hash_played_loud(void)
{
    engine_bundle *b = rig_engine_load_games();
    CU_ASSERT_FATAL(b != NULL);
    static const char *const bots[] = {"default", "default"};
    engine_match *loud = play(b, "elemental", bots, false);
    engine_match *quiet = play(b, "elemental", bots, true);
    CU_ASSERT_FATAL(loud && quiet);
    CU_ASSERT(engine_match_finished(loud) && engine_match_finished(quiet));
    CU_ASSERT_EQUAL(engine_match_hash(quiet), engine_match_hash(loud));
    engine_match_free(loud);
    engine_match_free(quiet);
    engine_bundle_free(b);
}

static const dh_test_case cases[] = {
    {"test_clash_in_c_ends_where_the_lua_rule_ends_and_leaves_statuses_and_text_to_lua",
     test_clash_in_c_ends_where_the_lua_rule_ends_and_leaves_statuses_and_text_to_lua},
    {"test_elemental_match_quiet_with_clash_ends_with_the_hash_played_loud",
     test_elemental_match_quiet_with_clash_ends_with_the_hash_played_loud},
    {NULL, NULL},
};

int main(void)
{
    return dh_test_main("engine_board_combat", cases);
}
