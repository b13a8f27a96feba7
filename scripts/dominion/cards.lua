-- dominion/cards.lua: the Dominion cards as data, then handlers that read like the card.
--
-- Fields the kernel understands (deckbuilder/kernel.lua): cost, types, text, coins,
-- cards, actions, buys (the +keywords, applied before on_play), vp, score, on_play,
-- react. `supply` gives a base pile's size by player count; kingdom piles are sized by
-- kingdom.lua. `order` is the supply display order: base cards, then kingdom cards by
-- cost and name (new kingdom cards slot in here).

local cards = {}

-- ---- base cards ------------------------------------------------------------------------

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

-- ---- helpers ---------------------------------------------------------------------------

local function pname(g, p) return g:player_name(p) end

-- Take the top card of p's deck into zone (shuffling the discard in first when the deck
-- is empty, never shuffling in cards already taken); nil when there is none.
local function take_top(g, k, p, zone)
  if g:count("deck", p) == 0 then k:reshuffle(g, p) end
  local id = g:top("deck", p)
  if id then g:move(id, zone, p) end
  return id
end

-- The top n cards of p's deck, taken into zone one by one as take_top does (fewer when
-- the deck and discard run out).
local function take_tops(g, k, p, n, zone)
  local t = {}
  for _ = 1, n do t[#t + 1] = take_top(g, k, p, zone) end
  return t
end

-- The top 2 cards of p's deck, set aside and revealed (Thief, Bandit).
local function reveal_two(g, k, p)
  local shown = take_tops(g, k, p, 2, "aside")
  k:reveal(g, p, shown)
  return shown
end

-- The ids among ids whose card has type ty.
local function of_type(g, k, ids, ty)
  local t = {}
  for _, id in ipairs(ids) do
    if k.cards[g:name(id)].is[ty] then t[#t + 1] = id end
  end
  return t
end

-- The ids among ids still in zone (of their owner).
local function still_in(g, ids, zone)
  local t = {}
  for _, id in ipairs(ids) do
    if g:zone_of(id) == zone then t[#t + 1] = id end
  end
  return t
end

-- One card from ids chosen by p; no question when all carry the same name.
local function pick_one(g, k, p, ids, spec)
  local d = k:distinct(g, ids)
  if #d == 1 then return d[1] end
  return k:choose_cards(g, p, d, spec)[1]
end

-- Put a card from p's hand or elsewhere on top of p's deck.
local function topdeck(g, p, id, public)
  g:move(id, "deck", p)
  if public then
    g:log(pname(g, p) .. " puts " .. g:name(id) .. " onto their deck")
  else
    g:log_to(p, "You put " .. g:name(id) .. " onto your deck")
    g:log(pname(g, p) .. " puts a card onto their deck")
  end
end

-- p puts a card of their own zone (one of each name offered) onto their deck, unseen by
-- the others; spec: prompt, source, min (0: p may put none).
local function topdeck_from(g, k, p, zone, spec)
  spec.kind = "topdeck"
  local t = k:choose_cards(g, p, k:distinct(g, g:list(zone, p)), spec)
  if #t > 0 then topdeck(g, p, t[1], false) end
end

-- ---- kingdom cards (first edition) -----------------------------------------------------

cards.Cellar = {
  cost = 2, types = { "Action" }, actions = 1,
  text = "+1 Action. Discard any number of cards, then draw that many.",
  on_play = function(g, k, p)
    local hand = g:list("hand", p)
    local ids = k:choose_cards(g, p, hand, { kind = "discard", min = 0, max = #hand,
      prompt = "Cellar: discard any number of cards, then draw that many", source = "Cellar" })
    k:discard(g, p, ids)
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
      local ids = k:choose_cards(g, v, hand, { kind = "discard", min = #hand - 3, max = #hand - 3,
        prompt = "Militia: discard down to 3 cards", source = "Militia" })
      k:discard(g, v, ids)
    end)
  end,
}

cards.Remodel = {
  cost = 4, types = { "Action" },
  text = "Trash a card from your hand. Gain a card costing up to $2 more than the trashed card.",
  on_play = function(g, k, p)
    local t = k:choose_cards(g, p, g:list("hand", p), { kind = "trash",
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
    local t = k:choose_cards(g, p, k:hand_of_type(g, p, "Treasure"), { kind = "trash",
      prompt = "Mine: trash a Treasure from your hand", source = "Mine" })
    if #t == 0 then return end
    local max = k:cost(g, g:name(t[1])) + 3
    k:trash(g, p, t[1])
    k:choose_gain(g, p, max, { to = "hand", source = "Mine",
      prompt = "Mine: gain a Treasure costing up to $" .. max .. " into your hand",
      filter = function(name) return k.cards[name].is.Treasure end })
  end,
}

cards.Chapel = {
  cost = 2, types = { "Action" }, text = "Trash up to 4 cards from your hand.",
  on_play = function(g, k, p)
    local hand = g:list("hand", p)
    local t = k:choose_cards(g, p, hand, { kind = "trash", min = 0, max = 4,
      prompt = "Chapel: trash up to 4 cards from your hand", source = "Chapel" })
    for _, id in ipairs(t) do k:trash(g, p, id) end
  end,
}

cards.Chancellor = {
  cost = 3, types = { "Action" }, coins = 2,
  text = "+$2. You may immediately put your deck into your discard pile.",
  on_play = function(g, k, p)
    local n = g:count("deck", p)
    if n == 0 then return end
    if not k:yesno(g, p, "Chancellor: put your deck into your discard pile?",
                   "Put deck into discard pile", "Keep deck", "yesno", "Chancellor") then
      return
    end
    for _ = 1, n do g:move(g:top("deck", p), "discard", p) end
    g:log(pname(g, p) .. " puts their deck into their discard pile")
  end,
}

cards.Bureaucrat = {
  cost = 4, types = { "Action", "Attack" },
  text = "Gain a Silver card; put it on top of your deck. Each other player reveals a Victory "
    .. "card from their hand and puts it on their deck (or reveals a hand with no Victory cards).",
  on_play = function(g, k, p, id)
    k:gain(g, p, "Silver", "deck")
    k:attack(g, p, id, function(v)
      local vs = k:hand_of_type(g, v, "Victory")
      if #vs == 0 then
        local hand = g:list("hand", v)
        if #hand == 0 then return end
        k:reveal(g, v, hand)
        return
      end
      local c = pick_one(g, k, v, vs, { kind = "topdeck", source = "Bureaucrat",
        prompt = "Bureaucrat: put a Victory card from your hand onto your deck" })
      k:reveal(g, v, { c })
      topdeck(g, v, c, true)
    end)
  end,
}

cards.Feast = {
  cost = 4, types = { "Action" }, text = "Trash this card. Gain a card costing up to $5.",
  on_play = function(g, k, p, id)
    -- Played twice by Throne Room, it is trashed once and gains twice (rulebook FAQ).
    if g:zone_of(id) == "play" then k:trash(g, p, id) end
    k:choose_gain(g, p, 5, { prompt = "Feast: gain a card costing up to $5", source = "Feast" })
  end,
}

cards.Gardens = {
  cost = 4, types = { "Victory" },
  text = "Worth 1 VP for every 10 cards in your deck (rounded down).",
  score = function(g, k, p) return k:owned_count(g, p) // 10 end,
}

cards.Moneylender = {
  cost = 4, types = { "Action" }, text = "Trash a Copper card from your hand. If you do, +$3.",
  on_play = function(g, k, p)
    for _, id in ipairs(g:list("hand", p)) do
      if g:name(id) == "Copper" then
        k:trash(g, p, id)
        g:add_counter("coins", 0, 3)
        return
      end
    end
  end,
}

-- Spy's question goes to the player of the Spy; `victim` says whose card it is.
local function spy_on(g, k, p, v)
  local c = take_top(g, k, v, "aside")
  if not c then return end
  k:reveal(g, v, { c })
  local name = g:name(c)
  local whose = v == p and "your" or (pname(g, v) .. "'s")
  local r = g:choose { player = p, kind = "spy", source = "Spy", victim = v,
                       prompt = "Spy: " .. name .. " from " .. whose .. " deck",
                       options = { { label = "Discard " .. name, card = c },
                                   { label = "Put back " .. name, card = c } } }
  if r[1] == 1 then k:discard(g, v, { c }, true) else topdeck(g, v, c, true) end
end

cards.Spy = {
  cost = 4, types = { "Action", "Attack" }, cards = 1, actions = 1,
  text = "+1 Card, +1 Action. Each player (including you) reveals the top card of their "
    .. "deck and either discards it or puts it back, your choice.",
  on_play = function(g, k, p, id)
    spy_on(g, k, p, p)
    k:attack(g, p, id, function(v) spy_on(g, k, p, v) end)
  end,
}

cards.Thief = {
  cost = 4, types = { "Action", "Attack" },
  text = "Each other player reveals the top 2 cards of their deck. If they revealed any "
    .. "Treasure cards, they trash one of them that you choose. You may gain any or all of "
    .. "these trashed cards. They discard the other revealed cards.",
  on_play = function(g, k, p, id)
    local trashed = {}
    k:attack(g, p, id, function(v)
      local shown = reveal_two(g, k, v)
      local ts = of_type(g, k, shown, "Treasure")
      if #ts > 0 then
        local c = pick_one(g, k, p, ts, { kind = "trash", source = "Thief",
          prompt = "Thief: trash one of " .. pname(g, v) .. "'s Treasures" })
        k:trash(g, v, c)
        trashed[#trashed + 1] = c
      end
      k:discard(g, v, still_in(g, shown, "aside"), true)
    end)
    local got = k:choose_cards(g, p, trashed, { kind = "gain", min = 0, max = #trashed,
      prompt = "Thief: gain any of the trashed Treasures", source = "Thief" })
    for _, c in ipairs(got) do
      k:take(g, p, c)
      g:log(pname(g, p) .. " gains " .. g:name(c))
    end
  end,
}

cards["Throne Room"] = {
  cost = 4, types = { "Action" }, text = "Choose an Action card in your hand. Play it twice.",
  on_play = function(g, k, p)
    local acts = k:distinct(g, k:hand_of_type(g, p, "Action"))
    local t = k:choose_cards(g, p, acts, { kind = "play", source = "Throne Room",
      prompt = "Throne Room: choose an Action to play twice" })
    if #t == 0 then return end
    k:play(g, p, t[1])
    g:log(pname(g, p) .. " plays " .. g:name(t[1]) .. " again")
    k:resolve(g, p, t[1])
  end,
}

cards["Council Room"] = {
  cost = 5, types = { "Action" }, cards = 4, buys = 1,
  text = "+4 Cards, +1 Buy. Each other player draws a card.",
  on_play = function(g, k, p)
    for _, v in ipairs(k:others(g, p)) do k:draw(g, v, 1) end
  end,
}

cards.Festival = { cost = 5, types = { "Action" }, text = "+2 Actions, +1 Buy, +$2.",
                   actions = 2, buys = 1, coins = 2 }

cards.Laboratory = { cost = 5, types = { "Action" }, text = "+2 Cards, +1 Action.",
                     cards = 2, actions = 1 }

cards.Library = {
  cost = 5, types = { "Action" },
  text = "Draw until you have 7 cards in hand. You may set aside any Action cards drawn this "
    .. "way, as you draw them; discard the set aside cards after you finish drawing.",
  on_play = function(g, k, p)
    local aside, n = {}, 0
    while g:count("hand", p) < 7 do
      local d = k:draw(g, p, 1, true)
      if #d == 0 then break end
      n = n + 1
      local c, name = d[1], g:name(d[1])
      if k.cards[name].is.Action and k:yesno(g, p, "Library: set aside " .. name .. "?",
           "Set aside " .. name, "Keep " .. name, "set_aside", "Library") then
        g:move(c, "aside", p)
        g:log(pname(g, p) .. " sets aside " .. name)
        aside[#aside + 1] = c
      end
    end
    if n > 0 then g:log(pname(g, p) .. " draws " .. n .. (n == 1 and " card" or " cards")) end
    k:discard(g, p, aside, true)
  end,
}

cards.Witch = {
  cost = 5, types = { "Action", "Attack" }, cards = 2,
  text = "+2 Cards. Each other player gains a Curse card.",
  on_play = function(g, k, p, id)
    k:attack(g, p, id, function(v) k:gain(g, v, "Curse") end)
  end,
}

cards.Adventurer = {
  cost = 6, types = { "Action" },
  text = "Reveal cards from your deck until you reveal 2 Treasure cards. Put those Treasure "
    .. "cards in your hand and discard the other revealed cards.",
  on_play = function(g, k, p)
    local shown, found = {}, 0
    while found < 2 do
      local c = take_top(g, k, p, "aside")
      if not c then break end
      shown[#shown + 1] = c
      if k.cards[g:name(c)].is.Treasure then found = found + 1 end
    end
    k:reveal(g, p, shown)
    for _, c in ipairs(of_type(g, k, shown, "Treasure")) do g:move(c, "hand", p) end
    k:discard(g, p, still_in(g, shown, "aside"), true)
  end,
}

-- ---- kingdom cards (second edition) ----------------------------------------------------

cards.Harbinger = {
  cost = 3, types = { "Action" }, cards = 1, actions = 1,
  text = "+1 Card, +1 Action. Look through your discard pile. You may put a card from it "
    .. "onto your deck.",
  on_play = function(g, k, p)
    topdeck_from(g, k, p, "discard", { min = 0, source = "Harbinger",
      prompt = "Harbinger: you may put a card from your discard pile onto your deck" })
  end,
}

-- Counters, hidden and per turn: _merchant = Merchants played, _silver = Silvers played.
-- The hooks are the kernel's (kernel.new): they run in matches whose supply has Merchant.
cards.Merchant = {
  cost = 3, types = { "Action" }, cards = 1, actions = 1,
  text = "+1 Card, +1 Action. The first time you play a Silver this turn, +$1.",
  on_play = function(g) g:add_counter("_merchant", 0, 1) end,
  on_turn_start = function(g)
    g:set_counter("_merchant", 0, 0)
    g:set_counter("_silver", 0, 0)
  end,
  after_play = {
    Silver = function(g)
      if g:add_counter("_silver", 0, 1) == 1 then
        local m = g:counter("_merchant")
        if m > 0 then g:add_counter("coins", 0, m) end
      end
    end,
  },
}

cards.Vassal = {
  cost = 3, types = { "Action" }, coins = 2,
  text = "+$2. Discard the top card of your deck. If it's an Action card, you may play it.",
  on_play = function(g, k, p)
    local c = take_top(g, k, p, "discard")
    if not c then return end
    local name = g:name(c)
    g:log(pname(g, p) .. " discards " .. name)
    if not k.cards[name].is.Action then return end
    if k:yesno(g, p, "Vassal: play " .. name .. "?", "Play " .. name, "Don't play",
               "yesno", "Vassal") then
      k:play(g, p, c)
    end
  end,
}

cards.Poacher = {
  cost = 4, types = { "Action" }, cards = 1, actions = 1, coins = 1,
  text = "+1 Card, +1 Action, +$1. Discard a card per empty Supply pile.",
  on_play = function(g, k, p)
    local n = k:empty_piles(g)
    if n == 0 then return end
    local hand = g:list("hand", p)
    local t = k:choose_cards(g, p, hand, { kind = "discard", min = n, max = n,
      prompt = "Poacher: discard " .. n .. (n == 1 and " card" or " cards"), source = "Poacher" })
    k:discard(g, p, t)
  end,
}

cards.Bandit = {
  cost = 5, types = { "Action", "Attack" },
  text = "Gain a Gold. Each other player reveals the top 2 cards of their deck, trashes a "
    .. "revealed Treasure other than Copper, and discards the rest.",
  on_play = function(g, k, p, id)
    k:gain(g, p, "Gold")
    k:attack(g, p, id, function(v)
      local shown = reveal_two(g, k, v)
      local ts = {}
      for _, c in ipairs(of_type(g, k, shown, "Treasure")) do
        if g:name(c) ~= "Copper" then ts[#ts + 1] = c end
      end
      if #ts > 0 then
        k:trash(g, v, pick_one(g, k, v, ts, { kind = "trash", source = "Bandit",
          prompt = "Bandit: trash a revealed Treasure other than Copper" }))
      end
      k:discard(g, v, still_in(g, shown, "aside"), true)
    end)
  end,
}

cards.Sentry = {
  cost = 5, types = { "Action" }, cards = 1, actions = 1,
  text = "+1 Card, +1 Action. Look at the top 2 cards of your deck. Trash and/or discard any "
    .. "number of them. Put the rest back on top in any order.",
  on_play = function(g, k, p)
    local seen = take_tops(g, k, p, 2, "look")
    if #seen == 0 then return end
    g:log_to(p, "You look at " .. k:join_names(g, seen))
    local t = k:choose_cards(g, p, seen, { kind = "trash", min = 0, max = #seen,
      prompt = "Sentry: trash any of these", source = "Sentry" })
    for _, c in ipairs(t) do k:trash(g, p, c) end
    local rest = still_in(g, seen, "look")
    k:discard(g, p, k:choose_cards(g, p, rest, { kind = "discard", min = 0, max = #rest,
      prompt = "Sentry: discard any of these", source = "Sentry" }))
    rest = still_in(g, seen, "look")
    if #rest == 2 then
      local top = pick_one(g, k, p, rest, { kind = "topdeck", source = "Sentry",
        prompt = "Sentry: choose the card to put back on top" })
      local under = rest[1] == top and rest[2] or rest[1]
      g:move(under, "deck", p)
      g:move(top, "deck", p)
    elseif #rest == 1 then
      g:move(rest[1], "deck", p)
    end
  end,
}

cards.Artisan = {
  cost = 6, types = { "Action" },
  text = "Gain a card to your hand costing up to $5. Put a card from your hand onto your deck.",
  on_play = function(g, k, p)
    k:choose_gain(g, p, 5, { to = "hand", source = "Artisan",
                             prompt = "Artisan: gain a card costing up to $5 to your hand" })
    topdeck_from(g, k, p, "hand", { source = "Artisan",
      prompt = "Artisan: put a card from your hand onto your deck" })
  end,
}

local order = { "Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse",
  "Cellar", "Chapel", "Moat",
  "Chancellor", "Harbinger", "Merchant", "Vassal", "Village", "Woodcutter", "Workshop",
  "Bureaucrat", "Feast", "Gardens", "Militia", "Moneylender", "Poacher", "Remodel", "Smithy",
  "Spy", "Thief", "Throne Room",
  "Bandit", "Council Room", "Festival", "Laboratory", "Library", "Market", "Mine", "Sentry",
  "Witch",
  "Adventurer", "Artisan" }

local base = { "Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse" }

-- Every kingdom card, in display order.
local kingdom = {}
for _, name in ipairs(order) do
  if not cards[name].supply then kingdom[#kingdom + 1] = name end
end

return {
  cards = cards,
  order = order,
  base = base,
  kingdom = kingdom,
  start = { { name = "Copper", count = 7 }, { name = "Estate", count = 3 } },
}
