-- caveman/game.lua: Caveman (seed 000 §4.4) on the deck-builder kernel.
--
-- Two players with 20 health each; Weapons deal damage; the game ends when a player has
-- no health left. What differs from Dominion is data and a few lines here: a hand of 3
-- drawn at the start of each turn (not at clean-up), 2 actions per turn, the Actions
-- sold from four shuffled mixed piles (kernel `pile_of`), discard piles hidden (Prophet
-- deals into them face down), and victory by health. Rule choices: README.md.

local kernel = require("deckbuilder.kernel")
local gametable = require("deckbuilder.gametable")
local words = require("caveman.words")
local data = require("caveman.cards")
local bots = require("caveman.bots")

local DRAW = 3
-- A match also ends when both players have played this many turns (no seed rule; it
-- bounds games in which nobody buys a Weapon). Most health wins then.
local TURN_LIMIT = 100

local k = kernel.new { cards = data.cards, order = data.order, pile_of = data.pile_of,
                       hand_size = 0, turn_stats = { actions = 2, buys = 1 },
                       phases = { "draw", "action", "buy", "cleanup" },
                       bots = bots.named() }

-- The turn opens by drawing the hand (clean-up draws nothing: hand_size = 0).
function k:draw_phase(g, p)
  self:draw(g, p, DRAW)
end

-- The engine's turn cap, every seat's turns together: above the two players' TURN_LIMIT
-- turns each, so the game's own limit (most health wins) always ends it first.
local MAX_TURNS = 2 * TURN_LIMIT + 40

local game = gametable.new(k, { name = "caveman", max_players = 2, max_turns = MAX_TURNS,
                                zones = gametable.zones { discard = "hidden", prophecy = "hidden" },
                                bots = bots.make(k), vp = false }) -- health is the score
game.turn_limit = TURN_LIMIT
game.presentation = gametable.presentation {
  title = words.title, summary = words.summary, counters = words.counters,
  zones = { prophecy = { kind = "hidden", order = 8, label = "Prophecy",
                         description = "Top cards the Prophet deals face down" } },
  type_colors = { Action = "#e4e0d6", Weapon = "#d9a27a", Treasure = "#c9b79c" },
}

-- The supply piles and the mixed piles to shuffle: the same for every match, so made
-- once, when the bundle loads (a pushed bundle with other cards loads them anew).
local PILES, MIXED = {}, {}
do
  local seen = {}
  for i, name in ipairs(data.order) do
    PILES[i] = { name = name, count = data.cards[name].count }
    local zone = k:pile(name)
    if data.pile_of[name] and not seen[zone] then
      seen[zone] = true
      MIXED[#MIXED + 1] = zone
    end
  end
end
local START_HEALTH = data.start_health

local function start_health(g, p) g:set_counter("health", p, START_HEALTH) end

function game.setup(g)
  k:setup_supply(g, PILES)
  for i = 1, #MIXED do g:shuffle(MIXED[i], 0) end
  k:deal_all(g, data.start, start_health)
end

-- Asked after every turn, so the turn that takes a player's last health is played out.
-- Player 1 plays first, so the last player has had the fewest turns: once it has had
-- TURN_LIMIT, every player has.
function game.finished(g)
  local n = g:nplayers()
  for p = 1, n do
    if g:counter("health", p) <= 0 then return true end
  end
  return g:counter("turns", n) >= TURN_LIMIT
end

-- How it ended, in words for the end screen: who fell, or the turn limit.
function game.summary(g)
  local fallen = {}
  for p = 1, g:nplayers() do
    if g:counter("health", p) <= 0 then fallen[#fallen + 1] = g:player_name(p) end
  end
  if #fallen == 1 then return fallen[1] .. " was knocked out." end
  if #fallen > 1 then return "Both cavemen were knocked out." end
  return "The " .. TURN_LIMIT .. " turns were played."
end

-- Score = health left. Most health wins; equal health shares the rank (1 + the number of
-- players strictly ahead). Turns are reported but break no tie: Caveman is won by
-- surviving, and at the turn limit both players have had the same number of turns.
-- In one g call: the kit's results with the health counter as the points, no card's
-- printed points (no zones) and no tiebreak by turns.
local RESULTS = { zones = {}, counter = "health", tiebreak = false }

function game.results(g) return g:deck_results(k.kit, RESULTS) end

return game
