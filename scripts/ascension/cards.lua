-- ascension/cards.lua: every card of seed 000 appendix F as data, then its handler.
--
-- Fields: cost (Runes for heroes and constructs, Power for monsters; `currency` says
-- which), cost_for(g, p) for a dynamic cost, types ({"Hero"}, {"Construct"},
-- {"Monster"}, {"Temple"}), faction, text, vp (the Honour printed on the card, counted
-- at the end), and what a play gives, in printed order: cards, runes, power, honour.
-- Monsters carry `reward` ({honour=, runes=, life=, death=} keystones) and `permanent`
-- (Cultist). Handlers: on_play, on_acquire, on_defeat, unite (run when Unite holds) and
-- `ability` for a construct's once-per-turn effect ({text=, cond=, effect=}).
-- `centre` is the card's count in the centre deck. Values the source does not give
-- (counts, card Honour, Temple Honour) are choices listed in README.md.

local R = require("ascension.rules")

local cards = {}

-- ---- base cards -----------------------------------------------------------------------

cards.Apprentice = { cost = 0, types = { "Hero" }, text = "+1 Rune", runes = 1, vp = 0 }
cards.Militia = { cost = 0, types = { "Hero" }, text = "+1 Power", power = 1, vp = 0 }
cards.Mystic = { cost = 3, currency = "runes", types = { "Hero" }, text = "+2 Runes",
                 runes = 2, vp = 1 }
cards["Heavy Infantry"] = { cost = 2, currency = "runes", types = { "Hero" },
                            text = "+2 Power", power = 2, vp = 1 }
cards.Cultist = { cost = 2, currency = "power", types = { "Monster" }, permanent = true,
                  text = "Reward: 1 Honour. Always available; never runs out.",
                  reward = { honour = 1 } }

cards["Temple of Life"] = {
  cost = 0, types = { "Temple" }, vp = 3,
  text = "Gained with a Life Keystone, taken from its holder. Life Keystone while you "
    .. "control it: +2 Runes and gain the Temple of Immortality.",
}
cards["Temple of Death"] = {
  cost = 0, types = { "Temple" }, vp = 3,
  text = "Gained with a Death Keystone, taken from its holder. Death Keystone while you "
    .. "control it: gain the Temple of Immortality; you may banish a card from your hand "
    .. "or discard pile.",
}
cards["Temple of Immortality"] = {
  cost = 0, types = { "Temple" }, vp = 5,
  text = "Gained with a Keystone spent while you control the Temple of Life or Death.",
}

-- ---- monsters -------------------------------------------------------------------------

