-- Tests of how the default bot spends a turn when no enemy minion blocks (spend.lua): the
-- knapsack itself, the resource choice and the order of plays that spend the most mana,
-- no wasted heal or buff, lethal with the hand's damage; with a minion in the way, the
-- seed's AI's choices (docs/BENCHMARKS.md, issue 28: these made the bot win sooner
-- against an opponent who never blocks, and kept its play against one who does).
local E = require("elemental.testkit")
local spend = require("elemental.spend")

local tests = {}

local function costs(...)
  local out = {}
  for i, c in ipairs { ... } do out[i] = { mana = c } end
  return out
end

function tests.test_spend_most_is_the_most_mana_a_set_of_costs_fills(T)
  T.eq(spend.most(costs(3, 2, 2), 4), 4, "2 + 2, not 3")
  T.eq(spend.most(costs(3, 2, 2), 4, 2), 3, "one 2 left out: 3")
  T.eq(spend.most(costs(5), 4), 0)
  T.eq(spend.most(costs(1, 1), 4, nil, { 2, 0 }), 4, "worth added to a cost")
end

function tests.test_spend_first_plays_are_the_cards_that_start_a_fullest_plan(T)
  T.eq(spend.first_plays(costs(3, 2, 2), 4), { false, true, true })
  T.eq(spend.first_plays(costs(3, 1, 2), 4), { true, true, false })
end

function tests.test_spend_two_turns_plays_now_what_loses_most_by_waiting(T)
  local a = { mana = 3, now = true, next = true, w1 = 10, w2 = 9 }
  local b = { mana = 3, now = true, next = true, w1 = 8, w2 = 2 }
  T.eq(spend.two_turns({ a, b }, 3, 3), { false, true }, "b now and a next: 17, not 10 + 2")
  T.eq(spend.two_turns({ a, b }, 6, 0), { true, true }, "both now when next turn affords none")
  b.next = false
  T.eq(spend.two_turns({ a, b }, 3, 3), { false, true }, "b now or never")
end

