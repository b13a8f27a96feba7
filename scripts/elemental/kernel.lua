-- elemental/kernel.lua: the state of an Elemental Command match and the rules that
-- read it: heroes, resources, the board, minions' stats and keywords, drawing.
--
-- One kernel per bundle (built by game.lua from the card data); it holds no match state.
-- Minions stand on the shared boardkit grid (zones `board:front:C` / `board:back:C` of
-- their owner, columns 1-5 facing the same columns across the table); their attack,
-- health and keywords are boardkit statuses, published as counters `NAME:ID`. Combat
-- and deaths are in combat.lua, the card effects in effects.lua, the turn in turn.lua:
-- each adds its methods to this class.

local grid = require("boardkit.grid")
local status = require("boardkit.status")
local events = require("boardkit.events")
local hand = require("boardkit.hand")

local K = {}
K.__index = K

K.ROWS = { "front", "back" }
K.COLS = 5
K.HAND_LIMIT = 10
K.START_HEALTH = 30 -- a hero's, also its most
K.BODY = "hero" -- the zone of a player's body (boardkit/health.lua)
K.MANA_CAP = 10
K.ELEMENTS = { "earth", "wind", "fire" }
K.ELEMENT_NAME = { earth = "Earth", wind = "Wind", fire = "Fire" }

-- The keywords a minion may hold, in the order every walk over them takes. `cost` is
-- the keyword's price in a card's budget (cards.lua, the balance rule).
K.KEYWORDS = {
  { name = "taunt", label = "Taunt", cost = 1 },
  { name = "haste", label = "Haste", cost = 2 },
  { name = "frenzy", label = "Frenzy", cost = 2 },
  { name = "sweep", label = "Sweep", cost = 2 },
  { name = "berserk", label = "Berserk", cost = 0 },
  { name = "deathtouch", label = "Deathtouch", cost = 3 },
  { name = "free", label = "Free targeting", cost = 2 },
  { name = "reflect", label = "Reflect", cost = 2 },
  { name = "invulnerable", label = "Invulnerable", cost = 2 }, -- per hit absorbed
  { name = "swift", label = "Swift", cost = 1 },
  { name = "root", label = "Root", cost = -1 },
  { name = "stun", label = "Stun", cost = -2 },
}

local st -- the status object, set below (the boost hooks need it)

local function veto_self(_, id, ctx)
  if ctx.unit == id then return false end
end

