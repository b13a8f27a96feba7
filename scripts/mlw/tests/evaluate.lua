-- Evaluation hint tests (bots.evaluate, the search bot's game.evaluate): each wizard gets
-- a value in 0..1, the two sum to 1, even sides get even values, and the side ahead on
-- health or on monsters is favoured.
local M = require("mlw.testkit")

local tests = {}

local function values(m) return require("mlw.game").evaluate(m.g) end

local function check_values(T, v)
  T.eq(#v, 2)
  for p = 1, 2 do T.ok(v[p] >= 0 and v[p] <= 1, "value " .. v[p]) end
  T.ok(math.abs(v[1] + v[2] - 1) < 1e-9, "the values sum to 1")
end

function tests.test_evaluate_gives_even_sides_even_values(T)
  local v = values(M.match(T, {}))
  check_values(T, v)
  T.ok(math.abs(v[1] - 0.5) < 1e-9, "even: " .. v[1])
end

function tests.test_evaluate_favours_the_wizard_with_more_health(T)
  local v = values(M.match(T, { p1 = { health = 20 }, p2 = { health = 6 } }))
  check_values(T, v)
  T.ok(v[1] > 0.8, "14 health ahead: " .. v[1])
end

function tests.test_evaluate_favours_the_side_with_more_monsters(T)
  local v = values(M.match(T, { p2 = { monsters = { "Goblin", "Goblin" } } }))
  check_values(T, v)
  T.ok(v[2] > 0.6, "two monsters to none: " .. v[2])
end

return tests
