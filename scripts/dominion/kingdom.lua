-- dominion/kingdom.lua: which kingdom piles a match uses, and the supply it builds.
--
-- The mode comes from the match option "kingdom": a preset name, "random", "draft", or
-- an explicit comma-separated list of kingdom card names. Presets are data; "random"
-- draws from g:random during setup. The engine's setup cannot ask anyone, so "draft"
-- builds only the base piles in setup and marks the match (_draft = 1); game.turn runs
-- the draft (kingdom.draft) at the start of the first turn, before that turn is played.

local memo = require("deckbuilder.memo")

local kingdom = {}

kingdom.SIZE = 10

kingdom.presets = {
  first_game = { "Cellar", "Market", "Militia", "Mine", "Moat",
                 "Remodel", "Smithy", "Village", "Woodcutter", "Workshop" },
  big_money = { "Adventurer", "Bureaucrat", "Chancellor", "Chapel", "Feast",
                "Laboratory", "Market", "Mine", "Moneylender", "Throne Room" },
  interaction = { "Bureaucrat", "Chancellor", "Council Room", "Festival", "Library",
                  "Militia", "Moat", "Spy", "Thief", "Village" },
  size_distortion = { "Cellar", "Chapel", "Feast", "Gardens", "Laboratory",
                      "Thief", "Village", "Witch", "Woodcutter", "Workshop" },
  village_square = { "Bureaucrat", "Cellar", "Festival", "Library", "Market",
                     "Remodel", "Smithy", "Throne Room", "Village", "Woodcutter" },
}

