-- Rules tests: every Dominion card, one behaviour per test.
local kit = require("deckbuilder.testkit")

-- A 2-player (or n-player) match whose first turn is player 1's with the given hand and
-- deck (deck listed top first). more(g) stacks anything else.
local function match(hand, deck, more, players)
  return kit.match { seed = 11, hand = hand, deck = deck, more = more, players = players }
end

local FIVE = kit.FIVE

local tests = {}

function tests.test_copper_silver_gold_give_one_two_three_coins(T)
  local m = T.match(match({ "Copper", "Silver", "Gold", "Estate", "Estate" }))
  kit.pick(m, "Play Copper")
  T.eq(m.g:counter("coins"), 1)
  kit.pick(m, "Play Silver")
  T.eq(m.g:counter("coins"), 3)
  kit.pick(m, "Play Gold")
  T.eq(m.g:counter("coins"), 6)
  T.eq(kit.names(m.g, "play", 1), "Copper,Silver,Gold")
end

function tests.test_victory_cards_and_curse_score_their_points(T)
  local m = T.match(match({ "Estate", "Duchy", "Province", "Curse", "Copper" }, FIVE,
                          function(g) kit.set_discard(g, 1, { "Estate" }) end))
  local k = require("dominion.game").kernel
  T.eq(k:score(m.g, 1), 1 + 3 + 6 - 1 + 1)
end

function tests.test_cellar_discards_then_draws_that_many(T)
  local m = T.match(match({ "Cellar", "Estate", "Estate", "Copper", "Copper" },
                          { "Gold", "Silver", "Duchy" }))
  kit.pick(m, "Play Cellar")
  local d = m:decision()
  T.eq(d.kind, "discard")
  T.eq(d.player, 1)
  T.eq(d.min, 0)
  T.eq(d.max, 4)
  kit.pick(m, { "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Copper,Gold,Silver")
  T.eq(kit.names(m.g, "discard", 1), "Estate,Estate")
  T.eq(kit.names(m.g, "deck", 1), "Duchy")
  T.eq(m.g:counter("actions"), 1)
end

function tests.test_cellar_discarding_nothing_draws_nothing(T)
  local m = T.match(match({ "Cellar", "Estate", "Copper" }, { "Gold" }))
  kit.pick(m, "Play Cellar")
  local ok = m:answer(1, {})
  T.ok(ok, "an empty discard is legal")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate")
  T.eq(m.g:count("deck", 1), 1)
end

function tests.test_cellar_reshuffles_discarded_cards_into_draw(T)
  local m = T.match(match({ "Cellar", "Estate", "Estate", "Estate", "Copper" }, { "Gold" }))
  kit.pick(m, "Play Cellar")
  kit.pick(m, { "Estate", "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate,Estate,Gold")
  T.eq(kit.names(m.g, "deck", 1), "Estate")
  T.eq(m.g:count("discard", 1), 0)
end

function tests.test_market_gives_card_action_buy_and_coin(T)
  local m = T.match(match({ "Market", "Copper", "Copper", "Copper", "Copper" }, { "Gold" }))
  kit.pick(m, "Play Market")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Copper,Copper,Copper,Gold")
  T.eq(m.g:counter("actions"), 1)
  T.eq(m.g:counter("buys"), 2)
  T.eq(m.g:counter("coins"), 1)
  T.eq(m:decision().kind, "buy")
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 8)
end

function tests.test_militia_gives_two_coins_and_others_discard_down_to_3(T)
  local m = T.match(match({ "Militia", "Copper", "Copper", "Copper", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, { "Copper", "Estate", "Silver", "Estate", "Copper" }) end))
  kit.pick(m, "Play Militia")
  T.eq(m.g:counter("coins"), 2)
  local d = m:decision()
  T.eq(d.player, 2)
  T.eq(d.kind, "discard")
  T.eq(d.prompt, "Militia: discard down to 3 cards")
  T.eq(d.min, 2)
  T.eq(d.max, 2)
  T.eq(kit.labels(m), "Copper,Estate,Silver,Estate,Copper")
  local ok, code = kit.answer(m, { "Estate" })
  T.ok(not ok, "discarding one card is not enough")
  T.eq(code, "ILLEGAL_CHOICE")
  kit.pick(m, { "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Copper,Silver")
  T.eq(kit.names(m.g, "discard", 2), "Estate,Estate")
  T.eq(m:decision().player, 1)
  T.eq(m:decision().kind, "buy")
end

function tests.test_militia_does_nothing_to_a_hand_of_three(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, { "Copper", "Estate", "Silver" }) end))
  kit.pick(m, "Play Militia")
  T.eq(m:decision().player, 1)
  T.eq(m:decision().kind, "buy")
  T.eq(m.g:count("hand", 2), 3)
