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

local TEN = "Cellar,Chapel,Moat,Village,Smithy,Market,Militia,Witch,Throne Room,Laboratory"

function tests.test_a_list_of_ten_kingdom_cards_is_accepted_and_played(T)
  T.eq(#game().options[1].list, #require("dominion.cards").kingdom)
  T.eq(game().options[1].list_size, 10)
  T.ok(T.check_options { kingdom = TEN }, "ten of the bundle's kingdom cards")
  local m = T.match { players = 2, options = { kingdom = TEN } }
  T.eq(m.g:count("supply:Throne Room", 0), 10, "a listed card has its pile")
  T.eq(m.g:count("supply:Gardens", 0), 0, "an unlisted one has none")
  T.ok(m:decision() ~= nil, "the match waits for a decision")
end

function tests.test_a_kingdom_list_is_refused_naming_what_is_wrong(T)
  local ok, why = T.check_options { kingdom = TEN:gsub("Witch", "Wizard") }
  T.ok(not ok)
  T.eq(why, "option 'kingdom': 'Wizard' is not one of its items")
  why = select(2, T.check_options { kingdom = TEN:gsub("Chapel", "Cellar") })
  T.eq(why, "option 'kingdom': 'Cellar' is listed twice")
  why = select(2, T.check_options { kingdom = "Copper,Chapel" })
  T.eq(why, "option 'kingdom': 'Copper' is not one of its items", "a base card is no kingdom card")
  why = select(2, T.check_options { kingdom = "Witch,Chapel" })
  T.eq(why, "option 'kingdom': a list of 10 items, not 2")
end

function tests.test_a_short_card_list_is_for_sims_only(T)
  T.ok(not T.check_options { kingdom = "Witch,Chapel" }, "the network takes 10 cards")
  local m = T.match { players = 2, options = { kingdom = "Witch,Chapel" } }
  T.ok(m:decision() ~= nil, "a match (deckhand sim) still takes the list")
end

return tests
