-- Card tests for the spells and traps: each card's printed text, one test each.
local M = require("mlw.testkit")

local tests = {}

function tests.test_fireball_deals_4_damage_to_a_monster_or_a_wizard(T)
  local m = M.match(T, { p1 = { hand = { "Fireball", "Fireball" } },
                         p2 = { monsters = { "Stone Golem" } } })
  M.play(m, "Fireball", M.slot("Stone Golem", 2, 1))
  T.eq(M.stat(m, 2, 1, "health"), 3)
  M.play(m, "Fireball", M.wiz(2))
  T.eq(M.health(m, 2), 16)
end

function tests.test_avalanche_destroys_all_monsters(T)
  local m = M.match(T, { p1 = { hand = { "Avalanche" }, monsters = { "Wolf" } },
                         p2 = { monsters = { "Dragon", "Goblin" } } })
  M.play(m, "Avalanche")
  T.eq(M.monsters(m, 1), "-")
  T.eq(M.monsters(m, 2), "-")
end

function tests.test_spark_deals_1_damage(T)
  local m = M.match(T, { p1 = { hand = { "Spark" } } })
  M.play(m, "Spark", M.wiz(2))
  T.eq(M.health(m, 2), 19)
end

function tests.test_lightning_deals_3_damage_to_the_opposing_wizard(T)
  local m = M.match(T, { p1 = { hand = { "Lightning" } } })
  M.play(m, "Lightning", M.wiz(2))
  T.eq(M.health(m, 2), 17)
end

function tests.test_heal_restores_4_health_up_to_20(T)
  local m = M.match(T, { p1 = { health = 18, hand = { "Heal" } } })
  M.play(m, "Heal")
  T.eq(M.health(m, 1), 20)
end

function tests.test_insight_draws_2_cards(T)
  local m = M.match(T, { p1 = { hand = { "Insight" }, deck = { "Wolf", "Ogre", "Goblin" } } })
  M.play(m, "Insight")
  T.eq(M.sorted(m.g, "hand", 1), "Ogre,Wolf")
end

function tests.test_mana_surge_gives_2_mana_this_turn(T)
  local m = M.match(T, { p1 = { mana = 3, hand = { "Mana Surge" } } })
  M.play(m, "Mana Surge")
  T.eq(M.mana(m, 1), 5)
end

function tests.test_cull_destroys_a_monster_with_3_attack_or_less(T)
  local m = M.match(T, { p1 = { hand = { "Cull", "Cull" } },
                         p2 = { monsters = { "Knight", "Ogre" } } })
  M.play(m, "Cull", M.slot("Ogre", 2, 2))
  T.eq(M.monsters(m, 2), "Knight,Ogre", "Ogre has 5 attack")
  M.play(m, "Cull", M.slot("Knight", 2, 1))
  T.eq(M.monsters(m, 2), "Ogre")
end

function tests.test_freeze_stops_a_monster_attacking_on_its_owners_next_turn(T)
  local m = M.match(T, { p1 = { hand = { "Freeze" } }, p2 = { monsters = { "Ogre" } } })
  M.play(m, "Freeze", M.slot("Ogre", 2, 1))
  M.end_turn(m)
  T.ok(not M.offers_any(m, "Ogre (P2 slot 1) attacks"))
  M.end_turn(m)
  M.end_turn(m)
  T.ok(M.offers_any(m, "Ogre (P2 slot 1) attacks"), "thawed a turn later")
end

function tests.test_poison_dart_deals_1_at_each_of_its_owners_next_three_turns(T)
  local m = M.match(T, { p1 = { hand = { "Poison Dart" } }, p2 = { monsters = { "Stone Golem" } } })
  M.play(m, "Poison Dart", M.slot("Stone Golem", 2, 1))
  for _ = 1, 8 do M.end_turn(m) end
  T.eq(M.stat(m, 2, 1, "health"), 4, "7 - 3")
  T.eq(M.stat(m, 2, 1, "poison"), 0)
end

