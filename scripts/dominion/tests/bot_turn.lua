-- Tests of a plan bot's turn in C (g:deck_bot_turn, docs/SCRIPTING.md "Bots"): it
-- leaves the match as the kernel's Lua turn with the bot's named form leaves it, it
-- plays nothing when something in the turn needs Lua, people never get it, and a plan
-- with bad data is refused when the kit is built.
local kit = require("deckbuilder.testkit")
local kernel = require("deckbuilder.kernel")
local data = require("dominion.cards")
local bots = require("dominion.bots")
local deck = require("deckhand.deck")
local game = require("dominion.game")

local tests = {}

-- The match's kernel (with plans) and the same kernel without them: its bots answer by
-- their named forms in Lua.
local function kernels(g)
  local k = game.kernel_of(g)
  local named = {}
  for name, forms in pairs(bots.named("dominion")) do
    named[name] = { action = forms.action, buy = forms.buy }
  end
  return k, kernel.new { cards = data.cards, order = k.order, hand_size = 5, bots = named }
end

-- Plays the same bot game twice, to its end: once with its kernel's turns in Lua (the
-- bots' named forms) and once with plan bots' turns in C, and checks that both end in
-- the same state with the same events. (A match of bots only is played out when it is
-- made; the match's kernel is found first from a match with the same kingdom.)
local function play_both(T, spec)
  local seats = spec.bots
  spec.bots = { false, false }
  local k = kernels(T.match(spec).g)
  spec.bots = seats
  T.eq(k.bot_turn, true, "the kernel gives plan bots their turn in C")
  k.bot_turn = false
  local a = T.match(spec)
  k.bot_turn = true
  local b = T.match(spec)
  T.ok(a:finished() and b:finished(), "the games end")
  T.eq(b:hash(), a:hash(), "the same final state")
  for p = 1, 2 do T.eq(kit.texts(b:events(p)), kit.texts(a:events(p)), "the same events") end
end

function tests.test_the_c_bot_turn_leaves_the_same_state_and_events_as_the_lua_turn(T)
  for seed = 1, 3 do
    play_both(T, { players = 2, seed = seed, bots = { "big_money", "big_money_plain" } })
  end
end

function tests.test_the_c_bot_turn_buys_the_dearest_card_past_the_stall_turns_like_lua(T)
  play_both(T, { players = 2, seed = 4, bots = { "big_money", "big_money" },
    setup = function(g)
      g:set_counter("turns", 1, 61)
      g:set_counter("turns", 2, 61)
    end })
end

-- A match whose seat 1 is a person (so it waits for them) and seat 2 the bot, made the
-- active player with the given hand.
local function bot_to_move(T, hand, options)
  local m = T.match { bots = { false, "big_money" }, options = options,
                      setup = function(g) kit.set_hand(g, 2, hand) end }
  m.g:set_counter("active", 0, 2)
  return m, m.g, kernels(m.g)
end

function tests.test_the_c_bot_turn_falls_back_to_lua_when_an_action_is_in_hand(T)
  local m, g, k = bot_to_move(T, { "Smithy", "Copper", "Copper" })
  local before = m:hash()
  T.eq({ g:deck_bot_turn(k.kit) }, { 2, "big_money" }, "the player and the bot, for Lua")
  T.eq(m:hash(), before, "nothing changed")
  kit.set_hand(g, 2, { "Copper", "Silver", "Estate" })
  T.eq({ g:deck_bot_turn(k.kit) }, {}, "without the Action, the turn is played in C")
  T.eq(g:counter("active"), 1, "and the next player is active")
  T.eq(kit.names(g, "discard", 2), "Silver,Copper,Silver,Estate", "$3 bought a Silver")
end

function tests.test_the_c_bot_turn_falls_back_to_lua_for_a_treasure_with_a_hook(T)
  -- Merchant in the kingdom: its after_play makes Silver more than coins.
  local m, g, k = bot_to_move(T, { "Silver", "Copper" }, { kingdom = "Merchant,Smithy,"
    .. "Village,Market,Moat,Militia,Cellar,Chapel,Witch,Festival" })
  local before = m:hash()
  T.eq({ g:deck_bot_turn(k.kit) }, { 2, "big_money" })
  T.eq(m:hash(), before, "nothing changed")
end

function tests.test_a_kernel_with_an_on_turn_start_hook_plays_every_turn_in_lua(T)
  local order = { "Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse" }
  local cards = {}
  for name, def in pairs(data.cards) do cards[name] = def end
  cards.Hook = { cost = 2, types = { "Action" }, on_turn_start = function() end }
  order[#order + 1] = "Hook"
  local k = kernel.new { cards = cards, order = order, bots = bots.named("dominion") }
  T.eq(k.bot_turn, false, "no plans for its kit")
  local plain = kernel.new { cards = cards, order = { "Copper", "Silver" },
                             bots = bots.named("dominion") }
  T.eq(plain.bot_turn, true)
  plain.buy_phase = function() end
  T.eq(plain.bot_turn, false, "a game that replaces a phase plays it in Lua")
end

function tests.test_a_human_seat_never_takes_the_c_bot_turn(T)
  local m, g, k = bot_to_move(T, { "Copper" })
  g:set_counter("active", 0, 1)
  kit.set_hand(g, 1, { "Copper", "Gold" })
  local before = m:hash()
  T.eq({ g:deck_bot_turn(k.kit) }, { 1 }, "the player and no bot: the labelled options")
  T.eq(m:hash(), before, "nothing changed")
end

function tests.test_the_end_check_in_c_answers_as_the_kernels_lua_check(T)
  local cases = {
    { {}, false },
    { { "Estate", "Copper" }, false, "two piles out" },
    { { "Estate", "Copper", "Silver" }, true, "three piles out" },
    { { "Province" }, true, "the Provinces out" },
  }
  for _, case in ipairs(cases) do
    local m = T.match { setup = function(g)
      for _, name in ipairs(case[1]) do kit.empty_pile(g, name) end
    end }
    local g = m.g
    local lua_k = kernel.new { cards = data.cards, order = game.kernel_of(g).order, kit = false }
    T.eq(lua_k:pile_or_three_out(g, "Province"), case[2], case[3])
    T.eq(game.finished(g), case[2], "the C check, over every card's piles")
    T.eq(lua_k:pile_or_three_out_check("Province")(g), case[2], "the Lua form")
  end
  local ok, err = pcall(deck.ends, game.kernel_of(T.match {}.g).kit, "Dragon", 3)
  T.ok(not ok and tostring(err):find("Dragon has no pile", 1, true), tostring(err))
end

local function kit_with(plans)
  return pcall(deck.kit, { cards = data.cards, order = { "Copper", "Silver", "Province" },
                           plans = plans })
end

function tests.test_a_plan_with_bad_data_is_refused_at_load_with_a_clear_error(T)
  local bad = {
    { { buys = { { coins = "8", "Province" } } }, "buys[1].coins must be an integer" },
    { { buys = { { coins = 8, "Provnce" } } }, "buys[1] names Provnce, which is no card" },
    { { buys = { { coins = 8, pile_at_mots = { "Province", 4 }, "Province" } } },
      "buys[1] has an unknown field pile_at_mots" },
    { { buys = { { coins = 8, pile_at_most = { "Province" }, "Province" } } },
      "buys[1].pile_at_most must be { card, integer }" },
    { { buys = { { coins = 8 } } }, "buys[1] must name 1 to 4 cards" },
    { { stall = { never = { "Curse" } }, buys = { { coins = 8, "Province" } } },
      "stall.after must be an integer" },
    { {}, "buys is missing" },
  }
  for _, case in ipairs(bad) do
    local ok, err = kit_with { big_money = case[1] }
    T.ok(not ok, case[2])
    T.ok(tostring(err):find("deck plan for bot 'big_money': " .. case[2], 1, true),
         tostring(err))
  end
  local good = { coins = 8, owns_fewer = { "Silver", 2 }, "Province" }
  T.ok(kit_with { big_money = { stall = { after = 60, never = { "Curse" } }, buys = { good } } },
       "a good plan (never may name a card the game lacks)")
end

return tests
