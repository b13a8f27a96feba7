-- Evaluation hint tests (elemental/evaluate.lua, the search bot's game.evaluate): each hero gets a
-- value in 0..1, the two sum to 1, even sides get even values, and the side ahead on
-- health or on board material is favoured (boardkit/suites.lua's tests); a minion played
-- is worth more than the same card kept in hand.
local E = require("elemental.testkit")

local tests = require("boardkit.suites").evaluate {
  kit = E, game = "elemental.game",
  even = { p1 = { hand = { "Fire Bolt" } }, p2 = { hand = { "Fire Bolt" } } },
  health = { { p1 = { health = 12 }, p2 = { health = 30 } }, 2, "18 health ahead", above = 0.7 },
  board = { { p1 = { board = { ["front 1"] = "Earthshaker Golem", ["front 2"] = "Root Warden" } } },
            1, "two minions to none" },
}

-- The hint fitted on games against passive and random opponents too (game.lua): a card in
-- hand is not worth more than the smallest minion it makes (fitted on the policy's mirror
-- alone, a card in hand weighed 8 points of health, and the search kept its cards against
-- an opponent who never plays).
function tests.test_evaluate_values_a_minion_on_the_board_over_the_card_in_hand(T)
  local game = require("elemental.game")
  local played = game.evaluate(E.match(T, { p1 = { board = { ["front 1"] = "Ember Imp" } } }).g)
  local kept = game.evaluate(E.match(T, { p1 = { hand = { "Ember Imp" } } }).g)
  T.ok(played[1] > kept[1], "a 1/1 on the board " .. played[1] .. ", in hand " .. kept[1])
end

return tests
