-- dominion/plan.lua: the `plan` bot's buys: Big Money with the one kingdom card a money
-- deck gains most from ("Big Money + X").
--
-- `default` (bots.lua) is Big Money with the kingdom's best terminal too, but it takes
-- the best terminal its coins buy now, so with $4 in a Witch kingdom it buys a Smithy and
-- then waits for a 16-card deck before a second terminal; and every terminal shares one
-- schedule (a second from 16 cards, a third from 28). The plan picks its card X once per
-- kingdom from a fixed rating (PLAN), waits for X rather than buy a lesser one, and buys
-- X's own number of copies at X's own deck sizes. Its money, greening and end rules are
-- `default`'s, but for two end rules of endgame.lua (no penultimate Province when just
-- behind, an Estate for a gone Duchy at the last Province: +1.61 and +1.79 points against
-- `default` on random kingdoms, 40,000 games on each of seeds 9601 and 9602; +1.65 against
-- `big_money` on the First Game, seed 9603). It sees only the kingdom (the match's
-- piles), its own cards and the pile counts, so it is deterministic from what the seat
-- sees.

local endgame = require("dominion.endgame")
local memo = require("deckbuilder.memo")

local plan = {}

-- Per kingdom card a money deck gains from: rating (the highest in the kingdom is X) and
-- from, the deck size (cards owned) from which each copy is wanted. A card not here is
-- never bought. The ratings are `default`'s win rates against `big_money` with that card
-- alone in the kingdom (docs/BENCHMARKS.md, issue 28, Dominion, fourth round); the
-- copies were chosen against `default` on random kingdoms (one Witch instead of two: 53.7%
-- against 57.1%; a third Witch, one Militia or other deck sizes no better: the sixth round).
plan.PLAN = {
  Witch = { rating = 93, from = { 0, 0 } },
  Militia = { rating = 78, from = { 0, 16 } },
  Smithy = { rating = 77, from = { 0, 16, 28 } },
  ["Council Room"] = { rating = 75, from = { 0, 16 } },
  Library = { rating = 74, from = { 0, 16 } },
  Bandit = { rating = 69, from = { 0, 16 } },
  Laboratory = { rating = 65, from = {}, cantrip = true },
  Market = { rating = 64, from = {}, cantrip = true },
  Bureaucrat = { rating = 60, from = { 0, 16 } },
  Mine = { rating = 57, from = { 0 } },
  -- Rated below every terminal, so it is never X and never makes a kingdom X-less:
  -- only a cantrip at $5 after Laboratory and Market (plan.CANTRIPS).
  Festival = { rating = 50, from = {}, cantrip = true },
}

-- The cantrips it buys over a Silver at $5 once X's copies are enough, best first. On
-- random kingdoms against `default` (plan,default, 20,000 games on each of seeds 601 and
-- 602): without them 59.0% (61.9% with; seed 601), Laboratory alone 60.6%; Festival after
-- the two 62.1% and 61.5% (61.9% and 61.3% without: 356 games turned for, 285 against;
-- 363 and 320); Sentry in its place 61.5% (seed 601)
-- (docs/BENCHMARKS.md, issue 28, Dominion, ninth round).
plan.CANTRIPS = { "Laboratory", "Market", "Festival" }

-- Gold, not a Province, while its money is below PROVINCE_MONEY and more than
-- EARLY_PROVINCES are left (`default`'s rule: an early Province chokes a thin deck);
-- X over a Gold at $6-7 when X is rated OVER_GOLD or more (`default`: Witch only).
local PROVINCE_MONEY, EARLY_PROVINCES, OVER_GOLD = 16, 6, 90
-- Not `strong`'s Duchy over Gold at 5 Provinces left in a rich deck (endgame.greens_early):
-- as a rule it won 0.4-1.2 points against `default` and `big_money` (20,000 games), but
-- the search had been making that answer itself, and `hard` with it beat the new `plan`
-- on the First Game 51.6% (48.5-54.6) of 1,000 games, where it beat the old 56.2%
-- (docs/BENCHMARKS.md, issue 28, fifteenth round).

local NONE, GOLD, SILVER = {}, { "Gold" }, { "Silver" }
local PROVINCE, DUCHY, ESTATE = { "Province", "Gold" }, { "Duchy", "Gold" }, { "Estate", "Silver" }
local ESTATE_GOLD = { "Estate", "Gold" }
local DUCHY_SILVER, GARDENS_SILVER = { "Duchy", "Silver" }, { "Gardens", "Silver" }
local GARDENS_DUCHY_GOLD = { "Gardens", "Duchy", "Gold" }
local GARDENS_DUCHY_SILVER = { "Gardens", "Duchy", "Silver" }

local money = endgame.money

-- The plan's card for kernel k (its order holds only the match's piles): the highest
-- rated kingdom card of cfg.plan, the first in order on a tie, or false. A cache per
-- cfg: a pure function of the kernel.
local function card_of(cache, cfg, k)
  local x = cache[k]
  if x ~= nil then return x end
  if (cache.n or 0) >= 128 then memo.empty(cache) end
  x = false
  local best
  for i = 1, #k.order do
    local e = cfg.plan[k.order[i]]
    if e and not e.cantrip and (not best or e.rating > best) then x, best = k.order[i], e.rating end
  end
  -- A kingdom whose best card is a cantrip (Laboratory, Market) and no terminal: X is the
  -- cantrip, bought at $5 over Silver (plan.CANTRIPS) with no count.
  for i = 1, #k.order do
    local e = cfg.plan[k.order[i]]
    if e and e.cantrip and (not best or e.rating > best) then x, best = false, e.rating end
  end
  cache[k], cache.n = x, (cache.n or 0) + 1
  return x