local defs = {
  { name = "attack", public = true, keep = true },
  { name = "health", public = true, keep = true },
  { name = "max_health", public = true, keep = true },
  -- +X/+X for a while (Earth's hero power): undone when it wears off or is dispelled.
  { name = "boost", on_end = function(g, id, v)
    st:add(g, id, "attack", -v)
    st:add(g, id, "max_health", -v)
    if st:get(g, id, "health") > st:get(g, id, "max_health") then
      st:set(g, id, "health", st:get(g, id, "max_health"))
    end
  end },
}
for _, kw in ipairs(K.KEYWORDS) do
  local d = { name = kw.name, public = true }
  if kw.name == "stun" then d.on = { can_attack = veto_self, can_move = veto_self } end
  if kw.name == "root" then d.on = { can_move = veto_self } end
  defs[#defs + 1] = d
end
st = status.new(defs)

-- cards: name -> definition; heroes: hero name -> hero (both from cards.lua).
function K.new(cards, heroes)
  local self = setmetatable({ cards = cards, heroes = heroes, st = st }, K)
  -- Each card's element requirements in K.ELEMENTS order (g:shortfalls reads them).
  self.needs = {}
  for name, def in pairs(cards) do
    local need = {}
    for i, e in ipairs(K.ELEMENTS) do need[i] = def[e] or 0 end
    self.needs[name] = need
  end
  -- The statuses each minion card enters the board with (its numbers and keywords, in
  -- the order summon set them one by one): one g:status_enter sets them all.
  self.entry = {}
  for name, def in pairs(cards) do
    if def.attack then self.entry[name] = K.entry_of(def) end
  end
  -- The cards whose text reacts to a hit (g:clash leaves their attacks to the Lua rule).
  self.hit_text = {}
  for name, def in pairs(cards) do
    if def.on_hurt or def.on_damage then self.hit_text[name] = true end
  end
  self.grid = grid.new { rows = K.ROWS, cols = K.COLS }
  self.bus = events.new {
    status = st,
    card = function(g, id) return self.cards[g:name(id)] end,
    -- Every minion listens; while none on the board has a card that listens (an aura,
    -- counted in `_auras`), only the minion the event is about can have a handler (its
    -- statuses'), which spares a walk over the board per question.
    listeners = function(g, _, ctx)
      if ctx.unit and g:counter("_auras") == 0 then return { ctx.unit } end
      return self:all_minions(g)
    end,
  }
  self.hand = { limit = K.HAND_LIMIT, lost = "burned", empty = function(g, p)
    local f = g:add_counter("fatigue", p, 1)
    g:log(g:player_name(p), " has no card to draw: fatigue deals ", f, " damage")
    self:hurt_hero(g, p, f)
  end }
  return self
end

-- ---- players and resources ----------------------------------------------------------

function K.other(p) return 3 - p end

function K.active(_, g) return g:counter("active") end

function K.turn_no(_, g) return g:counter("turn") end

function K.hero(_, g, p) return g:top("hero", p) end

function K:hero_def(g, p) return self.heroes[g:name(self:hero(g, p))] end

function K.is_hero(_, g, id) return (g:zone_of(id)) == "hero" end

function K.health(_, g, p) return g:counter("health", p) end

-- Does p meet the element requirements of the card definition def?
function K.meets(_, g, p, def)
  local es = K.ELEMENTS
  for i = 1, #es do
    local e = es[i]
    if (def[e] or 0) > g:counter(e, p) then return false end
  end
  return true
end

-- ---- the board --------------------------------------------------------------------------

function K:def(g, id) return self.cards[g:name(id)] end

function K:on_board(g, id) return self.grid:pos(g, id) ~= nil end

function K:minions(g, p) return self.grid:pieces(g, p) end

-- Every minion, the active player's first (reading order within a side): the set order
-- in which simultaneous triggers resolve.
function K:all_minions(g)
  local a = self:active(g)
  if a == 0 then a = 1 end
  local out = self.grid:pieces(g, a)
  local ids = self.grid:pieces(g, K.other(a))
  for i = 1, #ids do out[#out + 1] = ids[i] end
  return out
end

function K.owner(_, g, id)
  local _, owner = g:zone_of(id)
  return owner
end

function K:where(g, id)
  local r, c = self.grid:pos(g, id)
  if not r then return "" end
  return self.grid:label(r, c)
end

-- "Ember Imp (front 3)".
function K:describe(g, id)
  if self:is_hero(g, id) then return g:player_name(self:owner(g, id)) .. "'s hero" end
  return g:name(id) .. " (" .. self:where(g, id) .. ")"
end

-- Stats and keywords are statuses; these read them with g:get (what st:get does) without
-- its call: the bots and the option checks ask them thousands of times a turn.
function K.attack_of(_, g, id) return g:get(id, "attack") end

function K.health_of(_, g, id)
  local zone, owner = g:zone_of(id)
  if zone == "hero" then return g:counter("health", owner) end
  return g:get(id, "health")
end

function K.has(_, g, id, kw) return g:get(id, kw) ~= 0 end

-- The statuses a minion card def enters with: names, their end attributes and values
-- (attack, health, max_health, then each keyword it has, as the card says: true is 1).
function K.entry_of(def)
  local e = { names = {}, untils = {}, values = {} }
  local function add(name, v)
    local i = #e.names + 1
    e.names[i], e.untils[i], e.values[i] = name, st.until_attr[name], v
  end
  add("attack", def.attack)
  add("health", def.health)
  add("max_health", def.health)
  for _, kw in ipairs(K.KEYWORDS) do
    local v = def[kw.name]
    if v then add(kw.name, v == true and 1 or v) end
  end
  return e
end

-- A minion enters player p's space (r, c) with its printed stats and keywords (one
-- g:status_enter, in C: what a st:set per status does on a piece that holds none).
function K:summon(g, id, p, r, c)
  local name = g:name(id)
  local def = self.cards[name]
  self.grid:place(g, id, p, r, c)
  local e = self.entry[name]
  g:status_enter(id, e.names, e.untils, e.values)
  g:set(id, "summoned", self:turn_no(g))
  g:set(id, "attacks", 0)
  g:set(id, "moved", 0)
  g:set(id, "dying", 0)
  if def.on then g:add_counter("_auras", 0, 1) end
end

-- A minion leaves the board for zone (of its owner): its statuses and marks go.
function K:unsummon(g, id, zone)
  local p = self:owner(g, id)
  if self:def(g, id).on then g:add_counter("_auras", 0, -1) end
  st:clear(g, id)
  g:set(id, "dying", 0)
  g:move(id, zone, p)
end

-- ---- drawing -------------------------------------------------------------------------

-- p draws n cards: an empty deck deals fatigue damage (1, 2, 3...), a full hand loses
-- the card (shown to both).
function K:draw(g, p, n) hand.draw(g, p, n, self.hand) end

function K:hand_full(g, p) return hand.full(g, p, self.hand) end

-- The hero of p loses n health.
function K.hurt_hero(_, g, p, n)
  local h = g:add_counter("health", p, -n)
  g:log(g:player_name(p), "'s hero takes ", n, " damage (", h, " health left)")
end

-- Is the match over (a hero at 0 health or less)?
function K.over(_, g)
  return g:counter("health", 1) <= 0 or g:counter("health", 2) <= 0
end

-- ---- moving --------------------------------------------------------------------------

-- Move a minion to the empty space (r, c) of its own side.
function K:move_to(g, id, r, c)
  local p = self:owner(g, id)
  local on = g:logging() -- the text only for someone who reads it
  local from = on and self:where(g, id)
  self.grid:place(g, id, p, r, c)
  g:log(on and g:name(id) or "", " moves from ", from or "", " to ",
        on and self.grid:label(r, c) or "")
end

-- The empty spaces next to a minion on its side, as {r, c}.
function K:free_adjacent(g, id)
  local r, c, p = self.grid:pos(g, id)
  local out = {}
  for _, rc in ipairs(self.grid:adjacent(r, c)) do
    if self.grid:empty(g, p, rc[1], rc[2]) then out[#out + 1] = rc end
  end
  return out
end

return K
