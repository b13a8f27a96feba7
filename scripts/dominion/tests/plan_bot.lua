-- dominion/tests/plan_bot.lua: the `plan` bot (dominion/plan.lua): Big Money with the one
-- kingdom card a money deck gains most from. It picks that card once per kingdom by its
-- rating, waits for it rather than buy a lesser terminal, buys its own number of copies
-- (two Witches from the start), and keeps `default`'s money and end rules. No test pins a
-- buy by a card's cost: the coins are read from the card data (live-ops may change it).
local plan = require("dominion.plan")
local bots = require("dominion.bots")

local tests = {}

local function game() return require("dominion.game") end

-- A two-player match on kingdom (a list of names) in which player 1 gains the cards
-- gains names at set-up; its g, kernel, and the named buys of `plan` and `default`.
local function match(T, kingdom, gains)
  local m = T.match { players = 2, options = { kingdom = kingdom }, setup = function(g)
    local k = game().kernel_of(g)
    for _, name in ipairs(gains or {}) do k:gain(g, 1, name) end
  end }
  local named = bots.named("dominion")
  return m.g, game().kernel_of(m.g), named.plan.buy, named.default.buy
end

local function cost(k, name) return k.cards[name].cost end

function tests.test_plan_picks_the_kingdom_s_best_rated_card(T)
  local _, k = match(T, "Village,Smithy,Witch,Moneylender,Cellar")
  T.eq(plan.card(k), "Witch", "Witch over Smithy")
  _, k = match(T, "Village,Smithy,Moneylender,Cellar,Mine")
  T.eq(plan.card(k), "Smithy", "Smithy over Mine; Moneylender and Village are not rated")
  _, k = match(T, "Village,Moneylender,Cellar,Chapel")
  T.eq(plan.card(k), false, "nothing rated: plain money")
  local g, _, plan_buy = match(T, "Village,Moneylender,Cellar,Chapel")
  k = game().kernel_of(g)
  for coins = 0, 7 do
    local name = plan_buy(k, g, 1, coins, 1)
    T.ok(name ~= "Moneylender" and name ~= "Village" and name ~= "Chapel" and name ~= "Cellar",
         "$" .. coins .. ": " .. tostring(name))
  end
end

function tests.test_plan_waits_for_its_card_rather_than_a_lesser_terminal(T)
  local g, k, plan_buy, default_buy = match(T, "Witch,Smithy,Village,Cellar,Moat")
  local coins = cost(k, "Witch") - 1
  T.ok(coins >= 3, "a Silver's coins below a Witch")
  T.ok(plan_buy(k, g, 1, coins, 1) ~= "Smithy", "the plan waits for its Witch")
  if cost(k, "Smithy") <= coins then
    T.eq(default_buy(k, g, 1, coins, 1), "Smithy", "default takes the Smithy it can buy")
  end
  T.eq(plan_buy(k, g, 1, cost(k, "Witch"), 1), "Witch", "then buys the Witch")
end

function tests.test_plan_buys_two_witches_from_the_start(T)
  local g, k, plan_buy, default_buy = match(T, "Witch,Smithy,Village,Cellar,Moat", { "Witch" })
  T.ok(k:owned_count(g, 1) < 16, "a deck of fewer than 16 cards")
  T.eq(plan_buy(k, g, 1, cost(k, "Witch"), 1), "Witch", "a second Witch")
  T.ok(default_buy(k, g, 1, cost(k, "Witch"), 1) ~= "Witch", "default waits for 16 cards")
  g, k, plan_buy = match(T, "Witch,Smithy,Village,Cellar,Moat", { "Witch", "Witch" })
  T.ok(plan_buy(k, g, 1, cost(k, "Witch"), 1) ~= "Witch", "no third")
end

function tests.test_plan_buys_a_cantrip_at_5_once_its_card_is_enough(T)
  local g, k, plan_buy = match(T, "Militia,Laboratory,Village,Cellar,Moat", { "Militia" })
  local coins = cost(k, "Laboratory")
  if cost(k, "Militia") ~= coins then
    T.eq(plan_buy(k, g, 1, coins, 1), "Laboratory", "one Militia is enough at 11 cards")
  end
  T.eq(plan_buy(k, g, 2, cost(k, "Militia"), 1), "Militia", "the other player has none")
end

-- A Festival is its third cantrip: over a Silver with $5 (the rule's coins, not a card's
-- cost) once X's copies are enough, after a Laboratory or a Market.
function tests.test_plan_buys_a_festival_at_5_after_laboratory_and_market(T)
  local coins = 5
  local g, k, plan_buy = match(T, "Militia,Festival,Village,Cellar,Moat", { "Militia" })
  if cost(k, "Festival") <= coins then
    T.eq(plan_buy(k, g, 1, coins, 1), "Festival", "one Militia is enough at 11 cards")
  end
  g, k, plan_buy = match(T, "Militia,Festival,Laboratory,Cellar,Moat", { "Militia" })
  if cost(k, "Festival") <= coins and cost(k, "Laboratory") <= coins then
    T.eq(plan_buy(k, g, 1, coins, 1), "Laboratory", "a Laboratory first")
  end
  g, k, plan_buy = match(T, "Festival,Village,Cellar,Moat", {})
  T.eq(plan.card(k), false, "a Festival is never the plan's card")
  if cost(k, "Festival") <= coins then
    T.eq(plan_buy(k, g, 1, coins, 1), "Festival", "plain money: a Festival too")
  end
end

