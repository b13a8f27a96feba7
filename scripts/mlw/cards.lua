-- mlw/cards.lua: the card set (cards_monsters.lua, cards_spells.lua, cards_traps.lua) as
-- the table the engine's catalog and the kernel read.
--
-- Each card's definition inherits its type's default script (types.lua) and overrides
-- what it changes by name. The engine's catalog shows `cost`, `types` and `text`
-- ("Monster 2/3. Activate: deal 1 damage to a monster.").

local K = require("mlw.kernel")
local types = require("mlw.types")

local cards, order = {}, {}

local LABEL = { monster = "Monster", spell = "Spell", trap = "Trap" }

local function add(def)
  setmetatable(def, { __index = types[def.type] })
  def.types = { LABEL[def.type] }
  def.printed = def.text
  if def.type == "monster" then
    def.text = "Monster " .. def.attack .. "/" .. def.health .. ". " .. def.text
  end
  if cards[def.name] then error("mlw: card " .. def.name .. " twice") end
  cards[def.name] = def
  order[#order + 1] = def.name
end

for _, file in ipairs { "mlw.cards_monsters", "mlw.cards_spells", "mlw.cards_traps" } do
  for _, def in ipairs(require(file)) do add(def) end
end

-- The wizards are entities too (they listen, hold statuses and are targets).
cards.Wizard = { name = "Wizard", type = "wizard", cost = 0, types = { "Wizard" },
                 text = "Loses at 0 health." }

for name, def in pairs(cards) do K.cards[name] = def end

return { cards = cards, order = order }
