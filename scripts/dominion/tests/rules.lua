-- Rules tests: set-up, the turn, drawing, the end of the game, scoring, decisions,
-- views and logs, and the bots.
local kit = require("deckbuilder.testkit")

local FIVE = kit.FIVE
-- The moves of a turn that ends the game with a bought Province, or buys a Cellar.
local BUY_PROVINCE = { "Play all treasures", "Buy Province ($8)" }
local BUY_CELLAR = { "Play all treasures", "Buy Cellar ($2)" }

local tests = {}

-- ---- set-up -----------------------------------------------------

function tests.test_supply_sizes_for_2_3_4_players(T)
  local expect = {
    [2] = { Copper = 46, Silver = 40, Gold = 30, Estate = 8, Duchy = 8, Province = 8,
            Curse = 10 },
    [3] = { Copper = 39, Silver = 40, Gold = 30, Estate = 12, Duchy = 12, Province = 12,
            Curse = 20 },
    [4] = { Copper = 32, Silver = 40, Gold = 30, Estate = 12, Duchy = 12, Province = 12,
            Curse = 30 },
  }
  local base = { "Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse" }
  for n = 2, 4 do
    local m = T.match { players = n, seed = n }
    for _, name in ipairs(base) do
      T.eq(m.g:count("supply:" .. name, 0), expect[n][name], n .. " players: " .. name)
    end
    T.eq(m.g:count("supply:Smithy", 0), 10, n .. " players: kingdom pile")
  end
end