end

function tests.test_militia_asks_each_victim_in_turn_order(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE, function(g)
    kit.set_hand(g, 2, FIVE)
    kit.set_hand(g, 3, FIVE)
    kit.set_hand(g, 4, FIVE)
  end, 4))
  kit.pick(m, "Play Militia")
  for p = 2, 4 do
    T.eq(m:decision().player, p, "victim order")
    kit.pick(m, { "Copper", "Copper" })
    T.eq(m.g:count("hand", p), 3)
  end
  T.eq(m:decision().player, 1)
end

function tests.test_militia_moat_blocks_discard(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, { "Moat", "Copper", "Copper", "Estate", "Estate" }) end))
  kit.pick(m, "Play Militia")
  local d = m:decision()
  T.eq(d.kind, "reveal")
  T.eq(kit.labels(m), "Reveal Moat,Don't reveal")
  kit.pick(m, "Reveal Moat")
  T.eq(m.g:count("hand", 2), 5)
  T.eq(m.g:count("discard", 2), 0)
  T.eq(m:decision().player, 1)
  T.ok(kit.saw(m, 1, m.g:player_name(2) .. " reveals Moat"))
  T.ok(kit.saw(m, 1, m.g:player_name(2) .. " is unaffected by Militia"))
end

function tests.test_militia_moat_not_revealed_still_discards(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, { "Moat", "Copper", "Copper", "Estate", "Estate" }) end))
  kit.pick(m, "Play Militia")
  kit.pick(m, "Don't reveal")
  T.eq(m:decision().player, 2)
  T.eq(m:decision().kind, "discard")
  kit.pick(m, { "Estate", "Estate" })
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Copper,Moat")
end

function tests.test_militia_asks_the_moat_holder_not_the_active_player(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, { "Moat", "Copper", "Copper", "Estate", "Estate" }) end))
  kit.pick(m, "Play Militia")
  local d = m:decision()
  T.eq(d.player, 2)
  local before = m:hash()
  local ok, code = m:answer(1, { 1 })
  T.ok(not ok, "the attacker cannot answer for the Moat holder")
  T.eq(code, "NOT_YOUR_TURN")
  T.eq(m:hash(), before)
  T.eq(m:decision().id, d.id)
end

function tests.test_moat_is_asked_once_however_many_are_in_hand(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, { "Moat", "Moat", "Copper", "Estate", "Estate" }) end))
  kit.pick(m, "Play Militia")
  kit.pick(m, "Don't reveal")
  T.eq(m:decision().kind, "discard", "no second question for the second Moat")
  T.eq(m:decision().player, 2)
end

function tests.test_moat_does_not_protect_from_its_owners_own_attack(T)
  local m = T.match(match({ "Militia", "Moat", "Copper" }, FIVE,
    function(g) kit.set_hand(g, 2, FIVE) end))
  kit.pick(m, "Play Militia")
  T.eq(m:decision().player, 2)
  T.eq(m:decision().kind, "discard")
end

function tests.test_moat_reactions_come_before_the_attack_resolves(T)
  local m = T.match(match({ "Militia", "Copper" }, FIVE, function(g)
    kit.set_hand(g, 2, FIVE)
    kit.set_hand(g, 3, { "Moat", "Copper", "Copper", "Copper", "Copper" })
  end, 3))
  kit.pick(m, "Play Militia")
  T.eq(m:decision().player, 3, "player 3 reacts before player 2 discards")
  T.eq(m:decision().kind, "reveal")
  kit.pick(m, "Reveal Moat")
  T.eq(m:decision().player, 2)
  T.eq(m:decision().kind, "discard")
  kit.pick(m, { "Copper", "Copper" })
  T.eq(m.g:count("hand", 3), 5)
  T.eq(m:decision().player, 1)
end

function tests.test_moat_draws_two_cards(T)
  local m = T.match(match({ "Moat", "Copper" }, { "Silver", "Gold", "Estate" }))
  kit.pick(m, "Play Moat")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Gold,Silver")
  T.eq(kit.names(m.g, "deck", 1), "Estate")
  T.eq(m.g:counter("actions"), 0)
end

function tests.test_mine_gains_treasure_into_hand(T)
  local m = T.match(match({ "Mine", "Copper", "Estate", "Silver" }))
  kit.pick(m, "Play Mine")
  T.eq(m:decision().kind, "trash")
  T.eq(kit.labels(m), "Copper,Silver")
  kit.pick(m, "Silver")
  T.eq(m:decision().kind, "gain")
  T.eq(kit.labels(m), "Copper ($0),Silver ($3),Gold ($6)")
  kit.pick(m, "Gold ($6)")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate,Gold")
  T.eq(kit.names(m.g, "trash", 0), "Silver")
  T.eq(m.g:count("supply:Gold", 0), 29)
  T.eq(m.g:count("discard", 1), 0)
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 4)
end

