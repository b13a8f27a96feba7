-- mlw/kernel.lua: the state of a Major League Wizardry match and the rules that read it:
-- wizards, mana and upkeep, the monster and trap zones, statuses, the event bus, damage,
-- destruction and drawing. Actions (what a turn may do) are in actions.lua.
--
-- The module is the kernel: it holds no match state (everything lives in `g`) and its
-- card table is filled by cards.lua at load. Every element in play listens to the event
-- bus (boardkit/events.lua): both wizards, every monster, and the trap of the player
-- whose turn it is NOT (a trap fires only during the opponent's turn). A card listens
-- through its definition's `on` table, which inherits its type's default script
-- (types.lua); a status listens through its own `on` table.

local status = require("boardkit.status")
local events = require("boardkit.events")

local K = { cards = {} }

K.START_HEALTH = 20
K.OPENING_HAND = 5
K.DRAW_PER_TURN = 1
K.MANA_CAP = 10
K.MAX_MONSTERS = 5 -- each wizard's counter `max_monsters` starts here; cards may change it
K.MAX_TRAPS = 1
K.HAND_LIMIT = 10
K.EMPTY_DECK_DAMAGE = 2

function K.other(p) return 3 - p end

function K.active(g) return g:counter("active") end

function K.turn_no(g) return g:counter("turn") end

function K.def(g, id) return K.cards[g:name(id)] end

function K.owner(g, id)
  local _, p = g:zone_of(id)
  return p
end

function K.zone(g, id) return (g:zone_of(id)) end

function K.wizard(g, p) return g:top("wizard", p) end

function K.is_wizard(g, id) return K.zone(g, id) == "wizard" end

function K.in_play(g, id) return K.zone(g, id) == "monsters" end

function K.monsters(g, p) return g:list("monsters", p) end

function K.trap(g, p) return g:top("trap", p) end

-- "Ogre (P2 slot 1)", "P1's wizard", or the card's name elsewhere.
function K.describe(g, id)
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
        g:log(K.describe(g, id), "'s shield absorbs the hit")
        return false
      end
    end } },
  -- Poison N: N damage at the start of its owner's turns while it lasts.
  { name = "poison", public = true,
    on = { ON_TURN_START = function(g, id, ctx)
      if K.owner(g, id) == ctx.player and K.in_play(g, id) then
        K.damage(g, id, st:get(g, id, "poison"), nil)
      end
    end } },
  -- Boost N: +N attack until it ends (undone then).
  { name = "boost", public = true, on_end = function(g, id, v)
    st:add(g, id, "attack", -v)
  end },
}
st = status.new(K.STATUSES)
K.st = st