end

local function on_offer(k, g, name)
  return k.pile_key[name] ~= nil and g:count(k:pile(name), 0) > 0
end

-- Gardens (a point for every 10 cards its owner has) in place of what a money deck buys
-- late: a Duchy's place once a Gardens is worth as much (GARDENS_FOR_DUCHY points), and at
-- $4-5 from GARDENS_LEFT Provinces left, once it is worth GARDENS_FOR_SILVER, the place of
-- whatever else (a Silver, an Estate, X). Its 8-12 copies are left to the plan: `default`
-- never buys one.
-- On random kingdoms against `default` (plan,default, 10,000 games, seed 501; 57.7%
-- without): for a Duchy alone 60.9% (373 games turned for, 8 against), with a Silver's
-- place from 6 Provinces left 61.6% (docs/BENCHMARKS.md, issue 28, Dominion, eighth round).
local GARDENS_FOR_DUCHY, GARDENS_FOR_SILVER, GARDENS_LEFT = 3, 2, 6

-- What a Gardens is worth to p at its deck's size now, or 0 when none is on offer for coins.
local function gardens_vp(k, g, p, coins)
  if not on_offer(k, g, "Gardens") or k.cards.Gardens.cost > coins then return 0 end
  return k:owned_count(g, p) // 10
end

-- Whether p should add a copy of x now (its copies fewer than x's from allows at p's deck
-- size) and can (the pile holds one and coins buy it).
local function wants_x(cfg, k, g, p, x, coins)
  if not x or k.cards[x].cost > coins or not on_offer(k, g, x) then return false end
  local from, have, cards = cfg.plan[x].from, k:owned(g, p, x), k:owned_count(g, p)
  return from[have + 1] ~= nil and cards >= from[have + 1]
end

local function wants(cfg, cache, k, g, p, coins)
  local left = g:count(k:pile("Province"), 0)
  if coins >= 8 then
    if left > EARLY_PROVINCES and money(k, g, p) < PROVINCE_MONEY then return GOLD end
    if endgame.holds_penultimate(k, g, p, left) then return DUCHY end
    return PROVINCE
  end
  local x = card_of(cache, cfg, k)
  if coins >= 6 then
    if left <= 4 then
      if gardens_vp(k, g, p, coins) >= GARDENS_FOR_DUCHY then return GARDENS_DUCHY_GOLD end
      return endgame.duchies_gone(k, g, p, left) and ESTATE_GOLD or DUCHY
    end
    if wants_x(cfg, k, g, p, x, coins) and cfg.plan[x].rating >= cfg.over_gold then
      return { x, "Gold" }
    end
    return GOLD
  end
  if coins == 5 and left <= 5 then
    if gardens_vp(k, g, p, coins) >= GARDENS_FOR_DUCHY then return GARDENS_DUCHY_SILVER end
    return endgame.duchies_gone(k, g, p, left) and ESTATE or DUCHY_SILVER
  end
  if coins <= 5 and left <= GARDENS_LEFT and gardens_vp(k, g, p, coins) >= GARDENS_FOR_SILVER then
    return GARDENS_SILVER
  end
  if coins >= 3 and left <= 2 then return ESTATE end
  if coins == 2 and left <= 3 then return { "Estate" } end
  if coins < 3 then return NONE end
  if wants_x(cfg, k, g, p, x, coins) then return { x, "Silver" } end
  if coins == 5 then
    for i = 1, #cfg.cantrips do
      local name = cfg.cantrips[i]
      if cfg.plan[name] and on_offer(k, g, name) then return { name, "Silver" } end
    end
  end
  return SILVER
end

-- A buy strategy (k, g, p, coins) -> card names best first (bots.custom) for cfg
-- ({ plan = PLAN-like, cantrips = names, over_gold = rating }; nil: this file's own),
-- checked against the score near the end as `default` checks its own (endgame.check).
function plan.strategy(cfg)
  cfg = cfg or { plan = plan.PLAN, cantrips = plan.CANTRIPS, over_gold = OVER_GOLD }
  local cache = memo.cache()
  return function(k, g, p, coins)
    return endgame.check(k, g, p, coins, wants(cfg, cache, k, g, p, coins))
  end
end

-- The card the plan picks for kernel k (tests).
function plan.card(k)
  return card_of({}, { plan = plan.PLAN }, k)
end

return plan
