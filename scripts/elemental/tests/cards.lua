-- Card tests: the set's size and balance rule, the printed face, and every card with an
-- ability doing what its text says (keywords: tests/keywords.lua).
local E = require("elemental.testkit")

local tests = {}

local game = require("elemental.game")
local K = E.kernel()

local TRIGGERS = { "play", "on_death", "end_of_turn", "on_hurt", "on_damage", "friendly_death" }

-- The balance rule of seed 001 §3.2 (cards.lua): the budget, and what the card spends.
local function budget(def)
  local main, mainv = nil, -1
  for _, e in ipairs(K.ELEMENTS) do
    if (def[e] or 0) > mainv then main, mainv = e, def[e] or 0 end
  end
  local b = 2 * def.mana + 1 + 2 * (mainv - (1 + def.mana // 2))
  for _, e in ipairs(K.ELEMENTS) do
    if e ~= main and (def[e] or 0) > 1 then b = b + def[e] - 1 end
  end
  return b
end

local function spent(def)
  local s = (def.attack or 0) + (def.health or 0) + (def.aura_cost or 0)
  for _, kw in ipairs(K.KEYWORDS) do
    local v = def[kw.name]
    if v then s = s + kw.cost * (v == true and 1 or v) end
  end
  for _, t in ipairs(TRIGGERS) do
    if def[t] then s = s + def[t].cost end
  end
  return s
end

function tests.test_the_set_has_at_least_60_cards(T)
  local data = require("elemental.cards")
  T.ok(#data.order >= 60, "cards: " .. #data.order)
end

function tests.test_every_card_spends_its_budget_within_one_point(T)
  local data = require("elemental.cards")
  for _, name in ipairs(data.order) do
    local def = data.cards[name]
    local b, s = budget(def), spent(def)
    T.ok(math.abs(b - s) <= 1, name .. ": budget " .. b .. ", spends " .. s)
  end
end

function tests.test_every_card_requires_an_element(T)
  local data = require("elemental.cards")
  for _, name in ipairs(data.order) do
    local def = data.cards[name]
    T.ok((def.earth or 0) + (def.wind or 0) + (def.fire or 0) >= 1, name)
  end
end

function tests.test_card_faces_show_requirements_stats_and_text(T)
  T.eq(game.cards["Flame Berserker"].text, "Requires Fire 2. Minion 3/2. Berserk.")
  T.eq(game.cards["Fireball"].text, "Requires Fire 3. Deal 4 damage.")
  T.eq(game.cards["Fireball"].cost, 4)
  T.eq(game.cards["Obsidian Sentinel"].text,
       "Requires Earth 3, Fire 2. Minion 2/4. Taunt. Deathtouch.")
end

function tests.test_printed_keywords_are_on_the_minion_when_it_is_played(T)
  local m = E.match(T, { p1 = { hand = { "Obsidian Sentinel" } } })
  E.play(m, "Obsidian Sentinel", "front 2")
  T.eq(E.stat(m, 1, "front 2", "taunt"), 1)
  T.eq(E.stat(m, 1, "front 2", "deathtouch"), 1)
  T.eq(E.stat(m, 1, "front 2", "attack"), 2)
  T.eq(E.stat(m, 1, "front 2", "health"), 4)
end

function tests.test_every_minion_enters_with_its_printed_attack_health_and_keywords(T)
  local data = require("elemental.cards")
  local m = E.match(T, {})
  local g = m.g
  for _, name in ipairs(data.order) do
    local def = data.cards[name]
    if def.attack then
      local id = g:new(name, "hand", 1)
      K:summon(g, id, 1, 2, 5)
      T.eq(K:attack_of(g, id), def.attack, name)
      T.eq(K:health_of(g, id), def.health, name)
      for _, kw in ipairs(K.KEYWORDS) do
        local v = def[kw.name]
        T.eq(K.st:get(g, id, kw.name), v == true and 1 or (v or 0), name .. " " .. kw.name)
      end
      K:unsummon(g, id, "grave")
    end
  end
end

function tests.test_every_card_is_in_the_catalog_priced_in_mana(T)
  local data = require("elemental.cards")
  for _, name in ipairs(data.order) do
    local def = game.cards[name]
    T.eq(def.cost, def.mana, name)
    T.ok(def.types[1] == "Minion" or def.types[1] == "Spell", name)
    T.ok(def.text:find(def.printed, 1, true), name .. ": the printed words are on its face")
  end
end

-- ---- earth ----------------------------------------------------------------------------

function tests.test_moss_tender_restores_1_health_when_played(T)
  local m = E.match(T, { p1 = { hand = { "Moss Tender" }, health = 20 } })
  E.play(m, "Moss Tender", "front 1", "P1's hero")
  T.eq(m.g:counter("health", 1), 21)
end

function tests.test_bark_skin_gives_plus_1_plus_2_permanently(T)
  local m = E.match(T, { p1 = { hand = { "Bark Skin" }, board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Bark Skin", "Zephyr Imp (front 1)")
  E.end_turn(m)
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "attack"), 2)
  T.eq(E.stat(m, 1, "front 1", "health"), 4)
end

function tests.test_purify_dispels_a_minion(T)
  local m = E.match(T, { p1 = { hand = { "Purify" } },
                         p2 = { board = { ["front 1"] = "Living Rampart" } } })
  E.play(m, "Purify", "Living Rampart (front 1)")
  T.eq(E.stat(m, 2, "front 1", "taunt"), 0)
  T.eq(E.stat(m, 2, "front 1", "reflect"), 0)
  T.eq(E.stat(m, 2, "front 1", "health"), 6)
end

function tests.test_stand_firm_gives_taunt_for_3_turns_and_heals_3(T)
  local m = E.match(T, { p1 = { hand = { "Stand Firm" },
                                board = { ["front 1"] = { "Root Warden", health = 1 } } } })
  E.play(m, "Stand Firm", "Root Warden (front 1)")
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
  E.end_turn(m)
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "taunt"), 1, "through this turn and the opponent's")
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "taunt"), 0, "gone at the end of the third turn")
end

