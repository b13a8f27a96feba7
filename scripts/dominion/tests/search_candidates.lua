-- dominion/tests/search_candidates.lua: the bots `greener` and `browner` (dominion/bots.lua),
-- which give the search its other answers near the end of a game: the default bot, but
-- greening two Provinces sooner or later; far from the end they buy what `default` buys
-- (so the search spends nothing there); Accession has neither.
local kit = require("deckbuilder.testkit")
local bots = require("dominion.bots")

local tests = {}

local function game() return require("dominion.game") end

-- A two-player First Game match with `provinces` Provinces left; its kernel and the named
-- buys of default, greener and browner.
local function with_provinces(T, provinces)
  local m = T.match { players = 2,
                      setup = function(g) kit.empty_pile(g, "Province", provinces) end }
  local named = bots.named("dominion")
  return m.g, game().kernel_of(m.g), named.default.buy, named.greener.buy, named.browner.buy
end

function tests.test_greener_buys_a_duchy_where_default_still_buys_gold(T)
  local g, k, default, greener = with_provinces(T, 6)
  T.eq(default(k, g, 1, 6, 10), "Gold", "6 Provinces left, $6")
  T.eq(greener(k, g, 1, 6, 10), "Duchy")
  T.eq(default(k, g, 1, 5, 10), "Militia", "6 Provinces left, $5: its terminal")
  T.eq(greener(k, g, 1, 5, 10), "Duchy")
end

function tests.test_browner_buys_gold_where_default_buys_a_duchy(T)
  local g, k, default, _, browner = with_provinces(T, 4)
  T.eq(default(k, g, 1, 6, 10), "Duchy", "4 Provinces left, $6")
  T.eq(browner(k, g, 1, 6, 10), "Gold")
  T.eq(browner(k, g, 1, 2, 10), nil, "4 Provinces left, $2: nothing")
  T.eq(default(k, g, 1, 2, 10), nil)
end

function tests.test_greener_and_browner_buy_as_default_far_from_the_end(T)
  local g, k, default, greener, browner = with_provinces(T, 8)
  for coins = 0, 11 do
    T.eq(greener(k, g, 1, coins, 3), default(k, g, 1, coins, 3), "$" .. coins)
    T.eq(browner(k, g, 1, coins, 3), default(k, g, 1, coins, 3), "$" .. coins)
  end
end

function tests.test_greener_and_browner_are_dominion_s_bots_only(T)
  T.ok(game().bots.greener and game().bots.browner, "Dominion's game table has both")
  local named = bots.named("accession")
  T.ok(named.default and not named.greener and not named.browner, "Accession's named forms")
  local made = bots.make(function() end, "accession")
  T.ok(made.default and not made.greener and not made.browner, "Accession's bots")
end

return tests
