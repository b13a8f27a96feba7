-- Rules tests for Elemental Command: set-up, mulligan, resources, the turn, the board,
-- attacks, damage and deaths, fatigue and the hand limit, the end. One behaviour each.
local E = require("elemental.testkit")

-- The preset decks and the full hand: boardkit/suites.lua.
local tests = require("boardkit.suites").rules {
  kit = E, game = "elemental.game", decks = { "earth", "wind", "fire" },
  filler = "Zephyr Imp", drawn = "Fireball", lost = "burned",
}

local function counter(m, name, p) return m.g:counter(name, p or 0) end

-- ---- set-up and mulligan --------------------------------------------------------------

function tests.test_each_player_has_a_40_card_deck_a_hero_and_30_health(T)
  local m = T.match { players = 2 }
  for p = 1, 2 do
    T.eq(m.g:count("deck", p) + m.g:count("hand", p), 40)
    T.eq(m.g:count("hero", p), 1)
    T.eq(counter(m, "health", p), 30)
  end
  T.eq(m.g:name(m.g:top("hero", 1)), "Earth Hero", "deck_1 defaults to earth")
  T.eq(m.g:name(m.g:top("hero", 2)), "Fire Hero", "deck_2 defaults to fire")
end

function tests.test_deck_options_pick_each_players_hero_and_deck(T)
  local m = T.match { players = 2, options = "deck_1=wind;deck_2=earth" }
  T.eq(m.g:name(m.g:top("hero", 1)), "Wind Hero")
  T.eq(m.g:name(m.g:top("hero", 2)), "Earth Hero")
  T.eq(counter(m, "wind", 1), 2, "the hero's element starts at 2")
  T.eq(counter(m, "earth", 1), 1, "the others at 1")
  T.eq(counter(m, "earth", 2), 2)
end

function tests.test_the_game_declares_its_deck_options(T)
  local options = require("elemental.game").options
  T.eq(options[1].name, "deck_1")
  T.eq(options[2].name, "deck_2")
  T.eq(table.concat(options[1].values, ","), "earth,wind,fire")
end

