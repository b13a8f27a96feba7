-- Evaluation hint tests (bots.evaluate, the search bot's game.evaluate): each hero gets a
-- value in 0..1, the two sum to 1, even sides get even values, and the side ahead on
-- health or on board material is favoured.
local E = require("elemental.testkit")

local tests = {}

local function values(m) return require("elemental.game").evaluate(m.g) end

local function check_values(T, v)
  T.eq(#v, 2)
  for p = 1, 2 do T.ok(v[p] >= 0 and v[p] <= 1, "value " .. v[p]) end
  T.ok(math.abs(v[1] + v[2] - 1) < 1e-9, "the values sum to 1")
end

function tests.test_evaluate_gives_even_sides_even_values(T)
  local v = values(E.match(T, { p1 = { hand = { "Fire Bolt" } }, p2 = { hand = { "Fire Bolt" } } }))
  check_values(T, v)
  T.ok(math.abs(v[1] - 0.5) < 1e-9, "even: " .. v[1])
end

function tests.test_evaluate_favours_the_hero_with_more_health(T)
  local v = values(E.match(T, { p1 = { health = 12 }, p2 = { health = 30 } }))
  check_values(T, v)
  T.ok(v[2] > 0.8, "18 health ahead: " .. v[2])
end

function tests.test_evaluate_favours_the_side_with_more_on_the_board(T)
  local v = values(E.match(T, { p1 = { board = { ["front 1"] = "Earthshaker Golem",
                                                 ["front 2"] = "Root Warden" } } }))
  check_values(T, v)
  T.ok(v[1] > 0.6, "two minions to none: " .. v[1])
end

return tests
