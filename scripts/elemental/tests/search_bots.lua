-- Tests of the bots whose answers Elemental's search weighs against `default`'s
-- (bots.SEARCH, game.lua's search_bots): each answers as `default` but for one choice of a
-- race (no enemy minion blocks), where the one-turn plan may be wrong (docs/BENCHMARKS.md,
-- issue 28, eighth round).
local E = require("elemental.testkit")
local bots = require("elemental.bots")

local tests = {}

local function game() return require("elemental.game") end

-- P2 has no minion (a race) and an empty hand; BLOCKER keeps a minion on the board.
local OPEN = { hand = {} }
local BLOCKER = { hand = {}, board = { ["front 3"] = "Stone Wall" } }

-- What bot `name` answers at P1's turn decision with the resource choice open: the
-- resource it takes ("mana", an element), else the act of its answer ("power", "play"...).
local function answer(T, name, side, p2, options)
  local m = E.match(T, { p1 = side, p2 = p2, options = options })
  local g, k = m.g, E.kernel()
  g:set_counter("resource_used", 1, 0)
  local d = { kind = "turn", player = 1, options = k:actions(g, 1) }
  local o = d.options[game().bots[name](g, 1, d)[1]]
  return o.act == "resource" and o.res or o.act
end

-- Granite Guard and Pebble Sentry in hand, with `spare` mana more than both cost less one.
local function two_cards(spare)
  local cards = E.kernel().cards
  return { hand = { "Granite Guard", "Pebble Sentry" },
           mana = cards["Granite Guard"].mana + cards["Pebble Sentry"].mana - 1 + spare }
end

function tests.test_mana_bot_takes_one_mana_in_a_race_where_default_raises_an_element(T)
  T.ok(answer(T, "default", two_cards(1), OPEN) ~= "mana", "default: the mana plays both already")
  T.eq(answer(T, "mana", two_cards(1), OPEN), "mana")
end

function tests.test_element_bot_raises_the_seed_s_element_in_a_race_where_default_takes_mana(T)
  T.eq(answer(T, "default", two_cards(0), OPEN), "mana", "default: one mana more plays both")
  T.eq(answer(T, "element", two_cards(0), OPEN), "fire",
       "no card lacks an element: the seed's default, fire")
end

function tests.test_power_bot_uses_the_hero_power_first_in_a_race(T)
  local side = { hand = { "Flame Berserker" }, mana = 4 }
  T.ok(answer(T, "default", side, OPEN, "deck_1=fire") ~= "power", "default: the resource first")
  T.eq(answer(T, "power", side, OPEN, "deck_1=fire"), "power")
end

function tests.test_the_race_s_alternatives_answer_as_default_when_a_minion_blocks(T)
  for _, name in ipairs(bots.SEARCH) do
    T.eq(answer(T, name, two_cards(1), BLOCKER), answer(T, "default", two_cards(1), BLOCKER), name)
    local fire = { hand = { "Flame Berserker" }, mana = 4 }
    T.eq(answer(T, name, fire, BLOCKER, "deck_1=fire"),
         answer(T, "default", fire, BLOCKER, "deck_1=fire"), name .. " (fire)")
  end
end

function tests.test_elemental_s_search_weighs_the_race_s_alternatives_not_passive_or_random(T)
  local g = game()
  T.eq(g.search_bots, bots.SEARCH)
  for _, name in ipairs(g.search_bots) do
    T.ok(g.bots[name] ~= nil, name .. " is one of the game's bots")
    T.ok(name ~= "passive" and name ~= "random" and name ~= "default", name)
  end
end

return tests
