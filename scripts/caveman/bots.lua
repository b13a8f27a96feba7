-- caveman/bots.lua: bot strategies, `function(g, p, d)` returning option indices.
--
-- A bot sees what its seat sees: the decision's options (its own hand, the top card of
-- each pile), its own card count and the public counters. `_own:<Card>` counters repeat
-- the public log of gains and trashes (a Prophet swap is not in it, so they are an
-- estimate, as for a human). Both strategies buy Weapons, and Weapons stay in a deck
-- once bought, so every game between bots ends by health long before the turn limit.
--
-- Strategies differ only in what they buy; the other answers are shared: play cards
-- with +Actions first, then draws, then Weapons by damage, then the rest; Toolmaker
-- trades the best Treasure it can; Priest and Warrior trash Wood; Sacrifice gains a Club.

local botkit = require("deckbuilder.botkit")
local memo = require("deckbuilder.memo")

local bots = {}

local NONE = {}

local function find(d, name)
  for i = 1, #d.options do
    if d.options[i].name == name then return i end
  end
  return nil
end

local function action_value(def)
  if (def.actions or 0) > 0 then return 300 + def.cost end
  if (def.cards or 0) > 0 then return 200 + def.cost end
  if def.damage then return 100 + def.damage end
  return def.cost
end

local function choose_action(k, g, d)
  local best, bestv = #d.options, -1
  for i = 1, #d.options do
    local id = d.options[i].card
    if id then
      local v = action_value(k.cards[g:name(id)])
      if v > bestv then best, bestv = i, v end
    end
  end
  return { best }
end

-- Trash decisions: Toolmaker trades its dearest Treasure; Priest and Warrior trash Wood
-- (as many as allowed) while the player keeps at least 3 other Treasures.
local function choose_trash(k, g, p, d)
  if d.source == "Toolmaker" then return { botkit.dearest_named(k, d, "label") } end
  local t = {}
  if k:owned(g, p, "Bone") + k:owned(g, p, "Stone") < 3 then return t end
  for i = 1, #d.options do
    if #t < d.max and d.options[i].label == "Wood" then t[#t + 1] = i end
  end
  return t
end

local function choose_gain(_, _, d)
  local i = find(d, "Club")
  if i then return { i } end
  local best, bestc = 1, -1
  for j = 1, #d.options do
    if d.options[j].cost > bestc then best, bestc = j, d.options[j].cost end
  end
  return { best }
end

-- The names default_buy counts p's cards of: the Weapons, and the other Actions (in the
-- kernel's order). Kept in a cache, filled again when the engine empties it: a module's
-- own tables are frozen, and a g call given one looks through it.
local lists = memo.cache()

local function weapon_names()
  local t = lists.weapons
  if not t then
    t = { "Club", "Sling", "Spear" }
    lists.weapons = t
  end
  return t
end

local function action_names(k)
  local t = lists.actions
  if not t then
    t = {}
    for _, name in ipairs(k.order) do
      local def = k.cards[name]
      if def.is.Action and not def.is.Weapon then t[#t + 1] = name end
    end
    lists.actions = t
  end
  return t
end

-- Wish lists are only read, so they are built once (a strategy runs at every buy).
local SPEAR, ELDER = { "Spear", "Sling", "Stone" }, { "Elder", "Sacrifice", "Sling", "Stone" }
local STONE, SLING = { "Stone", "Sling" }, { "Sling", "Stone" }
local WARRIOR, CLUB = { "Warrior", "Prophet", "Club", "Bone" }, { "Club", "Bone" }
local ARTIST, BONE = { "Artist", "Toolmaker", "Priest", "Bone" }, { "Bone" }

-- A mix of money, Actions and Weapons: one Weapon per 3 cards, one Action per 4. What it
-- owns is counted (g:deck_owned: the _own:<Card> counters, and all its cards) only for
-- the coins whose choice depends on it.
local function default_buy(k, g, p, coins)
  if coins >= 10 then return SPEAR end
  if coins >= 7 then return ELDER end
  if coins < 3 then return NONE end
  if coins == 3 then return BONE end
  local weapons, cards = g:deck_owned(k.kit, p, weapon_names())
  local armed = weapons * 3 >= cards
  if coins == 6 then return armed and STONE or SLING end
  if coins == 4 and not armed then return CLUB end
  local busy = g:deck_owned(k.kit, p, action_names(k)) * 4 >= cards
  if coins == 5 then return busy and CLUB or WARRIOR end
  return busy and BONE or ARTIST
end

-- The dearest Weapon it can pay for; Bone when it cannot afford one.
local AGGRO_10, AGGRO_6 = { "Spear", "Sling", "Club" }, { "Sling", "Club" }

local function aggro_buy(_, _, _, coins)
  if coins >= 10 then return AGGRO_10 end
  if coins >= 6 then return AGGRO_6 end
  if coins >= 4 then return CLUB end
  if coins == 3 then return BONE end
  return NONE
end

local function buy_with(k, strategy)
  return function(g, p, d)
    if d.options[1].act == "all" then return { 1 } end
    for _, name in ipairs(strategy(k, g, p, g:counter("coins"))) do
      local i = find(d, name)
      if i then return { i } end
    end
    return { #d.options }
  end
end

-- ---- named forms (deckbuilder/kernel.lua, cfg.bots): the same choices made from the
-- match's state instead of the labelled options; a bot seat's turn asks these.

-- action_value by card name, in a cache (card data is frozen: each read a metatable step).
local values = memo.cache()

local function value_of(k, name)
  local v = values[name]
  if not v then
    v = action_value(k.cards[name])
    values[name] = v
  end
  return v
end

-- choose_action's rule over the Action kinds in hand (names, g:deck_actions): the first
-- of the best, or nil to end the action phase.
local function named_action(k, _, _, names)
  local best, bestv = nil, -1
  for i = 1, #names do
    local v = value_of(k, names[i])
    if v > bestv then best, bestv = names[i], v end
  end
  return best
end

-- buy_with's rule (after the kernel played every Treasure): the first wish the buy
-- options would offer for the coins (g:deck_pick), or nil to end the turn.
local function named_buy(strategy)
  return function(k, g, p, coins)
    return g:deck_pick(k.kit, coins, strategy(k, g, p, coins))
  end
end

local function make_bot(k, strategy)
  local buy = buy_with(k, strategy)
  return function(g, p, d)
    local kind = d.kind
    if kind == "buy" then return buy(g, p, d) end
    if kind == "action" then return choose_action(k, g, d) end
    if kind == "trash" then return choose_trash(k, g, p, d) end
    if kind == "gain" then return choose_gain(k, g, d) end
    return botkit.least(d)
  end
end

function bots.make(k)
  return {
    default = make_bot(k, default_buy),
    aggro = make_bot(k, aggro_buy),
  }
end

-- The named forms of bots.make's bots, for the kernel's cfg.bots.
function bots.named()
  return {
    default = { action = named_action, buy = named_buy(default_buy) },
    aggro = { action = named_action, buy = named_buy(aggro_buy) },
  }
end

return bots