function tests.test_default_kingdom_is_the_first_game_preset(T)
  local first = { "Cellar", "Market", "Militia", "Mine", "Moat",
                  "Remodel", "Smithy", "Village", "Woodcutter", "Workshop" }
  for _, options in ipairs({ {}, { kingdom = "first_game" } }) do
    local m = T.match { players = 2, options = options }
    for _, name in ipairs(first) do
      T.eq(m.g:count("supply:" .. name, 0), 10, name)
      T.eq(m.g:counter("_pile:" .. name), 1, name)
    end
    local k = require("dominion.game").kernel
    T.eq(#k:supply_names(m.g), 17)
  end
end

function tests.test_starting_deck_is_7_copper_3_estate_with_a_hand_of_5(T)
  local m = T.match { players = 3, seed = 5 }
  kit.check_start_deck(T, m, 5, { Copper = 7, Estate = 3 })
  for p = 1, 3 do
    T.eq(m.g:count("deck", p), 5)
    T.eq(m.g:count("discard", p), 0)
  end
end

function tests.test_first_turn_is_player_one_with_fresh_counters(T)
  local m = T.match { players = 2, setup = function(g) kit.stack(g, 1, FIVE) end }
  local d = m:decision()
  T.eq(d.player, 1)
  T.eq(d.kind, "buy")
  T.eq(m.g:counter("active"), 1)
  T.eq(m.g:counter("actions"), 1)
  T.eq(m.g:counter("buys"), 1)
  T.eq(m.g:counter("coins"), 0)
  T.eq(m.g:counter("turns", 1), 1)
  T.eq(m.g:counter("turns", 2), 0)
end

-- ---- the turn ------------------------------------------------

function tests.test_action_phase_is_skipped_without_actions_in_hand(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Copper", "Estate" }) end }
  T.eq(m:decision().kind, "buy")
end

function tests.test_end_actions_moves_to_the_buy_phase(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Smithy", "Copper" }) end }
  T.eq(m:decision().kind, "action")
  kit.pick(m, "End actions")
  T.eq(m:decision().kind, "buy")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Smithy")
end

function tests.test_playing_an_action_uses_the_action(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Smithy", "Smithy", "Copper" }) end }
  kit.pick(m, "Play Smithy")
  T.eq(m.g:counter("actions"), 0)
  T.eq(m:decision().kind, "buy", "no action left for the second Smithy")
  T.eq(kit.count_named(m.g, "hand", 1, "Smithy"), 1)
end

function tests.test_buy_phase_options(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Copper", "Copper", "Silver", "Estate", "Copper" })
  end }
  local d = m:decision()
  T.eq(d.kind, "buy")
  T.eq(d.player, 1)
  T.eq(kit.labels(m),
       "Play all treasures,Play Copper,Play Silver,Buy Copper ($0),Buy Curse ($0),End turn")
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 5)
  T.eq(kit.labels(m), "Buy Copper ($0),Buy Silver ($3),Buy Estate ($2),Buy Duchy ($5),"
       .. "Buy Curse ($0),Buy Cellar ($2),Buy Moat ($2),Buy Village ($3),Buy Woodcutter ($3),"
       .. "Buy Workshop ($3),Buy Militia ($4),Buy Remodel ($4),Buy Smithy ($4),"
       .. "Buy Market ($5),Buy Mine ($5),End turn")
  local opt = m:decision().options[2]
  T.eq(opt.label, "Buy Silver ($3)")
  T.ok(opt.card ~= nil and opt.card ~= 0, "a buy option names the pile's top card")
end

function tests.test_playing_one_treasure_keeps_the_others_in_hand(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Copper", "Silver", "Estate" }) end }
  kit.pick(m, "Play Silver")
  T.eq(m.g:counter("coins"), 2)
  T.eq(kit.names(m.g, "play", 1), "Silver")
  T.eq(kit.labels(m), "Play all treasures,Play Copper,Buy Copper ($0),Buy Estate ($2),"
       .. "Buy Curse ($0),Buy Cellar ($2),Buy Moat ($2),End turn")
end

function tests.test_buying_gains_to_discard_and_spends_coins_and_buys(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Gold", "Gold", "Copper" }) end }
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 7)
  kit.pick(m, "Buy Gold ($6)")
  T.eq(m.g:count("supply:Gold", 0), 29)
  T.eq(m:decision().player, 2, "the last buy ends the turn")
  T.eq(kit.sorted(m.g, "discard", 1), "Copper,Gold,Gold,Gold")
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " buys Gold"))
end

function tests.test_treasures_cannot_be_played_after_buying(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Woodcutter", "Copper", "Copper", "Copper", "Silver" })
  end }
  kit.pick(m, "Play Woodcutter")
  kit.pick(m, "Play Silver")
  kit.pick(m, "Buy Silver ($3)")
  T.eq(m.g:counter("coins"), 1)
  T.eq(m.g:counter("buys"), 1)
  local labels = kit.labels(m)
  T.ok(not labels:find("Play", 1, true), "no treasure play after a buy: " .. labels)
  T.eq(labels, "Buy Copper ($0),Buy Curse ($0),End turn")
end

function tests.test_cleanup_discards_play_and_hand_and_draws_five(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Smithy", "Copper", "Estate" }, { "Silver", "Silver", "Silver",
                  "Gold", "Gold", "Gold", "Gold", "Gold", "Duchy" })
  end }
  kit.pick(m, "Play Smithy")
  kit.pick(m, "End turn")
  T.eq(m.g:count("play", 1), 0)
  T.eq(kit.sorted(m.g, "discard", 1), "Copper,Estate,Silver,Silver,Silver,Smithy")
  T.eq(kit.sorted(m.g, "hand", 1), "Gold,Gold,Gold,Gold,Gold")
  T.eq(kit.names(m.g, "deck", 1), "Duchy")
  T.eq(m.g:counter("active"), 2)
end

function tests.test_turn_counter_per_player(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, FIVE); kit.stack(g, 2, FIVE) end }
  kit.pick(m, "End turn")
  T.eq(m.g:counter("turns", 1), 1)
  T.eq(m.g:counter("turns", 2), 1)
  T.eq(m:decision().player, 2)
  kit.pick(m, "End turn")
  T.eq(m.g:counter("turns", 1), 2)
  T.eq(m.g:counter("turns", 2), 1)
  T.eq(m:decision().player, 1)
end

