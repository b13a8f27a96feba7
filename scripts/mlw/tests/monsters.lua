-- Card tests for the monsters: each card's printed text, one test each (the plain
-- monsters together: their printed stats).
local M = require("mlw.testkit")

local tests = {}

function tests.test_plain_monsters_enter_play_with_their_printed_stats(T)
  local stats = { Goblin = { 1, 1, 2 }, Squire = { 1, 2, 1 }, Wolf = { 2, 2, 3 },
                  Knight = { 3, 3, 4 }, Ogre = { 4, 5, 4 }, ["Stone Golem"] = { 4, 2, 7 },
                  Dragon = { 7, 7, 7 } }
  local cards = require("mlw.game").cards
  for name, s in pairs(stats) do
    T.eq(cards[name].cost, s[1], name)
    local m = M.match(T, { p1 = { hand = { name } } })
    M.play(m, name)
    T.eq(M.stat(m, 1, 1, "attack"), s[2], name)
    T.eq(M.stat(m, 1, 1, "health"), s[3], name)
  end
end

function tests.test_fire_elemental_activates_to_deal_1_damage_to_a_monster_once_a_turn(T)
  local m = M.match(T, { p1 = { monsters = { "Fire Elemental" } }, p2 = { monsters = { "Wolf" } } })
  M.pick(m, "Activate Fire Elemental (P1 slot 1)")
  M.pick(m, M.slot("Wolf", 2, 1))
  T.eq(M.stat(m, 2, 1, "health"), 2)
  T.ok(not M.offers_any(m, "Activate"), "once per turn")
end

function tests.test_sparky_attacks_twice_and_is_never_counter_attacked(T)
  local m = M.match(T, { p1 = { monsters = { "Sparky" } }, p2 = { monsters = { "Stone Golem" } } })
  M.attack(m, 1, 1, M.slot("Stone Golem", 2, 1))
  T.eq(M.stat(m, 1, 1, "health"), 2, "no counter-attack")
  M.attack(m, 1, 1, M.slot("Stone Golem", 2, 1))
  T.eq(M.stat(m, 2, 1, "health"), 3)
  T.ok(not M.offers_any(m, "Sparky (P1 slot 1) attacks"), "twice, not three times")
end

function tests.test_alex_may_attack_the_wizard_directly_past_defenders(T)
  local m = M.match(T, { p1 = { monsters = { "Alex", "Knight" } }, p2 = { monsters = { "Wolf" } } })
  T.ok(not M.offers(m, "Knight (P1 slot 2) attacks P2's wizard"))
  M.attack(m, 1, 1, M.wiz(2))
  T.eq(M.health(m, 2), 17)
end

