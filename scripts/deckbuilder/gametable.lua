-- deckbuilder/gametable.lua: the game table (docs/SCRIPTING.md) of a deck-builder on the
-- kernel, with what every such game shares already in it.
--
-- Each game's game.lua builds its table here, then adds what is its own (setup,
-- finished, and turn or results where the kernel's do not fit): the table carries the
-- card data and the kernel, a turn and results that are the kernel's, and the game's
-- bots plus the generic bot (deckbuilder/generic_bot.lua) as "generic".

local kernel = require("deckbuilder.kernel")
local generic = require("deckbuilder.generic_bot")

local gametable = {}

-- The kernel's zone visibilities with a game's own zones added (or overriding them).
function gametable.zones(own)
  local zones = {}
  for name, vis in pairs(kernel.zones) do zones[name] = vis end
  for name, vis in pairs(own) do zones[name] = vis end
  return zones
end

-- How a client may draw the kernel's zones (docs/SCRIPTING.md, "Presentation hints"):
-- the supply first, then what is in play, the hand, and the piles.
local KERNEL_HINTS = {
  supply = { kind = "supply", order = 0, label = "Supply" },
  trash = { kind = "discard", order = 1, label = "Trash" },
  play = { kind = "play", order = 2, label = "In play" },
  aside = { kind = "play", order = 3, label = "Set aside" },
  hand = { kind = "hand", order = 4, label = "Hand" },
  deck = { kind = "deck", order = 5, label = "Deck" },
  discard = { kind = "discard", order = 6, label = "Discard" },
  box = { kind = "hidden", order = 9, label = "Box" },
}

-- The kernel's zone hints with a game's own added (or overriding them), and the game's
-- type colours: own = { zones = {...}, type_colors = {...} }.
function gametable.presentation(own)
  local zones = {}
  for name, hint in pairs(KERNEL_HINTS) do zones[name] = hint end
  for name, hint in pairs(own.zones or {}) do zones[name] = hint end
  return { zones = zones, type_colors = own.type_colors }
end

-- spec: name, min_players (default 2), max_players, max_turns (the turn cap, counting
-- every seat's turns), zones (default the kernel's), bots (name -> bot; "generic" is added),
-- deck_zones (the zones of a player's own cards, its deck on the end screen; default the
-- kernel's deck, hand, discard, play and aside).
function gametable.new(k, spec)
  local game = {
    name = spec.name, min_players = spec.min_players or 2, max_players = spec.max_players,
    max_turns = spec.max_turns,
    zones = spec.zones or kernel.zones,
    cards = k.cards,
    kernel = k,
    deck_zones = spec.deck_zones or kernel.own_zones,
  }
  function game.turn(g) k:turn(g) end
  function game.results(g) return k:results(g) end
  game.bots = spec.bots or {}
  game.bots.generic = generic.bot
  return game
end

return gametable
