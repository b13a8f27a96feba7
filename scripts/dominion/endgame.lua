-- dominion/endgame.lua: the default bot's look at the end of the game (Dominion and
-- Accession, whose bots are Dominion's).
--
-- The default bot buys by wish lists (bots.lua); near the end a wish list alone misplays
-- what decides close games, and so did the search bot, whose play-outs are the default
-- bot's games (docs/BENCHMARKS.md, issue 28). Here the wish list is checked against the
-- score, which every player can count from the public gains:
--   - a buy that ends the game (the last Province, or a pile's last card with two piles
--     empty) and wins it comes first;
--   - a buy that ends the game and loses it is not made (the next greener card instead:
--     a Duchy for the last Province).
-- Not the "penultimate Province rule" (no penultimate Province while behind): against
-- Big Money it lost 0.9-3.7 points of the default bot's wins (40,000 games each) whether
-- "behind" meant by 1, 4 or 7 points or more (docs/BENCHMARKS.md, issue 28).

local endgame = {}

local ENDS = "Province"
-- The card bought instead of one that would hand the game away: the next greener one.
local GREENER = { Province = "Duchy", Duchy = "Estate" }

-- p's score, the best other score, and whether a tie at that score goes to another
-- player if p ends the game now (a tie goes to fewer turns: docs, kernel:results).
local function standing(k, g, p)
  local me, them, tie_lost = k:score(g, p), -math.huge, false
  local turns = g:counter("turns", p)
  for q = 1, g:nplayers() do
    if q ~= p then
      local s = k:score(g, q)
      if s > them then them, tie_lost = s, false end
      if s == them and g:counter("turns", q) < turns then tie_lost = true end
    end
  end
  return me, them, tie_lost
end

-- Cards left in name's pile (0 when the match has no such pile).
local function left(k, g, name)
  if not k.pile_key[name] then return 0 end
  return g:count(k:pile(name), 0)
end

-- 1 when gaining one `name` ends the game: its pile's last card, and the pile is the
-- Provinces or two others are empty already.
local function ends(k, g, name, empties)
  return left(k, g, name) == 1 and (name == ENDS or empties >= 2)
end

-- Whether p ends the game ahead (or sharing the lead) by gaining a card worth vp.
local function wins(st, vp)
  local total = st.me + vp
  return total > st.them or (total == st.them and not st.tie_lost)
end

local function vp_of(k, name) return k.cards[name].vp or 0 end

-- The card whose buy ends the game with p ahead, for coins (the most points), or nil.
local function winning_buy(k, g, coins, st)
  local best, bestv = nil, -math.huge
  for _, name in ipairs(k.order) do
    local def = k.cards[name]
    if def.cost <= coins and name ~= "Curse" and ends(k, g, name, st.empties)
       and wins(st, vp_of(k, name)) and vp_of(k, name) > bestv then
      best, bestv = name, vp_of(k, name)
    end
  end
  return best
end

-- Whether buying name now hands the game away: it ends the game behind.
local function hands_away(k, g, name, st)
  return ends(k, g, name, st.empties) and not wins(st, vp_of(k, name))
end

-- wants (card names, best first) checked against the end of the game: a winning end
-- first, no buy that hands the game away (its greener card in its place). Returns wants
-- itself when the end is not near (the wish lists are shared constants: never written).
function endgame.check(k, g, p, coins, wants)
  local empties = k:empty_piles(g)
  if left(k, g, ENDS) > 1 and empties < 2 then return wants end
  local me, them, tie_lost = standing(k, g, p)
  local st = { me = me, them = them, tie_lost = tie_lost, empties = empties }
  local out, seen = {}, {}
  local win = winning_buy(k, g, coins, st)
  if win then out[1], seen[win] = win, true end
  for _, name in ipairs(wants) do
    while name and not seen[name] and hands_away(k, g, name, st) do
      seen[name] = true
      name = GREENER[name]
    end
    if name and not seen[name] then out[#out + 1], seen[name] = name, true end
  end
  return out
end

-- Money p owns (Copper 1, Silver 2, Gold 3): the bots' measure of a deck's buying power.
function endgame.money(k, g, p)
  return k:owned(g, p, "Copper") + 2 * k:owned(g, p, "Silver") + 3 * k:owned(g, p, "Gold")
end

-- p's money a card owned.
function endgame.density(k, g, p)
  return endgame.money(k, g, p) / k:owned_count(g, p)
end

-- ---- rules of the play-out bots (`strong`, accession/bots.lua; `plan`, plan.lua) ----
-- Found where `hard` departed from those bots, and not `default`'s (docs/BENCHMARKS.md,
-- issue 28, fourteenth round): each wins 1-1.3 points against `default`.

-- The penultimate Province is not bought when p is behind by 1 to PENULTIMATE_BEHIND
-- points: it would leave another player a winning last one. Behind by more, the Province
-- is still the way to catch up (Accession's `strong` against `default`, 40,000 games, seed
-- 9501: behind by 1-2 +0.37 points, 1-3 +1.08, 1-4 +0.99, 1-5 +0.64; `plan` on Dominion's
-- random kingdoms, seed 9601: 1-2 +1.39 with the rule below, 1-3 +1.61, 1-4 +1.52).
local PENULTIMATE_BEHIND = 3

-- How many points p is behind the best other player (0 or less: level or ahead).
function endgame.behind_by(k, g, p)
  local me, them = standing(k, g, p)
  return them - me
end

-- Whether p, with coins for a Province and `provinces` left, takes a Duchy instead.
function endgame.holds_penultimate(k, g, p, provinces)
  if provinces ~= 2 then return false end
  local behind = endgame.behind_by(k, g, p)
  return behind >= 1 and behind <= PENULTIMATE_BEHIND
end

-- Whether an Estate takes a wanted Duchy's place for p when no Duchy is left, where the
-- wish list would fall back to a Gold or a Silver: with the last Province left (or none,
-- on a second buy), or with 2 left when p is level or behind by up to
-- PENULTIMATE_BEHIND. `strong` against `default` (40,000 games, seed 9501): at the last
-- Province +1.34 points (from the second whatever the score +1.22, from the fifth +0.79);
-- then at the second when level or behind by 1-3 +0.61 more (seed 9502 +0.54; `plan`,
-- seed 9601, +0.60), by 0-2 the same, ahead by up to 2 too +0.45, behind by up to 6
-- +0.53.
function endgame.duchies_gone(k, g, p, provinces)
  if provinces > 2 or g:count(k:pile("Duchy"), 0) ~= 0 then return false end
  if provinces <= 1 then return true end
  local behind = endgame.behind_by(k, g, p)
  return behind >= 0 and behind <= PENULTIMATE_BEHIND
end

-- Whether p, with $6-7 and `provinces` left, takes a Duchy over Gold already at 5
-- Provinces left: in a deck of `rich` money a card or more, a Gold adds less than the
-- points do, and such decks end the game sooner. Where `hard` departed from `strong` for
-- a Duchy at 5 left, the deck had 1.18 a card (the median of 325 departures):
-- docs/BENCHMARKS.md, issue 28, fifteenth round (`strong`, rich 1.1: +0.28 points
-- against `default`; `plan` does not take it, plan.lua).
function endgame.greens_early(k, g, p, provinces, rich)
  return provinces == 5 and endgame.density(k, g, p) >= rich
end

return endgame