function tests.test_rage_gives_a_friendly_monster_2_attack_this_turn(T)
  local m = M.match(T, { p1 = { hand = { "Rage" }, monsters = { "Wolf" } } })
  M.play(m, "Rage", M.slot("Wolf", 1, 1))
  M.attack(m, 1, 1, M.wiz(2))
  T.eq(M.health(m, 2), 16)
end

function tests.test_dispel_removes_every_status_but_the_stats(T)
  local m = M.match(T, { p1 = { hand = { "Dispel" } },
                         p2 = { monsters = { { "Knight", frozen = 1, shield = 1, poison = 1 } } } })
  M.play(m, "Dispel", M.slot("Knight", 2, 1))
  T.eq(M.stat(m, 2, 1, "frozen") + M.stat(m, 2, 1, "shield") + M.stat(m, 2, 1, "poison"), 0)
  T.eq(M.stat(m, 2, 1, "attack"), 3)
end

function tests.test_rally_gives_your_monsters_1_attack_and_1_health(T)
  local m = M.match(T, { p1 = { hand = { "Rally" }, monsters = { "Wolf", "Goblin" } } })
  M.play(m, "Rally")
  T.eq(M.stat(m, 1, 1, "attack"), 3)
  T.eq(M.stat(m, 1, 2, "health"), 3)
end

function tests.test_purge_is_playable_only_when_behind_on_monsters(T)
  local m = M.match(T, { p1 = { hand = { "Purge" }, monsters = { "Wolf" } },
                         p2 = { monsters = { "Goblin" } } })
  T.ok(not M.offers(m, "Play Purge"))
  local m2 = M.match(T, { p1 = { hand = { "Purge" }, monsters = { "Wolf" } },
                          p2 = { monsters = { "Goblin", "Ogre" } } })
  M.play(m2, "Purge")
  T.eq(M.monsters(m2, 2), "-")
  T.eq(M.monsters(m2, 1), "Wolf")
end

-- ---- traps ---------------------------------------------------------------------------

function tests.test_backfire_cancels_a_spell_and_deals_2_to_its_caster(T)
  local m = M.match(T, { p1 = { hand = { "Spark" } }, p2 = { trap = "Backfire" } })
  M.play(m, "Spark", M.wiz(2))
  T.eq(M.health(m, 2), 20)
  T.eq(M.health(m, 1), 18)
  T.eq(m.g:count("trap", 2), 0, "removed once fired")
end

function tests.test_backfire_ignores_monsters(T)
  local m = M.match(T, { p1 = { hand = { "Wolf" } }, p2 = { trap = "Backfire" } })
  M.play(m, "Wolf")
  T.eq(M.monsters(m, 1), "Wolf")
  T.eq(m.g:count("trap", 2), 1)
end

function tests.test_pitfall_cancels_an_attack_and_deals_3_to_the_attacker(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { trap = "Pitfall" } })
  M.attack(m, 1, 1, M.wiz(2))
  T.eq(M.health(m, 2), 20)
  T.eq(M.stat(m, 1, 1, "health"), 1)
end

function tests.test_mirror_ward_cancels_an_attack_on_your_wizard_only(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { trap = "Mirror Ward" } })
  M.attack(m, 1, 1, M.wiz(2))
  T.eq(M.health(m, 2), 20)
  local m2 = M.match(T, { p1 = { monsters = { "Knight" } },
                          p2 = { trap = "Mirror Ward", monsters = { "Stone Golem" } } })
  M.attack(m2, 1, 1, M.slot("Stone Golem", 2, 1))
  T.eq(m2.g:count("trap", 2), 1, "not on a monster")
end

function tests.test_ambush_deals_2_to_a_monster_the_opponent_plays(T)
  local m = M.match(T, { p1 = { hand = { "Wolf" } }, p2 = { trap = "Ambush" } })
  M.play(m, "Wolf")
  T.eq(M.stat(m, 1, 1, "health"), 1)
end

function tests.test_a_fired_trap_is_shown_to_both(T)
  local m = M.match(T, { p1 = { hand = { "Spark" } }, p2 = { trap = "Backfire" } })
  M.play(m, "Spark", M.wiz(2))
  T.ok(M.saw(m, 1, "P2's trap Backfire fires"))
end

return tests
