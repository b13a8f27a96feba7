-- Evaluation hint tests (deckbuilder/evaluate.lua, the search bot's game.evaluate): each
-- player gets a value in 0..1, the values sum to 1, even players get even values, and the
-- player ahead on points, or on money in its deck, is favoured, the more so the fewer
-- Provinces are left.
local tests = {}

local function game() return require("dominion.game") end

-- A two-player match whose set-up then has each player p gain the cards gains[p] names.
local function with_gains(T, gains)
  return T.match { players = 2, setup = function(g)
    local k = game().kernel_of(g)
    for p = 1, 2 do
      for _, name in ipairs(gains[p] or {}) do k:gain(g, p, name) end
    end
  end }
end

local function check_values(T, v)
  T.eq(#v, 2)
  for p = 1, 2 do T.ok(v[p] >= 0 and v[p] <= 1, "value " .. v[p]) end
  T.ok(math.abs(v[1] + v[2] - 1) < 1e-9, "the values sum to 1")
end

function tests.test_evaluate_gives_even_players_even_values(T)
  local v = game().evaluate(T.match { players = 2 }.g)
  check_values(T, v)
  T.ok(math.abs(v[1] - 0.5) < 1e-9, "even at the start: " .. v[1])
end

function tests.test_evaluate_favours_the_player_with_more_points(T)
  local v = game().evaluate(with_gains(T, { [2] = { "Province", "Duchy" } }).g)
  check_values(T, v)
  T.ok(v[2] > 0.7, "9 points ahead: " .. v[2])
end

function tests.test_evaluate_favours_the_player_with_more_money(T)
  local v = game().evaluate(with_gains(T, { [1] = { "Gold", "Gold", "Silver" } }).g)
  check_values(T, v)
  T.ok(v[1] > 0.6, "richer: " .. v[1])
end

function tests.test_evaluate_is_surer_of_a_lead_when_few_provinces_are_left(T)
  local early = game().evaluate(with_gains(T, { [1] = { "Province" } }).g)
  local late = game().evaluate(with_gains(T, {
    [1] = { "Province", "Province", "Province", "Province", "Province" },
    [2] = { "Province", "Province", "Province", "Province" } }).g)
  check_values(T, late)
  T.ok(late[1] > early[1], "6 points ahead with 3 left: " .. late[1] .. " > " .. early[1])
end

function tests.test_the_end_is_as_near_as_the_piles_that_can_end_it(T)
  local evaluate = require("deckbuilder.evaluate")
  local function to_end(gains)
    local g = with_gains(T, gains).g
    return evaluate.to_end(game().kernel_of(g), g, "Province")
  end
  local near, left = to_end({})
  T.eq(left, 8)
  T.eq(near, 8) -- no three piles hold fewer than the 8 Provinces
  local curses, estates = {}, {}
  for i = 1, 10 do curses[i] = "Curse" end
  for i = 1, 8 do estates[i] = "Estate" end
  for i = 9, 13 do estates[i] = "Duchy" end
  near, left = to_end({ [1] = curses, [2] = estates })
  T.eq(left, 8)
  T.eq(near, 3) -- two piles empty: the 3 Duchies left end it
end

function tests.test_evaluate_weighs_a_lead_more_when_three_piles_near_their_end(T)
  -- the same 3 points ahead, then with Curses and Estates gone and one Duchy left
  local early = game().evaluate(with_gains(T, { [1] = { "Duchy" } }).g)
  local both = {}
  for _ = 1, 5 do both[#both + 1] = "Curse" end
  for _ = 1, 4 do both[#both + 1] = "Estate" end
  for _ = 1, 3 do both[#both + 1] = "Duchy" end
  local ahead = { "Duchy" }
  for i = 1, #both do ahead[#ahead + 1] = both[i] end
  local late = game().evaluate(with_gains(T, { [1] = ahead, [2] = both }).g)
  check_values(T, late)
  T.ok(late[1] > early[1], "3 points ahead with the end near: " .. late[1] .. " > " .. early[1])
end

return tests
