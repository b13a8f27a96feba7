-- Bots that name their choices (bots.named, the kernel's cfg.bots): the named choice is
-- the one the bot makes from the labelled options, a wrong one (the shuffled piles'
-- rule included) is refused with a clear error, and a person still gets the options.
local kit = require("deckbuilder.testkit")
local game = require("caveman.game")
local bots = require("caveman.bots")

local tests = {}

-- The pending decision as the bot is given it inline: the wire form has no `act`, which
-- the buy strategy reads on "Play all treasures".
local function bot_decision(m)
  local d = m:decision()
  for _, o in ipairs(d.options) do
    if o.label == "Play all treasures" then o.act = "all" end
  end
  return d
end

-- The bot's labelled and named forms must choose the same at every decision of a match.
local function check_named_is_labelled(T, bot_name, seed)
  kit.check_named_is_labelled(T, {
    kernel = game.kernel, bot = game.bots[bot_name], named = bots.named()[bot_name],
    name = bot_name, seed = seed, max = 3000, min = 50, decision = bot_decision,
    buy = function(named, k, g, p) return named.buy(k, g, p, g:counter("coins")) end,
  })
end

function tests.test_bots_name_the_action_and_buy_they_pick_from_the_options(T)
  check_named_is_labelled(T, "default", 3)
  check_named_is_labelled(T, "aggro", 4)
end

-- A named buy the options would not list (a card under a shuffled pile's top, a card it
-- cannot pay for) or a named Action not in hand stops the match with an error naming
-- the bot and the card.
function tests.test_bot_named_choice_outside_the_options_is_refused(T)
  local k = game.kernel
  local m = T.match(kit.match { bots = { false, "aggro" },
                                more = function(g) kit.set_hand(g, 2, { "Club", "Wood" }) end })
  local g = m.g
  local top = g:name(g:top("supply:Actions 5", 0))
  local under = top == "Prophet" and "Warrior" or "Prophet"
  local cases = {
    { under, "bot 'aggro' (player 2) named " .. under .. ", which it cannot buy" },
    { "Spear", "bot 'aggro' (player 2) named Spear, which it cannot buy" },
  }
  for _, c in ipairs(cases) do
    g:set_counter("coins", 0, 6)
    g:set_counter("buys", 0, 1)
    local named = { buy = function() return c[1] end }
    local ok, err = pcall(k.buy_phase, k, g, 2, named)
    T.ok(not ok, c[1] .. " is refused")
    T.ok(tostring(err):find(c[2], 1, true), tostring(err))
  end
  local ok, err = pcall(k.action_phase, k, g, 2, { action = function() return "Spear" end })
  T.ok(not ok and tostring(err):find("bot 'aggro' (player 2) named Spear, which it cannot "
                                     .. "play", 1, true), tostring(err))
end

function tests.test_person_still_gets_the_labelled_options(T)
  local m = T.match(kit.match { hand = { "Wood", "Bone", "Club" } })
  T.eq(m.g:bot(1), nil)
  T.eq(m:decision().kind, "action")
  T.eq(kit.labels(m), "Play Club,End actions")
  kit.pick(m, "End actions")
  T.eq(kit.labels(m), "Play all treasures,Play Wood,Play Bone,Buy Wood ($0),End turn")
end

return tests
