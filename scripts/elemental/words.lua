-- elemental/words.lua: what a player reads of Elemental Command (docs/SCRIPTING.md,
-- "Presentation hints"): its title, a short rules summary and the words of its counters
-- (the hero's resources, and the minions' keywords, shown on the card as `NAME:ID`).

local counters = {
  mana = { label = "Mana", order = 3, description = "Spent to play cards and the hero power" },
  max_mana = { label = "Mana per turn", order = 4,
               description = "Mana refilled each turn: +1 a turn, up to 10" },
  earth = { label = "Earth", order = 5, description = "Earth level: cards require it" },
  wind = { label = "Wind", order = 6, description = "Wind level: cards require it" },
  fire = { label = "Fire", order = 7, description = "Fire level: cards require it" },
  fatigue = { label = "Fatigue", order = 8,
              description = "Damage dealt by the last draw from an empty deck" },
  power_used = { hidden = true }, -- the options say whether the hero power is left
  resource_used = { hidden = true }, -- the options say whether the resource choice is left
}

-- The minions' keywords, as cards print them.
local KEYWORDS = {
  taunt = { "Taunt", "While nothing stands in front of it, its side can only be attacked here" },
  haste = { "Haste", "May act on the turn it is played" },
  frenzy = { "Frenzy", "Attacks twice a turn" },
  sweep = { "Sweep", "Also hits the target's left and right neighbours" },
  berserk = { "Berserk", "Attacks straight ahead whenever it can" },
  deathtouch = { "Deathtouch", "Destroys any minion it damages" },
  free = { "Free targeting", "May attack any enemy minion, whatever its position" },
  reflect = { "Reflect", "A minion attacking it also suffers its own attack" },
  invulnerable = { "Invulnerable", "Hits left that deal it nothing" },
  swift = { "Swift", "May move and attack in the same turn" },
  root = { "Rooted", "Cannot move on its own" },
  stun = { "Stunned", "Neither attacks nor moves until the end of its owner's next turn" },
}
for name, kw in pairs(KEYWORDS) do
  counters[name] = { label = kw[1], order = 10, description = kw[2] }
end

return {
  title = "Elemental Command",
  summary = table.concat({
    "Two heroes of 30 health face each other across a board of 5 columns: each side has a "
      .. "front and a back row. Each player has a 40-card deck and starts with 6 cards; "
      .. "before the first turn you may shuffle any of them back and draw again.",
    "On your turn: draw a card, your mana refills (one more each turn, up to 10), then in "
      .. "any order: once a turn gain 1 mana or raise an element; play minions onto empty "
      .. "spaces of your side and cast spells (a card costs mana and needs element levels, "
      .. "which are not spent); use your hero's power (2 mana, once a turn); and move or "
      .. "attack with each minion that was already on the board.",
    "A minion attacks the frontmost enemy minion of its column or a neighbouring one, or "
      .. "the enemy hero when no enemy minion stands in its own column. Both deal damage at "
      .. "once. Reduce the enemy hero to 0 health to win.",
  }, "\n\n"),
  counters = counters,
}
