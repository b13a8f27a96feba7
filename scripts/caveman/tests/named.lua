-- Bots that name their choices (bots.named, game.lua's action and buy phases): the named
-- choice is the one the bot makes from the labelled options, a wrong one is refused with
-- a clear error, and a person still gets the labelled options.
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

-- What the named form says for the option the labelled bot picks.
local function named_of(o)
  if o.label == "Play all treasures" then return "all" end
  if o.label:sub(1, 4) == "Buy " then return o.name end
  if o.label:sub(1, 5) == "Play " then return o.card end
  return nil -- End actions, End turn
end

-- Plays a match of two people to its end, every answer the bot's from the labelled
-- options; at every action and buy decision the named form must choose the same.
local function check_named_is_labelled(T, bot_name, seed)
  local k, bot, named = game.kernel, game.bots[bot_name], bots.named()[bot_name]
  local m = T.match { players = 2, seed = seed }
  local compared = 0
  for _ = 1, 3000 do
    local d = m:decision()
    if not d then break end
    d = bot_decision(m)
    local pick = bot(m.g, d.player, d)
    if d.kind == "action" or d.kind == "buy" then
      local o = d.options[pick[1]]
      local got = named[d.kind](k, m.g, d.player)
      T.eq(got, named_of(o), bot_name .. ": " .. o.label)
      compared = compared + 1
    end
    local ids = {}
    for i = 1, #pick do ids[i] = d.options[pick[i]].id end
    T.ok(m:answer(d.player, ids))
  end
  T.ok(m:finished(), "the whole game compared")
  T.ok(compared > 50, "many decisions compared")
end

function tests.test_bots_name_the_action_and_buy_they_pick_from_the_options(T)
  check_named_is_labelled(T, "default", 3)
  check_named_is_labelled(T, "aggro", 4)
end

-- A named choice the options would not list (a card it cannot pay for, the card under a
-- shuffled pile's top, a card of no pile, a card not in hand) stops the match with an
-- error naming the bot and the choice.
function tests.test_bot_named_choice_outside_the_options_is_refused(T)
  local k = game.kernel
  local m = T.match(kit.match { hand = { "Wood", "Club" } })
  local g = m.g
  local top = g:name(g:top("supply:Actions 5", 0))
  local under = top == "Prophet" and "Warrior" or "Prophet"
  local function named(buy, action)
    return { buy = function() return buy end, action = function() return action end }
  end
  g:set_counter("coins", 0, 6)
  g:set_counter("_bought", 0, 1)
  local cases = {
    { "buys", named("Spear"), "bot default may not buy Spear" }, -- costs 10
    { "buys", named(under), "bot default may not buy " .. under }, -- not the top card
    { "buys", named("Dragon"), "bot default may not buy Dragon" },
    { "actions", named(nil, 1), "bot default may not play 1" }, -- a supply card
  }
  for _, c in ipairs(cases) do
    local ok, err = pcall(game.named_phases[c[1]], k, g, 1, "default", c[2])
    T.ok(not ok, c[3])
    T.ok(tostring(err):find(c[3], 1, true), tostring(err))
  end
  g:set_counter("buys", 0, 0)
  local ok, err = pcall(game.named_phases.buys, k, g, 1, "default", named("Wood"))
  T.ok(not ok and tostring(err):find("may not buy Wood", 1, true), "no buy left")
  -- "all" twice: the second time no Treasure is left in hand
  g:set_counter("_bought", 0, 0)
  ok, err = pcall(game.named_phases.buys, k, g, 1, "default", named("all"))
  T.ok(not ok and tostring(err):find("may not play all treasures", 1, true), tostring(err))
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
