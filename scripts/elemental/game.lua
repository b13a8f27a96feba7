-- elemental/game.lua: Elemental Command (seed 001, GAMES.md §2.1) as a board game.
--
-- Two heroes of 30 health; 40-card decks; a 5x4 board (each side a front and a back row
-- of 5 spaces, boardkit/grid.lua). The rules are the kernel's (kernel.lua, combat.lua,
-- effects.lua, turn.lua); this file is the game table: zones, setup with the preset
-- decks the match options pick, the end, results and bots. Rule choices: README.md.

local K = require("elemental.kernel")
require("elemental.combat")
require("elemental.effects")
require("elemental.turn")
local data = require("elemental.cards")
local decks = require("elemental.decks")
local bots = require("elemental.bots")

local OPENING_HAND = 6
-- 100 turns each: a game whose players never attack ends by fatigue after about 42
-- each (the deck runs out after 34 draws, then 1, 2, 3... damage a turn); random
-- players' games take about 24 each.
local MAX_TURNS = 200

local k = K.new(data.cards, data.heroes)

-- The match options, for the game list (OptionSpec: name, values, default, help).
local options = {
  { name = "deck_1", values = { "earth", "wind", "fire" }, default = "earth",
    help = "the first player's hero and preset deck" },
  { name = "deck_2", values = { "earth", "wind", "fire" }, default = "fire",
    help = "the second player's hero and preset deck" },
}

local zones = { deck = "hidden", hand = "owner", hero = "public", grave = "public",
                burned = "public", casting = "public", aside = "hidden", board = "public" }

local game = {
  name = "elemental", min_players = 2, max_players = 2, max_turns = MAX_TURNS,
  zones = zones, cards = data.cards, options = options,
  kernel = k, decks = decks,
}

-- The deck option of seat p, checked against the presets (default when absent).
local function deck_of(g, p)
  local spec = options[p]
  local v = g:option(spec.name) or spec.default
  if not decks[v] then error("elemental: " .. spec.name .. " must be earth, wind or fire") end
  return v
end

function game.setup(g)
  for p = 1, 2 do
    local element = deck_of(g, p)
    g:new(data.hero_of[element], "hero", p)
    g:set_counter("health", p, K.START_HEALTH)
    for _, e in ipairs(K.ELEMENTS) do g:set_counter(e, p, e == element and 2 or 1) end
    for _, entry in ipairs(decks[element]) do g:new(entry[1], "deck", p, entry[2]) end
    g:shuffle("deck", p)
    g:deal("deck", p, "hand", p, OPENING_HAND)
  end
  g:set_counter("active", 0, 1)
end

function game.turn(g)
  k:turn(g)
end

function game.finished(g)
  return k:over(g)
end

-- A hero at 0 health or less loses; both at once is a draw. At the turn cap the most
-- health wins. Score: health left.
function game.results(g)
  local res = {}
  for p = 1, 2 do res[p] = { score = g:counter("health", p), turns = g:counter("turns", p) } end
  local both_down = res[1].score <= 0 and res[2].score <= 0
  for p = 1, 2 do
    local q = K.other(p)
    res[p].rank = (not both_down and res[q].score > res[p].score) and 2 or 1
  end
  return res
end

game.bots = bots.make(k)
-- The search bot's evaluation hint (docs/SCRIPTING.md): health and board material.
game.evaluate = bots.evaluate(k)

-- How a client may draw it: the 5-column board between the heroes, then the hand.
game.presentation = {
  zones = {
    hero = { kind = "play", order = 0, label = "Hero" },
    board = { kind = "board", order = 1, label = "Board", columns = 5 },
    casting = { kind = "play", order = 2, label = "Casting" },
    hand = { kind = "hand", order = 3, label = "Hand" },
    deck = { kind = "deck", order = 4, label = "Deck" },
    grave = { kind = "discard", order = 5, label = "Graveyard" },
    burned = { kind = "discard", order = 6, label = "Burned" },
    aside = { kind = "hidden", order = 7, label = "Set aside" },
  },
  type_colors = { Hero = "#f0d9a8", Minion = "#c8d9b0", Spell = "#a9c7e8" },
}

return game
