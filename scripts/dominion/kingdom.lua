-- dominion/kingdom.lua: which 10 kingdom piles a match uses, and the supply it builds.
--
-- The mode comes from the match option "kingdom". Presets are data; a mode that needs
-- randomness or players' picks ("random", "draft") is one more entry in `modes`, a
-- function returning the 10 names (using only g:random / g:choose in setup order).

local kingdom = {}

kingdom.presets = {
  first_game = { "Cellar", "Market", "Militia", "Mine", "Moat",
                 "Remodel", "Smithy", "Village", "Woodcutter", "Workshop" },
}

kingdom.modes = {
  first_game = function() return kingdom.presets.first_game end,
}

function kingdom.names(g)
  local mode = g:option("kingdom") or "first_game"
  if mode == "" or mode == "default" then mode = "first_game" end
  local pick = kingdom.modes[mode]
  if not pick then error("dominion: unknown kingdom option '" .. mode .. "'") end
  return pick(g)
end

-- A kingdom pile's size: 10, or 8/12 (2 players / more) for Victory cards.
local function kingdom_size(def, n)
  for _, t in ipairs(def.types) do
    if t == "Victory" then return n == 2 and 8 or 12 end
  end
  return 10
end

-- The supply piles of this match, in display order: base cards, then the kingdom.
function kingdom.piles(g, data)
  local n = g:nplayers()
  local chosen = {}
  for _, name in ipairs(kingdom.names(g)) do chosen[name] = true end
  local piles = {}
  for _, name in ipairs(data.order) do
    local def = data.cards[name]
    if def.supply then
      piles[#piles + 1] = { name = name, count = def.supply[n] }
    elseif chosen[name] then
      piles[#piles + 1] = { name = name, count = kingdom_size(def, n) }
    end
  end
  return piles
end

return kingdom
