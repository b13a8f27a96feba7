-- Evaluation hint tests (bots.evaluate, the search bot's game.evaluate): each hero gets a
-- value in 0..1, the two sum to 1, even sides get even values, and the side ahead on
-- health or on board material is favoured (boardkit/suites.lua's tests).
return require("boardkit.suites").evaluate {
  kit = require("elemental.testkit"), game = "elemental.game",
  even = { p1 = { hand = { "Fire Bolt" } }, p2 = { hand = { "Fire Bolt" } } },
  health = { { p1 = { health = 12 }, p2 = { health = 30 } }, 2, "18 health ahead", above = 0.7 },
  board = { { p1 = { board = { ["front 1"] = "Earthshaker Golem", ["front 2"] = "Root Warden" } } },
            1, "two minions to none" },
}
