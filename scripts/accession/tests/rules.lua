-- Rules tests for Accession: every card, the supply, the end of the game, the bots.
-- The card handlers are Dominion's; these tests pin that Accession gets them.
local kit = require("deckbuilder.testkit")

local FIVE = kit.FIVE
-- The moves of a turn that ends the game with a bought Province, or buys a Cellar.
local BUY_PROVINCE = { "Play all treasures", "Buy Province ($8)" }
local BUY_CELLAR = { "Play all treasures", "Buy Cellar ($2)" }

local function match(hand, deck, more, players)
  return kit.match { hand = hand, deck = deck, more = more, players = players }
end

local tests = {}

-- ---- supply and start ---------------------------------------------------------------

function tests.test_supply_is_copper_60_silver_40_gold_30_victory_8_kingdom_10(T)
  local sizes = { Copper = 60, Silver = 40, Gold = 30, Estate = 8, Duchy = 8, Province = 8,
                  Cellar = 10, Market = 10, Militia = 10, Mine = 10, Moat = 10,
                  Remodel = 10, Smithy = 10, Village = 10, Woodcutter = 10, Workshop = 10 }
  for _, n in ipairs({ 2, 4 }) do
    local m = T.match { players = n }
    local k = require("accession.game").kernel
    T.eq(#k:supply_names(m.g), 16, "16 piles")
    for _, name in ipairs(k:supply_names(m.g)) do
      T.eq(m.g:count("supply:" .. name, 0), sizes[name], n .. " players: " .. name)
    end
  end
end

function tests.test_there_is_no_curse_pile(T)
  local m = T.match { players = 2 }
  T.eq(m.g:count("supply:Curse", 0), 0)
  T.eq(m.g:counter("_pile:Curse"), 0)
end

function tests.test_starting_deck_is_7_copper_3_estate_with_a_hand_of_5(T)
  local m = T.match { players = 2, seed = 5 }
  kit.check_start_deck(T, m, 5, { Copper = 7, Estate = 3 })
  for p = 1, 2 do T.eq(m.g:count("deck", p), 5) end
end

-- ---- base cards ------------------------------------------------------------------------

function tests.test_copper_silver_gold_give_one_two_three_coins(T)
  local m = T.match(match({ "Copper", "Silver", "Gold", "Estate" }))
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 6)
  T.eq(kit.names(m.g, "play", 1), "Copper,Silver,Gold")
end

function tests.test_estate_duchy_province_score_one_three_six(T)
  local m = T.match(match({ "Estate", "Duchy", "Province" }, FIVE))
  local k = require("accession.game").kernel
  T.eq(k:score(m.g, 1), 10)
end

function tests.test_treasures_cannot_be_played_after_a_buy(T)
  local m = T.match(match({ "Copper", "Copper", "Copper", "Silver" }))
  kit.pick(m, "Play Silver")
  kit.pick(m, "Buy Cellar ($2)")
  T.eq(m:decision().player, 2, "no buy left and no treasure playable: the turn ends")
end

-- ---- kingdom cards ----------------------------------------------------------------------

