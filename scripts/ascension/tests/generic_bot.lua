-- ascension/tests/generic_bot.lua: the deck-builder generic bot, which reads only the decisions
-- it is offered, plays ascension to the end.
local kit = require("deckbuilder.testkit")

return {
  test_generic_bot_finishes_games_from_the_offered_decisions = function(T)
    kit.check_generic_bot_finishes(T, 4)
  end,
}
