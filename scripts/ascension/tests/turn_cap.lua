-- ascension/tests/turn_cap.lua: the game declares a turn cap of its own (max_turns), which its
-- bots' games stay far below, so a match between players who never end it still ends.
local kit = require("deckbuilder.testkit")

return {
  test_game_declares_a_turn_cap_its_bot_games_stay_far_below = function(T)
    kit.check_turn_cap(T, require("ascension.game"), 4)
  end,
}
