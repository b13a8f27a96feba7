-- mlw/game.lua: Major League Wizardry (seed 003, GAMES.md §2.2) as a bundle.
--
-- Two wizards of 20 health; 40-card preset decks (the options deck_1 and deck_2); a
-- monster zone of at most 5 (the counter `max_monsters`) and a trap zone of at most 1
-- per wizard. The rules are the kernel's (kernel.lua, types.lua, actions.lua) and run on
-- the event model of boardkit/events.lua; the cards are cards*.lua. This file is the
-- game table: zones, set-up, the end, results and bots. Rule choices: README.md.

local k = require("mlw.kernel")
require("mlw.actions") -- the turn's methods of the kernel
local data = require("mlw.cards")
local decks = require("mlw.decks")
local bots = require("mlw.bots")

-- 100 turns each. Default bots' games take about 25 each (37 at most in 100 seeds);
-- players who never attack end by the empty deck (2 damage a draw) after about 45 each.
local MAX_TURNS = 200

local options = {
  { name = "deck_1", values = { "fire", "frost" }, default = "fire",
    help = "the first wizard's preset deck" },
  { name = "deck_2", values = { "fire", "frost" }, default = "frost",
    help = "the second wizard's preset deck" },
}

-- The trap zone is `owner`: the opponent sees only whether a trap is set.
-- A discarded trap leaves face down (`unseen`).
local zones = { deck = "hidden", hand = "owner", wizard = "public", monsters = "public",
                trap = "owner", grave = "public", casting = "public", unseen = "hidden" }

local game = {
  name = "mlw", min_players = 2, max_players = 2, max_turns = MAX_TURNS,
  zones = zones, cards = data.cards, options = options, decks = decks,
  kernel = k,
}

local function deck_of(g, p)
  local spec = options[p]
  local v = g:option(spec.name) or spec.default
  if not decks[v] then error("mlw: " .. spec.name .. " must be fire or frost") end
  return v
end

function game.setup(g)
  for p = 1, 2 do
    g:new("Wizard", "wizard", p)
    g:set_counter("health", p, k.START_HEALTH)
    g:set_counter("max_monsters", p, k.MAX_MONSTERS)
    g:set_counter("max_traps", p, k.MAX_TRAPS)
    g:set_counter("hand_limit", p, k.HAND_LIMIT)
    for _, entry in ipairs(decks[deck_of(g, p)]) do g:new(entry[1], "deck", p, entry[2]) end
    g:shuffle("deck", p)
    g:deal("deck", p, "hand", p, k.OPENING_HAND)
  end
  g:set_counter("active", 0, 1)
end

function game.turn(g) k:turn(g) end

function game.finished(g) return k:over(g) end

-- A wizard at 0 health or less, or one who surrendered, loses; both down at once is a
-- draw. At the turn cap the most health wins. Score: health left.
function game.results(g)
  local res, lost = {}, {}
  for p = 1, 2 do
    lost[p] = g:counter("health", p) <= 0 or g:counter("surrendered", p) ~= 0
    res[p] = { score = g:counter("health", p), turns = g:counter("turns", p) }
  end
  for p = 1, 2 do
    local q = k.other(p)
    local rank = 1
    if lost[p] and not lost[q] then rank = 2
    elseif not lost[p] and not lost[q] and res[q].score > res[p].score then rank = 2
    end
    res[p].rank = rank
  end
  return res
end

game.bots = bots.make()
-- The search bot's evaluation hint (docs/SCRIPTING.md): health and board material.
game.evaluate = bots.evaluate

-- How a client may draw it: each wizard, its monsters and its face-down trap, the hand.
game.presentation = {
  zones = {
    wizard = { kind = "play", order = 0, label = "Wizard" },
    monsters = { kind = "board", order = 1, label = "Monsters", columns = 5 },
    trap = { kind = "play", order = 2, label = "Trap" },
    casting = { kind = "play", order = 3, label = "Casting" },
    hand = { kind = "hand", order = 4, label = "Hand" },
    deck = { kind = "deck", order = 5, label = "Deck" },
    grave = { kind = "discard", order = 6, label = "Graveyard" },
    unseen = { kind = "hidden", order = 7, label = "Discarded face down" },
  },
  type_colors = { Wizard = "#f0d9a8", Monster = "#e3a39a", Spell = "#a9c7e8",
                  Trap = "#d8c3e8" },
}

return game
