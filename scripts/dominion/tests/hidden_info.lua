-- Rules tests: what the match log tells each seat. Dominion keeps a hand hidden, and a
-- discard pile shows only its top card (which every View carries), so a discard from a
-- hand, or from cards only their owner looked at, is named to the owner and counted for
-- the others; cards revealed first (Spy, Thief, Adventurer, Library's set-aside cards)
-- are named to everyone.
local kit = require("deckbuilder.testkit")

local FIVE = kit.FIVE

local function match(kingdom, hand, deck, more, players)
  return kit.match { seed = 11, options = { kingdom = kingdom }, hand = hand, deck = deck,
                     more = more, players = players }
end

local tests = {}

-- No event p received so far names any of the cards.
local function heard_none(T, m, p, names)
  for _, name in ipairs(names) do
    T.ok(not kit.saw_part(m, p, name), "seat " .. p .. " heard of " .. name)
  end
end

function tests.test_cellar_discards_are_named_only_to_the_discarder(T)
  local m = T.match(match("Cellar", { "Cellar", "Duchy", "Curse", "Copper", "Copper" },
                          { "Silver", "Silver" }))
  kit.pick(m, "Play Cellar")
  kit.pick(m, { "Duchy", "Curse" })
  T.ok(kit.saw(m, 1, "You discard Duchy, Curse"))
  T.ok(kit.saw(m, 2, "P1 discards 2 cards"))
  heard_none(T, m, 2, { "Duchy", "Curse" })
end

function tests.test_militia_victims_discards_are_hidden_from_the_other_players(T)
  local m = T.match(match("Militia", { "Militia", "Copper", "Copper", "Copper", "Copper" }, FIVE,
    function(g)
      kit.set_hand(g, 2, { "Copper", "Duchy", "Silver", "Curse", "Copper" })
      kit.set_hand(g, 3, { "Copper", "Copper", "Copper", "Gold", "Gold" })
    end, 3))
  kit.pick(m, "Play Militia")
  T.eq(m:decision().player, 2)
  kit.pick(m, { "Duchy", "Curse" })
  T.ok(kit.saw(m, 2, "You discard Duchy, Curse"))
  T.ok(kit.saw(m, 1, "P2 discards 2 cards"))
  T.ok(kit.saw(m, 3, "P2 discards 2 cards"))
  heard_none(T, m, 1, { "Duchy", "Curse" })
  heard_none(T, m, 3, { "Duchy", "Curse" })
end

function tests.test_sentry_discards_do_not_reveal_the_top_of_the_deck(T)
  local m = T.match(match("Sentry", { "Sentry" }, { "Copper", "Province", "Duchy", "Gold" }))
  kit.pick(m, "Play Sentry")
  T.ok(m:answer(1, {}), "trash nothing")
  kit.pick(m, { "Province", "Duchy" })
  T.ok(kit.saw(m, 1, "You discard Province, Duchy"))
  T.ok(kit.saw(m, 2, "P1 discards 2 cards"))
  heard_none(T, m, 2, { "Province", "Duchy" })
end

function tests.test_poacher_discards_are_named_only_to_the_discarder(T)
  local m = T.match(match("Poacher", { "Poacher", "Duchy", "Copper" }, { "Silver" },
    function(g)
      local k = require("dominion.game").kernel
      local pile = k:pile("Curse")
      while g:count(pile, 0) > 0 do g:move(g:top(pile, 0), "trash", 0) end
    end))
  kit.pick(m, "Play Poacher")
  kit.pick(m, { "Duchy" })
  T.ok(kit.saw(m, 1, "You discard Duchy"))
  T.ok(kit.saw(m, 2, "P1 discards 1 card"))
  heard_none(T, m, 2, { "Duchy" })
end

function tests.test_revealed_cards_discarded_by_spy_are_named_to_everyone(T)
  local m = T.match(match("Spy", { "Spy" }, { "Copper", "Estate", "Silver" }, function(g)
    kit.set_deck(g, 2, { "Gold", "Copper" })
  end))
  kit.pick(m, "Play Spy")
  kit.pick(m, "Discard Estate")
  kit.pick(m, "Discard Gold")
  T.ok(kit.saw(m, 2, "P1 discards Estate"))
  T.ok(kit.saw(m, 1, "P2 discards Gold"))
end

function tests.test_the_top_of_a_discard_pile_stays_visible_to_everyone(T)
  local m = T.match(match("Cellar", { "Cellar", "Duchy", "Curse", "Copper", "Copper" },
                          { "Silver", "Silver" }))
  kit.pick(m, "Play Cellar")
  kit.pick(m, { "Duchy", "Curse" })
  local piles = 0
  for _, z in ipairs(kit.zones_named(m:view(2), "discard")) do
    if z.count == 2 then
      piles = piles + 1
      T.eq(#(z.cards or {}), 1, "only the top card shows")
      T.eq(z.cards[1].name, m.g:name(m.g:top("discard", 1)))
    end
  end
  T.eq(piles, 1, "player 2 sees player 1's discard pile of two")
end

return tests
