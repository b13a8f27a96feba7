-- accession/game.lua: Accession (seed 004) on the deck-builder kernel.
--
-- Accession plays by Dominion's rules with a fixed First-Game kingdom and fixed pile
-- sizes, so this file is Dominion's game.lua with Accession's supply: the card
-- handlers come from dominion/cards.lua (via accession/cards.lua) and the bots from
-- dominion/bots.lua. Rule choices are written down in README.md.

local kernel = require("deckbuilder.kernel")
local gametable = require("deckbuilder.gametable")
local words = require("accession.words")
local data = require("accession.cards")
local bots = require("dominion.bots")
local evaluate = require("deckbuilder.evaluate")

-- The bots' named forms (Dominion's, and Accession's own `strong`, accession/bots.lua): a
-- bot seat's turn asks them instead of building options.
local k
local own = require("accession.bots")
local strong, strong_named = bots.custom(function() return k end, own.strong, own.strong_action)
-- The search's endgame candidates: they answer as `strong` until the end nears.
local greener = bots.custom(function() return k end, own.greener, own.strong_action)
local browner = bots.custom(function() return k end, own.browner, own.strong_action)
local named = bots.named("accession")
named.strong = strong_named
k = kernel.new { cards = data.cards, order = data.order, hand_size = 5, bots = named }

-- The turn cap, every seat's turns together: 100 turns each at four players, as Dominion.
local MAX_TURNS = 400

local game = gametable.new(k, { name = "accession", max_players = 4, max_turns = MAX_TURNS,
                                bots = bots.make(k, "accession") })
game.bots.strong = strong
game.bots.greener = greener
game.bots.browner = browner
game.presentation = gametable.presentation {
  title = words.title, summary = words.summary,
  type_colors = { Action = "#e4e0d6", Attack = "#e4e0d6", Reaction = "#8fb8de",
                   Treasure = "#f2d675", Victory = "#9fd39a", Curse = "#c39bd3" },
}

-- The search bot's evaluation hint (docs/SCRIPTING.md): points held and to come.
game.features = evaluate.features(function() return k end, "Province")
-- The search's play-outs run to the end: with the same 300 play-outs a decision against
-- the default bot they won 58.0% of 100 games, stopped after 8 turns and scored by the
-- fitted hint 47.5% (docs/BENCHMARKS.md, issue 28).
game.search_depth = 0
-- The search compares the root's answers by the default bot's play-outs alone, no tree
-- below them: the tree explored the seat's own later answers of the same turn (every buy,
-- Curse and Copper too) and so blurred the comparison it was there to sharpen; its
-- changes to the bot's answers were mostly playing one treasure before the others
-- (docs/BENCHMARKS.md, issue 28, Accession).
game.search_tree = false
-- Only the bots' answers are compared (a decision where they all agree, such as playing
-- the treasures, costs no play-out), in worlds whose shuffles sort the cards by name
-- first, so that two answers leaving the same cards share their decks.
game.search_widen = false
game.search_sorted_shuffle = true
-- Its worlds are played out, and the other answers measured against, by `strong`, which
-- beats `default` (52% of 20,000 games): in the mirror with `default` as its policy the
-- search could not (docs/BENCHMARKS.md, issue 28, Accession).
game.search_playout = "strong"
-- The answers compared with `strong`'s: only its endgame candidates'. Since `strong` buys a
-- second Militia and greens by its deck's money density (fifteenth round), the other bots'
-- answers (a Smithy or a Silver for that Militia, an early Province, the last Province
-- in a lost game) turned more of `hard`'s games against it than for it; without them `hard`
-- won more (docs/BENCHMARKS.md, issue 28, Accession, fifteenth round).
game.search_bots = { "greener", "browner" }
-- Among those three the search may depart on a looser bar than the engine's (`search_bar`:
-- the chance that an answer no better than `strong`'s is taken, 0.25 against 0.067):
-- 60.3% against `default` over 4,000 games, 0.49 points (se 0.32) above the engine's bar on
-- the same deals, 97.5 games turned for and 78.5 against (docs/BENCHMARKS.md, issue 28,
-- Accession, fifteenth round). With every bot's answer a candidate it had been level.
game.search_bar = 0.25
-- Fitted by `deckhand fit` to 2,000 self-play games (docs/BENCHMARKS.md, issue 28).
game.evaluate = evaluate.new(function() return k end, "Province",
                             { 0.1322, 0.4651, 0.9789, 0.004373, -0.136, -0.182 })

function game.setup(g)
  k:setup_supply(g, data.piles)
  k:deal_all(g, data.start)
end

-- Asked after every turn: the game ends at the end of the turn that emptied the
-- Province pile or a third supply pile (any piles, as the rules' "Game End" says).
game.finished = k:pile_or_three_out_check("Province")
-- How it ended, in words for the end screen.
game.summary = k:pile_or_three_out_words("Province", "The Provinces ran out.")

return game
