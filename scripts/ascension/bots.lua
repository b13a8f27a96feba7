-- ascension/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- `default` plays every card first, then defeats the most rewarding monster it can
-- (free Templar Outpost defeats first), then buys the dearest hero or construct it can
-- afford, then ends the turn. It reads only the decision's options (centre row and
-- piles are public), its own hand and discard and the public counters. Games between
-- bots always end: any hand of 5 with a Militia or Heavy Infantry sooner or later
-- defeats the ever-present Cultist, so the Honour pool runs dry.

local bots = {}

-- How much a monster's reward is worth to a bot: Honour, a Keystone ~2, Runes ~1/2.
local function reward_value(def)
  local rw = def.reward
  return (rw.honour or 0) + 2 * ((rw.life or 0) + (rw.death or 0)) + (rw.runes or 0) / 2
end

-- The best option of the given act by value(o), or nil.
local function best(d, act, value)
  local pick, pickv
  for i = 1, #d.options do
    local o = d.options[i]
    if o.act == act then
      local v = value(o)
      if not pick or v > pickv then pick, pickv = i, v end
    end
  end
  return pick
end

-- Cards a bot would rather not keep, worst first (banish choices).
local JUNK = { "Militia", "Apprentice" }

local function choose_turn(k, d)
  local opts = d.options
  if opts[1].act == "all" then return { 1 } end
  local monster = function(o) return reward_value(k.cards[o.name]) end
  local i = best(d, "free", monster) or best(d, "defeat", monster)
  if i then return { i } end
  i = best(d, "buy", function(o) return o.cost * 10 + (k.cards[o.name].vp or 0) end)
  return { i or #opts }
end

local function choose_banish(d)
  for _, name in ipairs(JUNK) do
    for i = 1, #d.options do
      if d.options[i].label == name then return { i } end
    end
  end
  return {}
end

local function choose_acquire(k, g, d)
  local pick, pickv = 1, -1
  for i = 1, #d.options do
    local c = k.cards[g:name(d.options[i].card)].cost
    if c > pickv then pick, pickv = i, c end
  end
  return { pick }
end

function bots.make(k)
  local function default(g, _, d)
    local kind = d.kind
    if kind == "buy" then return choose_turn(k, d) end
    if kind == "banish" then return choose_banish(d) end
    if kind == "acquire" then return choose_acquire(k, g, d) end
    if kind == "defeat" or kind == "yesno" then return { 1 } end
    local t = {}
    for i = 1, (d.min or 1) do t[i] = i end
    return t
  end
  return { default = default }
end

return bots
