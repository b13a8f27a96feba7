-- dominion/tests/endgame.lua: the default bot's look at the end (dominion/endgame.lua): it
-- takes a buy that ends the game ahead, refuses one that ends it behind (the next greener
-- card instead), counts who a tie goes to, and leaves its wish list alone far from the end;
-- and early on it buys Gold, not a Province, while its deck is thin.
local kit = require("deckbuilder.testkit")
local endgame = require("dominion.endgame")
local bots = require("dominion.bots")

local tests = {}

local function game() return require("dominion.game") end

-- A two-player match with `provinces` Provinces left, in which player p gains the cards
-- gains[p] names at set-up (both start with 3 Estates).
local function near_the_end(T, provinces, gains)
  return kit.near_the_end(T, game().kernel_of, provinces, gains)
end

local WANTS = { "Province", "Gold" }

function tests.test_default_takes_the_last_province_when_it_wins(T)
  local g, k = near_the_end(T, 1, { [1] = { "Duchy" } })
  T.eq(endgame.check(k, g, 2, 8, WANTS), WANTS, "3 behind: the last Province wins by 3")
end

function tests.test_default_buys_a_duchy_not_the_last_province_that_loses(T)
  local g, k = near_the_end(T, 1, { [1] = { "Duchy", "Duchy", "Duchy" } })
  T.eq(endgame.check(k, g, 2, 8, WANTS), { "Duchy", "Gold" },
       "9 behind: the last Province would end it 3 behind")
  T.eq(endgame.check(k, g, 1, 8, WANTS), WANTS, "the player ahead takes it")
end

function tests.test_default_takes_a_tying_last_province_only_when_the_tie_is_shared(T)
  local g, k = near_the_end(T, 1, { [1] = { "Duchy", "Duchy" } })
  g:set_counter("turns", 1, 9)
  g:set_counter("turns", 2, 9)
  T.eq(endgame.check(k, g, 2, 8, WANTS), WANTS, "6 behind, as many turns: a shared win")
  g:set_counter("turns", 2, 10)
  T.eq(endgame.check(k, g, 2, 8, WANTS), { "Duchy", "Gold" },
       "6 behind with a turn more: the tie goes to player 1")
end

function tests.test_default_ends_the_game_on_a_third_pile_when_it_wins(T)
  local g, k = near_the_end(T, 8, { [1] = { "Duchy" } })
  kit.empty_pile(g, "Curse")
  kit.empty_pile(g, "Moat")
  kit.empty_pile(g, "Estate", 1)
  T.eq(endgame.check(k, g, 1, 2, {}), { "Estate" }, "ahead: the last Estate ends it")
  T.eq(endgame.check(k, g, 2, 2, { "Estate" }), {}, "behind: the last Estate would lose")
end

function tests.test_default_keeps_its_wish_list_far_from_the_end(T)
  local g, k = near_the_end(T, 2, { [1] = { "Duchy", "Duchy", "Duchy" } })
  T.ok(endgame.check(k, g, 2, 8, WANTS) == WANTS, "two Provinces left: the list itself")
end

function tests.test_default_named_buy_refuses_the_losing_last_province(T)
  local g, k = near_the_end(T, 1, { [1] = { "Duchy", "Duchy", "Duchy" } })
  T.ok(k.kit, "the match's kernel has a kit: the named form asks it")
  local buy = bots.named("dominion").default.buy
  T.eq(buy(k, g, 2, 8, 10), "Duchy", "the form the sims and play-outs ask")
  T.eq(buy(k, g, 1, 8, 10), "Province")
end

function tests.test_default_buys_gold_not_an_early_province_with_a_thin_deck(T)
  local g, k = near_the_end(T, 8, { [1] = { "Gold", "Gold", "Gold" } })
  local buy = bots.named("dominion").default.buy
  T.eq(buy(k, g, 2, 8, 3), "Gold", "the starting deck: $7 of money")
  T.eq(buy(k, g, 1, 8, 3), "Province", "$7 + 3 Golds: $16 of money")
  kit.empty_pile(g, "Province", 6)
  T.eq(buy(k, g, 2, 8, 3), "Province", "6 Provinces left: the race is on")
end

return tests