function tests.test_cellar_discards_then_draws_that_many(T)
  local m = T.match(match({ "Cellar", "Estate", "Estate", "Copper" }, { "Gold", "Silver" }))
  kit.pick(m, "Play Cellar")
  kit.pick(m, { "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Gold,Silver")
  T.eq(m.g:counter("actions"), 1)
end

function tests.test_moat_draws_two_and_blocks_militia(T)
  local m = T.match(match({ "Moat", "Estate" }, { "Silver", "Gold", "Copper" }))
  kit.pick(m, "Play Moat")
  T.eq(kit.sorted(m.g, "hand", 1), "Estate,Gold,Silver")
  m = T.match(match({ "Militia" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Moat", "Copper", "Copper", "Estate", "Estate" })
  end))
  kit.pick(m, "Play Militia")
  kit.pick(m, "Reveal Moat")
  T.eq(m.g:count("hand", 2), 5)
end

-- Cards that only give their +keywords: the hand and deck (top first) played from, the
-- hand after (sorted) and the turn's counters after.
local PLUS_CARDS = {
  { "Village", { "Village", "Copper" }, { "Gold" }, "Copper,Gold", actions = 2 },
  { "Woodcutter", { "Woodcutter", "Copper" }, FIVE, "Copper", buys = 2, coins = 2 },
  { "Smithy", { "Smithy" }, { "Gold", "Silver", "Estate", "Duchy" }, "Estate,Gold,Silver" },
  { "Market", { "Market" }, { "Gold" }, "Gold", actions = 1, buys = 2, coins = 1 },
}

function tests.test_village_woodcutter_smithy_market_give_their_plus_keywords(T)
  for _, c in ipairs(PLUS_CARDS) do
    local card, hand, deck, after = c[1], c[2], c[3], c[4]
    local m = T.match(match(hand, deck))
    kit.pick(m, "Play " .. card)
    T.eq(kit.sorted(m.g, "hand", 1), after, card .. ": hand")
    T.eq(m.g:counter("actions"), c.actions or 0, card .. ": actions")
    T.eq(m.g:counter("buys"), c.buys or 1, card .. ": buys")
    T.eq(m.g:counter("coins"), c.coins or 0, card .. ": coins")
  end
end

function tests.test_workshop_gains_a_card_costing_up_to_4(T)
  local m = T.match(match({ "Workshop", "Copper" }))
  kit.pick(m, "Play Workshop")
  T.eq(m:decision().kind, "gain")
  T.ok(not kit.labels(m):find("Market", 1, true), "no $5 card")
  kit.pick(m, "Smithy ($4)")
  T.eq(kit.names(m.g, "discard", 1), "Smithy")
  T.eq(m.g:count("supply:Smithy", 0), 9)
end

function tests.test_militia_gives_two_coins_and_others_discard_down_to_3(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Copper", "Estate", "Silver", "Estate", "Copper" })
  end))
  kit.pick(m, "Play Militia")
  T.eq(m.g:counter("coins"), 2)
  T.eq(m:decision().player, 2)
  T.eq(m:decision().min, 2)
  kit.pick(m, { "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Copper,Silver")
end

function tests.test_remodel_trashes_and_gains_up_to_two_more(T)
  local m = T.match(match({ "Remodel", "Gold" }))
  kit.pick(m, "Play Remodel")
  kit.pick(m, "Gold")
  kit.pick(m, "Province ($8)")
  T.eq(kit.names(m.g, "trash", 0), "Gold")
  T.eq(kit.names(m.g, "discard", 1), "Province")
end

function tests.test_mine_trades_a_treasure_up_into_hand(T)
  local m = T.match(match({ "Mine", "Silver", "Estate" }))
  kit.pick(m, "Play Mine")
  kit.pick(m, "Silver")
  kit.pick(m, "Gold ($6)")
  T.eq(kit.sorted(m.g, "hand", 1), "Estate,Gold")
  T.eq(kit.names(m.g, "trash", 0), "Silver")
end

-- ---- the end of the game -------------------------------------------------------------------

function tests.test_game_ends_when_provinces_run_out(T)
  local m = kit.play_out(T, { empty = { { "Province", 1 } }, moves = BUY_PROVINCE,
    stacks = { { { "Gold", "Gold", "Gold" } }, { FIVE, FIVE, { "Duchy" } } } })
  T.ok(m:finished())
  T.eq(kit.scores(m), "6,3")
  T.eq(kit.ranks(m), "1,2")
end

function tests.test_three_empty_supply_piles_of_any_kind_end_the_game(T)
  local m = kit.play_out(T, { empty = { "Estate", "Copper", { "Cellar", 1 } },
                              stacks = { { { "Copper", "Copper" } } }, moves = BUY_CELLAR })
  T.ok(m:finished())
end

function tests.test_two_empty_piles_do_not_end_the_game(T)
  local m = kit.play_out(T, { empty = { "Estate", { "Cellar", 1 } },
                              stacks = { { { "Copper", "Copper" } } }, moves = BUY_CELLAR })
  T.ok(not m:finished())
end

function tests.test_tie_goes_to_fewer_turns(T)
  local m = kit.play_out(T, { empty = { { "Province", 1 } }, moves = BUY_PROVINCE,
    stacks = { { { "Gold", "Gold", "Gold" } }, { FIVE, FIVE, { "Province" } } } })
  T.eq(kit.scores(m), "6,6")
  T.eq(kit.ranks(m), "2,1")
end

-- ---- bots ---------------------------------------------------------------------------------

function tests.test_bots_finish_games_with_2_to_4_players(T)
  for n = 2, 4 do
    kit.bot_games(T, { players = { n }, seeds = { n },
                       bots = { "default", "big_money", "big_money_smithy" } })
  end
end

return tests
