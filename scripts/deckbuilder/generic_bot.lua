-- deckbuilder/generic_bot.lua: one bot that plays any deck-builder from the decisions it
-- is offered. It reads only what a network client sees of a decision: its kind, its
-- min/max and each option's label. So it needs no knowledge of a game's cards, and it is
-- what a new deck-builder can be played (and its games ended) with before it has bots of
-- its own. Every game registers it as its "generic" bot.
--
-- The labels it relies on are the kernel's conventions (docs/PROTOCOL.md): "Play all
-- treasures", "Play <Card>", "End actions", "End turn", and acquisitions whose cost is the
-- first number in parentheses: "Buy Province ($8)", "Defeat Cultist (2 power)". An
-- acquisition marked "(free" costs nothing and is always worth taking.

local botkit = require("deckbuilder.botkit")

local generic = {}

local FREE = 1000

-- The option's cost when it is an acquisition (Buy/Defeat), else nil.
local function acquisition_cost(label)
  if label:sub(1, 4) ~= "Buy " and label:sub(1, 7) ~= "Defeat " then return nil end
  if label:find("(free", 1, true) then return FREE end
  return tonumber(label:match("%(%$?(%d+)")) or 0
end

-- The standing decision of a turn: play everything, then take the dearest thing on offer.
local function choose_turn(d)
  local opts, last = d.options, #d.options
  for i = 1, last do
    if opts[i].label == "Play all treasures" then return { i } end
  end
  for i = 1, last do
    if opts[i].label:sub(1, 5) == "Play " then return { i } end
  end
  local best, best_cost = nil, 0
  for i = 1, last do
    local c = acquisition_cost(opts[i].label)
    if c and c > best_cost then best, best_cost = i, c end
  end
  if best then return { best } end
  for i = 1, last do
    local l = opts[i].label
    if l == "End turn" or l == "End actions" then return { i } end
  end
  return { last }
end

function generic.bot(_, _, d)
  if d.kind == "action" or d.kind == "buy" then return choose_turn(d) end
  return botkit.least(d)
end

return generic
