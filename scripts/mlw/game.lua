-- mlw/game.lua: Major League Wizardry (seed 003, GAMES.md §2.2) as a bundle.
--
-- Two wizards of 20 health; 40-card preset decks (the options deck_1 and deck_2); a
-- monster zone of at most 5 (the counter `max_monsters`) and a trap zone of at most 1
-- per wizard. The rules are the kernel's (kernel.lua, types.lua, actions.lua) and run on
-- the event model of boardkit/events.lua; the cards are cards*.lua. This file is the
-- game table (boardkit/gametable.lua: preset decks picked by the match options, set-up,
-- the end, results): zones, what each wizard starts with, bots and presentation. Rule
-- choices: README.md.

local k = require("mlw.kernel")
require("mlw.actions") -- the turn's methods of the kernel
local data = require("mlw.cards")
local decks = require("mlw.decks")
local bots = require("mlw.bots")
local gametable = require("boardkit.gametable")
local words = require("mlw.words")

-- 100 turns each. Default bots' games take about 25 each (37 at most in 100 seeds);
-- players who never attack end by the empty deck (2 damage a draw) after about 45 each.
local MAX_TURNS = 200

-- The trap zone is `owner`: the opponent sees only whether a trap is set.
-- A discarded trap leaves face down (`unseen`).
local zones = { deck = "hidden", hand = "owner", wizard = "public", monsters = "public",
                trap = "owner", grave = "public", casting = "public", unseen = "hidden" }

local game = gametable.new {
  name = "mlw", max_turns = MAX_TURNS, zones = zones, cards = data.cards, leader = "wizard",
  options = gametable.deck_options({ "fire", "frost" }, { "fire", "frost" },
    function(nth) return "the " .. nth .. " wizard's preset deck" end),
  decks = decks, kernel = k, opening_hand = k.OPENING_HAND, open_zones = { "monsters", "trap" },
  -- The wizard and its counters (cards may change the limits).
  seat = function(g, p)
    g:new("Wizard", "wizard", p)
    g:set_counter("health", p, k.START_HEALTH)
    g:set_counter("max_monsters", p, k.MAX_MONSTERS)
    g:set_counter("max_traps", p, k.MAX_TRAPS)
    g:set_counter("hand_limit", p, k.HAND_LIMIT)
  end,
  -- How a client may draw it: each wizard, its monsters and its face-down trap, the hand.
  presentation = gametable.presentation({
    { "wizard", "play", "Wizard", description = "Your wizard: at 0 health you lose" },
    { "monsters", "board", "Monsters", columns = 5, description = "Monsters in play, at most 5" },
    { "trap", "play", "Trap", description = "A face-down trap: your opponent sees only that "
      .. "one is set" },
    { "casting", "play", "Casting", description = "The spell being cast" },
    { "hand", "hand", "Hand", description = "Cards only you see" },
    { "deck", "deck", "Deck", description = "Your draw pile, face down" },
    { "grave", "discard", "Graveyard", description = "Used spells, fired traps, dead monsters" },
    { "unseen", "hidden", "Discarded face down", description = "Traps discarded unseen" },
  }, { Wizard = "#f0d9a8", Monster = "#e3a39a", Spell = "#a9c7e8", Trap = "#d8c3e8" }, words),
}

game.bots = bots.make()
k.named = bots.named() -- the bots that name their choice (boardkit/choose.lua)
-- The search bot's evaluation hint (docs/SCRIPTING.md): health, board, cards and the trap,
-- weighed as `deckhand fit` fitted them to self-play (docs/BENCHMARKS.md, issue 28).
game.features = bots.features
game.evaluate = bots.evaluate({ 0.1173, 0.06199, 0.04424, 0.06245, 0.3506, 0.3522 })
-- Play-outs run the rest of the searched turn and 3 more, not the default 8, then the hint
-- scores them: at the worker's budget they measured stronger against `default` (79.0% over
-- 400 games against 57.0% with 8 turns; docs/BENCHMARKS.md, issue 28).
game.search_depth = 3

return game