cards["Hellfrost Imps"] = {
  cost = 3, currency = "power", types = { "Monster" }, centre = 6,
  text = "Reward: 2 Honour. You may defeat a monster in the centre row named Hellfrost "
    .. "Imps without paying its cost.",
  reward = { honour = 2 },
  on_defeat = function(g, k, p)
    local imps = {}
    for _, id in ipairs(R.row(g)) do
      if g:name(id) == "Hellfrost Imps" then imps[#imps + 1] = id; break end
    end
    local picked = k:choose_cards(g, p, imps, { kind = "defeat", min = 0, max = 1,
      source = "Hellfrost Imps",
      prompt = "Hellfrost Imps: you may defeat Hellfrost Imps in the centre row for free" })
    if picked[1] then R.defeat(g, k, p, picked[1], true) end
  end,
}

cards["Kan'zir, the Ravager"] = {
  cost = 6, currency = "power", types = { "Monster" }, centre = 1,
  text = "Reward: 5 Honour. Each opponent loses control of all Temples and destroys all "
    .. "Constructs they control.",
  reward = { honour = 5 },
  on_defeat = function(g, k, p)
    for _, q in ipairs(k:others(g, p)) do
      R.lose_temples(g, q)
      local n = g:count("constructs", q)
      for _ = 1, n do
        local id = g:top("constructs", q)
        g:move(id, "discard", q)
        g:log(g:player_name(q), " destroys ", g:name(id))
      end
    end
  end,
}

cards["Starved Abomination"] = {
  cost = 4, currency = "power", types = { "Monster" }, centre = 3,
  text = "Reward: 3 Honour, Life Keystone.", reward = { honour = 3, life = 1 },
}

cards["Hurras, Sea's Fury"] = {
  cost = 7, currency = "power", types = { "Monster" }, centre = 1,
  text = "Reward: 4 Honour, Life Keystone, Death Keystone.",
  reward = { honour = 4, life = 1, death = 1 },
}

cards["Crypt Lurker"] = {
  cost = 4, currency = "power", types = { "Monster" }, centre = 3,
  text = "Reward: 3 Honour, Death Keystone.", reward = { honour = 3, death = 1 },
}

cards["Mutated Scavenger"] = {
  cost = 6, currency = "power", types = { "Monster" }, centre = 2,
  text = "Reward: 4 Honour, 5 Runes.", reward = { honour = 4, runes = 5 },
}

cards["Iku, Valley Tyrant"] = {
  cost = 10, currency = "power", types = { "Monster" }, centre = 1,
  text = "Reward: 8 Honour. This card costs 2 Power less for each Temple you control.",
  reward = { honour = 8 },
  cost_for = function(g, p)
    local c = 10 - 2 * R.temples_held(g, p)
    return c > 0 and c or 0
  end,
}

cards["Cavern Horror"] = {
  cost = 2, currency = "power", types = { "Monster" }, centre = 3,
  text = "Reward: 1 Honour. You may shuffle your discard pile into your deck.",
  reward = { honour = 1 },
  on_defeat = function(g, k, p)
    if R.may(g, k, p, "discard", "Cavern Horror", "shuffle your discard pile into your deck?",
             "Shuffle discard into deck", "Don't shuffle") then
      R.shuffle_discard_into_deck(g, p)
    end
  end,
}

-- ---- heroes ---------------------------------------------------------------------------

cards["Soulsnare Hunter"] = {
  cost = 4, currency = "runes", types = { "Hero" }, faction = "Void", vp = 2, centre = 3,
  text = "+2 Power. The next time you defeat a monster this turn: Life Keystone.",
  power = 2,
  on_play = function(g) g:add_counter("_soulsnare", 0, 1) end,
}

cards["Shadowridge Scout"] = {
  cost = 2, currency = "runes", types = { "Hero" }, faction = "Void", vp = 1, centre = 3,
  text = "+2 Power. Echo: Death Keystone.", power = 2,
  on_play = function(g, k, p)
    if R.echo(g, k, p, "Void") then
      g:log("Shadowridge Scout: Echo")
      R.death_keystone(g, p)
    end
  end,
}

cards["Spiteful Gladiator"] = {
  cost = 3, currency = "runes", types = { "Hero" }, faction = "Void", vp = 1, centre = 3,
  text = "+2 Runes. You may immediately put your deck into your discard pile.", runes = 2,
  on_play = function(g, k, p)
    if R.may(g, k, p, "deck", "Spiteful Gladiator", "put your deck into your discard pile?",
             "Put deck into discard", "Keep deck") then
      R.deck_into_discard(g, p)
    end
  end,
}

cards["Burial Guardian"] = {
  cost = 4, currency = "runes", types = { "Hero" }, faction = "Lifebound", vp = 2, centre = 3,
  text = "+2 Runes. The next time you acquire a Lifebound card this turn: Death Keystone.",
  runes = 2,
  on_play = function(g) g:add_counter("_burial", 0, 1) end,
}

cards["Ancient Stag"] = {
  cost = 2, currency = "runes", types = { "Hero" }, faction = "Lifebound", vp = 1, centre = 3,
  text = "+3 Honour. Unite: Life Keystone.", honour = 3,
  unite = function(g, _, p) R.life_keystone(g, p) end,
}

cards["Alosyan Guide"] = {
  cost = 3, currency = "runes", types = { "Hero" }, faction = "Lifebound", vp = 1, centre = 3,
  text = "+3 Honour. When you acquire this card, if you have played a Lifebound Hero "
    .. "this turn, put it directly into your hand.",
  honour = 3,
  on_acquire = function(g, _, p, id)
    if g:counter("_lbhero") > 0 then
      g:move(id, "hand", p)
      g:log("Alosyan Guide goes into ", g:player_name(p), "'s hand")
    end
  end,
}

cards["Blind Seer"] = {
  cost = 2, currency = "runes", types = { "Hero" }, faction = "Enlightened", vp = 1, centre = 3,
  text = "+1 Card. Serenity: Life Keystone.", cards = 1,
  on_play = function(g, _, p)
    if R.serenity(g, p) then
      g:log("Blind Seer: Serenity")
      R.life_keystone(g, p)
    end
  end,
}

cards["Isla, Serene Prodigy"] = {
  cost = 8, currency = "runes", types = { "Hero" }, faction = "Enlightened", vp = 4, centre = 1,
  text = "Acquire a hero or construct from the centre row for free. Shuffle that card and "
    .. "your discard pile into your deck.",
  on_play = function(g, k, p)
    local ids = {}
    for _, id in ipairs(R.row(g)) do
      if not k.cards[g:name(id)].is.Monster then ids[#ids + 1] = id end
    end
    local picked = k:choose_cards(g, p, ids, { kind = "acquire", source = "Isla, Serene Prodigy",
      prompt = "Isla: acquire a hero or construct from the centre row for free" })
    if not picked[1] then return end
    R.acquire(g, k, p, picked[1])
    R.shuffle_discard_into_deck(g, p)
  end,
}

-- ---- constructs (stay in play; `runes`/`power` again at the start of each turn) ---------

cards["Beacon of the Lost"] = {
  cost = 1, currency = "runes", types = { "Construct" }, faction = "Void", vp = 0, centre = 2,
  text = "+1 Rune each turn. Echo: once per turn, +1 Power.", runes = 1,
  ability = { text = "Echo, +1 Power",
              cond = function(g, k, p) return R.echo(g, k, p, "Void") end,
              effect = function(g, _, p) R.add_power(g, p, 1) end },
}

cards["Pathfinder's Totem"] = {
  cost = 4, currency = "runes", types = { "Construct" }, faction = "Lifebound", vp = 2,
  centre = 2,
  text = "+1 Rune each turn. Unite: once per turn, +1 Rune.", runes = 1,
  ability = { text = "Unite, +1 Rune",
              cond = function(g, k, _, id) return R.united(g, k, id) end,
              effect = function(g, _, p) R.add_runes(g, p, 1) end },
}

cards["Sacred Pot"] = {
  cost = 1, currency = "runes", types = { "Construct" }, faction = "Enlightened", vp = 0,
  centre = 2,
  text = "Serenity: once per turn, draw a card.",
  ability = { text = "Serenity, draw a card",
              cond = function(g, _, p) return R.serenity(g, p) and g:count("deck", p) > 0 end,
              effect = function(g, k, p) k:draw(g, p, 1) end },
}

cards["Templar Outpost"] = {
  cost = 6, currency = "runes", types = { "Construct" }, faction = "Enlightened", vp = 3,
  centre = 1, free_defeat = 4,
  text = "Once per turn, defeat a monster costing 4 Power or less for free.",
}

return {
  cards = cards,
  -- Display order: base cards, Temples, then the centre deck by type and cost.
  order = { "Apprentice", "Militia", "Mystic", "Heavy Infantry", "Cultist",
            "Temple of Life", "Temple of Death", "Temple of Immortality",
            "Cavern Horror", "Hellfrost Imps", "Starved Abomination", "Crypt Lurker",
            "Kan'zir, the Ravager", "Mutated Scavenger", "Hurras, Sea's Fury",
            "Iku, Valley Tyrant",
            "Ancient Stag", "Blind Seer", "Shadowridge Scout", "Alosyan Guide",
            "Spiteful Gladiator", "Burial Guardian", "Soulsnare Hunter",
            "Isla, Serene Prodigy",
            "Beacon of the Lost", "Sacred Pot", "Pathfinder's Totem", "Templar Outpost" },
  start = { { name = "Apprentice", count = 8 }, { name = "Militia", count = 2 } },
  piles = { { name = "Mystic", count = 20 }, { name = "Heavy Infantry", count = 20 },
            { name = "Cultist", count = 1 } },
}
