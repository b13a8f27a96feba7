-- Bots that name their turn choice (bots.named, game.lua): the named choice is the one
-- the bot makes from the labelled options, a wrong one is refused with a clear error,
-- and a person still gets the labelled options.
local kit = require("deckbuilder.testkit")
local A = require("ascension.testkit")
local R = require("ascension.rules")
local game = require("ascension.game")
local bots = require("ascension.bots")

local HI = "Heavy Infantry"

local tests = {}

-- The act of a labelled turn option, as the named form says it.
local function act_of(label)
  if label == "Play all treasures" then return "all" end
  if label == "End turn" then return "end" end
  if label:find("(free, ", 1, true) then return "free" end
  return label:match("^(%a+) "):lower()
end

-- Plays a match whose seats are people to its end (or max answers), every answer the
-- default bot's from the labelled options; at each turn decision its named choice must
-- be the same act on the same card.
local function check_named_is_labelled(T, players, seed, max)
  local k, bot, named = game.kernel, game.bots.default, bots.named(game.kernel).default
  local m = T.match { players = players, seed = seed }
  local turns = 0
  for _ = 1, max do
    local d = m:decision()
    if not d then break end
    local pick = bot(m.g, d.player, d)
    if d.kind == "buy" then
      local o = d.options[pick[1]]
      local act, id = named(k, m.g, d.player)
      local want = act_of(o.label)
      T.eq(act, want, o.label)
      if want ~= "all" and want ~= "end" then T.eq(id, o.card, o.label) end
      turns = turns + 1
    end
    local ids = {}
    for i = 1, #pick do ids[i] = d.options[pick[i]].id end
    T.ok(m:answer(d.player, ids))
  end
  T.ok(turns > 50, "many turn decisions compared")
  return m
end

function tests.test_default_bot_names_the_turn_choice_it_picks_from_the_options(T)
  local m = check_named_is_labelled(T, 2, 5, 2000)
  T.ok(m:finished(), "the whole game compared")
  check_named_is_labelled(T, 3, 6, 600)
end

function tests.test_default_bot_names_a_free_templar_outpost_defeat_first(T)
  local m = T.match(A.match { hand = { HI }, row = { "Crypt Lurker", "Cavern Horror" },
    more = function(g) A.add_construct(g, 1, "Templar Outpost") end })
  kit.pick(m, "Play all treasures")
  local act, id = bots.named(game.kernel).default(game.kernel, m.g, 1)
  T.eq(act, "free")
  T.eq(m.g:name(id), "Crypt Lurker")
end

-- A named choice outside the options (a card it cannot pay for, one not on offer, an
-- unknown act) stops the match with an error naming the bot and the choice.
function tests.test_bot_named_turn_choice_outside_the_options_is_refused(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice" },
    row = { "Crypt Lurker", "Spiteful Gladiator", "Blind Seer" } })
  local g, k = m.g, game.kernel
  kit.pick(m, "Play all treasures")
  local gladiator, lurker = g:top("row:2", 0), g:top("row:1", 0)
  local cases = {
    { "buy", gladiator }, -- 3 runes, 2 to spend
    { "defeat", lurker }, -- 4 power, none
    { "free", lurker }, -- no Templar Outpost
    { "buy", g:top("deck", 1) }, -- not on offer
    { "all" }, -- the hand is empty
    { "steal", gladiator },
  }
  for _, c in ipairs(cases) do
    local ok, err = pcall(R.check, g, k, 1, "default", c[1], c[2])
    T.ok(not ok, c[1] .. " is refused")
    T.ok(tostring(err):find("bot default may not " .. c[1], 1, true), tostring(err))
  end
  T.ok(pcall(R.check, g, k, 1, "default", "buy", g:top("row:3", 0)), "Blind Seer is affordable")
  T.ok(pcall(R.check, g, k, 1, "default", "end"))
end

function tests.test_person_still_gets_the_labelled_turn_options(T)
  local m = T.match(A.match { hand = { HI } })
  T.eq(m.g:bot(1), nil)
  T.eq(kit.labels(m), "Play all treasures,Play Heavy Infantry,End turn")
  local m2 = T.match(A.match { hand = { HI }, bots = { false, "default" } })
  T.eq(m2.g:bot(2), "default")
  T.eq(m2:decision().player, 1, "the person's turn waits for the person")
end

return tests
