-- Tests of the deck kit (docs/SCRIPTING.md, "The deck kit"): each g:deck_* call leaves
-- the match as the kernel's Lua leaves it (the same state hash, the same events, the
-- same answers), a named choice is checked by the rule that lists the options, and
-- people still get labelled options.
local kit = require("deckbuilder.testkit")
local kernel = require("deckbuilder.kernel")
local data = require("dominion.cards")
local deck = require("deckhand.deck")

local tests = {}

-- Runs f(g, k) on two equal matches (setup: their T.match setup), one with the Lua-only
-- kernel and one with the kit's, and checks that both end in the same state with the
-- same events and that f returned the same. Returns the kit's match and f's answer.
local function same_as_lua(T, setup, f)
  local lua_k, kit_k = kit.kernels(T, data, 5)
  local a = T.match { players = 2, seed = 3, setup = setup }
  local b = T.match { players = 2, seed = 3, setup = setup }
  local want, got = f(a.g, lua_k), f(b.g, kit_k)
  T.eq(b:hash(), a:hash(), "the same state")
  kit.check_same_events(T, b, a, 2)
  T.eq(got, want, "the same answer")
  return b, got
end

-- Drawn ids as card names (ids differ in nothing, but names read better).
local function drawn_names(g, ids)
  local t = {}
  for i, id in ipairs(ids) do t[i] = g:name(id) end
  return table.concat(t, ",")
end

function tests.test_kit_draw_reshuffles_exactly_when_the_deck_runs_out_like_the_lua_draw(T)
  local m, drawn = same_as_lua(T, function(g)
    kit.stack(g, 1, {}, { "Gold" }, { "Silver", "Duchy", "Estate", "Copper" })
  end, function(g, k) return drawn_names(g, k:draw(g, 1, 3)) end)
  T.eq(drawn:sub(1, 4), "Gold", "the deck's card first")
  T.eq(m.g:count("deck", 1), 2, "the rest of the shuffled discard")
  T.eq(m.g:count("discard", 1), 0)
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " shuffles"))
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " draws 3 cards"))
  T.ok(kit.saw_part(m, 1, "You draw Gold, "))
end

function tests.test_kit_draw_does_not_shuffle_while_the_deck_suffices(T)
  local m = same_as_lua(T, function(g)
    kit.stack(g, 1, {}, { "Gold", "Silver" }, { "Duchy" })
  end, function(g, k) return drawn_names(g, k:draw(g, 1, 2, true)) end)
  T.eq(kit.names(m.g, "discard", 1), "Duchy")
  T.ok(not kit.saw_part(m, 2, "shuffles"))
  T.ok(not kit.saw_part(m, 2, "draws"), "a quiet draw is told to the drawer only")
  T.ok(kit.saw(m, 1, "You draw Gold, Silver"))
end

