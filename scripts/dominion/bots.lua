-- dominion/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- A bot sees what its seat sees: the decision's options (its own hand cards, supply
-- piles), public pile counts, its own zone counts and the public counters; the hidden
-- _own:<Card> counters only repeat what anyone can count from the public log of gains
-- and trashes. Bots answer fast (sims are a benchmark): no tables beyond a few locals,
-- no search. Every strategy ends games: each one buys Provinces at $8, and after
-- STALL_TURNS turns any bot buys the dearest card it can, so piles run out.
--
-- Strategies differ only in what they buy; all share the other decisions (playing
-- actions, Militia discards, Moat, Cellar, Remodel, Mine, Workshop).

local bots = {}

local STALL_TURNS = 60

local function find(d, field, value)
  local opts = d.options
  for i = 1, #opts do
    if opts[i][field] == value then return i end
  end
  return nil
end

-- How much a player wants to keep a card: junk (Victory-only, Curse) 0, Copper 1,
-- anything else its cost + 1.
local function keep_value(def)
  if def.is.Curse or (def.is.Victory and not def.is.Action and not def.is.Treasure) then
    return 0
  end
  return def.cost + 1
end

-- The n options with the lowest keep value (n >= 1), as indices.
local function lowest(k, g, d, n)
  local opts, picked, used = d.options, {}, {}
  for j = 1, n do
    local best, bestv
    for i = 1, #opts do
      if not used[i] then
        local v = keep_value(k.cards[g:name(opts[i].card)])
        if not best or v < bestv then best, bestv = i, v end
      end
    end
    used[best] = true
    picked[j] = best
  end
  return picked
end

local function choose_action(k, g, d)
  local opts, best, bestv = d.options, nil, -1
  for i = 1, #opts do
    local id = opts[i].card
    if id then
      local def = k.cards[g:name(id)]
      local v = def.cost + ((def.actions or 0) > 0 and 100 or 0)
      if v > bestv then best, bestv = i, v end
    end
  end
  return { best or #opts }
end

local function choose_discard(k, g, d)
  if (d.min or 1) > 0 then return lowest(k, g, d, d.min or 1) end
  local t = {}
  for i = 1, #d.options do
    if keep_value(k.cards[g:name(d.options[i].card)]) == 0 then t[#t + 1] = i end
  end
  return t
end

local TRASH_PREFERENCE = {
  Mine = { "Silver", "Copper" },
  Remodel = { "Gold", "Curse", "Estate", "Copper" },
}

local function choose_trash(k, g, d)
  local prefs = TRASH_PREFERENCE[d.source]
  if prefs then
    for _, name in ipairs(prefs) do
      for i = 1, #d.options do
        if d.options[i].label == name then return { i } end
      end
    end
  end
  return lowest(k, g, d, math.max(d.min or 1, 1))
end

-- Province first, else the dearest card that is not junk, else the dearest.
local function choose_gain(k, _, d)
  local i = find(d, "name", "Province")
  if i then return { i } end
  local best, bestv, any, anyv = nil, -1, 1, -1
  for j = 1, #d.options do
    local o = d.options[j]
    if o.cost > anyv then any, anyv = j, o.cost end
    if keep_value(k.cards[o.name]) > 0 and o.cost > bestv then best, bestv = j, o.cost end
  end
  return { best or any }
end

-- The dearest card on offer other than Curse (the anti-stall purchase).
local function dearest(d)
  local best, bestv = nil, -1
  for i = 1, #d.options do
    local o = d.options[i]
    if o.act == "buy" and o.name ~= "Curse" and o.cost > bestv then best, bestv = i, o.cost end
  end
  return best
end

-- A buy strategy returns the card names it wants, best first, for the coins it has.
local function buy_with(k, strategy)
  return function(g, p, d)
    if d.options[1].act == "all" then return { 1 } end
    if g:counter("turns", p) > STALL_TURNS then
      return { dearest(d) or #d.options }
    end
    local wants = strategy(k, g, p, g:counter("coins"))
    for _, name in ipairs(wants) do
      local i = find(d, "name", name)
      if i then return { i } end
    end
    return { #d.options }
  end
end

local NONE = {}

local function big_money(_, _, _, coins)
  if coins >= 8 then return { "Province" } end
  if coins >= 6 then return { "Gold" } end
  if coins >= 3 then return { "Silver" } end
  return NONE
end

local function big_money_smithy(k, g, p, coins)
  if coins == 4 or coins == 5 then
    local have = k:owned(g, p, "Smithy")
    if have == 0 or (have == 1 and k:owned_count(g, p) >= 16) then
      return { "Smithy", "Silver" }
    end
  end
  return big_money(k, g, p, coins)
end

-- A generic money-plus-actions player: Provinces, Gold, one Action per ~6 cards
-- (the dearest on offer), Silver; Duchies and Estates as the Provinces run low.
local function default_buy(k, g, p, coins)
  local left = g:count(k:pile("Province"), 0)
  if coins >= 8 then return { "Province", "Gold" } end
  if coins >= 6 then return left <= 3 and { "Duchy", "Gold" } or { "Gold" } end
  if coins == 5 and left <= 4 then return { "Duchy", "Silver" } end
  if coins == 2 and left <= 2 then return { "Estate" } end
  if coins < 3 then return NONE end
  local actions = 0
  for _, name in ipairs(k.order) do
    if k.cards[name].is.Action then actions = actions + k:owned(g, p, name) end
  end
  if actions * 6 < k:owned_count(g, p) then
    local best, bestc = nil, -1
    for _, name in ipairs(k.order) do
      local def = k.cards[name]
      if def.is.Action and def.cost <= coins and def.cost > bestc and k:in_supply(g, name)
         and g:count(k:pile(name), 0) > 0 then
        best, bestc = name, def.cost
      end
    end
    if best then return { best, "Silver" } end
  end
  return { "Silver" }
end

local function make_bot(k, strategy)
  local buy = buy_with(k, strategy)
  return function(g, p, d)
    local kind = d.kind
    if kind == "buy" then return buy(g, p, d) end
    if kind == "action" then return choose_action(k, g, d) end
    if kind == "discard" then return choose_discard(k, g, d) end
    if kind == "trash" then return choose_trash(k, g, d) end
    if kind == "gain" then return choose_gain(k, g, d) end
    if kind == "reveal" or kind == "yesno" then return { 1 } end
    local t = {}
    for i = 1, (d.min or 1) do t[i] = i end
    return t
  end
end

function bots.make(k)
  return {
    default = make_bot(k, default_buy),
    big_money = make_bot(k, big_money),
    big_money_smithy = make_bot(k, big_money_smithy),
  }
end

return bots
