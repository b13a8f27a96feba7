-- dominion/tests/search_candidates.lua: the bots whose answers Dominion's search compares
-- with `default`'s (dominion/bots.lua, bots.SEARCH; game.lua, search_bots). `greener` and
-- `browner` give its other answers near the end of a game: the default bot, but greening
-- two Provinces sooner or later; far from the end they buy what `default` buys (so the
-- search spends nothing there); Accession has neither. The others are checked as
-- `default` checks its own buys: no Province that chokes a thin deck early or ends the game
-- behind; `dearest` buys what `generic` buys otherwise; neither `generic` nor the Big Money
-- bots as they are give the search its candidates.
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

function tests.test_the_search_s_bots_are_dominion_s_only(T)
  local named, made = bots.named("accession"), bots.make(function() end, "accession")
  T.ok(named.default and made.default, "Accession has the default bot")
  for _, name in ipairs(bots.SEARCH) do
    T.ok(game().bots[name], "Dominion's game table has " .. name)
    T.ok(not named[name], "Accession's named forms lack " .. name)
    T.ok(not made[name], "Accession's bots lack " .. name)
  end
end

-- A two-player match with `provinces` Provinces left, in which player p gains the cards
-- gains[p] names at set-up (both start with 3 Estates).
local function near_the_end(T, provinces, gains)
  return kit.near_the_end(T, game().kernel_of, provinces, gains)
end

local CHECKED = { checked_big_money = "big_money", checked_big_money_plain = "big_money_plain",
                  checked_big_money_smithy = "big_money_smithy", checked_witch = "witch" }

function tests.test_checked_bots_buy_gold_not_a_province_in_a_thin_deck_early(T)
  local g, k = near_the_end(T, 8, {})
  local named = bots.named("dominion")
  for checked, plain in pairs(CHECKED) do
    T.eq(named[plain].buy(k, g, 1, 8, 3), "Province", plain .. ", the starting deck, $8")
    T.eq(named[checked].buy(k, g, 1, 8, 3), "Gold", checked)
  end
  T.eq(named.dearest.buy(k, g, 1, 8, 3), "Gold", "dearest")
  T.eq(named.default.buy(k, g, 1, 8, 3), "Gold", "default")
end

function tests.test_checked_bots_do_not_take_the_last_province_that_loses(T)
  local g, k = near_the_end(T, 1, { [1] = { "Duchy", "Duchy", "Duchy" } })
  local named = bots.named("dominion")
  for checked, plain in pairs(CHECKED) do
    T.eq(named[plain].buy(k, g, 2, 8, 20), "Province", plain .. ", 9 behind, $8")
    T.eq(named[checked].buy(k, g, 2, 8, 20), "Duchy", checked)
    T.eq(named[checked].buy(k, g, 1, 8, 20), "Province", checked .. ", ahead")
  end
  T.eq(named.dearest.buy(k, g, 2, 8, 20), "Duchy", "dearest, 9 behind")
  T.eq(named.dearest.buy(k, g, 1, 8, 20), "Province", "dearest, ahead")
end

function tests.test_dearest_buys_what_generic_buys_far_from_the_end(T)
  local m = T.match { players = 2,
                      setup = function(g) kit.empty_pile(g, "Province", 6) end }
  local g, k = m.g, game().kernel_of(m.g)
  local named, generic = bots.named("dominion"), require("deckbuilder.generic_bot")
  local dearest = game().bots.dearest
  for coins = 0, 9 do
    g:set_counter("coins", 0, coins)
    local d = { kind = "buy", options = {} }
    for _, name in ipairs(k.order) do
      local def = k.cards[name]
      if def.cost <= coins and g:count(k:pile(name), 0) > 0 then
        d.options[#d.options + 1] = { act = "buy", name = name, cost = def.cost,
                                      label = "Buy " .. name .. " ($" .. def.cost .. ")" }
      end
    end
    d.options[#d.options + 1] = { label = "End turn" }
    local want = generic.bot(g, 1, d)[1]
    T.eq(dearest(g, 1, d)[1], want, "$" .. coins .. ": the option bot")
    local label = d.options[want].name
    T.eq(named.dearest.buy(k, g, 1, coins, 3), label, "$" .. coins .. ": the named form")
  end
end

function tests.test_dominion_s_search_compares_its_checked_bots_not_generic(T)
  local g = game()
  T.eq(g.search_bots, bots.SEARCH)
  local named = {}
  for _, name in ipairs(g.search_bots) do
    T.ok(g.bots[name], name .. " is one of Dominion's bots")
    named[name] = true
  end
  for _, name in ipairs({ "generic", "big_money", "big_money_plain", "big_money_smithy",
                          "witch", "default" }) do
    T.ok(not named[name], name .. " gives the search no candidates of its own")
  end
end

return tests