function tests.test_kit_draw_short_of_cards_draws_what_exists_like_the_lua_draw(T)
  same_as_lua(T, function(g) kit.stack(g, 1, {}, { "Gold" }, {}) end,
              function(g, k) return drawn_names(g, k:draw(g, 1, 4)) end)
  same_as_lua(T, function(g) kit.stack(g, 1, {}, {}, {}) end,
              function(g, k) return #k:draw(g, 1, 1) end)
end

function tests.test_kit_cleanup_and_turn_start_match_the_lua_ones(T)
  same_as_lua(T, function(g)
    kit.stack(g, 1, { "Estate", "Copper" }, { "Gold", "Gold" }, { "Silver", "Curse" })
    g:move(g:top("hand", 1), "play", 1)
  end, function(g, k)
    k:cleanup(g, 1)
    k:start_turn(g, 2)
    return g:counter("turns", 2) * 100 + g:counter("actions") * 10 + g:counter("buys")
  end)
end

function tests.test_kit_active_names_the_active_player_and_its_bot_like_g_bot(T)
  local m = T.match { bots = { false, "big_money" } }
  local g, _, k = m.g, kit.kernels(T, data, 5)
  T.eq({ g:deck_active(k.kit) }, { 1 }, "a person: no bot")
  g:set_counter("active", 0, 2)
  T.eq({ g:deck_active(k.kit) }, { 2, g:bot(2) })
  T.eq(g:bot(2), "big_money")
end

function tests.test_kit_next_makes_the_next_seat_active_and_wraps_around(T)
  local m = T.match { players = 3 }
  local g, _, k = m.g, kit.kernels(T, data, 5)
  T.eq(g:deck_next(k.kit, 1), 2)
  T.eq(g:counter("active"), 2)
  T.eq(g:deck_next(k.kit, 3), 1, "after the last seat, the first")
  T.eq(g:counter("active"), 1)
end

function tests.test_kit_treasures_stop_at_a_treasure_with_a_hook_like_the_lua_ones(T)
  local m = same_as_lua(T, function(g)
    kit.set_hand(g, 1, { "Copper", "Silver", "Estate", "Copper", "Gold" })
    g:set_counter("_merchant", 0, 1) -- a Merchant played: the first Silver gives $1 more
  end, function(g, k)
    k:play_treasures(g, 1)
    return g:counter("coins")
  end)
  T.eq(m.g:counter("coins"), 1 + 2 + 1 + 1 + 3)
  T.eq(kit.names(m.g, "hand", 1), "Estate")
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " plays Copper, Silver, Copper, Gold"))
end

function tests.test_kit_buy_and_supply_match_the_lua_ones(T)
  local _, labels = same_as_lua(T, function(g)
    kit.set_hand(g, 1, { "Gold", "Silver" })
  end, function(g, k)
    k:play_treasures(g, 1)
    local opts = k:gain_options(g, g:counter("coins"), nil, "Buy ", "buy")
    local t = {}
    for i, o in ipairs(opts) do t[i] = o.label end
    k:buy(g, 1, "Duchy")
    return table.concat(t, ";")
  end)
  T.ok(labels:find("Buy Duchy ($5);", 1, true) and not labels:find("Province", 1, true),
       "$5 buys up to a Duchy")
end

-- The options as text: each one's label, card, name and cost.
local function options_text(opts)
  local t = {}
  for i, o in ipairs(opts) do
    t[i] = table.concat({ o.label, tostring(o.card), tostring(o.name), tostring(o.cost) }, "|")
  end
  return table.concat(t, ";")
end

