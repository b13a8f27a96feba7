-- Rules tests: the seven second-edition kingdom cards (official second-edition rules).
local kit = require("deckbuilder.testkit")

local FIVE = kit.FIVE

-- A match on the given kingdom whose first turn is player 1's with the given hand and
-- deck (top first); more(g) stacks anything else.
local function match(kingdom, hand, deck, more, players)
  return kit.match { seed = 11, options = { kingdom = kingdom }, hand = hand, deck = deck,
                     more = more, players = players }
end

local tests = {}

-- ---- Artisan -------------------------------------------------------------------------------

function tests.test_artisan_gains_to_hand_then_puts_a_card_onto_the_deck(T)
  local m = T.match(match("Artisan,Market,Smithy", { "Artisan", "Copper", "Estate" },
                          { "Gold" }))
  kit.pick(m, "Play Artisan")
  local d = m:decision()
  T.eq(d.kind, "gain")
  T.ok(not kit.labels(m):find("Gold", 1, true), "a $6 card is not offered")
  kit.pick(m, "Market ($5)")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate,Market")
  d = m:decision()
  T.eq(d.kind, "topdeck")
  T.eq(d.min, 1)
  T.eq(kit.labels(m), "Copper,Estate,Market")
  kit.pick(m, "Estate")
  T.eq(kit.names(m.g, "deck", 1), "Gold,Estate")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Market")
  T.ok(kit.saw(m, 1, "You put Estate onto your deck"))
  T.ok(not kit.saw_part(m, 2, "Estate onto"), "the topdecked card stays private")
end

-- ---- Bandit --------------------------------------------------------------------------------

function tests.test_bandit_gains_gold_and_trashes_a_non_copper_treasure(T)
  local m = T.match(match("Bandit", { "Bandit" }, FIVE, function(g)
    kit.set_deck(g, 2, { "Silver", "Copper", "Estate" })
    kit.set_deck(g, 3, { "Copper", "Estate" })
    kit.set_discard(g, 2, {})
    kit.set_discard(g, 3, {})
  end, 3))
  kit.pick(m, "Play Bandit")
  T.eq(kit.names(m.g, "discard", 1), "Gold")
  T.eq(m.g:count("supply:Gold", 0), 29)
  T.eq(kit.names(m.g, "trash", 0), "Silver")
  T.eq(kit.names(m.g, "discard", 2), "Copper")
  T.eq(kit.names(m.g, "deck", 2), "Estate")
  T.eq(kit.sorted(m.g, "discard", 3), "Copper,Estate", "Copper is never trashed")
  T.eq(m:decision().player, 1)
end

function tests.test_bandit_victim_chooses_between_two_treasures(T)
  local m = T.match(match("Bandit", { "Bandit" }, FIVE, function(g)
    kit.set_deck(g, 2, { "Gold", "Silver" })
    kit.set_discard(g, 2, {})
  end))
  kit.pick(m, "Play Bandit")
  local d = m:decision()
  T.eq(d.player, 2)
  T.eq(d.kind, "trash")
  T.eq(kit.labels(m), "Gold,Silver")
  kit.pick(m, "Silver")
  T.eq(kit.names(m.g, "trash", 0), "Silver")
  T.eq(kit.names(m.g, "discard", 2), "Gold")
end

