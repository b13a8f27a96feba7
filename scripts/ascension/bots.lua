-- ascension/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- `default` plays every card first, then defeats the most rewarding monster it can
-- (free Templar Outpost defeats first), then buys the dearest hero or construct it can
-- afford, then ends the turn. It reads only the decision's options (centre row and
-- piles are public), its own hand and discard and the public counters. Games between
-- bots always end: any hand of 5 with a Militia or Heavy Infantry sooner or later
-- defeats the ever-present Cultist, so the Honour pool runs dry.

local botkit = require("deckbuilder.botkit")
local memo = require("deckbuilder.memo")
local R = require("ascension.rules")

local bots = {}

-- How much a monster's reward is worth to a bot: Honour, a Keystone ~2, Runes ~1/2.
local function reward_value(def)
  local rw = def.reward
  return (rw.honour or 0) + 2 * ((rw.life or 0) + (rw.death or 0)) + (rw.runes or 0) / 2
end

-- What an option of the turn decision does, from its label alone (so a bot also
-- understands the wire form of a decision): "all", "free", "defeat", "buy" or "other".
local function act_of(label)
  if label == "Play all treasures" then return "all" end
  if string.find(label, "(free, ", 1, true) then return "free" end
  if string.sub(label, 1, 7) == "Defeat " then return "defeat" end
  if string.sub(label, 1, 4) == "Buy " then return "buy" end
  return "other"
end

-- The option of the given act (acts: each option's act_of) with the highest value(def),
-- or nil.
local function best(k, g, d, acts, act, value)
  local pick, pickv
  for i = 1, #d.options do
    if acts[i] == act then
      local v = value(k.cards[g:name(d.options[i].card)])
      if not pick or v > pickv then pick, pickv = i, v end
    end
  end
  return pick
end

-- Cards a bot would rather not keep, worst first (banish choices).
local JUNK = { "Militia", "Apprentice" }

local function hero_value(def) return def.cost * 10 + (def.vp or 0) end

local function choose_turn(k, g, d)
  local opts = d.options
  if act_of(opts[1].label) == "all" then return { 1 } end
  local acts = {}
  for i = 1, #opts do acts[i] = act_of(opts[i].label) end
  local i = best(k, g, d, acts, "free", reward_value) or best(k, g, d, acts, "defeat", reward_value)
    or best(k, g, d, acts, "buy", hero_value)
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

-- ---- named forms (docs/SCRIPTING.md, g:bot) -------------------------------------------

-- What default_turn asks of a card on offer, by name: { monster = is it a Monster, cost =
-- its printed cost or false (R.facts), value = reward_value for a Monster, hero_value for
-- the others }. A cache: card data is frozen, each read of it a metatable step, and the
-- loop below reads every card on offer at every decision.
local seen = memo.cache()

local function card_seen(k, name)
  local s = seen[name]
  if not s then
    local facts, def = R.facts(k, name), k.cards[name]
    s = { monster = facts.monster, cost = facts.cost,
          value = facts.monster and reward_value(def) or hero_value(def) }
    seen[name] = s
  end
  return s
end

local cost_of = R.cost -- in a local: reading a frozen module's field costs a metatable step

-- default's turn choice named from what game.lua says is on offer (hand: the cards in
-- hand; when none, the offer of R.turn_offer) instead of read off the labelled options:
-- the same rule as choose_turn (the hand first, then the free defeat, the defeat and the
-- buy of most value, the first of equals in the options' order), so the same games are
-- played. What it may do with each card is R.acts' rule, written out here. Returns the
-- act and the index of its card in the offer (game.lua checks both).
local function default_turn(k, g, p, hand, ids, names, runes, power, limit)
  if hand > 0 then return "all" end
  local free, freev, defeat, defeatv, buy, buyv
  for i = 1, #ids do
    local name = names[i]
    local s = seen[name] or card_seen(k, name)
    local c, v = s.cost or cost_of(g, k, p, name), s.value
    if s.monster then
      if c <= power and (not defeat or v > defeatv) then defeat, defeatv = i, v end
      if limit and c <= limit and (not free or v > freev) then free, freev = i, v end
    elseif c <= runes and (not buy or v > buyv) then
      buy, buyv = i, v
    end
  end
  if free then return "free", free end
  if defeat then return "defeat", defeat end
  if buy then return "buy", buy end
  return "end"
end

-- The bots of bots.make(k) that can name their turn choice: name -> fn(k, g, p, hand,
-- ids, names, runes, power, limit) (default_turn).
function bots.named(_)
  return { default = default_turn }
end

function bots.make(k)
  local function default(g, _, d)
    local kind = d.kind
    if kind == "buy" then return choose_turn(k, g, d) end
    if kind == "banish" then return choose_banish(d) end
    if kind == "acquire" then return { botkit.dearest_card(k, g, d) } end
    if kind == "defeat" or kind == "yesno" then return { 1 } end
    return botkit.least(d)
  end
  return { default = default }
end

return bots
