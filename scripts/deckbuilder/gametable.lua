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
  supply = { kind = "supply", order = 0, label = "Supply",
             description = "The cards you may buy or gain, one pile each" },
  trash = { kind = "discard", order = 1, label = "Trash",
            description = "Cards out of the game" },
  play = { kind = "play", order = 2, label = "In play",
           description = "Cards played this turn" },
  aside = { kind = "play", order = 3, label = "Set aside",
            description = "Cards set aside by a card's text" },
  hand = { kind = "hand", order = 4, label = "Hand", description = "Cards only you see" },
  deck = { kind = "deck", order = 5, label = "Deck",
           description = "Your draw pile, face down" },
  discard = { kind = "discard", order = 6, label = "Discard",
              description = "Your discard pile: shuffled into a new deck when the deck runs out" },
  box = { kind = "hidden", order = 9, label = "Box", description = "Cards not in this game" },
}

-- The kernel's counters: what a player reads, and the internals they never see.
local KERNEL_COUNTERS = {
  vp = { label = "Victory points", order = 0,
         description = "Points of every card this player owns (the score so far)" },
  actions = { label = "Actions", order = 1,
              description = "Action cards you may still play this turn" },
  buys = { label = "Buys", order = 2, description = "Cards you may still buy this turn" },
  coins = { label = "Coins", order = 3, description = "Money to spend on buys this turn" },
  turns = { label = "Turns taken", order = 9, description = "Turns this player has played" },
  active = { hidden = true }, -- whose turn it is: the client knows it from the decision
  -- No counter: the words of the end screen's PlayerResult.score (docs/SCRIPTING.md).
  score = { label = "Victory points", order = 99, description = "Most points wins" },
}

local function merged(base, own)
  local out = {}
  for name, v in pairs(base) do out[name] = v end
  for name, v in pairs(own or {}) do out[name] = v end
  return out
end

-- The kernel's zone and counter hints with a game's own added (or overriding them), and
-- the game's words: own = { title =, summary =, zones = {...}, counters = {...},
-- type_colors = {...} }. Every deck-builder says so (deck_builder: its seats build decks).
function gametable.presentation(own)
  return { title = own.title, summary = own.summary, deck_builder = true,
           zones = merged(KERNEL_HINTS, own.zones),
           counters = merged(KERNEL_COUNTERS, own.counters), type_colors = own.type_colors }
end

-- spec: name, min_players (default 2), max_players, max_turns (the turn cap, counting
-- every seat's turns), zones (default the kernel's), bots (name -> bot; "generic" is added),
-- vp (false: no VP total, for a game scored by something else, such as Caveman's health),
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
  -- The VP total every seat reads during the game (the public counter `vp`): the score
  -- results would give now, counted over the cards each seat owns, which every player
  -- of a deck-builder may know (every gain is announced). The engine runs refresh
  -- before a person decides and at the end, never in all-bot play (docs/SCRIPTING.md).
  if spec.vp ~= false then
    game.refresh = k:score_refresh("vp")
  end
  game.bots = spec.bots or {}
  game.bots.generic = generic.bot
  return game
end

return gametable
