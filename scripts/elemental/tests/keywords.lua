-- Keyword tests: Taunt, Haste, Frenzy, Sweep, Berserk, Deathtouch, Free targeting,
-- Reflect, Invulnerable X, Swift, Root, Stun, dispel and the durations of lasting
-- effects. One behaviour each.
local E = require("elemental.testkit")

local tests = {}

-- The labels of the pending decision's attack options, ";"-joined.
local function attacks(m)
  local out = {}
  for _, o in ipairs(m:decision().options) do
    if o.label:find(" attacks ", 1, true) then out[#out + 1] = o.label end
  end
  return table.concat(out, ";")
end

-- ---- Taunt ------------------------------------------------------------------------------

function tests.test_taunt_protects_the_other_minions_and_the_hero(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Root Warden" } },
    p2 = { board = { ["front 5"] = "Pebble Sentry", ["front 2"] = "Zephyr Imp" } } })
  T.eq(attacks(m), "Root Warden (front 1) attacks Pebble Sentry (front 5)")
end

function tests.test_taunt_is_attackable_from_any_lane(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Root Warden" } },
                         p2 = { board = { ["back 5"] = "Pebble Sentry" } } })
  T.eq(attacks(m), "Root Warden (front 1) attacks Pebble Sentry (back 5)")
end

function tests.test_taunt_behind_a_friendly_minion_is_inactive(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Root Warden" } },
    p2 = { board = { ["back 5"] = "Pebble Sentry", ["front 5"] = "Zephyr Imp",
                     ["front 2"] = "Zephyr Imp" } } })
  T.eq(attacks(m), "Root Warden (front 1) attacks Zephyr Imp (front 2);"
    .. "Root Warden (front 1) attacks P2's hero")
end

function tests.test_two_taunts_may_each_be_attacked(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Root Warden" } },
    p2 = { board = { ["front 1"] = "Pebble Sentry", ["back 4"] = "Stone Wall" } } })
  T.eq(attacks(m), "Root Warden (front 3) attacks Pebble Sentry (front 1);"
    .. "Root Warden (front 3) attacks Stone Wall (back 4)")
end

-- ---- Haste, Frenzy, Swift ------------------------------------------------------------------

function tests.test_haste_acts_the_turn_it_is_played(T)
  local m = E.match(T, { p1 = { hand = { "Ember Imp" } } })
  E.play(m, "Ember Imp", "front 2")
  T.ok(E.offers(m, "Ember Imp (front 2) attacks P2's hero"))
end

function tests.test_frenzy_attacks_twice_a_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 2"] = "Storm Hawk" } } })
  E.pick(m, "Storm Hawk (front 2) attacks P2's hero")
  E.pick(m, "Storm Hawk (front 2) attacks P2's hero")
  T.ok(not E.offers(m, "Storm Hawk (front 2) attacks P2's hero"), "not three times")
  T.eq(m.g:counter("health", 2), 24)
end

function tests.test_swift_moves_and_attacks_in_one_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Cloud Dancer" } },
    p2 = { board = { ["front 1"] = "Root Warden", ["front 2"] = "Root Warden" } } })
  T.ok(not E.offers(m, "Cloud Dancer (front 1) attacks P2's hero"))
  E.pick(m, "Move Cloud Dancer (front 1) to front 5")
  E.pick(m, "Cloud Dancer (front 5) attacks P2's hero")
  T.eq(m.g:counter("health", 2), 28)
end

function tests.test_without_swift_a_minion_that_attacked_cannot_move(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Cloud Dancer",
                                          ["front 3"] = "Zephyr Imp" } } })
  E.pick(m, "Cloud Dancer (front 1) attacks P2's hero")
  T.ok(E.offers(m, "Move Cloud Dancer (front 1) to back 1"), "Swift: attack then move")
  E.pick(m, "Zephyr Imp (front 3) attacks P2's hero")
  T.ok(not E.offers(m, "Move Zephyr Imp (front 3) to back 3"))
end

-- ---- Sweep --------------------------------------------------------------------------------

