-- Accession's bots are Dominion's, with their named forms (the kernel's cfg.bots): a bot
-- seat's turn asks those instead of building options, and they choose what the bot
-- chooses from the labelled options; a wrong named buy is refused with a clear error,
-- and a person still gets the labelled options.
local kit = require("deckbuilder.testkit")
local game = require("accession.game")
local k_named = require("dominion.bots").named

local tests = {}

-- The bot's labelled and named forms must choose the same at every decision of a match.
local function check_named_is_labelled(T, bot_name, seed)
  kit.check_named_is_labelled(T, {
    kernel = game.kernel, bot = game.bots[bot_name], named = k_named("accession")[bot_name],
    name = bot_name, seed = seed, max = 5000, min = 30, decision = kit.inline_decision,
    buy = function(named, k, g, p)
      return named.buy(k, g, p, g:counter("coins"), g:counter("turns", p))
    end,
  })
end

function tests.test_bots_name_the_action_and_buy_they_pick_from_the_options(T)
  T.ok(game.kernel.bots.default, "the kernel has the bots' named forms")
  check_named_is_labelled(T, "default", 3)
  check_named_is_labelled(T, "big_money", 4)
  check_named_is_labelled(T, "big_money_smithy", 5)
  check_named_is_labelled(T, "witch", 6)
end

function tests.test_bot_named_buy_outside_the_options_is_refused(T)
  local k = game.kernel
  local m = T.match(kit.match { bots = { false, "default" }, more = function(g)
    kit.set_hand(g, 2, { "Copper", "Copper", "Estate" })
  end })
  local ok, err = pcall(k.buy_phase, k, m.g, 2, { buy = function() return "Gold" end })
  T.ok(not ok and tostring(err):find("bot 'default' (player 2) named Gold, which it cannot "
                                     .. "buy", 1, true), tostring(err))
  ok, err = pcall(k.buy_phase, k, m.g, 2, { buy = function() return "Curse" end })
  T.ok(not ok and tostring(err):find("named Curse, which it cannot buy", 1, true),
       "no Curse pile in Accession: " .. tostring(err))
end

function tests.test_person_still_gets_the_labelled_options(T)
  local m = T.match(kit.match { hand = { "Copper", "Copper", "Copper", "Village" },
                                bots = { false, "default" } })
  T.eq(m.g:bot(1), nil)
  T.eq(m.g:bot(2), "default")
  T.eq(kit.labels(m), "Play Village,End actions")
  kit.pick(m, "End actions")
  T.eq(kit.labels(m), "Play all treasures,Play Copper,Buy Copper ($0),End turn")
  kit.pick(m, "Play all treasures")
  T.eq(kit.labels(m), "Buy Copper ($0),Buy Silver ($3),Buy Estate ($2),Buy Cellar ($2),"
       .. "Buy Moat ($2),Buy Village ($3),Buy Woodcutter ($3),Buy Workshop ($3),End turn")
end

return tests
