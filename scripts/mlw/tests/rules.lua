-- Rules tests for Major League Wizardry: set-up, the turn's start (draw, mana, upkeep),
-- the zones' limits, attacks and defence, drain, discard, surrender, the deck running
-- out, the hand limit and the end. One behaviour each.
local M = require("mlw.testkit")

-- The preset decks and the full hand: boardkit/suites.lua.
local tests = require("boardkit.suites").rules {
  kit = M, game = "mlw.game", decks = { "fire", "frost" },
  filler = "Goblin", drawn = "Dragon", lost = "grave",
}

-- ---- set-up ----------------------------------------------------------------------------

function tests.test_each_wizard_has_20_health_a_40_card_deck_and_draws_5(T)
  local m = T.match { players = 2 }
  for p = 1, 2 do
    T.eq(m.g:count("deck", p) + m.g:count("hand", p), 40)
    T.eq(m.g:count("hand", p), p == 1 and 5 or 5, "5 cards in the opening hand")
    T.eq(M.health(m, p), 20)
    T.eq(m.g:counter("max_monsters", p), 5)
    T.eq(m.g:counter("max_traps", p), 1)
  end
end

function tests.test_deck_options_pick_each_wizards_preset_deck(T)
  local m = T.match { players = 2, options = "deck_1=frost;deck_2=fire" }
  local function has(p, name)
    for _, zone in ipairs { "deck", "hand" } do
      for _, id in ipairs(m.g:list(zone, p)) do
        if m.g:name(id) == name then return true end
      end
    end
    return false
  end
  T.ok(has(1, "Drain Warden") and not has(1, "Sparky"), "P1 plays frost")
  T.ok(has(2, "Sparky") and not has(2, "Drain Warden"), "P2 plays fire")
  local options = require("mlw.game").options
  T.eq(options[1].name, "deck_1")
  T.eq(table.concat(options[2].values, ","), "fire,frost")
  T.ok(T.check_options(options), "the options are valid declarations")
end

-- ---- the turn's start ------------------------------------------------------------------

function tests.test_first_player_does_not_draw_on_the_first_turn(T)
  local m = T.match { players = 2 }
  T.eq(m.g:count("hand", 1), 5)
  T.eq(m.g:counter("max_mana", 1), 1, "max mana +1: 1 on the first turn")
  T.eq(M.mana(m, 1), 1)
end

function tests.test_turn_start_draws_one_and_raises_max_mana_by_one(T)
  local m = T.match { players = 2 }
  M.end_turn(m)
  T.eq(m.g:count("hand", 2), 6, "P2 drew one")
  T.eq(m.g:counter("max_mana", 2), 1)
  M.end_turn(m)
  T.eq(m.g:count("hand", 1), 6, "P1 drew on the second turn")
  T.eq(m.g:counter("max_mana", 1), 2)
  T.eq(M.mana(m, 1), 2)
end

function tests.test_max_mana_stops_at_10(T)
  local m = M.match(T, { p1 = { mana = 12 } })
  T.eq(m.g:counter("max_mana", 1), 10)
end

function tests.test_mana_is_max_mana_minus_upkeep_of_monsters_in_play(T)
  local m = M.match(T, { p1 = { mana = 6, monsters = { "Wolf", "Knight" } } })
  T.eq(m.g:counter("upkeep", 1), 5, "Wolf 2 + Knight 3")
  T.eq(M.mana(m, 1), 1)
end

function tests.test_upkeep_above_max_mana_leaves_zero_mana(T)
  local m = M.match(T, { p1 = { mana = 3, monsters = { "Ogre" } } })
  T.eq(M.mana(m, 1), 0)
end

-- ---- playing cards ---------------------------------------------------------------------

function tests.test_a_card_costing_more_than_the_mana_is_not_offered(T)
  local m = M.match(T, { p1 = { mana = 3, hand = { "Fireball", "Wolf" } } })
  T.ok(not M.offers(m, "Play Fireball"))
  T.ok(M.offers(m, "Play Wolf"))
end

