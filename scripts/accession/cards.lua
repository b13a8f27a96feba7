-- accession/cards.lua: Accession's cards, taken from Dominion's definitions.
--
-- Accession (seed 004) is Dominion's base game under its own name, with the same card
-- names, costs and texts for the ten First-Game kingdom cards. So nothing is copied:
-- every card here is Dominion's definition (handlers included), re-keyed under the
-- Accession name in RENAME (identity today; a renamed card is one entry) and without
-- Dominion's per-player-count `supply` sizes, which Accession does not use.

local dominion = require("dominion.cards")

-- Accession name -> Dominion name, in supply display order: base cards, then the
-- kingdom by cost and name. There is no Curse: no Accession card gives one.
local RENAME = {
  { "Copper", "Copper" }, { "Silver", "Silver" }, { "Gold", "Gold" },
  { "Estate", "Estate" }, { "Duchy", "Duchy" }, { "Province", "Province" },
  { "Cellar", "Cellar" }, { "Moat", "Moat" }, { "Village", "Village" },
  { "Woodcutter", "Woodcutter" }, { "Workshop", "Workshop" }, { "Militia", "Militia" },
  { "Remodel", "Remodel" }, { "Smithy", "Smithy" }, { "Market", "Market" },
  { "Mine", "Mine" },
}

-- Supply pile sizes (seed 004's board): fixed, whatever the number of players.
local SUPPLY = { Copper = 60, Silver = 40, Gold = 30, Estate = 8, Duchy = 8, Province = 8 }
local KINGDOM_SIZE = 10

local cards, order, piles = {}, {}, {}
for i, pair in ipairs(RENAME) do
  local name, from = pair[1], pair[2]
  local def = {}
  for key, v in pairs(dominion.cards[from]) do
    if key ~= "supply" and key ~= "is" then def[key] = v end
  end
  cards[name] = def
  order[i] = name
  piles[i] = { name = name, count = SUPPLY[name] or KINGDOM_SIZE }
end

return {
  cards = cards,
  order = order,
  piles = piles,
  start = { { name = "Copper", count = 7 }, { name = "Estate", count = 3 } },
}
