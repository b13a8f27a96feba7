-- elemental/cards.lua: the card set (cards_earth/wind/fire.lua) and the heroes, as the
-- table the engine's catalog and the kernel read.
--
-- A card's `text` as shown to clients is its printed face: requirements, type and
-- stats, then the card's own words ("Requires Fire 2. Minion 3/3. Berserk."). The
-- engine's catalog shows `cost` (the mana), `types` and `text`.
--
-- The balance rule (seed 001 §3.2): a card's budget is 2 x mana + 1, plus 2 per point of
-- its main element requirement above 1 + mana // 2 (minus 2 per point below), plus 1 per
-- point above 1 of any other requirement; attack and health cost 1 a point, keywords
-- their price (kernel.KEYWORDS), abilities theirs (effects.lua). tests/cards.lua holds
-- every card to its budget within one point.

local K = require("elemental.kernel")
local fx = require("elemental.effects")
local cardset = require("boardkit.cards")

local function requirements(def)
  local parts = {}
  for _, e in ipairs(K.ELEMENTS) do
    if (def[e] or 0) > 0 then parts[#parts + 1] = K.ELEMENT_NAME[e] .. " " .. def[e] end
  end
  return "Requires " .. table.concat(parts, ", ") .. ". "
end

local cards, order = cardset.set(
  { "elemental.cards_earth", "elemental.cards_wind", "elemental.cards_fire" },
  function(def)
    def.cost = def.mana
    if def.attack then
      def.types = { "Minion" }
      cardset.face(def, requirements(def) .. "Minion " .. def.attack .. "/" .. def.health .. ". ")
    else
      def.types = { "Spell" }
      cardset.face(def, requirements(def))
    end
  end)

-- The heroes: 30 health, starting elements (2 in their own, 1 in the others), and a
-- hero power usable once per turn for 2 mana.
local heroes = {
  ["Earth Hero"] = { element = "earth", power_cost = 2, target = "minion", aim = "boost",
    text = "Hero power (2 mana, once per turn): a minion gets +1/+1 until end of turn.",
    play = fx.buff(1, 1, nil, "turn") },
  ["Wind Hero"] = { element = "wind", power_cost = 2, target = "minion", move = true,
    adjacent = true, aim = "move",
    text = "Hero power (2 mana, once per turn): move a minion to an adjacent empty space.",
    play = fx.move() },
  ["Fire Hero"] = { element = "fire", power_cost = 2, target = "any",
    text = "Hero power (2 mana, once per turn): deal 1 damage.", play = fx.deal(1) },
}
local hero_order = { "Earth Hero", "Wind Hero", "Fire Hero" }
for _, name in ipairs(hero_order) do
  local h = heroes[name]
  h.name, h.cost, h.types = name, 0, { "Hero" }
  cards[name] = h
end

return { cards = cards, order = order, heroes = heroes, hero_order = hero_order,
         hero_of = { earth = "Earth Hero", wind = "Wind Hero", fire = "Fire Hero" } }