function tests.test_playing_a_monster_pays_its_cost_and_puts_it_in_the_monster_zone(T)
  local m = M.match(T, { p1 = { hand = { "Wolf" } } })
  M.play(m, "Wolf")
  T.eq(M.monsters(m, 1), "Wolf")
  T.eq(M.mana(m, 1), 8)
  T.eq(m.g:counter("upkeep", 1), 2, "the upkeep shows the new monster")
  T.eq(M.stat(m, 1, 1, "attack"), 2)
  T.eq(M.stat(m, 1, 1, "health"), 3)
end

function tests.test_at_most_5_monsters_in_play(T)
  local m = M.match(T, { p1 = { mana = 10, hand = { "Goblin" },
    monsters = { "Goblin", "Goblin", "Goblin", "Goblin", "Goblin" } } })
  T.ok(not M.offers(m, "Play Goblin"))
end

function tests.test_a_spell_takes_effect_and_goes_to_the_graveyard(T)
  local m = M.match(T, { p1 = { hand = { "Spark" } }, p2 = { monsters = { "Squire" } } })
  M.play(m, "Spark", M.slot("Squire", 2, 1))
  T.eq(M.monsters(m, 2), "-", "Squire (1 health) destroyed")
  T.eq(M.names(m.g, "grave", 1), "Spark")
end

function tests.test_a_trap_goes_face_down_and_only_one_may_be_set(T)
  local m = M.match(T, { p1 = { hand = { "Backfire", "Pitfall" } } })
  M.play(m, "Backfire")
  T.eq(m.g:count("trap", 1), 1)
  T.ok(not M.offers(m, "Play Pitfall"), "the trap zone holds one")
  T.ok(M.saw(m, 2, "P1 sets a trap"), "the opponent is told only that a trap is set")
end

-- ---- attacks ---------------------------------------------------------------------------

function tests.test_monster_attack_deals_damage_both_ways_at_once(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { monsters = { "Stone Golem" } } })
  M.attack(m, 1, 1, M.slot("Stone Golem", 2, 1))
  T.eq(M.stat(m, 1, 1, "health"), 2, "Knight 3/4 takes 2")
  T.eq(M.stat(m, 2, 1, "health"), 4, "Golem 2/7 takes 3")
end

function tests.test_both_monsters_die_when_each_kills_the_other(T)
  local m = M.match(T, { p1 = { monsters = { "Squire" } }, p2 = { monsters = { "Squire" } } })
  M.attack(m, 1, 1, M.slot("Squire", 2, 1))
  T.eq(M.monsters(m, 1), "-")
  T.eq(M.monsters(m, 2), "-")
end

function tests.test_a_monster_cannot_attack_on_the_turn_it_is_played(T)
  local m = M.match(T, { p1 = { hand = { "Wolf" } } })
  M.play(m, "Wolf")
  T.ok(not M.offers_any(m, "Wolf (P1 slot 1) attacks"))
end

function tests.test_a_monster_attacks_once_per_turn(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { monsters = { "Stone Golem" } } })
  M.attack(m, 1, 1, M.slot("Stone Golem", 2, 1))
  T.ok(not M.offers_any(m, "Knight (P1 slot 1) attacks"))
end

function tests.test_the_wizard_may_be_attacked_only_when_no_monster_can_defend(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { monsters = { "Goblin" } } })
  T.ok(not M.offers(m, "Knight (P1 slot 1) attacks P2's wizard"), "the Goblin defends")
  M.attack(m, 1, 1, M.slot("Goblin", 2, 1))
  local m2 = M.match(T, { p1 = { monsters = { "Knight" } } })
  M.attack(m2, 1, 1, M.wiz(2))
  T.eq(M.health(m2, 2), 17)
end

function tests.test_a_monster_that_cannot_defend_neither_guards_nor_strikes_back(T)
  local m = M.match(T, { p1 = { monsters = { "Knight", "Wolf" } },
                         p2 = { monsters = { { "Ogre", frozen = 1 } } } })
  T.ok(M.offers(m, "Knight (P1 slot 1) attacks P2's wizard"), "a frozen monster cannot defend")
  M.attack(m, 1, 2, M.slot("Ogre", 2, 1))
  T.eq(M.stat(m, 1, 2, "health"), 3, "no counter-attack")
end

-- ---- drain and discard -----------------------------------------------------------------