-- Its money and end rules are `default`'s: Gold, not a Province, in a thin deck early;
-- no last Province that ends the game behind.
function tests.test_plan_keeps_default_s_money_and_end_rules(T)
  local kit = require("deckbuilder.testkit")
  local g, k = kit.near_the_end(T, game().kernel_of, 8, {})
  local named = bots.named("dominion")
  T.eq(named.plan.buy(k, g, 1, 8, 3), "Gold", "the starting deck, $8, 8 Provinces left")
  g, k = kit.near_the_end(T, game().kernel_of, 1, { [1] = { "Duchy", "Duchy", "Duchy" } })
  T.eq(named.default.buy(k, g, 2, 8, 20), "Duchy", "default: the last Province would lose")
  T.eq(named.plan.buy(k, g, 2, 8, 20), "Duchy", "plan: the same")
end

-- Its two end rules `default` lacks (dominion/endgame.lua), on the near_the_end matches
-- (player 2 holding the cards listed; the Duchies emptied where said).
function tests.test_plan_takes_no_penultimate_province_when_just_behind(T)
  local kit = require("deckbuilder.testkit")
  local named = bots.named("dominion")
  local g, k = kit.near_the_end(T, game().kernel_of, 2, { [2] = { "Duchy" } })
  T.eq(named.plan.buy(k, g, 1, 8, 20), "Duchy", "2 left, behind by 3: a Duchy")
  T.eq(named.default.buy(k, g, 1, 8, 20), "Province", "where default takes the Province")
  g, k = kit.near_the_end(T, game().kernel_of, 2, { [2] = { "Duchy", "Duchy" } })
  T.eq(named.plan.buy(k, g, 1, 8, 20), "Province", "behind by 6: the Province catches up")
  g, k = kit.near_the_end(T, game().kernel_of, 3, { [2] = { "Duchy" } })
  T.eq(named.plan.buy(k, g, 1, 8, 20), "Province", "3 left: the Province")
end

function tests.test_plan_takes_an_estate_for_a_duchy_gone_at_the_last_province(T)
  local kit = require("deckbuilder.testkit")
  local named = bots.named("dominion")
  local g, k = kit.near_the_end(T, game().kernel_of, 1, {})
  kit.empty_pile(g, "Duchy", 0)
  T.eq(named.plan.buy(k, g, 1, 6, 20), "Estate", "no Duchy left: an Estate, not a Gold")
  T.eq(named.plan.buy(k, g, 1, 5, 20), "Estate", "nor a Silver")
  T.eq(named.default.buy(k, g, 1, 6, 20), "Gold", "where default takes the Gold")
  g, k = kit.near_the_end(T, game().kernel_of, 1, {})
  T.eq(named.plan.buy(k, g, 1, 6, 20), "Duchy", "Duchies left: a Duchy")
  g, k = kit.near_the_end(T, game().kernel_of, 2, { [2] = { "Estate", "Estate" } })
  kit.empty_pile(g, "Duchy", 0)
  T.eq(named.plan.buy(k, g, 1, 6, 20), "Estate", "2 left, behind by 2: an Estate")
  T.eq(named.plan.buy(k, g, 2, 6, 20), "Gold", "2 left, ahead by 2: the Gold")
end

-- A two-player match on kingdom with `left` Provinces left in which player 1 gains
-- `coppers` Coppers (a deck of 10 + coppers cards) and player 2 nothing (10 cards).
local function late_match(T, kingdom, left, coppers)
  local kit = require("deckbuilder.testkit")
  local m = T.match { players = 2, options = { kingdom = kingdom }, setup = function(g)
    local k = game().kernel_of(g)
    for _ = 1, coppers do k:gain(g, 1, "Copper") end
    kit.empty_pile(g, "Province", left)
  end }
  return m.g, game().kernel_of(m.g), bots.named("dominion").plan.buy
end

local GARDENS_KINGDOM = "Gardens,Smithy,Village,Cellar,Moat"

-- Gardens (a point a 10 cards) takes a Duchy's place once it is worth as much.
function tests.test_plan_takes_a_gardens_for_a_duchy_once_it_is_worth_as_much(T)
  local g, k, plan_buy = late_match(T, GARDENS_KINGDOM, 4, 20)
  local coins = math.max(cost(k, "Duchy"), cost(k, "Gardens"))
  T.eq(k:owned_count(g, 1), 30, "a deck of 30 cards: a Gardens is worth 3")
  T.eq(plan_buy(k, g, 1, coins, 20), "Gardens", "30 cards, 4 Provinces left")
  T.eq(plan_buy(k, g, 2, coins, 20), "Duchy", "10 cards: a Gardens is worth 1, a Duchy 3")
  g, k, plan_buy = late_match(T, "Smithy,Village,Cellar,Moat", 4, 20)
  T.eq(plan_buy(k, g, 1, coins, 20), "Duchy", "no Gardens in the kingdom")
end

-- Late in the game, a Gardens worth 2 or more takes the place of a Silver (or X) at $4-5.
function tests.test_plan_takes_a_gardens_for_a_silver_late_in_a_big_deck(T)
  local g, k, plan_buy = late_match(T, GARDENS_KINGDOM, 6, 10)
  local coins = cost(k, "Gardens")
  T.eq(plan_buy(k, g, 1, coins, 15), "Gardens", "20 cards, 6 Provinces left")
  T.ok(plan_buy(k, g, 2, coins, 15) ~= "Gardens", "10 cards: worth 1")
  g, k, plan_buy = late_match(T, GARDENS_KINGDOM, 7, 10)
  T.ok(plan_buy(k, g, 1, coins, 15) ~= "Gardens", "7 Provinces left: not yet")
  T.ok(plan_buy(k, g, 1, coins - 1, 15) ~= "Gardens", "coins below a Gardens")
end

return tests