function tests.test_opening_hand_is_6_cards_and_both_players_mulligan_first(T)
  local m = T.match { players = 2 }
  local d = m:decision()
  T.eq(d.kind, "mulligan")
  T.eq(d.player, 1)
  T.eq(#d.options, 6)
  T.eq(d.min, 0)
  T.eq(d.max, 6)
  T.ok(m:answer(1, {}))
  T.eq(m:decision().kind, "mulligan")
  T.eq(m:decision().player, 2)
end

function tests.test_mulligan_redraws_the_chosen_cards_with_new_ones(T)
  local m = T.match { players = 2, setup = function(g)
    for _ = 1, 6 do g:move(g:top("hand", 1), "box", 0) end
    for _ = 1, 6 do g:new("Stone Wall", "hand", 1) end
    for _ = 1, g:count("deck", 1) do g:move(g:top("deck", 1), "box", 0) end
    for _ = 1, 34 do g:new("Pebble Sentry", "deck", 1) end
  end }
  local ok = m:answer(1, { 1, 2 })
  T.ok(ok)
  local walls, sentries = 0, 0
  for _, id in ipairs(m.g:list("hand", 1)) do
    if m.g:name(id) == "Stone Wall" then walls = walls + 1 else sentries = sentries + 1 end
  end
  T.eq(walls, 4)
  T.eq(sentries, 2, "the two redrawn cards are new ones")
  T.eq(m.g:count("deck", 1), 34, "the set-aside cards are shuffled back")
  T.ok(E.saw(m, 2, "P1 redraws 2 cards"), "the count is public")
end

-- ---- resources and the turn ---------------------------------------------------------------

function tests.test_first_player_turn_1_has_1_mana_no_draw_and_no_resource_choice(T)
  local m = T.match { players = 2 }
  T.ok(m:answer(1, {}))
  T.ok(m:answer(2, {}))
  T.eq(counter(m, "mana", 1), 1)
  T.eq(m.g:count("hand", 1), 6, "no draw on the first player's first turn")
  T.ok(not E.offers(m, "Gain 1 mana this turn"), "no resource choice on turn 1")
end

function tests.test_second_player_draws_and_may_choose_a_resource_on_turn_1(T)
  local m = T.match { players = 2 }
  T.ok(m:answer(1, {}))
  T.ok(m:answer(2, {}))
  E.end_turn(m)
  T.eq(m:decision().player, 2)
  T.eq(counter(m, "mana", 2), 1)
  T.eq(m.g:count("hand", 2), 7)
  T.ok(E.offers(m, "Gain 1 mana this turn"))
  T.ok(E.offers(m, "Raise Fire to 3"))
end

function tests.test_mana_grows_by_one_each_turn_up_to_10(T)
  local m = E.match(T, { p1 = { mana = 9 }, p2 = { mana = 10 } })
  T.eq(counter(m, "mana", 1), 9)
  E.end_turn(m)
  T.eq(counter(m, "mana", 2), 10)
  E.end_turn(m)
  T.eq(counter(m, "mana", 1), 10)
  E.end_turn(m)
  T.eq(counter(m, "mana", 2), 10, "capped at 10")
  T.eq(counter(m, "max_mana", 2), 10)
end

function tests.test_gain_mana_is_for_this_turn_only(T)
  local m = E.match(T, { p1 = { mana = 3 }, p2 = { mana = 3 } })
  E.end_turn(m)
  E.pick(m, "Gain 1 mana this turn")
  T.eq(counter(m, "mana", 2), 4)
  T.ok(not E.offers(m, "Raise Fire to 10"), "one resource choice per turn")
  E.end_turn(m)
  E.end_turn(m)
  T.eq(counter(m, "mana", 2), 4, "next turn: max mana + 1, not the bonus")
end

function tests.test_raising_an_element_is_permanent(T)
  local m = E.match(T, { p1 = { fire = 1 }, p2 = { fire = 2 } })
  E.end_turn(m)
  E.pick(m, "Raise Fire to 3")
  T.eq(counter(m, "fire", 2), 3)
  E.end_turn(m)
  E.end_turn(m)
  T.eq(counter(m, "fire", 2), 3)
  T.ok(E.offers(m, "Raise Fire to 4"), "again next turn")
end

function tests.test_cards_require_element_levels_which_are_not_spent(T)
  local m = E.match(T, { p1 = { hand = { "Fire Bolt", "Fire Bolt" }, fire = 1, mana = 5 } })
  T.ok(not E.offers(m, "Play Fire Bolt"), "Fire 2 required")
  m = E.match(T, { p1 = { hand = { "Fire Bolt", "Fire Bolt" }, fire = 2, mana = 5 } })
  E.play(m, "Fire Bolt", "P2's hero")
  T.eq(counter(m, "fire", 1), 2, "requirements are not spent")
  T.eq(counter(m, "mana", 1), 3, "mana is")
  T.ok(E.offers(m, "Play Fire Bolt"))
end

function tests.test_a_card_costing_more_mana_than_left_cannot_be_played(T)
  local m = E.match(T, { p1 = { hand = { "Fireball" }, mana = 3 } })
  T.ok(not E.offers(m, "Play Fireball"))
end

function tests.test_hero_power_costs_2_mana_once_per_turn(T)
  local m = E.match(T, { options = "deck_1=fire", p1 = { mana = 5 } })
  E.pick(m, "Hero power")
  E.pick(m, "P2's hero")
  T.eq(counter(m, "health", 2), 29)
  T.eq(counter(m, "mana", 1), 3)
  T.ok(not E.offers(m, "Hero power"), "once per turn")
  m = E.match(T, { options = "deck_1=fire", p1 = { mana = 1 } })
  T.ok(not E.offers(m, "Hero power"), "needs 2 mana")
end

function tests.test_earth_hero_power_gives_plus_1_plus_1_until_end_of_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } } })
  E.pick(m, "Hero power")
  E.pick(m, "Zephyr Imp (front 1)")
  T.eq(E.stat(m, 1, "front 1", "attack"), 2)
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "attack"), 1)
  T.eq(E.stat(m, 1, "front 1", "health"), 2)
end

function tests.test_wind_hero_power_moves_a_minion_to_an_adjacent_space(T)
  local m = E.match(T, { options = "deck_1=wind",
                         p2 = { board = { ["front 3"] = "Stone Wall" } } })
  E.pick(m, "Hero power")
  E.pick(m, "Stone Wall (front 3)")
  T.eq(E.labels(m), "front 2,front 4,back 3", "only adjacent empty spaces")
  E.pick(m, "back 3")
  T.eq(E.name_at(m, 2, "back 3"), "Stone Wall")
end

function tests.test_fire_hero_power_deals_1_damage_to_any_target(T)
  local m = E.match(T, { options = "deck_1=fire",
                         p1 = { board = { ["front 1"] = "Zephyr Imp" } } })
  E.pick(m, "Hero power")
  E.pick(m, "Zephyr Imp (front 1)")
  T.eq(E.stat(m, 1, "front 1", "health"), 1, "friendly minions are valid targets too")
