-- caveman/cards.lua: the Caveman cards (seed 000 §4.4) as data, then their handlers.
--
-- Fields the kernel understands: cost, types, text, coins, cards, actions, buys (applied
-- before on_play), on_play. Caveman's own fields: `damage` (Weapons), `next` (the
-- Treasure a Toolmaker trades up to), `count` (pile size), `pile` (the shuffled pile of
-- an Action). Health lives in the per-player counter `health`; the rules around it
-- (damage, healing, the cap) are here because only cards change it.

local kernel = require("deckbuilder.kernel")

local cards = {}

local START_HEALTH = 20

-- ---- health -------------------------------------------------------------------------

-- Every opponent of p loses n health (never below 0).
local function strike(g, p, n, source)
  local np = g:nplayers()
  for i = 1, np - 1 do -- kernel:others's order (from p's left) without its table
    local v = (p - 1 + i) % np + 1
    local h = math.max(g:counter("health", v) - n, 0)
    g:set_counter("health", v, h)
    g:log(source, " deals ", n, " damage to ", g:player_name(v), " (", h, " health left)")
  end
end

-- p gains n health, up to the starting health.
local function heal(g, p, n)
  local h = math.min(g:counter("health", p) + n, START_HEALTH)
  g:set_counter("health", p, h)
  g:log_player(p, " heals to ", h, " health")
end

-- ---- treasures ------------------------------------------------------------------------

cards.Wood = { cost = 0, types = { "Treasure" }, text = "+1", coins = 1, count = 40,
               next = "Bone" }
cards.Bone = { cost = 3, types = { "Treasure" }, text = "+2", coins = 2, count = 30,
               next = "Stone" }
cards.Stone = { cost = 6, types = { "Treasure" }, text = "+4", coins = 4, count = 15 }

-- ---- weapons: played like Actions (each uses an action), the only source of damage ----

local function weapon(cost, damage, count)
  return {
    cost = cost, types = { "Action", "Weapon" }, damage = damage, count = count,
    text = "Deal " .. damage .. " damage to your opponent.",
    on_play = function(g, _, p, id) strike(g, p, damage, g:name(id)) end,
  }
end

cards.Club = weapon(4, 1, 15)
cards.Sling = weapon(6, 2, 10)
cards.Spear = weapon(10, 4, 5)

-- ---- actions: 10 each, in four shuffled piles by cost ------------------------------------

local function action(cost, def)
  def.cost, def.types, def.count, def.pile = cost, { "Action" }, 10, "Actions " .. cost
  return def
end

cards.Hunter = action(3, { text = "+2", coins = 2 })
cards.Gatherer = action(3, { text = "+1 Action.", actions = 1 })
cards.Farmer = action(3, { text = "+1 Buy, +1.", buys = 1, coins = 1 })

cards.Toolmaker = action(4, {
  text = "Trade a Treasure from your hand for the next one up (Wood for Bone, Bone for "
    .. "Stone), into your hand.",
  on_play = function(g, k, p)
    local tradeable = {}
    for _, id in ipairs(k:distinct(g, k:hand_of_type(g, p, "Treasure"))) do
      local up = k.cards[g:name(id)].next
      if up and g:top(k:pile(up), 0) then tradeable[#tradeable + 1] = id end
    end
    local t = k:choose_cards(g, p, tradeable, { kind = "trash", min = 0, max = 1,
      prompt = "Toolmaker: trade a Treasure for the next one up", source = "Toolmaker" })
    if #t == 0 then return end
    local up = k.cards[g:name(t[1])].next
    k:trash(g, p, t[1])
    k:gain(g, p, up, "hand")
  end,
})

cards.Artist = action(4, { text = "+2 Cards.", cards = 2 })

cards.Priest = action(4, {
  text = "You may trash up to 2 cards from your hand. +1 health for each card trashed.",
  on_play = function(g, k, p)
    local t = k:choose_cards(g, p, g:list("hand", p), { kind = "trash", min = 0, max = 2,
      prompt = "Priest: trash up to 2 cards, +1 health each", source = "Priest" })
    for _, id in ipairs(t) do k:trash(g, p, id) end
    if #t > 0 then heal(g, p, #t) end
  end,
})

cards.Prophet = action(5, {
  text = "+3 Cards. The top card of every player's deck is shuffled and dealt face down "
    .. "into the players' discard piles, one each.",
  cards = 3,
  on_play = function(g, _, p)
    -- The cards meet face down in the hidden "prophecy" zone, are shuffled there and
    -- dealt back one per giver, so every pile keeps its size and no one (not even the
    -- receiver) learns who got what. A player whose deck is empty gives and gets nothing.
    local givers = { p }
    for _, q in ipairs(kernel:others(g, p)) do givers[#givers + 1] = q end
    local dealt = {}
    for _, q in ipairs(givers) do
      local id = g:top("deck", q)
      if id then
        g:move(id, "prophecy", 0)
        dealt[#dealt + 1] = q
      end
    end
    g:shuffle("prophecy", 0)
    for _, q in ipairs(dealt) do g:move(g:top("prophecy", 0), "discard", q) end
    g:log("Prophet: ", #dealt, #dealt == 1 and " card is" or " cards are",
          " shuffled and dealt face down into the discard piles")
  end,
})

cards.Warrior = action(5, {
  text = "+2 Actions, +1 Card. You may trash a card from your hand.",
  actions = 2, cards = 1,
  on_play = function(g, k, p)
    local t = k:choose_cards(g, p, g:list("hand", p), { kind = "trash", min = 0, max = 1,
      prompt = "Warrior: you may trash a card", source = "Warrior" })
    if #t == 1 then k:trash(g, p, t[1]) end
  end,
})

cards.Elder = action(7, { text = "+1 Card, +1 Buy, +1 Action, +2.",
                          cards = 1, buys = 1, actions = 1, coins = 2 })

cards.Sacrifice = action(7, {
  text = "+1 Action, +1 Card. Gain a card costing up to 4. Trash this card.",
  actions = 1, cards = 1,
  on_play = function(g, k, p, id)
    k:choose_gain(g, p, 4, { prompt = "Sacrifice: gain a card costing up to 4",
                             source = "Sacrifice" })
    k:trash(g, p, id)
  end,
})

local order = { "Wood", "Bone", "Stone", "Club", "Sling", "Spear",
                "Hunter", "Gatherer", "Farmer", "Toolmaker", "Artist", "Priest",
                "Prophet", "Warrior", "Elder", "Sacrifice" }

local pile_of = {}
for _, name in ipairs(order) do pile_of[name] = cards[name].pile end

return {
  cards = cards,
  order = order,
  pile_of = pile_of,
  start = { { name = "Wood", count = 4 }, { name = "Bone", count = 2 } },
  start_health = START_HEALTH,
}
