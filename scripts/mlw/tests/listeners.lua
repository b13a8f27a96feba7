-- Card tests for the cards that listen to the rarer events (CAN_ATTACK_MONSTER,
-- CAN_DRAIN and CAN_DISCARD about themselves, ON_ATTACK, ON_DRAIN, ON_TURN_END,
-- ON_ACTIVATE, ON_DISCARD, BEFORE_DRAIN, BEFORE_ACTIVATE, BEFORE_DISCARD), and Frozen's
-- CAN_ACTIVATE veto: so every
-- event the actions ask or tell has a card or status that proves it is asked or told.
local M = require("mlw.testkit")

local tests = {}

function tests.test_sentinel_must_be_attacked_before_its_owners_other_monsters(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } },
                         p2 = { monsters = { "Wolf", "Sentinel" } } })
  T.ok(not M.offers(m, "Knight (P1 slot 1) attacks " .. M.slot("Wolf", 2, 1)))
  T.ok(M.offers(m, "Knight (P1 slot 1) attacks " .. M.slot("Sentinel", 2, 2)))
end

function tests.test_loyal_hound_cannot_be_drained_or_discarded(T)
  local m = M.match(T, { p1 = { monsters = { "Loyal Hound", "Wolf" } } })
  T.ok(not M.offers(m, "Drain Loyal Hound (P1 slot 1)"))
  T.ok(not M.offers(m, "Discard Loyal Hound (P1 slot 1)"))
  T.ok(M.offers(m, "Drain Wolf (P1 slot 2)"), "the others still may")
end

function tests.test_soul_collector_gains_1_attack_whenever_a_monster_is_drained(T)
  local m = M.match(T, { p1 = { monsters = { "Soul Collector", "Wolf" } } })
  M.pick(m, "Drain Wolf (P1 slot 2)")
  T.eq(M.stat(m, 1, 1, "attack"), 3)
end

function tests.test_hourglass_draws_a_card_at_the_end_of_its_owners_turn(T)
  local m = M.match(T, { p1 = { monsters = { "Hourglass" }, deck = { "Dragon", "Ogre" } } })
  M.end_turn(m)
  T.eq(M.sorted(m.g, "hand", 1), "Dragon")
  M.end_turn(m)
  T.eq(M.sorted(m.g, "hand", 1), "Dragon,Ogre", "not at the end of the opponent's")
end

function tests.test_mage_hunter_hurts_an_enemy_monster_whose_ability_is_activated(T)
  local m = M.match(T, { p1 = { monsters = { "Healer" } }, p2 = { monsters = { "Mage Hunter" } } })
  M.pick(m, "Activate Healer (P1 slot 1)")
  T.eq(M.stat(m, 1, 1, "health"), 2)
end

function tests.test_recycler_draws_when_its_owner_discards_a_card_in_play(T)
  local m = M.match(T, { p1 = { monsters = { "Recycler", "Goblin" }, deck = { "Dragon" } } })
  M.pick(m, "Discard Goblin (P1 slot 2)")
  T.eq(M.sorted(m.g, "hand", 1), "Dragon")
end

function tests.test_mana_snare_cancels_the_opponents_drain(T)
  local m = M.match(T, { p1 = { monsters = { "Knight" } }, p2 = { trap = "Mana Snare" } })
  local mana = M.mana(m, 1)
  M.pick(m, "Drain Knight (P1 slot 1)")
  T.eq(M.monsters(m, 1), "Knight")
  T.eq(M.mana(m, 1), mana)
  T.ok(not M.offers_any(m, "Drain"), "the drain of this turn is spent")
end

function tests.test_feedback_cancels_an_ability_and_deals_2_to_the_monster(T)
  local m = M.match(T, { p1 = { monsters = { "Fire Elemental" } },
                         p2 = { monsters = { "Wolf" }, trap = "Feedback" } })
  M.pick(m, "Activate Fire Elemental (P1 slot 1)")
  M.pick(m, M.slot("Wolf", 2, 1))
  T.eq(M.stat(m, 2, 1, "health"), 3, "no effect")
  T.eq(M.stat(m, 1, 1, "health"), 1)
end

function tests.test_a_frozen_monster_cannot_activate_its_ability(T)
  local m = M.match(T, { p1 = { monsters = { { "Healer", frozen = 1 } } } })
  T.ok(not M.offers_any(m, "Activate"))
end

function tests.test_berserker_gains_1_attack_after_it_attacks(T)
  local m = M.match(T, { p1 = { monsters = { "Berserker" } } })
  M.attack(m, 1, 1, M.wiz(2))
  T.eq(M.health(m, 2), 18)
  T.eq(M.stat(m, 1, 1, "attack"), 3)
end

function tests.test_spite_deals_2_to_a_wizard_who_discards_a_card_in_play(T)
  local m = M.match(T, { p1 = { monsters = { "Goblin" } }, p2 = { trap = "Spite" } })
  M.pick(m, "Discard Goblin (P1 slot 1)")
  T.eq(M.health(m, 1), 18)
  T.eq(M.monsters(m, 1), "-", "the discard still happens")
end

return tests
