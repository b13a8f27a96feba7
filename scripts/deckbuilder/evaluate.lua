-- deckbuilder/evaluate.lua: the evaluation hint of a Province-ending deck-builder
-- (Dominion, Accession), for the search bot (docs/SCRIPTING.md, "Evaluation hints").
--
-- The search plays a copy of the match a few turns ahead and asks game.evaluate(g) how
-- good the position is for each player: an array of values in 0..1 by player. Here a
-- player's projected points are the points it holds plus its share of the points still in
-- the Province pile, shared by buying power (the money a five-card hand of its deck
-- holds, drawing cards counted at the deck's money density); the values are a softmax
-- of the projections, sharper as the Provinces run out (less can still change).

local evaluate = {}

local POINTS_PER_PROVINCE = 6

-- Money in a five-card hand of p's deck: treasure and +$ per card, cards drawn by
-- actions counted at that density.
local function hand_money(k, g, p)
  local coins, draws, n, order = 0, 0, 0, k.order
  for i = 1, #order do
    local name = order[i]
    local own = k:owned(g, p, name)
    if own > 0 then
      local def = k.cards[name]
      coins = coins + own * (def.coins or 0)
      draws = draws + own * (def.cards or 0)
      n = n + own
    end
  end
  if n == 0 then return 0 end
  local density = coins / n
  return 5 * (coins + draws * density) / n
end

-- How often a hand buys a Province: nothing below $5, rising to one at $8.
local function power(money)
  local x = (money - 4.5) / 3.5
  if x < 0.03 then x = 0.03 end
  if x > 1 then x = 1 end
  return x * x
end

-- kernel_of(g) is the match's kernel; ends is the pile whose emptying ends the game.
function evaluate.new(kernel_of, ends)
  return function(g)
    local k = kernel_of(g)
    local np = g:nplayers()
    local left = g:count(k:pile(ends), 0)
    local proj, pw, total = {}, {}, 0
    for p = 1, np do
      pw[p] = power(hand_money(k, g, p))
      total = total + pw[p]
    end
    local best = -math.huge
    for p = 1, np do
      proj[p] = k:score(g, p) + left * POINTS_PER_PROVINCE * pw[p] / total
      if proj[p] > best then best = proj[p] end
    end
    local scale = 2 + 0.5 * left
    local v, sum = {}, 0
    for p = 1, np do
      v[p] = math.exp((proj[p] - best) / scale)
      sum = sum + v[p]
    end
    for p = 1, np do v[p] = v[p] / sum end
    return v
  end
end

return evaluate