function tests.test_drain_refunds_the_cost_and_raises_max_mana_and_mana_by_one(T)
  local m = M.match(T, { p1 = { mana = 6, monsters = { "Knight" } } })
  T.eq(M.mana(m, 1), 3)
  M.pick(m, "Drain Knight (P1 slot 1)")
  T.eq(M.monsters(m, 1), "-")
  T.eq(M.mana(m, 1), 7, "3 + cost 3 + 1")
  T.eq(m.g:counter("max_mana", 1), 7)
  T.eq(m.g:counter("upkeep", 1), 0)
end

function tests.test_drain_is_once_per_turn(T)
  local m = M.match(T, { p1 = { monsters = { "Goblin", "Wolf" } } })
  M.pick(m, "Drain Goblin (P1 slot 1)")
  T.ok(not M.offers_any(m, "Drain"))
  M.end_turn(m)
  M.end_turn(m)
  T.ok(M.offers(m, "Drain Wolf (P1 slot 1)"), "again next turn")
end

function tests.test_discard_removes_your_own_monster_or_trap_without_refund(T)
  local m = M.match(T, { p1 = { monsters = { "Wolf" }, trap = "Backfire" } })
  local mana = M.mana(m, 1)
  M.pick(m, "Discard Backfire")
  M.pick(m, "Discard Wolf (P1 slot 1)")
  T.eq(M.monsters(m, 1), "-")
  T.eq(m.g:count("trap", 1), 0)
  T.eq(M.mana(m, 1), mana)
  T.eq(M.names(m.g, "grave", 1), "Wolf")
  T.eq(M.names(m.g, "unseen", 1), "Backfire", "the trap leaves face down")
end

-- ---- the end ---------------------------------------------------------------------------

function tests.test_a_wizard_at_0_health_loses(T)
  local m = M.match(T, { p1 = { hand = { "Fireball" } }, p2 = { health = 4 } })
  M.play(m, "Fireball", M.wiz(2))
  T.ok(m:finished())
  T.eq(m:results()[1].rank, 1)
  T.eq(m:results()[2].rank, 2)
end

function tests.test_both_wizards_down_at_once_is_a_draw(T)
  -- Avalanche destroys both Bomb Imps: each deals 2 to the other wizard.
  local m = M.match(T, { p1 = { health = 2, hand = { "Avalanche" }, monsters = { "Bomb Imp" } },
                         p2 = { health = 2, monsters = { "Bomb Imp" } } })
  M.play(m, "Avalanche")
  T.ok(m:finished())
  T.eq(m:results()[1].rank, 1)
  T.eq(m:results()[2].rank, 1)
end

function tests.test_at_the_turn_cap_the_wizard_with_more_health_wins(T)
  local m = M.match(T, { p1 = { health = 12 }, p2 = { health = 15 } })
  local r = require("mlw.game").results(m.g)
  T.eq(r[1].rank, 2)
  T.eq(r[2].rank, 1)
  T.eq(r[2].score, 15, "the score is the health left")
end

function tests.test_surrender_loses_at_once(T)
  local m = T.match { players = 2 }
  M.pick(m, "Surrender")
  T.ok(m:finished())
  T.eq(m:results()[1].rank, 2)
  T.eq(m:results()[2].rank, 1)
end

-- Seed 003's use case 8: "The players wizards health is reduced to zero"; the end
-- screen then shows the surrendering wizard with the lower score.
function tests.test_surrender_drops_the_wizard_to_zero_health(T)
  local m = M.match(T, { p1 = { health = 15 } })
  M.pick(m, "Surrender")
  T.eq(M.health(m, 1), 0)
  local r = m:results()
  T.eq(r[1].score, 0, "the score is the health left")
  T.eq(r[2].score, 20)
  T.eq(r[1].rank, 2)
end

function tests.test_drawing_from_an_empty_deck_deals_2_damage(T)
  local m = M.match(T, { p2 = { deck = {} } })
  M.end_turn(m)
  T.eq(M.health(m, 2), 18)
end

function tests.test_the_game_declares_a_turn_cap_its_bots_stay_far_from(T)
  T.eq(require("mlw.game").max_turns, 200)
  M.bot_games(T, { players = { 2 }, bots = { "default" }, seeds = { 1, 2, 3 },
    check = function(m)
      local r = m:results()
      T.ok((r[1].turns + r[2].turns) * 2 <= 200, "under half the cap")
    end })
end

return tests