function tests.test_kit_gain_options_of_a_few_piles_and_of_many_match_the_lua_ones(T)
  local not_copper = function(name) return name ~= "Copper" end
  local _, got = same_as_lua(T, function(g)
    kit.empty_pile(g, "Curse")
    kit.empty_pile(g, "Estate", 1)
  end, function(g, k)
    local t = {}
    for max = 0, 8 do
      t[#t + 1] = options_text(k:gain_options(g, max))
      t[#t + 1] = options_text(k:gain_options(g, max, not_copper, "Buy ", "buy"))
    end
    if k.kit then
      T.ok(k.few_piles[0] and not k.few_piles[8], "a few piles at $0, many at $8")
    end
    return table.concat(t, "\n")
  end)
  T.ok(got:find("Copper ($0)|", 1, true) and not got:find("Curse", 1, true),
       "an empty pile is not offered")
  T.ok(got:find("Buy Estate ($2)|", 1, true), "nor a pile's empty top: the last Estate is")
end

-- g:deck_supply_in writes what g:deck_supply returns into the caller's tables: the same
-- piles at 1..n, nil at n + 1 (whatever was there before), and n.
function tests.test_kit_supply_in_writes_deck_supplys_piles_into_the_callers_tables(T)
  local m = T.match { players = 2, seed = 3, setup = function(g) kit.empty_pile(g, "Curse") end }
  local g, k = m.g, require("dominion.game").kernel_of(m.g)
  local junk = {}
  for i = 1, 20 do junk[i] = "stale" end
  local names, costs, tops = { table.unpack(junk) }, { table.unpack(junk) }, { table.unpack(junk) }
  for _, max in ipairs({ 0, 3, 5, 8 }) do
    local want_names, want_costs, want_tops = g:deck_supply(k.kit, max)
    local n = g:deck_supply_in(k.kit, max, names, costs, tops)
    T.eq(n, #want_names, "$" .. max .. ": as many piles")
    for i = 1, n do
      T.eq({ names[i], costs[i], tops[i] }, { want_names[i], want_costs[i], want_tops[i] },
           "$" .. max .. ": pile " .. i)
    end
    T.ok(names[n + 1] == nil and costs[n + 1] == nil and tops[n + 1] == nil,
         "$" .. max .. ": the list ends at n + 1")
  end
end

function tests.test_kit_supply_in_refuses_a_read_only_table(T)
  local m = T.match { players = 2, seed = 3 }
  local k = require("dominion.game").kernel_of(m.g)
  local ok, err = pcall(m.g.deck_supply_in, m.g, k.kit, 8, data.order, {}, {})
  T.ok(not ok, "module state is read-only")
  T.ok(tostring(err):find("read", 1, true), tostring(err))
end

-- A push can reach a worker whose engine has g:deck_supply but not g:deck_supply_in: the
-- kernel's gain options are the same through either (g seen without the method, as that
-- engine's g would be).
function tests.test_gain_options_are_the_same_on_an_engine_without_supply_in(T)
  local m = T.match { players = 2, seed = 3,
                      setup = function(g) kit.empty_pile(g, "Estate", 1) end }
  local g, k = m.g, require("dominion.game").kernel_of(m.g)
  local older = setmetatable({}, { __index = function(_, key)
    if key == "deck_supply_in" then return nil end
    local v = g[key]
    if type(v) ~= "function" then return v end
    return function(_, ...) return v(g, ...) end
  end })
  T.ok(g.deck_supply_in and not older.deck_supply_in, "one g with the method, one without")
  for max = 0, 8 do
    T.eq(options_text(k:gain_options(older, max, nil, "Buy ", "buy")),
         options_text(k:gain_options(g, max, nil, "Buy ", "buy")), "$" .. max)
  end
end

-- The buy phase fills one options array for all its decisions (kernel:buy_phase): a
-- decision after a longer one lists what a fresh read lists, nothing left over from it.
function tests.test_a_buy_decision_shorter_than_the_last_keeps_nothing_of_it(T)
  local m = T.match { players = 2, seed = 5, setup = function(g)
    kit.set_hand(g, 1, { "Market", "Gold", "Gold", "Estate", "Estate" })
  end }
  local k = require("dominion.game").kernel_of(m.g)
  local function fresh()
    local t = {}
    for i, o in ipairs((k:buy_options(m.g, 1))) do t[i] = o.label end
    return table.concat(t, ",")
  end
  kit.pick(m, "Play Market")
  kit.pick(m, "Play all treasures")
  local long = kit.labels(m)
  T.eq(long, fresh(), "$7, two buys")
  kit.pick(m, "Buy Gold ($6)")
  local short = kit.labels(m)
  T.eq(short, fresh(), "$1, one buy")
  T.eq(short, "Buy Copper ($0),Buy Curse ($0),End turn")
  T.ok(#short < #long, "the second list is the shorter")
end

function tests.test_the_buy_decision_after_play_all_offers_what_a_fresh_read_offers(T)
  for _, hand in ipairs({ { "Silver", "Copper", "Estate" }, { "Estate", "Estate" },
                          { "Gold", "Silver", "Silver", "Copper" } }) do
    local m = T.match { players = 2, seed = 5, setup = function(g) kit.set_hand(g, 1, hand) end }
    local k = require("dominion.game").kernel_of(m.g)
    if hand[1] ~= "Estate" then kit.pick(m, "Play all treasures") end
    local opts, buys, coins = k:buy_options(m.g, 1)
    local want = {}
    for i, o in ipairs(opts) do want[i] = o.label end
    T.eq(kit.labels(m), table.concat(want, ","), table.concat(hand, ","))
    T.eq(m:decision().prompt, "Buy phase: $" .. coins .. ", " .. buys .. " buy")
  end
end

function tests.test_kit_empty_piles_match_the_lua_count(T)
  same_as_lua(T, function(g)
    kit.empty_pile(g, "Estate")
    kit.empty_pile(g, "Smithy")
    kit.empty_pile(g, "Province", 1)
  end, function(g, k)
    return { k:empty_piles(g), k:pile_or_three_out(g, "Province") }
  end)
end

function tests.test_kit_score_adds_vp_and_leaves_gardens_to_lua_like_the_lua_score(T)
  local _, scores = same_as_lua(T, function(g)
    kit.stack(g, 1, { "Estate", "Gardens" }, { "Province", "Curse", "Copper", "Copper" },
              { "Duchy", "Gardens" })
    g:new("Gold", "aside", 1)
    g:new("Estate", "play", 1)
  end, function(g, k) return { k:score(g, 1), k:score(g, 2) } end)
  T.eq(scores[1], 1 + 6 - 1 + 3 + 1 + 2, "vp, and 1 per Gardens for its 10 cards")
end

function tests.test_the_vp_refresh_sets_each_seat_its_score_gardens_too(T)
  local game = require("dominion.game")
  local m = T.match { players = 3, seed = 4, setup = function(g)
    kit.stack(g, 1, { "Estate", "Gardens" }, { "Province", "Curse", "Copper", "Copper",
              "Copper", "Copper", "Copper", "Copper", "Copper" }, { "Gardens" })
    kit.stack(g, 3, { "Duchy" }, { "Copper" }, {})
  end }
  local k = game.kernel
  game.refresh(m.g)
  for p = 1, 3 do T.eq(m.g:counter("vp", p), k:score(m.g, p), "seat " .. p) end
  T.eq(m.g:counter("vp", 1), 1 + 6 - 1 + 2, "two Gardens of 13 cards count 1 each")
  T.eq(m.g:counter("vp", 3), 3, "a Duchy")
  T.ok(k.kit and not rawget(k, "score"), "the kit's path, written out in the refresh")
end

function tests.test_kit_owned_counts_like_owned_and_owned_count(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Smithy" }, { "Militia", "Copper" }, { "Smithy" })
  end }
  local g, lua_k, k = m.g, kit.kernels(T, data, 5)
  k:gain(g, 1, "Smithy")
  k:gain(g, 1, "Moat")
  local names = { "Smithy", "Militia", "Moat" }
  local have, cards = g:deck_owned(k.kit, 1, names)
  local want = 0
  for _, name in ipairs(names) do want = want + lua_k:owned(g, 1, name) end
  T.eq(have, want, "the _own counters of the names")
  T.eq(cards, lua_k:owned_count(g, 1))
  T.eq(cards, k:owned_count(g, 1))
  T.eq(cards, 6)
end

function tests.test_kit_best_is_the_first_highest_ranked_pile_that_coins_buy(T)
  local m = T.match { setup = function(g) kit.empty_pile(g, "Gold") end }
  local g, _, k = m.g, kit.kernels(T, data, 5)
  local rank = { Gold = 9, Market = 5, Militia = 5, Silver = 1 }
  T.eq({ g:deck_best(k.kit, 6, rank) }, { "Militia", 5 },
       "Gold's pile is empty; of Militia ($4) and Market ($5), the first in the order")
  T.eq({ g:deck_best(k.kit, 3, rank) }, { "Silver", 1 })
  T.eq(g:deck_best(k.kit, 2, rank), nil, "nothing ranked costs $2 or less")
  local ok, err = pcall(g.deck_best, g, k.kit, 6, { Silver = "x" })
  T.ok(not ok and tostring(err):find("rank of Silver is not an integer", 1, true), tostring(err))
end

function tests.test_a_bot_named_buy_of_an_unaffordable_card_is_refused(T)
  local m = T.match { bots = { false, "big_money" }, setup = function(g)
    kit.set_hand(g, 2, { "Copper", "Copper", "Estate" })
  end }
  local _, k = kit.kernels(T, data, 5)
  local named = { buy = function() return "Province" end }
  local ok, err = pcall(k.buy_phase, k, m.g, 2, named)
  T.ok(not ok, "the buy is refused")
  T.ok(tostring(err):find("bot 'big_money' (player 2) named Province, which it cannot buy: "
                          .. "it costs $8 and $2 is left", 1, true), tostring(err))
end

function tests.test_a_named_buy_without_a_pile_or_a_buy_is_refused(T)
  local m = T.match {}
  local _, k = kit.kernels(T, data, 5)
  local g = m.g
  local ok, err = pcall(g.deck_buy, g, k.kit, 1, "Dragon")
  T.ok(not ok and tostring(err):find("player 1 cannot buy Dragon: it has no pile", 1, true),
       tostring(err))
  g:set_counter("buys", 0, 0)
  ok, err = pcall(g.deck_buy, g, k.kit, 1, "Copper")
  T.ok(not ok and tostring(err):find("no buy is left", 1, true), tostring(err))
  g:set_counter("buys", 0, 1)
  kit.empty_pile(g, "Copper")
  ok, err = pcall(g.deck_buy, g, k.kit, 1, "Copper")
  T.ok(not ok and tostring(err):find("its pile is empty", 1, true), tostring(err))
end

function tests.test_a_bot_named_action_not_in_hand_is_refused(T)
  local m = T.match { bots = { false, "default" }, setup = function(g)
    kit.set_hand(g, 2, { "Village", "Copper" })
  end }
  local g, _, k = m.g, kit.kernels(T, data, 5)
  local ok, err = pcall(g.deck_play, g, k.kit, 2, "Smithy")
  T.ok(not ok and tostring(err):find("bot 'default' (player 2) named Smithy, which it cannot "
                                     .. "play: there is none in hand", 1, true), tostring(err))
  ok, err = pcall(g.deck_play, g, k.kit, 2, "Copper")
  T.ok(not ok and tostring(err):find("it is not an Action card", 1, true), tostring(err))
  g:set_counter("actions", 0, 0)
  ok, err = pcall(g.deck_play, g, k.kit, 2, "Village")
  T.ok(not ok and tostring(err):find("no action is left", 1, true), tostring(err))
end

function tests.test_kit_actions_offers_each_action_kind_in_hand_once_like_hand_kinds(T)
  local m = T.match { setup = function(g)
    kit.set_hand(g, 1, { "Smithy", "Copper", "Village", "Smithy", "Moat" })
  end }
  local g, lua_k, k = m.g, kit.kernels(T, data, 5)
  local _, want = lua_k:hand_kinds(g, 1, "Action")
  T.eq(g:deck_actions(k.kit, 1), want)
  T.eq(want, { "Smithy", "Village", "Moat" })
  g:set_counter("actions", 0, 0)
  T.eq(g:deck_actions(k.kit, 1), nil, "no action left: nothing to offer")
  g:set_counter("actions", 0, 1)
  kit.set_hand(g, 1, { "Copper", "Estate" })
  T.eq(g:deck_actions(k.kit, 1), nil, "no Action in hand: nothing to offer")
end

function tests.test_a_named_action_plays_the_first_of_its_name_and_resolves_it(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Village", "Copper", "Village" }, { "Gold", "Gold" })
  end }
  local g, _, k = m.g, kit.kernels(T, data, 5)
  local first = g:list("hand", 1)[1]
  local played = g:deck_play(k.kit, 1, "Village")
  T.eq(played, first, "the first Village from the bottom, the one its option names")
  k:resolve(g, 1, played)
  T.eq(g:counter("actions"), 2, "one spent, two gained")
  T.eq(kit.sorted(g, "hand", 1), "Copper,Gold,Village")
  T.ok(kit.saw(m, 2, g:player_name(1) .. " plays Village"))
end

function tests.test_a_human_seat_still_gets_labelled_buy_options(T)
  local m = T.match { bots = { false, "big_money_plain" }, setup = function(g)
    kit.set_hand(g, 1, { "Silver", "Copper" })
  end }
  kit.pick(m, "Play all treasures")
  local labels = kit.labels(m)
  T.ok(labels:find("Buy Silver ($3)", 1, true), labels)
  T.ok(labels:find("End turn", 1, true), labels)
  kit.pick(m, "Buy Silver ($3)")
  T.eq(m:decision().player, 1, "the bot's turn needed no decision of its own")
  T.eq(m.g:counter("turns", 2), 1, "the bot played its turn by name")
end

function tests.test_bots_that_name_their_choices_finish_games_that_replay_alike(T)
  -- (That they choose what their option forms chose is what the sims' baseline hashes
  -- pin: every seed's game ends in the same state as before the named forms.)
  for _, bot in ipairs({ "default", "big_money", "big_money_plain", "big_money_smithy",
                         "witch" }) do
    kit.check_replays(T, { players = 2, seed = 7, bots = { bot, bot } })
  end
end

function tests.test_a_game_that_replaces_a_kit_method_keeps_the_lua_path(T)
  local k = kernel.new { cards = data.cards, order = data.order, hand_size = 5 }
  T.ok(k.kit, "a kit by default")
  k.draw = function() end
  T.eq(k.kit, false, "its own draw: no kit")
  local c = kernel.new { cards = data.cards, order = data.order, hand_size = 5 }
  c.cost = function() return 1 end
  T.eq(c.kit, false, "its own costs: no kit")
end

function tests.test_the_kit_reads_the_card_data_it_is_given(T)
  -- What a pushed bundle with a changed card gives: the kit is built from the scripts.
  local cards = { Copper = { cost = 0, types = { "Treasure" }, coins = 1 },
                  Silver = { cost = 3, types = { "Treasure" }, coins = 5 } }
  local k = deck.kit { cards = cards, order = { "Copper", "Silver" }, hand_size = 5 }
  local m = T.match { setup = function(g) kit.set_hand(g, 1, { "Silver", "Copper" }) end }
  local coins, buys, turns = m.g:deck_treasures(k, 1)
  T.eq({ coins, buys, turns }, { 6, 1, 1 }, "coins and buys left, player 1's first turn")
end

function tests.test_a_kit_of_bad_card_data_is_refused_when_it_is_built(T)
  local cards = { Copper = { cost = 0, types = { "Treasure" }, coins = 1 } }
  local ok, err = pcall(deck.kit, { cards = cards, order = { "Copper", "Silver" } })
  T.ok(not ok and tostring(err):find("deck kit: no card data for Silver", 1, true), tostring(err))
  cards.Gold = { cost = 6.5, types = { "Treasure" }, coins = 3 }
  ok, err = pcall(deck.kit, { cards = cards, order = { "Copper" } })
  T.ok(not ok and tostring(err):find("deck kit: Gold.cost must be an integer", 1, true),
       tostring(err))
end

function tests.test_a_kit_call_without_a_kit_is_refused(T)
  local m = T.match {}
  local ok, err = pcall(m.g.deck_draw, m.g, {}, 1, 1)
  T.ok(not ok and tostring(err):find("deck kit expected", 1, true), tostring(err))
  ok, err = pcall(m.g.deck_draw, m.g, m.g, 1, 1)
  T.ok(not ok and tostring(err):find("deck kit expected", 1, true), tostring(err))
end

return tests