-- ---- drawing ------------------------------------------------

function tests.test_draw_reshuffles_mid_draw(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Smithy" }, { "Gold" }, { "Silver", "Silver", "Silver" })
  end }
  kit.pick(m, "Play Smithy")
  T.eq(kit.sorted(m.g, "hand", 1), "Gold,Silver,Silver")
  T.eq(kit.names(m.g, "deck", 1), "Silver")
  T.eq(m.g:count("discard", 1), 0)
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " shuffles"))
end

function tests.test_draw_does_not_reshuffle_while_the_deck_suffices(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Smithy" }, { "Gold", "Gold", "Gold" }, { "Silver" })
  end }
  kit.pick(m, "Play Smithy")
  T.eq(kit.sorted(m.g, "hand", 1), "Gold,Gold,Gold")
  T.eq(m.g:count("deck", 1), 0)
  T.eq(kit.names(m.g, "discard", 1), "Silver")
end

function tests.test_draw_short_of_cards_draws_what_exists(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Smithy" }, { "Gold" }, {}) end }
  kit.pick(m, "Play Smithy")
  T.eq(kit.names(m.g, "hand", 1), "Gold")
  T.eq(m.g:count("deck", 1), 0)
end

function tests.test_draws_are_logged_privately(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Smithy" }, { "Gold", "Silver", "Duchy" })
  end }
  kit.pick(m, "Play Smithy")
  T.ok(kit.saw(m, 1, "You draw Gold, Silver, Duchy"))
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " plays Smithy"))
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " draws 3 cards"))
  T.ok(not kit.saw(m, 2, "You draw Gold, Silver, Duchy"), "others never see the drawn cards")
  T.ok(not kit.saw_part(m, 2, "Duchy"))
end

-- ---- decisions ------------------------------------------------

function tests.test_not_your_turn_changes_nothing(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, FIVE) end }
  local d = m:decision()
  local before = m:hash()
  local ok, code = m:answer(2, { 1 })
  T.ok(not ok)
  T.eq(code, "NOT_YOUR_TURN")
  T.eq(m:hash(), before)
  T.eq(m:decision().id, d.id)
  T.eq(m.g:counter("coins"), 0)
end