-- The resource the default bot takes for player 1 with this side (and P2's).
local function raised(T, side, p2, options)
  local m = E.match(T, { p1 = side, p2 = p2, options = options })
  local g, k = m.g, E.kernel()
  g:set_counter("resource_used", 1, 0)
  local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
  local pick = require("elemental.game").bots.default(g, 1, d)
  return d.options[pick[1]].res
end

-- P2 has no minion (the bot races: it spends by plan) and an empty hand.
local OPEN = { hand = {} }
-- P2 keeps a minion on the board: the bot plays as the seed's AI (dearest card first).
local BLOCKER = { hand = {}, board = { ["front 3"] = "Stone Wall" } }

function tests.test_default_bot_takes_one_mana_when_it_lets_a_second_card_be_played(T)
  T.eq(raised(T, { hand = { "Granite Guard", "Pebble Sentry" }, mana = 3 }, OPEN), "mana",
       "3 + 1 mana plays both cards; an element plays one")
end

function tests.test_default_bot_raises_an_element_when_one_mana_spends_no_more(T)
  T.ok(raised(T, { hand = { "Granite Guard", "Pebble Sentry" }, mana = 4 }, OPEN) ~= "mana",
       "4 mana plays both already")
end

-- The cards (names) the default bot shuffles back from an opening hand.
local function mulligan(T, hand)
  local m = E.match(T, {})
  local d = { kind = "mulligan", player = 1, options = {} }
  for i, name in ipairs(hand) do d.options[i] = { card = m.g:new(name, "hand", 1) } end
  local out = {}
  for _, i in ipairs(require("elemental.game").bots.default(m.g, 1, d)) do
    out[#out + 1] = hand[i]
  end
  return out
end

-- The names on player 1's board after the bot's turn (P2's side: OPEN unless given). The
-- deck's top is the cards the bot's mulligan shuffles back, so that it draws them again
-- and starts its turn with the hand given.
local function played(T, side, p2)
  if not side.deck and #mulligan(T, side.hand) > 0 then side.deck = mulligan(T, side.hand) end
  local m = E.match(T, { bots = { "default" }, p1 = side, p2 = p2 or OPEN })
  T.eq(m:decision().player, 2, "the bot's turn is over")
  local names = {}
  for _, id in ipairs(E.kernel():minions(m.g, 1)) do names[#names + 1] = m.g:name(id) end
  table.sort(names)
  return names, m
end

function tests.test_default_bot_plays_the_cards_that_spend_its_mana_not_its_dearest_first(T)
  T.eq(played(T, { hand = { "Granite Guard", "Root Warden", "Thornback Boar" }, mana = 4 }),
       { "Root Warden", "Thornback Boar" })
end

function tests.test_default_bot_spends_by_plan_only_when_no_enemy_minion_blocks(T)
  local side = { hand = { "Granite Guard", "Root Warden", "Thornback Boar" }, mana = 4 }
  T.eq(played(T, side, BLOCKER), { "Granite Guard" }, "a minion blocks: the dearest first")
  T.ok(raised(T, { hand = { "Granite Guard", "Pebble Sentry" }, mana = 3 }, BLOCKER) ~= "mana",
       "a minion blocks: the seed's resource choice (an element: no card lacks one mana)")
end

function tests.test_default_bot_plays_the_harder_hitter_of_one_cost_when_nothing_blocks(T)
  local names, m = played(T, { hand = { "Stone Wall", "Root Warden" }, mana = 2 })
  T.eq(names, { "Root Warden" })
  T.eq(m.g:count("hand", 1), 1, "the Wall kept")
end

function tests.test_default_bot_keeps_a_heal_at_full_health_when_nothing_blocks(T)
  local _, m = played(T, { hand = { "Healing Spring" }, mana = 2 })
  T.eq(m.g:count("hand", 1), 1, "Healing Spring kept")
  _, m = played(T, { hand = { "Healing Spring" }, mana = 2, health = 20 })
  T.eq(m.g:count("hand", 1), 0, "hurt, it heals")
end

function tests.test_default_bot_keeps_a_buff_of_all_its_minions_with_none_when_nothing_blocks(T)
  local _, m = played(T, { hand = { "Stone Blessing" }, mana = 3 })
  T.eq(m.g:count("hand", 1), 1, "no minion to buff, nothing to heal")
end

-- P1 (Fire) has a 3-attack minion ready; P2 has no minion and `health`.
local function race(T, hand, health, mana)
  return E.match(T, { bots = { "default" }, options = "deck_1=fire",
    p1 = { hand = hand, mana = mana, board = { ["front 3"] = "Root Warden" } },
    p2 = { hand = {}, health = health } })
end

function tests.test_default_bot_finishes_with_its_hand_when_its_board_falls_short(T)
  local m = race(T, { "Flame Berserker", "Fire Bolt" }, 5, 2)
  local r = m:results()
  T.ok(r ~= nil and r[1].rank == 1, "Fire Bolt at the hero and the Warden's 3: P1 won")
end

function tests.test_default_bot_finishes_with_its_hero_power_before_a_play(T)
  local m = race(T, { "Flame Berserker" }, 4, 2)
  local r = m:results()
  T.ok(r ~= nil and r[1].rank == 1, "the hero power's 1 and the Warden's 3: P1 won")
  T.eq(m.g:count("hand", 1), 1, "the Berserker kept")
end

function tests.test_default_bot_takes_the_resource_that_makes_lethal_with_its_hand(T)
  local side = { hand = { "Fire Bolt" }, mana = 3, board = { ["front 3"] = "Root Warden" } }
  T.eq(raised(T, side, { hand = {}, health = 6 }, "deck_1=fire"), "mana",
       "4 mana: Fire Bolt, the hero power and the Warden make 6")
end

function tests.test_default_bot_finishes_with_sparks_hit_at_the_enemy_hero_whatever_its_target(T)
  local cards = E.kernel().cards
  local m = race(T, { "Flame Berserker", "Spark" }, cards["Root Warden"].attack + 2,
                 cards["Flame Berserker"].mana)
  local r = m:results()
  T.ok(r ~= nil and r[1].rank == 1, "Spark's 1 and 1 more at the hero, and the Warden: P1 won")
end

function tests.test_default_bot_counts_its_boards_hits_at_the_enemy_hero_beyond_its_attacks(T)
  local cards = E.kernel().cards
  local wraith = cards["Ash Wraith"]
  local m = E.match(T, { bots = { "default" }, options = "deck_1=fire",
    p1 = { hand = { "Flame Berserker", "Fire Bolt" }, mana = cards["Flame Berserker"].mana,
           board = { ["front 3"] = "Ash Wraith" } },
    p2 = { hand = {}, health = wraith.attack + wraith.on_damage.face + 2 } })
  local r = m:results()
  T.ok(r ~= nil and r[1].rank == 1, "Fire Bolt, the Wraith's hit and its own 1: P1 won")
end

function tests.test_default_bot_finishes_with_a_buff_of_the_minions_that_can_still_attack(T)
  local cards = E.kernel().cards
  local m = E.match(T, { bots = { "default" },
    p1 = { hand = { "Root Warden", "Pebble Sentry", "Stone Blessing" },
           mana = cards["Stone Blessing"].mana, board = { ["front 3"] = "Root Warden" } },
    p2 = { hand = {}, health = cards["Root Warden"].attack + 2 } })
  local r = m:results()
  T.ok(r ~= nil and r[1].rank == 1, "Stone Blessing's +2 on the Warden that attacks: P1 won")
end

function tests.test_default_bot_plans_two_turns_when_no_card_hits_as_hard_later(T)
  local wardens = { ["front 2"] = "Root Warden", ["front 4"] = "Root Warden" }
  T.eq(played(T, { hand = { "Stone Blessing", "Boulder Hurler" }, mana = 5, board = wardens }),
       { "Boulder Hurler", "Root Warden", "Root Warden" },
       "the Hurler, which only this turn's 5 mana lets attack on 3 turns; the Blessing next turn")
end

function tests.test_default_bot_plays_the_cards_that_hit_hardest_by_the_kill_when_nothing_blocks(T)
  T.eq(played(T, { hand = { "Granite Guard", "Root Warden", "Pebble Sentry" }, mana = 3 }),
       { "Pebble Sentry", "Root Warden" }, "3 + 1 attack a turn, not Granite Guard's 2")
end

function tests.test_default_bot_plays_its_minions_before_a_buff_of_all_of_them(T)
  local _, m = played(T, { hand = { "Stone Blessing", "Root Warden" }, mana = 5,
    board = { ["front 3"] = "Pebble Sentry" } })
  T.eq(m.g:count("hand", 1), 0, "both played")
  local k, attack = E.kernel(), 0
  for _, id in ipairs(k:minions(m.g, 1)) do attack = attack + k:attack_of(m.g, id) end
  T.eq(attack, 3 + 2 + 1 + 2, "the Warden played first got the Blessing's +2 too")
end

function tests.test_default_bot_uses_earths_hero_power_before_its_attacks_when_nothing_blocks(T)
  local k = E.kernel()
  local side = { hand = {}, mana = k.heroes["Earth Hero"].power_cost,
    board = { ["front 3"] = "Root Warden" } }
  local m = E.match(T, { bots = { "default" }, p1 = side, p2 = OPEN })
  T.eq(m:decision().player, 2, "the bot's turn is over")
  local attack = k.cards["Root Warden"].attack
  T.eq(m.g:counter("power_used", 1), 1, "the power used")
  T.eq(k:health(m.g, 2), 30 - attack - 1, "the Warden hit with the power's +1")
end

function tests.test_default_bot_takes_one_mana_for_its_hero_power_when_nothing_blocks(T)
  local k = E.kernel()
  local short = k.cards["Root Warden"].mana + k.heroes["Earth Hero"].power_cost - 1
  local side = { hand = { "Root Warden" }, mana = short, board = { ["front 3"] = "Root Warden" } }
  T.eq(raised(T, side, OPEN), "mana", "one mana more: the Warden and the power's +1 on a hit")
end

function tests.test_default_bot_uses_its_hero_power_before_a_card_that_hits_less_in_a_race(T)
  local k = E.kernel()
  local names, m = played(T, { hand = { "Stone Wall" }, mana = k.heroes["Earth Hero"].power_cost,
    board = { ["front 3"] = "Root Warden" } })
  T.eq(names, { "Root Warden" }, "the Wall kept")
  T.eq(m.g:counter("power_used", 1), 1, "the power's +1 on the Warden's hit")
  T.eq(k:health(m.g, 2), 30 - k.cards["Root Warden"].attack - 1)
end

function tests.test_default_bot_counts_a_minions_body_for_the_buff_of_all_its_minions_in_hand(T)
  local names, m = played(T, { hand = { "Stone Blessing", "Stone Wall", "Bark Skin" }, mana = 3,
    board = { ["front 3"] = "Root Warden" } })
  T.eq(names, { "Root Warden", "Stone Wall" }, "the Wall's body for the Blessing's +2 later")
  local _, hand = m.g:list("hand", 1, nil, "names")
  T.eq(hand, { "Stone Blessing" }, "Bark Skin on the Warden now, the Blessing on both later")
end

function tests.test_race_value_counts_a_minions_body_for_a_buff_of_all_the_minions(T)
  local cards, b = E.kernel().cards, { ready = 0, idle = 0 }
  local mass = spend.mass_gain { cards["Stone Wall"], cards["Stone Blessing"], cards["Bark Skin"] }
  T.eq(mass, 2, "Stone Blessing's +2; Bark Skin's +1 is on one minion")
  T.eq(spend.mass_gain { cards["Bark Skin"], cards["Root Warden"] }, 0)
  T.eq(spend.race_value(cards["Stone Wall"], 2, b, mass), 2 * 2, "+2 on each of its 2 attacks")
  T.eq(spend.race_value(cards["Stone Wall"], 2, b), 0, "no buff: a wall hits nothing")
end

function tests.test_race_value_counts_a_cards_hits_at_the_enemy_hero_whatever_its_target(T)
  local cards, b = E.kernel().cards, { ready = 0, idle = 0 }
  T.eq(spend.race_value(cards["Spark"], 2, b), 2, "1 at the target, 1 at the hero")
  T.eq(spend.race_value(cards["Pyromancer"], 2, b), 3 * 2 + 3,
       "its attack on 2 turns, 1 at the end of this turn and of both")
  T.eq(spend.race_value(cards["Stone Blessing"], 2, { ready = 1, idle = 2 }), 2 * (3 + 2 + 2),
       "+2 on a minion that attacks this turn and on two that attack from the next")
end

function tests.test_default_bot_mulligans_dear_cards_weak_hitters_and_spells_that_deal_no_damage(T)
  T.eq(mulligan(T, { "Pebble Sentry", "Stone Wall", "Root Warden", "Healing Spring", "Entangle",
    "Crystal Turtle" }), { "Stone Wall", "Healing Spring", "Entangle", "Crystal Turtle" })
  T.eq(mulligan(T, { "Granite Guard", "Thornback Boar", "Venom Salamander", "Flame Berserker" }),
       { "Granite Guard", "Venom Salamander" }, "2 and 1 attack for 3 mana")
  T.eq(mulligan(T, { "Bark Skin", "Stone Blessing", "Spark", "Fire Bolt", "Pyromancer",
    "Fireball" }), { "Fireball" }, "buffs and damage spells up to 3 mana kept")
end

return tests
