-- Rules tests: the kingdom cards beyond the First Game set (first edition), one behaviour
-- per test, including the interactions the rulebook FAQ spells out.
local kit = require("deckbuilder.testkit")

local FIVE = kit.FIVE

-- A match on the given kingdom (an option list) whose first turn is player 1's with the
-- given hand and deck (top first); more(g) stacks anything else.
local function match(kingdom, hand, deck, more, players)
  return kit.match { seed = 11, options = { kingdom = kingdom }, hand = hand, deck = deck,
                     more = more, players = players }
end

local function kernel() return require("dominion.game").kernel end

local tests = {}

-- ---- Chapel ----------------------------------------------------------------------------

function tests.test_chapel_trashes_up_to_four_cards(T)
  local m = T.match(match("Chapel", { "Chapel", "Estate", "Estate", "Copper", "Copper", "Silver" }))
  kit.pick(m, "Play Chapel")
  local d = m:decision()
  T.eq(d.kind, "trash")
  T.eq(d.min, 0)
  T.eq(d.max, 4)
  local ok = kit.answer(m, { "Estate", "Estate", "Copper", "Copper", "Silver" })
  T.ok(not ok, "five cards are too many")
  kit.pick(m, { "Estate", "Estate", "Copper", "Copper" })
  T.eq(kit.sorted(m.g, "trash", 0), "Copper,Copper,Estate,Estate")
  T.eq(kit.names(m.g, "hand", 1), "Silver")
  T.eq(kernel():owned(m.g, 1, "Estate"), 1, "only the third starting Estate is still owned")
end

function tests.test_chapel_may_trash_nothing(T)
  local m = T.match(match("Chapel", { "Chapel", "Estate" }))
  kit.pick(m, "Play Chapel")
  T.ok(m:answer(1, {}))
  T.eq(m.g:count("trash", 0), 0)
  T.eq(kit.names(m.g, "hand", 1), "Estate")
end

-- ---- Chancellor ------------------------------------------------------------------------

function tests.test_chancellor_puts_the_deck_into_the_discard_pile(T)
  local m = T.match(match("Chancellor", { "Chancellor", "Copper" }, { "Gold", "Estate", "Silver" }))
  kit.pick(m, "Play Chancellor")
  T.eq(m.g:counter("coins"), 2)
  T.eq(kit.labels(m), "Put deck into discard pile,Keep deck")
  kit.pick(m, "Put deck into discard pile")
  T.eq(m.g:count("deck", 1), 0)
  T.eq(kit.sorted(m.g, "discard", 1), "Estate,Gold,Silver")
  T.eq(m:decision().kind, "buy")
end

function tests.test_chancellor_may_keep_the_deck(T)
  local m = T.match(match("Chancellor", { "Chancellor" }, { "Gold", "Estate" }))
  kit.pick(m, "Play Chancellor")
  kit.pick(m, "Keep deck")
  T.eq(kit.names(m.g, "deck", 1), "Estate,Gold")
  T.eq(m.g:count("discard", 1), 0)
end

function tests.test_chancellor_with_an_empty_deck_asks_nothing(T)
  local m = T.match(match("Chancellor", { "Chancellor" }, {}))
  kit.pick(m, "Play Chancellor")
  T.eq(m:decision().kind, "buy")
  T.eq(m.g:counter("coins"), 2)
end

-- ---- Bureaucrat ------------------------------------------------------------------------

function tests.test_bureaucrat_gains_silver_onto_deck_and_victims_topdeck_a_victory_card(T)
  local m = T.match(match("Bureaucrat", { "Bureaucrat" }, { "Copper" }, function(g)
    kit.set_hand(g, 2, { "Copper", "Estate", "Duchy", "Copper", "Estate" })
    kit.set_deck(g, 2, { "Gold" })
  end))
  kit.pick(m, "Play Bureaucrat")
  T.eq(kit.names(m.g, "deck", 1), "Copper,Silver", "the Silver is on top")
  T.eq(m.g:count("supply:Silver", 0), 39)
  local d = m:decision()
  T.eq(d.player, 2)
  T.eq(d.kind, "topdeck")
  T.eq(kit.labels(m), "Estate,Duchy", "one option per Victory card name")
  kit.pick(m, "Duchy")
  T.eq(kit.names(m.g, "deck", 2), "Gold,Duchy")
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Copper,Estate,Estate")
  T.ok(kit.saw(m, 1, m.g:player_name(2) .. " reveals Duchy"))
