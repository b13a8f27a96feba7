-- accession/game.lua: Accession (seed 004) on the deck-builder kernel.
--
-- Accession plays by Dominion's rules with a fixed First-Game kingdom and fixed pile
-- sizes, so this file is Dominion's game.lua with Accession's supply: the card
-- handlers come from dominion/cards.lua (via accession/cards.lua) and the bots from
-- dominion/bots.lua. Rule choices are written down in README.md.

local kernel = require("deckbuilder.kernel")
local data = require("accession.cards")
local bots = require("dominion.bots")

local k = kernel.new { cards = data.cards, order = data.order, hand_size = 5 }

local game = {
  name = "accession", min_players = 2, max_players = 4,
  zones = kernel.zones,
  cards = data.cards,
  kernel = k,
}

function game.setup(g)
  k:setup_supply(g, data.piles)
  for p = 1, g:nplayers() do k:deal_start(g, p, data.start) end
  g:set_counter("active", 0, 1)
end

function game.turn(g)
  k:turn(g)
end

-- Asked after every turn: the game ends at the end of the turn that emptied the
-- Province pile or a third supply pile (any piles, as the rules' "Game End" says).
function game.finished(g)
  return g:count(k:pile("Province"), 0) == 0 or k:empty_piles(g) >= 3
end

function game.results(g)
  return k:results(g)
end

game.bots = bots.make(k)
game.bots.generic = require("deckbuilder.generic_bot").bot

return game