function tests.test_healing_spring_restores_5_health_up_to_the_maximum(T)
  local m = E.match(T, { p1 = { hand = { "Healing Spring", "Healing Spring" }, health = 22,
                                board = { ["front 1"] = { "Stone Wall", health = 2 } } } })
  E.play(m, "Healing Spring", "P1's hero")
  T.eq(m.g:counter("health", 1), 27)
  E.play(m, "Healing Spring", "Stone Wall (front 1)")
  T.eq(E.stat(m, 1, "front 1", "health"), 4, "not above its maximum")
end

function tests.test_iron_hide_gives_invulnerable_2_and_plus_0_plus_1(T)
  local m = E.match(T, { p1 = { hand = { "Iron Hide" }, board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Iron Hide", "Zephyr Imp (front 1)")
  T.eq(E.stat(m, 1, "front 1", "invulnerable"), 2)
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
end

function tests.test_entangle_stuns_and_roots_an_enemy_minion(T)
  local m = E.match(T, { p1 = { hand = { "Entangle" } },
                         p2 = { board = { ["front 1"] = "Root Warden",
                                          ["front 4"] = "Zephyr Imp" } } })
  E.play(m, "Entangle", "Zephyr Imp (front 4)")
  T.eq(E.stat(m, 2, "front 4", "stun"), 1)
  T.eq(E.stat(m, 2, "front 4", "root"), 1)
  E.end_turn(m)
  T.ok(not E.offers(m, "Zephyr Imp (front 4) attacks P1's hero"), "stunned this turn")
  E.end_turn(m)
  E.end_turn(m)
  T.ok(E.offers(m, "Zephyr Imp (front 4) attacks P1's hero"), "the stun wore off")
  T.ok(not E.offers(m, "Move Zephyr Imp (front 4) to back 4"), "the root stays")
end

function tests.test_grieving_treant_grows_when_another_friendly_minion_dies(T)
  local m = E.match(T, { p1 = { hand = { "Fire Bolt" },
    board = { ["front 1"] = "Grieving Treant", ["front 2"] = "Zephyr Imp" } } })
  E.play(m, "Fire Bolt", "Zephyr Imp (front 2)")
  T.eq(E.stat(m, 1, "front 1", "attack"), 3)
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
end

function tests.test_grove_keeper_heals_your_hero_3_at_the_end_of_your_turn(T)
  local m = E.match(T, { p1 = { health = 20, board = { ["back 1"] = "Grove Keeper" } } })
  E.end_turn(m)
  T.eq(m.g:counter("health", 1), 23)
  E.end_turn(m)
  T.eq(m.g:counter("health", 1), 23, "not at the end of the opponent's turn")
end

function tests.test_mole_digger_draws_a_card_when_it_dies(T)
  local m = E.match(T, { p1 = { hand = { "Fire Bolt" }, deck = { "Stone Wall" },
                                board = { ["front 1"] = "Mole Digger" } } })
  E.play(m, "Fire Bolt", "Mole Digger (front 1)")
  T.eq(E.names(m.g, "hand", 1), "Stone Wall")
end

function tests.test_stone_blessing_buffs_your_minions_and_heals_your_hero(T)
  local m = E.match(T, { p1 = { hand = { "Stone Blessing" }, health = 20,
    board = { ["front 1"] = "Zephyr Imp", ["back 1"] = "Stone Wall" } },
    p2 = { board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Stone Blessing")
  T.eq(E.stat(m, 1, "front 1", "attack"), 3)
  T.eq(E.stat(m, 1, "back 1", "health"), 6)
  T.eq(E.stat(m, 2, "front 1", "attack"), 1, "not the enemy's")
  T.eq(m.g:counter("health", 1), 25)
end

function tests.test_mountain_heart_raises_earth_and_heals_8(T)
  local m = E.match(T, { p1 = { hand = { "Mountain Heart" }, health = 10, earth = 2 } })
  E.play(m, "Mountain Heart")
  T.eq(m.g:counter("earth", 1), 3)
  T.eq(m.g:counter("health", 1), 18)
end

function tests.test_heroes_heal_to_at_most_30(T)
  local m = E.match(T, { p1 = { hand = { "Mountain Heart" }, health = 28 } })
  E.play(m, "Mountain Heart")
  T.eq(m.g:counter("health", 1), 30)
end

function tests.test_boulder_hurler_deals_1_damage_when_played(T)
  local m = E.match(T, { p1 = { hand = { "Boulder Hurler" } } })
  E.play(m, "Boulder Hurler", "front 1", "P2's hero")
  T.eq(m.g:counter("health", 2), 29)
end

function tests.test_ancient_oak_heals_your_minions_2_at_the_end_of_your_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = { "Ancient Oak", health = 1 },
                                          ["front 2"] = { "Stone Wall", health = 1 } } } })
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
  T.eq(E.stat(m, 1, "front 2", "health"), 3)
end

-- ---- wind --------------------------------------------------------------------------------

function tests.test_gust_returns_a_minion_to_its_owners_hand(T)
  local m = E.match(T, { p1 = { hand = { "Gust" } },
                         p2 = { board = { ["front 1"] = "Stone Wall" } } })
  E.play(m, "Gust", "Stone Wall (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "-")
  T.eq(E.names(m.g, "hand", 2), "Stone Wall")
end

function tests.test_tailwind_moves_a_friendly_minion_which_may_then_act_this_turn(T)
  local m = E.match(T, { p1 = { hand = { "Tailwind", "Zephyr Imp" } } })
  E.play(m, "Zephyr Imp", "back 1")
  E.play(m, "Tailwind", "Zephyr Imp (back 1)", "front 5")
  T.eq(E.name_at(m, 1, "front 5"), "Zephyr Imp")
  E.pick(m, "Zephyr Imp (front 5) attacks P2's hero")
  T.eq(m.g:counter("health", 2), 29)
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 5", "haste"), 0, "this turn only")
end

function tests.test_sky_courier_draws_a_card_when_played(T)
  local m = E.match(T, { p1 = { hand = { "Sky Courier" }, deck = { "Gust" } } })
  E.play(m, "Sky Courier", "back 2")
  T.eq(E.names(m.g, "hand", 1), "Gust")
end

function tests.test_gale_force_stuns_an_enemy_minion_and_moves_it(T)
  local m = E.match(T, { p1 = { hand = { "Gale Force" } },
                         p2 = { board = { ["front 3"] = "Stone Wall" } } })
  E.play(m, "Gale Force", "Stone Wall (front 3)", "back 1")
  T.eq(E.name_at(m, 2, "back 1"), "Stone Wall")
  T.eq(E.stat(m, 2, "back 1", "stun"), 1)
end

function tests.test_zephyr_monk_moves_a_minion_when_played(T)
  local m = E.match(T, { p1 = { hand = { "Zephyr Monk" } },
                         p2 = { board = { ["front 3"] = "Stone Wall" } } })
  E.play(m, "Zephyr Monk", "back 1", "Stone Wall (front 3)", "back 5")
  T.eq(E.name_at(m, 2, "back 5"), "Stone Wall")
end

function tests.test_gravity_well_stops_enemy_minions_moving(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } },
    p2 = { board = { ["back 1"] = "Gravity Well", ["back 2"] = "Zephyr Imp" } } })
  T.ok(not E.offers(m, "Move Zephyr Imp (front 1) to back 1"))
  E.end_turn(m)
  T.ok(E.offers(m, "Move Zephyr Imp (back 2) to front 2"), "its own side moves freely")
