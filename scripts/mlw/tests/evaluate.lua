-- Evaluation hint tests (bots.evaluate, the search bot's game.evaluate): each wizard gets
-- a value in 0..1, the two sum to 1, even sides get even values, and the side ahead on
-- health or on monsters is favoured (boardkit/suites.lua's tests).
return require("boardkit.suites").evaluate {
  kit = require("mlw.testkit"), game = "mlw.game",
  even = {},
  health = { { p1 = { health = 20 }, p2 = { health = 6 } }, 1, "14 health ahead", above = 0.8 },
  board = { { p2 = { monsters = { "Goblin", "Goblin" } } }, 2, "two monsters to none" },
}
