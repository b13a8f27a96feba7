-- dominion/game.lua: Dominion (base set, first edition, plus the second-edition cards) on
-- the deck-builder kernel.
--
-- The game table the engine loads (docs/SCRIPTING.md). Rules shared by deck-builders
-- live in deckbuilder/kernel.lua; what is Dominion's own is here: the supply, the
-- starting deck, and the end condition. Rule choices are written down in README.md.

local kernel = require("deckbuilder.kernel")
local gametable = require("deckbuilder.gametable")
local words = require("dominion.words")
local data = require("dominion.cards")
local kingdom = require("dominion.kingdom")
local bots = require("dominion.bots")
local memo = require("deckbuilder.memo")
local evaluate = require("deckbuilder.evaluate")

-- The bots' named forms: a bot seat's turn asks them instead of building options.
local named = bots.named("dominion")

-- The kernel over every card: set-up and tests use it.
local k = kernel.new { cards = data.cards, order = data.order, hand_size = 5, bots = named }

-- Turns use a kernel whose order holds only this match's 17 piles: the kernel walks its
-- order on every buy decision and after every turn, and 39 names instead of 17 cost a
-- third of a sim's speed. The kingdom is the hidden counter _kingdom (a bit set, see
-- kingdom.mask), so the choice is a pure function of the match state; the cache only
-- saves rebuilding constant data and is emptied when it grows (and by the engine when
-- memory is tight: it is a memo.cache, the one kind of module table matches may write).
local by_mask = memo.cache()
-- mask: the _kingdom counter when the caller read it already.
local function kernel_of(g, mask)
  mask = mask or g:counter("_kingdom")
  -- No kingdom recorded (a match set up before _kingdom existed): the full kernel.
  if mask == 0 then return k end
  local kk = by_mask[mask]
  if kk then return kk end
  if (by_mask.n or 0) >= 64 then memo.empty(by_mask) end
  kk = kernel.new { cards = data.cards, order = kingdom.order_of(data, mask), hand_size = 5,
                    bots = named }
  by_mask[mask], by_mask.n = kk, (by_mask.n or 0) + 1
  return kk
end

-- The turn cap, every seat's turns together: 100 turns each at four players. Bot games
-- take about 20 each; only players who never buy a Province or empty piles reach it.
local MAX_TURNS = 400

-- The kernel's zones plus "look": cards only their owner looks at (Sentry).
local game = gametable.new(k, { name = "dominion", max_players = 4, max_turns = MAX_TURNS,
                                zones = gametable.zones { look = "owner" },
                                bots = bots.make(kernel_of, "dominion") })
game.kernel_of = kernel_of
game.presentation = gametable.presentation {
  title = words.title, summary = words.summary,
  zones = { look = { kind = "hand", order = 4, label = "Looking at",
                     description = "Cards only you look at (Sentry)" } },
  type_colors = { Action = "#e4e0d6", Attack = "#e4e0d6", Reaction = "#8fb8de",
                   Treasure = "#f2d675", Victory = "#9fd39a", Curse = "#c39bd3" },
}
-- The search bot's evaluation hint (docs/SCRIPTING.md): points held and to come.
game.features = evaluate.features(kernel_of, "Province")
-- The search's play-outs run to the end: with the same 300 play-outs a decision against
-- Big Money they won 78.9% of 400 games, stopped after 8 turns and scored by the fitted
-- hint 76.6% (docs/BENCHMARKS.md, issue 28), for about a fifth more time a play-out.
game.search_depth = 0
-- As in Accession (accession/game.lua): the root's answers are compared by the default
-- bot's play-outs alone, no tree below them; only the bots' answers are compared (a
-- decision where they all agree costs no play-out, so the ones where they differ get
-- the budget), in worlds whose shuffles sort the cards by name first. The bots include
-- `greener` and `browner` (bots.lua), so the buys near the end are compared with the
-- greener and the browner one. On random kingdoms against `default` with the tree and
-- every option the search won 48.8-52.5% (at the worker's budget); with these switches,
-- at a fixed 200 play-outs a decision, 61.5% of 100 games, 64.0% with `greener` and
-- `browner` (docs/BENCHMARKS.md, issue 28, Dominion on random kingdoms).
-- Only the answers of bots.SEARCH are compared with `default`'s: not `generic` (the
-- dearest card whatever the score) nor the Big Money bots as they are, whose Provinces
-- choked a thin deck or ended the game behind, but the same bots checked as `default`
-- checks its buys, and the dearest card checked. At a fixed 40 play-outs it won as often
-- as with every bot (56.4% of the same 800 games) and spent a fifth fewer play-outs: the
-- other bots' discards and plays, where `generic` alone differed, are no longer searched
-- (docs/BENCHMARKS.md, issue 28, Dominion on random kingdoms, fifth round).
game.search_bots = bots.SEARCH
-- Its worlds are played out, and the other answers measured against, by `plan` (Big Money
-- with the kingdom's best-rated card, dominion/plan.lua), which beats `default` on random
-- kingdoms (docs/BENCHMARKS.md, issue 28, Dominion, sixth round); in the mirror with
-- `default` as its policy the search could gain only its candidates' few points.
game.search_playout = "plan"
game.search_tree = false
game.search_widen = false
game.search_sorted_shuffle = true
-- Fitted by `deckhand fit` to 4,000 self-play games (docs/BENCHMARKS.md, issue 28).
game.evaluate = evaluate.new(kernel_of, "Province",
                             { 0.1643, 0.3204, 0.8117, 0.0273, -0.1458, 0.2209 })
game.options = { kingdom.option(data) }

function game.setup(g)
  k:setup_supply(g, kingdom.piles(g, data))
  k:deal_all(g, data.start)
end

-- A draft is pending only while no kingdom is recorded (kingdom.draft records it and
-- ends the draft at once), so a match with a kingdom reads one counter here, not two.
function game.turn(g)
  local mask = g:counter("_kingdom")
  if mask == 0 and g:counter("_draft") ~= 0 then
    kingdom.draft(g, k, data)
    mask = nil
  end
  kernel_of(g, mask):turn(g)
end

-- Asked after every turn, so the game ends at the end of the turn that emptied the
-- Province pile or a third supply pile. The kernel over every card answers as the
-- match's own would (kernel_of): a pile of its order that the match does not use is
-- never counted empty (kernel:empty_piles), and it checks in C.
game.finished = k:pile_or_three_out_check("Province")
-- How it ended, in words for the end screen.
game.summary = k:pile_or_three_out_words("Province", "The Provinces ran out.")

return game