end

function tests.test_whispering_winds_draws_3_cards(T)
  local m = E.match(T, { p1 = { hand = { "Whispering Winds" } } })
  E.play(m, "Whispering Winds")
  T.eq(m.g:count("hand", 1), 3)
end

function tests.test_wind_spirit_draws_a_card_whenever_it_takes_damage(T)
  local m = E.match(T, { p1 = { hand = { "Spark" }, deck = { "Gust", "Gust" },
                                board = { ["front 1"] = "Wind Spirit" } } })
  E.play(m, "Spark", "Wind Spirit (front 1)")
  T.eq(E.names(m.g, "hand", 1), "Gust")
end

function tests.test_cyclone_hits_all_minions_returns_one_and_draws(T)
  local m = E.match(T, { p1 = { hand = { "Cyclone" }, deck = { "Gust" },
    board = { ["front 1"] = "Zephyr Imp" } },
    p2 = { board = { ["front 1"] = "Ember Imp", ["front 2"] = "Stone Wall" } } })
  E.play(m, "Cyclone", "Stone Wall (front 2)")
  T.eq(E.name_at(m, 2, "front 1"), "-", "the Ember Imp died")
  T.eq(E.stat(m, 1, "front 1", "health"), 1)
  T.eq(E.names(m.g, "hand", 2), "Stone Wall")
  T.eq(E.names(m.g, "hand", 1), "Gust")
