-- elemental/game.lua: Elemental Command (seed 001, GAMES.md §2.1) as a board game.
--
-- Two heroes of 30 health; 40-card decks; a 5x4 board (each side a front and a back row
-- of 5 spaces, boardkit/grid.lua). The rules are the kernel's (kernel.lua, combat.lua,
-- effects.lua, turn.lua); this file is the game table (boardkit/gametable.lua: preset
-- decks picked by the match options, set-up, the end, results): zones, what each seat
-- starts with, bots and presentation. Rule choices: README.md.

local K = require("elemental.kernel")
require("elemental.combat")
require("elemental.effects")
require("elemental.turn")
local data = require("elemental.cards")
local decks = require("elemental.decks")
local bots = require("elemental.bots")
local hint = require("elemental.evaluate")
local gametable = require("boardkit.gametable")
local words = require("elemental.words")

local OPENING_HAND = 6
-- 100 turns each: a game whose players never attack ends by fatigue after about 42
-- each (the deck runs out after 34 draws, then 1, 2, 3... damage a turn); random
-- players' games take about 24 each.
local MAX_TURNS = 200

local k = K.new(data.cards, data.heroes)

local zones = { deck = "hidden", hand = "owner", hero = "public", grave = "public",
                burned = "public", casting = "public", aside = "hidden", board = "public" }

local game = gametable.new {
  name = "elemental", max_turns = MAX_TURNS, zones = zones, cards = data.cards,
  options = gametable.deck_options({ "earth", "wind", "fire" }, { "earth", "fire" },
    function(nth) return "the " .. nth .. " player's hero and preset deck" end),
  decks = decks, kernel = k, opening_hand = OPENING_HAND, open_zones = k.grid.zones,
  -- The hero of the deck's element; 2 in that element, 1 in the others.
  seat = function(g, p, element)
    g:new(data.hero_of[element], "hero", p)
    g:set_counter("health", p, K.START_HEALTH)
    for _, e in ipairs(K.ELEMENTS) do g:set_counter(e, p, e == element and 2 or 1) end
  end,
  -- How a client may draw it: the 5-column board between the heroes, then the hand.
  presentation = gametable.presentation({
    { "hero", "play", "Hero", description = "Your hero: at 0 health you lose" },
    { "board", "board", "Board", columns = 5,
      description = "Front row (nearest the enemy) and back row, 5 spaces each" },
    { "casting", "play", "Casting", description = "The spell being cast" },
    { "hand", "hand", "Hand", description = "Cards only you see" },
    { "deck", "deck", "Deck", description = "Your draw pile, face down" },
    { "grave", "discard", "Graveyard", description = "Dead minions and cast spells" },
    { "burned", "discard", "Burned", description = "Cards drawn into a full hand, lost" },
    { "aside", "hidden", "Set aside", description = "Cards being redrawn" },
  }, { Hero = "#f0d9a8", Minion = "#c8d9b0", Spell = "#a9c7e8" }, words),
}

game.bots = bots.make(k)
k.named = bots.named() -- the bots that name their choice (boardkit/choose.lua)
-- The search bot's evaluation hint (docs/SCRIPTING.md): health, board and cards, weighed
-- as `deckhand fit` fitted them to the default bot's games against `default`, `passive`
-- and `random` (docs/BENCHMARKS.md, issue 28: fitted on its mirror alone, a card in hand
-- weighed 8 points of health, and the search held its cards against a passive opponent).
game.features = hint.features(k)
game.evaluate = hint.new(k, { 0.08387, 0.1843, 0.01927, 0.0248, 0.1937 })
-- Play-outs run the rest of the searched turn and 3 more (the opponent's, the seat's, the
-- opponent's), not the default 8, then the hint scores them: at the worker's budget they
-- measured stronger against `default` (65.0% over 400 games against 54.8% with 8 turns;
-- docs/BENCHMARKS.md, issue 28).
game.search_depth = 3
-- The search departs from its play-out policy only on a clear margin: the policy is near
-- the deal's limit in a race against a passive opponent, where the departures the engine's
-- bar (0.067) let through lost a turn more often than they won one (38 games sooner, 55
-- later over 1,000 deals; docs/BENCHMARKS.md, issue 28, eleventh round).
game.search_bar = 0.001

return game
