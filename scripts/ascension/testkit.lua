-- ascension/testkit.lua: stacking helpers for Ascension rules tests, on top of
-- deckbuilder/testkit.lua (hands, decks, answering by label). Replaced cards go to the
-- "box" zone (out of the game) as there.

local kit = require("deckbuilder.testkit")

local A = {}

local function box(g, zone, owner)
  local n = g:count(zone, owner)
  for _ = 1, n do g:move(g:top(zone, owner), "box", 0) end
end

-- The centre row: names[i] in slot i (a false/nil entry leaves the slot empty).
function A.set_row(g, names)
  for i = 1, 6 do
    box(g, "row:" .. i, 0)
    if names[i] then g:new(names[i], "row:" .. i, 0) end
  end
end

-- The hidden centre deck; names[1] is its top card (the next one dealt).
function A.set_centre(g, names)
  box(g, "centre_deck", 0)
  for i = #names, 1, -1 do g:new(names[i], "centre_deck", 0) end
end

-- Names in the centre row, slot order, comma-joined.
function A.row(g)
  local t = {}
  for i = 1, 6 do
    local id = g:top("row:" .. i, 0)
    t[#t + 1] = id and g:name(id) or "-"
  end
  return table.concat(t, ",")
end

A.ROW = { "Ancient Stag", "Blind Seer", "Shadowridge Scout", "Alosyan Guide",
          "Spiteful Gladiator", "Burial Guardian" }
A.FIVE = { "Apprentice", "Apprentice", "Apprentice", "Apprentice", "Apprentice" }

-- Match spec: player 1 starts with `hand`, deck (top first, default 5 Apprentices), an
-- empty discard (or `discard`), the centre row `row` (default A.ROW), the centre deck
-- `centre` (default: unchanged); more(g) stacks anything else.
function A.match(spec)
  return kit.match { players = spec.players, seed = spec.seed, bots = spec.bots,
                     hand = spec.hand, deck = spec.deck or A.FIVE, discard = spec.discard,
                     more = function(g)
                       A.set_row(g, spec.row or A.ROW)
                       if spec.centre then A.set_centre(g, spec.centre) end
                       if spec.more then spec.more(g) end
                     end }
end

-- Give a Temple to player p (0 = nobody) in a stacked match.
function A.give_temple(g, p, name)
  g:move(g:counter("_temple:" .. name), "temples", p)
end

function A.holder(g, name)
  local _, owner = g:zone_of(g:counter("_temple:" .. name))
  return owner
end

-- Put a construct straight into p's constructs (as if played on an earlier turn).
function A.add_construct(g, p, name)
  return g:new(name, "constructs", p)
end

return A