end

-- ---- the board and acting ---------------------------------------------------------------

function tests.test_minions_are_played_on_any_empty_space_of_your_side(T)
  local m = E.match(T, { p1 = { hand = { "Stone Wall" }, board = { ["front 1"] = "Zephyr Imp" } } })
  E.pick(m, "Play Stone Wall")
  T.eq(m:decision().kind, "place")
  T.eq(#m:decision().options, 9)
  E.pick(m, "back 4")
  T.eq(E.name_at(m, 1, "back 4"), "Stone Wall")
  T.eq(m.g:count("board:back:4", 1), 1, "the board space is a zone of its owner")
end

function tests.test_a_full_board_stops_minions_being_played(T)
  local board = {}
  for _, row in ipairs { "front", "back" } do
    for c = 1, 5 do board[row .. " " .. c] = "Zephyr Imp" end
  end
  local m = E.match(T, { p1 = { hand = { "Stone Wall", "Fire Bolt" }, board = board } })
  T.ok(not E.offers(m, "Play Stone Wall"))
  T.ok(E.offers(m, "Play Fire Bolt"))
end

function tests.test_a_minion_cannot_act_the_turn_it_is_played(T)
  local m = E.match(T, { p1 = { hand = { "Zephyr Imp" } } })
  E.play(m, "Zephyr Imp", "front 1")
  T.ok(not E.offers(m, "Zephyr Imp (front 1) attacks P2's hero"))
  T.ok(not E.offers(m, "Move Zephyr Imp (front 1) to front 2"))
  E.end_turn(m)
  E.end_turn(m)
  T.ok(E.offers(m, "Zephyr Imp (front 1) attacks P2's hero"), "next turn it may")
end

function tests.test_a_minion_moves_anywhere_on_its_side_or_attacks_once_per_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } } })
  E.pick(m, "Move Zephyr Imp (front 1) to back 5")
  T.eq(E.name_at(m, 1, "back 5"), "Zephyr Imp")
  T.ok(not E.offers(m, "Zephyr Imp (back 5) attacks P2's hero"), "moved: no attack")
  T.ok(not E.offers(m, "Move Zephyr Imp (back 5) to back 4"), "one move a turn")
  m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp" } } })
  E.pick(m, "Zephyr Imp (front 1) attacks P2's hero")
  T.ok(not E.offers(m, "Move Zephyr Imp (front 1) to back 5"), "attacked: no move")
  T.ok(not E.offers(m, "Zephyr Imp (front 1) attacks P2's hero"), "one attack a turn")
end

function tests.test_minions_attack_the_frontmost_enemy_in_their_or_a_neighbouring_lane(T)
  local m = E.match(T, { p1 = { board = { ["back 3"] = "Zephyr Imp" } },
    p2 = { board = { ["front 2"] = "Stone Wall", ["back 2"] = "Root Warden",
                     ["back 3"] = "Granite Guard", ["front 5"] = "Zephyr Imp" } } })
  local labels = {}
  for _, o in ipairs(m:decision().options) do
    if o.label:find("attacks", 1, true) then labels[#labels + 1] = o.label end
  end
  T.eq(table.concat(labels, ";"), "Zephyr Imp (back 3) attacks Stone Wall (front 2);"
    .. "Zephyr Imp (back 3) attacks Granite Guard (back 3)")
end

function tests.test_the_hero_is_attackable_only_when_the_attackers_lane_is_clear(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp",
                                          ["front 4"] = "Zephyr Imp" } },
    p2 = { board = { ["back 1"] = "Zephyr Imp" } } })
  T.ok(not E.offers(m, "Zephyr Imp (front 1) attacks P2's hero"))
  T.ok(E.offers(m, "Zephyr Imp (front 4) attacks P2's hero"))
end

function tests.test_damage_is_simultaneous_and_both_minions_can_die(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Root Warden" } },
                         p2 = { board = { ["front 3"] = { "Root Warden", health = 2 } } } })
  E.pick(m, "Root Warden (front 3) attacks Root Warden (front 3)")
  T.eq(E.name_at(m, 2, "front 3"), "-")
  T.eq(E.name_at(m, 1, "front 3"), "-", "the attacker took 3 and died too")
  T.eq(m.g:count("grave", 1), 1)
  T.eq(m.g:count("grave", 2), 1)
end

