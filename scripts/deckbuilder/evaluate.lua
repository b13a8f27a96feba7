-- deckbuilder/evaluate.lua: the evaluation hint of a Province-ending deck-builder
-- (Dominion, Accession), for the search bot (docs/SCRIPTING.md, "Evaluation hints").
--
-- The search plays a copy of the match a few turns ahead and asks game.evaluate(g) how
-- good the position is for each player: an array of values in 0..1 by player. Here each
-- player's position is a few features (evaluate.features) and the values are the softmax
-- of their weighted sums: with two players, the logistic of the weighted differences. The
-- weights are not guessed but fitted to self-play: `deckhand sim --positions` logs the
-- features at every turn boundary with the game's outcome and `deckhand fit` fits them
-- (each game passes its own; the runs that made them are in docs/BENCHMARKS.md).

local evaluate = {}

-- Money in a five-card hand of p's deck: treasure and +$ per card, cards drawn by
-- actions counted at that density; and p's cards, and its Action cards.
local function deck_stats(k, g, p)
  local coins, draws, n, actions, order = 0, 0, 0, 0, k.order
  for i = 1, #order do
    local name = order[i]
    local own = k:owned(g, p, name)
    if own > 0 then
      local def = k.cards[name]
      coins = coins + own * (def.coins or 0)
      draws = draws + own * (def.cards or 0)
      n = n + own
      if def.is.Action then actions = actions + own end
    end
  end
  if n == 0 then return 0, 0, 0 end
  return 5 * (coins + draws * coins / n) / n, n, actions
end

-- How often a hand buys a Province: nothing below $5, rising to one at $8.
local function power(money)
  local x = (money - 4.5) / 3.5
  if x < 0.03 then x = 0.03 end
  if x > 1 then x = 1 end
  return x * x
end

-- The end's distance: the fewest cards whose gaining ends the game, the ending pile's
-- (Provinces) or those of the smallest other piles that would make three empty.
local function to_end(k, g, ends)
  local left = g:count(k:pile(ends), 0)
  local sizes, empty = {}, 0
  for _, pile in ipairs(k.first_piles) do
    if g:counter(pile.key) ~= 0 then
      local n = g:count(pile.zone, 0)
      if n == 0 then empty = empty + 1 else sizes[#sizes + 1] = n end
    end
  end
  if empty >= 3 then return 0, left end
  table.sort(sizes)
  local three = 0
  for i = 1, math.min(3 - empty, #sizes) do three = three + sizes[i] end
  return math.min(left, three), left
end
evaluate.to_end = to_end

-- The features, in the order of the weights: points; points over (the end's distance
-- + 1), a lead counting more as the end nears (by Provinces or by three piles); a hand's
-- money; the Province points the deck can still buy (its chance a hand, power, times
-- the points left in the pile); cards owned; Action cards owned.
evaluate.NAMES = { "points", "points_late", "money", "province_reach", "cards", "actions" }

-- kernel_of(g) is the match's kernel; ends is the pile whose emptying ends the game.
-- features(g): an array by player of its features (evaluate.NAMES).
function evaluate.features(kernel_of, ends)
  return function(g)
    local k = kernel_of(g)
    local near, left = to_end(k, g, ends)
    local f = {}
    for p = 1, g:nplayers() do
      local score = k:score(g, p)
      local money, n, actions = deck_stats(k, g, p)
      f[p] = { score, score / (near + 1), money, 6 * left * power(money), n, actions }
    end
    return f
  end
end

-- The hint: the softmax over players of weights . features.
function evaluate.new(kernel_of, ends, weights)
  local features = evaluate.features(kernel_of, ends)
  return function(g)
    local f = features(g)
    local z, best = {}, -math.huge
    for p = 1, #f do
      local s = 0
      for i = 1, #weights do s = s + weights[i] * f[p][i] end
      z[p] = s
      if s > best then best = s end
    end
    local sum = 0
    for p = 1, #z do
      z[p] = math.exp(z[p] - best)
      sum = sum + z[p]
    end
    for p = 1, #z do z[p] = z[p] / sum end
    return z
  end
end

return evaluate