function tests.test_sweep_hits_the_targets_row_neighbours_who_do_not_strike_back(T)
  local m = E.match(T, { p1 = { board = { ["front 2"] = "Magma Brute" } },
    p2 = { board = { ["front 1"] = "Root Warden", ["front 2"] = "Stone Wall",
                     ["front 3"] = "Root Warden", ["back 2"] = "Root Warden" } } })
  E.pick(m, "Magma Brute (front 2) attacks Stone Wall (front 2)")
  T.eq(E.name_at(m, 2, "front 2"), "-", "4 damage kills the Stone Wall")
  T.eq(E.name_at(m, 2, "front 1"), "-", "and its neighbours")
  T.eq(E.name_at(m, 2, "front 3"), "-")
  T.eq(E.name_at(m, 2, "back 2"), "Root Warden", "not the minion behind")
  T.eq(E.stat(m, 1, "front 2", "health"), 3,
    "the Stone Wall has 0 attack; neighbours hit nothing back")
end

-- ---- Berserk ------------------------------------------------------------------------------

function tests.test_berserk_attacks_straight_ahead_as_soon_as_it_can(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Flame Berserker" } },
                         p2 = { board = { ["back 3"] = "Root Warden",
                                          ["front 2"] = "Zephyr Imp" } } })
  T.eq(E.name_at(m, 2, "back 3"), "-", "it attacked the minion straight ahead at once")
  T.eq(E.name_at(m, 1, "front 3"), "-", "and took 3 back")
  T.eq(E.stat(m, 2, "front 2", "health"), 2, "not the neighbour")
end

function tests.test_berserk_attacks_the_hero_when_its_lane_is_clear(T)
  local m = E.match(T, { p1 = { board = { ["front 4"] = "Flame Berserker" } } })
  T.eq(m.g:counter("health", 2), 27)
  T.ok(m:decision(), "the player then gets the turn's decision")
end

function tests.test_berserk_played_with_haste_attacks_the_turn_it_is_played(T)
  local m = E.match(T, { p1 = { hand = { "Molten Rage", "Flame Berserker" } } })
  E.play(m, "Flame Berserker", "front 1")
  T.eq(m.g:counter("health", 2), 30, "not yet: summoned this turn")
  E.play(m, "Molten Rage", "Flame Berserker (front 1)")
  T.eq(m.g:counter("health", 2), 24, "Haste and Frenzy: it attacks twice at once")
end

-- ---- Deathtouch, Reflect, Invulnerable ----------------------------------------------------

function tests.test_deathtouch_kills_any_minion_it_damages(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Venom Salamander" } },
                         p2 = { board = { ["front 1"] = "Mountain Giant" } } })
  E.pick(m, "Venom Salamander (front 1) attacks Mountain Giant (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "-")
end

function tests.test_invulnerable_stops_deathtouch(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Venom Salamander" } },
                         p2 = { board = { ["front 1"] = "Crystal Turtle" } } })
  E.pick(m, "Venom Salamander (front 1) attacks Crystal Turtle (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "Crystal Turtle")
  T.eq(E.stat(m, 2, "front 1", "health"), 4)
  T.eq(E.stat(m, 2, "front 1", "invulnerable"), 0, "the one hit is used up")
end

function tests.test_invulnerable_x_absorbs_the_next_x_hits(T)
  local m = E.match(T, { p1 = { hand = { "Spark", "Spark", "Spark" } },
                         p2 = { board = { ["front 1"] = { "Stone Wall", invulnerable = 2 } } } })
  E.play(m, "Spark", "Stone Wall (front 1)")
  E.play(m, "Spark", "Stone Wall (front 1)")
  T.eq(E.stat(m, 2, "front 1", "health"), 4)
  E.play(m, "Spark", "Stone Wall (front 1)")
  T.eq(E.stat(m, 2, "front 1", "health"), 3)
end

function tests.test_reflect_makes_the_attacker_suffer_its_own_attack(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Earthshaker Golem" } },
                         p2 = { board = { ["front 1"] = "Thornback Boar" } } })
  E.pick(m, "Earthshaker Golem (front 1) attacks Thornback Boar (front 1)")
  T.eq(E.name_at(m, 2, "front 1"), "-", "the Boar still takes the hit")
  T.eq(E.name_at(m, 1, "front 1"), "-", "2 back and its own 3")
