-- Bot tests: every strategy plays whole games to the end on every pairing of the preset
-- decks; the default bot beats a passive opponent quickly; passive games end by the
-- empty deck before the turn cap.
local M = require("mlw.testkit")

local tests = {}

local DECKS = { "fire", "frost" }

local function finish(T, bots, options, seed)
  local m = T.match { players = 2, seed = seed, bots = bots, options = options }
  M.check_finished(T, m, 2)
  return m
end

function tests.test_default_bots_finish_every_pairing_of_preset_decks(T)
  for i, a in ipairs(DECKS) do
    for j, b in ipairs(DECKS) do
      finish(T, { "default", "default" }, "deck_1=" .. a .. ";deck_2=" .. b, i * 3 + j)
    end
  end
end

function tests.test_default_bot_beats_a_passive_opponent_by_its_turn_8(T)
  for seed = 1, 6 do
    local deck = DECKS[(seed - 1) % 2 + 1]
    local m = finish(T, { "default", "passive" }, "deck_1=" .. deck, seed)
    local r = m:results()
    T.eq(r[1].rank, 1, "seed " .. seed)
    T.ok(r[1].turns <= 8, deck .. " won by turn " .. r[1].turns)
  end
end

function tests.test_random_bots_finish_their_games(T)
  for seed = 1, 3 do finish(T, { "random", "random" }, nil, seed) end
end

function tests.test_passive_bots_end_by_the_empty_deck_before_the_turn_cap(T)
  local m = finish(T, { "passive", "passive" }, nil, 1)
  local r = m:results()
  T.ok(r[1].turns + r[2].turns < require("mlw.game").max_turns)
  T.eq(m.g:count("deck", 1) + m.g:count("deck", 2), 0)
end

function tests.test_passive_bot_never_plays_attacks_or_drains(T)
  local m = finish(T, { "default", "passive" }, nil, 2)
  T.eq(m.g:count("monsters", 2) + m.g:count("trap", 2), 0)
  T.eq(m.g:count("hand", 2) + m.g:count("deck", 2) + m.g:count("grave", 2), 40,
       "every card of P2 still in hand, deck, or lost to a full hand")
end

function tests.test_bots_never_surrender(T)
  for seed = 1, 3 do
    local m = finish(T, { "random", "default" }, nil, seed)
    T.eq(m.g:counter("surrendered", 1) + m.g:counter("surrendered", 2), 0)
  end
end

return tests
