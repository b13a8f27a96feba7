-- dominion/game.lua: Dominion (base set, first edition, plus the second-edition cards) on
-- the deck-builder kernel.
--
-- The game table the engine loads (docs/SCRIPTING.md). Rules shared by deck-builders
-- live in deckbuilder/kernel.lua; what is Dominion's own is here: the supply, the
-- starting deck, and the end condition. Rule choices are written down in README.md.

local kernel = require("deckbuilder.kernel")
local data = require("dominion.cards")
local kingdom = require("dominion.kingdom")
local bots = require("dominion.bots")

local k = kernel.new { cards = data.cards, order = data.order, hand_size = 5 }

-- The kernel's zones plus "look": cards only their owner looks at (Sentry).
local zones = { look = "owner" }
for name, vis in pairs(kernel.zones) do zones[name] = vis end

local game = {
  name = "dominion", min_players = 2, max_players = 4,
  zones = zones,
  cards = data.cards,
  kernel = k,
}

function game.setup(g)
  k:setup_supply(g, kingdom.piles(g, data))
  for p = 1, g:nplayers() do k:deal_start(g, p, data.start) end
  g:set_counter("active", 0, 1)
end

function game.turn(g)
  if g:counter("_draft") ~= 0 then kingdom.draft(g, k, data) end
  -- Merchant's bonus is per turn.
  g:set_counter("_merchant", 0, 0)
  g:set_counter("_silver", 0, 0)
  k:turn(g)
end

-- Asked after every turn, so the game ends at the end of the turn that emptied the
-- Province pile or a third supply pile.
function game.finished(g)
  return g:count(k:pile("Province"), 0) == 0 or k:empty_piles(g) >= 3
end

function game.results(g)
  return k:results(g)
end

game.bots = bots.make(k)

return game
