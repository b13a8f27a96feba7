-- Rules tests: every Ascension card of seed 000 appendix F, one behaviour per test.
local kit = require("deckbuilder.testkit")
local A = require("ascension.testkit")

local HI = "Heavy Infantry"

local function honour(m, p) return m.g:counter("honour", p or 1) end

local tests = {}

-- ---- base cards ---------------------------------------------------------------------

function tests.test_apprentice_gives_a_rune_and_militia_a_power(T)
  local m = T.match(A.match { hand = { "Apprentice", "Militia" } })
  kit.pick(m, "Play Apprentice")
  T.eq(m.g:counter("runes"), 1)
  T.eq(m.g:counter("power"), 0)
  kit.pick(m, "Play Militia")
  T.eq(m.g:counter("power"), 1)
  T.eq(kit.names(m.g, "play", 1), "Apprentice,Militia")
end

function tests.test_mystic_costs_three_runes_and_gives_two_runes(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice", "Apprentice", "Mystic" } })
  kit.pick(m, "Play Mystic")
  T.eq(m.g:counter("runes"), 2)
  kit.pick(m, "Play Apprentice")
  kit.pick(m, "Buy Mystic (3 runes)")
  T.eq(m.g:counter("runes"), 0)
  T.eq(kit.names(m.g, "discard", 1), "Mystic")
  T.eq(m.g:count("supply:Mystic", 0), 19)
end

function tests.test_heavy_infantry_costs_two_runes_and_gives_two_power(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice", HI } })
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("runes"), 2)
  T.eq(m.g:counter("power"), 2)
  kit.pick(m, "Buy Heavy Infantry (2 runes)")
  T.eq(kit.names(m.g, "discard", 1), HI)
  T.eq(m.g:count("supply:Heavy Infantry", 0), 19)
end

function tests.test_cultist_gives_one_honour_for_two_power(T)
  local m = T.match(A.match { hand = { HI } })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cultist (2 power)")
  T.eq(honour(m), 1)
  T.eq(m.g:counter("power"), 0)
end

-- ---- temples ------------------------------------------------------------------------

function tests.test_temple_of_life_keystone_gains_immortality_and_two_runes(T)
  local m = T.match(A.match { hand = { HI, HI }, row = { "Starved Abomination" },
                              more = function(g) A.give_temple(g, 1, "Temple of Life") end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Starved Abomination (4 power)")
  T.eq(A.holder(m.g, "Temple of Life"), 1)
  T.eq(A.holder(m.g, "Temple of Immortality"), 1)
  T.eq(m.g:counter("runes"), 2)
end

function tests.test_temple_of_death_keystone_gains_immortality_and_may_banish(T)
  local m = T.match(A.match { hand = { HI, HI, "Militia" }, row = { "Crypt Lurker" },
                              discard = { "Apprentice" },
                              more = function(g) A.give_temple(g, 1, "Temple of Death") end })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Crypt Lurker (4 power)")
  T.eq(A.holder(m.g, "Temple of Immortality"), 1)
  local d = m:decision()
  T.eq(d.kind, "banish")
  T.eq(d.min, 0)
  T.eq(d.max, 1)
  T.eq(kit.labels(m), "Militia,Apprentice")
  kit.pick(m, "Militia")
  T.eq(m.g:count("hand", 1), 0)
  T.eq(kit.names(m.g, "void", 0), "Crypt Lurker,Militia")
  T.eq(m.g:counter("_own:Militia", 1), 1)
end

function tests.test_temple_of_immortality_held_life_keystone_only_gives_runes(T)
  local m = T.match(A.match { hand = { HI, HI }, row = { "Starved Abomination" },
    more = function(g)
      A.give_temple(g, 1, "Temple of Life")
      A.give_temple(g, 1, "Temple of Immortality")
    end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Starved Abomination (4 power)")
  T.eq(m.g:count("temples", 1), 2)
  T.eq(m.g:counter("runes"), 2)
end

function tests.test_death_keystone_with_all_death_temples_only_banishes(T)
  local m = T.match(A.match { hand = { HI, HI }, row = { "Crypt Lurker" },
    discard = { "Militia" },
    more = function(g)
      A.give_temple(g, 1, "Temple of Death")
      A.give_temple(g, 1, "Temple of Immortality")
    end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Crypt Lurker (4 power)")
  T.eq(m:decision().kind, "banish")
  T.ok(m:answer(1, {}), "banishing is optional")
  T.eq(m.g:count("temples", 1), 2)
  T.eq(kit.names(m.g, "discard", 1), "Militia")
end

-- ---- monsters -------------------------------------------------------------------------

function tests.test_hellfrost_imps_may_defeat_another_imps_for_free(T)
  local m = T.match(A.match { hand = { HI, "Militia" },
    row = { "Hellfrost Imps", "Blind Seer", "Hellfrost Imps" },
    centre = { "Sacred Pot", "Beacon of the Lost" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Hellfrost Imps (3 power)")
  local d = m:decision()
  T.eq(d.kind, "defeat")
  T.eq(d.min, 0)
  T.eq(kit.labels(m), "Hellfrost Imps")
  kit.pick(m, "Hellfrost Imps")
  T.eq(honour(m), 4)
  T.eq(m.g:counter("power"), 0)
  T.eq(kit.names(m.g, "void", 0), "Hellfrost Imps,Hellfrost Imps")
  T.eq(A.row(m.g), "Sacred Pot,Blind Seer,-,Beacon of the Lost,-,-")
end

function tests.test_hellfrost_imps_free_defeat_can_be_declined(T)
  local m = T.match(A.match { hand = { HI, "Militia" },
    row = { "Hellfrost Imps", "Hellfrost Imps" }, centre = { "Sacred Pot" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Hellfrost Imps (3 power)")
  T.ok(m:answer(1, {}))
  T.eq(honour(m), 2)
  T.eq(A.row(m.g), "Sacred Pot,Hellfrost Imps,-,-,-,-")
end

function tests.test_kanzir_strips_opponents_temples_and_destroys_their_constructs(T)
  local m = T.match(A.match { hand = { HI, HI, HI }, row = { "Kan'zir, the Ravager" },
    centre = { "Sacred Pot" }, players = 3,
    more = function(g)
      A.give_temple(g, 2, "Temple of Life")
      A.give_temple(g, 3, "Temple of Immortality")
      A.give_temple(g, 1, "Temple of Death")
      A.add_construct(g, 2, "Beacon of the Lost")
      A.add_construct(g, 3, "Templar Outpost")
      A.add_construct(g, 1, "Sacred Pot")
    end })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Defeat Kan'zir, the Ravager (6 power)")
  T.eq(honour(m), 5)
  T.eq(A.holder(m.g, "Temple of Life"), 0)
  T.eq(A.holder(m.g, "Temple of Immortality"), 0)
  T.eq(A.holder(m.g, "Temple of Death"), 1, "the defeater keeps their own")
  T.eq(m.g:count("constructs", 2), 0)
  T.eq(m.g:count("constructs", 3), 0)
  T.eq(kit.names(m.g, "constructs", 1), "Sacred Pot")
  T.ok(string.find(kit.names(m.g, "discard", 2), "Beacon of the Lost", 1, true) ~= nil)
  T.ok(string.find(kit.names(m.g, "discard", 3), "Templar Outpost", 1, true) ~= nil)
end

-- Monsters that only pay their reward: the hand that defeats each, its power, and what
-- p has afterwards (Honour; a Keystone's Temple; Runes). Keystones ask nothing.
local REWARDS = {
  { "Starved Abomination", { HI, HI }, 4, honour = 3, life = true },
  { "Hurras, Sea's Fury", { HI, HI, HI, "Militia" }, 7, honour = 4, life = true, death = true },
  { "Crypt Lurker", { HI, HI }, 4, honour = 3, death = true },
  { "Mutated Scavenger", { HI, HI, HI }, 6, honour = 4, runes = 5 },
}

function tests.test_monsters_give_their_honour_keystones_and_runes(T)
  for _, c in ipairs(REWARDS) do
    local monster, hand, power = c[1], c[2], c[3]
    local m = T.match(A.match { hand = hand, row = { monster } })
    kit.pick(m, "Play all treasures")
    kit.pick(m, "Defeat " .. monster .. " (" .. power .. " power)")
    T.eq(honour(m), c.honour, monster)
    T.eq(A.holder(m.g, "Temple of Life"), c.life and 1 or 0, monster .. ": Life")
    T.eq(A.holder(m.g, "Temple of Death"), c.death and 1 or 0, monster .. ": Death")
    T.eq(m.g:counter("runes"), c.runes or 0, monster .. ": runes")
    T.eq(m:decision().kind, "buy", monster .. ": taking a temple asks nothing")
  end
end

function tests.test_iku_costs_two_power_less_per_temple(T)
  local m = T.match(A.match { hand = { HI, HI, HI }, row = { "Iku, Valley Tyrant" } })
  kit.pick(m, "Play all treasures")
  T.ok(not string.find(kit.labels(m), "Iku", 1, true), "10 power without temples")
  local m2 = T.match(A.match { hand = { HI, HI, HI }, row = { "Iku, Valley Tyrant" },
    more = function(g)
      A.give_temple(g, 1, "Temple of Life")
      A.give_temple(g, 1, "Temple of Death")
    end })
  kit.pick(m2, "Play all treasures")
  kit.pick(m2, "Defeat Iku, Valley Tyrant (6 power)")
  T.eq(honour(m2), 8)
  T.eq(m2.g:counter("power"), 0)
end

function tests.test_cavern_horror_may_shuffle_discard_into_deck(T)
  local m = T.match(A.match { hand = { HI }, row = { "Cavern Horror" },
                              discard = { "Militia", "Militia", "Militia" } })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cavern Horror (2 power)")
  T.eq(honour(m), 1)
  T.eq(kit.labels(m), "Shuffle discard into deck,Don't shuffle")
  kit.pick(m, "Shuffle discard into deck")
  T.eq(m.g:count("discard", 1), 0)
  T.eq(m.g:count("deck", 1), 8)
end

function tests.test_cavern_horror_declined_leaves_the_discard(T)
  local m = T.match(A.match { hand = { HI }, row = { "Cavern Horror" }, discard = { "Militia" } })
  kit.pick(m, "Play Heavy Infantry")
  kit.pick(m, "Defeat Cavern Horror (2 power)")
  kit.pick(m, "Don't shuffle")
  T.eq(kit.names(m.g, "discard", 1), "Militia")
  T.eq(m.g:count("deck", 1), 5)
end

-- ---- heroes -----------------------------------------------------------------------------

function tests.test_soulsnare_hunter_next_defeat_gives_one_life_keystone(T)
  local m = T.match(A.match { hand = { "Soulsnare Hunter", HI } })
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("power"), 4)
  kit.pick(m, "Defeat Cultist (2 power)")
  T.eq(A.holder(m.g, "Temple of Life"), 1)
  kit.pick(m, "Defeat Cultist (2 power)")
  T.eq(A.holder(m.g, "Temple of Immortality"), 0, "only the next defeat")
  T.eq(honour(m), 2)
end

function tests.test_shadowridge_scout_echo_gives_a_death_keystone(T)
  local m = T.match(A.match { hand = { "Shadowridge Scout" }, discard = { "Soulsnare Hunter" } })
  kit.pick(m, "Play Shadowridge Scout")
  T.eq(m.g:counter("power"), 2)
  T.eq(A.holder(m.g, "Temple of Death"), 1)
end

function tests.test_shadowridge_scout_without_void_in_discard_gives_no_keystone(T)
  local m = T.match(A.match { hand = { "Shadowridge Scout", "Shadowridge Scout" },
                              discard = { "Ancient Stag" } })
  kit.pick(m, "Play Shadowridge Scout")
  T.eq(m.g:counter("power"), 2)
  T.eq(A.holder(m.g, "Temple of Death"), 0, "the other Scout is in play, not discarded")
end

function tests.test_spiteful_gladiator_may_put_deck_into_discard(T)
  local m = T.match(A.match { hand = { "Spiteful Gladiator" } })
  kit.pick(m, "Play Spiteful Gladiator")
  T.eq(m.g:counter("runes"), 2)
  T.eq(m:decision().kind, "yesno")
  kit.pick(m, "Put deck into discard")
  T.eq(m.g:count("deck", 1), 0)
  T.eq(m.g:count("discard", 1), 5)
end

function tests.test_spiteful_gladiator_may_keep_the_deck(T)
  local m = T.match(A.match { hand = { "Spiteful Gladiator" } })
  kit.pick(m, "Play Spiteful Gladiator")
  kit.pick(m, "Keep deck")
  T.eq(m.g:count("deck", 1), 5)
end

function tests.test_burial_guardian_next_lifebound_acquire_gives_a_death_keystone(T)
  local m = T.match(A.match {
    hand = { "Burial Guardian", "Apprentice", "Apprentice", "Apprentice", "Apprentice" },
    centre = { "Ancient Stag" } })
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("runes"), 6)
  kit.pick(m, "Buy Blind Seer (2 runes)")
  T.eq(A.holder(m.g, "Temple of Death"), 0, "Blind Seer is Enlightened")
  kit.pick(m, "Buy Ancient Stag (2 runes)")
  T.eq(A.holder(m.g, "Temple of Death"), 1)
  kit.pick(m, "Buy Ancient Stag (2 runes)")
  T.eq(A.holder(m.g, "Temple of Immortality"), 0, "only the next Lifebound acquire")
end

function tests.test_ancient_stag_unites_with_a_lifebound_card_played_before(T)
  local m = T.match(A.match { hand = { "Burial Guardian", "Ancient Stag" } })
  kit.pick(m, "Play Burial Guardian")
  kit.pick(m, "Play Ancient Stag")
  T.eq(honour(m), 3)
  T.eq(A.holder(m.g, "Temple of Life"), 1)
end

function tests.test_ancient_stag_unites_with_a_lifebound_card_played_after(T)
  local m = T.match(A.match { hand = { "Ancient Stag", "Blind Seer", "Alosyan Guide" },
                              discard = { "Apprentice" } })
  kit.pick(m, "Play Ancient Stag")
  T.eq(A.holder(m.g, "Temple of Life"), 0)
  kit.pick(m, "Play Blind Seer")
  T.eq(A.holder(m.g, "Temple of Life"), 0, "Blind Seer is Enlightened")
  kit.pick(m, "Play Alosyan Guide")
  T.eq(A.holder(m.g, "Temple of Life"), 1)
  T.eq(honour(m), 6)
end

function tests.test_ancient_stag_alone_gives_only_honour(T)
  local m = T.match(A.match { hand = { "Ancient Stag" } })
  kit.pick(m, "Play Ancient Stag")
  T.eq(honour(m), 3)
  T.eq(A.holder(m.g, "Temple of Life"), 0)
  T.eq(m.g:counter("honour_pool"), 57)
end

function tests.test_alosyan_guide_goes_to_hand_after_a_lifebound_hero(T)
  local m = T.match(A.match { hand = { "Ancient Stag", "Apprentice", "Apprentice", "Apprentice" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Alosyan Guide (3 runes)")
  T.eq(kit.names(m.g, "hand", 1), "Alosyan Guide")
  kit.pick(m, "Play Alosyan Guide")
  T.eq(honour(m), 6)
end

function tests.test_alosyan_guide_goes_to_discard_without_a_lifebound_hero(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice", "Apprentice" } })
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Alosyan Guide (3 runes)")
  T.eq(kit.names(m.g, "discard", 1), "Alosyan Guide")
  T.eq(m.g:count("hand", 1), 0)
end

function tests.test_blind_seer_draws_and_serenity_gives_a_life_keystone(T)
  local m = T.match(A.match { hand = { "Blind Seer" }, deck = { "Militia" } })
  kit.pick(m, "Play Blind Seer")
  T.eq(kit.names(m.g, "hand", 1), "Militia")
  T.eq(A.holder(m.g, "Temple of Life"), 1)
end

function tests.test_blind_seer_without_serenity_only_draws(T)
  local m = T.match(A.match { hand = { "Blind Seer" }, deck = { "Militia" },
                              discard = { "Apprentice" } })
  kit.pick(m, "Play Blind Seer")
  T.eq(kit.names(m.g, "hand", 1), "Militia")
  T.eq(A.holder(m.g, "Temple of Life"), 0)
end

function tests.test_isla_acquires_from_the_centre_free_and_shuffles_it_into_the_deck(T)
  local m = T.match(A.match { hand = { "Isla, Serene Prodigy" }, discard = { "Militia" },
    row = { "Crypt Lurker", "Burial Guardian", "Sacred Pot" }, centre = { "Blind Seer" } })
  kit.pick(m, "Play Isla, Serene Prodigy")
  local d = m:decision()
  T.eq(d.kind, "acquire")
  T.eq(kit.labels(m), "Burial Guardian,Sacred Pot")
  kit.pick(m, "Burial Guardian")
  T.eq(m.g:counter("runes"), 0)
  T.eq(m.g:count("discard", 1), 0)
  T.eq(m.g:count("deck", 1), 7)
  T.eq(m.g:counter("_own:Burial Guardian", 1), 1)
  T.eq(A.row(m.g), "Crypt Lurker,Blind Seer,Sacred Pot,-,-,-")
end

-- ---- constructs -----------------------------------------------------------------------------

function tests.test_beacon_of_the_lost_gives_a_rune_and_echo_power_once_per_turn(T)
  local m = T.match(A.match { hand = { "Beacon of the Lost", "Apprentice" },
                              discard = { "Shadowridge Scout" } })
  kit.pick(m, "Play Beacon of the Lost")
  T.eq(kit.names(m.g, "constructs", 1), "Beacon of the Lost")
  T.eq(m.g:counter("runes"), 1)
  T.eq(m.g:counter("power"), 1, "Echo: a Void card is in the discard pile")
  kit.pick(m, "Play Apprentice")
  T.eq(m.g:counter("power"), 1, "once per turn")
end

function tests.test_beacon_of_the_lost_echo_fires_once_a_void_card_is_acquired(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice" },
    more = function(g) A.add_construct(g, 1, "Beacon of the Lost") end })
  T.eq(m.g:counter("runes"), 1, "its Rune again at the start of the turn")
  T.eq(m.g:counter("power"), 0)
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Shadowridge Scout (2 runes)")
  T.eq(m.g:counter("power"), 1)
end

function tests.test_pathfinders_totem_unite_gives_one_rune_once_per_turn(T)
  local m = T.match(A.match { hand = { "Ancient Stag", "Burial Guardian" },
    more = function(g) A.add_construct(g, 1, "Pathfinder's Totem") end })
  T.eq(m.g:counter("runes"), 1)
  kit.pick(m, "Play Ancient Stag")
  T.eq(m.g:counter("runes"), 2, "Unite with the Lifebound Stag")
  kit.pick(m, "Play Burial Guardian")
  T.eq(m.g:counter("runes"), 4, "+2 from the Guardian, no second Unite")
end

function tests.test_pathfinders_totem_played_alone_does_not_unite_with_itself(T)
  local m = T.match(A.match { hand = { "Pathfinder's Totem", "Blind Seer" } })
  kit.pick(m, "Play Pathfinder's Totem")
  T.eq(m.g:counter("runes"), 1)
  kit.pick(m, "Play Blind Seer")
  T.eq(m.g:counter("runes"), 1)
end

function tests.test_pathfinders_totem_played_after_a_lifebound_card_unites_both(T)
  local m = T.match(A.match { hand = { "Ancient Stag", "Pathfinder's Totem" },
                              discard = { "Apprentice" } })
  kit.pick(m, "Play Ancient Stag")
  kit.pick(m, "Play Pathfinder's Totem")
  T.eq(A.holder(m.g, "Temple of Life"), 1, "the Stag's Unite")
  T.eq(m.g:counter("runes"), 2, "the Totem's Rune and its Unite Rune")
end

function tests.test_sacred_pot_serenity_draws_a_card_once_per_turn(T)
  local m = T.match(A.match { hand = { "Militia" },
    more = function(g) A.add_construct(g, 1, "Sacred Pot") end })
  T.eq(kit.names(m.g, "hand", 1), "Militia,Apprentice", "empty discard: draw a card")
  kit.pick(m, "Play Apprentice")
  T.eq(m.g:count("hand", 1), 1, "once per turn")
end

function tests.test_sacred_pot_without_serenity_draws_nothing(T)
  local m = T.match(A.match { hand = { "Militia" }, discard = { "Apprentice" },
    more = function(g) A.add_construct(g, 1, "Sacred Pot") end })
  T.eq(kit.names(m.g, "hand", 1), "Militia")
end

function tests.test_templar_outpost_defeats_a_monster_up_to_4_free_once_per_turn(T)
  local m = T.match(A.match { hand = { "Apprentice" },
    row = { "Crypt Lurker", "Mutated Scavenger" }, centre = { "Sacred Pot" },
    more = function(g) A.add_construct(g, 1, "Templar Outpost") end })
  local labels = kit.labels(m)
  T.ok(string.find(labels, "Defeat Cultist (free, Templar Outpost)", 1, true) ~= nil)
  T.ok(string.find(labels, "Defeat Crypt Lurker (free, Templar Outpost)", 1, true) ~= nil)
  T.ok(not string.find(labels, "Mutated Scavenger", 1, true), "costs 6")
  kit.pick(m, "Defeat Crypt Lurker (free, Templar Outpost)")
  T.eq(honour(m), 3)
  T.eq(A.holder(m.g, "Temple of Death"), 1)
  T.ok(not string.find(kit.labels(m), "Templar Outpost", 1, true), "once per turn")
end

return tests
