-- Bot tests: every strategy plays whole games to the end on every pair of preset
-- decks; the default bot beats a passive opponent quickly; the turn cap is far above.
local E = require("elemental.testkit")

local tests = {}

local DECKS = { "earth", "wind", "fire" }

local function finish(T, bots, options, seed)
  local m = T.match { players = 2, seed = seed, bots = bots, options = options }
  E.check_finished(T, m, 2)
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
    local deck = DECKS[(seed - 1) % 3 + 1]
    local m = finish(T, { "default", "passive" }, "deck_1=" .. deck .. ";deck_2=earth", seed)
    local r = m:results()
    T.eq(r[1].rank, 1, "seed " .. seed)
    T.ok(r[1].turns <= 8, deck .. " won by turn " .. r[1].turns)
  end
end

function tests.test_random_bots_finish_their_games(T)
  for seed = 1, 3 do finish(T, { "random", "random" }, nil, seed) end
end

function tests.test_passive_bots_end_by_fatigue_before_the_turn_cap(T)
  local m = finish(T, { "passive", "passive" }, nil, 1)
  local r = m:results()
  T.ok(r[1].turns + r[2].turns < require("elemental.game").max_turns)
  T.ok(m.g:counter("fatigue", 1) > 0)
end

function tests.test_passive_bot_never_attacks_or_plays(T)
  local m = finish(T, { "default", "passive" }, nil, 2)
  T.eq(m.g:count("grave", 2) + m.g:count("hero", 2), 1 + 0, "nothing of P2's in the grave")
end

function tests.test_game_declares_a_turn_cap_its_bot_games_stay_far_below(T)
  local cap = require("elemental.game").max_turns
  T.ok(math.type(cap) == "integer" and cap < 2000, "a turn cap of its own")
  for _, bot in ipairs { "default", "random" } do
    for seed = 1, 3 do
      local r = finish(T, { bot, bot }, nil, seed):results()
      T.ok((r[1].turns + r[2].turns) * 2 <= cap, bot .. ": " .. (r[1].turns + r[2].turns))
    end
  end
end

function tests.test_default_bot_aims_damage_at_a_minion_it_kills(T)
  local m = E.match(T, { bots = { "default" }, options = "deck_1=fire",
    p1 = { hand = { "Fire Bolt" }, mana = 2 },
    p2 = { board = { ["front 1"] = "Root Warden", ["front 2"] = "Cinder Hound" } } })
  T.eq(m:decision().player, 2, "the bot's turn is over")
  T.eq(E.name_at(m, 2, "front 2"), "-", "the Cinder Hound (2 health) died")
  T.eq(E.stat(m, 2, "front 1", "health"), 3)
end

function tests.test_default_bot_trades_a_minion_that_survives_and_kills(T)
  local m = E.match(T, { bots = { "default" },
    p1 = { board = { ["front 1"] = "Earthshaker Golem" } },
    p2 = { board = { ["front 1"] = "Cinder Hound" } } })
  T.eq(E.name_at(m, 2, "front 1"), "-")
  T.eq(E.stat(m, 1, "front 1", "health"), 3)
end

function tests.test_labels_are_left_out_only_for_a_seat_a_bot_answers_inline(T)
  local m = E.match(T, { bots = { false, "default" },
    p1 = { hand = { "Fire Bolt" }, board = { ["front 1"] = "Zephyr Imp" } },
    p2 = { hand = { "Fire Bolt" }, board = { ["front 1"] = "Zephyr Imp" } } })
  local g, k = m.g, E.kernel()
  T.eq(g:labels(1), true, "seat 1 is a player")
  T.eq(g:labels(2), false, "seat 2 is the inline bot")
  T.ok(not pcall(g.labels, g, 3), "a player that does not exist")
  local function built(p) -- the options whose labels name pieces or cards
    local out = {}
    for _, o in ipairs(k:actions(g, p)) do
      if o.act == "play" or o.act == "attack" or o.act == "move" then out[#out + 1] = o end
    end
    return out
  end
  T.eq(built(1)[1].label, "Play Fire Bolt", "the player's options have labels")
  g:set_counter("active", 0, 2) -- as if seat 2's turn had come
  g:set_counter("mana", 2, 10)
  T.ok(#built(2) > 0)
  for _, o in ipairs(built(2)) do
    T.eq(o.label, nil, "none is built for the bot")
    T.ok(o.id ~= nil, "what the bot reads is there")
  end
end

function tests.test_same_seed_same_game(T)
  local a = T.match { players = 2, seed = 9, bots = { "default", "default" } }
  local b = T.match { players = 2, seed = 9, bots = { "default", "default" } }
  T.eq(a:hash(), b:hash())
end

return tests
