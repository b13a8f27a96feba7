-- dominion/cards.lua: the Dominion cards as data, then handlers that read like the card.
--
-- Fields the kernel understands (deckbuilder/kernel.lua): cost, types, text, coins,
-- cards, actions, buys (the +keywords, applied before on_play), vp, score, on_play,
-- react. `supply` gives a base pile's size by player count; kingdom piles are sized by
-- kingdom.lua. `order` is the supply display order: base cards, then kingdom cards by
-- cost and name (new kingdom cards slot in here).

local cards = {}

-- ---- base cards ---------------------------------------------------------------------

cards.Copper = { cost = 0, types = { "Treasure" }, text = "+$1", coins = 1,
                 supply = { [2] = 46, [3] = 39, [4] = 32 } }
cards.Silver = { cost = 3, types = { "Treasure" }, text = "+$2", coins = 2,
                 supply = { [2] = 40, [3] = 40, [4] = 40 } }
cards.Gold = { cost = 6, types = { "Treasure" }, text = "+$3", coins = 3,
               supply = { [2] = 30, [3] = 30, [4] = 30 } }
cards.Estate = { cost = 2, types = { "Victory" }, text = "1 VP", vp = 1,
                 supply = { [2] = 8, [3] = 12, [4] = 12 } }
cards.Duchy = { cost = 5, types = { "Victory" }, text = "3 VP", vp = 3,
                supply = { [2] = 8, [3] = 12, [4] = 12 } }
cards.Province = { cost = 8, types = { "Victory" }, text = "6 VP", vp = 6,
                   supply = { [2] = 8, [3] = 12, [4] = 12 } }
cards.Curse = { cost = 0, types = { "Curse" }, text = "-1 VP", vp = -1,
                supply = { [2] = 10, [3] = 20, [4] = 30 } }

-- ---- kingdom cards --------------------------------------------------------------------

cards.Cellar = {
  cost = 2, types = { "Action" }, actions = 1,
  text = "+1 Action. Discard any number of cards, then draw that many.",
  on_play = function(g, k, p)
    local hand = g:list("hand", p)
    local ids = k.choose_cards(g, p, hand, { kind = "discard", min = 0, max = #hand,
      prompt = "Cellar: discard any number of cards, then draw that many", source = "Cellar" })
    k.discard(g, p, ids)
    k:draw(g, p, #ids)
  end,
}

cards.Moat = {
  cost = 2, types = { "Action", "Reaction" }, cards = 2,
  text = "+2 Cards. When another player plays an Attack card, you may reveal this from "
    .. "your hand. If you do, you are unaffected by that Attack.",
  react = function(g, _, victim)
    g:set_counter("_unaffected", victim, 1)
  end,
}

cards.Village = { cost = 3, types = { "Action" }, text = "+1 Card, +2 Actions.",
                  cards = 1, actions = 2 }

cards.Woodcutter = { cost = 3, types = { "Action" }, text = "+1 Buy, +$2.",
                     buys = 1, coins = 2 }

cards.Workshop = {
  cost = 3, types = { "Action" }, text = "Gain a card costing up to $4.",
  on_play = function(g, k, p)
    k:choose_gain(g, p, 4, { prompt = "Workshop: gain a card costing up to $4",
                             source = "Workshop" })
  end,
}

cards.Militia = {
  cost = 4, types = { "Action", "Attack" }, coins = 2,
  text = "+$2. Each other player discards down to 3 cards in their hand.",
  on_play = function(g, k, p, id)
    k:attack(g, p, id, function(v)
      local hand = g:list("hand", v)
      if #hand <= 3 then return end
      local ids = k.choose_cards(g, v, hand, { kind = "discard", min = #hand - 3, max = #hand - 3,
        prompt = "Militia: discard down to 3 cards", source = "Militia" })
      k.discard(g, v, ids)
    end)
  end,
}

cards.Remodel = {
  cost = 4, types = { "Action" },
  text = "Trash a card from your hand. Gain a card costing up to $2 more than the trashed card.",
  on_play = function(g, k, p)
    local t = k.choose_cards(g, p, g:list("hand", p), { kind = "trash",
      prompt = "Remodel: trash a card from your hand", source = "Remodel" })
    if #t == 0 then return end
    local max = k:cost(g, g:name(t[1])) + 2
    k:trash(g, p, t[1])
    k:choose_gain(g, p, max, { prompt = "Remodel: gain a card costing up to $" .. max,
                               source = "Remodel" })
  end,
}

cards.Smithy = { cost = 4, types = { "Action" }, text = "+3 Cards.", cards = 3 }

cards.Market = { cost = 5, types = { "Action" }, text = "+1 Card, +1 Action, +1 Buy, +$1.",
                 cards = 1, actions = 1, buys = 1, coins = 1 }

cards.Mine = {
  cost = 5, types = { "Action" },
  text = "Trash a Treasure card from your hand. Gain a Treasure card costing up to $3 more; "
    .. "put it into your hand.",
  on_play = function(g, k, p)
    local t = k.choose_cards(g, p, k:hand_of_type(g, p, "Treasure"), { kind = "trash",
      prompt = "Mine: trash a Treasure from your hand", source = "Mine" })
    if #t == 0 then return end
    local max = k:cost(g, g:name(t[1])) + 3
    k:trash(g, p, t[1])
    k:choose_gain(g, p, max, { to = "hand", source = "Mine",
      prompt = "Mine: gain a Treasure costing up to $" .. max .. " into your hand",
      filter = function(name) return k.cards[name].is.Treasure end })
  end,
}

return {
  cards = cards,
  order = { "Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse",
            "Cellar", "Moat", "Village", "Woodcutter", "Workshop",
            "Militia", "Remodel", "Smithy", "Market", "Mine" },
  base = { "Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse" },
  start = { { name = "Copper", count = 7 }, { name = "Estate", count = 3 } },
}