end

function tests.test_eye_of_the_storm_stuns_all_enemy_minions_and_draws_2(T)
  local m = E.match(T, { p1 = { hand = { "Eye of the Storm" } },
    p2 = { board = { ["front 1"] = "Zephyr Imp", ["back 4"] = "Stone Wall" } } })
  E.play(m, "Eye of the Storm")
  T.eq(E.stat(m, 2, "front 1", "stun"), 1)
  T.eq(E.stat(m, 2, "back 4", "stun"), 1)
  T.eq(m.g:count("hand", 1), 2)
end

function tests.test_tempest_djinn_stuns_an_enemy_minion_when_played(T)
  local m = E.match(T, { p1 = { hand = { "Tempest Djinn" } },
                         p2 = { board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Tempest Djinn", "back 3", "Zephyr Imp (front 1)")
  T.eq(E.stat(m, 2, "front 1", "stun"), 1)
end

-- ---- fire --------------------------------------------------------------------------------

function tests.test_spark_deals_1_to_a_target_and_1_to_the_enemy_hero(T)
  local m = E.match(T, { p1 = { hand = { "Spark" } },
                         p2 = { board = { ["front 1"] = "Stone Wall" } } })
  E.play(m, "Spark", "Stone Wall (front 1)")
  T.eq(E.stat(m, 2, "front 1", "health"), 3)
  T.eq(m.g:counter("health", 2), 29)
end

function tests.test_molten_rage_gives_frenzy_and_haste_this_turn(T)
  local m = E.match(T, { p1 = { hand = { "Molten Rage", "Zephyr Imp" } } })
  E.play(m, "Zephyr Imp", "front 1")
  E.play(m, "Molten Rage", "Zephyr Imp (front 1)")
  E.pick(m, "Zephyr Imp (front 1) attacks P2's hero")
  E.pick(m, "Zephyr Imp (front 1) attacks P2's hero")
  T.eq(m.g:counter("health", 2), 28)
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "frenzy"), 0)
end

function tests.test_kindle_gives_2_mana_this_turn(T)
  local m = E.match(T, { p1 = { hand = { "Kindle" }, mana = 3 } })
  E.play(m, "Kindle")
  T.eq(m.g:counter("mana", 1), 4)
  E.end_turn(m)
  E.end_turn(m)
  T.eq(m.g:counter("mana", 1), 4, "next turn: max mana + 1 only")
end

function tests.test_fire_bolt_deals_2_and_fireball_4(T)
  local m = E.match(T, { p1 = { hand = { "Fire Bolt", "Fireball" } } })
  E.play(m, "Fire Bolt", "P2's hero")
  E.play(m, "Fireball", "P2's hero")
  T.eq(m.g:counter("health", 2), 24)
end

function tests.test_pyromancer_deals_1_to_the_enemy_hero_at_the_end_of_your_turn(T)
  local m = E.match(T, { p1 = { board = { ["back 2"] = "Pyromancer" } } })
  E.end_turn(m)
  T.eq(m.g:counter("health", 2), 29)
end

function tests.test_searing_wound_deals_2_and_gives_minus_2_attack(T)
  local m = E.match(T, { p1 = { hand = { "Searing Wound" } },
                         p2 = { board = { ["front 1"] = "Earthshaker Golem" } } })
  E.play(m, "Searing Wound", "Earthshaker Golem (front 1)")
  T.eq(E.stat(m, 2, "front 1", "health"), 3)
  T.eq(E.stat(m, 2, "front 1", "attack"), 1)
end

function tests.test_firestorm_deals_3_to_every_enemy_minion(T)
  local m = E.match(T, { p1 = { hand = { "Firestorm" }, board = { ["front 1"] = "Stone Wall" } },
    p2 = { board = { ["front 1"] = "Stone Wall", ["back 5"] = "Root Warden" } } })
  E.play(m, "Firestorm")
  T.eq(E.stat(m, 2, "front 1", "health"), 1)
  T.eq(E.name_at(m, 2, "back 5"), "-")
  T.eq(E.stat(m, 1, "front 1", "health"), 4, "not your own")
end

function tests.test_fire_elemental_deals_2_damage_when_played(T)
  local m = E.match(T, { p1 = { hand = { "Fire Elemental" } } })
  E.play(m, "Fire Elemental", "front 1", "P2's hero")
  T.eq(m.g:counter("health", 2), 28)
end

function tests.test_ash_wraith_burns_the_enemy_hero_whenever_it_deals_damage(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Ash Wraith" } },
                         p2 = { board = { ["front 1"] = "Stone Wall" } } })
  E.pick(m, "Ash Wraith (front 1) attacks Stone Wall (front 1)")
  T.eq(m.g:counter("health", 2), 29)
end

function tests.test_phoenix_deals_3_to_the_enemy_hero_when_it_dies(T)
  local m = E.match(T, { p1 = { hand = { "Fireball" } },
                         p2 = { board = { ["front 1"] = "Phoenix" } } })
  E.play(m, "Fireball", "Phoenix (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "Phoenix", "4 damage leaves it at 1")
  m = E.match(T, { p1 = { hand = { "Fireball" } },
                   p2 = { board = { ["front 1"] = { "Phoenix", health = 2 } } } })
  E.play(m, "Fireball", "Phoenix (front 1)")
  T.eq(m.g:counter("health", 1), 27, "its owner's enemy: P1")
end

function tests.test_immolate_destroys_a_minion_burns_the_hero_and_draws(T)
  local m = E.match(T, { p1 = { hand = { "Immolate" } },
                         p2 = { board = { ["front 1"] = "Mountain Giant" } } })
  E.play(m, "Immolate", "Mountain Giant (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "-")
  T.eq(m.g:counter("health", 2), 28)
  T.eq(m.g:count("hand", 1), 1)
end

return tests