function tests.test_illegal_choice_changes_nothing(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, FIVE) end }
  local d = m:decision()
  local before = m:hash()
  local ok, code = m:answer(1, { #d.options + 1 })
  T.ok(not ok)
  T.eq(code, "ILLEGAL_CHOICE")
  ok, code = m:answer(1, { 1, 2 })
  T.ok(not ok, "two options where one is allowed")
  T.eq(code, "ILLEGAL_CHOICE")
  ok, code = m:answer(1, {})
  T.ok(not ok, "no option where one is required")
  T.eq(code, "ILLEGAL_CHOICE")
  T.eq(m:hash(), before)
  T.eq(m:decision().id, d.id)
end

function tests.test_illegal_choice_repeated_discard_option_is_refused(T)
  local m = T.match { setup = function(g)
    kit.stack(g, 1, { "Militia" })
    kit.set_hand(g, 2, FIVE)
  end }
  kit.pick(m, "Play Militia")
  local ok, code = m:answer(2, { 1, 1 })
  T.ok(not ok)
  T.eq(code, "ILLEGAL_CHOICE")
  T.eq(m.g:count("hand", 2), 5)
end

-- ---- the end of the game ----------------------------------------

function tests.test_game_ends_at_end_of_turn_when_provinces_run_out(T)
  local m = T.match { setup = function(g)
    kit.empty_pile(g, "Province", 1)
    kit.stack(g, 1, { "Market", "Gold", "Gold", "Gold", "Copper" }, { "Copper" })
  end }
  kit.pick(m, "Play Market")
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Province ($8)")
  T.eq(m.g:count("supply:Province", 0), 0)
  T.ok(not m:finished(), "the turn goes on")
  T.eq(m:decision().player, 1)
  T.eq(m:decision().kind, "buy")
  kit.pick(m, "Buy Silver ($3)")
  T.ok(m:finished(), "the game ends at the end of that turn")
  T.eq(m:decision(), nil)
end

function tests.test_three_empty_piles_end_game(T)
  local m = kit.play_out(T, { empty = { "Curse", "Estate", { "Cellar", 1 } },
                              stacks = { { { "Copper", "Copper" } } }, moves = BUY_CELLAR })
  T.ok(m:finished())
end

function tests.test_two_empty_piles_do_not_end_game(T)
  local m = kit.play_out(T, { empty = { "Curse", { "Cellar", 1 } },
                              stacks = { { { "Copper", "Copper" } } }, moves = BUY_CELLAR })
  T.ok(not m:finished())
  T.eq(m:decision().player, 2)
end

function tests.test_most_victory_points_wins(T)
  local m = kit.play_out(T, { empty = { { "Province", 1 } }, moves = BUY_PROVINCE,
    stacks = { { { "Gold", "Gold", "Gold" }, FIVE, { "Duchy" } },
               { FIVE, FIVE, { "Province" } } } })
  T.ok(m:finished())
  T.eq(kit.scores(m), "9,6")
  T.eq(kit.ranks(m), "1,2")
end

function tests.test_tie_fewer_turns_wins(T)
  local m = kit.play_out(T, { empty = { { "Province", 1 } }, moves = BUY_PROVINCE,
    stacks = { { { "Gold", "Gold", "Gold" } }, { FIVE, FIVE, { "Province" } } } })
  T.ok(m:finished())
  T.eq(kit.scores(m), "6,6")
  T.eq(kit.results_field(m, "turns"), "1,0")
  T.eq(kit.ranks(m), "2,1", "fewer turns wins the tie")
end

function tests.test_tie_with_equal_turns_is_a_shared_win(T)
  local m = kit.play_out(T, { empty = { { "Province", 1 } }, moves = { "End turn" },
    stacks = { { FIVE, FIVE, { "Province" } }, { { "Gold", "Gold", "Gold" } } } })
  T.eq(m:decision().player, 2)
  kit.pick(m, "Play all treasures")
  kit.pick(m, "Buy Province ($8)")
  T.ok(m:finished())
  T.eq(kit.scores(m), "6,6")
  T.eq(kit.ranks(m), "1,1")
end

-- ---- views ------------------------------------------------

function tests.test_views_hide_other_hands_and_deck_order(T)
  local m = T.match { setup = function(g) kit.stack(g, 1, { "Gold", "Silver", "Copper" }) end }
  local v2 = m:view(2)
  local hands = kit.zones_named(v2, "hand")
  T.eq(#hands, 2)
  local own, other = 0, 0
  for _, z in ipairs(hands) do
    if z.count == 3 then
      other = other + 1
      T.eq(#(z.cards or {}), 0, "player 2 sees no card of player 1's hand")
    else
      own = own + 1
      T.eq(#(z.cards or {}), z.count, "player 2 sees their own hand")
    end
  end
  T.eq(own, 1)
  T.eq(other, 1)
  for _, z in ipairs(kit.zones_named(v2, "deck")) do
    T.ok(z.count > 0)
    T.eq(#(z.cards or {}), 0, "no deck order in a view")
  end
  for _, z in ipairs(kit.zones_named(m:view(1), "deck")) do
    T.eq(#(z.cards or {}), 0, "not even the owner sees deck order")
  end
  for _, z in ipairs(kit.zones_named(v2, "supply:Province")) do
    T.eq(z.count, 8)
    T.eq(#(z.cards or {}), 1, "a supply pile shows its top card")
  end
end

-- ---- bots ------------------------------------------------

local check_finished = kit.check_finished

function tests.test_bots_play_a_whole_game_with_three_players(T)
  local m = T.match { players = 3, seed = 42,
                      bots = { "big_money", "big_money_smithy", "default" } }
  check_finished(T, m, 3)
end

function tests.test_default_bots_play_whole_games_with_2_and_4_players(T)
  kit.bot_games(T, { players = { 2, 4 }, seeds = { 1, 2, 3 }, bots = { "default" } })
end

function tests.test_big_money_buys_only_money_and_victory(T)
  local m = T.match { players = 2, seed = 9, bots = { "big_money", "big_money" } }
  T.ok(m:finished())
  local allowed = { Copper = true, Silver = true, Gold = true, Estate = true, Duchy = true,
                    Province = true }
  for p = 1, 2 do
    for _, z in ipairs({ "deck", "hand", "discard", "play" }) do
      for i = 1, m.g:count(z, p) do
        local name = m.g:name(m.g:at(z, p, i))
        T.ok(allowed[name], "big_money owns " .. name)
      end
    end
    T.ok(kit.count_named(m.g, { "discard", "deck", "hand" }, p, "Province") > 0
         or m:results()[p].rank > 1)
  end
end

local function owned(m, p, name)
  return require("dominion.game").kernel:owned(m.g, p, name)
end

function tests.test_big_money_buys_duchies_as_the_provinces_run_out(T)
  local duchies = 0
  for seed = 1, 5 do
    local m = T.match { players = 2, seed = seed, bots = { "big_money", "big_money" } }
    T.ok(m:finished())
    for p = 1, 2 do duchies = duchies + owned(m, p, "Duchy") end
  end
  T.ok(duchies > 0, "two big_money bots bought no Duchy in 5 games")
end

function tests.test_big_money_plain_never_buys_duchies_or_estates(T)
  for seed = 1, 5 do
    local m = T.match { players = 2, seed = seed,
                        bots = { "big_money_plain", "big_money_plain" } }
    T.ok(m:finished())
    for p = 1, 2 do
      T.eq(owned(m, p, "Duchy"), 0, "big_money_plain owns a Duchy")
      T.eq(owned(m, p, "Estate"), 3, "big_money_plain bought an Estate")
    end
  end
end

function tests.test_big_money_smithy_buys_a_smithy(T)
  local m = T.match { players = 2, seed = 3, bots = { "big_money_smithy", "big_money" } }
  T.ok(m:finished())
  local k = require("dominion.game").kernel
  local smithies = k:owned(m.g, 1, "Smithy")
  T.ok(smithies >= 1 and smithies <= 2, "owns " .. smithies .. " Smithies")
  T.eq(k:owned(m.g, 2, "Smithy"), 0)
end

function tests.test_a_bot_answers_for_its_seat_against_a_human(T)
  local m = T.match { players = 2, bots = { nil, "big_money" }, setup = function(g)
    kit.stack(g, 1, { "Militia" })
    kit.set_hand(g, 2, { "Estate", "Copper", "Estate", "Gold", "Silver" })
  end }
  kit.pick(m, "Play Militia")
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Gold,Silver", "the bot discards its Estates")
  T.eq(m:decision().player, 1)
end

function tests.test_same_seed_same_game(T)
  local a, b = kit.check_replays(T, { players = 3, seed = 77,
                                     bots = { "default", "big_money_smithy", "big_money" } })
  T.ok(a:finished() and b:finished())
  T.eq(kit.scores(a), kit.scores(b))
  T.eq(kit.results_field(a, "turns"), kit.results_field(b, "turns"))
end

function tests.test_a_human_victim_answers_a_bot_attacker(T)
  local m = T.match { players = 2, bots = { "default", nil }, setup = function(g)
    kit.stack(g, 1, { "Militia", "Copper", "Copper", "Copper", "Copper" })
    kit.set_hand(g, 2, { "Estate", "Copper", "Estate", "Gold", "Silver" })
  end }
  local d = m:decision()
  T.eq(d.player, 2)
  T.eq(d.kind, "discard")
  T.eq(d.prompt, "Militia: discard down to 3 cards")
  kit.pick(m, { "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Gold,Silver")
  T.eq(m.g:counter("turns", 1), 1)
end

return tests