end

function tests.test_bureaucrat_victim_without_victory_cards_reveals_hand(T)
  local m = T.match(match("Bureaucrat", { "Bureaucrat" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Copper", "Silver" })
  end))
  kit.pick(m, "Play Bureaucrat")
  T.eq(m:decision().player, 1)
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Silver")
  T.ok(kit.saw(m, 1, m.g:player_name(2) .. " reveals Copper, Silver"))
end

function tests.test_bureaucrat_with_one_victory_name_needs_no_question(T)
  local m = T.match(match("Bureaucrat", { "Bureaucrat" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Estate", "Copper", "Estate" })
    kit.set_deck(g, 2, {})
  end))
  kit.pick(m, "Play Bureaucrat")
  T.eq(m:decision().player, 1)
  T.eq(kit.names(m.g, "deck", 2), "Estate")
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Estate")
end

function tests.test_bureaucrat_moat_blocks(T)
  local m = T.match(match("Bureaucrat,Moat", { "Bureaucrat" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Moat", "Estate", "Copper" })
    kit.set_deck(g, 2, { "Gold" })
  end))
  kit.pick(m, "Play Bureaucrat")
  kit.pick(m, "Reveal Moat")
  T.eq(kit.sorted(m.g, "hand", 2), "Copper,Estate,Moat")
  T.eq(kit.names(m.g, "deck", 2), "Gold")
  T.eq(kit.names(m.g, "deck", 1), "Copper,Copper,Copper,Copper,Copper,Silver",
       "the attacker still gains the Silver")
end

-- ---- Feast -----------------------------------------------------------------------------

function tests.test_feast_trashes_itself_and_gains_up_to_five(T)
  local m = T.match(match("Feast,Market,Adventurer", { "Feast" }))
  kit.pick(m, "Play Feast")
  T.eq(kit.names(m.g, "trash", 0), "Feast")
  T.eq(m:decision().kind, "gain")
  local labels = kit.labels(m)
  T.ok(labels:find("Market ($5)", 1, true), "a $5 card is offered")
  T.ok(not labels:find("Adventurer", 1, true), "a $6 card is not")
  kit.pick(m, "Market ($5)")
  T.eq(kit.names(m.g, "discard", 1), "Market")
  T.eq(m.g:count("play", 1), 0)
end

-- ---- Gardens ---------------------------------------------------------------------------

function tests.test_gardens_scoring(T)
  local deck = {}
  for i = 1, 37 do deck[i] = "Copper" end
  local m = T.match(match("Gardens", { "Gardens", "Gardens" }, deck))
  local k = kernel()
  T.eq(k:owned_count(m.g, 1), 39)
  T.eq(k:score(m.g, 1), 6, "39 cards: each Gardens is worth 3")
  m.g:new("Estate", "discard", 1)
  T.eq(k:score(m.g, 1), 2 * 4 + 1, "40 cards: each Gardens is worth 4, plus the Estate")
end

function tests.test_gardens_pile_is_8_for_two_players_and_12_for_more(T)
  T.eq(T.match { players = 2, options = { kingdom = "Gardens" } }.g:count("supply:Gardens", 0), 8)
  T.eq(T.match { players = 3, options = { kingdom = "Gardens" } }.g:count("supply:Gardens", 0), 12)
  T.eq(T.match { players = 4, options = { kingdom = "Gardens" } }.g:count("supply:Gardens", 0), 12)
end

-- ---- Moneylender -----------------------------------------------------------------------

function tests.test_moneylender_trashes_a_copper_for_three_coins(T)
  local m = T.match(match("Moneylender", { "Moneylender", "Copper", "Copper", "Estate" }))
  kit.pick(m, "Play Moneylender")
  T.eq(kit.names(m.g, "trash", 0), "Copper")
  T.eq(m.g:counter("coins"), 3)
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate")
end

function tests.test_moneylender_without_copper_gives_nothing(T)
  local m = T.match(match("Moneylender", { "Moneylender", "Silver", "Estate" }))
  kit.pick(m, "Play Moneylender")
  T.eq(m.g:count("trash", 0), 0)
  T.eq(m.g:counter("coins"), 0)
end

-- ---- Spy -------------------------------------------------------------------------------

function tests.test_spy_reveals_every_top_card_and_its_player_chooses(T)
  local m = T.match(match("Spy", { "Spy" }, { "Copper", "Estate", "Silver" }, function(g)
    kit.set_deck(g, 2, { "Gold", "Copper" })
  end))
  kit.pick(m, "Play Spy")
  T.eq(m.g:counter("actions"), 1)
  T.eq(kit.names(m.g, "hand", 1), "Copper")
  local d = m:decision()
  T.eq(d.player, 1)
  T.eq(d.kind, "spy")
  T.eq(kit.labels(m), "Discard Estate,Put back Estate", "the Spy player's own card first")
  kit.pick(m, "Discard Estate")
  T.eq(kit.names(m.g, "discard", 1), "Estate")
  d = m:decision()
  T.eq(d.player, 1, "the Spy player decides for the victim too")
  T.eq(kit.labels(m), "Discard Gold,Put back Gold")
  kit.pick(m, "Discard Gold")
  T.eq(kit.names(m.g, "discard", 2), "Gold")
  T.eq(kit.names(m.g, "deck", 2), "Copper")
  T.eq(m:decision().kind, "buy")
end

function tests.test_spy_put_back_returns_the_card_on_top(T)
  local m = T.match(match("Spy", { "Spy" }, { "Copper", "Gold" }, function(g)
    kit.set_deck(g, 2, { "Estate", "Copper" })
  end))
  kit.pick(m, "Play Spy")
  kit.pick(m, "Put back Gold")
  kit.pick(m, "Put back Estate")
  T.eq(kit.names(m.g, "deck", 1), "Gold")
  T.eq(kit.names(m.g, "deck", 2), "Copper,Estate")
  T.eq(m.g:count("aside", 2), 0)
end

function tests.test_spy_moat_blocks(T)
  local m = T.match(match("Spy,Moat", { "Spy" }, { "Copper", "Estate" }, function(g)
    kit.set_hand(g, 2, { "Moat" })
    kit.set_deck(g, 2, { "Gold" })
  end))
  kit.pick(m, "Play Spy")
  kit.pick(m, "Discard Estate")
  T.eq(m:decision().kind, "reveal")
  kit.pick(m, "Reveal Moat")
  T.eq(m:decision().kind, "buy", "no question about player 2's card")
  T.eq(kit.names(m.g, "deck", 2), "Gold")
end

-- ---- Thief -----------------------------------------------------------------------------

function tests.test_thief_gains_a_trashed_gold(T)
  local m = T.match(match("Thief", { "Thief" }, FIVE, function(g)
    kit.set_deck(g, 2, { "Gold", "Estate", "Copper" })
  end))
  local k = kernel()
  local had1, had2 = k:owned(m.g, 1, "Gold"), k:owned(m.g, 2, "Gold")
  kit.pick(m, "Play Thief")
  T.eq(kit.names(m.g, "trash", 0), "Gold", "a single Treasure is trashed without a question")
  T.eq(kit.names(m.g, "discard", 2), "Estate")
  local d = m:decision()
  T.eq(d.player, 1)
  T.eq(d.kind, "gain")
  T.eq(d.min, 0)
  T.eq(kit.labels(m), "Gold")
  kit.pick(m, "Gold")
  T.eq(kit.names(m.g, "discard", 1), "Gold")
  T.eq(m.g:count("trash", 0), 0)
  T.eq(k:owned(m.g, 1, "Gold"), had1 + 1)
  T.eq(k:owned(m.g, 2, "Gold"), had2 - 1)
  T.eq(m.g:count("supply:Gold", 0), 30, "gained from the trash, not the supply")
end

function tests.test_thief_chooses_which_treasure_and_may_leave_it_trashed(T)
  local m = T.match(match("Thief", { "Thief" }, FIVE, function(g)
    kit.set_deck(g, 2, { "Copper", "Silver" })
    kit.set_deck(g, 3, { "Estate", "Duchy" })
  end, 3))
  kit.pick(m, "Play Thief")
  local d = m:decision()
  T.eq(d.player, 1, "the attacker chooses the victim's Treasure")
  T.eq(d.kind, "trash")
  T.eq(kit.labels(m), "Copper,Silver")
  kit.pick(m, "Copper")
  T.eq(kit.names(m.g, "discard", 2), "Silver")
  T.eq(kit.sorted(m.g, "discard", 3), "Duchy,Estate")
  T.ok(m:answer(1, {}), "gaining nothing is allowed")
  T.eq(kit.names(m.g, "trash", 0), "Copper")
end

function tests.test_thief_reshuffles_without_the_revealed_card(T)
  local m = T.match(match("Thief", { "Thief" }, FIVE, function(g)
    kit.set_deck(g, 2, { "Estate" })
    kit.set_discard(g, 2, { "Silver" })
  end))
  kit.pick(m, "Play Thief")
  T.eq(kit.names(m.g, "trash", 0), "Silver")
  T.eq(kit.names(m.g, "discard", 2), "Estate")
  T.eq(m.g:count("deck", 2), 0)
end

function tests.test_thief_moat_blocks(T)
  local m = T.match(match("Thief,Moat", { "Thief" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Moat" })
    kit.set_deck(g, 2, { "Gold", "Gold" })
  end))
  kit.pick(m, "Play Thief")
  kit.pick(m, "Reveal Moat")
  T.eq(m:decision().kind, "buy")
  T.eq(kit.names(m.g, "deck", 2), "Gold,Gold")
  T.eq(m.g:count("trash", 0), 0)
end

-- ---- Throne Room -----------------------------------------------------------------------

function tests.test_throne_room_plays_an_action_twice(T)
  local m = T.match(match("Throne Room,Smithy", { "Throne Room", "Smithy", "Estate" },
                          { "Copper", "Copper", "Copper", "Silver", "Silver", "Silver", "Gold" }))
  kit.pick(m, "Play Throne Room")
  local d = m:decision()
  T.eq(d.kind, "play")
  T.eq(kit.labels(m), "Smithy")
  kit.pick(m, "Smithy")
  T.eq(m.g:count("hand", 1), 7, "Estate plus 3 + 3 cards")
  T.eq(kit.names(m.g, "deck", 1), "Gold")
  T.eq(kit.names(m.g, "play", 1), "Throne Room,Smithy")
  T.eq(m.g:counter("actions"), 0)
end

function tests.test_throne_room_on_throne_room(T)
  local m = T.match(match("Throne Room,Smithy,Village",
                          { "Throne Room", "Throne Room", "Smithy", "Village" },
                          { "Copper", "Copper", "Copper", "Copper", "Copper", "Copper",
                            "Silver", "Silver", "Gold" }))
  kit.pick(m, "Play Throne Room")
  T.eq(kit.labels(m), "Throne Room,Smithy,Village")
  kit.pick(m, "Throne Room")
  T.eq(kit.labels(m), "Smithy,Village", "the second Throne Room chooses its first Action")
  kit.pick(m, "Smithy")
  T.eq(m.g:count("hand", 1), 7, "Village plus 6 cards")
  T.eq(kit.labels(m), "Village", "then its second Action")
  kit.pick(m, "Village")
  T.eq(m.g:counter("actions"), 4, "0 after the first Throne Room, +2 twice")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Copper,Copper,Copper,Copper,Copper,Silver,Silver")
  T.eq(kit.names(m.g, "deck", 1), "Gold")
  T.eq(kit.names(m.g, "play", 1), "Throne Room,Throne Room,Smithy,Village")
  T.eq(m:decision().kind, "buy", "no Action left in hand")
end

function tests.test_throne_room_on_feast(T)
  local m = T.match(match("Throne Room,Feast,Market", { "Throne Room", "Feast" }))
  kit.pick(m, "Play Throne Room")
  kit.pick(m, "Feast")
  T.eq(kit.names(m.g, "trash", 0), "Feast")
  kit.pick(m, "Market ($5)")
  T.eq(m:decision().kind, "gain", "the second play gains again")
  kit.pick(m, "Duchy ($5)")
  T.eq(kit.names(m.g, "trash", 0), "Feast", "Feast is trashed once")
  T.eq(kit.names(m.g, "discard", 1), "Market,Duchy")
  T.eq(kit.names(m.g, "play", 1), "Throne Room")
end

function tests.test_throne_room_without_an_action_does_nothing(T)
  local m = T.match(match("Throne Room", { "Throne Room", "Copper" }))
  kit.pick(m, "Play Throne Room")
  T.eq(m:decision().kind, "buy")
  T.eq(kit.names(m.g, "hand", 1), "Copper")
end

-- ---- Council Room, Festival, Laboratory ------------------------------------------------

function tests.test_council_room_draws_four_gives_a_buy_and_others_draw_one(T)
  local m = T.match(match("Council Room", { "Council Room" },
                          { "Copper", "Silver", "Gold", "Estate", "Duchy" }, function(g)
    kit.set_deck(g, 2, { "Gold", "Copper" })
  end, 3))
  local before3 = m.g:count("hand", 3)
  kit.pick(m, "Play Council Room")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate,Gold,Silver")
  T.eq(m.g:counter("buys"), 2)
  T.eq(m.g:count("hand", 2), 6)
  T.eq(kit.names(m.g, "deck", 2), "Copper")
  T.eq(m.g:count("hand", 3), before3 + 1)
end

function tests.test_festival_gives_two_actions_a_buy_and_two_coins(T)
  local m = T.match(match("Festival", { "Festival", "Copper" }))
  kit.pick(m, "Play Festival")
  T.eq(m.g:counter("actions"), 2)
  T.eq(m.g:counter("buys"), 2)
  T.eq(m.g:counter("coins"), 2)
  T.eq(m.g:count("hand", 1), 1, "no card drawn")
end

function tests.test_laboratory_draws_two_and_gives_an_action(T)
  local m = T.match(match("Laboratory", { "Laboratory", "Laboratory" },
                          { "Gold", "Silver", "Estate" }))
  kit.pick(m, "Play Laboratory")
  T.eq(m.g:counter("actions"), 1)
  T.eq(kit.sorted(m.g, "hand", 1), "Gold,Laboratory,Silver")
  kit.pick(m, "Play Laboratory")
  T.eq(m.g:counter("actions"), 1)
  T.eq(kit.sorted(m.g, "hand", 1), "Estate,Gold,Silver")
end

-- ---- Library ---------------------------------------------------------------------------

function tests.test_library_draws_to_seven_and_may_set_aside_actions(T)
  local m = T.match(match("Library,Smithy,Village", { "Library", "Copper", "Copper" },
    { "Smithy", "Silver", "Village", "Gold", "Copper", "Estate", "Duchy", "Province" }))
  kit.pick(m, "Play Library")
  local d = m:decision()
  T.eq(d.kind, "set_aside")
  T.eq(kit.labels(m), "Set aside Smithy,Keep Smithy")
  kit.pick(m, "Set aside Smithy")
  T.eq(kit.names(m.g, "aside", 1), "Smithy")
  kit.pick(m, "Keep Village")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Copper,Copper,Estate,Gold,Silver,Village")
  T.eq(kit.names(m.g, "discard", 1), "Smithy", "the set-aside card is discarded after")
  T.eq(m.g:count("aside", 1), 0)
  T.eq(kit.names(m.g, "deck", 1), "Province,Duchy")
end

function tests.test_library_with_seven_cards_draws_nothing(T)
  local m = T.match(match("Library", { "Library", "Library", "Copper", "Copper", "Copper",
                                       "Copper", "Copper", "Copper" }))
  kit.pick(m, "Play Library")
  T.eq(m.g:count("hand", 1), 7)
  T.eq(m.g:count("deck", 1), 5)
end

function tests.test_library_with_a_reshuffle(T)
  local m = T.match(match("Library,Smithy", { "Library", "Copper" }, { "Silver", "Smithy" },
    function(g) kit.set_discard(g, 1, { "Gold", "Gold", "Gold", "Estate" }) end))
  kit.pick(m, "Play Library")
  kit.pick(m, "Set aside Smithy")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Estate,Gold,Gold,Gold,Silver",
       "drawing stops short of 7 when deck and discard run out")
  T.eq(m.g:count("deck", 1), 0)
  T.eq(kit.names(m.g, "discard", 1), "Smithy", "the set-aside Smithy was not shuffled in")
  T.ok(kit.saw(m, 2, m.g:player_name(1) .. " shuffles"))
end

-- ---- Witch -----------------------------------------------------------------------------

function tests.test_witch_draws_two_and_each_other_player_gains_a_curse(T)
  local m = T.match(match("Witch", { "Witch" }, { "Gold", "Silver", "Estate" }, nil, 3))
  kit.pick(m, "Play Witch")
  T.eq(kit.sorted(m.g, "hand", 1), "Gold,Silver")
  T.eq(kit.names(m.g, "discard", 2), "Curse")
  T.eq(kit.names(m.g, "discard", 3), "Curse")
  T.eq(m.g:count("supply:Curse", 0), 18)
  T.eq(kernel():owned(m.g, 2, "Curse"), 1)
end

function tests.test_witch_when_curses_run_out(T)
  local m = T.match(match("Witch", { "Witch" }, FIVE, function(g)
    kit.empty_pile(g, "Curse", 2)
    for p = 2, 4 do kit.set_discard(g, p, {}) end
  end, 4))
  kit.pick(m, "Play Witch")
  T.eq(kit.names(m.g, "discard", 2), "Curse", "in turn order from the attacker's left")
  T.eq(kit.names(m.g, "discard", 3), "Curse")
  T.eq(m.g:count("discard", 4), 0, "no Curse left for the last player")
  T.eq(m.g:count("supply:Curse", 0), 0)
  T.eq(m.g:count("hand", 1), 2, "the Witch still draws")
end

function tests.test_witch_moat_blocks(T)
  local m = T.match(match("Witch,Moat", { "Witch" }, FIVE, function(g)
    kit.set_hand(g, 2, { "Moat" })
    kit.set_discard(g, 2, {})
  end, 3))
  kit.pick(m, "Play Witch")
  kit.pick(m, "Reveal Moat")
  T.eq(m.g:count("discard", 2), 0)
  T.eq(kit.names(m.g, "discard", 3), "Curse")
end

-- ---- Adventurer ------------------------------------------------------------------------

function tests.test_adventurer_reveals_until_two_treasures(T)
  local m = T.match(match("Adventurer", { "Adventurer" },
                          { "Estate", "Copper", "Smithy", "Silver", "Gold" }))
  kit.pick(m, "Play Adventurer")
  T.eq(kit.sorted(m.g, "hand", 1), "Copper,Silver")
  T.eq(kit.sorted(m.g, "discard", 1), "Estate,Smithy")
  T.eq(kit.names(m.g, "deck", 1), "Gold")
  T.eq(m.g:count("aside", 1), 0)
end

function tests.test_adventurer_reshuffles_but_not_the_revealed_cards(T)
  local m = T.match(match("Adventurer", { "Adventurer" }, { "Estate", "Copper" }, function(g)
    kit.set_discard(g, 1, { "Duchy" })
  end))
  kit.pick(m, "Play Adventurer")
  T.eq(kit.names(m.g, "hand", 1), "Copper", "only one Treasure exists")
  T.eq(kit.sorted(m.g, "discard", 1), "Duchy,Estate")
  T.eq(m.g:count("deck", 1), 0)
end

return tests