end

function tests.test_reflect_carries_deathtouch_back_to_the_attacker(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = { "Venom Salamander", health = 9 } } },
                         p2 = { board = { ["front 1"] = "Living Rampart" } } })
  E.pick(m, "Venom Salamander (front 1) attacks Living Rampart (front 1)")
  T.eq(E.name_at(m, 1, "front 1"), "-")
  T.eq(E.name_at(m, 2, "front 1"), "-")
end

-- ---- Free targeting ---------------------------------------------------------------------

function tests.test_free_targeting_attacks_any_enemy_minion_past_taunts(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Swift Falcon" } },
    p2 = { board = { ["front 5"] = "Pebble Sentry", ["back 4"] = "Zephyr Imp" } } })
  T.eq(attacks(m), "Swift Falcon (front 1) attacks Pebble Sentry (front 5);"
    .. "Swift Falcon (front 1) attacks Zephyr Imp (back 4)")
end

function tests.test_free_targeting_reaches_the_hero_only_down_a_clear_lane(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Swift Falcon" } },
                         p2 = { board = { ["back 1"] = "Zephyr Imp" } } })
  T.eq(attacks(m), "Swift Falcon (front 1) attacks Zephyr Imp (back 1)")
end

-- ---- Root, Stun --------------------------------------------------------------------------

function tests.test_root_stops_moving_but_not_attacking(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = "Root Warden" } } })
  T.ok(not E.offers(m, "Move Root Warden (front 3) to back 3"))
  T.ok(E.offers(m, "Root Warden (front 3) attacks P2's hero"))
end

function tests.test_a_rooted_minion_can_still_be_moved_by_spells(T)
  local m = E.match(T, { p1 = { hand = { "Tailwind" }, board = { ["front 3"] = "Root Warden" } } })
  E.play(m, "Tailwind", "Root Warden (front 3)", "back 1")
  T.eq(E.name_at(m, 1, "back 1"), "Root Warden")
end

function tests.test_a_stunned_minion_loses_its_turn(T)
  local m = E.match(T, { p1 = { board = { ["front 3"] = { "Zephyr Imp", stun = 1 } } } })
  T.ok(not E.offers(m, "Zephyr Imp (front 3) attacks P2's hero"))
  T.ok(not E.offers(m, "Move Zephyr Imp (front 3) to back 3"))
end

function tests.test_a_stun_cast_on_your_own_turn_lasts_through_the_opponents_next_turn(T)
  local m = E.match(T, { p1 = { hand = { "Entangle" } },
                         p2 = { board = { ["front 3"] = "Zephyr Imp" } } })
  E.play(m, "Entangle", "Zephyr Imp (front 3)")
  E.end_turn(m)
  T.eq(E.stat(m, 2, "front 3", "stun"), 1)
  E.end_turn(m)
  T.eq(E.stat(m, 2, "front 3", "stun"), 0, "worn off at the end of their turn")
end

-- ---- dispel and durations ---------------------------------------------------------------

function tests.test_dispel_removes_keywords_and_lasting_effects_but_not_damage(T)
  local m = E.match(T, { p1 = { hand = { "Purify", "Bark Skin" },
    board = { ["front 1"] = { "Obsidian Sentinel", health = 3 } } } })
  E.pick(m, "Hero power")
  E.pick(m, "Obsidian Sentinel (front 1)")
  E.play(m, "Bark Skin", "Obsidian Sentinel (front 1)")
  T.eq(E.stat(m, 1, "front 1", "attack"), 4)
  T.eq(E.stat(m, 1, "front 1", "health"), 6)
  E.play(m, "Purify", "Obsidian Sentinel (front 1)")
  T.eq(E.stat(m, 1, "front 1", "attack"), 2, "back to its printed attack")
  T.eq(E.stat(m, 1, "front 1", "max_health"), 4, "and printed health")
  T.eq(E.stat(m, 1, "front 1", "health"), 3, "the 1 damage it had taken stays")
  T.eq(E.stat(m, 1, "front 1", "taunt"), 0)
  T.eq(E.stat(m, 1, "front 1", "deathtouch"), 0)