function tests.test_mine_without_treasure_does_nothing(T)
  local m = T.match(match({ "Mine", "Estate", "Estate" }))
  kit.pick(m, "Play Mine")
  T.eq(m:decision().kind, "buy")
  T.eq(m.g:count("trash", 0), 0)
  T.eq(kit.sorted(m.g, "hand", 1), "Estate,Estate")
end

function tests.test_remodel_trashes_and_gains_up_to_two_more(T)
  local m = T.match(match({ "Remodel", "Estate", "Gold", "Copper" }))
  kit.pick(m, "Play Remodel")
  T.eq(m:decision().kind, "trash")
  T.eq(kit.labels(m), "Estate,Gold,Copper")
  kit.pick(m, "Estate")
  T.eq(kit.names(m.g, "trash", 0), "Estate")
  T.eq(m:decision().kind, "gain")
  local labels = kit.labels(m)
  T.ok(labels:find("Smithy ($4)", 1, true), "a $4 card is offered")
  T.ok(not labels:find("Market", 1, true), "a $5 card is not offered")
  kit.pick(m, "Silver ($3)")
  T.eq(kit.names(m.g, "discard", 1), "Silver")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Gold")
end

function tests.test_remodel_gold_into_province(T)
  local m = T.match(match({ "Remodel", "Gold" }))
  kit.pick(m, "Play Remodel")
  kit.pick(m, "Gold")
  kit.pick(m, "Province ($8)")
  T.eq(kit.names(m.g, "discard", 1), "Province")
  T.eq(m.g:count("supply:Province", 0), 7)
end

function tests.test_smithy_draws_three_cards(T)
  local m = T.match(match({ "Smithy", "Copper", "Copper", "Copper", "Copper" },
                          { "Gold", "Silver", "Estate", "Duchy" }))
  T.eq(m:decision().kind, "action")
  T.eq(kit.labels(m), "Play Smithy,End actions")
  kit.pick(m, "Play Smithy")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Copper,Copper,Copper,Estate,Gold,Silver")
  T.eq(kit.names(m.g, "deck", 1), "Duchy")
  T.eq(kit.names(m.g, "play", 1), "Smithy")
  T.eq(m.g:counter("actions"), 0)
  T.eq(m:decision().kind, "buy")
end

function tests.test_village_gives_card_and_two_actions(T)
  local m = T.match(match({ "Village", "Smithy", "Copper" },
                          { "Gold", "Silver", "Estate", "Duchy", "Copper" }))
  kit.pick(m, "Play Village")
  T.eq(m.g:counter("actions"), 2)
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Gold,Smithy")
  T.eq(kit.labels(m), "Play Smithy,End actions")
  kit.pick(m, "Play Smithy")
  T.eq(m.g:counter("actions"), 1)
  T.eq(m.g:count("hand", 1), 5)
  T.eq(m:decision().kind, "buy")
end

function tests.test_woodcutter_gives_buy_and_two_coins(T)
  local m = T.match(match({ "Woodcutter", "Copper", "Copper", "Copper", "Copper" },
                          { "Estate", "Estate", "Estate", "Estate", "Estate" }))
  kit.pick(m, "Play Woodcutter")
  T.eq(m.g:counter("buys"), 2)
  T.eq(m.g:counter("coins"), 2)
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 6)
  kit.pick(m, "Buy Silver ($3)")
  kit.pick(m, "Buy Silver ($3)")
  T.eq(m.g:count("supply:Silver", 0), 38)
  T.eq(m:decision().player, 2, "no buys left ends the turn")
  T.eq(kit.sorted(m.g, "discard", 1), "Copper,Copper,Copper,Copper,Silver,Silver,Woodcutter")
end

function tests.test_workshop_gains_card_costing_up_to_four(T)
  local m = T.match(match({ "Workshop", "Copper" }))
  kit.pick(m, "Play Workshop")
  local d = m:decision()
  T.eq(d.kind, "gain")
  T.eq(d.player, 1)
  local labels = kit.labels(m)
  T.ok(labels:find("Smithy ($4)", 1, true), "a $4 card is offered")
  T.ok(not labels:find("Gold", 1, true), "a $6 card is not offered")
  T.ok(not labels:find("Market", 1, true), "a $5 card is not offered")
  kit.pick(m, "Smithy ($4)")
  T.eq(kit.names(m.g, "discard", 1), "Smithy")
  T.eq(m.g:count("supply:Smithy", 0), 9)
  T.eq(m.g:counter("coins"), 0)
end

return tests
