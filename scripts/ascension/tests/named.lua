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

-- What the named form chooses for p now, as game.lua asks it: the act and its card's id.
local function named_card(k, g, p, named)
  local hand = g:count("hand", p)
  local ids, names, runes, power, limit = R.turn_offer(g, k, p)
  local act, choice
  if hand > 0 then
    act, choice = named(k, g, p, hand)
  else
    act, choice = named(k, g, p, hand, ids, names, runes, power, limit)
  end
  return act, choice and ids[choice]
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
      local act, id = named_card(k, m.g, d.player, named)
      local want = act_of(o.label)
      T.eq(act, want, o.label)
      if want ~= "all" and want ~= "end" then T.eq(id, o.card, o.label) end
      turns = turns + 1
    end
    kit.answer_picked(T, m, pick)
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
  local act, id = named_card(game.kernel, m.g, 1, bots.named(game.kernel).default)
  T.eq(act, "free")
  T.eq(m.g:name(id), "Crypt Lurker")
end

-- A named choice outside the options (a card it cannot pay for, an index past the offer,
-- a card not in hand, an unknown act) stops the match with an error naming the bot and
-- the choice.
function tests.test_bot_named_turn_choice_outside_the_options_is_refused(T)
  local m = T.match(A.match { hand = { "Apprentice", "Apprentice" },
    row = { "Crypt Lurker", "Spiteful Gladiator", "Blind Seer" } })
  local g, k = m.g, game.kernel
  kit.pick(m, "Play all treasures")
  local function check(act, choice)
    return pcall(R.check, g, k, 1, "default", act, choice, g:count("hand", 1),
                 R.turn_offer(g, k, 1))
  end
  local cases = { -- offer: Mystic, Heavy Infantry, Cultist, Crypt Lurker, Gladiator, Seer
    { "buy", 5, "bot default may not buy Spiteful Gladiator" }, -- 3 runes, 2 to spend
    { "defeat", 4, "bot default may not defeat Crypt Lurker" }, -- 4 power, none
    { "free", 4, "bot default may not free Crypt Lurker" }, -- no Templar Outpost
    { "buy", 4, "bot default may not buy Crypt Lurker" }, -- a monster
    { "buy", 9, "bot default may not buy 9" }, -- past the offer
    { "play", g:top("deck", 1), "bot default may not play" }, -- not in hand
    { "play", 999999, "bot default may not play 999999" }, -- no such card
    { "all", nil, "bot default may not all" }, -- the hand is empty
    { "steal", 6, "bot default may not steal Blind Seer" },
  }
  for _, c in ipairs(cases) do
    local ok, err = check(c[1], c[2])
    T.ok(not ok, c[1] .. " is refused")
    T.ok(tostring(err):find(c[3], 1, true), tostring(err))
  end
  local ok, id = check("buy", 6)
  T.ok(ok, "Blind Seer is affordable")
  T.eq(id, g:top("row:3", 0), "the check gives the named card's id")
  T.ok(check("end"))
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
