-- boardkit/cards.lua: how a board game writes its card files and gathers them into one
-- set, so every card file reads like the printed cards and no game writes the builder again.
--
-- A card file:
--   local list, card = cards.builder("monster")     -- the type is optional
--   card "Goblin" { cost = 1, attack = 1, health = 2, text = "" }
--   return list
-- The set (the game's cards.lua): cards.set(files, finish) requires each file in turn,
-- lets `finish(def)` complete each definition (types, printed face), and returns the
-- definitions by name and the names in file order (the order the catalog and tests walk).

local cards = {}

-- A new card list and its builder: `card(name)(def)` names def (and gives it the type
-- `kind`, when there is one), appends it to the list, and returns it.
function cards.builder(kind)
  local list = {}
  local function card(name)
    return function(def)
      if kind then def.name, def.type = name, kind else def.name = name end
      list[#list + 1] = def
      return def
    end
  end
  return list, card
end

-- The definitions of the card files `files` (module names), each completed by
-- `finish(def)`: name -> definition, and the names in order. A name twice is an error.
function cards.set(files, finish)
  local set, order = {}, {}
  for _, file in ipairs(files) do
    for _, def in ipairs(require(file)) do
      finish(def)
      if set[def.name] then error("card " .. def.name .. " twice") end
      set[def.name] = def
      order[#order + 1] = def.name
    end
  end
  return set, order
end

-- The printed face of def: its own words stay in `printed` (what rules and bots quote),
-- and `text`, what clients show, becomes `prefix` (requirements, type, stats) before them.
function cards.face(def, prefix)
  def.printed = def.text
  def.text = prefix .. def.text
end

return cards