-- The option the game declares (docs/SCRIPTING.md, "Options and bots"): what a player
-- may ask for over the network: a preset, "random", "draft", or a list of kingdom.SIZE
-- of this bundle's kingdom cards (`list`, checked by the engine and the matchmaker, so a
-- new card can be asked for by name). `deckhand sim --option` may pass a list of any
-- length: kingdom.names checks it when the match is set up.
-- What players read for each kind of kingdom (the option's value_labels).
kingdom.LABELS = { first_game = "First game", random = "Random", draft = "Draft",
                   big_money = "Big Money", interaction = "Interaction",
                   size_distortion = "Size Distortion", village_square = "Village Square" }

function kingdom.option(data)
  local values = { "first_game", "random", "draft" }
  local names = {}
  for name in pairs(kingdom.presets) do
    if name ~= "first_game" then names[#names + 1] = name end
  end
  table.sort(names)
  for _, name in ipairs(names) do values[#values + 1] = name end
  return { name = "kingdom", label = "Kingdom", values = values, default = "first_game",
           value_labels = kingdom.LABELS, list = data.kingdom, list_size = kingdom.SIZE,
           help = "the 10 kingdom piles: the First Game preset, 10 at random, a draft "
             .. "(each player picks in turn), a named preset, or 10 kingdom cards by name" }
end

-- kingdom.SIZE distinct cards of data.kingdom, uniformly, from the match's generator
-- (a partial Fisher-Yates shuffle of a copy of the list).
local function random_names(g, data)
  local pool, t = {}, {}
  for i, name in ipairs(data.kingdom) do pool[i] = name end
  for i = 1, kingdom.SIZE do
    local j = i - 1 + g:random(#pool - i + 1)
    pool[i], pool[j] = pool[j], pool[i]
    t[i] = pool[i]
  end
  return t
end

-- "Cellar, Chapel, ..." -> names; every one a distinct kingdom card.
local function listed_names(mode, data)
  local t, seen = {}, {}
  for item in string.gmatch(mode, "[^,]+") do
    local name = item:match("^%s*(.-)%s*$")
    local def = data.cards[name]
    if not def or def.supply then error("dominion: '" .. name .. "' is not a kingdom card") end
    if seen[name] then error("dominion: '" .. name .. "' is listed twice") end
    seen[name] = true
    t[#t + 1] = name
  end
  if #t == 0 then error("dominion: empty kingdom list") end
  return t
end

-- The kingdom option's mode ("first_game" when none).
local function mode_of(g)
  local mode = g:option("kingdom") or "first_game"
  if mode == "" or mode == "default" then mode = "first_game" end
  return mode
end

-- The kingdom names chosen in setup, or nil for a draft.
function kingdom.names(g, data, mode)
  mode = mode or mode_of(g)
  if kingdom.presets[mode] then return kingdom.presets[mode] end
  if mode == "random" then return random_names(g, data) end
  if mode == "draft" then return nil end
  if mode:find(",", 1, true) or data.cards[mode] then return listed_names(mode, data) end
  error("dominion: unknown kingdom option '" .. mode .. "'")
end

-- A kingdom pile's size: 10, or 8/12 (2 players / more) for Victory cards.
local function kingdom_size(def, n)
  if def.is.Victory then return n == 2 and 8 or 12 end
  return 10
end

-- Piles for the given kingdom names (nil = base cards only), in display order.
function kingdom.piles_of(g, data, names, with_base)
  local n = g:nplayers()
  local chosen = {}
  for _, name in ipairs(names or {}) do chosen[name] = true end
  local piles = {}
  for _, name in ipairs(data.order) do
    local def = data.cards[name]
    if def.supply then
      if with_base then piles[#piles + 1] = { name = name, count = def.supply[n] } end
    elseif chosen[name] then
      piles[#piles + 1] = { name = name, count = kingdom_size(def, n) }
    end
  end
  return piles
end

-- The kingdom is kept as a bit set in the hidden counter _kingdom, so that game.lua can
-- pick a kernel whose order holds only this match's piles. Each kingdom card's bit is
-- fixed by this list: card BITS[i] is bit i - 1. The list is append-only: a new card goes
-- at the end, never in between, so the bits of running matches keep their meaning and a
-- bundle that adds a card can still be applied to them. (It started as the display order
-- of the 32 cards of the time.) At most 63 cards: the counter is a signed 64-bit integer.
kingdom.BITS = {
  "Cellar", "Chapel", "Moat", "Chancellor", "Harbinger", "Merchant", "Vassal", "Village",
  "Woodcutter", "Workshop", "Bureaucrat", "Feast", "Gardens", "Militia", "Moneylender",
  "Poacher", "Remodel", "Smithy", "Spy", "Thief", "Throne Room", "Bandit", "Council Room",
  "Festival", "Laboratory", "Library", "Market", "Mine", "Sentry", "Witch", "Adventurer",
  "Artisan",
}

local bit_of = {}
for i, name in ipairs(kingdom.BITS) do bit_of[name] = 1 << (i - 1) end
assert(#kingdom.BITS <= 63, "dominion: kingdom.BITS is full")

-- The bit of a kingdom card; an error for a card without one (append it to BITS).
function kingdom.bit(name)
  return bit_of[name] or error("dominion: kingdom card '" .. name .. "' has no bit in "
                               .. "kingdom.BITS (append it there)")
end

-- The bit set of the kingdom names.
function kingdom.mask(names)
  local mask = 0
  for _, name in ipairs(names) do mask = mask | kingdom.bit(name) end
  return mask
end

-- The base cards and the kingdom cards of mask, in display order. A bit that names no
-- card of data (a kingdom written by a newer bundle) is refused: the match would lack
-- a pile.
function kingdom.order_of(data, mask)
  local t, seen = {}, 0
  for _, name in ipairs(data.order) do
    if data.cards[name].supply then
      t[#t + 1] = name
    elseif mask & kingdom.bit(name) ~= 0 then
      t[#t + 1] = name
      seen = seen | bit_of[name]
    end
  end
  if seen ~= mask then
    error(string.format("dominion: kingdom bits 0x%x name no card of this bundle", mask & ~seen))
  end
  return t
end

-- The supply of a kingdom is a pure function of the bundle's card data, the kingdom and
-- the player count, the same for every match that has them: built once per VM, kept in
-- a cache (memo.cache: emptied when it grows, and by the engine when memory is tight).
-- by_key[key][n] = { mask =, piles = }; key: the mode of a fixed kingdom (a preset, a
-- list), or the mask of a random one; by_key[COUNT]: how many keys it holds.
local by_key = memo.cache()
local BY_KEY_MAX = 64
local COUNT = {}

-- The cached supply of key for n players, made by make() (-> mask, names) when missing.
local function supply_of(g, data, key, n, make)
  local by_n = by_key[key]
  local s = by_n and by_n[n]
  if s then return s end
  local mask, names = make()
  if not by_n then
    if (by_key[COUNT] or 0) >= BY_KEY_MAX then memo.empty(by_key) end
    by_n = {}
    by_key[key], by_key[COUNT] = by_n, (by_key[COUNT] or 0) + 1
  end
  s = { mask = mask, piles = kingdom.piles_of(g, data, names, true) }
  by_n[n] = s
  return s
end

-- The supply piles of this match, in display order: base cards, then the kingdom.
-- The g calls (the option, a random kingdom's draws, the counter) are made on every
-- match, cached or not.
function kingdom.piles(g, data)
  local mode = mode_of(g)
  if mode == "draft" then
    g:set_counter("_draft", 0, 1)
    return kingdom.piles_of(g, data, nil, true)
  end
  local n = g:nplayers()
  local s
  if mode == "random" then
    local names = random_names(g, data)
    local mask = kingdom.mask(names)
    s = supply_of(g, data, mask, n, function() return mask, names end)
  else
    s = supply_of(g, data, mode, n, function()
      local names = kingdom.names(g, data, mode)
      return kingdom.mask(names), names
    end)
  end
  g:set_counter("_kingdom", 0, s.mask)
  return s.piles
end

-- The draft: players pick one kingdom card each, in turn order from player 1, until
-- kingdom.SIZE are picked (decisions of kind "draft", labels = card names); then the
-- kingdom piles are added to the supply. Runs once, at the start of the first turn.
function kingdom.draft(g, k, data)
  local left, picked = {}, {}
  for i, name in ipairs(data.kingdom) do left[i] = name end
  local n = g:nplayers()
  for i = 1, kingdom.SIZE do
    local p = (i - 1) % n + 1
    local opts = {}
    for j, name in ipairs(left) do opts[j] = { label = name, name = name } end
    local r = g:choose { player = p, kind = "draft", options = opts,
                         prompt = "Draft: pick a kingdom card (" .. i .. " of " ..
                           kingdom.SIZE .. ")" }
    local name = table.remove(left, r[1])
    picked[i] = name
    g:log(g:player_name(p) .. " drafts " .. name)
  end
  k:setup_supply(g, kingdom.piles_of(g, data, picked, false))
  g:set_counter("_kingdom", 0, kingdom.mask(picked))
  g:set_counter("_draft", 0, 0)
end

return kingdom
