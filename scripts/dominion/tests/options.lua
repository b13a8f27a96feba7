-- Rules tests: the options Dominion declares (game.options) and what the network accepts
-- of them (T.check_options runs the engine's check, the one the matchmaker's workers use).
local tests = {}

local function game() return require("dominion.game") end

function tests.test_kingdom_is_declared_with_first_game_as_default(T)
  local opts = game().options
  T.eq(#opts, 1)
  T.eq(opts[1].name, "kingdom")
  T.eq(opts[1].default, "first_game")
  T.eq(table.concat(opts[1].values, ","),
       "first_game,random,draft,big_money,interaction,size_distortion,village_square")
end

function tests.test_every_declared_kingdom_value_is_accepted_and_sets_up_a_match(T)
  for _, v in ipairs(game().options[1].values) do
    T.ok(T.check_options { kingdom = v }, v .. " is accepted")
    local m = T.match { players = 2, options = { kingdom = v } }
    T.ok(m:decision() ~= nil, v .. " sets up a match that waits for a decision")
  end
  T.ok(T.check_options {}, "no options: the defaults")
end

function tests.test_unknown_options_and_values_are_refused(T)
  local ok, why = T.check_options { kingdom = "no_such_preset" }
  T.ok(not ok)
  T.eq(why, "option 'kingdom' takes no value 'no_such_preset'")
  ok, why = T.check_options { colour = "red" }
  T.ok(not ok)
  T.eq(why, "dominion has no option 'colour'")
  ok, why = T.check_options("kingdom=random;kingdom=draft")
  T.ok(not ok)
  T.eq(why, "option 'kingdom' given twice")
end

function tests.test_an_explicit_card_list_is_for_sims_only(T)
  T.ok(not T.check_options { kingdom = "Witch,Chapel" }, "the network takes declared values")
  local m = T.match { players = 2, options = { kingdom = "Witch,Chapel" } }
  T.ok(m:decision() ~= nil, "a match (deckhand sim) still takes the list")
end

return tests
