-- mlw/kernel.lua: the state of a Major League Wizardry match and the rules that read it:
-- wizards, mana and upkeep, the monster and trap zones, statuses, the event bus, damage,
-- destruction and drawing. Actions (what a turn may do) are in actions.lua.
--
-- The kernel is an object, as every kernel of the project (Elemental's, the
-- deck-builders'): its rules are methods (`k:damage(g, target, n)`), actions.lua adds
-- the turn's, and it holds no match state (everything lives in `g`). The module is the
-- bundle's one Wizardry kernel, because the card scripts call it from their listeners,
-- which the bus hands only (g, id, ctx); cards.lua fills its card table at load. Every
-- element in play listens to the event bus (boardkit/events.lua): both wizards, every
-- monster, and the trap of the player whose turn it is NOT (a trap fires only during
-- the opponent's turn). A card listens through its definition's `on` table, which
-- inherits its type's default script (types.lua); a status listens through its own
-- `on` table.

local status = require("boardkit.status")
local events = require("boardkit.events")
local hand = require("boardkit.hand")
local health = require("boardkit.health")

local K = { cards = {}, HANDLING = {} } -- HANDLING: the names of cards with an `on` table

K.START_HEALTH = 20
K.BODY = "wizard" -- the zone of a player's body (boardkit/health.lua)
K.OPENING_HAND = 5
K.DRAW_PER_TURN = 1
K.MANA_CAP = 10
K.MAX_MONSTERS = 5 -- each wizard's counter `max_monsters` starts here; cards may change it
K.MAX_TRAPS = 1
K.HAND_LIMIT = 10
K.EMPTY_DECK_DAMAGE = 2

function K.other(p) return 3 - p end

function K.active(_, g) return g:counter("active") end

function K.turn_no(_, g) return g:counter("turn") end

function K:def(g, id) return self.cards[g:name(id)] end

function K.owner(_, g, id)
  local _, p = g:zone_of(id)
  return p
end

function K.zone(_, g, id) return (g:zone_of(id)) end

function K.wizard(_, g, p) return g:top("wizard", p) end

function K:is_wizard(g, id) return self:zone(g, id) == "wizard" end

function K:in_play(g, id) return self:zone(g, id) == "monsters" end

function K.monsters(_, g, p) return g:list("monsters", p) end

function K.trap(_, g, p) return g:top("trap", p) end

-- "Ogre (P2 slot 1)", "P1's wizard", or the card's name elsewhere.
function K.describe(_, g, id)
  local zone, p = g:zone_of(id)
  if zone == "wizard" then return g:player_name(p) .. "'s wizard" end
  if zone == "monsters" then
    for i, x in ipairs(g:list("monsters", p)) do
      if x == id then
        return g:name(id) .. " (" .. g:player_name(p) .. " slot " .. i .. ")"
      end
    end
  end
  return g:name(id)
end

-- ---- statuses -----------------------------------------------------------------------------

local st -- set below; the hooks need it

local function veto_self(_, id, ctx)
  if ctx.unit == id then return false end
end

-- Statuses any element may hold, each carrying its own script. Durations count turns
-- (the shared counter `turn`); a status set "until the end of its owner's next turn"
-- ends at turn + 2.
K.STATUSES = {
  { name = "attack", public = true, keep = true },
  { name = "health", public = true, keep = true },
  { name = "max_health", public = true, keep = true },
  -- Frozen: cannot attack, activate or defend.
  { name = "frozen", public = true,
    on = { CAN_ATTACK = veto_self, CAN_ACTIVATE = veto_self, CAN_DEFEND = veto_self } },
  -- Shield: the next damage is prevented, then the shield is gone.
  { name = "shield", public = true,
    on = { BEFORE_DAMAGE = function(g, id, ctx)
      if ctx.target == id and ctx.amount > 0 then
        st:set(g, id, "shield", 0)
        g:log(K:describe(g, id), "'s shield absorbs the hit")
        return false
      end
    end } },
  -- Poison N: N damage at the start of its owner's turns while it lasts.
  { name = "poison", public = true,
    on = { ON_TURN_START = function(g, id, ctx)
      if K:owner(g, id) == ctx.player and K:in_play(g, id) then
        K:damage(g, id, st:get(g, id, "poison"), nil)
      end
    end } },
  -- Boost N: +N attack until it ends (undone then).
  { name = "boost", public = true, on_end = function(g, id, v)
    st:add(g, id, "attack", -v)
  end },
}
st = status.new(K.STATUSES)
K.st = st

-- The statuses that carry listeners, and their names.
K.LISTENING, K.LISTENING_NAMES = {}, {}
for _, d in ipairs(K.STATUSES) do
  if d.on then
    K.LISTENING[#K.LISTENING + 1] = d
    K.LISTENING_NAMES[#K.LISTENING_NAMES + 1] = d.name
  end
end

function K.stat(_, g, id, name) return st:get(g, id, name) end

-- ---- the event bus ------------------------------------------------------------------------

-- Listeners in the order triggers resolve: the active player's wizard and monsters, then
-- the other's wizard, monsters and trap. A question asked while the options are built
-- carries them in ctx.listeners (nothing changes meanwhile: k:live_listeners once per
-- decision). One g:gather (in C) reads the four zones in that order.
local LISTENING_ZONES = { "wizard", "monsters", "wizard", "monsters" }

function K:listeners(g)
  local a = self:active(g)
  if a == 0 then a = 1 end
  local b = K.other(a)
  local out = g:gather(LISTENING_ZONES, a, a, b, b)
  local t = self:trap(g, b)
  if t then out[#out + 1] = t end
  return out
end

-- The listeners that have a handler at all (a card with an `on` table, or a status that
-- listens): the same answers as k:listeners for any event, fewer walks. For questions
-- asked while nothing changes (the options of one decision). One g:pick (in C) finds
-- them: a card in HANDLING (cards.lua fills it at load) or a listening status held.
function K:live_listeners(g)
  local out, names = g:pick(self:listeners(g), K.HANDLING, K.LISTENING_NAMES, "names")
  local defs, cards = {}, self.cards
  for i = 1, #names do defs[i] = cards[names[i]] end
  out.defs = defs -- their card definitions, for the bus (boardkit/events.lua)
  return out
end

-- Every listener must agree (CAN_* and BEFORE_* events).
function K:ask(g, ev, ctx) return self.bus:ask(g, ev, ctx) end

-- Tell every listener (ON_* events).
function K:emit(g, ev, ctx) self.bus:emit(g, ev, ctx) end

-- Run a card's own script (a spell's effect, an ability): an error names the card.
function K:run(g, id, what, fn, ...)
  return events.blame(self.bus.describe, g, id, what, fn, ...)
end

-- ---- health, damage, destruction ----------------------------------------------------------

function K:health_of(g, id)
  if self:is_wizard(g, id) then return g:counter("health", self:owner(g, id)) end
  return st:get(g, id, "health")
end

function K.attack_of(_, g, id) return st:get(g, id, "attack") end

-- Deal n damage from source (an entity or nil) to target (a wizard or a monster in
-- play). BEFORE_DAMAGE may lower ctx.amount or veto; ON_DAMAGE follows. Returns the
-- damage dealt.
function K:damage(g, target, n, source)
  if n <= 0 then return 0 end
  if not self:is_wizard(g, target) and not self:in_play(g, target) then return 0 end
  local ctx = { target = target, amount = n, source = source }
  if not self:ask(g, "BEFORE_DAMAGE", ctx) or ctx.amount <= 0 then return 0 end
  n = ctx.amount
  local left
  if self:is_wizard(g, target) then
    left = g:add_counter("health", self:owner(g, target), -n)
  else
    left = st:add(g, target, "health", -n)
  end
  g:log(g:logging() and self:describe(g, target) or "", " takes ", n, " damage (", left,
        " health left)")
  self:emit(g, "ON_DAMAGE", ctx)
  return n
end

-- Restore up to n health (a wizard up to its starting health, a monster up to its
-- maximum); returns the amount healed.
K.heal = health.heal

-- The upkeep of p: the mana costs of p's monsters in play.
function K:upkeep(g, p)
  local n = 0
  local ids = self:monsters(g, p)
  for i = 1, #ids do n = n + self:def(g, ids[i]).cost end
  return n
end

local function publish_upkeep(self, g, p) g:set_counter("upkeep", p, self:upkeep(g, p)) end

-- The statuses each monster card enters play with (its printed attack and health), by
-- card name, for one g:status_enter; cards.lua builds it at load from the card data.
K.entry = {}

local ENTRY_STATS = { "attack", "health", "max_health" }

function K:index_entries()
  for name, def in pairs(self.cards) do
    if def.attack then
      local e = { names = ENTRY_STATS, untils = {},
                  values = { def.attack, def.health, def.health } }
      for i, stat in ipairs(ENTRY_STATS) do e.untils[i] = st.until_attr[stat] end
      self.entry[name] = e
    end
  end
end

-- A monster enters p's monster zone with its printed stats (one g:status_enter, in C:
-- what a st:set per stat does on a card that holds none).
function K:summon(g, id, p)
  g:move(id, "monsters", p)
  local e = self.entry[g:name(id)]
  g:status_enter(id, e.names, e.untils, e.values)
  g:set(id, "summoned", self:turn_no(g))
  g:set(id, "attacks", 0)
  g:set(id, "activated", 0)
  publish_upkeep(self, g, p)
end

-- A card in play (monster or trap) leaves for its owner's graveyard (or `zone`): its
-- statuses go.
function K:remove(g, id, zone)
  local p = self:owner(g, id)
  st:clear(g, id)
  g:move(id, zone or "grave", p)
  publish_upkeep(self, g, p)
end

-- A monster is destroyed: ON_DESTROY is told while it is still in play, then it goes.
function K:destroy(g, id)
  if not self:in_play(g, id) then return end
  g:log(g:logging() and self:describe(g, id) or "", " is destroyed")
  self:emit(g, "ON_DESTROY", { unit = id, player = self:owner(g, id) })
  if self:in_play(g, id) then self:remove(g, id) end
end

-- Every monster at 0 health or less is destroyed, the active player's first (one at a
-- time: the first found; g:fallen, in C, reads both monster zones and their health).
local MONSTERS = { "monsters" }

function K:resolve_deaths(g)
  for _ = 1, 20 do
    local a = self:active(g)
    if a == 0 then a = 1 end
    local dead = g:fallen(MONSTERS, "health", false, a, K.other(a))[1]
    if not dead then return end
    self:destroy(g, dead)
  end
end

-- ---- cards in hand and deck ---------------------------------------------------------------

-- p draws n cards: an empty deck deals EMPTY_DECK_DAMAGE instead, a full hand (the
-- counter `hand_limit`) loses the card (shown to both).
function K:draw(g, p, n) hand.draw(g, p, n, self.hand) end

-- Is the match over: a wizard at 0 health or less, or a surrender?
function K.over(_, g)
  return g:counter("health", 1) <= 0 or g:counter("health", 2) <= 0
    or g:counter("surrendered", 1) + g:counter("surrendered", 2) > 0
end

-- Its event bus and its rules for drawing.
K.bus = events.new {
  status = st,
  card = function(g, id) return K.cards[g:name(id)] end,
  listeners = function(g, _, ctx)
    local L = ctx.listeners
    if L then return L, L.defs end
    return K:listeners(g)
  end,
  describe = function(g, id) return K:describe(g, id) .. " (entity " .. id .. ")" end,
}
K.hand = { limit = "hand_limit", lost = "grave", empty = function(g, p)
  g:log(g:player_name(p), " has no card to draw")
  K:damage(g, K:wizard(g, p), K.EMPTY_DECK_DAMAGE, nil)
end }

return K