function tests.test_bandit_moat_blocks(T)
  local m = T.match(match("Bandit,Moat", { "Bandit" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Moat" })
    kit.set_deck(g, 2, { "Gold", "Silver" })
  end))
  kit.pick(m, "Play Bandit")
  kit.pick(m, "Reveal Moat")
  T.eq(m.g:count("trash", 0), 0)
  T.eq(kit.names(m.g, "deck", 2), "Silver,Gold")
  T.eq(kit.names(m.g, "discard", 1), "Gold", "the attacker still gains a Gold")
end

-- ---- Harbinger -----------------------------------------------------------------------------

function tests.test_harbinger_puts_a_card_from_the_discard_onto_the_deck(T)
  local m = T.match(match("Harbinger", { "Harbinger" }, { "Copper", "Estate" }, function(g)
    kit.set_discard(g, 1, { "Gold", "Estate", "Gold" })
  end))
  kit.pick(m, "Play Harbinger")
  T.eq(m.g:counter("actions"), 1)
  T.eq(kit.names(m.g, "hand", 1), "Copper")
  local d = m:decision()
  T.eq(d.kind, "topdeck")
  T.eq(d.min, 0)
  T.eq(kit.labels(m), "Gold,Estate", "one option per card name")
  kit.pick(m, "Gold")
  T.eq(kit.names(m.g, "deck", 1), "Estate,Gold")
  T.eq(kit.sorted(m.g, "discard", 1), "Estate,Gold")
end

function tests.test_harbinger_with_an_empty_discard_asks_nothing(T)
  local m = T.match(match("Harbinger", { "Harbinger" }, { "Copper", "Estate" }))
  kit.pick(m, "Play Harbinger")
  T.eq(m:decision().kind, "buy")
end

-- ---- Merchant ------------------------------------------------------------------------------

function tests.test_merchant_adds_a_coin_to_the_first_silver_only(T)
  local m = T.match(match("Merchant", { "Merchant", "Silver", "Silver", "Copper" },
                          { "Estate" }))
  kit.pick(m, "Play Merchant")
  T.eq(m.g:counter("actions"), 1)
  kit.pick(m, "Play Silver")
  T.eq(m.g:counter("coins"), 3)
  kit.pick(m, "Play Silver")
  T.eq(m.g:counter("coins"), 5, "the second Silver gives no bonus")
end

function tests.test_merchant_played_twice_adds_two_coins(T)
  local m = T.match(match("Merchant,Throne Room", { "Throne Room", "Merchant", "Silver" },
                          { "Estate", "Estate" }))
  kit.pick(m, "Play Throne Room")
  kit.pick(m, "Merchant")
  kit.pick(m, "Play all treasures")
  T.eq(m.g:counter("coins"), 4)
end

function tests.test_merchant_bonus_lasts_one_turn(T)
  local m = T.match(match("Merchant", { "Merchant" }, { "Estate" }, function(g)
    kit.set_hand(g, 2, { "Silver", "Copper" })
  end))
  kit.pick(m, "Play Merchant")
  kit.pick(m, "End turn")
  T.eq(m:decision().player, 2)
  kit.pick(m, "Play Silver")
  T.eq(m.g:counter("coins"), 2)
end

-- ---- Poacher -------------------------------------------------------------------------------

function tests.test_poacher_discards_a_card_per_empty_supply_pile(T)
  local m = T.match(match("Poacher,Smithy", { "Poacher", "Estate", "Copper", "Silver" },
                          { "Gold" }, function(g)
    kit.empty_pile(g, "Curse")
    kit.empty_pile(g, "Smithy")
  end))
  kit.pick(m, "Play Poacher")
  T.eq(m.g:counter("coins"), 1)
  T.eq(m.g:counter("actions"), 1)
  local d = m:decision()
  T.eq(d.kind, "discard")
  T.eq(d.min, 2)
  T.eq(d.max, 2)
  kit.pick(m, { "Estate", "Copper" })
  T.eq(kit.sorted(m.g, "hand", 1), "Gold,Silver")
end

function tests.test_poacher_without_empty_piles_discards_nothing(T)
  local m = T.match(match("Poacher", { "Poacher", "Estate" }, { "Gold" }))
  kit.pick(m, "Play Poacher")
  T.eq(m:decision().kind, "buy")
  T.eq(kit.sorted(m.g, "hand", 1), "Estate,Gold")
end

-- ---- Sentry --------------------------------------------------------------------------------

function tests.test_sentry_trashes_discards_and_puts_back(T)
  local m = T.match(match("Sentry", { "Sentry" }, { "Copper", "Estate", "Curse", "Gold" }))
  kit.pick(m, "Play Sentry")
  T.eq(kit.names(m.g, "hand", 1), "Copper")
  T.eq(m.g:counter("actions"), 1)
  local d = m:decision()
  T.eq(d.kind, "trash")
  T.eq(d.min, 0)
  T.eq(kit.labels(m), "Estate,Curse")
  T.eq(m.g:count("look", 1), 2)
  kit.pick(m, "Curse")
  T.eq(kit.names(m.g, "trash", 0), "Curse")
  T.eq(m:decision().kind, "discard")
  T.eq(kit.labels(m), "Estate")
  kit.pick(m, "Estate")
  T.eq(kit.names(m.g, "discard", 1), "Estate")
  T.eq(kit.names(m.g, "deck", 1), "Gold")
  T.eq(m.g:count("look", 1), 0)
end

function tests.test_sentry_puts_both_back_in_the_chosen_order(T)
  local m = T.match(match("Sentry", { "Sentry" }, { "Copper", "Silver", "Gold", "Estate" }))
  kit.pick(m, "Play Sentry")
  T.ok(m:answer(1, {}))
  T.ok(m:answer(1, {}))
  T.eq(m:decision().kind, "topdeck")
  T.eq(kit.labels(m), "Silver,Gold")
  kit.pick(m, "Silver")
  T.eq(kit.names(m.g, "deck", 1), "Estate,Gold,Silver", "Silver on top, then Gold")
end

function tests.test_sentry_keeps_its_cards_private(T)
  local m = T.match(match("Sentry", { "Sentry" }, { "Copper", "Province", "Duchy" }))
  kit.pick(m, "Play Sentry")
  T.ok(kit.saw(m, 1, "You look at Province, Duchy"))
  T.ok(not kit.saw_part(m, 2, "Province"))
  for _, z in ipairs(m:view(2).zones) do
    if z.name == "look" then T.eq(#(z.cards or {}), 0, "player 2 sees no looked-at card") end
  end
end

-- ---- Vassal --------------------------------------------------------------------------------

function tests.test_vassal_may_play_a_discarded_action(T)
  local m = T.match(match("Vassal,Smithy", { "Vassal" },
                          { "Smithy", "Copper", "Silver", "Gold", "Estate" }))
  kit.pick(m, "Play Vassal")
  T.eq(m.g:counter("coins"), 2)
  T.eq(kit.labels(m), "Play Smithy,Don't play")
  kit.pick(m, "Play Smithy")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Gold,Silver")
  T.eq(kit.names(m.g, "play", 1), "Vassal,Smithy")
  T.eq(m.g:count("discard", 1), 0)
  T.eq(m.g:counter("actions"), 0, "playing it used no action")
end

function tests.test_vassal_discards_a_non_action(T)
  local m = T.match(match("Vassal", { "Vassal" }, { "Gold", "Copper" }))
  kit.pick(m, "Play Vassal")
  T.eq(m:decision().kind, "buy")
  T.eq(kit.names(m.g, "discard", 1), "Gold")
  T.eq(kit.names(m.g, "deck", 1), "Copper")
end

function tests.test_vassal_may_leave_the_action_discarded(T)
  local m = T.match(match("Vassal,Smithy", { "Vassal" }, { "Smithy", "Copper" }))
  kit.pick(m, "Play Vassal")
  kit.pick(m, "Don't play")
  T.eq(kit.names(m.g, "discard", 1), "Smithy")
  T.eq(m.g:count("hand", 1), 0)
end

return tests