function tests.test_heroes_strike_no_damage_back(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Root Warden" } } })
  E.pick(m, "Root Warden (front 3) attacks P2's hero")
  T.eq(counter(m, "health", 2), 27)
  T.eq(E.stat(m, 1, "front 3", "health"), 3)
end

function tests.test_zero_attack_minions_do_not_attack(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Stone Wall" } } })
  T.ok(not E.offers(m, "Stone Wall (front 3) attacks P2's hero"))
end

function tests.test_deaths_resolve_after_the_whole_action_in_a_set_order(T)
  -- Firestorm kills two Moles at once; both leave the board before either draws.
  local m = E.match(T, { p1 = { hand = { "Firestorm" } },
    p2 = { board = { ["front 2"] = "Mole Digger", ["front 1"] = "Mole Digger" },
           deck = { "Stone Wall", "Granite Guard" } } })
  E.play(m, "Firestorm")
  T.eq(E.name_at(m, 2, "front 1"), "-")
  T.eq(E.name_at(m, 2, "front 2"), "-")
  T.eq(E.names(m.g, "hand", 2), "Stone Wall,Granite Guard", "front 1 dies first, draws first")
  local dies = {}
  for _, e in ipairs(m:events(1)) do
    if e.text:find(" dies", 1, true) then dies[#dies + 1] = e.text end
  end
  T.eq(table.concat(dies, ";"), "Mole Digger (front 1) dies;Mole Digger (front 2) dies")
end

function tests.test_on_death_triggers_run_for_the_active_players_side_first(T)
  local m = E.match(T, {
    p1 = { hand = { "Cyclone" }, board = { ["back 5"] = { "Phoenix", health = 1 },
                                           ["front 5"] = "Zephyr Imp" } },
    p2 = { board = { ["front 1"] = { "Phoenix", health = 1 } } } })
  E.play(m, "Cyclone", "Zephyr Imp (front 5)")
  local order = {}
  for _, e in ipairs(m:events(1)) do
    if e.text:find("hero takes 3", 1, true) then order[#order + 1] = e.text:sub(1, 2) end
  end
  T.eq(table.concat(order, ","), "P2,P1", "P1's Phoenix (active side) hits P2 first")
end

-- ---- drawing -----------------------------------------------------------------------------

function tests.test_fatigue_deals_1_then_2_then_3(T)
  local m = E.match(T, { p2 = { deck = {} }, p1 = { deck = {} } })
  E.end_turn(m)
  T.eq(counter(m, "health", 2), 29)
  E.end_turn(m)
  T.eq(counter(m, "health", 1), 29)
  E.end_turn(m)
  T.eq(counter(m, "health", 2), 27)
  E.end_turn(m)
  E.end_turn(m)
  T.eq(counter(m, "health", 2), 24)
  T.eq(counter(m, "fatigue", 2), 3)
end

-- ---- the end ---------------------------------------------------------------------------------

function tests.test_a_hero_at_0_health_loses_at_once(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Root Warden" } }, p2 = { health = 3 } })
  E.pick(m, "Root Warden (front 3) attacks P2's hero")
  T.ok(m:finished())
  T.eq(E.ranks(m), "1,2")
  T.eq(m:decision(), nil)
end

function tests.test_both_heroes_dying_at_once_is_a_draw(T)
  -- Cyclone's 1 damage kills both Phoenixes; each deals 3 to the other hero.
  local m = E.match(T, {
    p1 = { health = 3, hand = { "Cyclone" }, board = { ["front 1"] = { "Phoenix", health = 1 },
                                                     ["front 5"] = "Zephyr Imp" } },
    p2 = { health = 3, board = { ["front 1"] = { "Phoenix", health = 1 } } } })
  E.play(m, "Cyclone", "Zephyr Imp (front 5)")
  T.ok(m:finished())
  T.eq(m.g:counter("health", 1), 0)
  T.eq(m.g:counter("health", 2), 0)
  T.eq(E.ranks(m), "1,1")
end

function tests.test_at_the_turn_cap_the_most_health_wins(T)
  local game = require("elemental.game")
  T.eq(game.max_turns, 200)
  local m = E.match(T, { p1 = { health = 12 }, p2 = { health = 20 } })
  local r = game.results(m.g)
  T.eq(r[1].rank, 2)
  T.eq(r[2].rank, 1)
end

-- The death check's C walk (g:fallen, via grid:fallen) names the minions the Lua rule
-- does: at 0 health or less or doomed (Deathtouch), the active side first, reading order.
function tests.test_death_check_in_c_finds_the_minions_the_lua_rule_finds(T)
  local m = E.match(T, {
    p1 = { board = { ["front 2"] = "Stone Wall", ["back 4"] = { "Root Warden", health = -1 } } },
    p2 = { board = { ["front 1"] = { "Cinder Hound", health = 0 }, ["front 3"] = "Ember Imp",
                     ["back 3"] = "Root Warden" } } })
  local g, k = m.g, E.kernel()
  g:set(E.at(m, 2, "back 3"), "dying", 1)
  local want = {}
  for _, id in ipairs(k:all_minions(g)) do
    if k.st:get(g, id, "health") <= 0 or g:get(id, "dying") ~= 0 then want[#want + 1] = id end
  end
  T.eq(#want, 3)
  T.eq(k.grid:fallen(g, "health", "dying", 1, 2), want)
  T.eq(k.grid:fallen(g, "health", "dying", 2, 1)[1], E.at(m, 2, "front 1"), "owners' order")
end

-- After an action the doomed minions still leave together, with their death triggers.
function tests.test_an_attack_kills_both_minions_of_an_even_trade(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Cinder Hound" } },
                         p2 = { board = { ["front 1"] = "Ember Imp" } } })
  E.pick(m, "Cinder Hound (front 1) attacks Ember Imp (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "-")
  T.eq(E.name_at(m, 1, "front 1"), "-", "the Imp strikes back for the Hound's 1 health")
  T.eq(m.g:count("grave", 1) + m.g:count("grave", 2), 2)
end

-- A minion enters with one g:status_enter (in C), set from its card's data at load: the
-- same values, durations and published counters a st:set per number and keyword gives.
function tests.test_a_minion_enters_with_the_statuses_st_set_would_give_it(T)
  local m = E.match(T, {})
  local g, k = m.g, E.kernel()
  for _, name in ipairs { "Earthshaker Golem", "Stone Wall", "Zephyr Imp", "Ember Imp" } do
    local def = k.cards[name]
    local fast, slow = g:new(name, "hand", 1), g:new(name, "hand", 2)
    k:summon(g, fast, 1, 2, 5)
    k.grid:place(g, slow, 2, 2, 5)
    k.st:set(g, slow, "attack", def.attack)
    k.st:set(g, slow, "health", def.health)
    k.st:set(g, slow, "max_health", def.health)
    for _, kw in ipairs(k.KEYWORDS) do
      local v = def[kw.name]
      if v then k.st:set(g, slow, kw.name, v == true and 1 or v) end
    end
    T.eq(g:gets(fast, k.st.names), g:gets(slow, k.st.names), name .. ": values")
    T.eq(g:gets(fast, k.st.untils), g:gets(slow, k.st.untils), name .. ": durations")
    for _, s in ipairs(k.st.names) do
      T.eq(g:counter(s .. ":" .. fast), g:counter(s .. ":" .. slow), name .. ": " .. s)
    end
    k:unsummon(g, fast, "grave")
    k:unsummon(g, slow, "grave")
  end
  local id = g:new("Zephyr Imp", "hand", 1)
  k.st:set(g, id, "health", 1)
  local e = k.entry["Zephyr Imp"]
  local ok, err = pcall(g.status_enter, g, id, e.names, e.untils, e.values)
  T.ok(not ok and tostring(err):find("already holds health", 1, true), tostring(err))
end

-- A minion leaving play loses every status with one g:status_clear (in C): the values,
-- durations and published counters a removal per status held leaves, a status that is
-- not public (Boost) left unpublished.
function tests.test_a_leaving_minion_loses_its_statuses_as_a_removal_per_status_would(T)
  local m = E.match(T, {})
  local g, k = m.g, E.kernel()
  local st = k.st
  local fast, slow = g:new("Earthshaker Golem", "hand", 1), g:new("Earthshaker Golem", "hand", 2)
  for p, id in ipairs { fast, slow } do
    k:summon(g, id, p, 1, 1)
    st:set(g, id, "stun", 1, 9)
    st:set(g, id, "boost", 2, 9)
  end
  g:set_counter("boost:" .. slow, 0, 7) -- not public: no removal touches it
  g:set_counter("boost:" .. fast, 0, 7)
  st:clear(g, fast)
  for i, d in ipairs(st.defs) do
    if g:get(slow, d.name) ~= 0 then
      g:set(slow, d.name, 0)
      g:set(slow, st.untils[i], 0)
      if d.public then g:set_counter(d.name .. ":" .. slow, 0, 0) end
    end
  end
  T.eq(g:gets(fast, st.names), g:gets(slow, st.names))
  T.eq(g:gets(fast, st.untils), g:gets(slow, st.untils))
  for _, name in ipairs(st.names) do
    T.eq(g:counter(name .. ":" .. fast), g:counter(name .. ":" .. slow), name)
  end
  T.eq(g:counter("boost:" .. fast), 7)
end

return tests