end

function tests.test_a_dispel_kills_a_minion_only_its_buffs_kept_alive(T)
  local m = E.match(T, { p1 = { hand = { "Purify", "Bark Skin", "Spark", "Spark" },
                                board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Bark Skin", "Zephyr Imp (front 1)")
  E.play(m, "Spark", "Zephyr Imp (front 1)")
  E.play(m, "Spark", "Zephyr Imp (front 1)")
  T.eq(E.stat(m, 1, "front 1", "health"), 2, "2 damage of 4")
  E.play(m, "Purify", "Zephyr Imp (front 1)")
  T.eq(E.name_at(m, 1, "front 1"), "-", "2 damage of its printed 2")
end

function tests.test_until_end_of_turn_effects_wear_off_at_the_end_of_the_turn(T)
  local m = E.match(T, { p1 = { hand = { "Molten Rage" },
                                board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Molten Rage", "Zephyr Imp (front 1)")
  T.eq(E.stat(m, 1, "front 1", "haste"), 1)
  E.end_turn(m)
  T.eq(E.stat(m, 1, "front 1", "haste"), 0)
end

function tests.test_lasting_effects_end_with_the_minion(T)
  local m = E.match(T, { p1 = { hand = { "Bark Skin", "Gust" },
                                board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Bark Skin", "Zephyr Imp (front 1)")
  E.play(m, "Gust", "Zephyr Imp (front 1)")
  local id = m.g:top("hand", 1)
  T.eq(m.g:name(id), "Zephyr Imp")
  T.eq(E.kernel().st:get(m.g, id, "attack"), 0, "no stats live on a card in hand")
  T.eq(m.g:counter("attack:" .. id), 0, "nor in its published counters")
end

function tests.test_a_minion_played_again_comes_back_with_its_printed_stats(T)
  local m = E.match(T, { p1 = { hand = { "Bark Skin", "Gust" },
                                board = { ["front 1"] = "Zephyr Imp" } } })
  E.play(m, "Bark Skin", "Zephyr Imp (front 1)")
  E.play(m, "Gust", "Zephyr Imp (front 1)")
  E.play(m, "Zephyr Imp", "front 2")
  T.eq(E.stat(m, 1, "front 2", "attack"), 1)
  T.eq(E.stat(m, 1, "front 2", "health"), 2)
end

-- K:may asks the bus only when someone could answer; its answers are the bus's: a status
-- that listens (Stun, Root) or an aura on the board (Gravity Well) still says no, and
-- with neither the minion may act.
function tests.test_may_answers_as_the_bus_with_and_without_listeners(T)
  local m = E.match(T, { p1 = { board = { ["front 1"] = "Zephyr Imp",
                                          ["front 2"] = { "Zephyr Imp", stun = 1 },
                                          ["front 3"] = { "Zephyr Imp", root = 1 } } },
                         p2 = { board = { ["front 5"] = "Gravity Well" } } })
  local g, k = m.g, E.kernel()
  local free, stunned = E.at(m, 1, "front 1"), E.at(m, 1, "front 2")
  local rooted = E.at(m, 1, "front 3")
  local cases = { { free, "can_attack" }, { free, "can_move" }, { stunned, "can_attack" },
                  { stunned, "can_move" }, { rooted, "can_attack" }, { rooted, "can_move" } }
  for _, c in ipairs(cases) do
    T.eq(k:may(g, c[2], c[1]), (k.bus:ask(g, c[2], { unit = c[1] })), c[2])
  end
  T.ok(k:may(g, "can_attack", free))
  T.ok(not k:may(g, "can_move", free), "the enemy's Gravity Well forbids moving")
  T.ok(not k:may(g, "can_attack", stunned))
  T.ok(k:may(g, "can_attack", rooted) and not k:may(g, "can_move", rooted))
  k:unsummon(g, E.at(m, 2, "front 5"), "grave")
  T.eq(g:counter("_auras"), 0)
  T.ok(k:may(g, "can_move", free), "no aura, no status: nobody says no")
  T.ok(not k:may(g, "can_move", rooted), "the Root still does")
end

return tests