-- The statuses that carry listeners.
K.LISTENING = {}
for _, d in ipairs(K.STATUSES) do
  if d.on then K.LISTENING[#K.LISTENING + 1] = d end
end

function K.stat(g, id, name) return st:get(g, id, name) end

-- ---- the event bus ------------------------------------------------------------------------

-- Listeners in the order triggers resolve: the active player's wizard and monsters, then
-- the other's wizard, monsters and trap. A question asked while the options are built
-- carries them in ctx.listeners (nothing changes meanwhile: K.live_listeners once per
-- decision).
function K.listeners(g)
  local a = K.active(g)
  if a == 0 then a = 1 end
  local b = K.other(a)
  local out = { K.wizard(g, a) }
  local ids = K.monsters(g, a)
  for i = 1, #ids do out[#out + 1] = ids[i] end
  out[#out + 1] = K.wizard(g, b)
  ids = K.monsters(g, b)
  for i = 1, #ids do out[#out + 1] = ids[i] end
  local t = K.trap(g, b)
  if t then out[#out + 1] = t end
  return out
end

-- The listeners that have a handler at all (a card with an `on` table, or a status that
-- listens): the same answers as K.listeners for any event, fewer walks. For questions
-- asked while nothing changes (the options of one decision).
function K.live_listeners(g)
  local out, defs, ids, listening = {}, {}, K.listeners(g), K.LISTENING
  for i = 1, #ids do
    local id = ids[i]
    local def = K.def(g, id)
    local keep = def.on ~= nil
    for j = 1, #listening do
      if keep then break end
      keep = g:get(id, listening[j].name) ~= 0
    end
    if keep then
      out[#out + 1] = id
      defs[#out] = def
    end
  end
  out.defs = defs -- their card definitions, for the bus (boardkit/events.lua)
  return out
end

local function describe(g, id) return K.describe(g, id) .. " (entity " .. id .. ")" end

K.bus = events.new {
  status = st,
  card = function(g, id) return K.cards[g:name(id)] end,
  listeners = function(g, _, ctx)
    local L = ctx.listeners
    if L then return L, L.defs end
    return K.listeners(g)
  end,
  describe = describe,
}

-- Every listener must agree (CAN_* and BEFORE_* events).
function K.ask(g, ev, ctx) return K.bus:ask(g, ev, ctx) end

-- Tell every listener (ON_* events).
function K.emit(g, ev, ctx) K.bus:emit(g, ev, ctx) end

-- Run a card's own script (a spell's effect, an ability): an error names the card.
function K.run(g, id, what, fn, ...)
  return events.blame(describe, g, id, what, fn, ...)
end

-- ---- health, damage, destruction ----------------------------------------------------------

function K.health(g, id)
  if K.is_wizard(g, id) then return g:counter("health", K.owner(g, id)) end
  return st:get(g, id, "health")
end

function K.attack(g, id) return st:get(g, id, "attack") end

-- Deal n damage from source (an entity or nil) to target (a wizard or a monster in
-- play). BEFORE_DAMAGE may lower ctx.amount or veto; ON_DAMAGE follows. Returns the
-- damage dealt.
function K.damage(g, target, n, source)
  if n <= 0 then return 0 end
  if not K.is_wizard(g, target) and not K.in_play(g, target) then return 0 end
  local ctx = { target = target, amount = n, source = source }
  if not K.ask(g, "BEFORE_DAMAGE", ctx) or ctx.amount <= 0 then return 0 end
  n = ctx.amount
  local left
  if K.is_wizard(g, target) then
    left = g:add_counter("health", K.owner(g, target), -n)
  else
    left = st:add(g, target, "health", -n)
  end
  g:log(K.describe(g, target), " takes ", n, " damage (", left, " health left)")
  K.emit(g, "ON_DAMAGE", ctx)
  return n
end

-- Restore up to n health (a wizard up to its starting health, a monster up to its
-- maximum); returns the amount healed.
function K.heal(g, target, n)
  if K.is_wizard(g, target) then
    local p = K.owner(g, target)
    local h = math.min(g:counter("health", p) + n, K.START_HEALTH)
    local d = h - g:counter("health", p)
    g:set_counter("health", p, h)
    g:log(g:player_name(p), "'s wizard heals ", d, " (", h, " health)")
    return d
  end
  local h = math.min(st:get(g, target, "health") + n, st:get(g, target, "max_health"))
  local d = h - st:get(g, target, "health")
  st:set(g, target, "health", h)
  g:log(K.describe(g, target), " heals ", d)
  return d
end

-- The upkeep of p: the mana costs of p's monsters in play.
function K.upkeep(g, p)
  local n = 0
  local ids = K.monsters(g, p)
  for i = 1, #ids do n = n + K.def(g, ids[i]).cost end
  return n
end

local function publish_upkeep(g, p) g:set_counter("upkeep", p, K.upkeep(g, p)) end

-- A monster enters p's monster zone with its printed stats.
function K.summon(g, id, p)
  local def = K.def(g, id)
  g:move(id, "monsters", p)
  st:set(g, id, "attack", def.attack)
  st:set(g, id, "health", def.health)
  st:set(g, id, "max_health", def.health)
  g:set(id, "summoned", K.turn_no(g))
  g:set(id, "attacks", 0)
  g:set(id, "activated", 0)
  publish_upkeep(g, p)
end

-- A card in play (monster or trap) leaves for its owner's graveyard (or `zone`): its
-- statuses go.
function K.remove(g, id, zone)
  local p = K.owner(g, id)
  st:clear(g, id)
  g:move(id, zone or "grave", p)
  publish_upkeep(g, p)
end

-- A monster is destroyed: ON_DESTROY is told while it is still in play, then it goes.
function K.destroy(g, id)
  if not K.in_play(g, id) then return end
  g:log(K.describe(g, id), " is destroyed")
  K.emit(g, "ON_DESTROY", { unit = id, player = K.owner(g, id) })
  if K.in_play(g, id) then K.remove(g, id) end
end

-- Every monster at 0 health or less is destroyed, the active player's first.
function K.resolve_deaths(g)
  for _ = 1, 20 do
    local dead
    local a = K.active(g) == 0 and 1 or K.active(g)
    for _, p in ipairs { a, K.other(a) } do
      local ids = K.monsters(g, p)
      for i = 1, #ids do
        if not dead and st:get(g, ids[i], "health") <= 0 then dead = ids[i] end
      end
    end
    if not dead then return end
    K.destroy(g, dead)
  end
end

-- ---- cards in hand and deck ---------------------------------------------------------------

-- p draws n cards: an empty deck deals EMPTY_DECK_DAMAGE instead, a full hand loses the
-- card (shown to both).
function K.draw(g, p, n)
  for _ = 1, n do
    local id = g:top("deck", p)
    if not id then
      g:log(g:player_name(p), " has no card to draw")
      K.damage(g, K.wizard(g, p), K.EMPTY_DECK_DAMAGE, nil)
    elseif g:count("hand", p) >= g:counter("hand_limit", p) then
      g:move(id, "grave", p)
      g:log(g:player_name(p), "'s hand is full: ", { id }, " is lost")
    else
      g:move(id, "hand", p)
      g:log_to(p, "You draw ", { id })
    end
  end
end

-- Is the match over: a wizard at 0 health or less, or a surrender?
function K.over(g)
  return g:counter("health", 1) <= 0 or g:counter("health", 2) <= 0
    or g:counter("surrendered", 1) + g:counter("surrendered", 2) > 0
end

return K