local function fumbles(T, name, full, seeds)
  local seen = {}
  for seed = 1, seeds do
    local m = M.match(T, { seed = seed, p1 = { monsters = { name } }, p2 = { health = 20 } })
    M.attack(m, 1, 1, M.wiz(2))
    seen[20 - M.health(m, 2)] = true
  end
  T.ok(seen[full], name .. " sometimes deals its full damage")
  T.ok(seen[full // 2], name .. " sometimes only half")
end

function tests.test_flux_has_a_50_percent_chance_to_deal_half_damage(T)
  fumbles(T, "Flux", 3, 16)
end

function tests.test_nunu_has_a_50_percent_chance_to_deal_half_damage(T)
  fumbles(T, "Nunu", 4, 16)
end

function tests.test_trap_breaker_stops_the_opponent_setting_traps(T)
  local m = M.match(T, { p1 = { hand = { "Backfire" } }, p2 = { monsters = { "Trap Breaker" } } })
  T.ok(not M.offers(m, "Play Backfire"))
  local m2 = M.match(T, { p1 = { hand = { "Backfire" }, monsters = { "Trap Breaker" } } })
  T.ok(M.offers(m2, "Play Backfire"), "its owner still may")
end

function tests.test_guardian_stops_enemy_monsters_attacking_your_wizard(T)
  local m = M.match(T, { p1 = { monsters = { "Alex" } },
                         p2 = { monsters = { { "Guardian", frozen = 1 } } } })
  T.ok(not M.offers(m, "Alex (P1 slot 1) attacks P2's wizard"), "even when it cannot defend")
end

function tests.test_ghost_cannot_defend_so_it_never_strikes_back_or_guards(T)
  local m = M.match(T, { p1 = { monsters = { "Knight", "Wolf" } },
                         p2 = { monsters = { "Ghost" } } })
  T.ok(M.offers(m, "Knight (P1 slot 1) attacks P2's wizard"))
  M.attack(m, 1, 2, M.slot("Ghost", 2, 1))
  T.eq(M.stat(m, 1, 2, "health"), 3, "no strike back")
end

function tests.test_troll_heals_2_at_the_start_of_its_owners_turn(T)
  local m = M.match(T, { p1 = { monsters = { { "Troll", health = 2 } } } })
  T.eq(M.stat(m, 1, 1, "health"), 4)
  M.end_turn(m)
  T.eq(M.stat(m, 1, 1, "health"), 4, "not on the opponent's turn")
end

function tests.test_bomb_imp_deals_2_to_the_opposing_wizard_when_destroyed(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { monsters = { "Bomb Imp" } } })
  M.attack(m, 1, 1, M.slot("Bomb Imp", 2, 1))
  T.eq(M.health(m, 1), 18)
end

function tests.test_gravedigger_gains_1_attack_when_another_monster_is_destroyed(T)
  local m = M.match(T, { p1 = { monsters = { "Gravedigger", "Knight" } },
                         p2 = { monsters = { "Squire" } } })
  M.attack(m, 1, 2, M.slot("Squire", 2, 1))
  T.eq(M.stat(m, 1, 1, "attack"), 3)
end

function tests.test_viper_poisons_the_monster_it_damages(T)
  local m = M.match(T, { p1 = { monsters = { "Viper" } }, p2 = { monsters = { "Stone Golem" } } })
  M.attack(m, 1, 1, M.slot("Stone Golem", 2, 1))
  T.eq(M.stat(m, 2, 1, "poison"), 1)
  M.end_turn(m)
  T.eq(M.stat(m, 2, 1, "health"), 5, "1 from the bite, 1 from the poison")
end

function tests.test_frost_mage_freezes_an_enemy_monster(T)
  local m = M.match(T, { p1 = { monsters = { "Frost Mage" } }, p2 = { monsters = { "Ogre" } } })
  M.pick(m, "Activate Frost Mage (P1 slot 1)")
  M.pick(m, M.slot("Ogre", 2, 1))
  T.eq(M.stat(m, 2, 1, "frozen"), 1)
end

function tests.test_healer_restores_2_health_to_your_wizard(T)
  local m = M.match(T, { p1 = { health = 10, monsters = { "Healer" } } })
  M.pick(m, "Activate Healer (P1 slot 1)")
  T.eq(M.health(m, 1), 12)
end

function tests.test_archer_pays_1_mana_to_deal_1_damage_to_the_opposing_wizard(T)
  local m = M.match(T, { p1 = { monsters = { "Archer" } } })
  local mana = M.mana(m, 1)
  M.pick(m, "Activate Archer (P1 slot 1)")
  T.eq(M.health(m, 2), 19)
  T.eq(M.mana(m, 1), mana - 1)
end

function tests.test_pyromancer_deals_2_to_the_opposing_wizard_when_played(T)
  local m = M.match(T, { p1 = { hand = { "Pyromancer" } } })
  M.play(m, "Pyromancer")
  T.eq(M.health(m, 2), 18)
end

function tests.test_shield_bearer_shields_the_other_friendly_monsters(T)
  local m = M.match(T, { p1 = { hand = { "Shield Bearer" }, monsters = { "Wolf" } },
                         p2 = { hand = { "Spark" } } })
  M.play(m, "Shield Bearer")
  T.eq(M.stat(m, 1, 1, "shield"), 1)
  T.eq(M.stat(m, 1, 2, "shield"), 0, "not itself")
  M.end_turn(m)
  M.play(m, "Spark", M.slot("Wolf", 1, 1))
  T.eq(M.stat(m, 1, 1, "health"), 3, "the shield took the hit")
  T.eq(M.stat(m, 1, 1, "shield"), 0)
end

return tests
