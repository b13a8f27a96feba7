-- mlw/cards.lua: the card set (cards_monsters.lua, cards_spells.lua, cards_traps.lua) as
-- the table the engine's catalog and the kernel read.
--
-- Each card's definition inherits its type's default script (types.lua) and overrides
-- what it changes by name. The engine's catalog shows `cost`, `types` and `text`
-- ("Monster 2/3. Activate: deal 1 damage to a monster.").

local k = require("mlw.kernel")
local types = require("mlw.types")
local cardset = require("boardkit.cards")

local LABEL = { monster = "Monster", spell = "Spell", trap = "Trap" }

local cards, order = cardset.set({ "mlw.cards_monsters", "mlw.cards_spells", "mlw.cards_traps" },
  function(def)
    setmetatable(def, { __index = types[def.type] })
    def.types = { LABEL[def.type] }
    local stats = def.type == "monster" and "Monster " .. def.attack .. "/" .. def.health .. ". "
    cardset.face(def, stats or "")
  end)

-- The wizards are entities too (they listen, hold statuses and are targets).
cards.Wizard = { name = "Wizard", type = "wizard", cost = 0, types = { "Wizard" },
                 text = "Loses at 0 health." }

for name, def in pairs(cards) do
  k.cards[name] = def
  if def.on then k.HANDLING[name] = true end
end
k.bus:index(k.cards) -- which cards listen to which event (boardkit/events.lua)
k:index_entries() -- what each monster enters play with (k:summon)

return { cards = cards, order = order }
