-- Bot tests: every strategy plays whole games to the end on every pair of preset
-- decks; the default bot beats a passive opponent quickly; the turn cap is far above
-- (the tests every board game owes are boardkit/suites.lua's); the default bot's
-- resource choice is the seed's AI's (seed 001 §6.3.2 and §6.3.3.7).
local E = require("elemental.testkit")

local tests = require("boardkit.suites").bots {
  game = "elemental.game", decks = { "earth", "wind", "fire" }, versus = ";deck_2=earth",
}

local finish = E.finish
local K_ELEMENTS = require("elemental.kernel").ELEMENTS

function tests.test_passive_bots_end_by_fatigue_before_the_turn_cap(T)
  local m = finish(T, { "passive", "passive" }, nil, 1)
  local r = m:results()
  T.ok(r[1].turns + r[2].turns < require("elemental.game").max_turns)
  T.ok(m.g:counter("fatigue", 1) > 0)
end

function tests.test_passive_bot_never_attacks_or_plays(T)
  local m = finish(T, { "default", "passive" }, nil, 2)
  T.eq(m.g:count("grave", 2) + m.g:count("hero", 2), 1 + 0, "nothing of P2's in the grave")
end

function tests.test_default_bot_aims_damage_at_a_minion_it_kills(T)
  local m = E.match(T, { bots = { "default" }, options = "deck_1=fire",
    p1 = { hand = { "Fire Bolt" }, mana = 2 },
    p2 = { board = { ["front 1"] = "Root Warden", ["front 2"] = "Cinder Hound" } } })
  T.eq(m:decision().player, 2, "the bot's turn is over")
  T.eq(E.name_at(m, 2, "front 2"), "-", "the Cinder Hound (2 health) died")
  T.eq(E.stat(m, 2, "front 1", "health"), 3)
end

function tests.test_default_bot_trades_a_minion_that_survives_and_kills(T)
  local m = E.match(T, { bots = { "default" },
    p1 = { board = { ["front 1"] = "Earthshaker Golem" } },
    p2 = { board = { ["front 1"] = "Cinder Hound" } } })
  T.eq(E.name_at(m, 2, "front 1"), "-")
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
end

-- The resource the default bot takes for player 1 (the resource choice offered, the
-- hero Earth's) with this side.
local function raised(T, side)
  local m = E.match(T, { p1 = side })
  local g, k = m.g, E.kernel()
  g:set_counter("resource_used", 1, 0)
  local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
  local pick = require("elemental.game").bots.default(g, 1, d)
  return d.options[pick[1]].res
end

-- Seed 001 §6.3.3.7, when no play this turn needs an increase: each element's lack,
-- summed over the cards in hand.
function tests.test_default_bot_raises_the_element_the_hand_lacks_most_in_total(T)
  T.eq(raised(T, { hand = { "Fireball", "Granite Guard", "Granite Guard" }, mana = 3,
                   earth = 0, wind = 1, fire = 2 }), "earth",
       "two cards lack 2 earth each, one lacks 1 fire")
end

function tests.test_default_bot_raises_what_the_deck_lacks_when_the_hand_lacks_nothing(T)
  T.eq(raised(T, { hand = { "Pebble Sentry" }, deck = { "Storm Hawk", "Cyclone" },
                   earth = 2, wind = 1, fire = 1 }), "wind")
end

function tests.test_default_bot_breaks_a_tie_toward_fire(T)
  T.eq(raised(T, { hand = { "Root Warden", "Fire Bolt" }, mana = 1,
                   earth = 1, wind = 1, fire = 1 }), "fire", "1 earth and 1 fire lacking")
  T.eq(raised(T, { hand = {}, deck = { "Pebble Sentry" } }), "fire", "nothing lacking")
end

-- The seed's CostPrep (§6.3.2) comes first: the increase its dearest play this turn needs.
function tests.test_default_bot_first_raises_what_its_dearest_play_this_turn_needs(T)
  T.eq(raised(T, { hand = { "Earthshaker Golem", "Cyclone" }, mana = 3,
                   earth = 3, wind = 1, fire = 1 }), "mana", "the Golem lacks 1 mana")
  T.eq(raised(T, { hand = { "Fire Bolt", "Granite Guard", "Granite Guard" },
                   earth = 0, wind = 1, fire = 1 }), "fire", "Fire Bolt lacks 1 fire")
end

function tests.test_labels_are_left_out_only_for_a_seat_a_bot_answers_inline(T)
  local m = E.match(T, { bots = { false, "default" },
    p1 = { hand = { "Fire Bolt" }, board = { ["front 1"] = "Zephyr Imp" } },
    p2 = { hand = { "Fire Bolt" }, board = { ["front 1"] = "Zephyr Imp" } } })
  local g, k = m.g, E.kernel()
  T.eq(g:labels(1), true, "seat 1 is a player")
  T.eq(g:labels(2), false, "seat 2 is the inline bot")
  T.ok(not pcall(g.labels, g, 3), "a player that does not exist")
  local function built(p) -- the options whose labels name pieces or cards
    local out = {}
    for _, o in ipairs(k:actions(g, p)) do
      if o.act == "play" or o.act == "attack" or o.act == "move" then out[#out + 1] = o end
    end
    return out
  end
  T.eq(built(1)[1].label, "Play Fire Bolt", "the player's options have labels")
  g:set_counter("active", 0, 2) -- as if seat 2's turn had come
  g:set_counter("mana", 2, 10)
  T.ok(#built(2) > 0)
  for _, o in ipairs(built(2)) do
    T.eq(o.label, nil, "none is built for the bot")
    T.ok(o.id ~= nil, "what the bot reads is there")
  end
end

-- The named turn scores attacks from a view read once per decision (each minion's
-- statuses on first use); it picks what scoring every option of k:actions picks, with
-- Reflect, Invulnerable and Deathtouch in play.
function tests.test_default_bot_named_attack_is_the_one_its_options_scoring_picks(T)
  local k, bots = E.kernel(), require("elemental.game").bots
  local cases = {
    { p1 = { board = { ["front 1"] = "Cinder Hound", ["front 2"] = "Earthshaker Golem" } },
      p2 = { board = { ["front 1"] = { "Root Warden", reflect = 1 },
                       ["front 2"] = { "Ember Imp", invulnerable = 1 } } } },
    { p1 = { board = { ["front 3"] = { "Ember Imp", deathtouch = 1 } } },
      p2 = { board = { ["front 3"] = "Earthshaker Golem", ["front 4"] = "Root Warden" } } },
    { p1 = { board = { ["front 1"] = "Stone Wall", ["front 5"] = "Cinder Hound" } },
      p2 = { board = { ["front 2"] = "Root Warden" } } },
  }
  for i, spec in ipairs(cases) do
    spec.p1.hand, spec.p2.hand = {}, {}
    local m = E.match(T, spec)
    local g = m.g
    g:set_counter("resource_used", 1, 1)
    local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
    local o = d.options[bots.default(g, 1, d)[1]]
    local named = k.named.default.turn(k, g, 1)
    T.eq({ named.act, named.id, named.target }, { o.act, o.id, o.target }, "case " .. i)
  end
end

-- g:shortfalls (in C) sums what each card of a zone lacks of each element, as a Lua walk
-- over the cards' requirements does (the default bot's resource choice reads it).
function tests.test_shortfalls_in_c_sum_each_elements_lack_like_the_lua_walk(T)
  local m = E.match(T, { p1 = { hand = { "Fireball", "Granite Guard", "Granite Guard",
                                         "Zephyr Imp" }, earth = 1, wind = 0, fire = 2 } })
  local g, k = m.g, E.kernel()
  local have, want = {}, {}
  for j, e in ipairs(K_ELEMENTS) do have[j], want[j] = g:counter(e, 1), 0 end
  for _, name in ipairs(select(2, g:list("hand", 1, nil, "names"))) do
    for j, e in ipairs(K_ELEMENTS) do
      want[j] = want[j] + math.max(0, (k.cards[name][e] or 0) - have[j])
    end
  end
  T.eq(g:shortfalls("hand", 1, k.needs, have), want)
  T.ok(want[1] > 0 and want[2] > 0, "earth and wind lacking")
  T.eq(g:shortfalls("aside", 1, k.needs, have), { 0, 0, 0 }, "an empty zone lacks nothing")
end

-- Lethal on board: two Pyromancers in lanes open to the hero, 6 health left on it, and a
-- Cinder Hound next to them that either would kill without dying (the usual first pick,
-- a trade, would leave the hero at 3): the bot goes face with both and wins this turn.
local LETHAL = { p1 = { hand = {},
                        board = { ["front 1"] = "Pyromancer", ["front 3"] = "Pyromancer" } },
                 p2 = { hand = {}, health = 6, board = { ["front 2"] = "Cinder Hound" } } }

function tests.test_default_bot_takes_lethal_on_board_before_a_trade(T)
  local m = E.match(T, { bots = { "default" }, p1 = LETHAL.p1, p2 = LETHAL.p2 })
  local r = m:results()
  T.ok(r ~= nil, "the match is over")
  T.eq(r[1].rank, 1, "P1 won")
  T.eq(E.name_at(m, 2, "front 2"), "Cinder Hound", "no attack went to the Hound")
end

function tests.test_default_bot_trades_when_the_board_falls_short_of_lethal(T)
  local p2 = { hand = {}, health = 7, board = { ["front 2"] = "Cinder Hound" } }
  local m = E.match(T, { bots = { "default" }, p1 = LETHAL.p1, p2 = p2 })
  T.eq(E.name_at(m, 2, "front 2"), "-", "the Hound was traded off")
  T.eq(m:results(), nil, "the game goes on")
end

function tests.test_default_bot_named_lethal_is_the_one_its_options_pick(T)
  local k, bots = E.kernel(), require("elemental.game").bots
  local m = E.match(T, LETHAL)
  local g = m.g
  g:set_counter("resource_used", 1, 0)
  local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
  local o = d.options[bots.default(g, 1, d)[1]]
  local named = k.named.default.turn(k, g, 1)
  T.eq({ named.act, named.id, named.target }, { o.act, o.id, o.target })
  T.eq({ o.act, o.target }, { "attack", k:hero(g, 2) }, "before the resource choice")
end

return tests
